"""How long nbval takes over the whole course, against the floor that no notebook can go below.

(a) the course: ``pytest --nbval notebooks --nbval-sanitize-with tests/nbval_sanitize.cfg``, as
    ``make test`` runs it (every notebook, solutions included);
(b) the floor, in the same run: for each of those notebooks, a trivial notebook holding only
    its first code cell (the imports, the style, the seed), run the same way. That is a kernel
    start plus the imports, once per notebook.

Prints both wall times, the ratio, and the time of each notebook against its floor (from
pytest's JUnit XML: the sum of its cells' times, kernel start included).

Run: ``.venv/bin/python benchmarks/course_runtime.py``
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


def course_notebooks() -> list[Path]:
    return sorted(p for p in (REPO / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def first_cell_notebook(src: Path, dst: Path) -> None:
    nb = json.loads(src.read_text(encoding="utf-8"))
    first = next((c for c in nb["cells"] if c["cell_type"] == "code"), None)
    cells = []
    if first is not None:
        cells = [{**first, "outputs": [], "execution_count": 1, "metadata": {}}]
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
    with tempfile.TemporaryDirectory(prefix="bench-runtime-") as tmp:
        tmp = Path(tmp)
        floor_dir = tmp / "floor"
        for nb in notebooks:
            first_cell_notebook(nb, floor_dir / nb.relative_to(REPO / "notebooks"))
        # Warm the disk cache and matplotlib's font cache, so neither run pays for it.
        subprocess.run([sys.executable, "-c", "import matplotlib.pyplot, perceptron_lib"], cwd=REPO, check=False)
        floor_wall, floor_rc, floor_last = run_nbval(floor_dir, tmp / "floor.xml", ["--nbval-lax"])
        course_wall, course_rc, course_last = run_nbval(
            REPO / "notebooks", tmp / "course.xml", ["--nbval", "--nbval-sanitize-with", str(SANITIZE)]
        )
        course_each = per_notebook(tmp / "course.xml")
        floor_each = per_notebook(tmp / "floor.xml")

    n = len(notebooks)
    print(f"nbval over the course: {n} notebooks (solutions included)")
    print(f"  course  pytest --nbval notebooks:           {course_wall:6.1f} s wall   [{course_last}]")
    print(f"  floor   kernel start + first cell, x {n}:  {floor_wall:6.1f} s wall   [{floor_last}]")
    print(f"  ratio course / floor: {course_wall / floor_wall:.2f}; "
          f"above the floor: {course_wall - floor_wall:.1f} s")  # fmt: skip
    print("  per notebook (sum of its cells' times, kernel start included): course / floor")
    for nb in notebooks:
        name = nb.name
        c, f = course_each.get(name, float("nan")), floor_each.get(name, float("nan"))
        print(f"    {nb.relative_to(REPO).as_posix():58s} {c:6.2f} s / {f:5.2f} s")
    if course_rc != 0:
        print(f"  note: the course run failed (pytest exit {course_rc}); the time is still the time taken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
