"""The decks' prose speaks only of what the room sees (issue #30, tester 3, item 25).

A deck hides code: a cell's code is on a slide only where its cell is tagged ``slide-show-code`` (the template
tools/templates/course_reveal). Its prose comes from the same notebooks as the site and JupyterLab, so one sentence
has to be true in both. Three rules, one per sentence that points at code:

* the code is the point of the slide (lessons 01 and 03: the perceptron in plain Python): its cell is tagged
  ``slide-show-code``, and the code is on the slide, at a size a room reads;
* otherwise the sentence says what is computed, not where ("Here is the readout at three radii:", not "The cell
  below prints ..."), or, for what only a notebook does (run a cell, type an answer), it says so: "In the
  notebook, ...";
* a cell only the notebook needs stays off the slides with the slide type ``skip`` (lesson 00's progress table).

`pointers_to_hidden_code` reads a built deck: a slide whose prose points at a cell ("the next cell", "the
computation below", "here it is in plain Python", "run the cell") must show code itself or on the next slide.
On the decks `make slides SLIDES_STYLE=saved` builds (tests/export_builds.py: the same prose and the same hidden
code as the lecture decks, in seconds); the browser test measures the code slides at 1280x720.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup
from export_builds import built

from tools import course_export as ce

REPO = Path(__file__).resolve().parents[1]
LESSONS = ce.lessons(REPO / "notebooks")
ARTIFACTS = REPO / "tests" / "artifacts" / "instructor"

#: Words that point at a notebook's cells or code: any "cell", code or a computation or check "below"/"above",
#: an `assert`, "here it is in (plain) Python", Shift-Enter, "above/below the check".
POINTER = re.compile(
    r"""\b(?:cells?
        |(?:code|computation|check|checks|checked|assert|loop)\s+(?:below|above)
        |`?assert`?\s+(?:above|below|in)
        |(?:here\s+(?:it\s+is|they\s+are)\s+)?in\s+plain\s+python
        |shift-enter
        |(?:above|below)\s+the\s+check)\b""",
    re.IGNORECASE | re.VERBOSE,
)
#: A sentence that says it speaks of the notebook is true on a slide too ("In the notebook, run the two cells").
SAYS_NOTEBOOK = re.compile(r"\bin (?:the|your) notebook\b", re.IGNORECASE)
#: The code of a cell shown on a slide (its input area; a hidden input leaves none).
SHOWN_CODE = ".jp-CodeCell .jp-InputArea"
#: The least size of shown code on a 1280x720 screen, CSS px: the deck's code size (18 px) at a scale of 0.9.
LEAST_CODE_PX = 16


def _sentences(text: str) -> list[str]:
    """The sentences of a slide's prose (a new sentence starts with a capital after . ! or ?)."""
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(text.split())) if s]


def pointers_to_hidden_code(html: str) -> list[tuple[int, str]]:
    """(slide number from 1, sentence) for each sentence of a deck's prose that points at code which neither its slide
    nor the next one shows. Speaker notes do not count (the room does not see them)."""
    slides = BeautifulSoup(html, "html.parser").select("div.slides > section")
    shows = [s.select_one(SHOWN_CODE) is not None for s in slides] + [False]
    found = []
    for n, slide in enumerate(slides):
        prose = " ".join(m.get_text(" ") for m in slide.select(".jp-MarkdownCell .jp-RenderedMarkdown"))
        for sentence in _sentences(prose):
            if POINTER.search(sentence) and not SAYS_NOTEBOOK.search(sentence) and not (shows[n] or shows[n + 1]):
                found.append((n + 1, sentence))
    return found


def _deck(*slides: str) -> str:
    """A deck as nbconvert's reveal template writes it: each slide a section of cells."""
    cells = {
        "md": '<div class="jp-Cell jp-MarkdownCell"><div class="jp-RenderedMarkdown"><p>{}</p></div></div>',
        "code": '<div class="jp-Cell jp-CodeCell"><div class="jp-InputArea"><pre>x = 1</pre></div></div>',
        "out": '<div class="jp-Cell jp-CodeCell"><div class="jp-OutputArea"><pre>1</pre></div></div>',
    }
    body = []
    for slide in slides:
        parts = [cells["md"].format(p[3:]) if p.startswith("md:") else cells[p] for p in slide.split("|")]
        body.append("<section><section>" + "".join(parts) + "</section></section>")
    return '<div class="reveal"><div class="slides">' + "".join(body) + "</div></div>"


