"""The student's own copy of the lessons: made once, updated by nbgitpuller's merge, a lesson reset.

``make lab`` serves ``my-course/`` (git ignores it), never ``notebooks/``, so autosave never writes
into the course's files. Run from the repository's root::

    python -m tools.student_copy update            # make my-course/ the first time, else bring in the course's changes
    python -m tools.student_copy reset 03          # lesson 03 as the course has it; the old copy stays beside it

How an update merges: with nbgitpuller's own code (``nbgitpuller.pull.GitPuller``, the puller
JupyterHub classes use behind their "interact" links), so the rules are nbgitpuller's, not ours:

* The course's lessons are *published* as a commit on the branch ``lessons`` of a small bare
  repository, the *release* (``.my-course-source.git`` beside the copy, `release_for`; on the hub, one shared by the
  class). A commit is made only when a lesson changed, on top of the previous one.
* The copy is nbgitpuller's clone of that branch. At each update nbgitpuller fetches; renames a file
  of the student's that a new lesson would overwrite (``NAME__<time>.ipynb``); restores a lesson the
  student deleted; commits the student's edits; and merges the course with ``git merge -Xours``: a
  lesson the student has not touched becomes the course's new version, a new lesson appears, and
  where the student and the course changed the same lines of a lesson the student's lines win.
* A reset renames the student's lesson to ``NAME-YYYY-MM-DDTHHMM.ipynb`` and lets nbgitpuller restore
  the deleted lesson from the course (its rule for deleted files).

After a merge every lesson must still be a readable notebook: if the merge of a lesson both sides
changed left something that is not JSON, the student's own version is put back and the course's
version saved beside it (``NAME-course-<time>.ipynb``), so nothing is lost.

On the hub (tools/hub/jupyterhub_config.py) the hub publishes as root and each student's ``pull``
runs as that student, at every login.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: The student's copy (ignored by git); its release is beside it (`release_for`).
DEST = ROOT / "my-course"
BRANCH = "lessons"
_AUTHOR = {"GIT_AUTHOR_NAME": "perceptron course", "GIT_AUTHOR_EMAIL": "course@localhost",
           "GIT_COMMITTER_NAME": "perceptron course", "GIT_COMMITTER_EMAIL": "course@localhost"}  # fmt: skip


def release_for(dest: Path) -> Path:
    """The release a local copy is pulled from: ``.NAME-source.git`` beside the copy ``NAME``."""
    dest = Path(dest)
    return dest.parent / f".{dest.name}-source.git"


class StudentCopyError(Exception):
    """Bad input for the student's copy: the message says what is wrong and what to do."""


def _git(args, *, git_dir: Path | None = None, cwd: Path | None = None, input: str | None = None) -> str:
    cmd = ["git", *([f"--git-dir={git_dir}"] if git_dir else []), *args]
    proc = subprocess.run(cmd, cwd=cwd, input=input, capture_output=True, text=True,
                          env={**os.environ, **_AUTHOR, "LANG": "C"})  # fmt: skip
    if proc.returncode != 0:
        raise StudentCopyError(f"`{' '.join(cmd)}` failed: {proc.stderr.strip()}")
    return proc.stdout.strip()


def release_files(notebooks: Path = NOTEBOOKS, *, solutions: bool = True) -> list[Path]:
    """The notebooks of a release, relative to `notebooks`: the lessons, and ``solutions/`` if asked."""
    from tools import course_export

    files = [p.relative_to(notebooks) for p in course_export.lessons(notebooks)]
    if not files:
        raise StudentCopyError(f"no lessons NN_topic.ipynb in {notebooks}: run this from the course's folder "
                               "or pass --notebooks")  # fmt: skip
    if solutions:
        files += [p.relative_to(notebooks) for p in course_export.solutions(notebooks)]
    return files


def _tree(release: Path, notebooks: Path, files: list[Path]) -> str:
    """The git tree of `files` (one level of folders, as solutions/ is) written into `release`."""
    entries: dict[str, list[str]] = {}
    for rel in files:
        blob = _git(["hash-object", "-w", "--", str(notebooks / rel)], git_dir=release)
        folder = rel.parent.as_posix() if rel.parent != Path(".") else ""
        entries.setdefault(folder, []).append(f"100644 blob {blob}\t{rel.name}")
    top = entries.pop("", [])
    for folder, rows in entries.items():
        if "/" in folder:
            raise StudentCopyError(f"a release holds one level of folders; got {folder!r} instead")
        top.append(f"040000 tree {_git(['mktree'], git_dir=release, input=chr(10).join(rows) + chr(10))}\t{folder}")
    return _git(["mktree"], git_dir=release, input="\n".join(top) + "\n")


