"""Re-run every notebook on other code paths and check the saved outputs still hold.

    python tests/reproduce.py cpu                  # other CPU code paths, this Python
    python tests/reproduce.py pythons 3.10 3.12    # other Pythons, each with its own lock pins

A student's laptop, an Apple machine or a CI runner computes the last bits of a float
differently from the machine that saved the notebooks. nbval compares every cell's output with
the saved one, so each variant below must pass with the outputs exactly as saved:

cpu
    Two passes. ``OPENBLAS_CORETYPE=Prescott`` (OpenBLAS's SSE3 kernels: no AVX, no FMA) together
    with ``NPY_DISABLE_CPU_FEATURES`` set to every SIMD target numpy found on this CPU (numpy's
    own loops at their baseline): the two settings change different libraries, so one run
    checks both. Then ``OPENBLAS_CORETYPE=Sandybridge`` (AVX kernels, no FMA) with numpy as it
    is. Each setting is checked to have taken effect before a pass counts: a variable that is
    silently ignored would test nothing.
pythons
    A venv per Python in ``.venv-X.Y`` from ``requirements.lock`` (its markers pick that
    Python's numpy and scipy), built by ``tools/lock_venv.py`` (uv; reused while the lock and
    the interpreter are unchanged); the next Python's venv is built while the notebooks run on
    the one before. An interpreter is looked for as ``pythonX.Y`` on PATH, then under pyenv's
    versions folder; a missing one fails (set ``COURSE_ALLOW_MISSING_PYTHONS=1`` to skip it
    with a note instead).

Each nbval run uses ``COURSE_NBVAL_JOBS`` workers (pytest-xdist, one notebook per worker at a
time; default 1, ``make test`` passes its ``JOBS``).

Prints one closing line, ``reproduce: N passed, N failed``, and exits non-zero on a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NBVAL = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval", "notebooks",
         "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]  # fmt: skip

#: What a variant's child Python reports about itself, to check the variable took effect.
PROBE = """
import json
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
from threadpoolctl import threadpool_info
blas = [i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"]
print(json.dumps({"simd": [f for f in __cpu_dispatch__ if __cpu_features__[f]], "openblas": blas}))
"""


def _env(extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # kernels keep their inline backend
    env.update(extra)
    return env


def _probe(python: str, extra: dict) -> dict:
    out = subprocess.run([python, "-c", PROBE], env=_env(extra), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _jobs() -> list[str]:
    """pytest-xdist's options for COURSE_NBVAL_JOBS workers: each notebook whole on one worker, in order."""
    jobs = int(os.environ.get("COURSE_NBVAL_JOBS", "1") or 1)
    return ["-n", str(jobs), "--dist", "loadfile"] if jobs > 1 else []


def _nbval(python: str, extra: dict, label: str) -> bool:
    print(f"==> {label}: nbval on every notebook", flush=True)
    t0 = time.monotonic()
    ok = subprocess.run([python, *NBVAL, *_jobs()], cwd=REPO, env=_env(extra)).returncode == 0
    print(f"==> {label}: {'passed' if ok else 'FAILED'} in {time.monotonic() - t0:.0f} s", flush=True)
    return ok


def cpu_variants(python: str) -> list[tuple[str, dict, str | None]]:
    """(label, environment, why it does not take effect or None) for each CPU code path.

    OpenBLAS's kernels and numpy's own SIMD loops are different libraries: the first pass sets
    both (Prescott, SIMD off), the second another OpenBLAS core with numpy's SIMD on.
    """
    base = _probe(python, {})
    simd = base["simd"]
    out = []
    for core, simd_off in (("Prescott", True), ("Sandybridge", False)):
        extra = {"OPENBLAS_CORETYPE": core}
        if simd_off and simd:
            extra["NPY_DISABLE_CPU_FEATURES"] = " ".join(simd)
        got = _probe(python, extra)
        # OpenBLAS names its kernel set, not always as asked (Prescott reports "Katmai"): what
        # matters is that the kernels are not the default ones.
        why = [] if got["openblas"] and got["openblas"] != base["openblas"] else [
            f"OpenBLAS reports {got['openblas']}, the default {base['openblas']}"]
        if "NPY_DISABLE_CPU_FEATURES" in extra and got["simd"]:
            why.append(f"numpy still uses {got['simd']}")
        label = f"OpenBLAS {core}" + (f" + numpy SIMD off ({' '.join(simd)})" if "NPY_DISABLE_CPU_FEATURES" in extra
                                      else "")  # fmt: skip
        out.append((label, extra, "; ".join(why) or None))
    return out


def run_cpu(python: str) -> tuple[int, int]:
    passed = failed = 0
    for label, extra, why in cpu_variants(python):
        if why is not None:  # the variant would silently test the default path: that is a failure
            print(f"==> {label}: FAILED, the setting did not take effect: {why}")
            failed += 1
        elif _nbval(python, extra, label):
            passed += 1
        else:
            failed += 1
    return passed, failed


def find_python(version: str) -> str | None:
    """An interpreter that runs and is Python `version`: pyenv's own builds first, then PATH.

    pyenv's shims on PATH answer "command not found" for a version that is not active, so
    every candidate is run once before it is trusted.
    """
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [str(d / "bin" / f"python{version}") for d in sorted(root.glob(f"{version}.*"), reverse=True)]
    candidates.append(shutil.which(f"python{version}") or "")
    for exe in filter(None, candidates):
        try:
            out = subprocess.run([exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=60)
        except OSError:
            continue
        if out.returncode == 0 and out.stdout.strip() == version:
            return exe
    return None


def _venv(version: str, interpreter: str) -> str:
    """.venv-X.Y with the lock's pins for that Python (tools/lock_venv.py: kept while the lock is unchanged)."""
    venv = REPO / f".venv-{version}"
    subprocess.run([sys.executable, "-m", "tools.lock_venv", str(venv), "--python", interpreter], cwd=REPO, check=True)
    python = venv / "bin" / "python"
    # matplotlib's first import writes a font-cache note on stderr, which nbval would compare.
    subprocess.run([str(python), "-c", "import matplotlib.pyplot"], env=_env({"MPLBACKEND": "Agg"}), check=True)
    return str(python)


def run_pythons(versions: list[str]) -> tuple[int, int]:
    allow_missing = os.environ.get("COURSE_ALLOW_MISSING_PYTHONS") == "1"
    passed = failed = 0
    found = []
    for version in versions:
        interpreter = find_python(version)
        if interpreter is None:
            note = (f"python{version} not found on PATH or under pyenv; install it (e.g. `pyenv install "
                    f"{version}`) or set COURSE_ALLOW_MISSING_PYTHONS=1 to skip it")
            print(f"==> Python {version}: {'skipped' if allow_missing else 'FAILED'}: {note}")
            failed += not allow_missing
        else:
            found.append((version, interpreter))
    # One venv is built (mostly waiting on the disk and the network) while the notebooks run on the last one.
    with ThreadPoolExecutor(max_workers=1) as builder:
        venvs = [builder.submit(_venv, version, interpreter) for version, interpreter in found]
        for (version, _), venv in zip(found, venvs, strict=True):
            try:
                python = venv.result()
            except subprocess.CalledProcessError as exc:
                print(f"==> Python {version}: FAILED, its venv could not be built ({exc})")
                failed += 1
                continue
            if _nbval(python, {}, f"Python {version}"):
                passed += 1
            else:
                failed += 1
    return passed, failed


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("cpu", "pythons") or (argv[0] == "pythons" and len(argv) < 2):
        print(__doc__)
        return 2
    passed, failed = run_cpu(sys.executable) if argv[0] == "cpu" else run_pythons(argv[1:])
    print(f"reproduce: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
