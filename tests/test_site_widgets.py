"""Live players in the site and the decks with no kernel (issue #30, item 4; tools/widget_embed.py).

Without a browser:

* `LiveWidgets` keeps the widget view of an anywidget (with only layout around it) and drops it for a
  kernel-side widget (its recording stays); the state keeps the live widgets' models only, each module text
  once; a notebook with no live widget keeps no state;
* the npm pins: the anywidget front end meets the Python anywidget's ``_model_module_version``, the widget
  manager draws ipywidgets' base and controls versions, and a tarball whose bytes differ from the pinned
  integrity is refused;
* a page with a live widget: its still (with its alt) before the view's JSON, the front end loaded deferred
  in order from the page's widgets folder, nothing from the network.

In Chromium (marker ``browser``), on lesson 00 built as ``make site`` (notebook preset) and ``make slides``
(lecture preset) build it, into a tmp folder: over file:// with every request that is not file:, data: or
blob: blocked and counted (0), and over http from a local server with every other request counted (0), the
BrowserPlayer steps: a click on Step shows frame 1 (the picture's name and the readout are the run's words
at update 1, as the widget state holds them; the SVG changed). In the deck the arrow keys move the deck on
after that click, and step the player while the pointer is on its picture; axe-core finds nothing serious or
critical in the drawn players. The sizes of the builds and what the front end costs per player and per page
are printed (``pytest -s``). Screenshots go to ``tests/artifacts/site_widgets/``.
"""

from __future__ import annotations

import copy
import functools
import http.server
import json
import re
import shutil
import threading
from pathlib import Path

import nbformat
import pytest

from tools import build_site, build_slides, widget_embed
from tools import course_export as ce

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "site_widgets"
LESSON = "00_start_here"
STATE_RE = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">\s*(.*?)\s*</script>', re.S)


# ----------------------------------------------------------------------------- a notebook's widget state


def _model(module, name, version, **state):
    return {"model_module": module, "model_name": name, "model_module_version": version,
            "state": {"_model_module": module, "_model_name": name, **state}}  # fmt: skip


ESM = "export default { render({ model, el }) { el.textContent = model.get('k'); } };"


def _state() -> dict:
    """Two anywidget players (same module), a kernel-side box (buttons, an ipyevents model) and an anywidget
    boxed with a kernel-side button."""
    layout = lambda: _model("@jupyter-widgets/base", "LayoutModel", "2.0.0")  # noqa: E731
    return {
        "L1": layout(), "L2": layout(), "L3": layout(), "L4": layout(),
        "A1": _model("anywidget", "AnyModel", "~0.11.*", _esm=ESM, k=0, layout="IPY_MODEL_L1"),
        "A2": _model("anywidget", "AnyModel", "~0.11.*", _esm=ESM, k=3, layout="IPY_MODEL_L2"),
        "BT": _model("@jupyter-widgets/controls", "ButtonModel", "2.0.0", layout="IPY_MODEL_L3"),
        "EV": _model("ipyevents", "EventModel", "2.0.4", source="IPY_MODEL_BT"),
        "BOX": _model("@jupyter-widgets/controls", "VBoxModel", "2.0.0", children=["IPY_MODEL_BT", "IPY_MODEL_EV"],
                      layout="IPY_MODEL_L4"),
        "MIX": _model("@jupyter-widgets/controls", "HBoxModel", "2.0.0", children=["IPY_MODEL_A2", "IPY_MODEL_BT"]),
    }  # fmt: skip


PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC"


def _shown(model_id: str) -> dict:
    """What a course player displays in a recording kernel: view, text, still with its alt, recording."""
    data = {ce.WIDGET_VIEW: {"model_id": model_id, "version_major": 2, "version_minor": 0},
            "text/plain": f"<player {model_id}>", "image/png": PNG_1PX,
            "text/html": f'<div class="perceptron-recording" id="rec-{model_id}">recorded</div>'}  # fmt: skip
    return nbformat.v4.new_output("display_data", data=data,
                                  metadata={"image/png": {"width": 1, "height": 1, "alt": f"still of {model_id}"}})