def publish(release: Path, notebooks: Path = NOTEBOOKS, *, solutions: bool = True) -> str:
    """Commit the lessons of `notebooks` onto branch ``lessons`` of the bare repository `release`.

    Makes `release` the first time. A new commit, on top of the last, only when a file changed;
    returns the branch's commit. Writes nothing outside `release`.
    """
    release, notebooks = Path(release), Path(notebooks)
    files = release_files(notebooks, solutions=solutions)
    if not (release / "HEAD").exists():
        if release.exists() and any(release.iterdir()):
            raise StudentCopyError(f"{release} exists and is not the course's release repository; move it aside")
        _git(["init", "--bare", "-q", f"--initial-branch={BRANCH}", str(release)])
    tree = _tree(release, notebooks, files)
    parent = subprocess.run(["git", f"--git-dir={release}", "rev-parse", "-q", "--verify", f"refs/heads/{BRANCH}"],
                            capture_output=True, text=True).stdout.strip()  # fmt: skip
    if parent and _git(["rev-parse", f"{parent}^{{tree}}"], git_dir=release) == tree:
        return parent
    what = "the lessons and their solutions" if solutions else "the lessons"
    commit = _git(["commit-tree", tree, *(["-p", parent] if parent else []), "-m", f"The course: {what}"],
                  git_dir=release)  # fmt: skip
    _git(["update-ref", f"refs/heads/{BRANCH}", commit], git_dir=release)
    return commit


def _release_url(release: Path) -> str:
    return Path(release).resolve().as_uri()


def check_copy(dest: Path, release: Path) -> bool:
    """True if `dest` is a copy pulled from `release`, False if it does not exist (or is empty).

    Raises StudentCopyError for anything else: a folder that is not a course copy is never touched.
    """
    dest = Path(dest)
    if not dest.exists() or (dest.is_dir() and not any(dest.iterdir())):
        return False
    if not dest.is_dir():
        raise StudentCopyError(f"{dest} is a file, not a course copy; move it aside or choose another --dest")
    url = None
    if (dest / ".git").is_dir():
        proc = subprocess.run(["git", "-C", str(dest), "config", "--get", "remote.origin.url"],
                              capture_output=True, text=True)  # fmt: skip
        url = proc.stdout.strip() or None
    if url != _release_url(release):
        why = "it is not a git clone" if url is None else f"it was pulled from {url}"
        raise StudentCopyError(f"{dest} is not a course copy ({why}, not {_release_url(release)}); nothing was "
                               "changed. Move it aside (your files stay in it) or choose another --dest")  # fmt: skip
    return True


def _notebook_ok(path: Path) -> bool:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(nb, dict) and isinstance(nb.get("cells"), list)


def _stamp(now: _dt.datetime | None = None, *, seconds: bool = False) -> str:
    now = now or _dt.datetime.now()
    return now.strftime("%Y-%m-%dT%H%M%S" if seconds else "%Y-%m-%dT%H%M")


def _beside(path: Path, tag: str) -> Path:
    """A free name ``STEM-tag.ipynb`` beside `path` (``-2``, ``-3``, ... if taken)."""
    candidate, n = path.with_name(f"{path.stem}-{tag}{path.suffix}"), 2
    while candidate.exists():
        candidate, n = path.with_name(f"{path.stem}-{tag}-{n}{path.suffix}"), n + 1
    return candidate


def _head(dest: Path, rev: str = "HEAD") -> str:
    proc = subprocess.run(["git", "-C", str(dest), "rev-parse", "-q", "--verify", rev], capture_output=True, text=True)
    return proc.stdout.strip()


def _repair_merges(dest: Path, before: str) -> list[str]:
    """Put back the student's version of a lesson this pull's merge left unreadable; the course's goes beside it."""
    notes = []
    if _head(dest) == before or not _head(dest, "HEAD^2"):
        return notes  # no merge made now: nothing of the student's was merged
    merged = _git(["diff", "--name-only", "-z", "HEAD^1", "HEAD", "--", "*.ipynb"], cwd=dest).split("\0")
    for rel in filter(None, merged):
        path = dest / rel
        if not path.exists() or _notebook_ok(path):
            continue
        theirs = _beside(path, f"course-{_stamp(seconds=True)}")
        theirs.write_text(_git(["show", f"origin/{BRANCH}:{rel}"], cwd=dest) + "\n", encoding="utf-8")
        path.write_text(_git(["show", f"HEAD^1:{rel}"], cwd=dest) + "\n", encoding="utf-8")
        notes.append(f"{rel}: the course's changes did not merge into your edits; yours is kept, the course's "
                     f"version is {theirs.name}")  # fmt: skip
    return notes


