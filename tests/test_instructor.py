"""Instructor mode: slide metadata, the offline decks (`make slides`), the offline course site
(`make site`), the app view (`make app`) and live slides with RISE.

Fast checks (no browser):

* every cell of every notebook has a valid ``metadata.slideshow.slide_type`` or none (never "-"); the first code
  cell (the imports, the style switch and the seed) is ``skip``; each lesson makes a deck of
  several slides;
* the exports choose each output by nbconvert's priority (tools/course_export.py): an output's
  HTML when it has one, else its picture with its alt text, never a widget view that cannot run in
  the page; links between lessons point at the pages; the speaker notes are in the deck only;
* the kernel of a re-run export gets the preset in its environment, and the exporting process's own
  environment is left as it was;
* the site and the decks, built into a pytest tmp folder from the saved outputs, have the right
  files, no http(s) script or stylesheet, no widget view or widget state, the course map in
  order, and stay under 20 MB.

Browser checks (marker ``browser``, headless Debian Chromium through playwright; skipped without
it unless ``COURSE_REQUIRE_BROWSER=1``):

* (a) RISE: a deck renders at ``/rise/<nb>?token=T`` and runs code; its live players do not work
  (a strict xfail records it, see README "For instructors");
* (b) each deck of ``make slides`` (lecture preset) opens from file:// with the network blocked, with no
  error, and each lesson with a player has a live player (tools/widget_embed.py) whose Step changes it; every
  slide of every deck fits 1280x720, also at the last step of its live players;
* (c) ``make app``'s Voila view (the same template and options) loads, shows no code, loads
  nothing from the network, and a player's Step changes its readout; from loading to the Step the
  page logs no console error and gets no 4xx/5xx answer;
* (d) each page of ``make site`` (notebook preset) opens from file:// with the network blocked, with no
  error and the mathematics typeset, and its first live player steps (tests/test_site_widgets.py checks a
  live player's frames and keys in detail).

Screenshots go to ``tests/artifacts/instructor/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import nbformat
import pytest
from export_builds import built

from tools import build_site, build_slides, instructor_notes
from tools import course_export as ce

REPO = Path(__file__).resolve().parents[1]

NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "tests" / "artifacts" / "instructor"
LESSONS = ce.lessons(NOTEBOOKS)
SOLUTIONS = ce.solutions(NOTEBOOKS)
ALL_NOTEBOOKS = LESSONS + SOLUTIONS
VALID_SLIDE_TYPES = {"slide", "subslide", "fragment", "skip", "notes"}  # or none: the slide before it
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
    """A cell's `metadata.slideshow.slide_type` is one of VALID_SLIDE_TYPES, or there is none: the cell goes on the
    slide before it (nbconvert's "-", and what JupyterLab's own cell inspector writes for "-": no key). Never the
    literal "-": the live deck (jupyterlab-slideshow 0.3.4, `make lecture`) drops such a cell from every slide, and
    207 cells of prose, figures and checks were missing there (only "slide", "subslide", "fragment", "notes", "skip"
    and no type at all are slide types to it)."""
    nb = _read(path)
    invalid = {
        i: c.metadata["slideshow"].get("slide_type")
        for i, c in enumerate(nb.cells)
        if "slideshow" in c.metadata and c.metadata["slideshow"].get("slide_type") not in VALID_SLIDE_TYPES
    }
    assert not invalid, (f"slide_type (cell: type): {invalid}; use one of {sorted(VALID_SLIDE_TYPES)}, or none "
                         "(remove metadata.slideshow) for a cell that goes on the slide before it")


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

#: A tiny valid PNG (1x1, white): what a player's picture is to the export code.
PNG_1PX = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC"
)
PLAYER_ALT = "A fake player's picture: three points and a line."

#: A widget's display (issue 12's contract), without ipywidgets: widget view, text/plain, its picture as PNG
#: with alt text, and an HTML form that says which preset its kernel ran in.
FAKE_PLAYER_CODE = f'''import os


class FakePlayer:
    def _repr_mimebundle_(self, **kwargs):
        data = {{"{ce.WIDGET_VIEW}": {{"model_id": "m1", "version_major": 2, "version_minor": 0}},
                "text/plain": "<BrowserPlayer: fake>", "image/png": "{PNG_1PX}"}}
        style = os.environ.get("COURSE_STYLE", "none")
        data["text/html"] = f'<div class="fake-recording" data-style="{{style}}">recorded</div>'
        return data, {{"image/png": {{"width": 1, "height": 1, "alt": "{PLAYER_ALT}"}}}}


FakePlayer()
'''


def _player_output(recording: bool):
    data = {ce.WIDGET_VIEW: {"model_id": "m1", "version_major": 2, "version_minor": 0},
            "text/plain": "<BrowserPlayer: fake>", "image/png": PNG_1PX}  # fmt: skip
    if recording:
        data["text/html"] = '<div class="fake-recording">recorded</div>'
    meta = {"image/png": {"width": 1, "height": 1, "alt": PLAYER_ALT}}
    return nbformat.v4.new_output("display_data", data=data, metadata=meta)


def _fake_lesson(folder: Path, *, saved_outputs=()) -> Path:
    """A one-lesson course in `folder`: a title slide and a fake player with speaker notes."""
    title = nbformat.v4.new_markdown_cell("# Fake lesson\n\nSee [the map](00_fake.ipynb).")
    title.metadata["slideshow"] = {"slide_type": "slide"}
    title.metadata[ce.NOTES_KEY] = ["Ask: what will the player show?"]
    player = nbformat.v4.new_code_cell(FAKE_PLAYER_CODE, outputs=list(saved_outputs))
    player.metadata["slideshow"] = {"slide_type": "slide"}
    nb = nbformat.v4.new_notebook(cells=[title, player])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / "00_fake.ipynb")
    return folder


def _two_player_lesson(folder: Path) -> Path:
    """A one-lesson course whose two cells hold a recorded player and a player with its picture only."""
    cells = [nbformat.v4.new_code_cell("p", outputs=[_player_output(True)]),
             nbformat.v4.new_code_cell("p", outputs=[_player_output(False)])]  # fmt: skip
    for cell in cells:
        cell.metadata["slideshow"] = {"slide_type": "slide"}
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), folder / "00_fake.ipynb")
    return folder


@pytest.mark.parametrize("kind", ["site", "slides"])
def test_export_shows_the_recording_when_there_is_one_else_the_picture_with_its_alt(tmp_path, kind):
    """nbconvert's display_data_priority (course_export.OUTPUT_PRIORITY) picks a player's output."""
    folder = _two_player_lesson(tmp_path / "nb")
    builder = build_site if kind == "site" else build_slides
    out = builder.build(tmp_path / kind, folder, style="saved")["out"]
    html = (out / ("00_fake.html" if kind == "site" else "00_fake.slides.html")).read_text()
    first, second = re.split(r'id="cell-id=[^"]+"', html)[1:]
    assert "fake-recording" in first and PNG_1PX not in first, "the recorded player shows its recording"
    assert "fake-recording" not in second and PNG_1PX in second, "the other player shows its picture"
    assert f'alt="{PLAYER_ALT}"' in second.replace("&#39;", "'")
    assert ce.WIDGET_VIEW not in html and "&lt;BrowserPlayer" not in html


def test_course_links_point_at_the_pages():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("[a](00_start_here.ipynb), [b](99_x.ipynb), [c](solutions/01_a_solutions.ipynb)"),
        nbformat.v4.new_code_cell("a", outputs=[nbformat.v4.new_output(
            "display_data", data={"text/html": '<a href="00_start_here.ipynb#top">map</a>'})]),
    ])  # fmt: skip
    targets = {"00_start_here": True, "solutions/01_a_solutions": True}
    out, _ = ce.CourseLinks(link_suffix=".slides.html", link_targets=targets).preprocess(nb, {})
    assert out.cells[0].source == (
        "[a](00_start_here.slides.html), [b](99_x.ipynb), [c](solutions/01_a_solutions.slides.html)"
    )
    assert out.cells[1].outputs[0]["data"]["text/html"] == '<a href="00_start_here.slides.html#top">map</a>'
    # from a solution page, a lesson is one folder up
    nb2 = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("[back](../00_start_here.ipynb)")])
    out2, _ = ce.CourseLinks(link_targets={"00_start_here": True}).preprocess(nb2, {"course_relpath": "solutions"})
    assert out2.cells[0].source == "[back](../00_start_here.html)"


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


# ----------------------------------------------------------------------------- instructor notes


def test_speaker_notes_go_into_the_deck_and_nowhere_else(tmp_path):
    folder = _fake_lesson(tmp_path / "nb", saved_outputs=[_player_output(False)])
    deck = build_slides.build(tmp_path / "slides", folder, style="saved")["decks"][0]["path"].read_text()
    first_slide = deck[deck.index("<section"): deck.index("</section>")]
    assert re.search(r'<aside class="notes">\s*<p>Ask: what will the player show\?</p>\s*</aside>', first_slide), (
        "the title cell's note is not in its slide's speaker notes"
    )
    assert deck.count('<aside class="notes">') == 1
    page = build_site.build(tmp_path / "site", folder, style="saved")["out"] / "00_fake.html"
    assert "what will the player show" not in page.read_text()


def test_instructors_md_lists_every_speaker_note_as_the_notebooks_say():
    """notebooks/INSTRUCTORS.md's generated section is what `python -m tools.instructor_notes` writes."""
    text = (NOTEBOOKS / "INSTRUCTORS.md").read_text(encoding="utf-8")
    assert instructor_notes.BEGIN in text and instructor_notes.END in text, "run `python -m tools.instructor_notes`"
    assert instructor_notes.with_section(text, instructor_notes.section(NOTEBOOKS)) == text, (
        "INSTRUCTORS.md's speaker notes differ from the notebooks' metadata: run `python -m tools.instructor_notes`"
    )
    cells = [c for p in LESSONS for c in _read(p).cells if instructor_notes.notes_of(c)]
    notes = [n for c in cells for n in instructor_notes.notes_of(c)]
    assert len(notes) >= 11
    # the deck writes a cell's notes with the cell: a skipped cell would take them off the deck
    skipped = [c.id for c in cells if build_slides.slide_type(c) == "skip"]
    assert not skipped, f"speaker notes on cells the decks skip: {skipped}"
    for note in notes:
        assert " ".join(note.split()) in text


