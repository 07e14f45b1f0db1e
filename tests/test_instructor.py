"""Instructor mode: slide metadata, the offline decks (`make slides`), the offline course site
(`make site`), the app view (`make app`) and live slides with RISE.

Fast checks (no browser):

* every cell of every notebook has a valid ``metadata.slideshow.slide_type``; the first code
  cell (the imports, the style switch and the seed) is ``skip``; each lesson makes a deck of
  several slides;
* the export preprocessor (tools/course_export.py) leaves no live widget and no ``<StepThrough>``
  text in any notebook, and keeps every player's animation;
* the site and the decks, built into a pytest tmp folder from the saved outputs, have the right
  files, no http(s) script or stylesheet, the course map in order, and stay under 20 MB;
* a lecture-style deck (the notebook re-run with ``COURSE_STYLE=lecture``) has bigger frames.

Browser checks (marker ``browser``, headless Debian Chromium through playwright; skipped without
it unless ``COURSE_REQUIRE_BROWSER=1``):

* (a) RISE: a deck renders at ``/rise/<nb>?token=T`` and runs code; its live players do not work
  (a strict xfail records it, see README "For instructors");
* (b) each deck of ``make slides`` opens from file:// with the network blocked, with no error,
  and an animation's "Next frame" control advances the frame;
* (c) ``make app``'s Voila view (the same template and options) loads, shows no code, and a
  player's Step changes its readout;
* (d) each page of ``make site`` opens from file:// with the network blocked, with no error and
  the mathematics typeset, and an animation's "Next frame" advances the frame.

Screenshots go to ``tests/artifacts/instructor/`` (git-ignored).
"""

from __future__ import annotations

import base64
import re
import shutil
import struct
import sys
import time
from pathlib import Path

import nbformat
import pytest

from tools import build_site, build_slides, instructor_notes
from tools import course_export as ce

REPO = Path(__file__).resolve().parents[1]

NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "tests" / "artifacts" / "instructor"
LESSONS = ce.lessons(NOTEBOOKS)
SOLUTIONS = ce.solutions(NOTEBOOKS)
ALL_NOTEBOOKS = LESSONS + SOLUTIONS
VALID_SLIDE_TYPES = {"slide", "subslide", "fragment", "-", "skip", "notes"}
MIN_SLIDES = {"00": 3}  # the map is short; every other lesson makes a real deck
MIN_SLIDES_LESSON = 8
SITE_BUDGET = 20_000_000  # bytes


def _id(path: Path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


def _read(path: Path):
    return nbformat.read(str(path), as_version=4)


# ----------------------------------------------------------------------------- slide metadata


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_id)
def test_every_cell_has_a_valid_slide_type(path):
    nb = _read(path)
    missing = [i for i, c in enumerate(nb.cells) if "slide_type" not in c.metadata.get("slideshow", {})]
    invalid = {
        i: c.metadata["slideshow"]["slide_type"]
        for i, c in enumerate(nb.cells)
        if c.metadata.get("slideshow", {}).get("slide_type", "-") not in VALID_SLIDE_TYPES
    }
    assert not missing, f"cells without metadata.slideshow.slide_type: {missing}"
    assert not invalid, f"unknown slide_type (cell: type): {invalid}; use one of {sorted(VALID_SLIDE_TYPES)}"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_id)
def test_first_code_cell_is_skipped_on_slides(path):
    nb = _read(path)
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not code:
        pytest.skip("no code cell")
    assert code[0].metadata.get("slideshow", {}).get("slide_type") == "skip", (
        "the first code cell (imports, style switch, seed) must be slide_type 'skip'"
    )


@pytest.mark.parametrize("path", LESSONS, ids=_id)
def test_each_lesson_makes_a_deck(path):
    nb = _read(path)
    n = build_slides.count_slides(nb)
    need = MIN_SLIDES.get(path.name[:2], MIN_SLIDES_LESSON)
    assert n >= need, f"{path.name} makes {n} slides; a deck needs at least {need} (slide/subslide cells)"
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.metadata.get("slideshow", {}).get("slide_type") == "slide"


