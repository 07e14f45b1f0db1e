"""Players and live figures of a lesson, measured and driven by keys in JupyterLab (tests/test_browser.py
runs these checks on each lesson in each style preset, ``notebook`` and ``lecture``, the kernel's ``COURSE_STYLE``).

`check_fit`, for every ``.perceptron-browserplayer`` (its picture is an SVG: its CSS
size is the SVG's own width, its name the ``role="img"`` box's aria-label) and ``.perceptron-livefigure`` (there is
at least one):

* the picture is never shown larger than its CSS size (its frames have 2 pixels per CSS pixel, for a
  high-density screen), keeps its aspect ratio, and at 1440x900 with the file browser open is shown at
  0.9 of its CSS size or more;
* no text of the widget (buttons, readout, key help, and a browser player's SVG text at the scale it is shown)
  is smaller than 11 CSS px (notebook preset) or 18 px (lecture); a PNG picture's own text is checked in
  ``test_frames.py``;
* picture, Step button and the readout's first line (and a run switch's choice and a controlled
  player's settings, beside the picture or under it) fit in one
  view of the notebook, measured at 1440x900 with the file browser open and at 1280x720 (a projector)
  with it closed;
* the picture has alt text, and every button has a name (text or aria-label).

`check_keys`: with the pointer on a player's picture (and on a browser player, with the picture focused
and the pointer elsewhere), → steps, ← steps back, End goes to the last update of
the run on show, Home to the start, space plays and pauses. `check_browser_switch`: after a run switch's
change End goes to the new run's last update (it once went to the previous run's), and every panel keeps its axes.

Screenshots of the first player of each lesson at each size go to ``tests/artifacts/player/``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "player"
VIEWS = {"lab-1440x900": ((1440, 900), True), "projector-1280x720": ((1280, 720), False)}
TIMEOUT_MS = 180_000
LEAST_SCALE = 0.9  # at 1440x900 with the file browser open
SMALLEST_TEXT_PX = {"notebook": 11.0, "lecture": 18.0}
JS_TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
JS_PICTURES_READY = """() => { const imgs = [...document.querySelectorAll('.jp-Notebook img.widget-image')];
  const drawn = [...document.querySelectorAll('.jp-Notebook .perceptron-browserplayer')];
  return imgs.length + drawn.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0)
    && drawn.every((p) => !!p.querySelector('.pp-picture svg'))
    && !document.body.innerText.includes('Loading widget'); }"""
WIDGETS = ".perceptron-livefigure, .perceptron-browserplayer"
#: The picture a player shows: a PNG (kernel-drawn players) or the browser player's SVG.
PICTURE = "img.widget-image, .pp-picture"


# ----------------------------------------------------------------------------- in-page measurements

# The boxes that must fit in one view, relative to the notebook's scroll area.
JS_MEASURE = """(el) => {
  const scroller = el.closest('.jp-WindowedPanel-outer') || el.closest('.jp-Notebook');
  const view = scroller.getBoundingClientRect();
  const svg = el.querySelector('.pp-picture svg');  // a browser player's picture
  const img = el.querySelector('img.widget-image') || svg;
  const step = [...el.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Step');
  const head = el.querySelector('.perceptron-readout b') || el.querySelector('.pp-readout b')
               || el.querySelector('.widget-html-content');
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return [r.top, r.bottom, r.left, r.right]; };
  const unnamed = [...el.querySelectorAll('button')].filter((b) => b.offsetParent !== null
      && !(b.textContent.trim() || b.getAttribute('aria-label') || b.getAttribute('title'))).length;
  // the picture's CSS size is the px bound of its max-width (picture.picture_layout), an SVG's its own width
  const css = svg ? [0, svg.width.baseVal.value] : img ? /([0-9.]+)px/.exec(img.style.maxWidth) : null;
  const shownBox = img ? img.getBoundingClientRect() : null;
  const svgScale = svg ? shownBox.width / svg.viewBox.baseVal.width : 1;
  // the smallest text shown in the widget: every element with a text node of its own, on screen
  let smallest = Infinity, smallestText = '';
  for (const e of el.querySelectorAll('*')) {
    if (!e.offsetParent) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const px = parseFloat(getComputedStyle(e).fontSize) * (svg && svg.contains(e) ? svgScale : 1);
    if (px < smallest) { smallest = px; smallestText = e.textContent.trim().slice(0, 40); }
  }
  const sw = el.closest('.perceptron-browserswitch, .perceptron-browsercontrolled');
  return {view: [view.top, view.bottom], img: box(img), step: box(step), head: box(head),
          switch: sw ? box(sw.querySelector('.widget-toggle-buttons, .perceptron-choice, .pc-settings')) : null,
          natural: svg ? [svg.width.baseVal.value, svg.height.baseVal.value]
                   : img ? [img.naturalWidth, img.naturalHeight] : null, css: css ? Number(css[1]) : null,
          shown: shownBox ? [shownBox.width, shownBox.height] : null,
          alt: svg ? svg.closest('[role=img]').getAttribute('aria-label') : img ? (img.alt || img.title) : null,
          unnamed, smallest, smallestText, dpr: window.devicePixelRatio};
}"""

JS_K = """(el) => { const b = el.querySelector('.perceptron-k input, .pp-controls input[type=number]');
  if (b) return [Number(b.value), Number(b.max)];
  const h = el.querySelector(':scope > .widget-slider .noUi-handle');
  return h ? [Number(h.getAttribute('aria-valuenow')), Number(h.getAttribute('aria-valuemax'))] : null; }"""

JS_PLAYING = "(el) => [...el.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Pause')"


def _settled(page) -> None:
    """The layout has been applied and painted: two animation frames have passed."""
    page.evaluate(JS_TWO_FRAMES)


def set_view(page, name: str) -> None:
    """The window of `VIEWS[name]`, the file browser open or closed as it says, laid out and painted."""
    (w, h), browser_open = VIEWS[name]
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_function(f"() => window.innerWidth === {w} && window.innerHeight === {h}", timeout=10_000)
    shown = page.evaluate("() => !window.jupyterapp.shell.leftCollapsed")
    if shown != browser_open:
        page.evaluate("window.jupyterapp.commands.execute('filebrowser:toggle-main')")
        page.wait_for_function(
            f"() => window.jupyterapp.shell.leftCollapsed === {str(not browser_open).lower()}", timeout=10_000
        )
    _settled(page)


def _fits(page, el, where: str, *, preset: str, least_scale: float | None) -> dict:
    # Put the top of the widget (or of its run switch) at the top of the notebook's view, as a student
    # scrolls to it.
    el.evaluate("(e) => (e.closest('.perceptron-browserswitch, .perceptron-browsercontrolled')"
                " || e).scrollIntoView({block: 'start'})")
    _settled(page)
    m = el.evaluate(JS_MEASURE)
    assert m["img"] and m["natural"][0] > 0, f"{where}: no picture"
    (nw, nh), (cw, ch), css = m["natural"], m["shown"], m["css"]
    assert css, f"{where}: the picture has no CSS size (max-width in px)"
    assert cw <= css + 0.5 and cw <= nw + 0.5, f"{where}: picture {nw}x{nh} px (CSS {css}) shown {cw}x{ch} (stretched)"
    assert abs(cw / ch - nw / nh) < 0.02 * nw / nh, f"{where}: aspect ratio changed ({nw}x{nh} -> {cw}x{ch})"
    if least_scale is not None:
        assert cw >= least_scale * css - 0.5, f"{where}: picture of {css} CSS px shown at {cw} ({cw / css:.2f})"
    assert m["smallest"] >= SMALLEST_TEXT_PX[preset] - 0.01, (
        f"{where}: text {m['smallestText']!r} at {m['smallest']:.1f} px < {SMALLEST_TEXT_PX[preset]}"
    )
    assert m["alt"] and len(m["alt"]) > 15, f"{where}: picture without alt text"
    assert m["unnamed"] == 0, f"{where}: {m['unnamed']} buttons without a name"
    parts = [m["img"]] + [b for b in (m["step"], m["head"], m["switch"]) if b]
    if m["step"] is not None:  # a player: its switch, Step button and readout headline are in the same view
        top, bottom = min(p[0] for p in parts), max(p[1] for p in parts)
        view = m["view"][1] - m["view"][0]
        assert bottom - top <= view, (
            f"{where}: switch + picture + Step + readout line: {bottom - top:.0f} px > view {view:.0f}"
        )
        m["span"] = [round(bottom - top), round(view)]
        assert top >= m["view"][0] - 0.5 and bottom <= m["view"][1] + 0.5, (
            f"{where}: scrolled to its top, the player runs from {top:.0f} to {bottom:.0f} px, out of the "
            f"view {m['view'][0]:.0f}..{m['view'][1]:.0f}"
        )
    return m


def _press(page, el, key: str) -> None:
    # a picture takes keys while the pointer is over it or while it has the focus
    el.locator(PICTURE).first.hover()
    page.keyboard.press(key)


def _wait_k(page, el, want, where):
    try:
        page.wait_for_function(
            f"(el) => {{ const k = ({JS_K})(el); return k && {want}; }}",
            arg=el.element_handle(),
            timeout=10_000,
            polling=30,
        )
    except PlaywrightTimeoutError as exc:
        raise AssertionError(f"{where}: k is {el.evaluate(JS_K)}, expected {want}") from exc


def check_keys(page, player, where: str) -> None:
    """The keys on a player just after Run All (at its start, or at its end where the lesson shows the end first:
    Home takes it to the start); back at k = 0 at the end."""
    player.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    k, K = player.evaluate(JS_K)
    assert k in (0, K), f"{where}: after Run All the player is at k = {k}, neither its start nor its end"
    if k == K:
        _press(page, player, "Home")
        _wait_k(page, player, "k[0] === 0", f"{where}: Home from the end")
    _press(page, player, "ArrowRight")
    _wait_k(page, player, "k[0] === 1", f"{where}: ArrowRight")
    _press(page, player, "ArrowLeft")
    _wait_k(page, player, "k[0] === 0", f"{where}: ArrowLeft")
    _press(page, player, "End")
    _wait_k(page, player, f"k[0] === {K}", f"{where}: End")
    _press(page, player, "Home")
    _wait_k(page, player, "k[0] === 0", f"{where}: Home")
    _press(page, player, " ")
    page.wait_for_function(JS_PLAYING, arg=player.element_handle(), timeout=5000)
    _press(page, player, " ")
    page.wait_for_function(f"(el) => !({JS_PLAYING})(el)", arg=player.element_handle(), timeout=5000)
    _press(page, player, "Home")
    _wait_k(page, player, "k[0] === 0", f"{where}: Home after play")
    picture = player.locator(".pp-picture")
    if picture.count():  # a browser player listens while its picture has the focus, the pointer elsewhere
        page.mouse.move(1, 1)
        picture.first.focus()
        page.keyboard.press("ArrowRight")
        _wait_k(page, player, "k[0] === 1", f"{where}: ArrowRight with the focus")
        page.keyboard.press("Home")
        _wait_k(page, player, "k[0] === 0", f"{where}: Home with the focus")
        picture.first.evaluate("(e) => e.blur()")


JS_AXES = """(el) => [...el.querySelectorAll('svg')].filter((s) => s.querySelector('.pp-axes'))
  .map((s) => s.querySelector('.pp-axes').outerHTML)"""

JS_HEAD = "(el) => { const b = el.querySelector('.pp-readout b'); return b ? b.textContent : null; }"


def check_browser_switch(page, switch, where: str) -> list[int]:
    """Each run of a BrowserSwitch (its radio buttons), from the start: the chosen run's player with that run's
    K, every panel's axes as they were (one view and one range per panel for all runs), then End: the last update
    of that run; back to the first run at the end. Returns each run's K."""
    labels = switch.locator(".perceptron-choice label")
    _press(page, switch, "Home")
    _wait_k(page, switch, "k[0] === 0", f"{where}: Home")
    axes = switch.evaluate(JS_AXES)
    done = []
    for j in list(range(1, labels.count())) + [0]:
        labels.nth(j).click()
        try:
            page.wait_for_function(
                f"""([el, j]) => {{ const r = el.querySelectorAll('.perceptron-choice input')[j];
                     const b = el.querySelector('.pp-readout b'); const k = ({JS_K})(el);
                     const m = b && /^Start state \\(update 0 of (\\d+)\\)/.exec(b.textContent);
                     return r.checked && !!m && !!k && k[0] === 0 && k[1] === Number(m[1]); }}""",
                arg=[switch.element_handle(), j],
                timeout=10_000,
                polling=30,
            )
        except PlaywrightTimeoutError as exc:
            raise AssertionError(f"{where} run {j}: not shown from its start ({switch.evaluate(JS_HEAD)!r})") from exc
        assert switch.evaluate(JS_AXES) == axes, f"{where} run {j}: the axes changed with the run"
        K = switch.evaluate(JS_K)[1]
        # the radio button just clicked has the focus, and a field keeps its keys: the keys go to the picture
        switch.locator(".pp-picture").first.focus()
        page.keyboard.press("End")
        _wait_k(page, switch, f"k[0] === k[1] && k[1] === {K}", f"{where} run {j}: End")
        want = f"Update {K} of {K}" if K else "Start state"
        head = switch.evaluate(JS_HEAD)
        assert head and head.startswith(want), f"{where} run {j}: End shows {head!r}, not {want!r}"
        done.append(K)
        page.keyboard.press("Home")
        _wait_k(page, switch, "k[0] === 0", f"{where} run {j}: Home")
    switch.locator(".pp-picture").first.evaluate("(e) => e.blur()")
    return done


def pictures_ready(page, where: str) -> int:
    """Wait until every picture in the notebook has loaded; the number of players and live figures."""
    n = page.locator(WIDGETS).count()
    assert n > 0, f"{where}: no player or live figure"
    page.wait_for_function(JS_PICTURES_READY, timeout=TIMEOUT_MS, polling=100)
    return n


def check_fit(page, i: int, view: str, where: str, *, preset: str, shot: str | None = None) -> dict:
    """The `i`-th player or live figure fits in the view `view` (set by `set_view`); with `shot`, a screenshot of
    the page scrolled to it goes to ``ARTIFACTS/shot``. Returns the measures (`JS_MEASURE`; a player's ``span``:
    the px from its switch or Step button to the lowest of them, picture and headline, and the view's px)."""
    m = _fits(
        page,
        page.locator(WIDGETS).nth(i),
        where,
        preset=preset,
        least_scale=LEAST_SCALE if view == "lab-1440x900" else None,
    )
    if shot:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / shot))
    return m


def in_switch(page, i: int) -> bool:
    """Whether the `i`-th player is a run switch's."""
    return page.locator(WIDGETS).nth(i).evaluate(
        "(e) => !!e.closest('.perceptron-browserswitch')")