# ----------------------------------------------------------------------------- the builds


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> dict:
    """`make site` from the saved outputs (no kernel), into a tmp folder."""
    return built("site", "saved", str(tmp_path_factory.getbasetemp()))


@pytest.fixture(scope="session")
def slides(tmp_path_factory) -> dict:
    """`make slides` from the saved outputs (no kernel), into a tmp folder."""
    return built("slides", "saved", str(tmp_path_factory.getbasetemp()))


@pytest.fixture(scope="session")
def lecture_slides(tmp_path_factory) -> dict:
    """`make slides` as it is made: every lesson re-run with COURSE_STYLE=lecture."""
    return built("slides", "lecture", str(tmp_path_factory.getbasetemp()))


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


def _imgs_without_alt(html: str) -> list[str]:
    return [m.group(0)[:80] for m in re.finditer(r"<img\b[^>]*>", html) if not re.search(r'\balt="[^"]+"', m.group(0))]


def test_site_pages_link_to_pages_and_every_picture_has_its_alt(site):
    out = site["out"]
    start = (out / "00_start_here.html").read_text()
    for p in LESSONS[1:]:
        assert f'href="{p.stem}.html"' in start, f"00_start_here links to {p.stem}.ipynb, not to its page"
    for page in sorted(out.rglob("*.html")):
        html = page.read_text()
        assert "&lt;BrowserPlayer" not in html and "<BrowserPlayer" not in html
        assert ce.WIDGET_VIEW not in html and "widget-state" not in html, page.name
        assert "No description has been provided" not in html, page.name
        assert not _imgs_without_alt(html), (page.name, _imgs_without_alt(html)[:3])


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
        assert "No description has been provided" not in html and not _imgs_without_alt(html)
        assert html.count('class="highlight hl-ipython3') == html.count("celltag_slide-show-code"), (
            "code on a slide whose cell is not tagged slide-show-code (tests/test_deck_prose.py)")
        assert "not attempted yet" not in html, f"{d['path'].name}: an exercise check's output is on a slide"
        assert ce.WIDGET_VIEW not in html and "widget-state" not in html, d["path"].name
        assert "glossary.md" not in html and 'href="glossary.html' in html, f"{d['path'].name}: the glossary link"
    # the glossary the decks link to is a page beside them, and its lesson links open the decks
    glossary = (out / "glossary.html").read_text()
    assert ".slides.html" in glossary and ".ipynb" not in glossary