# ----------------------------------------------------------------------------- the export preprocessor


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_id)
def test_export_leaves_no_live_widget_and_keeps_every_animation(path):
    nb = _read(path)
    animations = sum(ce.is_animation(o) for c in nb.cells for o in c.get("outputs", []))
    out, _ = ce.OfflineOutputs(link_targets={}).preprocess(nb, {})
    outputs = [o for c in out.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if ce.WIDGET_VIEW in o.get("data", {})]
    assert not [o for o in outputs if "".join(o.get("data", {}).get("text/plain", "")).startswith("<StepThrough")]
    assert sum(ce.is_animation(o) for o in outputs) == animations
    for o in outputs:
        if ce.is_animation(o):
            html = o["data"]["text/html"]
            assert not ce.remote_references(html), "the animation still loads Font Awesome from a CDN"
            assert "<details" not in html or "<details open" in html


def _player_notebook(with_animation: bool):
    """A notebook with a stored player (widget view + state) and, optionally, its animation."""
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
    state = {
        "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_img", "IPY_MODEL_txt"]}},
        "img": {"model_name": "ImageModel", "state": {"format": "png"},
                "buffers": [{"path": ["value"], "encoding": "base64", "data": png}]},
        "txt": {"model_name": "HTMLModel", "state": {"value": "<b>Start</b>"}},
    }  # fmt: skip
    view = nbformat.v4.new_output(
        "display_data",
        data={ce.WIDGET_VIEW: {"model_id": "box", "version_major": 2, "version_minor": 0},
              "text/plain": "<StepThrough: online run, 3 updates>"},
    )  # fmt: skip
    anim = nbformat.v4.new_output(
        "display_data",
        data={"text/html": '<details><summary>No kernel?</summary><link rel="stylesheet"\nhref="https://maxcdn.'
              'bootstrapcdn.com/font-awesome/4.4.0/css/font-awesome.min.css">\n<div class="animation"><img>'
              '<div class="anim-controls"></div></div></details>'},
    )  # fmt: skip
    cells = [nbformat.v4.new_markdown_cell("See [the map](00_start_here.ipynb) and [x](99_missing.ipynb)."),
             nbformat.v4.new_code_cell("player", outputs=[view])]  # fmt: skip
    if with_animation:
        cells += [nbformat.v4.new_markdown_cell("text"), nbformat.v4.new_code_cell("fallback", outputs=[anim])]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["widgets"] = {ce.WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}}
    return nb


def test_export_drops_a_player_whose_animation_follows_and_fixes_the_animation():
    nb, _ = ce.OfflineOutputs(link_targets={"00_start_here": True}).preprocess(_player_notebook(True), {})
    assert nb.cells[1].outputs == []
    html = nb.cells[3].outputs[0]["data"]["text/html"]
    assert "<details open>" in html and "font-awesome" not in html and ".fa-step-forward" in html
    assert nb.cells[3].metadata["transient"]["remove_source"] is True
    assert "widgets" not in nb.metadata
    assert "(00_start_here.html)" in nb.cells[0].source and "(99_missing.ipynb)" in nb.cells[0].source


def test_export_shows_a_still_of_a_widget_with_no_animation():
    nb, _ = ce.OfflineOutputs(link_targets={}).preprocess(_player_notebook(False), {})
    (still,) = nb.cells[1].outputs
    assert still["output_type"] == "display_data" and "image/png" in still["data"]
    assert "<b>Start</b>" in still["data"]["text/html"]


def test_remote_references_finds_scripts_and_styles_but_not_links():
    page = (
        '<a href="https://example.org">a link is fine</a>'
        '<script src="https://cdn.example/x.js"></script>'
        '<link rel="stylesheet" href="//cdn.example/x.css">'
        "<style>@import url('https://fonts.example/f.css');</style>"
        '<script type="module">import m from "https://cdn.example/m.mjs";</script>'
        '<script src="mathjax/tex-svg-full.js"></script>'
    )
    assert len(ce.remote_references(page)) == 4


# ----------------------------------------------------------------------------- the builds


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> dict:
    """`make site` from the saved outputs (no kernel), into a tmp folder."""
    return build_site.build(tmp_path_factory.mktemp("site") / "_site", NOTEBOOKS, style="saved")


@pytest.fixture(scope="session")
def slides(tmp_path_factory) -> dict:
    """`make slides` from the saved outputs (no kernel), into a tmp folder."""
    return build_slides.build(tmp_path_factory.mktemp("slides") / "_slides", NOTEBOOKS, style="saved")