def _notebook(states: dict | None, shown=("A1", "BOX", "MIX", "A1")):
    cells = [nbformat.v4.new_code_cell("p", outputs=[_shown(mid)]) for mid in shown]
    for cell in cells:
        cell.metadata["slideshow"] = {"slide_type": "slide"}
    nb = nbformat.v4.new_notebook(cells=cells)
    if states is not None:
        nb.metadata["widgets"] = {widget_embed.WIDGET_STATE: {"state": states, "version_major": 2,
                                                              "version_minor": 0}}  # fmt: skip
    return nb


def _outputs(nb) -> list[dict]:
    return [c.outputs[0]["data"] for c in nb.cells]


def test_anywidget_views_come_alive_and_kernel_side_ones_keep_their_recording():
    nb, resources = widget_embed.LiveWidgets().preprocess(_notebook(_state()), {})
    live, box, mix, again = _outputs(nb)
    for data in (live, again):
        assert ce.WIDGET_VIEW in data and "text/html" not in data, "a live player shows itself, not its recording"
        assert data["image/png"] == PNG_1PX, "its still stays, for the page to show until the player is drawn"
    for data in (box, mix):  # a kernel-side box, and an anywidget boxed with a kernel-side button
        assert ce.WIDGET_VIEW not in data and "perceptron-recording" in data["text/html"]
    state = nb.metadata["widgets"][widget_embed.WIDGET_STATE]["state"]
    assert sorted(state) == ["A1", "L1"], "the state keeps the live views' models only"
    info = resources["course_widgets"]
    assert info["views"] == 2 and list(info["modules"].values()) == [ESM]
    assert state["A1"]["state"]["_esm"] == {widget_embed.SHARED_KEY: next(iter(info["modules"]))}
    assert info["state_bytes"] == len(json.dumps(nb.metadata["widgets"][widget_embed.WIDGET_STATE]).encode())


def test_one_module_text_per_distinct_esm_and_no_state_without_a_live_widget():
    states = _state()
    states["MIX"]["state"]["children"] = ["IPY_MODEL_A2"]  # now a box of an anywidget only: live
    _, resources = widget_embed.LiveWidgets().preprocess(_notebook(states), {})
    assert resources["course_widgets"]["views"] == 3 and len(resources["course_widgets"]["modules"]) == 1
    for nb in (_notebook(None), _notebook({k: v for k, v in _state().items() if not k.startswith("A")}, ("BOX",))):
        nb, resources = widget_embed.LiveWidgets().preprocess(nb, {})
        assert "widgets" not in nb.metadata and resources["course_widgets"]["views"] == 0
        assert all(ce.WIDGET_VIEW not in d for d in _outputs(nb))


def test_a_view_whose_model_is_missing_is_not_live():
    states = _state()
    del states["L1"]
    assert not widget_embed.runs_in_page(states, "A1")
    assert widget_embed.runs_in_page(_state(), "A1") and not widget_embed.runs_in_page(_state(), "nope")


# ----------------------------------------------------------------------------- the npm pins


def test_the_pinned_front_ends_draw_the_models_this_venv_makes():
    import ipywidgets
    from anywidget._version import _ANYWIDGET_SEMVER_VERSION

    pinned = {p.name: p.version for p in widget_embed.PACKAGES}
    assert widget_embed.satisfies(pinned["anywidget"], _ANYWIDGET_SEMVER_VERSION), (
        f"the Python anywidget wants {_ANYWIDGET_SEMVER_VERSION}; tools/widget_embed.py pins {pinned['anywidget']}"
    )
    assert widget_embed.MANAGER_MODULES["@jupyter-widgets/base"] == ipywidgets.__jupyter_widgets_base_version__
    assert widget_embed.MANAGER_MODULES["@jupyter-widgets/controls"] == \
        ipywidgets.__jupyter_widgets_controls_version__


@pytest.mark.parametrize(("version", "spec", "ok"), [
    ("0.11.0", "~0.11.*", True), ("0.11.4", "~0.11.*", True), ("0.12.0", "~0.11.*", False),
    ("0.10.9", "~0.11.*", False), ("2.0.0", "2.0.0", True), ("2.0.1", "2.0.0", False), ("1.4.0", "^1.2.0", True),
    ("2.0.0", "^1.2.0", False), ("0.3.5", "^0.3.1", True), ("0.4.0", "^0.3.1", False), ("3.1.0", "3.*", True),
])  # fmt: skip
def test_satisfies_reads_npm_ranges(version, spec, ok):
    assert widget_embed.satisfies(version, spec) is ok


