"""The keyboard on the site and in the decks, and what the site says where it needs Python (issue #30, tester 3).

Without a browser, `build_site.SiteNotes` on small notebooks: a note under a lesson's "## Exercises" heading and
the checks' saved "not attempted yet" lines gone (a solutions page keeps them, with no note); a note right above a
live figure's still (`LiveFigure`, a kernel-side widget), which names the section of a player further on whose lifted
view turns in the page when the figure's sliders turn a 3-D view, and nothing above a figure that is live in the page.
On the built site (``make site``): lesson 05's figure has its note, with section 3's player, and every lesson with
exercises its note.

In Chromium (marker ``browser``), on the site and the decks as ``make site`` and ``make slides`` build them:

* the site's lesson 03: Tab from the top of the page reaches the first player's first control in a handful of
  presses (it took 104: every formula and every cell was a tab stop), no formula and no cell on the way; the
  formulas keep their hidden MathML for screen readers;
* deck 03, the slide of its main player: the first Tab goes into the player (it took 90, through the other slides'
  controls), and Tab never leaves the slide shown (every other slide is inert, none in the overview); Space and
  Enter on a focused Step step the player and the slide stays; Escape in the player puts the focus on the slide
  (no overview), the next Tab goes back into the player, and a second Escape opens the overview; with the picture
  focused → steps the player and Escape leaves it; after a click on Step, → moves the deck on.

The numbers of presses are printed (``pytest -s``); screenshots go to ``tests/artifacts/keyboard_pages/``.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from export_builds import built  # the name test_instructor and test_a11y use: one build a session for all

from tools import build_site, widget_embed

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests" / "artifacts" / "keyboard_pages"
LESSON = "03_hyperplane_updates"
#: What the focused element is, for a report: its tag, class, and whether it is in a player, a formula, a cell.
JS_FOCUS = """() => { const e = document.activeElement;
  if (!e || e === document.body) return {tag: 'BODY'};
  const slide = e.closest('.reveal .slides section');
  return {tag: e.tagName, cls: String(e.className && e.className.baseVal !== undefined ? e.className.baseVal
      : e.className).slice(0, 60), text: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30),
    inPlayer: !!e.closest('.course-live-widget'), formula: !!e.closest('mjx-container'),
    cell: e.matches('.jp-Cell-inputWrapper, .jp-OutputArea-output'),
    onSlide: slide ? (slide.classList.contains('present') || slide.contains(Reveal.getCurrentSlide())) : null}; }"""


# ----------------------------------------------------------------------------- the site's notes, no browser


def _live_still(names: str, *, live: bool = False, model_id: str = "F1"):
    data = {"text/plain": f"<LiveFigure: {names}>", "image/png": "iVBORw0KGgo="}
    if live:
        data[widget_embed.WIDGET_VIEW] = {"model_id": model_id, "version_major": 2, "version_minor": 0}
    return nbformat.v4.new_output("display_data", data=data, metadata={"image/png": {"alt": "a figure"}})


def _editor_view(model_id: str = "E1"):
    return nbformat.v4.new_output("display_data", data={
        "text/plain": "BrowserEditor()", "image/png": "iVBORw0KGgo=",
        widget_embed.WIDGET_VIEW: {"model_id": model_id, "version_major": 2, "version_minor": 0}})


def _notebook(*, lifted_player: bool, names: str = "azimuth, elevation, r"):
    nb = nbformat.v4.new_notebook()
    figure = nbformat.v4.new_code_cell("live")
    figure.outputs = [_live_still(names)]
    player = nbformat.v4.new_code_cell("BrowserEditor(...)")
    player.outputs = [_editor_view()]
    check = nbformat.v4.new_code_cell("nb05.check_circle(...)", metadata={"tags": ["exercise-check"]})
    check.outputs = [nbformat.v4.new_output("stream", name="stdout", text="5.1: not attempted yet. Replace ...\n")]
    nb.cells = [nbformat.v4.new_markdown_cell("## 2 · The lift"), figure,
                nbformat.v4.new_markdown_cell("## 3 · The perceptron in the lifted space\n\nThe player below."),
                player, nbformat.v4.new_markdown_cell("## Exercises\n\nEach exercise ends with a code cell."), check]
    kinds = [{"kind": "lifted"}] if lifted_player else [{"kind": "loss"}]
    nb.metadata["widgets"] = {widget_embed.WIDGET_STATE: {"state": {"E1": {"state": {"options": {"panels": kinds}}}}}}
    return nb


def _notes(nb, *, solutions: bool = False):
    nb, _ = build_site.SiteNotes(solutions=solutions).preprocess(nb, {})
    return nb


def test_the_exercises_say_that_their_checks_need_python_and_a_lesson_drops_the_checks_saved_lines():
    nb = _notes(_notebook(lifted_player=True))
    heading = nb.cells[4].source
    assert heading.startswith("## Exercises\n\nEach exercise ends with a code cell.")
    assert heading.endswith(build_site.EXERCISES_NOTE) and "make lab" in build_site.EXERCISES_NOTE
    assert nb.cells[5].outputs == [], "a lesson's page shows a check's 'not attempted yet', which asks to run it"
    solved = _notes(_notebook(lifted_player=True), solutions=True)
    assert solved.cells[5].outputs[0]["text"].startswith("5.1"), "a solutions page keeps what its checks say"
    assert build_site.EXERCISES_NOTE not in solved.cells[4].source, "the solutions' checks do run: no such note"


def test_a_live_figure_s_still_says_its_sliders_need_python_and_where_a_view_turns_in_the_page():
    figure = _notes(_notebook(lifted_player=True)).cells[1]
    assert [o["output_type"] for o in figure.outputs] == ["display_data", "display_data"]
    note = figure.outputs[0]["data"]["text/html"]
    assert "image/png" in figure.outputs[1]["data"], "the note goes right above the figure's still"
    assert build_site.LIVE_FIGURE_NOTE in note and "make lab" in note
    assert "section “3 · The perceptron in the lifted space”" in note, note
    # no lifted view further on, or a figure whose sliders turn nothing: the note says only what needs Python
    for nb in (_notebook(lifted_player=False), _notebook(lifted_player=True, names="m, theta")):
        note = _notes(nb).cells[1].outputs[0]["data"]["text/html"]
        assert build_site.LIVE_FIGURE_NOTE in note and "section" not in note, note
    # a figure that is live in the page (its widget view kept) needs no note
    nb = _notebook(lifted_player=True)
    nb.cells[1].outputs = [_live_still("azimuth", live=True)]
    assert len(_notes(nb).cells[1].outputs) == 1


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The students' site as ``make site`` builds it (shared with tests/test_a11y.py and test_instructor.py)."""
    return built("site", "notebook", str(tmp_path_factory.getbasetemp()))["out"]