def test_site_has_an_index_and_one_page_per_notebook(site):
    out = site["out"]
    names = [p.stem for p in LESSONS]
    for p in LESSONS:
        assert (out / f"{p.stem}.html").is_file()
    for p in SOLUTIONS:
        assert (out / "solutions" / f"{p.stem}.html").is_file()
    assert (out / "mathjax" / ce.MATHJAX_FILE).is_file()
    index = (out / "index.html").read_text()
    hrefs = re.findall(r'<li><a href="([^"]+)\.html"', index)
    assert hrefs == names, "the course map lists the lessons in order"


def test_site_is_offline_and_lean(site):
    assert ce.check_offline(site["out"]) == {}
    assert site["bytes"] < SITE_BUDGET, f"the site is {site['bytes'] / 1e6:.1f} MB; the budget is 20 MB"


def test_site_pages_link_to_pages_and_show_animations(site):
    out = site["out"]
    start = (out / "00_start_here.html").read_text()
    for p in LESSONS[1:]:
        assert f'href="{p.stem}.html"' in start, f"00_start_here links to {p.stem}.ipynb, not to its page"
    for p in LESSONS:
        page = (out / f"{p.stem}.html").read_text()
        html = ["".join(o.get("data", {}).get("text/html", "")) for c in _read(p).cells for o in c.get("outputs", [])]
        stored = sum(h.count('class="anim-controls"') for h in html)  # one output may hold several animations
        assert page.count('class="anim-controls"') == stored
        assert "&lt;StepThrough" not in page and "<StepThrough" not in page


def test_slides_have_one_deck_per_lesson_and_are_offline(slides):
    out = slides["out"]
    assert [d["path"].name for d in slides["decks"]] == [f"{p.stem}.slides.html" for p in LESSONS]
    for name in ("reveal.js/dist/reveal.js", "reveal.js/dist/reveal.css", "reveal.js/dist/theme/white.css",
                 "reveal.js/plugin/notes/notes.js", f"mathjax/{ce.MATHJAX_FILE}"):  # fmt: skip
        assert (out / name).is_file(), name
    assert ce.check_offline(out) == {}
    for d in slides["decks"]:
        html = d["path"].read_text()
        assert html.count("<section") >= d["slides"]


def _first_frame_width(html: str) -> int:
    m = re.search(r'frames\[0\] = "data:image/png;base64,([^"]+)"', html)
    assert m, "no animation frame"
    png = base64.b64decode(m.group(1).replace("\\\n", "").replace("\n", "")[:64] + "==")
    return struct.unpack(">I", png[16:20])[0]


def test_lecture_deck_reruns_the_lesson_in_the_lecture_preset(slides, tmp_path):
    """`make slides` re-runs each lesson with COURSE_STYLE=lecture: its animation frames grow."""
    with_anim = [d for d in slides["decks"] if 'class="anim-controls"' in d["path"].read_text()]
    if not with_anim:
        pytest.skip("no lesson has a player animation yet")
    saved = min(with_anim, key=lambda d: d["path"].stat().st_size)  # the quickest to re-run
    lesson = saved["path"].name.removesuffix(".slides.html")
    lecture = build_slides.build(tmp_path / "_slides", NOTEBOOKS, style="lecture", only=[lesson])
    assert lecture["warnings"] == [], "the lesson failed to re-run; the deck fell back to its saved outputs"
    (deck,) = lecture["decks"]
    html = deck["path"].read_text()
    assert _first_frame_width(html) > _first_frame_width(saved["path"].read_text())
    assert ce.check_offline(lecture["out"]) == {}


def test_makefile_has_the_instructor_targets():
    makefile = (REPO / "Makefile").read_text()
    for target in ("slides", "app", "site"):
        assert re.search(rf"^{target}\s*:", makefile, flags=re.MULTILINE), target
    app = makefile[makefile.index("\napp:"):]
    assert "--Voila.ip=127.0.0.1" in app and "--token" in app and "--template=course_app" in app
    ignore = (REPO / ".gitignore").read_text().split()
    assert "_site/" in ignore and "_slides/" in ignore


# ----------------------------------------------------------------------------- browser checks


# `chromium` (one browser for the session) comes from conftest.py.