def test_exports_rerun_in_the_preset_and_leave_this_process_alone(tmp_path, monkeypatch):
    """The kernel of a re-run export has the preset in its own environment (this process's stays as it was);
    the page shows the output that kernel made."""
    monkeypatch.delenv("COURSE_STYLE", raising=False)
    before = dict(os.environ)
    folder = _fake_lesson(tmp_path / "nb")
    lecture = build_slides.build(tmp_path / "slides", folder, style="lecture")
    assert dict(os.environ) == before
    assert lecture["warnings"] == [], lecture["warnings"]
    deck = lecture["decks"][0]["path"].read_text()
    assert 'class="fake-recording" data-style="lecture"' in deck
    assert PNG_1PX not in deck and "&lt;BrowserPlayer" not in deck and ce.WIDGET_VIEW not in deck
    assert "widget-state" not in deck, "the fake player is no widget: nothing is live, the page keeps no state"
    site = build_site.build(tmp_path / "site", folder, style="notebook")
    page = (site["out"] / "00_fake.html").read_text()
    assert 'class="fake-recording" data-style="notebook"' in page
    saved = build_site.build(tmp_path / "saved", _fake_lesson(tmp_path / "nb2", saved_outputs=[_player_output(False)]),
                             style="saved")  # fmt: skip
    page = (saved["out"] / "00_fake.html").read_text()
    assert f'alt="{PLAYER_ALT}"' in page.replace("&#39;", "'"), "the saved build shows the picture with its alt"


def test_no_sys_path_edits_in_tools_tests_or_benchmarks():
    """The exports, tests and benchmarks import the library, tools and tests as installed packages."""
    offenders = [
        f"{p.relative_to(REPO)}:{i}"
        for folder in ("tools", "tests", "benchmarks")
        for p in sorted((REPO / folder).rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"\s*sys\.path\.(insert|append)\(", line)
    ]
    assert not offenders, offenders


def test_readme_says_the_sizes_and_drawing_boards_that_ship():
    """README's lecture sizes are the lecture preset's (LECTURE_TEXT_PX for buttons and settings; a readout is 0.8 of
    the legend's size in px, player.js), its list of drawing boards is the lessons' BrowserEditors, and it keeps
    no deck's slide count (they follow the lessons)."""
    from perceptron_lib.draw.style import LECTURE
    from perceptron_lib.player.picture import LECTURE_TEXT_PX

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    readout = round(max(14, LECTURE.legend_size * 4 / 3 * 0.8))
    assert f"buttons at {LECTURE_TEXT_PX} px and readouts at {readout} px" in readme
    assert f"buttons and settings at {LECTURE_TEXT_PX} px, their readouts at {readout} px" in readme
    assert "20-22 px" not in readme
    editors = {p.name[:2] for p in LESSONS if "BrowserEditor(" in p.read_text(encoding="utf-8")}
    said = re.search(r"the section \"Your own data\" of lessons ([0-9, and]+),", readme)
    assert said and set(re.findall(r"\d\d", said.group(1))) == editors - {"00"}, (said, editors)
    assert "the second player of lesson 00" in readme and "Lesson 03's main player is not one" in readme
    assert "main players of lessons 03" not in readme
    assert not re.search(r"\| \d+, [\d.]+ / [\d.]+ \|", readme), "a deck's slide count in README's table"


