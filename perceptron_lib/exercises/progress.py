"""Progress at a glance: every exercise of the course, not attempted / attempted / correct.

The progress is read from the student's own copies of the lessons (``my-course/``), from what
the checks left in them: each exercise's check cell (tagged ``exercise-check``) keeps its verdict
as a saved output, "1.2: correct. ..." or "1.2: not quite. ...". A check that read a point editor says
"right points, not handed in yet" at best: clicks are not saved in a notebook, so the grader's run from the
top would not see them, and the table marks that exercise apart (○) with how to hand it in. Nothing is
written anywhere and
nothing leaves the machine; a lesson's progress shows once the lesson is saved (JupyterLab saves
every two minutes, or at Ctrl+S).

    >>> from perceptron_lib.exercises.progress import status_of_cell
    >>> status_of_cell({"source": "answer_1 = ...", "outputs": []})
    'not attempted'

The same reading of the lessons (which cells are exercises, which check each one calls) is what
``tools/grade.py`` grades a class with.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["EXERCISE_TAG", "STATUSES", "HAND_IN_STEP", "Exercise", "exercises_of", "lesson_exercises", "check_calls",
           "exercise_id", "status_of_cell", "lesson_progress", "course_progress", "progress_table",
           "show_progress"]  # fmt: skip

#: The tag of a lesson's exercise cells: the student's answer and its check.
EXERCISE_TAG = "exercise-check"
#: What the table says about an exercise, from nothing done to done ("not handed in": right points, read from a
#: point editor, that the notebook does not keep; the grader scores it 0, as every status but "correct").
STATUSES = ("not attempted", "attempted", "not handed in", "correct")
#: What a student does with an exercise marked "not handed in".
HAND_IN_STEP = ("press Copy points on the editor, paste its two lines above the check and give the check (X, y) "
                "instead of the editor, then run the cell and save")
#: A lesson's file name: ``NN_topic.ipynb`` (a reset's dated copy, ``NN_topic-2026-...``, is not one).
LESSON_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
_CALL = re.compile(r"\b(nb\d\d)\.(check_\w+)\s*\(")
_PLACEHOLDER = re.compile(r"(?<![\w.])\.\.\.(?![\w.])")
_VERDICT = re.compile(r"^(\d+\.\d+): (correct|not quite|not attempted yet|right points, not handed in yet|"
                      r"no points yet)")


@dataclass(frozen=True)
class Exercise:
    """One exercise: its id ("1.2"), its lesson's file name and the check its cell calls."""

    id: str
    lesson: str
    module: str
    check: str


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _tags(cell: dict) -> list:
    return cell.get("metadata", {}).get("tags", [])


def check_calls(source: str) -> list[tuple[str, str]]:
    """The checks a cell's source calls, as (module, check): ``nb01.check_scaled_loss(x)`` gives
    ``[("nb01", "check_scaled_loss")]``."""
    return _CALL.findall(source)


def exercise_id(module: str, check: str) -> str:
    """The id a check gives its verdict ("1.2"), asked of the check itself with the placeholder.

    Raises ValueError when ``perceptron_lib.exercises.MODULE`` has no such check.
    """
    if not re.fullmatch(r"nb\d\d", module):
        raise ValueError(f"module must be a lesson's check module such as 'nb01'; got {module!r}.")
    fn = getattr(importlib.import_module(f"{__package__}.{module}"), check, None)
    if fn is None or not check.startswith("check_"):
        raise ValueError(f"perceptron_lib.exercises.{module} has no check {check!r}.")
    from IPython.utils.capture import capture_output

    with capture_output():  # in a notebook a verdict shows itself; this one is only asked for its id
        return fn(...).exercise


def exercises_of(nb: dict, lesson: str) -> list[Exercise]:
    """The exercises of one lesson (a notebook as a dict), in order: one per check an exercise cell calls."""
    found = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and EXERCISE_TAG in _tags(cell):
            for module, check in check_calls(_source(cell)):
                found.append(Exercise(exercise_id(module, check), lesson, module, check))
    return found


def _verdict_text(cell: dict) -> str | None:
    for out in cell.get("outputs", []):
        text = out.get("data", {}).get("text/plain", out.get("text"))
        if text is not None:
            text = "".join(text) if isinstance(text, list) else text
            if _VERDICT.match(text):
                return text
    return None


def status_of_cell(cell: dict | None, exercise: str | None = None) -> str:
    """An exercise's status from its cell in the student's copy: its saved verdict, else its source.

    "correct" when the saved verdict says so; "not handed in" when it says "right points, not handed in yet" (a
    check that read a point editor); "attempted" when it says "not quite" or "no points yet", or when the
    placeholder ``...`` is gone from the cell's code but its check has not said more yet (typed, not
    run); "not attempted" otherwise, and for a missing cell (None).
    """
    if cell is None:
        return "not attempted"
    text = _verdict_text(cell)
    if text is not None:
        ex, word = _VERDICT.match(text).groups()
        if exercise is None or ex == exercise:
            if word != "not attempted yet":
                return {"correct": "correct", "right points, not handed in yet": "not handed in"}.get(word,
                                                                                                   "attempted")
    code = "\n".join(line.split("#")[0] for line in _source(cell).splitlines())
    return "not attempted" if _PLACEHOLDER.search(code) else "attempted"


