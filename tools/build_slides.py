"""Export every lesson as a reveal.js slide deck: ``make slides`` runs
``python tools/build_slides.py --out _slides``.

Each cell's ``metadata.slideshow.slide_type`` says where it goes (slide, subslide, fragment,
"-" to continue the slide, notes for the speaker notes, skip to leave it out), as in
``jupyter nbconvert --to slides``; a cell's ``metadata.speaker_notes`` become its slide's
speaker notes (the template writes them). The outputs of exercise checks (cells tagged
``exercise-check``) are left out (nbconvert's TagRemovePreprocessor). A player that runs in the
browser (anywidget) is live on its slide, from the widget state the re-run stored
(tools/widget_embed.py); where a kernel-side player stood, the deck shows its recording, or its
picture for ``--style saved`` (nbconvert's output priority, see course_export). The deck works
offline: reveal.js (from the PyPI package sphinx-revealjs), MathJax 3 (from
django-static-mathjax) and the widget front end (from npm, pinned) are copied next to the decks,
and the build fails if a deck still loads anything from an http(s) address. The arrow keys move
the deck on, also after a click on a player's button; they step a player only while the pointer
is on its picture or the picture has the focus (a slide left behind takes its player's focus with it).
A player has a slide of its own (`players_alone`), so that it is not scaled down to share one with prose.

``--style lecture`` (what ``make slides`` uses) re-runs each lesson in a fresh kernel with
``COURSE_STYLE=lecture`` first, so every figure and animation is in the projector preset;
``--style notebook`` re-runs it in the notebook preset; ``--style saved`` (the fastest, no
kernel) exports the outputs saved in the notebooks. A lesson that fails to re-run is exported
from its saved outputs, with a WARNING line that names it.

Output::

    index.html                 a list of the decks
    00_start_here.slides.html  one deck per lesson
    reveal.js/                 reveal.js 5 (script, core CSS, the white theme, the notes plugin)
    mathjax/                   MathJax 3 (one file)
    widgets/                   the live players' front end and modules (when a deck has a live player)

In a deck: arrow keys or space to move, Esc for the overview, S for the speaker notes, F for
full screen.
"""

from __future__ import annotations

import argparse
import html
import sys
import time
from pathlib import Path

from nbconvert.exporters import SlidesExporter
from nbconvert.preprocessors import Preprocessor, TagRemovePreprocessor

from tools import build_site, widget_embed
from tools import course_export as ce

SLIDE_TYPES = ("slide", "subslide", "fragment", "-", "skip", "notes")


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-") or "-"


def keep_players(nb) -> None:
    """A player (its recording) belongs on the slides: show it even where its cell is marked skip."""
    for cell in nb.cells:
        if is_player(cell) and slide_type(cell) in ("skip", "notes"):
            cell.metadata.setdefault("slideshow", {})["slide_type"] = "-"


#: Under a live figure's still on a slide: the prose around it speaks of its sliders, which move only with Python.
STILL_NOTE = ("A still picture on this slide: its sliders move in the notebook and in the live deck "
              "(<code>make lecture</code>).")


class StillNotes(Preprocessor):
    """Say under each live figure's still (a `LiveFigure`'s picture: its sliders need a kernel) that it is a still,
    so the room does not wait for "drag m from -2 to 2" to happen (`STILL_NOTE`). Runs after
    `widget_embed.LiveWidgets`, as the site's notes do (`build_site.SiteNotes`)."""

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            outputs = []
            for out in cell.outputs:
                outputs.append(out)
                if build_site.live_figure_names(out) is not None:
                    outputs.append(build_site.note_output(STILL_NOTE))
            cell.outputs = outputs
        return nb, resources


def is_player(cell) -> bool:
    """Whether a cell shows a player (a widget view: a live player, or a kernel player's recording)."""
    outputs = cell.get("outputs", []) if cell.cell_type == "code" else []
    return any(ce.WIDGET_VIEW in o.get("data", {}) for o in outputs)


