"""What students get: the lessons without the solutions, on every road (site, hub, nbgitpuller, Binder).

* ``make site`` (``tools.build_site``, audience student by default) has no solution page and no
  link to one; ``make site AUDIENCE=instructor`` has both.
* The hub's releases (tools/hub/course.py): the students' holds the lessons, and the solutions only
  when asked; the instructor's holds both and only the instructor's group may read it.
* ``tools.hub.student_branch`` makes a branch without ``notebooks/solutions`` for nbgitpuller,
  without touching the working tree.
* ``binder/`` is what repo2docker needs: the lock, a Python the lock supports, a postBuild that
  installs the library with ``pip install .``.
"""

from __future__ import annotations

import os
import re
import subprocess
import types
from pathlib import Path

import pytest

from tools import build_site, course_export
from tools.hub import course, student_branch

ROOT = Path(__file__).resolve().parent.parent
LESSONS = [p.name for p in course_export.lessons(ROOT / "notebooks")]
SOLUTIONS = sorted(p.name for p in (ROOT / "notebooks" / "solutions").glob("*.ipynb"))


def test_there_are_lessons_and_solutions():
    assert LESSONS and SOLUTIONS


def test_make_site_is_the_student_release_and_instructor_adds_the_solutions(tmp_path, capsys):
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^AUDIENCE\s*\?=\s*student$", makefile, re.MULTILINE)
    assert "--audience $(AUDIENCE)" in makefile
    assert build_site.main(["--out", str(tmp_path / "s"), "--style", "saved"]) == 0
    assert "for students, no solutions" in capsys.readouterr().out
    assert not list((tmp_path / "s").rglob("*solutions*.html"))
    assert "solutions" not in (tmp_path / "s" / "index.html").read_text()
    assert build_site.main(["--out", str(tmp_path / "i"), "--style", "saved", "--audience", "instructor"]) == 0
    pages = sorted(p.name for p in (tmp_path / "i" / "solutions").glob("*.html"))
    assert pages == [n.replace(".ipynb", ".html") for n in SOLUTIONS]
    assert 'href="solutions/' in (tmp_path / "i" / "index.html").read_text()


def test_the_hub_publishes_lessons_to_students_and_solutions_to_the_instructor_only(tmp_path):
    def files(release):
        out = subprocess.run(["git", f"--git-dir={release}", "log", "--all", "--name-only", "--format="],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        return sorted(set(out.split()))

    gid = os.getgid()
    releases = course.publish_releases(gid, hub_dir=tmp_path)
    assert files(releases["students"]) == LESSONS
    assert files(releases["instructor"]) == LESSONS + [f"solutions/{n}" for n in SOLUTIONS]
    assert releases["students"].stat().st_mode & 0o005 == 0o005, "every student may read the students' release"
    assert releases["instructor"].stat().st_mode & 0o007 == 0, "others may not enter the instructor's release"
    with_solutions = course.publish_releases(gid, hub_dir=tmp_path / "sol", solutions_for_students=True)
    assert files(with_solutions["students"]) == files(releases["instructor"])
    with pytest.raises(ValueError, match="audience must be 'students' or 'instructor'; got 'teachers'"):
        course.release_path("teachers", tmp_path)


def test_the_student_branch_has_no_solutions_and_leaves_the_working_tree_alone(tmp_path):
    repo = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(repo)], check=True)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout
    first = student_branch.make_branch(repo)
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", "students"], cwd=repo, capture_output=True,
                           text=True, check=True).stdout.split()  # fmt: skip
    assert not [f for f in files if f.startswith("notebooks/solutions/")]
    assert all(f"notebooks/{n}" in files for n in LESSONS)
    assert subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout == status
    with_sol = student_branch.make_branch(repo, solutions=True)
    parent = subprocess.run(["git", "rev-parse", f"{with_sol}^"], cwd=repo, capture_output=True, text=True).stdout
    assert parent.strip() == first, "each release is one commit on top of the last (pulls stay fast-forward)"
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", "students"], cwd=repo, capture_output=True,
                           text=True, check=True).stdout.split()  # fmt: skip
    assert [f for f in files if f.startswith("notebooks/solutions/")]


def test_binder_folder_is_what_repo2docker_needs():
    binder = ROOT / "binder"
    reqs = [line.strip() for line in (binder / "requirements.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]  # fmt: skip
    assert reqs == ["-r ../requirements.lock"], reqs
    assert (binder / reqs[0].split()[1]).resolve() == ROOT / "requirements.lock"
    runtime = (binder / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.1[0-3]", runtime), runtime
    post = binder / "postBuild"
    assert os.access(post, os.X_OK), "repo2docker runs postBuild only if it is executable"
    text = post.read_text()
    assert text.startswith("#!/bin/bash") and "set -euo pipefail" in text
    installs = re.search(r"^pip install --no-deps (--no-cache-dir )?\.$", text, re.MULTILINE)
    assert installs, "postBuild installs the library with pip install ."
    assert (ROOT / "notebooks" / "00_start_here.ipynb").is_file()


def _binder_default_url(folder):
    """The page JupyterLab opens on Binder: postBuild's server config run in ``folder`` (the server's root)."""
    text = (ROOT / "binder" / "postBuild").read_text()
    config = re.search(r"<<'PY'\n(.*?)\nPY$", text, re.DOTALL | re.MULTILINE)
    assert config, "postBuild writes the server's config as a heredoc <<'PY' ... PY"
    c = types.SimpleNamespace(ServerApp=types.SimpleNamespace())
    cwd = os.getcwd()
    try:
        os.chdir(folder)
        exec(config.group(1), {"c": c})
    finally:
        os.chdir(cwd)
    return c.ServerApp.default_url


def test_binder_opens_lesson_00_of_the_students_copy_or_else_of_the_course(tmp_path):
    # binder/start makes my-course/ (the student's copy, where their work is saved) before the server starts;
    # if it could not, the course's own notebooks/ open instead, never a page that is not there
    assert "tools.student_copy" in (ROOT / "binder" / "start").read_text()
    assert _binder_default_url(tmp_path) == "/lab/tree/notebooks/00_start_here.ipynb"
    (tmp_path / "my-course").mkdir()
    assert _binder_default_url(tmp_path) == "/lab/tree/notebooks/00_start_here.ipynb"
    (tmp_path / "my-course" / "00_start_here.ipynb").write_text("{}")
    assert _binder_default_url(tmp_path) == "/lab/tree/my-course/00_start_here.ipynb"


@pytest.mark.parametrize("needle", ["mybinder.org/v2/gh/", "git-pull?repo=", "branch=students", "make hub"])
def test_readme_gives_the_binder_and_nbgitpuller_links_and_the_hub(needle):
    readme = (ROOT / "README.md").read_text()
    part = readme.split("## For instructors", 1)[1].split("\n## ", 1)[0]
    assert needle in part, f"README's 'For instructors' does not mention {needle!r}"