def _offline_page(browser, viewport=(1280, 800)):
    """A page that may load file:, data: and blob: URLs only; returns (page, problems list)."""
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    problems: list[str] = []

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:", "about:")):
            r.continue_()
        else:
            problems.append(f"network request: {r.request.url}")
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(f"console error: {m.text}") if m.type == "error" else None)
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url[:120]}"))
    return page, problems


def _step_animation(page, scope: str) -> None:
    """Click "Next frame" on the first animation in `scope`: the frame and the slider move on."""
    anim = page.locator(f"{scope} .animation").first
    img, slider = anim.locator("img").first, anim.locator("input.anim-slider").first
    before, k = img.get_attribute("src"), int(slider.input_value())
    anim.locator('button[title="Next frame"]').click()
    page.wait_for_function(
        "([el, k]) => parseInt(el.value) === k + 1", arg=[slider.element_handle(), k], timeout=5000
    )
    assert img.get_attribute("src") != before, "the frame did not change"


def _shot(page, name: str, **kwargs) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), **kwargs)


@pytest.mark.browser
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_browser_deck_works_offline(chromium, slides, lesson):
    deck = slides["out"] / f"{lesson.stem}.slides.html"
    page, problems = _offline_page(chromium)
    page.goto(deck.as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=20_000)
    total = page.evaluate("Reveal.getTotalSlides()")
    expected = next(d["slides"] for d in slides["decks"] if d["path"] == deck)
    assert total >= expected
    target = page.evaluate(
        """() => { for (const s of Reveal.getSlides()) { if (s.querySelector('.animation')) {
                 const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v || 0); while (Reveal.nextFragment()) {}
                 return i; } } return null; }"""
    )
    if target is not None:
        _step_animation(page, ".reveal .slides section.present")
    page.wait_for_timeout(300)
    _shot(page, f"deck_{lesson.stem}.png")
    assert not problems, problems
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize(
    "page_name",
    ["index.html"] + [f"{p.stem}.html" for p in LESSONS] + [f"solutions/{p.stem}.html" for p in SOLUTIONS],
)
def test_browser_site_page_works_offline(chromium, site, page_name):
    path = site["out"] / page_name
    page, problems = _offline_page(chromium, (1200, 900))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    if page_name != "index.html":
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20_000)
        page.evaluate("() => MathJax.startup.promise")
        if re.search(r"\$[^$\n]+\$|\\\(", path.read_text()):
            assert page.locator("mjx-container").count() > 0, "no mathematics was typeset"
        assert page.locator("text=Error").filter(has_text="Error displaying").count() == 0
        if page.locator(".animation").count():
            _step_animation(page, "body")
    _shot(page, "site_" + page_name.replace("/", "_").replace(".html", ".png"), full_page=False)
    assert not problems, problems
    page.context.close()


def _voila_lesson() -> Path:
    """The lesson `make app NB=03` serves, else the first lesson with a player."""
    for p in LESSONS:
        if p.name.startswith("03_"):
            return p
    for p in LESSONS:
        if "StepThrough(" in p.read_text():
            return p
    pytest.skip("no lesson with a player")


@pytest.mark.browser
def test_browser_app_view_runs_a_player_without_code(chromium):
    from browser_support import jupyter_server

    lesson = _voila_lesson()
    env = {"JUPYTER_PATH": str(REPO / "tools" / "jupyter")}
    with jupyter_server(NOTEBOOKS, app="voila", env=env, extra_args=["--template=course_app"], timeout=90) as srv:
        page = chromium.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        t0 = time.monotonic()
        page.goto(srv.voila_url(lesson.name))
        step = page.locator(".perceptron-stepthrough .widget-button", has_text="Step").first
        step.wait_for(timeout=240_000)  # Voila runs the whole notebook first
        loaded = time.monotonic() - t0
        dom = page.evaluate(
            """() => ({codeInputs: document.querySelectorAll('.jp-CodeCell .jp-InputArea, .jp-InputPrompt').length,
                       editors: document.querySelectorAll('.cm-editor, .CodeMirror').length,
                       errors: document.querySelectorAll('.jp-OutputArea-output[data-mime-type*="error"]').length})"""
        )
        assert dom == {"codeInputs": 0, "editors": 0, "errors": 0}, dom
        assert "import " not in page.locator("body").inner_text()
        assert page.locator(".animation:visible").count() == 0, "the app shows the recorded animation too"
        player = page.locator(".perceptron-stepthrough").first
        readout = player.locator(".widget-html").first
        before = readout.inner_text()
        step = player.locator(".widget-button", has_text="Step").first
        step.scroll_into_view_if_needed()
        step.click()
        page.wait_for_function(
            "([el, b]) => el.innerText !== b", arg=[readout.element_handle(), before], timeout=10_000
        )
        assert readout.inner_text() != before
        player.scroll_into_view_if_needed()
        _shot(page, f"app_{lesson.stem}.png")
        assert not errors, errors
        print(f"Voila: {lesson.name} ready in {loaded:.1f} s")
        page.close()