def players_alone(nb) -> None:
    """A player takes a slide of its own: its cell starts a slide, and the cell shown after it starts the next.

    A slide taller than the deck is scaled down as a whole (the template's courseFitSlides); a player that shared
    its slide with the prose around it was scaled to 0.76 (lesson 06's averaged line), its data panel well under
    the 360 px of a 1280x720 projector. Alone, it keeps its lecture size; the prose before and after it is on the
    slides around it. Cells left out (skip) or spoken (notes) do not count; a slide's fragments stay on it.
    """
    shown = [c for c in nb.cells if slide_type(c) not in ("skip", "notes")]
    for cell, after in zip(shown, [*shown[1:], None], strict=True):
        if not is_player(cell):
            continue
        if slide_type(cell) in ("-", "fragment"):
            cell.metadata.setdefault("slideshow", {})["slide_type"] = "slide"
        if after is not None and slide_type(after) in ("-", "fragment"):
            after.metadata.setdefault("slideshow", {})["slide_type"] = "slide"


def count_slides(nb) -> int:
    """How many slides and sub-slides a notebook makes (the first cell always opens one)."""
    n = 0
    for i, cell in enumerate(nb.cells):
        st = slide_type(cell)
        if st in ("slide", "subslide") or (i == 0 and st not in ("skip", "notes")):
            n += 1
    return n


def export_deck(path: Path, out_dir: Path, targets: dict, *, style: str = "saved",
                warnings: list | None = None, live: dict | None = None) -> tuple[Path, int]:
    """Export one lesson to ``out_dir/<name>.slides.html``; returns the deck's path and its slide count. `live`
    gets {deck: what its live widgets need} (`widget_embed.LiveWidgets`), for `widget_embed.install`."""
    nb = ce.rerun(ce.read(path), path, style, warnings if warnings is not None else [])
    keep_players(nb)
    players_alone(nb)
    exporter = SlidesExporter(
        template_name="course_reveal",
        extra_template_basedirs=[str(ce.TEMPLATES)],
        extra_template_paths=[str(ce.TEMPLATES)],
        reveal_url_prefix="reveal.js",
        reveal_theme="white",
        reveal_transition="none",
        reveal_number="c/t",
        reveal_width="1280",
        reveal_height="720",
        mathjax_url=f"mathjax/{ce.MATHJAX_FILE}",
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        config=ce.page_config(),
    )
    exporter.register_preprocessor(ce.CourseLinks(link_suffix=".slides.html", link_targets=targets), enabled=True)
    exporter.register_preprocessor(build_site.GlossaryLinks(), enabled=True)  # every lesson links to it
    # An exercise's check ("not attempted yet") is plumbing for the student, not a slide.
    exporter.register_preprocessor(TagRemovePreprocessor(remove_all_outputs_tags={"exercise-check"}), enabled=True)
    exporter.register_preprocessor(widget_embed.LiveWidgets(), enabled=True)
    exporter.register_preprocessor(StillNotes(), enabled=True)
    deck = out_dir / f"{path.stem}.slides.html"
    resources = {"course_relpath": "", "metadata": {"name": ce.title_of(nb) or path.stem},
                 "course_widgets": widget_embed.page_resources(out_dir, deck)}
    body, resources = exporter.from_notebook_node(nb, resources=resources)
    deck.write_text(body, encoding="utf-8")
    if live is not None:
        live[deck] = resources["course_widgets"]
    return deck, count_slides(nb)


