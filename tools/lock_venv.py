"""Build a venv with exactly the pins of requirements.lock, quickly, and only when the lock changed.

    python3 -m tools.lock_venv .venv                                # the course's venv (editable library)
    python3 -m tools.lock_venv .venv-3.12 --python python3.12       # another Python, same lock
    python3 -m tools.lock_venv .hub/venv --python /usr/bin/python3 --no-project

Runs on the standard library alone (``make venv`` calls it with a bare ``python3``).

* **Keyed on the lock.** ``VENV/.installed`` holds a key: the hash of requirements.lock and
  pyproject.toml, the target Python's version and path, and this builder's version. A matching key
  means nothing to do (a second or so); any change re-syncs the venv.
* **uv.** The pins are installed by uv (a binary in a wheel on PyPI, pinned in the lock like every
  other package): ``uv pip install -r`` into a new venv, ``uv pip sync`` into an existing one (it
  removes what the lock no longer has). The venv then holds exactly the lock's packages for this
  Python and pip, nothing more (uv reads no pip.conf: only the lock's pins, from PyPI). uv keeps every wheel in its
  cache (``~/.cache/uv``, or ``$UV_CACHE_DIR``) and links it into a new venv: a fresh clone's
  ``make venv`` took 15 s once the cache held the lock (40-60 s when bytecode is compiled, below)
  and 80 s with an empty cache, against 145 s for ``pip install -r requirements.lock`` (2 cores,
  shared with other work; tests/README.md). After ``sync`` pip is put back with ``ensurepip`` (the
  interpreter's own, as ``python -m venv`` seeds it): tests/test_install.py builds a wheel with it.
* **Where uv comes from.** The running interpreter's uv if it has one (``.venv`` does, once built);
  else it is installed with pip into the new venv first (the lock's pin). Where no uv wheel fits
  the machine, the venv is built with ``pip install -r requirements.lock`` instead, with a note.
* **Bytecode** is compiled at install time (about 35 s) only where Python would not write it itself:
  when ``PYTHONDONTWRITEBYTECODE`` is set (a venv without ``.pyc`` files re-parses every module at every
  start: a kernel's imports took 2.5x as long), or with ``--compile`` (the hub's students cannot write
  into the root-owned venv). Otherwise each module is compiled on its first import, once.

The library goes in editable (``pip install -e .``: the venv runs this clone's code) unless
``--no-project``: tools/hub/setup.py installs it as a package itself.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
#: Bumped when the way a venv is built changes, so that every venv built the old way is re-synced.
BUILDER_VERSION = 1
STAMP = ".installed"


def _run(cmd: list[str], **kw) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise SystemExit(f"error: `{' '.join(map(str, cmd))}` failed ({proc.returncode}):\n"
                         f"{(proc.stdout + proc.stderr)[-3000:]}")  # fmt: skip


def python_identity(python: str) -> dict:
    """The target interpreter's version and real path (a venv is tied to both)."""
    code = "import json, os, sys; print(json.dumps([sys.version, os.path.realpath(sys.executable)]))"
    out = subprocess.run([python, "-c", code], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"error: cannot run the Python {python!r}: {out.stderr.strip()[-500:]}")
    version, exe = json.loads(out.stdout)
    return {"version": version, "executable": exe}


def lock_key(python: str, *, project: bool) -> str:
    """What a venv built from the lock for `python` depends on, as one hex digest."""
    h = hashlib.sha256()
    for name in ("requirements.lock", "pyproject.toml"):
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    h.update(json.dumps([python_identity(python), project, BUILDER_VERSION]).encode())
    return h.hexdigest()


def uv_pin() -> str | None:
    """The lock's uv version (one pin for every Python), or None."""
    m = re.search(r"^uv==([^\s;]+)", LOCK.read_text(), flags=re.MULTILINE)
    return m.group(1) if m else None


def _uv_command(venv_python: Path) -> list[str] | None:
    """How to run uv: the running interpreter's, else one installed into the new venv; None: no uv here."""
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv"]
    pin = uv_pin()
    spec = f"uv=={pin}" if pin else "uv"
    proc = subprocess.run([str(venv_python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", spec],
                          capture_output=True, text=True)  # fmt: skip
    if proc.returncode != 0:
        print(f"note: uv could not be installed ({proc.stderr.strip()[-300:]}); building with pip instead", flush=True)
        return None
    return [str(venv_python), "-m", "uv"]


def _same_python(venv: Path, identity: dict) -> bool:
    py = venv / "bin" / "python"
    if not py.exists():
        return False
    try:
        return python_identity(str(py))["version"] == identity["version"]
    except SystemExit:
        return False


def build(venv: Path, python: str = sys.executable, *, project: bool = True, compile_bytecode: bool | None = None,
          quiet: bool = False) -> Path:
    """`venv` holding exactly the lock's pins for `python` (and the library, editable, if `project`).

    Returns the venv's python. Does nothing when the venv's key matches (see the module's docstring).
    """
    venv = Path(venv).absolute()
    key = lock_key(python, project=project)
    stamp = venv / STAMP
    venv_python = venv / "bin" / "python"
    if stamp.is_file() and stamp.read_text().strip() == key and venv_python.exists():
        os.utime(stamp)  # make compares times: the venv is up to date with the lock
        return venv_python
    identity = python_identity(python)
    if not quiet:
        print(f"==> {venv.name}: building from requirements.lock for Python {identity['version'].split()[0]}",
              flush=True)  # fmt: skip
    fresh = not _same_python(venv, identity)
    if fresh:  # a venv is tied to its interpreter: start again
        _run([python, "-m", "venv", "--clear", str(venv)])
    stamp.unlink(missing_ok=True)
    uv = _uv_command(venv_python)
    if uv is not None:
        env = {**os.environ, "VIRTUAL_ENV": str(venv)}
        env.pop("PIP_CONSTRAINT", None)
        if compile_bytecode is None:
            compile_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
        compile_flag = ["--compile-bytecode"] if compile_bytecode else []
        if fresh:  # a new venv holds only what `python -m venv` seeds (pip): install the lock beside it
            _run([*uv, "pip", "install", "--quiet", "--python", str(venv_python), *compile_flag, "-r", str(LOCK)],
                 env=env)  # fmt: skip
        else:  # exactly the lock: sync removes what the lock no longer has, pip too (not in the lock) ...
            _run([*uv, "pip", "sync", "--quiet", "--python", str(venv_python), *compile_flag, str(LOCK)], env=env)
            # ... so the interpreter's own pip goes back, as `python -m venv` seeds it
            _run([str(venv_python), "-m", "ensurepip", "--default-pip"])
        if project:
            _run([*uv, "pip", "install", "--quiet", "--python", str(venv_python), "--no-deps", "-e", str(ROOT)],
                 env=env)  # fmt: skip
    else:
        pip = [str(venv_python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        _run([*pip, "-r", str(LOCK)])
        if project:
            _run([*pip, "--no-deps", "-e", str(ROOT)])
    stamp.write_text(key + "\n")
    return venv_python


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("venv", type=Path, help="the venv's folder (created if missing)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to build it on (default: this one)")
    parser.add_argument("--no-project", action="store_true", help="leave the library out (the hub installs it)")
    parser.add_argument("--compile", action="store_true", default=None,
                        help="compile bytecode at install (default: only when PYTHONDONTWRITEBYTECODE is set)")
    args = parser.parse_args(argv)
    python = shutil.which(args.python) or args.python
    build(args.venv, python, project=not args.no_project, compile_bytecode=args.compile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
