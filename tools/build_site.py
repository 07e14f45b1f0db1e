"""Build the static, offline course site: ``make site`` runs ``python -m tools.build_site``.

The site is an index page (the course map: the lessons in order, with their time and their
solutions) and one page per notebook, exported with nbconvert: every figure, each player, switch and
editor live (anywidget widgets), stepping in the page from the widget state the re-run stored, and each
live figure's picture with its alt text (nbconvert's output priority, see course_export;
tools/widget_embed.py); where a page cannot do what the notebook does (a live figure's sliders, the exercises'
checks), it says so right there (`SiteNotes`). It needs no kernel and
nothing from the network: MathJax is copied next to the pages from the PyPI package
django-static-mathjax, the widget front end into ``widgets/`` from its npm packages (pinned, checked
against their integrity), and the build fails if any page still loads a script, stylesheet or image
from an http(s) address. It works from file:// and served over http alike.

Layout of the output folder::

    index.html                      the course map
    00_start_here.html ...          one page per lesson
    glossary.html                   the course's words and symbols (notebooks/glossary.md)
    solutions/NN_topic_solutions.html
    mathjax/                        MathJax 3 (TeX input, SVG output), one 2.3 MB file
    widgets/                        the live players' front end (3.9 MB, once) and their modules
                                    (each distinct one once): only when a page has a live player

``--style notebook`` (what ``make site`` uses) re-runs each notebook in a fresh kernel first
(``COURSE_STYLE=notebook``, the widget state stored), so each browser player is live and each live
figure shows its picture; ``--style
lecture`` does the same in the projector preset; ``--style saved`` (fastest, no kernel, no widget
state) exports the saved outputs, where each player shows its saved picture. A
notebook that fails to re-run is exported from its saved outputs, with a WARNING line that names
it. ``--notebooks DIR`` exports another folder of notebooks (used by the tests).

``--audience student`` (the default, what ``make site`` builds to hand to students) leaves the
solutions out: no solution page and no link to one, in ``_site/``. ``--audience instructor`` (``make
site AUDIENCE=instructor``) includes them, in a folder of its own, ``_site-instructor/``, and every page
of it says at its top that it holds the solutions; it refuses to write into the students' ``_site/``.
``--no-solutions`` leaves them out whatever the audience.

On a phone (tools/templates/course_site/phone.css): a figure shown smaller than its own size has an "Enlarge the
figure" button that opens it at full size over the page, and the code is set smaller and wraps; in the students'
site a code cell of more than `FOLD_LINES` lines is folded there behind "Show the code" (on a wider screen it
shows as before), unless it is tagged ``slide-show-code`` (the code is the point, as on the slides: the perceptron in
plain Python of 01 and 03). The instructor's site and the solutions pages keep every cell open.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
import time
from pathlib import Path

import nbformat
from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from tools import course_export as ce
from tools import widget_embed

COURSE_TITLE = "The perceptron, step by step"

#: The glossary, a markdown file beside the lessons that every lesson links to; the site makes it a page.
GLOSSARY = "glossary.md"
_GLOSSARY_LINK_RE = re.compile(r"(?P<pre>\]\(\s*<?|href=[\"'])(?P<path>(?:\.\./)?)glossary\.md")


class GlossaryLinks(Preprocessor):
    """Point the markdown cells' links to ``glossary.md`` at the site's ``glossary.html``."""

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = _GLOSSARY_LINK_RE.sub(r"\g<pre>\g<path>glossary.html", cell.source)
        return nb, resources


#: Said on the site under each lesson's "## Exercises" heading: the page shows the exercises, but no check runs there.
EXERCISES_NOTE = (
    '<p class="course-site-note" role="note"><strong>On this page</strong> you can read each exercise and work it '
    "out with the numbers the page prints, but not check it: a check runs your answer in Python. To have your "
    "answers checked, open this lesson's notebook where Python runs (<code>make lab</code> on a computer with the "
    "course installed, or your course's notebook server if it has one), type them in and run each check.</p>"
)
#: Said on the site right above a live figure (`LiveFigure`), which moves only in a kernel: here it is its still.
LIVE_FIGURE_NOTE = (
    "On this page the figure below is a still picture: its sliders need Python (open the notebook with "
    "<code>make lab</code> to move them)."
)
#: Added to `LIVE_FIGURE_NOTE` when the figure's sliders turn a 3-D view and a player further on the page has a
#: lifted view, which turns in the page itself; {section} is the heading of that player's section.
TURN_NOTE = (" The player of section “{section}”, further down, has a lifted view that you can turn right here: drag "
             "it, or use its sliders.")
#: On a phone, a code cell of the students' site with more lines than this is folded behind "Show the code".
FOLD_LINES = 4
_EXERCISES_RE = re.compile(r"\A\s*##\s+Exercises\b")
_TURNING = ("azimuth", "elevation")


def note_output(html_text: str):
    return nbformat.v4.new_output("display_data", data={"text/html": f'<p class="course-site-note" role="note">'
                                                                     f"{html_text}</p>"})


def live_figure_names(out) -> list[str] | None:
    """The control names of a live figure's still (its text is "<LiveFigure: a, b>"), or None for any other output."""
    text = out.get("data", {}).get("text/plain", "")
    text = "".join(text) if isinstance(text, list) else text
    if widget_embed.WIDGET_VIEW in out.get("data", {}) or not text.startswith("<LiveFigure") or "image/png" not in \
            out.get("data", {}):
        return None
    return [name.strip() for name in text.removeprefix("<LiveFigure").strip(":> ").split(",")]