def test_integrity_is_npm_s_sha512():
    # npm's own integrity for the empty input: sha512 of b"" in base64
    assert widget_embed.integrity_of(b"") == (
        "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="
    )


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path):
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed (apt-get install -y nodejs npm)")
    real = next(p for p in widget_embed.PACKAGES if p.name == "anywidget")
    wrong = widget_embed.Package(real.name, real.version, widget_embed.integrity_of(b"not it"), real.files)
    (tmp_path / real.tarball).write_bytes(b"not it either")
    with pytest.raises(SystemExit, match="integrity"):
        widget_embed.fetch(wrong, tmp_path)
    # the pinned one: a cached tarball that does not match is fetched again, then checked
    (tmp_path / real.tarball).write_bytes(b"a damaged download")
    assert widget_embed.integrity_of(widget_embed.fetch(real, tmp_path)) == real.integrity


# ----------------------------------------------------------------------------- a page


def test_a_page_shows_the_still_then_the_widget_and_loads_the_front_end_deferred(tmp_path):
    nb = _notebook(_state())
    folder = tmp_path / "nb"
    folder.mkdir()
    nbformat.write(nb, folder / "00_fake.ipynb")
    summary = build_site.build(tmp_path / "site", folder, style="saved")
    page = (summary["out"] / "00_fake.html").read_text()
    assert ce.check_offline(summary["out"]) == {}
    first = page[page.index("course-live-widget"):]
    assert first.index('class="course-widget-still"') < first.index(ce.WIDGET_VIEW)
    assert 'alt="still of A1"' in first[: first.index(ce.WIDGET_VIEW)]
    tags = re.findall(r"<script\b[^>]*>", page)
    scripts = [re.search(r'\bsrc="([^"]+)"', tag).group(1) for tag in tags if re.search(r"\bdefer\b", tag)]
    scripts = [s for s in scripts if s.startswith("widgets/")]
    assert scripts[:2] == ["widgets/require.js", "widgets/libembed-amd.js"]
    assert scripts[-1] == "widgets/course-widgets.js"
    modules = widget_embed.share(copy.deepcopy(_state()))  # the one module text, by its hash
    assert scripts[2:-1] == [f"widgets/modules/{key}.js" for key in modules]
    assert (summary["out"] / "widgets" / "modules" / f"{next(iter(modules))}.js").read_text().endswith(
        f"= {json.dumps(ESM)};\n")
    assert 'data-jupyter-widgets-cdn="widgets/cdn/"' in page, "a module the page lacks is looked for locally"
    state = json.loads(STATE_RE.search(page).group(1))
    assert sorted(state["state"]) == ["A1", "L1"]
    out = summary["out"] / "widgets"
    for name in ("require.js", "libembed-amd.js", "anywidget.js", "course-widgets.js", "LICENSES.txt"):
        assert (out / name).is_file(), name
    assert summary["widgets"]["views"] == 2 and summary["widgets"]["pages"]["00_fake.html"]["views"] == 2


# ----------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict:
    """Lesson 00 alone, as `make site` and `make slides` build it (each re-run in a kernel that stores the
    widget state), into a tmp folder."""
    base = tmp_path_factory.mktemp("live")
    notebooks = base / "notebooks"
    notebooks.mkdir()
    shutil.copy2(ce.NOTEBOOKS / f"{LESSON}.ipynb", notebooks)
    shutil.copy2(ce.NOTEBOOKS / build_site.GLOSSARY, notebooks)
    site = build_site.build(base / "site", notebooks, style="notebook")
    slides = build_slides.build(base / "slides", notebooks, style="lecture")
    for name, summary in (("site", site), ("slides", slides)):
        assert summary["warnings"] == [], summary["warnings"]
        print(f"{name} of {LESSON}: {summary['bytes'] / 1e6:.2f} MB in {summary['seconds']:.1f} s")
        print("\n".join(widget_embed.describe(summary["widgets"])))
    return {"site": site, "slides": slides}


