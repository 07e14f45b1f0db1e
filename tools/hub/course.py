"""What each login brings into a user's home: the course's lessons, updated as ``make lab`` updates a copy.

The hub (jupyterhub_config.py) publishes two releases of the course (tools/student_copy.py's
``publish``: the lessons as a commit on branch ``lessons`` of a bare repository) in ``.hub/``:

* ``release-students.git``, the lessons only (their solutions too when the instructor chose
  ``SOLUTIONS=1``), readable by everyone;
* ``release-instructor.git``, the lessons and their solutions, readable by root and the
  instructor's group only.

Before each start of a user's server (its ``pre_spawn_hook``) the hub publishes again (a commit only
when a lesson changed) and runs ``python -m tools.student_copy pull`` *as that user* (their uid, gid
and no other group), so nbgitpuller's merge brings a corrected lesson into ``~/perceptron-course``
and never overwrites one the student has edited, exactly as ``make lab`` does with ``my-course/``.
The pull runs in the students' venv, from the repository's root (``tools/`` is readable by all;
``notebooks/solutions`` and ``.git`` are not, see tools/hub/setup.py).

Given the students' Python (``python=``), a release's lessons carry that Python's version in
``metadata.language_info.version``, the line JupyterLab writes from the kernel when a lesson opens: with
the version the lessons were saved with (the course's venv) there instead, every lesson opened on the hub
would be marked modified at once, and saved as edited. JupyterLab leaves metadata equal to what it would
write untouched, so with this version a lesson opens unmodified.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from tools import student_copy

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
HUB_DIR = ROOT / ".hub"
#: The folder in each user's home (the hub opens lesson 00 in it).
COURSE_DIR = "perceptron-course"


def release_path(audience: str, hub_dir: Path = HUB_DIR) -> Path:
    """The release repository of ``"students"`` or ``"instructor"``."""
    if audience not in ("students", "instructor"):
        raise ValueError(f"audience must be 'students' or 'instructor'; got {audience!r} instead")
    return Path(hub_dir) / f"release-{audience}.git"


def publish_releases(instructor_gid: int, *, solutions_for_students: bool = False, hub_dir: Path = HUB_DIR,
                     notebooks: Path = NOTEBOOKS, python: Path | None = None) -> dict[str, Path]:  # fmt: skip
    """Publish both releases (a commit only when a lesson changed) and set who may read them.

    One publish at a time (a lock file in `hub_dir`): the hub's logins and ``make hub-release`` write the same
    release repositories. With `python` (the students' kernels' Python), the lessons released carry its version
    in ``language_info`` (the module's docstring says why).
    """
    Path(hub_dir).mkdir(parents=True, exist_ok=True)
    with open(Path(hub_dir) / ".publish.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if python is None:
            return _publish(instructor_gid, solutions_for_students, Path(hub_dir), Path(notebooks))
        with tempfile.TemporaryDirectory(prefix="course-release-") as tmp:
            saved_as = kernel_copy(Path(notebooks), Path(tmp) / "notebooks", python_version(python))
            return _publish(instructor_gid, solutions_for_students, Path(hub_dir), saved_as)


@functools.lru_cache(maxsize=8)
def python_version(python: Path) -> str:
    """The version `python`'s kernel reports as ``language_info.version`` (ipykernel: ``sys.version``'s first word)."""
    proc = subprocess.run([str(python), "-c", "import sys; print(sys.version.split()[0])"], capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    return proc.stdout.strip()


def with_kernel_version(text: str, version: str) -> str:
    """A notebook's text with ``metadata.language_info.version`` set to `version`, every other byte as it was."""
    info = json.loads(text).get("metadata", {}).get("language_info", {})
    if "version" not in info or info["version"] == version:
        return text
    start = text.rfind('"language_info"')  # the notebook's metadata comes last; a quote inside a string is escaped
    found = re.compile(r'"version": "(?:[^"\\]|\\.)*"').search(text, start)
    return text[: found.start()] + f'"version": {json.dumps(version)}' + text[found.end() :]


def kernel_copy(notebooks: Path, dest: Path, version: str) -> Path:
    """The lessons and solutions of `notebooks` copied into `dest` with `version` as their kernel's version."""
    for rel in student_copy.release_files(notebooks, solutions=True):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        text = (notebooks / rel).read_text(encoding="utf-8")
        (dest / rel).write_text(with_kernel_version(text, version), encoding="utf-8")
    return dest


def _publish(instructor_gid: int, solutions_for_students: bool, hub_dir: Path, notebooks: Path) -> dict[str, Path]:
    releases = {}
    for audience, solutions in (("students", solutions_for_students), ("instructor", True)):
        release = release_path(audience, hub_dir)
        student_copy.publish(release, notebooks, solutions=solutions)
        for path in [release, *release.rglob("*")]:
            if audience == "students":
                path.chmod(0o755 if path.is_dir() else 0o644)
            else:
                os.chown(path, 0, instructor_gid)
                path.chmod(0o750 if path.is_dir() else 0o640)
        config = gitconfig_for(release)
        config.write_text(f"[safe]\n\tdirectory = {release.resolve()}\n")
        config.chmod(0o644)
        releases[audience] = release
    return releases


def gitconfig_for(release: Path) -> Path:
    """``RELEASE.gitconfig`` beside `release`: the git settings of a pull from it (its ``safe.directory``)."""
    release = Path(release).resolve()
    return release.with_name(release.name + ".gitconfig")


def pull_as(user: str, release: Path, python: Path, *, home: Path | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:  # fmt: skip
    """``python -m tools.student_copy pull`` into ``~user/perceptron-course``, run as `user` alone."""
    import pwd

    entry = pwd.getpwnam(user)
    home = Path(home or entry.pw_dir)
    env = {
        "HOME": str(home),
        "USER": user,
        "PATH": f"{Path(python).parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        # git refuses a repository its user does not own unless a global or system setting names it safe
        # (not `-c` or GIT_CONFIG_COUNT: git clears those for the local transport); the release is root's
        "GIT_CONFIG_GLOBAL": str(gitconfig_for(release)),
    }
    cmd = [str(python), "-m", "tools.student_copy", "--dest", str(home / COURSE_DIR), "--release", str(release),
           "pull"]  # fmt: skip
    return subprocess.run(cmd, cwd=ROOT, env=env, user=entry.pw_uid, group=entry.pw_gid, extra_groups=[],
                          capture_output=True, text=True, timeout=timeout)  # fmt: skip
