"""How long nbval takes over the whole course, against the floor that no notebook can go below.

(a) the course: ``pytest --nbval notebooks --nbval-sanitize-with tests/nbval_sanitize.cfg``, as
    ``make test`` runs it (every notebook, solutions included);
(b) the floor, in the same run: a kernel start plus the imports, once per notebook. For each
    notebook a trivial notebook is run the same way, holding
      1. its first code cell (the imports, the style, the seed), and
      2. a cell importing every module that the notebook's later cells import on the way
         (``scipy.optimize`` under the max-margin solver, ``sklearn.datasets`` for the digits,
         and so on), found by executing the notebook once beforehand and diffing
         ``sys.modules``.
    The floor of step 1 alone is printed too: it leaves those later imports on the course's
    side of the ratio.

Prints the wall times, both ratios, and the time of each notebook against its floor (from
pytest's JUnit XML: the sum of its cells' times, kernel start included).

Run: ``.venv/bin/python benchmarks/course_runtime.py`` (about two minutes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SANITIZE = REPO / "tests" / "nbval_sanitize.cfg"

#: executed after a notebook's first cell and at its end, to see what the cells between imported
_MODULES_BEFORE = "import sys as _bench_sys\n_bench_before = set(_bench_sys.modules)"
_MODULES_AFTER = "print(sorted(set(_bench_sys.modules) - _bench_before))"


def course_notebooks() -> list[Path]:
    return sorted(p for p in (REPO / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _code_cell(source: str, n: int) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": n}


def later_imports(nb_path: Path) -> list[str]:
    """Modules the notebook imports after its first code cell (it is executed once, here)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(nb_path, as_version=4)
    first = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), None)
    if first is None:
        return []
    nb.cells.insert(first + 1, nbformat.v4.new_code_cell(_MODULES_BEFORE))
    nb.cells.append(nbformat.v4.new_code_cell(_MODULES_AFTER))
    env_backend = os.environ.pop("MPLBACKEND", None)  # kernels keep their inline backend
    try:
        NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(nb_path.parent)}}).execute()
    finally:
        if env_backend is not None:
            os.environ["MPLBACKEND"] = env_backend
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    names = json.loads(text.replace("'", '"')) if text.strip() else []
    return [m for m in names if not m.startswith("__")]  # __main__, __mp_main__: not importable by name


def floor_notebook(src: Path, dst: Path, modules: list[str] | None) -> None:
    """The first code cell of `src`, then (if `modules`) a cell importing them, written to `dst`."""
    nb = json.loads(src.read_text(encoding="utf-8"))
    first = next((c for c in nb["cells"] if c["cell_type"] == "code"), None)
    cells = []
    if first is not None:
        cells.append({**first, "outputs": [], "execution_count": 1, "metadata": {}})
    if modules:
        # a module that only exists as a side effect of its parent (e.g. an alias) cannot be
        # imported by name; the parent's import already paid for it
        cells.append(_code_cell(
            "import importlib\n"
            "import warnings\n"
            "with warnings.catch_warnings():\n"
            "    warnings.simplefilter('ignore')  # deprecated aliases warn when imported by name\n"
            f"    for name in {modules!r}:\n"
            "        try:\n"
            "            importlib.import_module(name)\n"
            "        except ImportError:\n"
            "            continue\n",
            2))
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps({**nb, "cells": cells, "metadata": {"kernelspec": nb["metadata"].get("kernelspec", {})}}))


def run_nbval(target: Path, junit: Path, extra: list[str]) -> tuple[float, int, str]:
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", *extra, str(target)]
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # kernels keep their inline backend
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    last = (res.stdout.strip().splitlines() or [""])[-1]
    return wall, res.returncode, last


def per_notebook(junit: Path) -> dict[str, float]:
    """Seconds per notebook file name; nbval's classname is the dotted path, e.g. notebooks.00_x.ipynb."""
    times: dict[str, float] = defaultdict(float)
    for case in ET.parse(junit).getroot().iter("testcase"):
        parts = case.get("classname", "").split(".")
        name = ".".join(parts[-2:]) if parts[-1] == "ipynb" else case.get("classname", "?")
        times[name] += float(case.get("time", 0))
    return dict(times)


def main() -> int:
    notebooks = course_notebooks()
    if not notebooks:
        print("no notebooks in notebooks/", file=sys.stderr)
        return 2
    print("finding the imports of each notebook's later cells (one execution each) ...", flush=True)
    modules = {nb: later_imports(nb) for nb in notebooks}
    with tempfile.TemporaryDirectory(prefix="bench-runtime-") as tmp:
        tmp = Path(tmp)
        for nb in notebooks:
            rel = nb.relative_to(REPO / "notebooks")
            floor_notebook(nb, tmp / "first" / rel, None)
            floor_notebook(nb, tmp / "floor" / rel, modules[nb])
        # Warm the disk cache and matplotlib's font cache, so no run pays for it.
        subprocess.run([sys.executable, "-c", "import matplotlib.pyplot, perceptron_lib"], cwd=REPO, check=False)
        first_wall, _, first_last = run_nbval(tmp / "first", tmp / "first.xml", ["--nbval-lax"])
        floor_wall, _, floor_last = run_nbval(tmp / "floor", tmp / "floor.xml", ["--nbval-lax"])
        course_wall, course_rc, course_last = run_nbval(
            REPO / "notebooks", tmp / "course.xml", ["--nbval", "--nbval-sanitize-with", str(SANITIZE)]
        )
        course_each = per_notebook(tmp / "course.xml")
        floor_each = per_notebook(tmp / "floor.xml")
        first_each = per_notebook(tmp / "first.xml")

    n = len(notebooks)
    print(f"nbval over the course: {n} notebooks (solutions included)")
    print(f"  course  pytest --nbval notebooks:                     {course_wall:6.1f} s wall   [{course_last}]")
    print(f"  floor   kernel start + all the imports, x {n}:        {floor_wall:6.1f} s wall   [{floor_last}]")
    print(f"          kernel start + first cell only, x {n}:        {first_wall:6.1f} s wall   [{first_last}]")
    print(f"  ratio course / floor: {course_wall / floor_wall:.2f}  (against the first cells only: "
          f"{course_wall / first_wall:.2f}); above the floor: {course_wall - floor_wall:.1f} s")  # fmt: skip
    print("  per notebook (sum of its cells' times, kernel start included): course / floor / first cell only;"
          " later imports")
    for nb in notebooks:
        name = nb.name
        c, f, f1 = (d.get(name, float("nan")) for d in (course_each, floor_each, first_each))
        tops = sorted({m.split(".")[0] for m in modules[nb]} - {"IPython", "zmq"})
        tops = [t for t in tops if not t.startswith("_")]
        shown = ", ".join(tops[:6]) + (", ..." if len(tops) > 6 else "")
        print(f"    {nb.relative_to(REPO).as_posix():58s} {c:6.2f} / {f:5.2f} / {f1:5.2f} s;  {shown or '-'}")
    if course_rc != 0:
        print(f"  note: the course run failed (pytest exit {course_rc}); the time is still the time taken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