def pull(dest: Path = DEST, release: Path | None = None) -> list[str]:
    """nbgitpuller's pull of branch ``lessons`` of `release` into `dest`; returns its log lines."""
    try:
        from nbgitpuller.pull import GitPuller
    except ImportError as exc:
        raise StudentCopyError("nbgitpuller is not installed in this environment (it is in requirements.lock): "
                               "run `make venv`") from exc  # fmt: skip
    dest = Path(dest)
    release = Path(release) if release is not None else release_for(dest)
    if not (release / "HEAD").exists():
        raise StudentCopyError(f"{release} holds no release of the course: publish one first (`make lab` does)")
    existed = check_copy(dest, release)
    before = _head(dest) if existed else ""
    if dest.is_dir() and not existed:
        dest.rmdir()  # empty: nbgitpuller clones into a folder that does not exist
    puller = GitPuller(_release_url(release), str(dest), branch=BRANCH, depth=1)
    try:
        lines = [line.rstrip("\n") for line in puller.pull()]
    except subprocess.CalledProcessError as exc:
        raise StudentCopyError(f"nbgitpuller could not update {dest}: `{' '.join(exc.cmd)}` failed; your files are "
                               "as they were, committed in its git history") from exc  # fmt: skip
    exclude = dest / ".git" / "info" / "exclude"
    if ".ipynb_checkpoints/" not in exclude.read_text():
        with exclude.open("a") as f:
            f.write(".ipynb_checkpoints/\n")
    if existed:
        lines += _repair_merges(dest, before)
    return lines


def update(dest: Path = DEST, release: Path | None = None, notebooks: Path = NOTEBOOKS, *,
           solutions: bool = True) -> list[str]:  # fmt: skip
    """Publish the course's lessons, then pull them into `dest` (made the first time)."""
    release = Path(release) if release is not None else release_for(dest)
    check_copy(dest, release)  # before anything is written
    publish(release, notebooks, solutions=solutions)
    return pull(dest, release)


def find_lesson(dest: Path, lesson: str) -> Path:
    """The lesson of the copy that `lesson` names: ``03``, ``03_hyperplane_updates`` or its file name."""
    tracked = [Path(p) for p in _git(["ls-files", "-z", "--", "*.ipynb"], cwd=dest).split("\0") if p]
    stem = lesson.removesuffix(".ipynb")
    found = [p for p in tracked if p.parent == Path(".") and (p.stem == stem or p.stem.split("_")[0] == stem)]
    if len(found) != 1:
        names = ", ".join(p.stem for p in tracked if p.parent == Path("."))
        raise StudentCopyError(f"no lesson {lesson!r} in {dest}; name one of: {names} (e.g. `make reset NB=03`)")
    return dest / found[0]


def reset(lesson: str, dest: Path = DEST, release: Path | None = None, notebooks: Path | None = NOTEBOOKS, *,
          solutions: bool = True, now: _dt.datetime | None = None) -> tuple[Path, Path]:  # fmt: skip
    """Lesson `lesson` as the course has it now; the student's copy renamed beside it. Returns (lesson, old copy).

    Close the lesson's tab in JupyterLab first: an open tab would save its old cells over the new copy.
    """
    dest = Path(dest)
    release = Path(release) if release is not None else release_for(dest)
    if not check_copy(dest, release):
        raise StudentCopyError(f"there is no course copy in {dest} yet: `make lab` makes it")
    path = find_lesson(dest, lesson)
    if notebooks is not None:
        publish(release, notebooks, solutions=solutions)
    old = _beside(path, _stamp(now)) if path.exists() else None
    if old is not None:
        path.rename(old)
    pull(dest, release)  # nbgitpuller restores a deleted lesson from the course
    return path, old


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", type=Path, default=DEST, help="the student's copy (default: my-course/)")
    parser.add_argument(
        "--release", type=Path, help="the release it is pulled from (default: .NAME-source.git beside it)"
    )
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="the course's lessons (default: notebooks/)")
    parser.add_argument("--no-solutions", action="store_true", help="publish the lessons without solutions/")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update", help="make the copy the first time, else merge the course's changes into it")
    sub.add_parser("pull", help="only pull the published release (the hub runs this as the student)")
    r = sub.add_parser("reset", help="a lesson as the course has it; the old copy is kept beside it")
    r.add_argument("lesson", help="03, 03_hyperplane_updates or 03_hyperplane_updates.ipynb")
    args = parser.parse_args(argv)
    solutions = not args.no_solutions
    args.release = args.release or release_for(args.dest)
    try:
        if args.command == "update":
            first = not check_copy(args.dest, args.release)
            lines = update(args.dest, args.release, args.notebooks, solutions=solutions)
            print(f"your copy of the course: {args.dest}" + (" (made now)" if first else " (updated)"))
            for line in lines:
                if "Renamed" in line or "did not merge" in line:
                    print(line)
        elif args.command == "pull":
            print("\n".join(pull(args.dest, args.release)))
        else:
            path, old = reset(args.lesson, args.dest, args.release, args.notebooks, solutions=solutions)
            print(f"{path.name} is the course's version again" + (f"; your old copy is {old.name}" if old else ""))
    except StudentCopyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(_main())
