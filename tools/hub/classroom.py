"""The instructor's three commands on `make hub`: release the lessons, collect every student's copy, grade it.

Run as root from the repository's root, beside (or without) a running hub::

    python -m tools.hub.classroom release            # make hub-release
    python -m tools.hub.classroom collect            # make hub-collect
    python -m tools.hub.classroom grade              # make hub-grade (the newest collection; LESSONS=01,02)

* **release** publishes the course's lessons (tools/hub/course.py: a commit only when a lesson changed) and
  pulls them now into the copy of every user of the class, as that user, with the same nbgitpuller merge as
  a login: a corrected lesson replaces one the student has not touched, a new lesson appears, an edited one
  keeps the student's lines. It says for each user what it did: made their copy (no login yet), updated to this
  release, up to date already, or not updated and why. ``--at-login`` only publishes: each user gets it at their
  next login.
* **collect** copies each student's lessons, as saved on disk (an unsaved tab is not collected), into
  ``~INSTRUCTOR/submissions/<date>T<time>/students/<student>/``: the folder and every file belong to the
  instructor alone (0700 / 0600, in a home no student may enter). Each student's files are read *as that
  student* (a link in their copy reaches only what they could read themselves) and written without following
  links. ``collected.csv`` beside ``students/`` says what was found for whom; a student with no copy gets an
  empty folder, so the gradebook still has their row.
* **grade** runs `tools.grade` over a collection into ``gradebook.csv`` and ``gradebook-notes.csv`` beside
  ``students/`` (the instructor's). Each student's notebooks run with that student's own rights, in the
  students' Python, with no network: a notebook can do while graded no more than its author's kernel could.

The class (users.json), the lessons and the releases are those of the hub: ``COURSE_HUB_DIR``,
``COURSE_HUB_NOTEBOOKS``, ``COURSE_HUB_RELEASE_DIR`` and ``COURSE_HUB_SOLUTIONS`` as in jupyterhub_config.py.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import csv
import datetime as _dt
import io
import json
import os
import pwd
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tools import grade as grader
from tools import student_copy
from tools.hub import course
from tools.hub.setup import STATE_DIR, STUDENT_VENV

#: The folder of collections in the instructor's home.
SUBMISSIONS = "submissions"
#: The largest lesson file collected (bytes): the lessons with their outputs are 0.3-2.2 MB.
MAX_FILE = 50_000_000


class ClassError(Exception):
    """Bad input for a class command: the message says what is wrong and what to do."""


@dataclass(frozen=True)
class Hub:
    """The class of a hub: its users, its lessons, its releases and the students' Python."""

    students: tuple[str, ...]
    instructor: str
    notebooks: Path
    release_dir: Path
    solutions: bool
    python: Path


def load_hub(state_dir: Path | None = None) -> Hub:
    """The class `make hub-setup` made (``users.json``), with the hub's settings from the environment."""
    if os.geteuid() != 0:
        raise ClassError(f"the class commands act as each user of the class: run them as root (sudo make "
                         f"hub-collect); this process runs as uid {os.geteuid()}")  # fmt: skip
    state_dir = Path(state_dir or os.environ.get("COURSE_HUB_DIR") or STATE_DIR)
    users_file = state_dir / "users.json"
    if not users_file.is_file():
        raise ClassError(f"{users_file} is missing, so the class is unknown: run `make hub-setup` first")
    users = json.loads(users_file.read_text())
    python = STUDENT_VENV / "bin" / "python"
    if not python.exists():
        raise ClassError(f"{python} is missing: run `make hub-setup` to build the students' Python")
    return Hub(tuple(users["students"]), users["instructor"],
               Path(os.environ.get("COURSE_HUB_NOTEBOOKS") or course.NOTEBOOKS),
               Path(os.environ.get("COURSE_HUB_RELEASE_DIR") or course.HUB_DIR),
               os.environ.get("COURSE_HUB_SOLUTIONS", "0") == "1", python)  # fmt: skip


def _user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise ClassError(f"{name} is in users.json but is not a user of this machine: run `make hub-setup`") from None


# ---- release ----------------------------------------------------------------------------------------


def release(hub: Hub, *, now: bool = True) -> dict[str, str]:
    """Publish the lessons; with `now`, pull them into every user's copy as that user. {user: what happened}:
    their copy made now, updated to this release, up to date already, or not updated and why."""
    releases = course.publish_releases(_user(hub.instructor).pw_gid, solutions_for_students=hub.solutions,
                                       hub_dir=hub.release_dir, notebooks=hub.notebooks, python=hub.python)  # fmt: skip
    done = {}
    for name in [*hub.students, hub.instructor]:
        if not now:
            done[name] = "at the next login"
            continue
        if not Path(_user(name).pw_dir).is_dir():
            done[name] = "no home: run `make hub-setup`"
            continue
        audience = "instructor" if name == hub.instructor else "students"
        had = release_in_copy(name)
        proc = course.pull_as(name, releases[audience], hub.python)
        tail = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
        if proc.returncode != 0:
            done[name] = f"not updated ({tail}); their files are as they were"
        elif not had:
            done[name] = f"made their copy, ~{name}/{course.COURSE_DIR} (they had none)"
        else:
            done[name] = "up to date (had this release)" if release_in_copy(name) == had else "updated to this release"
    return done


