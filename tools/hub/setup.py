"""Install what `make hub` needs: configurable-http-proxy from npm, and the class's system users.

Run as root from the repository's root (``make hub-setup`` does)::

    python -m tools.hub.setup --students 3 --instructor pc-instructor

* The proxy: ``npm install --prefix .hub/node configurable-http-proxy@PROXY_VERSION`` (the npm
  registry; needs ``npm``: ``apt-get install nodejs npm``). Nothing is fetched at run time: the hub
  runs ``.hub/node/node_modules/.bin/configurable-http-proxy``.
* The users: each student is a system user of their own (``useradd -m``, home mode 0700, no login
  shell: ``/usr/sbin/nologin``), so a student's kernel runs with that user's rights and cannot read
  another's files, and nobody logs in to the machine itself with a hub password. Each gets a random
  password (the hub's PAM login), written to ``.hub/passwords.txt`` (mode 0600, root only) for the
  instructor to hand out; an existing user keeps theirs unless ``--reset-passwords``.
  ``.hub/users.json`` lists the class for the hub's configuration (who may log in, who is admin).
  Both are in ``.hub/state`` (mode 0700).
* The instructor's material: ``notebooks/solutions``, ``notebooks/INSTRUCTORS.md``, ``.git`` (it holds
  every solution's history), ``_site-instructor`` and a local ``my-course`` copy lose every right of
  group and others (`protect_instructor_material`): students are served from the release without
  solutions (tools/hub/course.py) and cannot read these by path.
* ``--clean`` (``make hub-clean``) undoes it: stops what the class's users run, removes the users and
  their homes, the hub's state and its releases (`clean_class`); the proxy and the venv stay.
* The students' Python: ``.hub/venv``, a venv of ``/usr/bin/python3`` (a Python every user may
  run; the project's ``.venv`` may sit on an interpreter under root's home) with the pins of
  requirements.lock (``tools/lock_venv.py``: uv, seconds from its cache) and the library installed
  as a package (``pip install --no-deps .``, not editable). Re-synced when the lock, pyproject.toml
  or the interpreter change; when only the library changed, only the library is reinstalled.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import lock_venv

ROOT = Path(__file__).resolve().parents[2]
HUB_DIR = ROOT / ".hub"
#: The hub's own state: users.json, passwords.txt, the database, the cookie secret (root only).
STATE_DIR = HUB_DIR / "state"
PROXY_VERSION = "5.3.0"
PROXY_BIN = HUB_DIR / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORDS_FILE = STATE_DIR / "passwords.txt"


def _others_may_enter(path: Path) -> bool:
    return all(p.stat().st_mode & 0o001 for p in [path, *path.parents])


#: The students' servers and kernels run in this venv (see install_student_env): in .hub/ when every
#: user may reach this folder, else (a clone under root's home) in /opt; COURSE_HUB_VENV chooses.
STUDENT_VENV = Path(
    os.environ.get("COURSE_HUB_VENV")
    or (HUB_DIR / "venv" if _others_may_enter(ROOT)
        else Path("/opt/perceptron-course-hub") / hashlib.sha256(str(ROOT).encode()).hexdigest()[:12] / "venv")
)  # fmt: skip
STUDENT_PYTHON = Path(os.environ.get("COURSE_HUB_PYTHON", "/usr/bin/python3"))


def _require_root(what: str) -> None:
    if os.geteuid() != 0:
        raise SystemExit(f"error: {what} needs root (run `sudo make hub-setup`); this process runs as uid "
                         f"{os.geteuid()}")


def install_proxy(hub_dir: Path = HUB_DIR) -> Path:
    """configurable-http-proxy in ``hub_dir/node`` (npm); returns its executable.

    Kept while it is the version PROXY_VERSION names (a stamp beside it); else installed, from npm's
    cache (``--prefer-offline``: about 3 s once the cache holds it, as in CI's next run on this machine).
    """
    exe = hub_dir / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
    stamp = hub_dir / "node" / ".installed"
    if exe.exists() and stamp.is_file() and stamp.read_text() == PROXY_VERSION:
        return exe
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("error: npm is not installed; the hub's proxy comes from npm: apt-get install -y nodejs npm")
    (hub_dir / "node").mkdir(parents=True, exist_ok=True)
    cmd = [npm, "install", "--prefix", str(hub_dir / "node"), "--no-audit", "--no-fund", "--loglevel=error",
           "--prefer-offline", f"configurable-http-proxy@{PROXY_VERSION}"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not exe.exists():
        raise SystemExit(f"error: `{' '.join(cmd)}` failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    stamp.write_text(PROXY_VERSION)
    return exe


def _fingerprint(paths) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _copy_for_build(dest: Path) -> Path:
    """The files `pip install .` needs, copied, so that the build leaves nothing in the working tree."""
    for rel in ["pyproject.toml", "README.md", *(p.relative_to(ROOT) for p in (ROOT / "perceptron_lib").rglob("*"))]:
        src = ROOT / rel
        if src.is_file() and "__pycache__" not in src.parts:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / rel)
    return dest


def install_student_env(venv_dir: Path = STUDENT_VENV, python: Path = STUDENT_PYTHON) -> Path:
    """The students' venv: requirements.lock, then the library as a package; returns its bin folder.

    The pins through tools/lock_venv.py (uv: seconds from its cache; re-synced only when
    requirements.lock, pyproject.toml or the interpreter change), bytecode compiled (the students
    cannot write it into this root-owned venv); when only the library changed, only the library is
    reinstalled (a few seconds).
    """
    check = [str(python), "-c", "import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))"]
    if not (python.exists() and subprocess.run(check, capture_output=True).returncode == 0):
        raise SystemExit(f"error: {python} is missing, older than 3.10 or has no venv module; the students' venv "
                         "needs a Python every user may run: apt-get install -y python3 python3-venv, "
                         "or set COURSE_HUB_PYTHON")  # fmt: skip
    deps_stamp = venv_dir / lock_venv.STAMP
    before = deps_stamp.read_text() if deps_stamp.exists() else None
    lock_venv.build(venv_dir, str(python), project=False, compile_bytecode=True)
    lib = _fingerprint(sorted(p for p in (ROOT / "perceptron_lib").rglob("*") if p.is_file() and p.suffix != ".pyc"))
    lib_stamp = venv_dir / ".course-lib"
    if deps_stamp.read_text() == before and lib_stamp.exists() and lib_stamp.read_text() == lib:
        return venv_dir / "bin"
    pip = [str(venv_dir / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "install", "--quiet"]
    with tempfile.TemporaryDirectory() as tmp:
        src = _copy_for_build(Path(tmp) / "src")
        cmd = [*pip, "--no-deps", "--force-reinstall", str(src)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"error: `{' '.join(cmd)}` failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    subprocess.run(["chmod", "-R", "a+rX", str(venv_dir)], check=True)
    lib_stamp.write_text(lib)
    return venv_dir / "bin"


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


#: The class's accounts get no login shell: the hub starts their servers, nobody logs in to the machine.
NO_LOGIN = "/usr/sbin/nologin"
#: What only the instructor (and root) may read, relative to the repository's root.
INSTRUCTOR_ONLY = ["notebooks/solutions", "notebooks/INSTRUCTORS.md", ".git", "_site-instructor", "my-course",
                   ".my-course-source.git"]  # fmt: skip


def ensure_user(name: str, password: str | None = None) -> str | None:
    """Create system user `name` (home 0700, no login shell) if missing; set `password` if given.

    Returns the password set. An existing user of the class is given the no-login shell too.
    """
    _require_root("creating system users")
    if not user_exists(name):
        proc = subprocess.run(["useradd", "--create-home", "--shell", NO_LOGIN, "--comment", "perceptron course",
                               name], capture_output=True, text=True)  # fmt: skip
        if proc.returncode != 0:
            raise SystemExit(f"error: useradd {name} failed: {proc.stderr.strip()}")
    elif pwd.getpwnam(name).pw_shell != NO_LOGIN:
        subprocess.run(["usermod", "--shell", NO_LOGIN, name], check=True, capture_output=True)
    home = Path(pwd.getpwnam(name).pw_dir)
    home.chmod(0o700)
    if password is not None:
        proc = subprocess.run(["chpasswd"], input=f"{name}:{password}\n", capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"error: chpasswd for {name} failed: {proc.stderr.strip()}")
    return password


def setup_class(students: list[str], instructor: str, *, reset_passwords: bool = False,
                state_dir: Path = STATE_DIR) -> dict[str, str]:
    """Create the users, write users.json and passwords.txt into `state_dir`; returns {user: password}."""
    _require_root("creating system users")
    state_dir.mkdir(parents=True, exist_ok=True)
    state_dir.chmod(0o700)
    known = {}
    pw_file = state_dir / "passwords.txt"
    if pw_file.exists():
        known = dict(line.split(":", 1) for line in pw_file.read_text().splitlines() if ":" in line)
    for name in [*students, instructor]:
        if reset_passwords or name not in known or not user_exists(name):
            known[name] = secrets.token_urlsafe(12)
            ensure_user(name, known[name])
        else:
            ensure_user(name)
    pw_file.write_text("".join(f"{n}:{known[n]}\n" for n in [*students, instructor]))
    pw_file.chmod(0o600)
    (state_dir / "users.json").write_text(json.dumps({"students": students, "instructor": instructor}, indent=1) + "\n")
    protect_instructor_material()
    return {n: known[n] for n in [*students, instructor]}


def protect_instructor_material(root: Path = ROOT) -> list[Path]:
    """Remove group's and others' rights from each of `INSTRUCTOR_ONLY` that exists; returns them.

    A folder without rights for others cannot be entered, so nothing under it can be read by path.
    """
    done = []
    for rel in INSTRUCTOR_ONLY:
        path = root / rel
        if path.exists() and not path.is_symlink():
            path.chmod(path.stat().st_mode & 0o700)
            done.append(path)
    return done


def _stop_user(name: str) -> None:
    """SIGKILL every process of `name`, by pid (their servers and kernels)."""
    pids = subprocess.run(["ps", "-o", "pid=", "-u", name], capture_output=True, text=True).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), 9)
        except ProcessLookupError:
            continue  # it ended between ps and kill


def clean_class(state_dir: Path = STATE_DIR, hub_dir: Path = HUB_DIR) -> list[str]:
    """`make hub-clean`: stop and remove the class's users and their homes, the state and the releases.

    The users are those `state_dir`/users.json names (only accounts this set-up made: their comment is
    "perceptron course"). Returns the users removed. The proxy and the students' venv are kept.
    """
    _require_root("removing system users")
    users_file = Path(state_dir) / "users.json"
    if not users_file.exists():
        raise SystemExit(f"error: {users_file} is missing, so the class's users are unknown; nothing was removed "
                         "(remove users by hand with `userdel --remove NAME`)")  # fmt: skip
    users = json.loads(users_file.read_text())
    removed = []
    for name in [*users["students"], users["instructor"]]:
        if not user_exists(name):
            continue
        if pwd.getpwnam(name).pw_gecos.split(",")[0] != "perceptron course":
            print(f"hub-clean: {name} was not made by the course's set-up; kept")
            continue
        for _ in range(20):  # userdel refuses (exit 8) while a killed process has not ended yet
            _stop_user(name)
            proc = subprocess.run(["userdel", "--remove", name], capture_output=True, text=True)
            if proc.returncode != 8:
                break
            time.sleep(0.25)
        if proc.returncode not in (0, 12):  # 12: the home could not be removed (gone already)
            raise SystemExit(f"error: userdel --remove {name} failed: {proc.stderr.strip()}")
        removed.append(name)
    shutil.rmtree(state_dir)
    for release in Path(hub_dir).glob("release-*.git"):
        shutil.rmtree(release)
        release.with_name(release.name + ".gitconfig").unlink(missing_ok=True)
    return removed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=3, help="how many students (pc-student1 ... ); default 3")
    parser.add_argument("--prefix", default="pc-student", help="students' user names: PREFIX1, PREFIX2, ...")
    parser.add_argument("--instructor", default="pc-instructor", help="the instructor's user name (hub admin)")
    parser.add_argument("--reset-passwords", action="store_true", help="give every user a new password")
    parser.add_argument("--no-users", action="store_true", help="only the proxy and the students' venv (CI)")
    parser.add_argument("--clean", action="store_true",
                        help="remove the class's users, their homes, the hub's state and releases (make hub-clean)")
    args = parser.parse_args(argv)
    if args.clean:
        removed = clean_class()
        print(f"hub-clean: removed {', '.join(removed) or 'no users'} with their homes, and {STATE_DIR}")
        return 0
    exe = install_proxy()
    install_student_env()
    if args.no_users:
        print(f"hub-deps: proxy {exe}; students' Python {STUDENT_VENV}")
        return 0
    students = [f"{args.prefix}{i}" for i in range(1, args.students + 1)]
    setup_class(students, args.instructor, reset_passwords=args.reset_passwords)
    print(f"hub-setup: proxy {exe}; students' Python {STUDENT_VENV}; users {', '.join(students)} and "
          f"{args.instructor} (admin); passwords in {PASSWORDS_FILE} (root only)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
