"""Grade a class: run every submitted lesson and write a gradebook, one row per student.

    python -m tools.grade SUBMISSIONS_DIR --out gradebook.csv     # make grade SUBMISSIONS=DIR

The assignment is the lessons as they are: an exercise is a cell tagged ``exercise-check`` and its
check (`perceptron_lib.exercises.nbNN`); the course's own lessons in ``notebooks/`` say which
exercises there are (`perceptron_lib.exercises.progress.exercises_of`). Nothing is generated: the
students' version is the lessons, and the solutions stay out of it (notebooks/solutions/).

``SUBMISSIONS_DIR`` holds one folder per student (its name is the student's row) with their lessons
under their own names (``01_loss_geometry.ipynb``; a hub's collected ``my-course/`` copies are such
folders), or files ``STUDENT_01_loss_geometry.ipynb`` side by side. Canvas's "Download Submissions"
names each file ``NAME_USERID_SUBMISSIONID_FILE`` (``NAME_LATE_...`` when late, ``FILE-1.ipynb`` for a
resubmission): the row is then the Canvas user, with NAME in the ``student`` column and USERID in an
``ID`` column, the column Canvas's gradebook import matches a student by.

Each notebook runs in its own process (`tools.grade_run`), in a fresh kernel, with a time limit per
cell (``--cell-timeout``, the cell is interrupted and the run goes on) and per notebook
(``--timeout``, the process is killed), and with no network: under ``unshare -n`` (a network
namespace with no interface) when that works here, which needs root; always with the kernel's
sockets refused and proxies pointing nowhere. An exercise scores 1 when its check cell's verdict,
made while the notebook ran, is "correct", else 0, and the reason is written to ``--notes``
(default: beside the gradebook, ``NAME-notes.csv``) and printed. A lesson a student did not hand in
scores 0 too, and its notes say "not handed in". When a cell raised before an exercise's check, the
notes name that first error first (the cells after it often fail only because of it). A file that is
not a notebook, or a notebook of no lesson of this course, is reported and skipped; it costs the student
nothing else. The course's lessons without exercises (00) are not graded and not reported.

The folder of ``--out`` (and ``--notes``) is made at the start, before any notebook runs, and a path
that cannot be written is refused then; should writing still fail at the end, both files are written
to a new temporary folder instead and the message names it, so a class's grading is never lost.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from perceptron_lib.exercises.progress import Exercise, check_calls
from tools.grade_submissions import (
    GradeError,
    Submission,
    collect,
    course_exercises,
    course_lessons,
    not_handed_in,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
NO_NETWORK_ENV = {"http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "all_proxy":
                  "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
                  "no_proxy": "", "PIP_NO_INDEX": "1"}  # fmt: skip


#: Added to the reason an exercise was lost when its check read a point editor.
EDITOR_NOTE = (" [The check read a point editor. Points placed with clicks are not saved in a notebook: in this run "
               "from the top the editor held only the points the notebook's code gives it. Hand the points to the "
               "check in code: press Copy points and write check(([[x1, x2], ...], [1, -1, ...])).]")


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


def cell_name(index: int, code: list[str]) -> str:
    """A cell as an instructor finds it in JupyterLab: its place (from 1, text cells counted) and first line."""
    first = next((line.strip() for line in code[index].splitlines() if line.strip()), "")
    return f"cell {index + 1} ({first[:60] + ('...' if len(first) > 60 else '')!r})" if first else f"cell {index + 1}"


def verdict_note(status: str, message: str) -> str:
    """``status: message``, the status said once ("not attempted yet. Replace ...", not "not attempted: not ...")."""
    return message if message.startswith(status) else f"{status}: {message}"


def score_lesson(sub: Submission, exercises: list[Exercise], report: dict | None, failed: str = "") -> None:
    """Each exercise's score (1 correct, else 0) and the reason, from one run's report.

    When a check cell raised or gave no verdict after an earlier cell had raised, the note names that first
    error first: later cells most often fail only for what it did not define."""
    nb = json.loads(sub.path.read_text(encoding="utf-8"))
    code = ["".join(c.get("source", "")) if c.get("cell_type") == "code" else "" for c in nb["cells"]]
    first = min(report["cells"], key=lambda c: c["cell"], default=None) if report else None
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
                sub.notes[ex.id] = (verdict_note(last["status"], last["message"])
                                    + (EDITOR_NOTE if last.get("editor") else ""))  # fmt: skip
            continue
        why = [c["why"] for c in report["cells"] if c["cell"] in cells]
        note = f"its check, {cell_name(cells[-1], code)}, " + (why[-1] if why else "gave no verdict")
        if first is not None and first["cell"] < cells[-1]:
            note = (f"FIRST ERROR: {cell_name(first['cell'], code)} {first['why']} (the cells after it may fail "
                    f"only because of it); then {note}")  # fmt: skip
        sub.notes[ex.id] = note


def gradebook(subs: list[Submission], columns: list[str]) -> list[dict]:
    """One row per student: each exercise's score and the total (0 for a lesson not handed in, as for a wrong
    answer: `not_handed_in` gives the notes that tell the two apart). With LMS user ids, an ``ID`` column."""
    ids = any(sub.lms_id for sub in subs)
    rows = {}
    for sub in subs:
        who = {"student": sub.student, **({"ID": sub.lms_id} if ids else {})}
        row = rows.setdefault(sub.key, {**who, **{c: 0 for c in columns}})
        for ex, score in sub.scores.items():
            row[ex] = max(row[ex], score)
    for row in rows.values():
        row["total"] = sum(row[c] for c in columns)
    return sorted(rows.values(), key=lambda r: (r["student"], r.get("ID", "")))


def writable(path: Path, option: str) -> Path:
    """`path`, its folder made now (before hours of grading) and checked writable; GradeError naming `option`."""
    path = Path(path)
    if path.is_dir():
        raise GradeError(f"{option} {path} is a folder: give a file name, e.g. {option} {path / 'gradebook.csv'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}-", suffix=".probe"):
            pass
    except OSError as exc:
        raise GradeError(f"{option} {path}: its folder {path.parent} cannot be made or written to "
                         f"({exc.strerror or exc}); choose another, e.g. {option} ./gradebook.csv") from None
    return path


def _write_tables(out: Path, notes: Path, header: list[str], rows: list[dict], note_rows: list[list]) -> None:
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    with notes.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(note_rows)


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
    subs = collect(folder, course, course_lessons(notebooks))
    wanted = sorted({s.lesson for s in subs if s.lesson}) if lessons is None else [
        n for n in course if n[:2] in set(lessons)]
    if not wanted:
        raise GradeError(f"no lesson of this course in {folder}: nothing to grade (see the messages above).")
    out = writable(out, "--out")
    notes = writable(notes if notes is not None else out.with_name(out.stem + "-notes.csv"), "--notes")
    prefix = network_off_command()
    log(f"grading {sum(s.lesson in wanted for s in subs)} notebook(s) of {len({s.key for s in subs})} "
        f"student(s); network off by {'unshare -n and ' if prefix else ''}a socket guard in the kernel")
    todo = [s for s in subs if s.lesson in wanted]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda s: run_one(s, course[s.lesson], cell_timeout=cell_timeout, timeout=timeout,
                                        prefix=prefix, run_as=run_as(s.student) if run_as else None), todo))
    columns = [e.id for name in wanted for e in course[name]]
    subs = [*subs, *not_handed_in(subs, wanted, course)]
    rows = gradebook(subs, columns)
    ids = any(sub.lms_id for sub in subs)
    note_rows = [["student", *(["ID"] if ids else []), "file", "exercise", "score", "why"]]
    for sub in sorted(subs, key=lambda s: (s.student, s.lms_id, s.path.name)):
        who = [sub.student, *([sub.lms_id] if ids else [])]
        if sub.problem:
            log(f"{sub.student}: {sub.path.name}: {sub.problem}")
            note_rows.append([*who, sub.path.name, "", "", sub.problem])
        for ex, why in sub.notes.items():
            log(f"{sub.student}: {ex} scores 0: {why}")
            note_rows.append([*who, sub.path.name, ex, 0, why])
    header = [*rows[0]] if rows else ["student", *columns, "total"]
    try:
        _write_tables(out, notes, header, rows, note_rows)
    except OSError as exc:  # the folder went away or filled up while grading: the work is kept all the same
        keep = Path(tempfile.mkdtemp(prefix="gradebook-"))
        _write_tables(keep / out.name, keep / notes.name, header, rows, note_rows)
        raise GradeError(f"could not write {out} or {notes} ({exc}); the gradebook and its notes are saved in "
                         f"{keep}: copy them from there") from None
    log(f"wrote {out} ({len(rows)} students, {len(columns)} exercises) and {notes}")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Grade a folder of submitted lessons into a gradebook (CSV).")
    parser.add_argument("submissions", type=Path, help="one folder per student, or files STUDENT_NN_topic.ipynb "
                        "(or Canvas's NAME_USERID_SUBMISSIONID_NN_topic.ipynb)")
    parser.add_argument("--out", type=Path, default=Path("gradebook.csv"),
                        help="the gradebook (default gradebook.csv); its folder is made before grading starts")
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
