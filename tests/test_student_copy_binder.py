"""binder/start gives a Binder session the same copy of the lessons as `make lab` and `make hub`.

repo2docker runs ``binder/start`` at every start of the image, before the server, which it then becomes
(``exec "$@"``). The test runs it from the repository with the copy in a temporary folder (``COURSE_COPY``)
and ``python -c`` in place of the server: the lessons are copied without the solutions, a second start keeps a
lesson the student edited, and a folder that is not a course copy is left alone while the server starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
START = ROOT / "binder" / "start"


def _start(copy: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "REPO_DIR": str(ROOT), "COURSE_COPY": str(copy),
           "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}  # fmt: skip
    return subprocess.run(["bash", str(START), sys.executable, "-c", "import os; print('server in', os.getcwd())"],
                          env=env, capture_output=True, text=True, timeout=120)  # fmt: skip


def test_binder_start_makes_the_students_copy_then_starts_the_server(tmp_path):
    copy = tmp_path / "my-course"
    done = _start(copy)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f"server in {ROOT}"), done.stdout  # exec'd, in the repository
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(p.name for p in copy.glob("*.ipynb")) == lessons
    assert not (copy / "solutions").exists(), "the copy holds no solutions"
    # the student edits lesson 00; the next start (a restart of the image on a kept home) keeps the edit
    nb = nbformat.read(copy / "00_start_here.ipynb", as_version=4)
    nb.cells[0].source = "# My notes"
    nbformat.write(nb, copy / "00_start_here.ipynb")
    done = _start(copy)
    assert done.returncode == 0, done.stderr
    assert nbformat.read(copy / "00_start_here.ipynb", as_version=4).cells[0].source == "# My notes"


def test_binder_start_leaves_a_folder_that_is_not_a_copy_and_still_starts(tmp_path):
    copy = tmp_path / "my-course"
    copy.mkdir()
    (copy / "thesis.txt").write_text("mine", encoding="utf-8")
    done = _start(copy)
    assert done.returncode == 0 and "server in" in done.stdout, done.stderr
    assert "is not a course copy" in done.stderr and "notebooks/ open instead" in done.stderr
    assert sorted(p.name for p in copy.iterdir()) == ["thesis.txt"]