def release_in_copy(name: str) -> str:
    """The release commit user `name`'s copy last pulled ("" when they have no copy), read as that user."""
    entry = _user(name)
    proc = subprocess.run(["git", "-C", str(Path(entry.pw_dir) / course.COURSE_DIR), "rev-parse", "-q", "--verify",
                           f"refs/remotes/origin/{student_copy.BRANCH}"], cwd="/", capture_output=True, text=True,
                          env={"HOME": entry.pw_dir, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                               "GIT_CEILING_DIRECTORIES": entry.pw_dir},
                          user=entry.pw_uid, group=entry.pw_gid, extra_groups=[], timeout=60)  # fmt: skip
    return proc.stdout.strip() if proc.returncode == 0 else ""


# ---- collect ----------------------------------------------------------------------------------------

# Run as the student: their lessons, each a regular file read without following a link, as JSON on stdout.
_READ_AS_STUDENT = r"""
import base64, json, os, stat, sys
folder, cap, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
found = {}
for name in names:
    try:
        fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        continue
    except OSError as exc:
        found[name] = {"problem": f"not read ({exc.strerror}: a link or not a file)"}
        continue
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            found[name] = {"problem": "not a file"}
        elif st.st_size > cap:
            found[name] = {"problem": f"{st.st_size} bytes, more than {cap}"}
        else:
            found[name] = {"data": base64.b64encode(f.read()).decode()}
json.dump(found, sys.stdout)
"""


