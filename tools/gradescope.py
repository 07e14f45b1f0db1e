"""Gradescope's autograder: one student's upload graded by `tools.grade`, written as Gradescope's ``results.json``.

    python -m tools.gradescope /autograder/submission /autograder/results/results.json --lessons 03

The upload (``SUBMISSION``: a folder, as Gradescope gives it) is graded like one student's folder by
``make grade``: each notebook in its own process, a fresh kernel, time limits, no network. ``results.json`` has
one test per exercise of the lessons graded (``--lessons``; default: the lessons found in the upload), named by
the exercise as its check names it ("Exercise 3.2"), worth 1 point, with the check's verdict or the reason it was
lost as its output; the upload's files that were skipped (not a notebook, another course's notebook) are named
in the top-level output. An upload with none of the lessons still gets a ``results.json``: every exercise of
``--lessons`` at 0, and what to hand in. notebooks/INSTRUCTORS.md ("Grading a class") gives the autograder's
``setup.sh`` and ``run_autograder``.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tools import grade as grader

#: The name the upload is graded under (the gradebook's one row).
STUDENT = "submission"


def results(columns: list[str], row: dict, notes: list[dict], *, seconds: float = 0.0) -> dict:
    """Gradescope's results.json from one gradebook row and its notes (``gradebook-notes.csv``'s rows)."""
    why = {n["exercise"]: n["why"] for n in notes if n["exercise"]}
    skipped = [f"{n['file']}: {n['why']}" for n in notes if not n["exercise"]]
    tests = []
    for ex in columns:
        score = int(row.get(ex, 0))
        tests.append({"name": f"Exercise {ex}", "number": ex, "score": score, "max_score": 1,
                      "status": "passed" if score else "failed", "visibility": "visible",
                      "output": "correct" if score else why.get(ex, "not handed in")})  # fmt: skip
    total = sum(t["score"] for t in tests)
    lines = [f"{total} of {len(tests)} exercises correct. Your notebook was run from the top in a fresh kernel."]
    lines += [f"Skipped: {s}" for s in skipped]
    return {"score": total, "execution_time": round(seconds), "output": "\n".join(lines), "tests": tests}


def grade_upload(upload: Path, out: Path, *, lessons=None, cell_timeout: float = 60.0, timeout: float = 600.0,
                 log=print) -> dict:  # fmt: skip
    """Grade the folder `upload` as one student's and write Gradescope's results to `out`; returns them."""
    upload = Path(upload)
    if not upload.is_dir():
        raise grader.GradeError(f"the upload must be a folder (Gradescope's /autograder/submission); {upload} is not")
    t0 = time.monotonic()
    course = grader.course_exercises()
    unknown = sorted(set(lessons or ()) - {name[:2] for name in course})
    if unknown:  # the autograder's set-up is wrong, not the upload
        raise grader.GradeError(f"--lessons {','.join(unknown)}: no such lesson with exercises; choose among "
                                f"{', '.join(name[:2] for name in course)}")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="gradescope-") as tmp:
        folder = Path(tmp) / "class"
        shutil.copytree(upload, folder / STUDENT, symlinks=True)
        book = Path(tmp) / "gradebook.csv"
        try:
            rows = grader.grade(folder, book, lessons=lessons, cell_timeout=cell_timeout, timeout=timeout, log=log)
            columns = [c for c in rows[0] if c not in ("student", "ID", "total")]
            notes = list(csv.DictReader(book.with_name("gradebook-notes.csv").open(encoding="utf-8")))
            found = results(columns, rows[0], notes, seconds=time.monotonic() - t0)
        except grader.GradeError as exc:  # nothing of the course in the upload: every exercise at 0, and why
            wanted = [name for name in course if name[:2] in set(lessons or ())]
            found = results([e.id for name in wanted for e in course[name]], {}, [], seconds=time.monotonic() - t0)
            found["output"] += (f"\nNothing to grade: {exc} Upload your lesson notebook(s)"
                                + (f" ({', '.join(wanted)})." if wanted else "."))  # fmt: skip
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("upload", type=Path, help="the student's upload (Gradescope: /autograder/submission)")
    parser.add_argument("results", type=Path, help="where results.json goes (/autograder/results/results.json)")
    parser.add_argument("--lessons", help="the assignment's lessons, e.g. 03 or 01,02 (default: those uploaded)")
    parser.add_argument("--cell-timeout", type=float, default=60.0, help="seconds per cell (default 60)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per notebook (default 600)")
    args = parser.parse_args(argv)
    try:
        grade_upload(args.upload, args.results, lessons=args.lessons.split(",") if args.lessons else None,
                     cell_timeout=args.cell_timeout, timeout=args.timeout)  # fmt: skip
    except grader.GradeError as exc:
        print(f"gradescope: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