def test_the_built_site_says_it_at_lesson_05_s_live_figure_and_at_every_lesson_s_exercises(site):
    page = (site / "05_kernel_lifting.html").read_text(encoding="utf-8")
    note = page.index(build_site.LIVE_FIGURE_NOTE)
    assert "3 · The perceptron in the lifted space" in page[note : note + 600]
    assert page.index("<img", note) < page.index('<div class="jp-Cell ', note), "the figure's still is not under it"
    for lesson in sorted(site.glob("0[1-6]_*.html")):
        text = lesson.read_text(encoding="utf-8")
        assert text.count(build_site.EXERCISES_NOTE) == 1, lesson.name
        assert "not attempted yet" not in text, lesson.name


# ----------------------------------------------------------------------------- in Chromium


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def _tab_to_player(page, most: int) -> tuple[int, list[dict]]:
    """Press Tab until the focus is in a live player; (presses, what each focused)."""
    seen = []
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(JS_FOCUS))
        if seen[-1].get("inPlayer"):
            return presses, seen
    raise AssertionError(f"no player after {most} presses of Tab; the last stops: {seen[-8:]}")


@pytest.mark.browser
def test_tab_reaches_the_site_s_first_player_in_a_handful_of_presses(chromium, site):
    page = chromium.new_page(viewport={"width": 1440, "height": 900})
    page.goto((site / f"{LESSON}.html").as_uri())
    page.wait_for_function("document.documentElement.dataset.courseWidgets === 'ready'", timeout=30_000)
    page.evaluate("MathJax.startup.promise")
    presses, seen = _tab_to_player(page, 30)
    print(f"site {LESSON}: the first player's first control at Tab {presses} (it was 104)")
    assert presses <= 10, seen
    assert not [s for s in seen if s.get("formula") or s.get("cell")], seen
    maths = page.evaluate("""() => ({all: document.querySelectorAll('mjx-container').length,
      tabbable: document.querySelectorAll('mjx-container[tabindex="0"]').length,
      read: document.querySelectorAll('mjx-container > mjx-assistive-mml').length})""")
    assert maths["all"] > 50 and maths["tabbable"] == 0 and maths["read"] == maths["all"], maths
    page.locator(".course-live-widget").first.scroll_into_view_if_needed()
    _shot(page, "site_03_first_player_focused.png")
    page.close()


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    """Deck 03 as ``make slides`` builds it (the lecture preset; shared with tests/test_a11y.py)."""
    return built("slides", "lecture", str(tmp_path_factory.getbasetemp()))["out"] / f"{LESSON}.slides.html"