def test_makefile_has_the_instructor_targets():
    makefile = (REPO / "Makefile").read_text()
    for target in ("slides", "app", "site"):
        assert re.search(rf"^{target}\s*:", makefile, flags=re.MULTILINE), target
    app = makefile[makefile.index("\napp:"):]
    assert "--Voila.ip=127.0.0.1" in app and "--token" in app and "--template=$(APP_TEMPLATE)" in app
    lecture_switch = r"^APP_TEMPLATE = course_app\$\(if \$\(filter lecture,\$\(COURSE_STYLE\)\),_lecture,\)"
    assert re.search(lecture_switch, makefile, re.M)
    # the whole folder, so that links between lessons work (a single notebook answers 403 to them)
    assert re.search(r"\) notebooks\s*$", app.split("\n\n")[0]) and "kernel_pools_config" in app
    # the Voila configuration the app test uses: only the lab extensions that work in Voila
    assert 'JUPYTER_CONFIG_PATH="$(CURDIR)/tools/jupyter/config' in app
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


def _has_player(path: Path) -> bool:
    """Whether a notebook displays a player, switch, editor or live figure (a widget view in its outputs)."""
    return any(ce.WIDGET_VIEW in o.get("data", {}) for c in _read(path).cells for o in c.get("outputs", []))


def _step_live(page, scope: str) -> None:
    """The page's widgets were drawn; click Step on the first live widget in `scope` that has one: the widget
    changes (its picture or its words)."""
    assert page.evaluate("document.documentElement.dataset.courseWidgets") == "ready"
    live = page.locator(f"{scope} .course-live-widget").filter(has=page.get_by_role("button", name="Step")).first
    before = live.inner_html()
    live.get_by_role("button", name="Step").first.click()
    page.wait_for_function("([el, b]) => el.innerHTML !== b", arg=[live.element_handle(), before], timeout=5000)


def _shot(page, name: str, **kwargs) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), **kwargs)


