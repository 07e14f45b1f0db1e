"""The student's own copy (tools/student_copy.py): made once, updated by nbgitpuller's merge, reset.

Each test builds a small course of its own (lessons 00 and 03 and a solution) in a temporary folder,
publishes it and pulls it into a copy, then plays a student and a course update. The rules checked
are nbgitpuller's (nbgitpuller 1.3.0, ``nbgitpuller/pull.py``, ``GitPuller.update``):
``merge -Xours`` keeps the student's lines where both sides changed a lesson, ``reset_deleted_files``
restores a deleted lesson, ``rename_local_untracked`` renames a student's file that a new lesson
would overwrite.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import subprocess
import sys

import nbformat
import pytest

from tools import student_copy as sc
from tools.student_copy import StudentCopyError


def _lesson(title: str, answer: str = "answer = ...") -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(f"# {title}\n\nThe prose of the lesson."),
        nbformat.v4.new_code_cell("import numpy as np\nx = np.arange(3)"),
        nbformat.v4.new_markdown_cell("Some more prose, between the code and the exercise.\n\nA second paragraph."),
        nbformat.v4.new_markdown_cell("## Exercises\n\nReplace the `...`."),
        nbformat.v4.new_code_cell(answer),
        nbformat.v4.new_markdown_cell("**Next:** [03](03_hyperplane_updates.ipynb)"),
    ]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    return nb


def _write(path, nb) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _read(path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _digest(folder) -> dict:
    """Every file of `folder` but its git history: {relative path: sha256}."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(folder).parts
    }


@pytest.fixture
def course(tmp_path):
    """A course (notebooks/), its release and a student's copy pulled from it."""
    nbs = tmp_path / "course" / "notebooks"
    _write(nbs / "00_start_here.ipynb", _lesson("00 Start here"))
    _write(nbs / "03_hyperplane_updates.ipynb", _lesson("03 Hyperplane updates"))
    _write(nbs / "solutions" / "03_hyperplane_updates_solutions.ipynb", _lesson("03 solutions", "answer = 42"))
    (nbs / "INSTRUCTORS.md").write_text("not a lesson")
    paths = {"notebooks": nbs, "release": tmp_path / "release.git", "dest": tmp_path / "my-course"}
    sc.update(paths["dest"], paths["release"], nbs)
    return paths


def _update(course, **kw):
    return sc.update(course["dest"], course["release"], course["notebooks"], **kw)


