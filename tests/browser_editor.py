"""The student's own points, in Chromium (tests/test_browser.py runs these checks on every lesson that shows a
``PointEditor`` or a ``BrowserEditor``, on its first editor, and on lesson 03 in the app view). A `BrowserEditor`
(drawn in SVG by the browser) is driven by the same checks through its own readers (`JS_SHOWN`): each edit is
followed until the library's run is drawn (``data-run`` "library"), and "the same picture" is the same SVG.

`check_click_undo`: a real click on the picture adds a point, Undo gives back the same picture and words, Redo the
picture after the click. `check_drag_alt_click`: a real drag moves a point, alt-click removes it.
`check_keyboard_add`: the keyboard route ("Keyboard cursor", "Add here") adds one, Delete on the picture removes
it. `axe_serious`: axe-core finds nothing serious in an editor.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "editor"
#: A kernel-drawn `PointEditor`'s root, a `BrowserEditor`'s root.
SELECTOR = ".perceptron-editor, .perceptron-browsereditor"

# The picture's bytes: their SHA-256 and themselves (base64), to save both pictures when two that should match differ.
JS_PICTURE = """async (el) => { const img = el.querySelector('img.widget-image');
  const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return {hash: Array.from(d).map((b) => b.toString(16).padStart(2, '0')).join(''), png: btoa(bin)}; }"""

JS_STATE = """(el) => {
  const img = el.querySelector('img.widget-image');
  const ro = el.querySelector('.perceptron-readout');
  const msg = el.querySelector('.perceptron-edit-message');
  const m = ro ? /Your data: (\\d+) point/.exec(ro.innerText) : null;
  return {count: m ? Number(m[1]) : -1, readout: ro ? ro.innerText : '', src: img ? img.src : '',
          title: img ? img.title : '', message: msg ? msg.innerText : ''};
}"""


def _wait(page, editor, condition: str, where: str, timeout=15_000):
    try:
        page.wait_for_function(
            f"(el) => {{ const s = ({JS_STATE})(el); return {condition}; }}",
            arg=editor.element_handle(),
            timeout=timeout,
            polling=30,
        )
    except PlaywrightTimeoutError as exc:
        raise AssertionError(f"{where}: waited for {condition}; state {editor.evaluate(JS_STATE)}") from exc


#: The search for an empty spot runs in the page: the picture's pixels (millions of numbers at 2x)
#: never cross to Python. The candidates are fractions of the main (left) panel, centre first.
JS_EMPTY_SPOT = """(img) => {
  const w = img.naturalWidth, h = img.naturalHeight;
  const c = document.createElement('canvas'); c.width = w; c.height = h;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  const px = g.getImageData(0, 0, w, h).data;
  const css = img.getBoundingClientRect().width;
  const panelW = css < 700 ? w : w / 2;  // one panel or two side by side
  const r = Math.round(6 * w / css);  // 6 CSS px around the spot, at any pixel density
  const white = (x, y) => {
    for (let dy = -r; dy <= r; dy += Math.max(1, r >> 1))
      for (let dx = -r; dx <= r; dx += Math.max(1, r >> 1)) {
        const i = 4 * ((y + dy) * w + (x + dx));
        if (Math.min(px[i], px[i + 1], px[i + 2]) < 235) return false;
      }
    return true;
  };
  for (const fy of [0.45, 0.35, 0.55, 0.3, 0.6, 0.25, 0.65])
    for (const fx of [0.5, 0.4, 0.6, 0.3, 0.7, 0.35, 0.65]) {
      const x = Math.floor(fx * panelW), y = Math.floor(fy * h);
      if (white(x, y)) return {fx: x / w, fy: y / h};
    }
  return null;
}"""


def _empty_spot(editor):
    """A point of the picture (page coordinates) inside the main axes and away from every data point:
    the first spot of a coarse grid over the left panel whose pixels around it are plain background."""
    img = editor.locator("img.widget-image").first
    box = img.bounding_box()
    spot = img.evaluate(JS_EMPTY_SPOT)
    if spot is None:
        raise AssertionError("no empty spot found in the main panel")
    return box["x"] + spot["fx"] * box["width"], box["y"] + spot["fy"] * box["height"]


def _same_picture(a: dict, b: dict, where: str, what: str) -> None:
    """Assert two pictures (`JS_PICTURE`) have the same bytes; when not, save both to ARTIFACTS for a diff."""
    if a["hash"] == b["hash"]:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{where}-{what}").strip("_")
    for tag, pic in (("expected", a), ("got", b)):
        (ARTIFACTS / f"{stem}-{tag}.png").write_bytes(base64.b64decode(pic["png"]))
    saved = (ARTIFACTS / f"{stem}-{{expected,got}}.png").relative_to(REPO)
    raise AssertionError(f"{where}: {what} did not give back the same picture bytes (both saved as {saved})")


def check_click_undo(page, editor, where: str) -> dict:
    """A click on an empty spot adds a point; Undo gives back the words and the picture bytes, Redo the picture
    after the click, Undo again the start. Returns the state at the start."""
    if in_browser(editor):
        return _svg_click_undo(page, editor, where)
    editor.scroll_into_view_if_needed()
    s0 = editor.evaluate(JS_STATE)
    h0 = editor.evaluate(JS_PICTURE)
    assert s0["count"] > 0, f"{where}: the readout does not count the points: {s0['readout']!r}"
    assert "click" in s0["title"].lower(), f"{where}: the picture's alt/title does not say a click adds a point"
    x, y = _empty_spot(editor)
    page.mouse.click(x, y)
    _wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Added point')", f"{where}: click")
    h1 = editor.evaluate(JS_PICTURE)
    assert h1["hash"] != h0["hash"], f"{where}: the picture did not change after a click"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    _wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo")
    s2 = editor.evaluate(JS_STATE)
    assert s2["readout"] == s0["readout"], f"{where}: Undo did not give back the words"
    _same_picture(h0, editor.evaluate(JS_PICTURE), where, "Undo")
    editor.locator("button", has_text=re.compile(r"^\s*Redo\s*$")).click()
    _wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Redone')", f"{where}: Redo")
    _same_picture(h1, editor.evaluate(JS_PICTURE), where, "Redo")
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    _wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo again")
    return s0


def _at_same_picture_spot(editor, box_then: dict, xy: tuple) -> tuple:
    """Page coordinates now of the spot of the picture that was at `xy` when the picture's box was `box_then`."""
    box = editor.locator("img.widget-image").first.bounding_box()
    fx, fy = (xy[0] - box_then["x"]) / box_then["width"], (xy[1] - box_then["y"]) / box_then["height"]
    return box["x"] + fx * box["width"], box["y"] + fy * box["height"]


