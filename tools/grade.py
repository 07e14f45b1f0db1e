"""Grade a class: run every submitted lesson and write a gradebook, one row per student.

    python -m tools.grade SUBMISSIONS_DIR --out gradebook.csv     # make grade SUBMISSIONS=DIR

The assignment is the lessons as they are: an exercise is a cell tagged ``exercise-check`` and its
check (`perceptron_lib.exercises.nbNN`); the course's own lessons in ``notebooks/`` say which
exercises there are (`perceptron_lib.exercises.progress.exercises_of`). Nothing is generated: the
students' version is the lessons, and the solutions stay out of it (notebooks/solutions/).

``SUBMISSIONS_DIR`` holds one folder per student (its name is the student's row) with their lessons
under their own names (``01_loss_geometry.ipynb``; a hub's collected ``my-course/`` copies are such
folders), or files ``STUDENT_01_loss_geometry.ipynb`` side by side, as an LMS download names them.

Each notebook runs in its own process (`tools.grade_run`), in a fresh kernel, with a time limit per
cell (``--cell-timeout``, the cell is interrupted and the run goes on) and per notebook
(``--timeout``, the process is killed), and with no network: under ``unshare -n`` (a network
namespace with no interface) when that works here, which needs root; always with the kernel's
sockets refused and proxies pointing nowhere. An exercise scores 1 when its check cell's verdict,
made while the notebook ran, is "correct", else 0, and the reason is written to ``--notes``
(default: beside the gradebook, ``NAME-notes.csv``) and printed. A file that is not a notebook, or
a notebook of no lesson of this course, is reported and skipped; it costs the student nothing else.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from perceptron_lib.exercises.progress import LESSON_NAME, Exercise, check_calls, exercises_of

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
NO_NETWORK_ENV = {"http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "all_proxy":
                  "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
                  "no_proxy": "", "PIP_NO_INDEX": "1"}  # fmt: skip


#: Added to the reason an exercise was lost when its check read a point editor.
EDITOR_NOTE = (" [The check read a point editor. Points placed with clicks are not saved in a notebook: in this run "
               "from the top the editor held only the points the notebook's code gives it. Hand the points to the "
               "check in code: press Copy points and write check(([[x1, x2], ...], [1, -1, ...])).]")


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


def course_exercises(notebooks: Path = NOTEBOOKS) -> dict[str, list[Exercise]]:
    """The course's lessons (file name -> its exercises, in order), read from the course's own lessons."""
    lessons = sorted(p for p in Path(notebooks).glob("*.ipynb") if LESSON_NAME.match(p.name))
    found = {p.name: exercises_of(json.loads(p.read_text(encoding="utf-8")), p.name) for p in lessons}
    return {name: exs for name, exs in found.items() if exs}


def identify(path: Path, course: dict[str, list[Exercise]]) -> tuple[str | None, str]:
    """Which lesson a file is, by the exercise checks its cells call; (None, why) when it is none."""
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
    named = [name for name in course if path.name.endswith(name)]
    if named:
        return None, (f"named like lesson {named[0]} but calls none of its exercise checks (a notebook of another "
                      "course?); skipped")
    return None, ("a notebook of no lesson of this course (it calls no exercise check of ours); skipped")


def collect(folder: Path, course: dict[str, list[Exercise]]) -> list[Submission]:
    """Every file handed in, with its student and lesson; raises GradeError when there is nothing."""
    folder = Path(folder)
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
            names = [n for n in course if entry.name.endswith("_" + n)]
            student = entry.name[: -len(names[0]) - 1] if names else entry.stem
            found.append(Submission(student, entry))
    if not found:
        raise GradeError(f"{folder} is empty: put one folder per student in it (their lessons inside), "
                         "or files named STUDENT_01_loss_geometry.ipynb.")
    for sub in found:
        if not sub.problem:
            sub.lesson, sub.problem = identify(sub.path, course)
    return found


def network_off_command() -> list[str]:
    """``["unshare", "-n"]`` when a network namespace can be made here (root), else ``[]``."""
    if shutil.which("unshare") is None:
        return []
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    return ["unshare", "-n"] if probe.returncode == 0 else []


def _exited(pid: int) -> bool:
    """True once our child `pid` has exited, without reaping it (a zombie keeps its pid, so its group's id)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # already reaped
        return True


def _feed(stream, text: str) -> None:
    with contextlib.suppress(BrokenPipeError):  # a run that died early reads no more
        stream.write(text)
    with contextlib.suppress(BrokenPipeError):
        stream.close()


def run_group(cmd: list, *, timeout: float, input: str | None = None, **popen) -> tuple:
    """Run `cmd` in a process group of its own; (returncode, or None past `timeout`; stdout; stderr).

    `input` is written to its stdin. When the run ends (or its time is up) the whole group is killed, a kernel
    left behind included (it holds the pipes otherwise), and only then is the run reaped: until then its pid is
    the group's id, which no other process can take, so the kill never reaches another process's group (a hub
    user's server, a test's)."""
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            **popen)  # fmt: skip
    out = {}
    readers = [threading.Thread(target=lambda k, f: out.__setitem__(k, f.read()), args=(k, f), daemon=True)
               for k, f in (("stdout", proc.stdout), ("stderr", proc.stderr))]  # fmt: skip
    if input is not None:
        readers.append(threading.Thread(target=_feed, args=(proc.stdin, input), daemon=True))
    for r in readers:
        r.start()
    deadline = time.monotonic() + timeout
    while not _exited(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # the poll interval of this wait: nothing signals a child's end without reaping it
    timed_out = not _exited(proc.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    for r in readers:
        r.join()
    proc.wait()
    return (None if timed_out else proc.returncode), out.get("stdout", ""), out.get("stderr", "")


@dataclass(frozen=True)
class RunAs:
    """Whose rights a submission runs with (a hub grades each student's notebooks as that student), and in
    which Python (one that user may run, with the course's library: the hub's students' venv)."""

    uid: int
    gid: int
    home: str
    python: str


def _command(cell_timeout: float, prefix: list[str], run_as: RunAs | None) -> tuple[list, dict]:
    """The grading run's command (the notebook comes on stdin) and its Popen options."""
    python = run_as.python if run_as else sys.executable
    run = [python, "-m", "tools.grade_run", "-", "--cell-timeout", str(cell_timeout)]
    if run_as is None:
        return [*prefix, *run], {"env": {**os.environ, **NO_NETWORK_ENV}}
    env = {"HOME": run_as.home, "PATH": f"{Path(python).parent}:/usr/bin:/bin", "LANG": "C.UTF-8",
           **NO_NETWORK_ENV}  # fmt: skip
    if prefix:  # unshare drops to the user after making the namespace (and drops every supplementary group)
        return [*prefix, "--setgid", str(run_as.gid), "--setuid", str(run_as.uid), "--", *run], {"env": env}
    return run, {"env": env, "user": run_as.uid, "group": run_as.gid, "extra_groups": []}


def run_one(sub: Submission, exercises: list[Exercise], *, cell_timeout: float, timeout: float,
            prefix: list[str], run_as: RunAs | None = None) -> None:
    """Run one submission in its own process and score its lesson's exercises into ``sub``."""
    cmd, popen = _command(cell_timeout, prefix, run_as)
    text = sub.path.read_text(encoding="utf-8")
    code, stdout, stderr = run_group(cmd, timeout=timeout, input=text, cwd=ROOT, **popen)
    if code is None:
        report, failed = None, f"the notebook ran past its {timeout:g} s limit; stopped"
    else:
        try:
            report = json.loads(stdout) if code == 0 else None
            failed = "" if report else f"the run failed: {' '.join(stderr.strip().splitlines()[-1:])}"
        except ValueError:
            report, failed = None, "the run's report could not be read"
    score_lesson(sub, exercises, report, failed)


def score_lesson(sub: Submission, exercises: list[Exercise], report: dict | None, failed: str = "") -> None:
    """Each exercise's score (1 correct, else 0) and the reason, from one run's report."""
    nb = json.loads(sub.path.read_text(encoding="utf-8"))
    code = ["".join(c.get("source", "")) if c.get("cell_type") == "code" else "" for c in nb["cells"]]
    for ex in exercises:
        cells = [i for i, src in enumerate(code) if (ex.module, ex.check) in check_calls(src)]
        sub.scores[ex.id] = 0
        if not cells:
            sub.notes[ex.id] = f"its check cell ({ex.module}.{ex.check}) is not in the notebook (deleted?)"
            continue
        if report is None:
            sub.notes[ex.id] = failed
            continue
        mine = [v for v in report["verdicts"] if v["exercise"] == ex.id and v["cell"] in cells]
        if mine:
            last = mine[-1]
            sub.scores[ex.id] = int(last["status"] == "correct")
            if last["status"] != "correct":
                sub.notes[ex.id] = f"{last['status']}: {last['message']}" + (EDITOR_NOTE if last.get("editor") else "")
            continue
        why = [c["why"] for c in report["cells"] if c["cell"] in cells]
        sub.notes[ex.id] = f"cell {cells[-1]} " + (why[-1] if why else "gave no verdict")


def gradebook(subs: list[Submission], columns: list[str]) -> list[dict]:
    """One row per student: each exercise's score and the total."""
    rows = {}
    for sub in subs:
        row = rows.setdefault(sub.student, {"student": sub.student, **{c: 0 for c in columns}})
        for ex, score in sub.scores.items():
            row[ex] = max(row[ex], score)
    for row in rows.values():
        row["total"] = sum(row[c] for c in columns)
    return [rows[s] for s in sorted(rows)]


def grade(folder: Path, out: Path, *, notebooks: Path = NOTEBOOKS, notes: Path | None = None,
          cell_timeout: float = 60.0, timeout: float = 600.0, jobs: int = 1, lessons=None, log=print,
          run_as=None) -> list[dict]:  # fmt: skip
    """Grade every submission in ``folder``; write the gradebook to ``out`` and the reasons to ``notes``.

    ``run_as(student) -> RunAs`` runs each student's notebooks with that user's rights (tools/hub/classroom.py);
    by default they run with this process's.
    """
    course = course_exercises(notebooks)
    unknown = sorted(set(lessons or ()) - {name[:2] for name in course})
    if unknown:
        raise GradeError(f"no lesson {', '.join(unknown)} has exercises; choose among "
                         f"{', '.join(name[:2] for name in course)} (e.g. --lessons 01,02)")  # fmt: skip
    subs = collect(folder, course)
    wanted = sorted({s.lesson for s in subs if s.lesson}) if lessons is None else [
        n for n in course if n[:2] in set(lessons)]
    if not wanted:
        raise GradeError(f"no lesson of this course in {folder}: nothing to grade (see the messages above).")
    prefix = network_off_command()
    log(f"grading {sum(s.lesson in wanted for s in subs)} notebook(s) of {len({s.student for s in subs})} "
        f"student(s); network off by {'unshare -n and ' if prefix else ''}a socket guard in the kernel")
    todo = [s for s in subs if s.lesson in wanted]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda s: run_one(s, course[s.lesson], cell_timeout=cell_timeout, timeout=timeout,
                                        prefix=prefix, run_as=run_as(s.student) if run_as else None), todo))
    columns = [e.id for name in wanted for e in course[name]]
    rows = gradebook(subs, columns)
    out = Path(out)
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["student", *columns, "total"])
        writer.writeheader()
        writer.writerows(rows)
    notes = Path(notes) if notes is not None else out.with_name(out.stem + "-notes.csv")
    with notes.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["student", "file", "exercise", "score", "why"])
        for sub in subs:
            if sub.problem:
                log(f"{sub.student}: {sub.path.name}: {sub.problem}")
                writer.writerow([sub.student, sub.path.name, "", "", sub.problem])
            for ex, why in sub.notes.items():
                log(f"{sub.student}: {ex} scores 0: {why}")
                writer.writerow([sub.student, sub.path.name, ex, 0, why])
    log(f"wrote {out} ({len(rows)} students, {len(columns)} exercises) and {notes}")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Grade a folder of submitted lessons into a gradebook (CSV).")
    parser.add_argument("submissions", type=Path, help="one folder per student, or STUDENT_NN_topic.ipynb files")
    parser.add_argument("--out", type=Path, default=Path("gradebook.csv"))
    parser.add_argument("--notes", type=Path, help="why each lost exercise scored 0 (default: OUT-notes.csv)")
    parser.add_argument("--lessons", help="grade only these lessons, e.g. 01,02 (default: those submitted)")
    parser.add_argument("--cell-timeout", type=float, default=60.0, help="seconds per cell (default 60)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per notebook (default 600)")
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at once (default 1; about one per core)")
    args = parser.parse_args(argv)
    try:
        grade(args.submissions, args.out, notes=args.notes, cell_timeout=args.cell_timeout, timeout=args.timeout,
              jobs=args.jobs, lessons=args.lessons.split(",") if args.lessons else None)
    except GradeError as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
