"""`pip install .` (not editable) gives a working perceptron_lib and puts nothing else into site-packages.

The test copies the tracked files (what a clean clone has, with this working tree's edits), builds
the wheel there, installs it with ``--no-deps`` into a new venv, and checks that the venv's
site-packages gained only ``perceptron_lib`` and its ``dist-info`` (no ``tests``, no ``tools``).
Then, from a temporary folder outside the repository, it runs lesson 00 from the top in a kernel of
that venv (nbclient) and steps its player there.

The dependencies are not downloaded again: the new venv reads the project venv's site-packages
(the versions of requirements.lock) through one ``.pth`` line, which comes after its own
site-packages, so ``import perceptron_lib`` finds the installed wheel, and the test checks that it
does. Building the wheel needs setuptools>=69 in pip's isolated build environment (pip's cache or
PyPI); about 20 s in all.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "00_start_here.ipynb"
#: What a bare venv holds before the install (pip, and setuptools on older Pythons).
BARE = {"pip", "setuptools", "_distutils_hack", "pkg_resources", "distutils-precedence.pth", "__pycache__",
        "README.txt"}
DEPS_PTH = "course_deps_from_project_venv.pth"


def _run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    what = f"{' '.join(map(str, cmd))} failed ({proc.returncode})"
    assert proc.returncode == 0, f"{what}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _is_bare(name: str) -> bool:
    stem = name.split("-")[0]
    return name in BARE or stem in {"pip", "setuptools"} and name.endswith(".dist-info")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "clone"
    files = _run(["git", "ls-files", "-z"], cwd=ROOT).stdout.split("\0")
    for rel in filter(None, files):
        if (ROOT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    wheels = tmp / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, src])
    (wheel,) = wheels.glob("perceptron_course-*.whl")

    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    before = {p.name for p in site.iterdir()}
    _run([py, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel])
    after = {p.name for p in site.iterdir()}
    # the dependencies: the project venv's site-packages, after the new venv's own
    (site / DEPS_PTH).write_text(sysconfig.get_paths()["purelib"] + "\n")
    return {"tmp": tmp, "python": py, "site": site, "added": sorted(after - before), "before": before}


def test_the_wheel_installs_only_perceptron_lib(installed):
    added = installed["added"]
    assert not [n for n in installed["before"] if not _is_bare(n)], installed["before"]
    top = sorted(n for n in added if n != "__pycache__")
    assert top == ["perceptron_course-0.1.0.dist-info", "perceptron_lib"], (
        f"`pip install .` put {top} into site-packages; only perceptron_lib and its dist-info belong there "
        "(pyproject.toml, [tool.setuptools.packages.find] include)"
    )
    top_level = installed["site"] / "perceptron_course-0.1.0.dist-info" / "top_level.txt"
    if top_level.exists():
        assert top_level.read_text().split() == ["perceptron_lib"]


def test_lesson_00_runs_and_its_player_steps_from_another_folder(installed):
    work = installed["tmp"] / "student"
    work.mkdir()
    shutil.copy2(LESSON, work / LESSON.name)
    script = textwrap.dedent(
        f"""
        import json, sys
        import nbformat
        from nbclient import NotebookClient

        nb = nbformat.read({LESSON.name!r}, as_version=4)
        check = '''
        import json, perceptron_lib
        from perceptron_lib.player import BrowserPlayer
        players = [v for v in Out.values() if isinstance(v, BrowserPlayer)]  # the players the lesson's cells show
        p = players[0]
        k0, before = p.k, list(p.lines(p.k))
        p.k = k0 + 1  # what the browser sets when the student steps
        print(json.dumps({{"file": perceptron_lib.__file__, "players": len(players), "k0": k0, "k1": p.k,
                          "before": before, "after": list(p.lines(p.k))}}))
        '''
        nb.cells.append(nbformat.v4.new_code_cell(check))
        NotebookClient(nb, timeout=120, kernel_name="python3", resources={{"metadata": {{"path": "."}}}}).execute()
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        if errors:
            sys.exit("lesson 00 failed: " + errors[0]["ename"] + ": " + errors[0]["evalue"])
        print(nb.cells[-1].outputs[-1]["text"].strip().splitlines()[-1])
        """
    )
    env = {"PATH": f"{installed['python'].parent}:/usr/bin:/bin", "HOME": str(installed["tmp"])}
    out = _run([installed["python"], "-c", script], cwd=work, env=env, timeout=300).stdout
    res = json.loads(out.strip().splitlines()[-1])
    assert Path(res["file"]).is_relative_to(installed["site"]), (
        f"the kernel imported perceptron_lib from {res['file']}, not from the installed wheel in {installed['site']}"
    )
    assert res["players"] >= 1
    assert res["k1"] == res["k0"] + 1, res
    assert res["after"] != res["before"], "the player's readout did not change after a step"