def _turning_section(cells, states: dict) -> str | None:
    """The heading of the section of the first live view in `cells` that has a lifted panel, or None."""
    section = None
    for cell in cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## "):
            section = cell.source.lstrip()[3:].splitlines()[0].strip()
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(widget_embed.WIDGET_VIEW)
            model = states.get(view.get("model_id", ""), {}).get("state", {}) if view else {}
            panels = [p for trait in ("options", "run") for p in (model.get(trait) or {}).get("panels", [])
                      if isinstance(p, dict)]
            if any(p.get("kind") == "lifted" for p in panels):
                return section
    return None


class SiteNotes(Preprocessor):
    """Say where the page cannot do what a notebook does, for a student with no Python: under each lesson's
    "## Exercises" heading (`EXERCISES_NOTE`; the checks' saved "not attempted yet" lines go, as on the slides; a
    solutions page, the instructor's, keeps its checks' "correct" and has no such note), and above each live
    figure's still (`LIVE_FIGURE_NOTE`, `TURN_NOTE`). Runs after
    `widget_embed.LiveWidgets`, so a widget view still in an output is one that runs in the page."""

    solutions = Bool(False, help="the page is a lesson's solutions: its checks' outputs (\"correct\") stay").tag(
        config=True)

    def preprocess(self, nb, resources):
        states = nb.metadata.get("widgets", {}).get(widget_embed.WIDGET_STATE, {}).get("state", {})
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown" and not self.solutions and _EXERCISES_RE.match(cell.source):
                cell.source = cell.source.rstrip() + "\n\n" + EXERCISES_NOTE
            if cell.cell_type != "code":
                continue
            if not self.solutions and "exercise-check" in cell.metadata.get("tags", []):
                cell.outputs = []
            outputs = []
            for out in cell.outputs:
                names = live_figure_names(out)
                if names is not None:
                    section = _turning_section(nb.cells[i + 1:], states) if set(_TURNING) & set(names) else None
                    outputs.append(note_output(LIVE_FIGURE_NOTE + (TURN_NOTE.format(section=html.escape(section))
                                                                    if section else "")))
                outputs.append(out)
            cell.outputs = outputs
        return nb, resources