@pytest.mark.browser
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_browser_deck_works_offline_and_its_player_steps(chromium, lecture_slides, lesson):
    """A deck as `make slides` makes it, from file:// with the network blocked: no error, and on
    the first slide with a player (every lesson with a player has one, live), Step changes it."""
    deck = lecture_slides["out"] / f"{lesson.stem}.slides.html"
    page, problems = _offline_page(chromium, (1280, 720))
    page.goto(deck.as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    total = page.evaluate("Reveal.getTotalSlides()")
    assert total == next(d["slides"] for d in lecture_slides["decks"] if d["path"] == deck)
    target = page.evaluate(
        """() => { for (const s of Reveal.getSlides()) {
                 if (s.querySelector('.course-live-widget')) {
                 const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v || 0); while (Reveal.nextFragment()) {}
                 return i; } } return null; }"""
    )
    assert (target is not None) == _has_player(lesson), (
        f"{lesson.name}: {'no player on any slide' if target is None else 'a player on a slide but none in it'}"
    )
    if target is not None:
        here = ".reveal .slides section.present"
        _step_live(page, here)
        _shot(page, f"deck_{lesson.stem}_player_stepped.png")
    assert not problems, problems
    page.context.close()


@pytest.mark.browser
def test_browser_deck_play_stops_on_a_slide_the_presenter_left(chromium, lecture_slides):
    """Play on a deck's player, then Escape and the right arrow (the deck's keys): on the slide left behind the player
    stops where the room last saw it (tester 6: its k ran on from 3 to 9 in 3 s, on a slide nobody saw)."""
    lesson = _voila_lesson()
    page, problems = _offline_page(chromium, (1280, 720))
    page.goto((lecture_slides["out"] / f"{lesson.stem}.slides.html").as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    page.evaluate("""() => { for (const s of Reveal.getSlides()) { if (s.querySelector('.course-live-widget')) {
                       const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v || 0); return; } } }""")
    live = page.locator(".reveal .slides section.present .course-live-widget").first
    box = live.locator("input[type=number]").first.element_handle()  # handles: the locators follow the slide shown
    play = live.locator("button[aria-pressed]").first.element_handle()
    play.click()
    page.wait_for_function("(el) => Number(el.value) >= 2", arg=box, timeout=10_000)
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(el) => el.closest('section').getAttribute('aria-hidden') === 'true'", arg=box,
                           timeout=5_000)  # fmt: skip
    left = box.input_value()
    page.wait_for_timeout(1_500)  # three steps at Play's 2 per second, were it still playing: what is tested
    assert box.input_value() == left, f"the player on the slide left went on from k = {left} to {box.input_value()}"
    assert play.get_attribute("aria-pressed") == "false"
    assert not problems, problems
    page.context.close()


#: The smallest a slide may be scaled to fit 1280x720 (tools/templates/course_reveal): below it
#: the prose (24 px) is under 17 px, too small for the back of a room, and the slide must be split instead
#: (tester 6: 00's "How to use the players" at 0.59, 06's pocket at 0.65; split, the least is 0.73).
MIN_SLIDE_SCALE = 0.7

# Each slide, after the deck fitted it: its scale, whether its content box lies inside the
# slide, any element that scrolls or cuts text, and any image without alt text.
JS_SLIDE_FIT = """() => {
  const s = Reveal.getCurrentSlide(), r = s.getBoundingClientRect(), box = s.querySelector(':scope > .course-fit');
  const b = (box || s).getBoundingClientRect(), deck = document.querySelector('.reveal').getBoundingClientRect();
  const cut = [];
  for (const el of s.querySelectorAll('*')) {
    if (el.closest('aside.notes')) continue;
    const st = getComputedStyle(el);
    const wider = el.scrollWidth > el.clientWidth + 2, taller = el.scrollHeight > el.clientHeight + 2;
    const scrolls = /(auto|scroll)/.test(st.overflowY + st.overflowX) && (wider || taller);
    const clips = /hidden|clip/.test(st.overflowX) && wider && el.innerText && el.innerText.trim();
    if (scrolls || clips) cut.push(el.tagName + '.' + el.className.toString().slice(0, 40));
  }
  return {scale: parseFloat(s.dataset.courseScale), inside: b.top >= deck.top - 2 && b.bottom <= deck.bottom + 2 &&
          b.left >= deck.left - 2 && b.right <= deck.right + 2, cut: cut.slice(0, 5),
          noAlt: Array.from(s.querySelectorAll('img')).filter((i) => !i.alt || !i.alt.trim()).length,
          h: Reveal.getIndices().h, v: Reveal.getIndices().v || 0};
}"""

# Each live player on the current slide shown under each of its tabs, with each of a switch's runs, and taken to its
# last step (its End button, pressed from script: the focus stays where it is): its buttons stay where they were (the
# presenter's pointer is there), and once the deck fitted the slide again (two frames) the slide's box must lie in
# the deck and its scale be no smaller than MIN_SLIDE_SCALE. Each player goes back to its start after.
JS_LIVE_END_FITS = """async (least) => {
  const s = Reveal.getCurrentSlide(), box = s.querySelector(':scope > .course-fit') || s;
  const deck = document.querySelector('.reveal').getBoundingClientRect();
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const button = (w, name) => Array.from(w.querySelectorAll('button')).find((b) => b.textContent.trim() === name);
  const out = [];
  let shown = 0;
  for (const [n, w] of Array.from(s.querySelectorAll('.course-live-widget')).entries()) {
    const end = button(w, 'End');
    if (!end || end.disabled) continue;
    const before = end.getBoundingClientRect();  // where the presenter's pointer is: the buttons must stay there
    const moved = (what) => {
      const now = end.getBoundingClientRect();
      if (Math.abs(now.top - before.top) > 1 || Math.abs(now.left - before.left) > 1) {
        out.push(`live player ${n + 1}: its buttons moved ${Math.round(now.top - before.top)} px at ${what}`);
      }
    };
    // each tab beside the picture and each run of a switch, the first again last (tester 6: a tab moved Step 27-30 px,
    // a switch's choice 25-37 px)
    const picks = (list) => [...list.slice(1), ...list.slice(0, 1)];
    for (const tab of picks(Array.from(w.querySelectorAll('[role="tab"]')))) {
      tab.click();
      await frames();
      moved(`its tab "${tab.textContent}"`);
    }
    for (const choice of picks(Array.from(w.querySelectorAll('.perceptron-choice input')))) {
      choice.click();
      await frames();
      moved(`its choice "${choice.closest('label').textContent}"`);
    }
    end.click();
    await frames();
    await frames();
    shown += 1;
    const b = box.getBoundingClientRect(), scale = parseFloat(s.dataset.courseScale);
    if (b.bottom > deck.bottom + 2 || b.top < deck.top - 2 || scale < least) {
      out.push(`live player ${n + 1} at its end: bottom at ${Math.round(b.bottom)}px, scale ${scale}`);
    }
    moved("its end");
    if (button(w, 'Reset')) button(w, 'Reset').click();
  }
  await frames();
  return {shown: shown, outside: out};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("build", ["saved", "lecture"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_browser_deck_fits_1280x720_and_moves_on_linearly(chromium, request, build, lesson):
    """Every slide of every deck, in both builds: one screen at 1280x720 (no inner scroll, no cut
    text, no image without alt), also at the last step of its live players, and the right arrow key always
    reaches the next slide. One page load per deck, walked with the keyboard: the slide-by-slide
    view is what this checks (axe checks the whole deck at once in the scroll view, test_a11y)."""
    decks = request.getfixturevalue("slides" if build == "saved" else "lecture_slides")
    deck = decks["out"] / f"{lesson.stem}.slides.html"
    page, problems = _offline_page(chromium, (1280, 720))
    page.goto(deck.as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    total = page.evaluate("Reveal.getTotalSlides()")
    assert total == next(d["slides"] for d in decks["decks"] if d["path"] == deck)
    vertical = page.evaluate("() => Reveal.getSlides().filter((s) => (Reveal.getIndices(s).v || 0) > 0).length")
    assert vertical == 0, f"{vertical} slides below others: the right arrow would skip them"
    page.locator(".reveal").click(position={"x": 5, "y": 5})
    bad, scales, frames = [], [], 0
    for i in range(total):
        if i:
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(30)
        fit = page.evaluate(JS_SLIDE_FIT)
        scales.append(fit["scale"])
        if (fit["h"], fit["v"]) != (i, 0):
            bad.append(f"after {i} presses of the right arrow the deck is on slide {fit['h']}.{fit['v']}")
            break
        if not fit["inside"] or fit["cut"] or fit["noAlt"] or fit["scale"] < MIN_SLIDE_SCALE:
            bad.append(f"slide {i + 1}: scale {fit['scale']}, inside {fit['inside']}, scrolls or cuts {fit['cut']}, "
                       f"{fit['noAlt']} images without alt")  # fmt: skip
        ended = page.evaluate(JS_LIVE_END_FITS, MIN_SLIDE_SCALE)
        frames += ended["shown"]
        if ended["outside"]:
            bad.append(f"slide {i + 1}: {ended['outside']}")
    _shot(page, f"deck_{build}_{lesson.stem}_last.png")
    page.context.close()
    print(f"{lesson.stem} ({build}): {total} slides, all fit at all {frames} live ends; "
          f"smallest scale {min(scales):.2f}")
    assert not bad, bad
    assert not problems, problems


#: The least scale of a slide with a player (courseFitSlides in tools/templates/course_reveal): below it the data panel,
#: 360 CSS px in the lecture preset, is under 0.95 of that on a 1280x720 projector (issue #30 item 5).
LEAST_PLAYER_SCALE = 0.95
#: Players whose slide is still scaled smaller (lesson, the player's place among the deck's player slides, 1-based):
#: none. Measured at 1280x720 before the lecture column's tab picker (`controls.js` buildTabs: a tall panel, an
#: editor's chart under a tab, the readout's headline under every tab): 04's two editors 0.89, 05's two 0.87, 02's
#: methods switch 0.68; with it every player slide is at 1.00. A player here that fits fails the test.
SMALL_PLAYER_SLIDES: set[tuple[str, int]] = set()
#: The data panel's plot on a player's slide, its longer side as drawn on a 1280x720 screen, CSS px (issue #30 item 5:
#: 360 in the lecture preset). It was 353 while reveal.js kept a 0.02 margin round the slide (the slide at 0.98).
LEAST_DECK_PANEL_PX = 360

# Every slide with a player (live), in order: its number, its scale, the player's data panel.
JS_PLAYER_SLIDES = """() => Reveal.getSlides().flatMap((s, i) => {
  if (!s.querySelector('.course-live-widget')) return [];
  const plot = s.querySelector('svg.pp-scene .pp-plot > g.pp-axes rect');
  const r = plot ? plot.getBoundingClientRect() : null;
  return [{slide: i + 1, scale: parseFloat(s.dataset.courseScale), plot: r ? Math.max(r.width, r.height) : null}];
})"""


@pytest.mark.browser
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_each_player_has_its_slide_at_full_size_in_the_lecture_deck(chromium, lecture_slides, lesson):
    """`make slides` at 1280x720: every slide with a player is scaled LEAST_PLAYER_SCALE or more (a player has a
    slide of its own, build_slides.players_alone; a tall panel stands beside the picture), but the known ones of
    SMALL_PLAYER_SLIDES, which must still be small (a fixed one is taken off the list); and the player's data panel,
    measured on the screen (the drawn SVG's plot box), is LEAST_DECK_PANEL_PX or more."""
    deck = lecture_slides["out"] / f"{lesson.stem}.slides.html"
    page, problems = _offline_page(chromium, (1280, 720))
    page.goto(deck.as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    page.wait_for_timeout(500)  # a player drawn last is fitted again on the next frames (courseRefitOnResize)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    found = page.evaluate(JS_PLAYER_SLIDES)
    page.context.close()
    print(f"{lesson.stem}: player slides (slide, scale, data panel px): "
          + ", ".join(f"({f['slide']}, {f['scale']:.3f}, {f['plot'] or 0:.0f})" for f in found))
    bad = []
    for n, f in enumerate(found, start=1):
        known = (lesson.stem, n) in SMALL_PLAYER_SLIDES
        if (f["scale"] < LEAST_PLAYER_SCALE) != known:
            bad.append(f"player {n} (slide {f['slide']}): scale {f['scale']:.3f}"
                       + (" fits now: take it off SMALL_PLAYER_SLIDES" if known else f" < {LEAST_PLAYER_SCALE}"))
        if f["plot"] is None or f["plot"] < LEAST_DECK_PANEL_PX - 0.5:
            bad.append(f"player {n} (slide {f['slide']}): its data panel is {f['plot'] or 0:.1f} px on the screen, "
                       f"under {LEAST_DECK_PANEL_PX}")
    assert found or not _has_player(lesson), f"{lesson.stem}: no slide with a live player"
    assert not bad, bad
    assert not problems, problems


@pytest.fixture(scope="session")
def recorded_site(tmp_path_factory) -> dict:
    """`make site` as it is made: every notebook re-run in the notebook preset, the widget state stored
    (the same build tests/test_a11y.py checks)."""
    return built("site", "notebook", str(tmp_path_factory.getbasetemp()))


@pytest.mark.browser
@pytest.mark.parametrize("notebook", [None, *ALL_NOTEBOOKS], ids=lambda p: "index" if p is None else _id(p))
def test_browser_site_page_works_offline(chromium, recorded_site, notebook):
    """A page of `make site` from file:// with the network blocked: no error, the mathematics
    typeset, and on a page with a player its first live player steps."""
    page_name = "index.html" if notebook is None else _id(notebook).replace(".ipynb", ".html")
    path = recorded_site["out"] / page_name
    page, problems = _offline_page(chromium, (1200, 900))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    if page_name != "index.html":
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20_000)
        page.evaluate("() => MathJax.startup.promise")
        if re.search(r"\$[^$\n]+\$|\\\(", path.read_text()):
            assert page.locator("mjx-container").count() > 0, "no mathematics was typeset"
        assert page.locator("text=Error").filter(has_text="Error displaying").count() == 0
        live = page.locator(".course-live-widget").count()
        if live:
            page.wait_for_function("document.documentElement.dataset.courseWidgets", timeout=30_000)
        assert (live > 0) == _has_player(notebook), f"{page_name}: {live} live players"
        if live:
            _step_live(page, "body")
    _shot(page, "site_" + page_name.replace("/", "_").replace(".html", ".png"), full_page=False)
    assert not problems, problems
    page.context.close()


def _voila_lesson() -> Path:
    """The lesson `make app NB=03` serves, else the first lesson with a player."""
    for p in LESSONS:
        if p.name.startswith("03_"):
            return p
    for p in LESSONS:
        if "BrowserPlayer(" in p.read_text():
            return p
    pytest.skip("no lesson with a player")


#: The first player of the app's lesson (03: the controlled player, drawn in the browser).
APP_PLAYER = ".perceptron-browsercontrolled, .perceptron-browserplayer"

#: The Jupyter configuration directory `make app` adds to JUPYTER_CONFIG_PATH (its voila.json).
APP_CONFIG_DIR = REPO / "tools" / "jupyter" / "config"

#: The app's smallest text in the lecture preset (px): the prose, the buttons and the readout.
LECTURE_MIN_FONT_PX = 18


@pytest.mark.browser
@pytest.mark.parametrize("template", ["course_app", "course_app_lecture"])
def test_browser_app_view_runs_a_player_without_code(chromium, template):
    """`make app` (and `COURSE_STYLE=lecture make app`): Voila on the notebooks folder with the
    course template. Nothing from the network (no request leaves 127.0.0.1, and the page holds no
    http(s) script or stylesheet); no code but that of the cells tagged slide-show-code, no exercise check, no prose
    about hidden code; a player steps; the links to other lessons open; in the lecture preset no text is smaller than
    18 px. The page logs no console error and gets no 4xx/5xx answer or failed request, from loading to
    the Step (Voila loads only the lab extensions tools/jupyter/config/voila.json allows: the
    others need JupyterLab's own services and fail in Voila)."""
    from tests.browser_support import jupyter_server

    lesson = _voila_lesson()
    # as `make app` runs it: the templates and the Voila configuration of tools/jupyter
    env = {"JUPYTER_PATH": str(REPO / "tools" / "jupyter"), "JUPYTER_CONFIG_PATH": str(APP_CONFIG_DIR)}
    if template == "course_app_lecture":
        env["COURSE_STYLE"] = "lecture"
    with jupyter_server(NOTEBOOKS, app="voila", env=env, extra_args=[f"--template={template}"], timeout=90) as srv:
        page = chromium.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(f"console error: {m.text}") if m.type == "error" else None)
        page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.request.method} {r.url}"))
        page.on("requestfailed", lambda r: errors.append(f"failed: {r.method} {r.url} ({r.failure})"))
        remote: list[str] = []

        def local_only(route):  # a lecture room may have no network: the app must not need it
            url = route.request.url
            if url.startswith(("data:", "blob:")) or url.startswith(srv.url):
                route.continue_()
            else:
                remote.append(url)
                route.abort()

        page.route("**/*", local_only)
        t0 = time.monotonic()
        page.goto(srv.voila_url(lesson.name), timeout=240_000)  # Voila answers once the lesson has run
        step = page.locator(f"{APP_PLAYER} button", has_text=re.compile(r"^\s*Step\s*$")).first
        step.wait_for(timeout=240_000)  # Voila runs the whole notebook first
        loaded = time.monotonic() - t0
        dom = page.evaluate(
            """() => { const other = (sel) => Array.from(document.querySelectorAll(sel))
                         .filter((e) => !e.closest('.celltag_slide-show-code')).length;
                       return {codeInputs: other('.jp-CodeCell .jp-InputArea, .jp-InputPrompt'),
                               editors: other('.cm-editor, .CodeMirror'),
                               errors: document.querySelectorAll('.jp-OutputArea-output[data-mime-type*="error"]')
                                 .length,
                               shown: Array.from(document.querySelectorAll('.celltag_slide-show-code .jp-InputArea'))
                                 .map((e) => e.innerText.trim().split('\\n')[0])}; }"""
        )
        # the code of a cell tagged slide-show-code only (the perceptron in plain Python), as the decks show it
        tagged = [c.source.split("\n")[0] for c in _read(lesson).cells
                  if "slide-show-code" in c.metadata.get("tags", [])]
        assert tagged, f"{lesson.name} has no cell tagged slide-show-code: the app's shown code goes unchecked"
        assert dom == {"codeInputs": 0, "editors": 0, "errors": 0, "shown": tagged}, dom
        # at WCAG AA contrast (the course's contrast.css, over the theme's highlighting)
        from tests.test_a11y import blocking_violations

        shown = blocking_violations(page, "document.querySelector('.celltag_slide-show-code')")
        assert not shown, shown
        assert not ce.remote_references(page.content()), ce.remote_references(page.content())[:3]
        text = page.locator("body").inner_text()
        assert "import " not in text
        for hidden in ("not attempted yet", "Exercise 1", "Replace the `...`", "Shift-Enter"):
            assert hidden not in text, f"the app shows {hidden!r}, which needs the code it hides"
        player = page.locator(APP_PLAYER).first
        readout = player.locator(".pp-readout").first
        before = readout.inner_text()
        step = player.locator("button", has_text=re.compile(r"^\s*Step\s*$")).first
        step.scroll_into_view_if_needed()
        step.click()
        page.wait_for_function(
            "([el, b]) => el.innerText !== b", arg=[readout.element_handle(), before], timeout=10_000
        )
        player.scroll_into_view_if_needed()
        _shot(page, f"app_{template}_{lesson.stem}.png")
        if template == "course_app_lecture":
            sizes = page.evaluate(
                """(root) => ['.jp-RenderedMarkdown p', '.perceptron-browsercontrolled button',
                              '.perceptron-browsercontrolled .pp-readout'].map((sel) => {
                   const el = document.querySelector(sel);
                   return [sel, el ? parseFloat(getComputedStyle(el).fontSize) : 0];
                 })"""
            )
            small = [(sel, px) for sel, px in sizes if px < LECTURE_MIN_FONT_PX]
            assert not small, f"text under {LECTURE_MIN_FONT_PX}px in the lecture preset: {small}"
        links = page.evaluate(
            "() => Array.from(document.querySelectorAll('.jp-RenderedMarkdown a[href$=\".ipynb\"]')).map((a) => a.href)"
        )
        assert links, "the lesson links to no other lesson"
        for href in sorted(set(links))[:1]:  # Voila runs the linked lesson to answer: one is enough
            status = page.request.get(href, max_redirects=0, timeout=240_000).status
            assert status == 200, f"{href} answers {status}"
        assert not remote, f"the app asked the network for {remote[:3]}"
        assert not errors, errors
        print(f"Voila ({template}): {lesson.name} ready in {loaded:.1f} s")
        page.close()