def _page(browser, *, allowed: tuple, viewport=(1280, 900)):
    """A page whose requests outside `allowed` URL prefixes are blocked and counted; (page, remote, problems)."""
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    remote, problems = [], []

    def route(r):
        if r.request.url.startswith(allowed):
            r.continue_()
        else:
            remote.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(f"console error: {m.text}") if m.type == "error" else None)
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url[:120]}"))
    return page, remote, problems


def _run_of(html: str) -> dict:
    """The `run` trait of the first BrowserPlayer in a page's widget state."""
    state = json.loads(STATE_RE.search(html).group(1))["state"]
    return next(m["state"]["run"] for m in state.values() if "run" in m.get("state", {}))


def _step_once(page, player, run) -> None:
    """Click Step: frame 1 is drawn (the picture's name and the readout are the run's at update 1)."""
    picture = player.locator(".pp-picture")
    assert picture.get_attribute("aria-label") == run["alt"][0]
    before = player.locator("svg").first.inner_html()
    player.get_by_role("button", name="Step").first.click()
    page.wait_for_function("([el, name]) => el.getAttribute('aria-label') === name",
                           arg=[picture.element_handle(), run["alt"][1]], timeout=5000)  # fmt: skip
    readout = player.locator(".pp-readout").inner_text()
    assert re.search(r"\bupdate 1\b", readout, re.I), readout
    assert readout.split("\n")[0].strip() == run["lines"][1][0]
    assert player.locator("svg").first.inner_html() != before, "Step did not change the picture"


def _shot(target, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / name))


def _check_site_page(page, url: str, html: str, name: str) -> None:
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.courseWidgets", timeout=30_000)
    assert page.evaluate("document.documentElement.dataset.courseWidgets") == "ready"
    assert page.locator("img.course-widget-still").count() == 0, "a drawn player's still stays on the page"
    player = page.locator(".perceptron-browserplayer").first
    player.scroll_into_view_if_needed()
    _step_once(page, player, _run_of(html))
    _shot(player, name)


@pytest.mark.browser
def test_the_site_s_player_steps_from_file_with_nothing_fetched(chromium, builds):
    path = builds["site"]["out"] / f"{LESSON}.html"
    page, remote, problems = _page(chromium, allowed=("file:", "data:", "blob:", "about:"))
    _check_site_page(page, path.as_uri(), path.read_text(), "site_file_player_update1.png")
    assert remote == [], f"{len(remote)} requests left file://: {remote[:3]}"
    assert problems == [], problems
    page.context.close()


@pytest.fixture(scope="module")
def served(builds):
    """The built site and decks over http from 127.0.0.1 (a thread of this process)."""
    root = builds["site"]["out"].parent
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test reports what it needs
        pass


@pytest.mark.browser
def test_the_site_s_player_steps_over_http_with_nothing_else_fetched(chromium, builds, served):
    site = builds["site"]["out"]
    page, remote, problems = _page(chromium, allowed=(served + "/", "data:", "blob:", "about:"))
    _check_site_page(page, f"{served}/{site.name}/{LESSON}.html", (site / f"{LESSON}.html").read_text(),
                     "site_http_player_update1.png")
    assert remote == [], f"{len(remote)} requests left the server: {remote[:3]}"
    assert problems == [], problems
    page.context.close()


