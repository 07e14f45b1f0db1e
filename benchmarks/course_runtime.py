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

Runs (b), its first-cell variant and (a) side by side, one of each per round, and prints the
median wall times, both ratios (each round's too), and the time of each notebook against its
floor (from pytest's JUnit XML: the sum of its cells' times, kernel start included).

Run: ``.venv/bin/python benchmarks/course_runtime.py [--rounds N]`` (about three minutes with
the default two rounds).
"""

from __future__ import annotations

import json
import os
import statistics
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
_MODULES_AFTER = "import json as _bench_json\nprint(_bench_json.dumps(sorted(set(_bench_sys.modules) - _bench_before)))"


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
    names = json.loads(text) if text.strip() else []
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


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=2,
                    help="alternate first-cell, floor and course runs this many times (default 2)")
    args = ap.parse_args(argv)
    notebooks = course_notebooks()
    if not notebooks:
        print("no notebooks in notebooks/", file=sys.stderr)
        return 2
    print("finding the imports of each notebook's later cells (one execution each) ...", flush=True)
    modules = {nb: later_imports(nb) for nb in notebooks}
    walls = defaultdict(list)
    each = defaultdict(lambda: defaultdict(list))
    course_rc, lasts = 0, {}
    with tempfile.TemporaryDirectory(prefix="bench-runtime-") as tmp:
        tmp = Path(tmp)
        for nb in notebooks:
            rel = nb.relative_to(REPO / "notebooks")
            floor_notebook(nb, tmp / "first" / rel, None)
            floor_notebook(nb, tmp / "floor" / rel, modules[nb])
        # Warm the disk cache and matplotlib's font cache, so no run pays for it.
        subprocess.run([sys.executable, "-c", "import matplotlib.pyplot, perceptron_lib"], cwd=REPO, check=False)
        runs = {
            "first": (tmp / "first", ["--nbval-lax"]),
            "floor": (tmp / "floor", ["--nbval-lax"]),
            "course": (REPO / "notebooks", ["--nbval", "--nbval-sanitize-with", str(SANITIZE)]),
        }
        for r in range(max(1, args.rounds)):
            for key, (target, extra) in runs.items():  # side by side: one of each per round
                wall, rc, lasts[key] = run_nbval(target, tmp / f"{key}.xml", extra)
                walls[key].append(wall)
                if key == "course":
                    course_rc = course_rc or rc
                for name, t in per_notebook(tmp / f"{key}.xml").items():
                    each[key][name].append(t)
            print(f"  round {r + 1}: course {walls['course'][-1]:.1f} s, floor {walls['floor'][-1]:.1f} s, "
                  f"first cells {walls['first'][-1]:.1f} s: ratio {walls['course'][-1] / walls['floor'][-1]:.2f} "
                  f"({walls['course'][-1] / walls['first'][-1]:.2f} against the first cells)", flush=True)

    def med(xs):
        return float(statistics.median(xs)) if xs else float("nan")

    n = len(notebooks)
    ratios = [c / f for c, f in zip(walls["course"], walls["floor"], strict=True)]
    ratios1 = [c / f for c, f in zip(walls["course"], walls["first"], strict=True)]
    print(f"nbval over the course: {n} notebooks (solutions included); median of {len(ratios)} rounds")
    print(f"  course  pytest --nbval notebooks:               {med(walls['course']):6.1f} s wall   [{lasts['course']}]")
    print(f"  floor   kernel start + all the imports, x {n}:  {med(walls['floor']):6.1f} s wall")
    print(f"          kernel start + first cell only, x {n}:  {med(walls['first']):6.1f} s wall")
    print(f"  ratio course / floor: {med(ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in ratios)}); "
          f"against the first cells only: {med(ratios1):.2f} ({', '.join(f'{x:.2f}' for x in ratios1)})")
    print("  per notebook (sum of its cells' times, kernel start included): course / floor / first cell only;"
          " later imports")
    for nb in notebooks:
        c, f, f1 = (med(each[key].get(nb.name, [])) for key in ("course", "floor", "first"))
        tops = sorted({m.split(".")[0] for m in modules[nb]} - {"IPython", "zmq"})
        tops = [t for t in tops if not t.startswith("_")]
        shown = ", ".join(tops[:6]) + (", ..." if len(tops) > 6 else "")
        print(f"    {nb.relative_to(REPO).as_posix():58s} {c:6.2f} / {f:5.2f} / {f1:5.2f} s;  {shown or '-'}")
    if course_rc != 0:
        print(f"  note: the course run failed (pytest exit {course_rc}); the time is still the time taken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