# --- RISE -----------------------------------------------------------------------------------

RISE_PLAYER_CODE = (
    "from perceptron_lib import fit_perceptron\n"
    "from perceptron_lib.core import data\n"
    "from perceptron_lib.player import BrowserPlayer\n"
    "X, y = data.separable(30, margin=0.1, seed=1)\n"
    "player = BrowserPlayer(fit_perceptron(X, y), X, y)\n"
    "player\n"
)


@pytest.fixture(scope="module")
def rise_deck(chromium, tmp_path_factory):
    """RISE at /rise/<lesson>?token=T on a copy of the notebooks (RISE may autosave what it shows).

    Yields (page, server) with the deck on the slide of the lesson's first player cell, whose
    code is replaced by a self-contained player (the deck skips the imports cell, so the
    lesson's own cell cannot run there) and run with Ctrl-Enter.
    """
    from tests.browser_support import jupyter_server

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
        cell = page.locator(".reveal .jp-CodeCell", has_text="BrowserPlayer(").first
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
    out = cell.locator(".jp-OutputArea-output").first
    # Without the widget manager RISE falls back from the widget view to the next output the player
    # gives: its still picture (image/png), or else its text repr.
    text, pictures = out.inner_text(), out.locator("img").count()
    assert "BrowserPlayer" in text or pictures > 0, f"the cell ran but showed {text!r} and {pictures} pictures"


