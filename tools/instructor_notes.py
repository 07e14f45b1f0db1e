"""The instructor's notes: kept in the lessons' cell metadata, shown only to the instructor.

Each note ("ask the room ...", the answer to expect) lives in ``metadata.speaker_notes`` (a list
of markdown strings) of the cell it belongs with, so it moves and is deleted with that cell and
cannot drift from the lesson. JupyterLab, the app (Voila) and the site do not render cell
metadata, so a student never sees it. Two places show it:

* the decks: the reveal template (tools/templates/course_reveal) writes them into the cell's
  ``<aside class="notes">``, which reveal.js shows in its speaker view (key S);
* ``notebooks/INSTRUCTORS.md``: the section between `BEGIN` and `END` is written from the
  notebooks by ``python -m tools.instructor_notes``; ``--check`` (and tests/test_instructor.py)
  fails when it differs from what the notebooks say.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from tools import course_export as ce

BEGIN = "<!-- BEGIN speaker notes: written by `python -m tools.instructor_notes` from the notebooks; edit there -->"
END = "<!-- END speaker notes -->"
INSTRUCTORS_MD = ce.NOTEBOOKS / "INSTRUCTORS.md"
_HEADING_RE = re.compile(r"^\s*#{1,4}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def notes_of(cell) -> list[str]:
    """The cell's speaker notes (a list of markdown strings; [] when it has none)."""
    notes = cell.metadata.get(ce.NOTES_KEY, [])
    if isinstance(notes, str) or not all(isinstance(n, str) for n in notes):
        raise TypeError(f"metadata.{ce.NOTES_KEY} of cell {cell.get('id')!r} must be a list of strings; got {notes!r}")
    return list(notes)


def lesson_notes(nb) -> list[tuple[str, str]]:
    """[(heading of the section the note is in, note)] in the order of the lesson."""
    found, heading = [], ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            titles = _HEADING_RE.findall(cell.source)
            if titles:
                heading = titles[-1]
        found += [(heading, note) for note in notes_of(cell)]
    return found


def section(notebook_dir: Path = ce.NOTEBOOKS) -> str:
    """The generated section of INSTRUCTORS.md, markers included."""
    lines = [BEGIN, "", "## Speaker notes, lesson by lesson", "",
             "The notes a deck shows on S, in lesson order, with the section each belongs to. They live in",
             f"the lessons' cell metadata (`{ce.NOTES_KEY}`), not in any cell a student sees."]  # fmt: skip
    for path in ce.lessons(notebook_dir):
        notes = lesson_notes(ce.read(path))
        if not notes:
            continue
        lines += ["", f"### {ce.title_of(ce.read(path)) or path.stem}", ""]
        for heading, note in notes:
            body = " ".join(note.split())
            stop = "" if heading.endswith((".", "?", "!", ":")) else "."
            lines.append(f"- *{heading}{stop}* {body}")
    lines += ["", END]
    return "\n".join(lines)


def with_section(text: str, new_section: str) -> str:
    """`text` with its generated section replaced by `new_section` (appended if it has none)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        return head + new_section + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n" + new_section + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if INSTRUCTORS.md is not up to date")
    parser.add_argument("--file", type=Path, default=INSTRUCTORS_MD)
    parser.add_argument("--notebooks", type=Path, default=ce.NOTEBOOKS)
    args = parser.parse_args(argv)
    text = args.file.read_text(encoding="utf-8")
    new = with_section(text, section(args.notebooks))
    if args.check:
        if new != text:
            print(f"{args.file} is out of date: run `python -m tools.instructor_notes`", file=sys.stderr)
            return 1
        return 0
    args.file.write_text(new, encoding="utf-8")
    print(f"wrote the speaker notes into {args.file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