def lesson_progress(nb: dict | None, exercises: list[Exercise]) -> dict[str, str]:
    """Each exercise of a lesson with its status in the student's copy ``nb`` (None: no copy yet)."""
    cells = {}
    for cell in (nb or {}).get("cells", []):
        if cell.get("cell_type") == "code":
            for module, check in check_calls(_source(cell)):
                cells[(module, check)] = cell  # the last cell calling a check is its exercise's cell
    return {ex.id: status_of_cell(cells.get((ex.module, ex.check)), ex.id) for ex in exercises}


def _read(path: Path) -> dict | None:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def lesson_exercises(lesson: str) -> list[Exercise]:
    """Every exercise of a lesson (its file name, "01_loss_geometry.ipynb"), from its check module
    ``perceptron_lib.exercises.nb01``, in the exercises' order; [] for a lesson with no exercises (00)."""
    module = f"nb{lesson[:2]}"
    try:
        checks = importlib.import_module(f"{__package__}.{module}")
    except ModuleNotFoundError:
        return []
    found = [Exercise(exercise_id(module, name), lesson, module, name)
             for name in getattr(checks, "__all__", []) if name.startswith("check_")]
    return sorted(found, key=lambda ex: tuple(int(part) for part in ex.id.split(".")))


def course_progress(folder=".") -> list[tuple[Exercise, str]]:
    """Every exercise of the course with its status in the student's copies of the lessons in ``folder``.

    A lesson's exercises are its check module's (`lesson_exercises`), so an exercise whose cell was
    deleted still counts, as not attempted. Raises ValueError when ``folder`` holds no lesson.
    """
    folder = Path(folder)
    lessons = sorted(p for p in folder.glob("*.ipynb") if LESSON_NAME.match(p.name))
    if not lessons:
        raise ValueError(f"no lessons (NN_topic.ipynb) in {folder}; give the folder of your copy of the course.")
    rows = []
    for path in lessons:
        exercises = lesson_exercises(path.name)
        statuses = lesson_progress(_read(path), exercises)
        rows += [(ex, statuses[ex.id]) for ex in exercises]
    return rows


def progress_table(rows: list[tuple[Exercise, str]]) -> str:
    """The rows as plain text: one line per lesson, each exercise (its number in the lesson) with its mark, and a
    count; exercises "not handed in" (○) get a last line saying how to hand them in. The lesson names the row, so
    an exercise shows by its own number (the checks say "1.2" and "3.1")."""
    marks = {"not attempted": "·", "attempted": "~", "not handed in": "○", "correct": "✓"}
    lines, lessons = [], {}
    for ex, status in rows:
        lessons.setdefault(ex.lesson, []).append(f"{ex.id.rsplit('.', 1)[-1]} {marks[status]}")
    for lesson, items in lessons.items():
        lines.append(f"{lesson[:-len('.ipynb')]:<26} " + "  ".join(items))
    done = sum(s == "correct" for _, s in rows)
    tried = sum(s == "attempted" for _, s in rows)
    waiting = [ex.id for ex, s in rows if s == "not handed in"]
    if not waiting:
        lines.append(f"{done} of {len(rows)} correct, {tried} attempted  (✓ correct, ~ attempted, · not attempted)")
        return "\n".join(lines)
    lines.append(f"{done} of {len(rows)} correct, {len(waiting)} not handed in, {tried} attempted  (✓ correct, "
                 "○ right points not handed in, ~ attempted, · not attempted)")
    lines.append(f"○ {', '.join(waiting)}: the check read the editor's points, which the notebook does not keep, so a "
                 f"grader would not count {'it' if len(waiting) == 1 else 'them'}. To hand in, {HAND_IN_STEP}.")
    return "\n".join(lines)


def show_progress(folder=".") -> None:
    """Print the course's progress table for the copies in ``folder`` (save your lessons first).

    Where ``folder`` holds no saved lesson (a lesson opened alone: Colab, a download, a grader's run), it says so
    and what to do, instead of raising: the table is a convenience, not part of the lesson's work.
    """
    folder = Path(folder)
    if not any(LESSON_NAME.match(p.name) for p in folder.glob("*.ipynb")):
        print(f"No saved lessons in {folder.resolve()}, so there is no progress to show here. The table reads "
              "your own copies of the lessons (the folder my-course/ that `make lab` opens); a lesson opened "
              "on its own, as in Colab, has none beside it.")
        return
    print(progress_table(course_progress(folder)))