def index_page(decks: list[dict]) -> str:
    rows = "\n".join(
        f'<li><a href="{d["href"]}">{html.escape(d["title"])}</a> <span>({d["slides"]} slides)</span></li>'
        for d in decks
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Slides: the perceptron, step by step</title>
<style>body {{ font: 18px/1.6 system-ui, sans-serif; max-width: 760px; margin: 2em auto; }}
span {{ color: #666; font-size: 0.9em; }}</style></head>
<body><h1>Slides: the perceptron, step by step</h1>
<ol start="0">
{rows}
</ol>
<p>In a deck: the arrow keys or space move on, Esc shows the overview, S opens the speaker notes,
F goes full screen. A player steps on its slide: press its buttons (the arrow keys still move the deck
on), or use the arrow keys while the pointer is on its picture. Tab goes into the slide's player, Space or Enter
presses its focused button, and Esc leaves the player (a second Esc shows the overview). A player that needs Python is a
recorded run, stepped the same way.</p>
</body></html>
"""


def build(out_dir: Path, notebook_dir: Path = ce.NOTEBOOKS, *, style: str = "saved", only=None) -> dict:
    """Build the decks into `out_dir`; returns a summary (decks with slide counts, size, time)."""
    start = time.monotonic()
    out_dir = Path(out_dir).resolve()
    notebook_dir = Path(notebook_dir).resolve()
    lessons = ce.lessons(notebook_dir)
    if only:
        lessons = [p for p in lessons if any(p.name.startswith(o) for o in only)]
    if not lessons:
        raise SystemExit(f"no notebooks NN_topic.ipynb in {notebook_dir}" + (f" matching {only}" if only else ""))
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.slides.html"):
        old.unlink()
    ce.copy_reveal(out_dir / "reveal.js")
    ce.copy_mathjax(out_dir / "mathjax")
    targets = {p.stem: True for p in ce.lessons(notebook_dir)}
    decks, warnings, live = [], [], {}
    for p in lessons:
        deck, n = export_deck(p, out_dir, targets, style=style, warnings=warnings, live=live)
        decks.append({"path": deck, "href": deck.name, "title": ce.title_of(ce.read(p)) or p.stem, "slides": n})
        print(f"  {deck.name}: {n} slides ({deck.stat().st_size / 1e6:.2f} MB)", flush=True)
    glossary = notebook_dir / build_site.GLOSSARY
    if glossary.is_file():  # the decks link to it: a page of its own beside them, its lesson links to the decks
        build_site.export_page(glossary, notebook_dir, out_dir, targets, {"index": "index.html", "prev": None,
                                                                          "next": None}, link_suffix=".slides.html")
    (out_dir / "index.html").write_text(index_page(decks), encoding="utf-8")
    widgets = widget_embed.install(out_dir, live)
    bad = ce.check_offline(out_dir)
    if bad:
        lines = [f"  {f}: {refs[0]!r}" for f, refs in bad.items()]
        raise SystemExit("the decks load files from the network:\n" + "\n".join(lines))
    return {"out": out_dir, "decks": decks, "bytes": ce.folder_size(out_dir), "seconds": time.monotonic() - start,
            "warnings": warnings, "widgets": widgets}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ce.ROOT / "_slides", help="output folder (default: _slides)")
    parser.add_argument("--notebooks", type=Path, default=ce.NOTEBOOKS, help="folder of NN_topic.ipynb notebooks")
    parser.add_argument(
        "--style",
        choices=("lecture", "notebook", "saved"),
        default="saved",
        help="re-run each lesson in this figure preset first, or export the saved outputs (default)",
    )
    parser.add_argument("--only", nargs="*", help="only the lessons whose names start with these (e.g. 03)")
    args = parser.parse_args(argv)
    summary = build(args.out, args.notebooks, style=args.style, only=args.only)
    print(
        f"slides: {len(summary['decks'])} decks in {summary['out']} ({summary['bytes'] / 1e6:.1f} MB in all, "
        f"style {args.style}, no http(s) references), built in {summary['seconds']:.1f} s; "
        f"open {summary['out'] / 'index.html'}"
    )
    print("\n".join(widget_embed.describe(summary["widgets"])))
    for w in summary["warnings"]:
        print(f"WARNING: {w}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