# --- RISE -----------------------------------------------------------------------------------

RISE_PLAYER_CODE = (
    "from perceptron_lib import data, fit_perceptron\n"
    "from perceptron_lib.widgets import StepThrough\n"
    "X, y = data.separable(30, margin=0.1, seed=1)\n"
    "player = StepThrough(fit_perceptron(X, y), X, y)\n"
    "player\n"
)


@pytest.fixture(scope="module")
def rise_deck(chromium, tmp_path_factory):
    """RISE at /rise/<lesson>?token=T on a copy of the notebooks (RISE may autosave what it shows).

    Yields (page, server) with the deck on the slide of the lesson's first player cell, whose
    code is replaced by a self-contained player (the deck skips the imports cell, so the
    lesson's own cell cannot run there) and run with Ctrl-Enter.
    """
    from browser_support import jupyter_server

    lesson = _voila_lesson()
    root = tmp_path_factory.mktemp("rise")
    shutil.copytree(NOTEBOOKS, root / "notebooks")
    with jupyter_server(root / "notebooks", app="lab", timeout=90) as srv:
        page = chromium.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{srv.url}rise/{lesson.name}?token={srv.token}")
        page.wait_for_selector(".reveal .slides section", timeout=60_000)
        page.wait_for_function("document.querySelectorAll('.reveal .slides section').length > 3", timeout=30_000)
        _shot(page, f"rise_{lesson.stem}_title.png")
        # the slide of the first cell that builds a player
        cell = page.locator(".reveal .jp-CodeCell", has_text="StepThrough(").first
        for _ in range(200):
            if cell.is_visible():
                break
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(150)
        assert cell.is_visible(), "no slide shows a player cell"
        # a tall slide may put the cell below the fold, and RISE slides do not scroll: focus the
        # editor (which makes it the notebook's active cell) instead of clicking it
        cell.locator(".cm-content").evaluate("el => el.focus()")
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(RISE_PLAYER_CODE)
        page.keyboard.press("Control+Enter")
        page.wait_for_function(
            "el => /\\[\\d+\\]/.test(el.querySelector('.jp-InputPrompt').innerText)",
            arg=cell.element_handle(),
            timeout=90_000,
        )
        page.wait_for_timeout(3000)  # give the widget manager time to render, if it can
        _shot(page, f"rise_{lesson.stem}_player.png")
        yield page, cell, errors
        page.close()


@pytest.mark.browser
def test_browser_rise_deck_renders_and_runs_code(rise_deck):
    """What works in RISE: the deck, navigation, and code run in the kernel from a slide."""
    page, cell, _ = rise_deck
    assert page.locator(".reveal .slides section").count() > 3
    out = cell.locator(".jp-OutputArea-output").first.inner_text()
    assert "StepThrough" in out, f"the cell ran but printed {out!r}"


@pytest.mark.browser
@pytest.mark.xfail(
    strict=True,
    reason="jupyterlab-rise 0.43.1 with JupyterLab 4.6 / ipywidgets 8.1: the RISE app cannot load the widget "
    "manager (\"Shared module @jupyterlab/console doesn't exist in shared scope\"), so a live player shows as "
    "the text <StepThrough ...>. Static decks (make slides) are the supported path; see README.",
)
def test_browser_rise_player_can_be_clicked(rise_deck):
    page, cell, _ = rise_deck
    step = cell.locator(".widget-button", has_text="Step").first
    step.wait_for(timeout=5_000)
    readout = cell.locator(".widget-html").first
    before = readout.inner_text()
    step.click()
    page.wait_for_function("([el, b]) => el.innerText !== b", arg=[readout.element_handle(), before], timeout=5000)
