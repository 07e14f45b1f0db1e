"""What a user's first login puts into their home: the lessons, and the solutions only if chosen.

The hub's ``pre_spawn_hook`` (jupyterhub_config.py) calls `copy_course` before each start of a
user's server. It copies only when the user's course folder does not exist yet, so a student's
saved work is never overwritten; a student who wants a lesson back renames or deletes their copy.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
#: The folder in each user's home (the hub opens lesson 00 in it).
COURSE_DIR = "perceptron-course"


def release_files(notebooks: Path = NOTEBOOKS, *, solutions: bool = False) -> list[Path]:
    """The notebooks a user gets, relative to `notebooks`: the lessons, and ``solutions/`` if asked."""
    files = sorted(p.relative_to(notebooks) for p in notebooks.glob("[0-9][0-9]_*.ipynb"))
    if not files:
        raise FileNotFoundError(f"no lessons NN_topic.ipynb in {notebooks}")
    if solutions:
        files += sorted(p.relative_to(notebooks) for p in (notebooks / "solutions").glob("*.ipynb"))
    return files


def copy_course(home: Path, uid: int, gid: int, *, solutions: bool = False, notebooks: Path = NOTEBOOKS) -> bool:
    """Copy the release into ``home/perceptron-course``, owned by uid:gid; False if it was there already."""
    dest = Path(home) / COURSE_DIR
    if dest.exists():
        return False
    files = release_files(notebooks, solutions=solutions)
    tmp = Path(home) / f".{COURSE_DIR}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    for rel in files:
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(notebooks / rel, tmp / rel)
    for path in [tmp, *tmp.rglob("*")]:
        os.chown(path, uid, gid)
        path.chmod(0o700 if path.is_dir() else 0o600)
    tmp.rename(dest)  # all or nothing: a half copy never looks like a finished one
    return True