def test_the_pointer_check_finds_a_sentence_about_hidden_code_and_passes_shown_code():
    hidden = _deck("md:The models. Here it is in plain Python, with loops only.|out", "md:Next.")
    assert pointers_to_hidden_code(hidden) == [(1, "Here it is in plain Python, with loops only.")]
    assert pointers_to_hidden_code(_deck("md:The next cell checks the formula.|out")) == [
        (1, "The next cell checks the formula.")
    ]
    assert pointers_to_hidden_code(_deck("md:The computation below prints the margins.|out"))
    assert pointers_to_hidden_code(_deck("md:Replace the `...` and run the cell.|out"))
    assert pointers_to_hidden_code(_deck("md:Paste them above the check, and run it.|out"))
    # the code is on the slide, or on the next one
    assert pointers_to_hidden_code(_deck("md:Here it is in plain Python.|code")) == []
    assert pointers_to_hidden_code(_deck("md:Here it is in plain Python.", "code|out")) == []
    # true on a slide: what is computed, not where; or said of the notebook
    assert pointers_to_hidden_code(_deck("md:Here are the margins of the six points:|out")) == []
    assert pointers_to_hidden_code(_deck("md:In the notebook, replace the `...` and run that cell.")) == []
    assert pointers_to_hidden_code(_deck("md:The player below steps through the run.|out")) == []


@pytest.fixture(scope="module")
def saved_decks(tmp_path_factory) -> dict:
    """`make slides SLIDES_STYLE=saved`, shared with test_instructor.py (the `slides` fixture)."""
    return built("slides", "saved", str(tmp_path_factory.getbasetemp()))


def test_no_slide_points_at_code_it_does_not_show(saved_decks):
    found = {
        d["path"].name: pointers_to_hidden_code(d["path"].read_text(encoding="utf-8")) for d in saved_decks["decks"]
    }
    found = {deck: hits for deck, hits in found.items() if hits}
    lines = [f"{deck} slide {n}: {sentence[:120]}" for deck, hits in found.items() for n, sentence in hits]
    assert not lines, "prose about code the slide hides (show the code, say what is computed, or skip the cell):\n" + (
        "\n".join(lines)
    )


def test_code_is_on_a_slide_only_where_its_cell_is_tagged_to_show_it(saved_decks):
    """Each deck shows as many code inputs as its lesson has code cells tagged `slide-show-code`, none other."""
    for d, lesson in zip(saved_decks["decks"], LESSONS, strict=True):
        tagged = sum(
            c.cell_type == "code"
            and "slide-show-code" in c.metadata.get("tags", [])
            and c.metadata.get("slideshow", {}).get("slide_type", "-") != "skip"
            for c in nbformat.read(lesson, as_version=4).cells
        )
        soup = BeautifulSoup(d["path"].read_text(encoding="utf-8"), "html.parser")
        shown = soup.select(SHOWN_CODE)
        assert len(shown) == tagged, f"{d['path'].name}: {len(shown)} code inputs on slides, {tagged} cells tagged"
        assert all("celltag_slide-show-code" in el.find_parent(class_="jp-CodeCell")["class"] for el in shown)