def check_drag_alt_click(page, editor, where: str) -> None:
    """A real drag moves a point (pressed on its centre, released on another empty spot); alt-click on it
    removes it. The point is one placed here first, so its centre is known."""
    if in_browser(editor):
        return _svg_drag_alt_click(page, editor, where)
    n = editor.evaluate(JS_STATE)["count"]
    x, y = _empty_spot(editor)
    page.mouse.click(x, y)
    _wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Added point')", f"{where}: add to drag")
    x2, y2 = _empty_spot(editor)
    before = editor.locator("img.widget-image").first.bounding_box()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + x2) / 2, (y + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    _wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Moved point')", f"{where}: drag")
    # the point where it was dropped, in the picture as it is laid out now: the new words beside the picture
    # may have resized it (the picture shares its row with the readout), so page coordinates are read again
    x3, y3 = _at_same_picture_spot(editor, before, (x2, y2))
    page.keyboard.down("Alt")
    page.mouse.click(x3, y3)
    page.keyboard.up("Alt")
    _wait(page, editor, f"s.count === {n} && s.message.startsWith('Removed point')", f"{where}: alt-click")


def check_keyboard_add(page, editor, where: str) -> None:
    """Keyboard only: "Keyboard cursor", then "Add here" adds a point; Delete with the pointer on the picture
    removes it (the cursor stays shown)."""
    if in_browser(editor):
        return _svg_keyboard_add(page, editor, where)
    n = editor.evaluate(JS_STATE)["count"]
    toggle = editor.locator("button", has_text="Keyboard cursor")
    page.mouse.move(1, 1)  # the pointer off the picture: while it is on it, the picture takes every key
    toggle.focus()
    page.keyboard.press("Space")  # a button's own key (JupyterLab keeps Enter for its command mode)
    add = editor.locator("button", has_text="Add here")
    add.wait_for(state="visible", timeout=10_000)
    # keyboard only: Tab from the cursor's sliders to "Add here", Space
    add.focus()
    page.keyboard.press("Space")
    _wait(page, editor, f"s.count === {n + 1} || s.message.startsWith('Not done')", f"{where}: Add here")
    state = editor.evaluate(JS_STATE)
    if state["count"] == n:  # the centre was taken: move the cursor from the keyboard, then add
        slider = editor.locator(".widget-slider .noUi-handle").first
        slider.focus()
        for _ in range(8):
            page.keyboard.press("ArrowRight")
        add.focus()
        page.keyboard.press("Space")
        _wait(page, editor, f"s.count === {n + 1}", f"{where}: Add here after moving the cursor")
    # with the pointer on the picture, the arrow keys move the cursor and Delete removes the nearest point
    editor.locator("img.widget-image").first.hover()
    page.keyboard.press("Delete")
    _wait(page, editor, f"s.count === {n}", f"{where}: Delete on the picture")


def axe_serious(page, editor) -> list[str]:
    """The serious and critical axe-core (WCAG 2 A, AA) violations inside `editor`, one line per element."""
    import axe_playwright_python

    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate(
        """(el) => axe.run(el, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})""", editor.element_handle()
    )
    return [
        f"{v['id']} ({v['impact']}): {n['target']} - {v['help']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for n in v["nodes"]
    ]


def shows_editor(path: Path) -> bool:
    """Whether the notebook at `path` makes a ``PointEditor`` or a ``BrowserEditor`` (then the page must show a
    `SELECTOR`)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return any(c["cell_type"] == "code" and re.search(r"\b(PointEditor|BrowserEditor)\(", "".join(c["source"]))
               for c in nb["cells"])


def screenshot(editor, stem: str) -> None:
    """The editor's picture and controls, to ``ARTIFACTS/stem-editor.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    editor.screenshot(path=str(ARTIFACTS / f"{stem}-editor.png"))


# ---------------------------------------------------------------------------------------------- a BrowserEditor
#: What a `BrowserEditor` shows: its points (the markers' centres, page px), the data panel's plot box, the readout,
#: the message, whose run is drawn, the step, and the data panel's SVG with its per-page ids made plain.
JS_SHOWN = """(el) => {
  const centre = (e) => { const r = e.getBoundingClientRect();
                          return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
  const plot = el.querySelector('.pp-axes rect').getBoundingClientRect();
  const svg = el.querySelector('svg');
  const points = [...el.querySelectorAll('path.pp-point')].map(centre);
  return {points, count: points.length,
          plot: [plot.left, plot.top, plot.right, plot.bottom], run: el.dataset.run,
          readout: [...el.querySelectorAll('.pp-readout p')].map((p) => p.textContent).join('\\n'),
          message: el.querySelector('.pe-message').textContent,
          svg: svg ? svg.outerHTML.replace(/(clip|editor)-\\d+/g, '$1-N') : '',
          title: el.querySelector('.pp-picture').getAttribute('aria-label') || ''};
}"""


def in_browser(editor) -> bool:
    """True for a `BrowserEditor` (drawn in SVG in the browser), False for a kernel-drawn `PointEditor`."""
    return editor.evaluate("(el) => el.classList.contains('perceptron-browsereditor')")


def _shown_wait(page, editor, condition: str, where: str, timeout=15_000) -> dict:
    """Wait until `condition` (JavaScript over ``s``, `JS_SHOWN`) holds with the library's run drawn; returns s."""
    try:
        page.wait_for_function(
            f"(el) => {{ const s = ({JS_SHOWN})(el); return s.run === 'library' && ({condition}); }}",
            arg=editor.element_handle(), timeout=timeout, polling=30)
    except PlaywrightTimeoutError as exc:
        state = {k: v for k, v in editor.evaluate(JS_SHOWN).items() if k != "svg"}
        raise AssertionError(f"{where}: waited for {condition} and the library's run; state {state}") from exc
    return editor.evaluate(JS_SHOWN)


def _svg_spot(shown, away=25.0) -> tuple:
    """A spot in the data panel's plot at least `away` px from every marker."""
    x0, y0, x1, y1 = shown["plot"]
    for fy in (0.45, 0.3, 0.7, 0.55, 0.2, 0.8, 0.35, 0.65):
        for fx in (0.5, 0.7, 0.3, 0.6, 0.2, 0.8, 0.4):
            x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
            if all((x - px) ** 2 + (y - py) ** 2 > away**2 for px, py in shown["points"]):
                return x, y
    raise AssertionError("no empty spot in the data panel")


def _svg_click_undo(page, editor, where: str) -> dict:
    editor.locator(".pp-picture").scroll_into_view_if_needed()
    s0 = _shown_wait(page, editor, "true", f"{where}: the editor's first run")
    assert s0["count"] > 0, f"{where}: the editor shows no points"
    assert "click" in s0["title"].lower(), f"{where}: the picture's name does not say what a click does"
    page.mouse.click(*_svg_spot(s0))
    s1 = _shown_wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Added point')",
                     f"{where}: click")
    assert s1["svg"] != s0["svg"], f"{where}: the picture did not change after a click"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    s2 = _shown_wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo")
    assert s2["readout"] == s0["readout"], f"{where}: Undo did not give back the words"
    assert s2["svg"] == s0["svg"], f"{where}: Undo did not give back the same picture"
    editor.locator("button", has_text=re.compile(r"^\s*Redo\s*$")).click()
    s3 = _shown_wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Redone')",
                     f"{where}: Redo")
    assert s3["svg"] == s1["svg"] and s3["readout"] == s1["readout"], f"{where}: Redo did not give back the picture"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    _shown_wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo again")
    return s0