@pytest.mark.browser
@pytest.mark.xfail(
    strict=True,
    reason="jupyterlab-rise 0.43.1 with JupyterLab 4.6 / ipywidgets 8.1: the RISE app cannot load the widget "
    "manager (\"Shared module @jupyterlab/console doesn't exist in shared scope\"), so a live player shows "
    "only its still picture. Static decks (make slides) are the supported path; see README.",
)
def test_browser_rise_player_can_be_clicked(rise_deck):
    page, cell, _ = rise_deck
    step = cell.locator(".widget-button", has_text="Step").first
    step.wait_for(timeout=5_000)
    readout = cell.locator(".widget-html").first
    before = readout.inner_text()
    step.click()
    page.wait_for_function("([el, b]) => el.innerText !== b", arg=[readout.element_handle(), before], timeout=5000)


def _cell_html(deck_html: str, cell_id: str) -> str:
    """The part of a deck from cell `cell_id`'s element to the next cell's."""
    start = deck_html.index(f'id="cell-id={cell_id}"')
    nxt = deck_html.find('id="cell-id=', start + 10)
    return deck_html[start: nxt if nxt > 0 else len(deck_html)]


def test_saved_deck_has_a_still_for_every_live_figure(slides):
    """SLIDES_STYLE=saved (no kernel): every player and live figure shows its saved picture.

    The picture is the ``image/png`` a displayed player puts beside its widget view (issue 12's
    display contract), so this passes once the notebooks are saved from players that keep it.
    """
    missing = []
    for p in LESSONS:
        html = (slides["out"] / f"{p.stem}.slides.html").read_text()
        for cell in _read(p).cells:
            if any(ce.WIDGET_VIEW in o.get("data", {}) for o in cell.get("outputs", [])):
                if "<img" not in _cell_html(html, cell.id):
                    missing.append(f"{p.stem} cell {cell.id}")
    assert not missing, f"live figures with no still in the saved decks: {missing}"
