"""Two things of a deck's layout that the tester found (issue #30, tester 3, items 24 and 26), in Chromium.

* Opening a slide's "(click to open)" details ("In other texts") fits the slide again and lays the deck out again:
  the opened slide lies inside the deck's 1280x720 (its text ran off the foot, the slide still centred as if closed).
* An output's line breaks between words: no number is cut in two at the end of a line ("22, 3" / "8, 0]").
* A slide with a figure alone has it in the middle (it sat at the left with the right half empty).

On the decks as ``make slides`` builds them (shared with tests/test_a11y.py and test_instructor.py); screenshots go
to ``tests/artifacts/keyboard_pages/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from export_builds import built  # as test_instructor and test_a11y import it: one build a session for all

from tools import build_slides

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests" / "artifacts" / "keyboard_pages"


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    return built("slides", "lecture", str(tmp_path_factory.getbasetemp()))["out"]


def _open(chromium, deck: Path):
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(deck.as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    return page


JS_BOX = """() => { const b = Reveal.getCurrentSlide().querySelector(':scope > .course-fit').getBoundingClientRect(),
  d = document.querySelector('.reveal').getBoundingClientRect();
  return {top: b.top - d.top, bottom: b.bottom - d.top, height: d.height}; }"""


@pytest.mark.browser
@pytest.mark.parametrize("lesson", ["03_hyperplane_updates", "05_kernel_lifting"])
def test_an_opened_details_keeps_its_slide_inside_the_deck(chromium, decks, lesson):
    page = _open(chromium, decks / f"{lesson}.slides.html")
    found = page.evaluate("""() => { for (const s of Reveal.getSlides()) {
      if (s.querySelector('details') && !s.querySelector('.course-live-widget')) {
        const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v || 0); return i.h; } } return null; }""")
    assert found is not None, f"deck {lesson} has no slide with a details"
    page.wait_for_timeout(800)  # the slide transition
    page.locator(".reveal .slides section.present details > summary").first.click()
    page.wait_for_timeout(500)
    assert page.evaluate("Reveal.getCurrentSlide().querySelector('details').open")
    box = page.evaluate(JS_BOX)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"deck_{lesson}_details_open.png"))
    page.close()
    print(f"deck {lesson}, slide {found} with its details open: {box['top']:.0f} to {box['bottom']:.0f} px")
    assert box["top"] >= -1 and box["bottom"] <= box["height"] + 1, box


@pytest.mark.browser
def test_no_number_is_cut_at_the_end_of_an_output_line(chromium, decks):
    page = _open(chromium, decks / "03_hyperplane_updates.slides.html")
    # where a line wraps (the next character drawn lower, with no newline between), the characters on both sides
    wraps = page.evaluate("""() => { const out = [];
      for (const pre of document.querySelectorAll('.reveal .jp-OutputArea-output pre')) {
        const text = pre.firstChild; if (!text || text.nodeType !== 3) continue;
        const range = document.createRange(); let top = null;
        for (let i = 0; i < text.length; i++) {
          const c = text.data[i];
          if (c === '\\n') { top = null; continue; }
          range.setStart(text, i); range.setEnd(text, i + 1);
          const r = range.getClientRects()[0]; if (!r) continue;
          if (top !== null && r.top - top > r.height / 2) {
            out.push(text.data.slice(Math.max(0, i - 12), i) + '|' + text.data.slice(i, i + 12));
          }
          top = r.top;
        }
      } return out; }""")
    page.close()
    print(f"{len(wraps)} wrapped output lines on deck 03, e.g. {wraps[:2]}")
    assert wraps, "no output line wraps on deck 03: the test checks nothing"
    # a wrap with a digit on both sides cuts a number in two
    cut = [w for w in wraps if re.search(r"\d\|\d", w)]
    assert not cut, cut[:3]


@pytest.mark.browser
def test_a_figure_alone_on_its_slide_stands_in_the_middle(chromium, decks):
    page = _open(chromium, decks / "03_hyperplane_updates.slides.html")
    # each slide that holds one picture and nothing else: how far its picture's centre is from the deck's, CSS px
    off = page.evaluate("""() => {
      const deck = document.querySelector('.reveal').getBoundingClientRect(), out = [];
      Reveal.getSlides().forEach((s, i) => {
        const imgs = s.querySelectorAll('img');
        if (imgs.length !== 1 || s.querySelector('.jp-MarkdownCell, .course-live-widget')) return;
        Reveal.slide(i, 0);
        const r = imgs[0].getBoundingClientRect();
        out.push({slide: i + 1, width: Math.round(r.width),
                  off: Math.round(r.left + r.width / 2 - (deck.left + deck.width / 2))});
      }); return out; }""")
    page.close()
    print(f"deck 03, figures alone on a slide (slide, width, centre off the deck's centre, px): {off}")
    assert any(f["width"] < 1000 for f in off), "no figure narrower than the slide: the test checks nothing"
    # measured: 4 px off on every such slide of the lecture deck (the output area's padding); left-aligned, 343 px
    assert all(abs(f["off"]) <= 8 for f in off), off


@pytest.mark.browser
def test_a_deck_is_fitted_once_its_formulas_are_drawn(chromium, tmp_path):
    """reveal.js is ready before MathJax's deferred script has even run (238 ms against 503 here): a deck must be
    fitted after its formulas are drawn, not with their TeX source as plain text (in CI three of lesson 06's slides
    ran off the screen). A deck of formulas and no player (nothing else to wait for): the scales it fitted must be
    those of fitting it again afterwards."""
    lesson = tmp_path / "notebooks"
    lesson.mkdir()
    formulas = "\n\n".join(f"$$\\sum_{{i=1}}^{{{n}}} \\frac{{y_i \\langle w, x_i \\rangle}}{{\\lVert w \\rVert}}$$"
                             for n in range(2, 14))  # fmt: skip
    cells = [nbformat.v4.new_markdown_cell(f"# Formulas {k}\n\n{formulas}") for k in range(3)]
    for cell in cells:
        cell.metadata["slideshow"] = {"slide_type": "slide"}
    nbformat.write(nbformat.v4.new_notebook(cells=cells), lesson / "01_formulas.ipynb")
    out = build_slides.build(tmp_path / "decks", lesson, style="saved")["decks"][0]["path"]
    page = _open(chromium, out)
    fitted = page.evaluate("""() => ({formulas: document.querySelectorAll('.reveal mjx-container').length,
      scales: Reveal.getSlides().map((s) => s.dataset.courseScale)})""")
    again = page.evaluate("() => { courseFitSlides(); return Reveal.getSlides().map((s) => s.dataset.courseScale); }")
    page.close()
    assert fitted["formulas"] >= 36, fitted
    assert fitted["scales"] == again, f"fitted before the formulas were drawn: {fitted['scales']}, then {again}"