def glossary_notebook(path: Path):
    """The glossary as a notebook of one markdown cell, so that it is exported like the lessons."""
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell(Path(path).read_text(encoding="utf-8")))
    return nb


#: Where each audience's site goes by default; the instructor's never goes into the students' folder.
OUT_DIRS = {"student": ce.ROOT / "_site", "instructor": ce.ROOT / "_site-instructor"}
#: The first thing on every page of the instructor's site (white on dark red: 9.3:1, WCAG AAA).
INSTRUCTOR_MARK = (
    '<p class="course-instructor-mark" role="note" style="margin:0;padding:0.6em 1em;background:#8b1a1a;'
    'color:#fff;font:600 16px/1.4 system-ui,sans-serif">For the instructor: this copy of the course holds the '
    'solutions. Do not hand it to students; <code style="color:#fff">make site</code> builds theirs.</p>'
)
_BODY_RE = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


def mark_for_instructor(page: str) -> str:
    """`page` with `INSTRUCTOR_MARK` first in its body."""
    found = _BODY_RE.search(page)
    if found is None:
        raise ValueError("a page without a <body> tag cannot carry the instructor's mark")
    return page[: found.end()] + "\n" + INSTRUCTOR_MARK + page[found.end() :]


def _rel(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start)).as_posix()


def export_page(path: Path, notebook_dir: Path, out_dir: Path, targets: dict, nav: dict, style: str = "saved",
                warnings: list | None = None, *, link_suffix: str = ".html", live: dict | None = None,
                fold_code: bool = True) -> Path:
    """Export one notebook to its page under `out_dir` (re-run first unless `style` is "saved"); its links to
    lessons end in `link_suffix` (the decks' folder: ".slides.html"). `live` gets {page: what its live widgets
    need} (`widget_embed.LiveWidgets`), for `widget_embed.install` once every page is written. With `fold_code`
    a code cell of more than `FOLD_LINES` lines folds on a phone (never on a solutions page)."""
    rel = path.relative_to(notebook_dir).with_suffix("")
    page = out_dir / rel.with_suffix(".html")
    page.parent.mkdir(parents=True, exist_ok=True)
    here = rel.parent.as_posix() if rel.parent.as_posix() != "." else ""
    mathjax = _rel(out_dir / "mathjax" / ce.MATHJAX_FILE, page.parent)

    exporter = HTMLExporter(
        template_name="course_site",
        extra_template_basedirs=[str(ce.TEMPLATES)],
        extra_template_paths=[str(ce.TEMPLATES)],
        mathjax_url=mathjax,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        config=ce.page_config(),
    )
    exporter.register_preprocessor(ce.CourseLinks(link_suffix=link_suffix, link_targets=targets), enabled=True)
    exporter.register_preprocessor(GlossaryLinks(), enabled=True)
    exporter.register_preprocessor(widget_embed.LiveWidgets(), enabled=True)
    exporter.register_preprocessor(SiteNotes(solutions=rel.name.endswith("_solutions")), enabled=True)
    if path.suffix == ".md":  # the glossary: text only, nothing to re-run
        nb = glossary_notebook(path)
    else:
        nb = ce.read(path)
        nb = ce.rerun(nb, path, style, warnings if warnings is not None else [])
    fold = FOLD_LINES if fold_code and not rel.name.endswith("_solutions") else None
    resources = {"course_nav": nav, "course_relpath": here, "metadata": {"name": ce.title_of(nb) or rel.name},
                 "course_fold_code": fold,
                 "course_widgets": widget_embed.page_resources(out_dir, page)}
    body, resources = exporter.from_notebook_node(nb, resources=resources)
    page.write_text(body, encoding="utf-8")
    if live is not None:
        live[page] = resources["course_widgets"]
    return page


