"""The student release as a git branch, for nbgitpuller links: the repository without ``notebooks/solutions``.

nbgitpuller pulls a whole branch into each student's home. Students get the lessons only when the
link names a branch that holds no solutions; this makes one from a commit, without touching the
working tree or the index (a temporary index, ``git commit-tree``, ``git update-ref``)::

    python -m tools.hub.student_branch                  # branch "students" from HEAD
    git push origin students                            # then hand out the nbgitpuller link with branch=students

``--with-solutions`` keeps them (the instructor chooses to hand them out). Each run adds one commit
on top of the branch, so students' nbgitpuller merges stay simple.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = "notebooks/solutions"


def _git(args, repo: Path, env=None) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"error: git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout.strip()


def make_branch(repo: Path = ROOT, *, branch: str = "students", rev: str = "HEAD", solutions: bool = False) -> str:
    """Commit `rev`'s tree (less notebooks/solutions unless `solutions`) onto `branch`; returns the commit."""
    source = _git(["rev-parse", "--verify", f"{rev}^{{commit}}"], repo)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        _git(["read-tree", source], repo, env)
        if not solutions:
            _git(["rm", "--cached", "-r", "-q", "--ignore-unmatch", SOLUTIONS], repo, env)
        tree = _git(["write-tree"], repo, env)
    parent = subprocess.run(["git", "rev-parse", "--verify", "-q", f"refs/heads/{branch}"], cwd=repo,
                            capture_output=True, text=True).stdout.strip()  # fmt: skip
    what = "with the solutions" if solutions else "without notebooks/solutions"
    args = ["commit-tree", tree, "-m", f"{branch}: the course at {source[:12]}, {what}"]
    commit = _git(args + (["-p", parent] if parent else []), repo)
    _git(["update-ref", f"refs/heads/{branch}", commit], repo)
    return commit


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--branch", default="students", help="the branch to make or move (default: students)")
    parser.add_argument("--rev", default="HEAD", help="the commit to release (default: HEAD)")
    parser.add_argument("--with-solutions", action="store_true", help="keep notebooks/solutions in the release")
    args = parser.parse_args(argv)
    commit = make_branch(branch=args.branch, rev=args.rev, solutions=args.with_solutions)
    print(f"{args.branch} is now {commit[:12]}; push it (git push origin {args.branch}) and name it in the "
          "nbgitpuller link (branch=...)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