#: The style (jupyterlab-fonts' cell metadata, applied as `.jp-Cell[data-jpf-cell-id=...] .jp-Cell-inputWrapper`) that
#: shows a tagged cell's code in the live deck of `make lecture`, where tools/jupyter/lab/overrides.json hides every
#: input while presenting (tests/test_live_deck.py): JupyterLab puts no tag on a cell's element, so the tag cannot.
LIVE_DECK_SHOWS_CODE = {"styles": {".jp-Cell-inputWrapper": {"display": "flex"}}}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_tagged_cell_shows_its_code_in_the_live_deck_too(lesson):
    """A cell is tagged `slide-show-code` exactly where it carries `LIVE_DECK_SHOWS_CODE`: the exported decks, the app
    and the live deck show the same code."""
    for c in nbformat.read(lesson, as_version=4).cells:
        tagged = "slide-show-code" in c.metadata.get("tags", [])
        style = c.metadata.get("@deathbeds/jupyterlab-fonts")
        assert (style == LIVE_DECK_SHOWS_CODE) == tagged, (
            f"{lesson.name} cell {c.get('id')}: tagged {tagged}, its jupyterlab-fonts style {style}; a cell tagged "
            f"slide-show-code needs metadata['@deathbeds/jupyterlab-fonts'] = {LIVE_DECK_SHOWS_CODE}, and only it")


@pytest.mark.browser
def test_browser_shown_code_is_legible_at_1280x720(chromium, saved_decks):
    """Every slide that shows code keeps its code at LEAST_CODE_PX or more on a 1280x720 screen, whole (nothing
    scrolls or is cut: test_instructor's fit test walks every slide)."""
    sizes = []
    for d in saved_decks["decks"]:
        html = d["path"].read_text(encoding="utf-8")
        if "celltag_slide-show-code" not in html:
            continue
        page = chromium.new_page(viewport={"width": 1280, "height": 720})
        page.goto(d["path"].as_uri())
        page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                               timeout=30_000)  # fmt: skip
        shown = page.evaluate("""() => Reveal.getSlides().flatMap((s, i) => {
          const pre = s.querySelector('.jp-CodeCell .jp-InputArea pre');
          if (!pre) return [];
          const box = pre.closest('.jp-InputArea-editor') || pre;
          const scale = parseFloat(s.dataset.courseScale);
          return [{slide: i + 1, px: parseFloat(getComputedStyle(pre).fontSize) * scale,
                   wide: box.scrollWidth > box.clientWidth + 2 || pre.scrollWidth > pre.clientWidth + 2}];
        })""")
        for s in shown:
            page.evaluate(f"Reveal.slide({s['slide'] - 1}, 0)")
            page.wait_for_timeout(300)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"deck_code_{d['path'].name.split('.')[0]}_s{s['slide']}.png"))
            sizes.append((d["path"].name, s["slide"], round(s["px"], 1), s["wide"]))
        page.close()
    print("code on slides (deck, slide, px on screen, scrolls sideways):", sizes)
    assert sizes, "no deck shows code: the perceptron in plain Python (lessons 01 and 03) is tagged slide-show-code"
    small = [s for s in sizes if s[2] < LEAST_CODE_PX or s[3]]
    assert not small, f"code under {LEAST_CODE_PX} px on a 1280x720 screen, or scrolling sideways: {small}"


def test_a_live_figures_still_says_its_sliders_need_python(saved_decks):
    """The prose around a live figure speaks of its sliders ("drag m from -2 to 2"); on a slide it is a still, and
    the slide says so right under it (tester 3's deck walk: 01 slide 10, 02 slide 10, 03 slide 12, 05 slides 7, 9)."""
    from tools.build_slides import STILL_NOTE

    note = BeautifulSoup(STILL_NOTE, "html.parser").get_text()
    total = 0
    for d, lesson in zip(saved_decks["decks"], LESSONS, strict=True):
        stills = sum(str(out.get("data", {}).get("text/plain", "")).startswith("<LiveFigure")
                     for c in nbformat.read(lesson, as_version=4).cells if c.cell_type == "code" for out in c.outputs)
        soup = BeautifulSoup(d["path"].read_text(encoding="utf-8"), "html.parser")
        said = [p for p in soup.select("p.course-site-note") if p.get_text() == note]
        assert len(said) == stills, f"{d['path'].name}: {stills} live figures, {len(said)} notes under them"
        total += stills
        for p in said:  # right under its still: the output before the note is the figure's picture
            before = p.find_parent(class_="jp-OutputArea-child").find_previous_sibling(class_="jp-OutputArea-child")
            assert before is not None and before.select_one("img") is not None
    assert total >= 4  # 01 (two), 02 and 05 have live figures