def index_page(entries: list[dict], *, glossary: str | None = None) -> str:
    """The course map: one row per lesson, in order, with its time and a link to its solutions
    (and to the `glossary` page, if given)."""
    rows = []
    for e in entries:
        sol = f' &middot; <a href="{e["solutions"]}">solutions</a>' if e.get("solutions") else ""
        time_ = f'<span class="time">{html.escape(e["time"])}</span>' if e["time"] else ""
        rows.append(
            f'<li><a href="{e["href"]}">{html.escape(e["title"] or e["name"])}</a>{sol} {time_}'
            f'<div class="file">{html.escape(e["name"])}.ipynb</div></li>'
        )
    items = "\n".join(rows)
    words = (f'<p>Forgot a word or a symbol? The <a href="{glossary}">glossary</a> has each one, with the lesson '
             "that introduces it.</p>") if glossary else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{COURSE_TITLE}</title>
<style>
body {{ font: 17px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111;
  max-width: 820px; margin: 2em auto; padding: 0 1em; }}
h1 {{ font-size: 1.8em; margin-bottom: 0.2em; }}
ol.course {{ padding-left: 0; list-style: none; }}
ol.course li {{ margin: 0.8em 0; }}
ol.course li > a {{ font-weight: 600; font-size: 1.1em; }}
.time {{ color: #555; margin-left: 0.6em; font-size: 0.9em; }}
.file {{ color: #595959; font: 0.8em ui-monospace, monospace; }}
.note {{ color: #444; background: #f4f4f4; padding: 0.6em 1em; border-radius: 4px; }}
</style>
</head>
<body>
<h1>{COURSE_TITLE}</h1>
<p>An interactive course on the perceptron. Work through the lessons in order: each one uses the
ones before it.</p>
<ol class="course" start="0">
{items}
</ol>
{words}
<p class="note">This is the offline copy of the course: every figure is here, and the players step right
in the page: press their buttons (with a keyboard, Tab to a player's picture and press the arrow keys). It needs
no internet and no Python. Two things do need Python: a figure moved by sliders, which shows its picture here,
and the exercises' checks. To change the code and run it, open the notebooks with <code>make lab</code>.</p>
</body>
</html>
"""


def build(out_dir: Path, notebook_dir: Path = ce.NOTEBOOKS, *, include_solutions: bool = True,
          style: str = "saved", instructor_mark: bool = False, fold_code: bool = True) -> dict:
    """Build the site into `out_dir` (emptied first); returns a summary with the pages and the size.

    With `instructor_mark` every page says at its top that the site holds the solutions; with `fold_code` (the
    students' site) a lesson's long code cells fold on a phone.
    """
    start = time.monotonic()
    out_dir = Path(out_dir).resolve()
    notebook_dir = Path(notebook_dir).resolve()
    lessons = ce.lessons(notebook_dir)
    if not lessons:
        raise SystemExit(f"no notebooks NN_topic.ipynb in {notebook_dir}")
    sols = ce.solutions(notebook_dir) if include_solutions else []
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in list(out_dir.glob("*.html")) + list((out_dir / "solutions").glob("*.html")):
        old.unlink()
    ce.copy_mathjax(out_dir / "mathjax")

    targets = {p.relative_to(notebook_dir).with_suffix("").as_posix(): True for p in lessons + sols}
    infos = []
    for p in lessons:
        nb = ce.read(p)
        infos.append({"path": p, "name": p.stem, "title": ce.title_of(nb), "time": ce.minutes_of(nb)})
    by_lesson = {}
    for s in sols:
        by_lesson[s.stem.removesuffix("_solutions")] = s

    pages, warnings, live = [], [], {}
    for i, info in enumerate(infos):
        prev = infos[i - 1] if i > 0 else None
        nxt = infos[i + 1] if i + 1 < len(infos) else None
        nav = {
            "index": "index.html",
            "prev": prev and {"href": prev["name"] + ".html", "title": prev["title"] or prev["name"]},
            "next": nxt and {"href": nxt["name"] + ".html", "title": nxt["title"] or nxt["name"]},
        }
        pages.append(export_page(info["path"], notebook_dir, out_dir, targets, nav, style, warnings, live=live,
                                 fold_code=fold_code))
        print(f"  {pages[-1].relative_to(out_dir)}  ({pages[-1].stat().st_size / 1e6:.2f} MB)", flush=True)
        sol = by_lesson.get(info["name"])
        info["href"] = info["name"] + ".html"
        info["solutions"] = f"solutions/{sol.stem}.html" if sol else None
    for s in sols:
        lesson = s.stem.removesuffix("_solutions")
        nav = {
            "index": "../index.html",
            "prev": {"href": f"../{lesson}.html", "title": "back to the lesson"} if lesson in targets else None,
            "next": None,
        }
        pages.append(export_page(s, notebook_dir, out_dir, targets, nav, style, warnings, live=live,
                                 fold_code=fold_code))
        print(f"  {pages[-1].relative_to(out_dir)}  ({pages[-1].stat().st_size / 1e6:.2f} MB)", flush=True)
    glossary = notebook_dir / GLOSSARY
    if glossary.is_file():
        nav = {"index": "index.html", "prev": None, "next": None}
        pages.append(export_page(glossary, notebook_dir, out_dir, targets, nav, style, warnings))
    (out_dir / "index.html").write_text(index_page(infos, glossary="glossary.html" if glossary.is_file() else None),
                                        encoding="utf-8")
    pages.insert(0, out_dir / "index.html")
    if instructor_mark:
        for page in pages:
            page.write_text(mark_for_instructor(page.read_text(encoding="utf-8")), encoding="utf-8")

    widgets = widget_embed.install(out_dir, live)

    bad = ce.check_offline(out_dir)
    if bad:
        lines = [f"  {f}: {refs[0]!r}" for f, refs in bad.items()]
        raise SystemExit("the site loads files from the network:\n" + "\n".join(lines))
    return {
        "out": out_dir,
        "pages": pages,
        "bytes": ce.folder_size(out_dir),
        "seconds": time.monotonic() - start,
        "warnings": warnings,
        "widgets": widgets,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="output folder (default: _site; _site-instructor for the instructor)")
    parser.add_argument("--notebooks", type=Path, default=ce.NOTEBOOKS, help="folder of NN_topic.ipynb notebooks")
    parser.add_argument(
        "--audience",
        choices=("student", "instructor"),
        default="student",
        help="student (default): no solutions; instructor: the solutions too, linked from the course map",
    )
    parser.add_argument("--no-solutions", action="store_true", help="leave the solutions out, whatever the audience")
    parser.add_argument(
        "--style",
        choices=("notebook", "lecture", "saved"),
        default="saved",
        help="re-run each notebook in this figure preset first, or export the saved outputs (default)",
    )
    args = parser.parse_args(argv)
    with_solutions = args.audience == "instructor" and not args.no_solutions
    out_dir = args.out or OUT_DIRS[args.audience]
    if with_solutions and Path(out_dir).resolve() == OUT_DIRS["student"].resolve():
        parser.error(f"--audience instructor writes the solutions; got --out {out_dir}, the students' folder, "
                     f"instead: leave --out out (it writes {OUT_DIRS['instructor'].name}/) or name another folder")
    summary = build(out_dir, args.notebooks, include_solutions=with_solutions, style=args.style,
                    instructor_mark=with_solutions, fold_code=args.audience == "student")
    out = summary["out"]
    print(
        f"site: {len(summary['pages'])} pages in {out} ({summary['bytes'] / 1e6:.1f} MB in all, style {args.style}, "
        f"for {'the instructor, solutions included' if with_solutions else 'students, no solutions'}, "
        f"no http(s) references), built in {summary['seconds']:.1f} s; open {out / 'index.html'}"
    )
    print("\n".join(widget_embed.describe(summary["widgets"])))
    for w in summary["warnings"]:
        print(f"WARNING: {w}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