def test_the_first_update_copies_the_lessons_and_leaves_the_course_as_it_was(tmp_path):
    nbs = tmp_path / "notebooks"
    _write(nbs / "00_start_here.ipynb", _lesson("00"))
    _write(nbs / "solutions" / "00_start_here_solutions.ipynb", _lesson("00 solutions"))
    before = _digest(nbs)
    sc.update(tmp_path / "copy", tmp_path / "rel.git", nbs)
    sc.update(tmp_path / "copy-nosol", tmp_path / "rel-nosol.git", nbs, solutions=False)
    assert _digest(nbs) == before, "the course's own files were not written"
    assert sorted(_digest(tmp_path / "copy")) == ["00_start_here.ipynb", "solutions/00_start_here_solutions.ipynb"]
    assert _digest(tmp_path / "copy")["00_start_here.ipynb"] == before["00_start_here.ipynb"]
    assert sorted(p.name for p in (tmp_path / "copy-nosol").iterdir() if p.name != ".git") == ["00_start_here.ipynb"]
    out = subprocess.run(["git", "-C", str(tmp_path / "rel-nosol.git"), "log", "--all", "--name-only",
                          "--format="], capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "solutions" not in out, "a release without solutions holds none in its history"


def test_an_update_keeps_the_students_edits_updates_untouched_lessons_and_adds_new_ones(course):
    dest, nbs = course["dest"], course["notebooks"]
    mine = _read(dest / "03_hyperplane_updates.ipynb")
    mine.cells[4].source = "answer = 0.25  # my answer"
    _write(dest / "03_hyperplane_updates.ipynb", mine)
    # the course corrects lesson 00 (untouched by the student), the prose of lesson 03, and adds lesson 04
    fixed00 = _lesson("00 Start here, corrected")
    _write(nbs / "00_start_here.ipynb", fixed00)
    fixed03 = _read(nbs / "03_hyperplane_updates.ipynb")
    fixed03.cells[0].source = "# 03 Hyperplane updates\n\nThe corrected prose."
    _write(nbs / "03_hyperplane_updates.ipynb", fixed03)
    _write(nbs / "04_margin_bound.ipynb", _lesson("04 Margin bound"))
    _update(course)
    assert (dest / "00_start_here.ipynb").read_bytes() == (nbs / "00_start_here.ipynb").read_bytes()
    assert (dest / "04_margin_bound.ipynb").read_bytes() == (nbs / "04_margin_bound.ipynb").read_bytes()
    merged = _read(dest / "03_hyperplane_updates.ipynb")  # a valid notebook (nbformat reads it)
    assert merged.cells[4].source == "answer = 0.25  # my answer", "the student's answer survived"
    assert merged.cells[0].source == "# 03 Hyperplane updates\n\nThe corrected prose.", "the course's fix merged in"
    # a second update with nothing new changes nothing
    before = _digest(dest)
    _update(course)
    assert _digest(dest) == before


def test_where_both_changed_the_same_lines_the_students_win(course):
    """nbgitpuller merges with ``-Xours``: a conflicting hunk keeps the student's side."""
    dest, nbs = course["dest"], course["notebooks"]
    mine = _read(dest / "03_hyperplane_updates.ipynb")
    mine.cells[4].source = "answer = 'mine'"
    _write(dest / "03_hyperplane_updates.ipynb", mine)
    theirs = _read(nbs / "03_hyperplane_updates.ipynb")
    theirs.cells[4].source = "answer = ...  # a new hint from the course"
    _write(nbs / "03_hyperplane_updates.ipynb", theirs)
    _update(course)
    assert _read(dest / "03_hyperplane_updates.ipynb").cells[4].source == "answer = 'mine'"


def test_a_students_file_in_the_way_of_a_new_lesson_is_renamed_not_overwritten(course):
    """nbgitpuller's ``rename_local_untracked``: the student's file gets a ``__<time>`` suffix."""
    dest, nbs = course["dest"], course["notebooks"]
    (dest / "04_margin_bound.ipynb").write_text("my own notes")
    _write(nbs / "04_margin_bound.ipynb", _lesson("04 Margin bound"))
    _update(course)
    assert _read(dest / "04_margin_bound.ipynb").cells[0].source.startswith("# 04 Margin bound")
    kept = [p for p in dest.glob("04_margin_bound__*.ipynb")]
    assert len(kept) == 1 and kept[0].read_text() == "my own notes", kept


def test_a_deleted_lesson_comes_back_at_the_next_update(course):
    dest = course["dest"]
    (dest / "00_start_here.ipynb").unlink()
    _update(course)
    assert (dest / "00_start_here.ipynb").read_bytes() == (course["notebooks"] / "00_start_here.ipynb").read_bytes()


def test_reset_keeps_the_old_copy_beside_the_course_version(course):
    dest, nbs = course["dest"], course["notebooks"]
    mine = _read(dest / "03_hyperplane_updates.ipynb")
    mine.cells[4].source = "answer = 'mine, to keep'"
    _write(dest / "03_hyperplane_updates.ipynb", mine)
    _update(course)  # the edit is now in the copy's history too (nbgitpuller commits it)
    at = dt.datetime(2026, 11, 26, 17, 0)
    path, old = sc.reset("03", course["dest"], course["release"], nbs, now=at)
    assert old.name == "03_hyperplane_updates-2026-11-26T1700.ipynb"
    assert _read(old).cells[4].source == "answer = 'mine, to keep'"
    assert path.read_bytes() == (nbs / "03_hyperplane_updates.ipynb").read_bytes()
    # a second reset in the same minute takes the next free name; the first backup stays
    _, old2 = sc.reset("03_hyperplane_updates.ipynb", course["dest"], course["release"], nbs, now=at)
    assert old2.name == "03_hyperplane_updates-2026-11-26T1700-2.ipynb" and old.exists()
    # a reset lesson is untouched again: the course's next correction reaches it
    fixed = _lesson("03 Hyperplane updates, corrected")
    _write(nbs / "03_hyperplane_updates.ipynb", fixed)
    _update(course)
    assert path.read_bytes() == (nbs / "03_hyperplane_updates.ipynb").read_bytes()


def test_a_reset_of_a_lesson_that_does_not_exist_says_so_and_changes_nothing(course):
    before = _digest(course["dest"])
    with pytest.raises(StudentCopyError, match=r"no lesson '09' in .*name one of: 00_start_here, 03_hyperplane"):
        sc.reset("09", course["dest"], course["release"], course["notebooks"])
    with pytest.raises(StudentCopyError, match="no lesson 'solutions/03"):
        sc.reset("solutions/03_hyperplane_updates_solutions", course["dest"], course["release"], course["notebooks"])
    assert _digest(course["dest"]) == before


def test_a_folder_that_is_not_a_course_copy_is_refused_and_kept(course, tmp_path):
    other = tmp_path / "homework"
    (other / "sub").mkdir(parents=True)
    (other / "sub" / "essay.ipynb").write_text("{}")
    (other / "notes.txt").write_text("mine")
    before = _digest(other)
    with pytest.raises(StudentCopyError, match=r"homework is not a course copy \(it is not a git clone"):
        sc.update(other, course["release"], course["notebooks"])
    with pytest.raises(StudentCopyError, match="homework is not a course copy"):
        sc.reset("03", other, course["release"], course["notebooks"])
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    subprocess.run(["git", "-C", str(other), "remote", "add", "origin", "https://example.org/x.git"], check=True)
    with pytest.raises(StudentCopyError, match="pulled from https://example.org/x.git"):
        sc.update(other, course["release"], course["notebooks"])
    assert _digest(other) == before
    # the command line: exit code 2 and the message on stderr
    proc = subprocess.run([sys.executable, "-m", "tools.student_copy", "--dest", str(other), "--release",
                           str(course["release"]), "--notebooks", str(course["notebooks"]), "update"],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2 and "is not a course copy" in proc.stderr, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "tools.student_copy", "--dest", str(course["dest"]), "--release",
                           str(course["release"]), "--notebooks", str(course["notebooks"]), "reset", "7"],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2 and "no lesson '7'" in proc.stderr, proc.stderr


def test_a_course_folder_with_no_lessons_is_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(StudentCopyError, match="no lessons NN_topic.ipynb in .*empty"):
        sc.update(tmp_path / "copy", tmp_path / "rel.git", tmp_path / "empty")
    assert not (tmp_path / "copy").exists()


def _git(dest, *args, input=None) -> str:
    return subprocess.run(["git", "-C", str(dest), *args], input=input, capture_output=True, text=True,
                          check=True, env={**os.environ, **sc._AUTHOR}).stdout.strip()  # fmt: skip


def test_a_merge_that_leaves_a_lesson_unreadable_keeps_the_students_version(course):
    """git merges a lesson line by line: if the result is not a notebook, the student's version is put back.

    git's merge of two JSON edits is JSON in every case tried, so the merge commit is made by hand here:
    the student's commit S, and a merge of S with the course whose lesson 03 is not JSON.
    """
    dest, nbs = course["dest"], course["notebooks"]
    before = _git(dest, "rev-parse", "HEAD")
    mine = _read(dest / "03_hyperplane_updates.ipynb")
    mine.cells[4].source = "answer = 'mine'"
    _write(dest / "03_hyperplane_updates.ipynb", mine)
    _git(dest, "commit", "-qam", "the student's edit")
    student = _git(dest, "rev-parse", "HEAD")
    theirs = _lesson("03 Hyperplane updates, corrected")
    _write(nbs / "03_hyperplane_updates.ipynb", theirs)
    sc.publish(course["release"], nbs)
    _git(dest, "fetch", "-q")
    name = "03_hyperplane_updates.ipynb"
    broken = (dest / name).read_text().replace('"cells": [', '"cells": [[', 1)
    blob = _git(dest, "hash-object", "-w", "--stdin", input=broken)
    rows = [
        f"100644 blob {blob}\t{name}" if row.endswith(f"\t{name}") else row
        for row in _git(dest, "ls-tree", "HEAD").splitlines()
    ]
    tree = _git(dest, "mktree", input="\n".join(rows) + "\n")
    merge = _git(dest, "commit-tree", tree, "-p", student, "-p", f"origin/{sc.BRANCH}", "-m", "a merge")
    _git(dest, "reset", "-q", "--hard", merge)
    notes = sc._repair_merges(dest, before)
    assert _read(dest / "03_hyperplane_updates.ipynb").cells[4].source == "answer = 'mine'", notes
    kept = list(dest.glob("03_hyperplane_updates-course-*.ipynb"))
    assert len(kept) == 1 and _read(kept[0]).cells[0].source.startswith("# 03 Hyperplane updates, corrected")
    assert "yours is kept" in notes[0]
    assert sc._repair_merges(dest, _git(dest, "rev-parse", "HEAD")) == [], "no merge made now: nothing to repair"


def test_the_command_line_makes_a_copy_and_its_release_beside_it(tmp_path):
    nbs = tmp_path / "notebooks"
    _write(nbs / "00_start_here.ipynb", _lesson("00"))
    argv = [sys.executable, "-m", "tools.student_copy", "--dest", str(tmp_path / "my-course"), "--notebooks", str(nbs)]
    first = subprocess.run([*argv, "update"], capture_output=True, text=True)
    again = subprocess.run([*argv, "update"], capture_output=True, text=True)
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    assert "(made now)" in first.stdout and "(updated)" in again.stdout
    assert (tmp_path / ".my-course-source.git" / "HEAD").exists() and (
        tmp_path / "my-course" / "00_start_here.ipynb"
    ).exists()
    reset = subprocess.run([*argv, "reset", "00"], capture_output=True, text=True)
    assert reset.returncode == 0 and "your old copy is 00_start_here-" in reset.stdout, reset.stderr
