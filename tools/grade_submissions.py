"""What a class handed in: each file's student (a folder's name, or an LMS download's file name) and lesson.

Part of `tools.grade` (its docstring says what grading does); this module finds the submissions and decides
whose and which lesson each is, before anything runs: a lesson is known by the exercise checks its cells
call, not by its file's name, so a renamed file is still graded.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from perceptron_lib.exercises.progress import LESSON_NAME, Exercise, check_calls, exercises_of

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

#: Canvas's "Download Submissions": NAME_USERID_SUBMISSIONID_FILE, NAME_LATE_USERID_... when handed in late.
CANVAS_FILE = re.compile(r"(?P<name>[^_]+?)(?:_LATE)?_(?P<id>\d+)_(?P<submission>\d+)_(?P<file>.+\.ipynb)")
CANVAS_PREFIX = re.compile(r"(?P<name>[^_]+?)(?:_LATE)?_(?P<id>\d+)_(?P<submission>\d+)")


class GradeError(Exception):
    """Bad input for the grader as a whole (no submissions, no such folder): the message says what to do."""


@dataclass
class Submission:
    """One file handed in: whose, which lesson (None: not one of ours) and why not, when it is not."""

    student: str
    path: Path
    lesson: str | None = None
    problem: str = ""
    scores: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)
    lms_id: str = ""  # the LMS's user id (Canvas), when the file's name carries one

    @property
    def key(self) -> str:
        """Whose row: the LMS's user id when known, else the student's name."""
        return f"id:{self.lms_id}" if self.lms_id else self.student


def course_exercises(notebooks: Path = NOTEBOOKS) -> dict[str, list[Exercise]]:
    """The course's lessons (file name -> its exercises, in order), read from the course's own lessons."""
    lessons = sorted(p for p in Path(notebooks).glob("*.ipynb") if LESSON_NAME.match(p.name))
    found = {p.name: exercises_of(json.loads(p.read_text(encoding="utf-8")), p.name) for p in lessons}
    return {name: exs for name, exs in found.items() if exs}


def course_lessons(notebooks: Path = NOTEBOOKS) -> list[str]:
    """Every lesson of the course by file name, those with no exercise (00, the course's map) included."""
    return sorted(p.name for p in Path(notebooks).glob("*.ipynb") if LESSON_NAME.match(p.name))


def student_of(file_name: str, lessons) -> tuple[str, str]:
    """(student, LMS user id or "") of a file handed in beside the others' (an LMS download).

    ``carol_01_loss_geometry.ipynb`` is carol's; Canvas's ``carol_123_456_01_loss_geometry.ipynb`` (name, user
    id, submission id, file; ``01_loss_geometry-1.ipynb`` for a resubmission) is ("carol", "123"): the user id,
    not the submission's, so two assignments' downloads make one row per student."""
    prefix = None
    for lesson in lessons:
        found = re.fullmatch(rf"(?P<prefix>.+)_{re.escape(Path(lesson).stem)}(?:-\d+| ?\(\d+\))?\.ipynb", file_name)
        if found:
            prefix = found["prefix"]
            break
    canvas = CANVAS_PREFIX.fullmatch(prefix) if prefix is not None else CANVAS_FILE.fullmatch(file_name)
    if canvas:
        return canvas["name"], canvas["id"]
    return (prefix if prefix is not None else Path(file_name).stem), ""


def identify(path: Path, course: dict[str, list[Exercise]], quiet=()) -> tuple[str | None, str]:
    """Which lesson a file is, by the exercise checks its cells call; (None, why) when it is none.

    A file named as one of `quiet` (the course's lessons with no exercise, such as 00) that calls no check is
    (None, ""): not graded, and nothing to report."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells = nb["cells"]
        sources = ["".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None, "not a notebook (not JSON with cells); skipped: ask the student for the .ipynb file"
    calls = {call for src in sources for call in check_calls(src)}
    hits = {name: sum((e.module, e.check) in calls for e in exs) for name, exs in course.items()}
    best = max(hits, key=hits.get, default=None)
    if best is not None and hits[best]:
        return best, ""
    if any(path.name == name or path.name.endswith("_" + name) for name in quiet):
        return None, ""
    named = [name for name in course if path.name.endswith(name)]
    if named:
        return None, (f"named like lesson {named[0]} but calls none of its exercise checks (a notebook of another "
                      "course?); skipped")
    return None, ("a notebook of no lesson of this course (it calls no exercise check of ours); skipped")


def collect(folder: Path, course: dict[str, list[Exercise]], lessons=()) -> list[Submission]:
    """Every file handed in, with its student and lesson; raises GradeError when there is nothing.

    `lessons`: every lesson's file name (`course_lessons`); those without exercises are skipped quietly."""
    folder = Path(folder)
    names = sorted(set(lessons) | set(course))
    if not folder.is_dir():
        raise GradeError(f"SUBMISSIONS must be a folder of submissions; {folder} is not one.")
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            files = sorted(p for p in entry.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts
                           and not any(part.startswith(".") for part in p.relative_to(entry).parts))
            # a student's copy keeps reset or merged versions beside a lesson: only the lesson counts
            files = [p for p in files if not re.search(r"(-\d{4}-\d\d-\d\dT|__\d|-course-)", p.name)]
            found += [Submission(entry.name, p) for p in files]
            if not files:
                found.append(Submission(entry.name, entry, problem="a folder with no files; the student scores 0"))
        else:
            student, lms_id = student_of(entry.name, names)
            found.append(Submission(student, entry, lms_id=lms_id))
    if not found:
        raise GradeError(f"{folder} is empty: put one folder per student in it (their lessons inside), "
                         "or files named STUDENT_01_loss_geometry.ipynb.")
    quiet = [n for n in names if n not in course]
    for sub in found:
        if not sub.problem:
            sub.lesson, sub.problem = identify(sub.path, course, quiet)
    return found



def not_handed_in(subs: list[Submission], wanted: list[str], course: dict[str, list[Exercise]]) -> list[Submission]:
    """For each student and lesson graded that the student has no notebook of: a note per exercise, "not handed
    in" (the score stays 0). A lesson present but unreadable is said so by its own note, named here too."""
    by_student = {}
    for sub in subs:
        by_student.setdefault(sub.key, []).append(sub)
    missing = []
    for mine in by_student.values():
        handed = {s.lesson for s in mine}
        skipped = [s.path.name for s in mine if s.problem]
        for lesson in wanted:
            if lesson in handed:
                continue
            why = f"not handed in: no notebook of lesson {lesson} among this student's files"
            if skipped:
                why += f" (skipped: {', '.join(skipped)}; see its note)"
            missing.append(Submission(mine[0].student, Path(lesson), lesson, lms_id=mine[0].lms_id,
                                      scores={e.id: 0 for e in course[lesson]},
                                      notes={e.id: why for e in course[lesson]}))  # fmt: skip
    return missing