def _svg_drag_alt_click(page, editor, where: str) -> None:
    s0 = _shown_wait(page, editor, "true", f"{where}: before the drag")
    n = s0["count"]
    x, y = _svg_spot(s0)
    page.mouse.click(x, y)
    s1 = _shown_wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Added point')",
                     f"{where}: add to drag")
    x, y = s1["points"][n]  # the new point as the page lays it out now (the words beside it may have moved it)
    x2, y2 = _svg_spot(s1)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + x2) / 2, (y + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    s2 = _shown_wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Moved point')", f"{where}: drag")
    moved = s2["points"][n]  # the point where it was dropped, as the page lays it out now
    page.keyboard.down("Alt")
    page.mouse.click(*moved)
    page.keyboard.up("Alt")
    s3 = _shown_wait(page, editor, f"s.count === {n} && s.message.startsWith('Removed point')", f"{where}: alt-click")
    assert s3["readout"].partition("Your data")[2] == s0["readout"].partition("Your data")[2], (
        f"{where}: the drag moved another point than the one placed to drag: {s0['readout']!r} then {s3['readout']!r}")


def _svg_keyboard_add(page, editor, where: str) -> None:
    s0 = _shown_wait(page, editor, "true", f"{where}: before the keyboard")
    n = s0["count"]
    page.mouse.move(1, 1)  # the pointer off the picture
    editor.locator("button", has_text="Keyboard cursor").focus()
    page.keyboard.press("Space")
    add = editor.locator("button", has_text="Add here")
    add.wait_for(state="visible", timeout=10_000)
    editor.locator(".pp-picture").focus()
    page.keyboard.press("Enter")
    for _ in range(6):  # the centre was taken: move the cursor from the keyboard, and add again
        if editor.evaluate(JS_SHOWN)["count"] == n + 1:
            break
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Enter")
    _shown_wait(page, editor, f"s.count === {n + 1}", f"{where}: Enter at the cursor")
    page.keyboard.press("Delete")
    s2 = _shown_wait(page, editor, f"s.count === {n}", f"{where}: Delete at the cursor")
    page.keyboard.press("Escape")
    assert s2["readout"].partition("Your data")[2] == s0["readout"].partition("Your data")[2], (
        f"{where}: Delete removed another point than the one the cursor added")