def read_as(name: str, folder: Path, files: list[str], python: Path) -> dict:
    """`files` of `folder`, read with user `name`'s rights alone: {file: {"data": base64} or {"problem": why}}."""
    entry = _user(name)
    proc = subprocess.run([str(python), "-I", "-c", _READ_AS_STUDENT, str(folder), str(MAX_FILE), *files],
                          cwd="/", env={"LANG": "C.UTF-8", "HOME": entry.pw_dir}, user=entry.pw_uid,
                          group=entry.pw_gid, extra_groups=[], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    if proc.returncode != 0:
        raise ClassError(f"reading {name}'s copy failed: {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout)


def _open_dir(name: str, *, dir_fd: int | None = None, create: bool = False, exclusive: bool = False) -> int:
    """A folder's descriptor, opened without following a link (made 0700 first if `create`)."""
    if create:
        try:
            os.mkdir(name, 0o700, dir_fd=dir_fd)
        except FileExistsError:
            if exclusive:
                raise
    try:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
    except NotADirectoryError:
        raise ClassError(f"{name} is not a folder (a file, or a link): move it aside") from None
    except OSError as exc:
        if exc.errno == 40:  # ELOOP: a link
            raise ClassError(f"{name} is a link, not a folder: move it aside") from None
        raise


def _write(dir_fd: int, name: str, data: bytes, owner: pwd.struct_passwd) -> None:
    """A file of `owner`'s (0600) in the folder `dir_fd`, replacing one of that name, never through a link."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dir_fd)
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=dir_fd)
    with os.fdopen(fd, "wb") as f:
        os.fchown(f.fileno(), owner.pw_uid, owner.pw_gid)
        f.write(data)


def _own(fd: int, owner: pwd.struct_passwd) -> None:
    os.fchown(fd, owner.pw_uid, owner.pw_gid)
    os.fchmod(fd, 0o700)


def collect(hub: Hub, *, now: _dt.datetime | None = None, log=print) -> Path:
    """Copy every student's lessons into a new collection of the instructor's; returns its folder."""
    inst = _user(hub.instructor)
    lessons = [p.name for p in student_copy.release_files(hub.notebooks, solutions=False)]
    stamp = (now or _dt.datetime.now()).strftime("%Y-%m-%dT%H%M%S")
    home = _open_dir(inst.pw_dir)
    fds = [home]
    try:
        top = _open_dir(SUBMISSIONS, dir_fd=home, create=True)
        fds.append(top)
        _own(top, inst)
        try:
            here = _open_dir(stamp, dir_fd=top, create=True, exclusive=True)
        except FileExistsError:
            raise ClassError(f"{inst.pw_dir}/{SUBMISSIONS}/{stamp} exists already: collect again in a second") from None
        fds.append(here)
        students = _open_dir("students", dir_fd=here, create=True, exclusive=True)
        fds.append(students)
        table = [["student", "lessons collected", "not collected"]]
        for name in hub.students:
            try:
                found = read_as(name, Path(_user(name).pw_dir) / course.COURSE_DIR, lessons, hub.python)
            except ClassError as exc:  # this student only: the others are collected all the same
                found = {"": {"problem": str(exc)}}
            mine = _open_dir(name, dir_fd=students, create=True, exclusive=True)
            try:
                for file, got in found.items():
                    if "data" in got:
                        _write(mine, file, base64.b64decode(got["data"]), inst)
                _own(mine, inst)
            finally:
                os.close(mine)
            took = [f for f in lessons if "data" in found.get(f, {})]
            problems = [f"{f}: {got['problem']}".lstrip(": ") for f, got in found.items() if "problem" in got]
            if not took and not problems:
                problems = [f"no lessons in ~{name}/{course.COURSE_DIR} (not logged in yet?)"]
            table.append([name, len(took), "; ".join(problems)])
            log(f"collect: {name}: {len(took)} lesson(s)" + (f"; {'; '.join(problems)}" if problems else ""))
        _own(students, inst)
        _own(here, inst)
        buf = io.StringIO()
        csv.writer(buf).writerows(table)
        _write(here, "collected.csv", buf.getvalue().encode(), inst)
    finally:
        for fd in reversed(fds):
            os.close(fd)
    where = Path(inst.pw_dir) / SUBMISSIONS / stamp
    log(f"collect: {len(hub.students)} student(s) into {where} ({hub.instructor}'s alone)")
    return where


# ---- grade ------------------------------------------------------------------------------------------


def latest_collection(hub: Hub) -> Path:
    """The newest collection in the instructor's submissions folder."""
    top = Path(_user(hub.instructor).pw_dir) / SUBMISSIONS
    found = sorted(p for p in top.glob("*") if (p / "students").is_dir()) if top.is_dir() else []
    if not found:
        raise ClassError(f"no collection in {top}: run `make hub-collect` first")
    return found[-1]


def grade(hub: Hub, collection: Path | None = None, *, lessons=None, jobs: int = 2, cell_timeout: float = 60.0,
          timeout: float = 600.0, log=print) -> tuple[Path, list[dict]]:  # fmt: skip
    """Grade a collection (default: the newest) into its ``gradebook.csv``; returns it and the rows."""
    collection = Path(collection) if collection is not None else latest_collection(hub)
    students = collection / "students"
    if not students.is_dir() or students.is_symlink():
        raise ClassError(f"{collection} is not a collection (it has no students/ folder): give one that "
                         "`make hub-collect` made, or grade any folder with `make grade SUBMISSIONS=DIR`")  # fmt: skip
    strangers = sorted(p.name for p in students.iterdir() if p.name not in hub.students)
    if strangers:
        raise ClassError(f"{students} holds {', '.join(strangers)}, not students of this class (users.json): each "
                         "runs as its student while graded; move them out, or grade them with `make grade`")
    homes = {n: _user(n) for n in hub.students}

    def run_as(student: str) -> grader.RunAs:
        entry = homes[student]
        return grader.RunAs(entry.pw_uid, entry.pw_gid, entry.pw_dir, str(hub.python))

    inst = _user(hub.instructor)
    with tempfile.TemporaryDirectory(prefix="hub-grade-") as tmp:
        out = Path(tmp) / "gradebook.csv"
        try:
            rows = grader.grade(students, out, lessons=lessons, jobs=jobs, cell_timeout=cell_timeout,
                                timeout=timeout, run_as=run_as, log=log)  # fmt: skip
        except grader.GradeError as exc:
            raise ClassError(str(exc)) from None
        here = _open_dir(str(collection))
        try:
            if os.fstat(here).st_uid not in (0, inst.pw_uid):
                raise ClassError(f"{collection} belongs to neither root nor {hub.instructor}: grade a collection "
                                 "that `make hub-collect` made")  # fmt: skip
            for name in ("gradebook.csv", "gradebook-notes.csv"):
                _write(here, name, (Path(tmp) / name).read_bytes(), inst)
        finally:
            os.close(here)
    log(f"grade: {collection / 'gradebook.csv'} and gradebook-notes.csv ({hub.instructor}'s alone)")
    return collection / "gradebook.csv", rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("release", help="publish the lessons and pull them into every user's copy now")
    r.add_argument("--at-login", action="store_true", help="only publish: each user gets it at their next login")
    sub.add_parser("collect", help="copy every student's lessons into a collection only the instructor can read")
    g = sub.add_parser("grade", help="grade a collection (default: the newest) into its gradebook.csv")
    g.add_argument("collection", nargs="?", type=Path, help="a folder `collect` made (default: the newest)")
    g.add_argument("--lessons", help="grade only these lessons, e.g. 01,02 (default: those handed in)")
    g.add_argument("--jobs", type=int, default=2, help="notebooks run at once (default 2; about one per core)")
    args = parser.parse_args(argv)
    try:
        hub = load_hub()
        if args.command == "release":
            for name, what in release(hub, now=not args.at_login).items():
                print(f"release: {name}: {what}")
        elif args.command == "collect":
            collect(hub)
        else:
            lessons = args.lessons.split(",") if args.lessons else None
            grade(hub, args.collection, lessons=lessons, jobs=args.jobs)
    except (ClassError, student_copy.StudentCopyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