JS_PLAYER_SLIDE = """() => { for (const s of Reveal.getSlides()) { if (s.querySelector('.perceptron-browserplayer')) {
  const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v || 0); return i.h; } } return null; }"""


def _open_deck_at_player(chromium, deck: Path):
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(deck.as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    slide = page.evaluate(JS_PLAYER_SLIDE)
    assert slide is not None, "deck 03 has no slide with a live player"
    page.wait_for_timeout(600)  # reveal's slide transition
    return page, slide, problems


def _wait_k(page, box, k: int) -> None:
    page.wait_for_function("([el, k]) => el.value === String(k)", arg=[box.element_handle(), k], timeout=5000)


@pytest.mark.browser
def test_tab_stays_on_the_deck_s_slide_and_goes_straight_into_its_player(chromium, deck):
    page, slide, problems = _open_deck_at_player(chromium, deck)
    inert = page.evaluate("""() => { const all = Array.from(document.querySelectorAll('.reveal .slides section'));
      return {inert: all.filter((s) => s.inert).length, all: all.length}; }""")
    presses, seen = _tab_to_player(page, 10)
    print(f"deck {LESSON}, slide {slide}: the player at Tab {presses} (it was 90); {inert['inert']} of "
          f"{inert['all']} sections inert")
    assert presses <= 2, seen
    assert inert["inert"] >= inert["all"] - 2, inert  # all but the slide shown (and its stack)
    # a whole round of Tab: nothing of another slide (reveal's own arrows and slide number may come between)
    for _ in range(60):
        page.keyboard.press("Tab")
        here = page.evaluate(JS_FOCUS)
        assert here.get("onSlide") is not False, f"Tab went to another slide: {here}"
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Escape")  # the focus on no player: the deck's key, its overview
    page.wait_for_function("Reveal.isOverview()", timeout=5000)
    assert page.evaluate("document.querySelectorAll('.reveal .slides section[inert]').length") == 0, \
        "the overview shows every slide: none is inert there"
    _shot(page, "deck_03_overview.png")
    page.keyboard.press("Escape")
    page.wait_for_function("!Reveal.isOverview()", timeout=5000)
    assert page.evaluate("Reveal.getIndices().h") == slide
    assert problems == [], problems
    page.close()


@pytest.mark.browser
def test_space_enter_and_escape_in_the_deck_s_player_are_the_player_s(chromium, deck):
    page, slide, problems = _open_deck_at_player(chromium, deck)
    player = page.locator(".reveal .slides section.present .perceptron-browserplayer").first
    box = player.locator(".pp-controls input").first
    step = player.get_by_role("button", name="Step").first
    step.focus()
    assert box.input_value() == "0"
    page.keyboard.press("Space")  # the button's key: it is pressed, the slide stays
    _wait_k(page, box, 1)
    page.keyboard.press("Enter")
    _wait_k(page, box, 2)
    assert page.evaluate("Reveal.getIndices().h") == slide
    _shot(page, "deck_03_space_enter_on_step.png")
    page.keyboard.press("Escape")  # leaves the player: the slide has the focus, no overview
    page.wait_for_timeout(300)
    assert not page.evaluate("Reveal.isOverview()")
    assert page.evaluate("document.activeElement === Reveal.getCurrentSlide()")
    _shot(page, "deck_03_escape_left_the_player.png")
    page.keyboard.press("Tab")
    assert page.evaluate(JS_FOCUS)["inPlayer"], "Tab after Escape goes back into the slide's player"
    picture = player.locator(".pp-picture").first
    picture.focus()
    page.keyboard.press("ArrowRight")  # the picture's key: one step, the deck stays
    _wait_k(page, box, 3)
    assert page.evaluate("Reveal.getIndices().h") == slide
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert not page.evaluate("Reveal.isOverview()")
    assert page.evaluate("document.activeElement === Reveal.getCurrentSlide()")
    page.keyboard.press("Escape")  # the focus is on the slide: the deck's key, the overview
    page.wait_for_function("Reveal.isOverview()", timeout=5000)
    page.keyboard.press("Escape")
    page.wait_for_function("!Reveal.isOverview()", timeout=5000)
    # the arrows after a click on Step move the deck (README), and the focus goes with the slide shown
    step.click()
    _wait_k(page, box, 4)
    page.mouse.move(2, 2)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"Reveal.getIndices().h === {slide + 1}", timeout=5000)
    assert page.evaluate("document.activeElement === Reveal.getCurrentSlide()")
    assert problems == [], problems
    page.close()