def _open_deck(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    assert page.evaluate("document.documentElement.dataset.courseWidgets") == "ready"


JS_GO_TO_PLAYER = """() => { for (const s of Reveal.getSlides()) { if (s.querySelector('.perceptron-browserplayer')) {
  const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v || 0); while (Reveal.nextFragment()) {} return i.h; } }
  return null; }"""


@pytest.mark.browser
@pytest.mark.parametrize("over", ["file", "http"])
def test_the_deck_s_player_steps_and_the_arrow_keys_move_the_deck_after_a_click(chromium, builds, served, over):
    decks = builds["slides"]["out"]
    path = decks / f"{LESSON}.slides.html"
    if over == "file":
        page, remote, problems = _page(chromium, allowed=("file:", "data:", "blob:", "about:"), viewport=(1280, 720))
        _open_deck(page, path.as_uri())
    else:
        page, remote, problems = _page(chromium, allowed=(served + "/", "data:", "blob:", "about:"),
                                       viewport=(1280, 720))  # fmt: skip
        _open_deck(page, f"{served}/{decks.name}/{path.name}")
    slide = page.evaluate(JS_GO_TO_PLAYER)
    assert slide is not None, "no slide of the deck has the live player"
    player = page.locator(".perceptron-browserplayer").first
    run = _run_of(path.read_text())
    _step_once(page, player, run)
    _shot(page, f"deck_{over}_player_update1.png")
    box = player.locator("input[type=number], .pp-controls input").first
    # the arrow keys after a click on Step: the deck moves on, and back; the player stays at update 1 (the
    # pointer leaves first: on the next slide it may rest on another player's picture, which takes the keys)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"Reveal.getIndices().h === {slide + 1}", timeout=5000)
    page.mouse.move(2, 2)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"Reveal.getIndices().h === {slide}", timeout=5000)
    assert box.input_value() == "1"
    # with the pointer on the picture, they step the player, and the deck stays
    player.locator(".pp-picture").hover()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(el) => el.value === '2'", arg=box.element_handle(), timeout=5000)
    assert page.evaluate("Reveal.getIndices().h") == slide
    # a click on the picture gives it the focus; the keys it does not use (a remote's Page Down) still turn the slide
    player.locator(".pp-picture").click()
    page.mouse.move(2, 2)
    page.keyboard.press("PageDown")
    page.wait_for_function(f"Reveal.getIndices().h === {slide + 1}", timeout=5000)
    page.keyboard.press("PageUp")
    page.wait_for_function(f"Reveal.getIndices().h === {slide}", timeout=5000)
    assert box.input_value() == "2"
    scale = float(page.evaluate(f"Reveal.getSlides()[{slide}].dataset.courseScale"))
    fit = page.evaluate(f"""() => {{ const b = Reveal.getSlides()[{slide}].querySelector(':scope > .course-fit')
      .getBoundingClientRect(), d = document.querySelector('.reveal').getBoundingClientRect();
      return b.bottom <= d.bottom + 2 && b.top >= d.top - 2; }}""")
    assert fit, "the stepped player's slide runs past the deck's foot"
    print(f"deck over {over}: the player's slide is scaled {scale:.2f}")
    assert remote == [], f"{len(remote)} requests left {over}: {remote[:3]}"
    assert problems == [], problems
    page.context.close()


WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}}


@pytest.mark.browser
def test_the_drawn_players_have_no_serious_axe_violation(chromium, builds):
    """axe-core (WCAG 2 A and AA) on each live player of lesson 00's page, once drawn."""
    import axe_playwright_python

    path = builds["site"]["out"] / f"{LESSON}.html"
    page, remote, problems = _page(chromium, allowed=("file:", "data:", "blob:", "about:"))
    page.goto(path.as_uri())
    page.wait_for_function("document.documentElement.dataset.courseWidgets === 'ready'", timeout=30_000)
    page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate("(options) => axe.run(Array.from(document.querySelectorAll('.course-live-widget')), "
                           "options)", WCAG)  # fmt: skip
    serious = [f"{v['id']} ({v['impact']}): {n['html'][:100]!r}" for v in result["violations"]
               if v["impact"] in ("serious", "critical") for n in v["nodes"]]  # fmt: skip
    print(f"axe: {page.locator('.course-live-widget').count()} live players of {LESSON}: {len(serious)} serious")
    assert not serious, "\n".join(serious[:10])
    assert remote == [] and problems == [], (remote, problems)
    page.context.close()


@pytest.mark.browser
def test_two_live_players_of_a_page_have_distinct_ids(chromium, builds):
    path = builds["site"]["out"] / f"{LESSON}.html"
    page, _remote, _problems = _page(chromium, allowed=("file:", "data:", "blob:", "about:"))
    page.goto(path.as_uri())
    page.wait_for_function("document.documentElement.dataset.courseWidgets === 'ready'", timeout=30_000)
    twice = page.evaluate("""() => { const n = {};
      document.querySelectorAll('.course-live-widget [id]').forEach((e) => { n[e.id] = (n[e.id] || 0) + 1; });
      return Object.keys(n).filter((id) => n[id] > 1); }""")
    page.context.close()
    assert not twice, f"ids used twice on the page: {twice}"
