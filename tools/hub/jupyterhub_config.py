"""JupyterHub for a class on one machine: `make hub` (README, "For instructors").

Started from the repository's root as ``python -m jupyterhub -f tools/hub/jupyterhub_config.py``
(as root: the hub starts each student's server as that student's own system user). Everything
listens on 127.0.0.1 only; put a TLS reverse proxy in front to open it to a class network.

* Users: ``.hub/users.json`` (written by ``python -m tools.hub.setup``): the students, and the
  instructor, who is the hub's admin (sees and stops everyone's servers in /hub/admin and the REST
  API). Nobody else may log in.
* Authenticator: PAM (the default): each user logs in with their system password, set by the
  set-up (``.hub/passwords.txt``). ``COURSE_HUB_AUTH=dummy`` takes JupyterHub's DummyAuthenticator
  instead, with one shared password ``COURSE_HUB_PASSWORD`` for a trial on 127.0.0.1 only. A real
  class should use its institution's single sign-on (OAuthenticator: GitHub, Google, Azure AD,
  generic OIDC, or LTI from the learning platform) so that nobody hands out or resets passwords,
  and accounts end with the course.
* Spawner: LocalProcessSpawner, each student's ``jupyterhub-singleuser`` runs as that student
  (home 0700: another student's kernel cannot read it), in ``.hub/venv`` (the lock's versions, the
  library installed as a package). It does not cap memory: on one machine,
  watch it (benchmarks/class_load.py measures a student's share); Kubernetes (Zero to JupyterHub)
  sets per-user limits.
* Each login: the course is published (a commit only when a lesson changed) and pulled into
  ``~/perceptron-course`` by nbgitpuller's merge, run as the user (tools/hub/course.py,
  tools/student_copy.py): made at the first login, a corrected lesson reaches every student who has
  not edited it, and an edited one is never overwritten. Students pull a release without
  ``solutions/`` (unless ``COURSE_HUB_SOLUTIONS=1``); the instructor's has them. The course's own
  solutions, INSTRUCTORS.md and .git are closed to everyone but their owner (tools/hub/setup.py).
* JupyterLab's settings are the course's (tools/jupyter/lab/overrides.json: no news pop-up, no
  update check), as in ``make lab``.
* State (users.json, database, cookie secret, pids) in ``COURSE_HUB_DIR`` (default ``.hub/state``). Student
  servers keep running across a hub restart (``cleanup_servers = False``).

Environment: ``COURSE_HUB_PORT`` (8000, the public port; ``make hub HUB_PORT=``), ``COURSE_HUB_API_PORT``
(8081, the hub's own API: a second hub on one machine needs another; the hub stops at once, naming a free one,
when it is taken), ``COURSE_HUB_PROXY_API_PORT`` (8001), ``COURSE_HUB_DIR``, ``COURSE_HUB_AUTH``,
``COURSE_HUB_SOLUTIONS``, ``COURSE_HUB_NOTEBOOKS`` (the lessons to publish, default notebooks/),
``COURSE_HUB_RELEASE_DIR`` (where the releases go, default .hub/), ``COURSE_HUB_SERVICE_TOKEN`` (if set,
a service ``course-monitor`` with
this token may list users and servers and manage users' tokens: the tests and
benchmarks/class_load.py use it).
"""

import asyncio
import json
import os
import pwd
import socket
import subprocess
import sys
import threading
from pathlib import Path

from tools.hub import course
from tools.hub.setup import PROXY_BIN, STATE_DIR, STUDENT_VENV
from tools.student_copy import StudentCopyError

c = get_config()  # noqa: F821 (JupyterHub's config loader provides it)

ROOT = Path(__file__).resolve().parents[2]
HUB_DIR = Path(os.environ.get("COURSE_HUB_DIR", STATE_DIR)).resolve()
USERS = json.loads((HUB_DIR / "users.json").read_text()) if (HUB_DIR / "users.json").exists() else None
if USERS is None:
    sys.exit(f"error: {HUB_DIR / 'users.json'} is missing: run `make hub-setup` (python -m tools.hub.setup) first")
if not (STUDENT_VENV / "bin" / "jupyterhub-singleuser").exists():
    sys.exit(f"error: {STUDENT_VENV} is missing: run `make hub-setup` to build the students' venv")
if not PROXY_BIN.exists():
    sys.exit(f"error: {PROXY_BIN} is missing: run `make hub-setup` to install configurable-http-proxy from npm")



def _taken(port: int) -> bool:
    """True when 127.0.0.1:`port` cannot be bound (as the hub binds it: address reuse on)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


port = int(os.environ.get("COURSE_HUB_PORT", "8000"))
c.JupyterHub.bind_url = f"http://127.0.0.1:{port}"
c.JupyterHub.hub_ip = "127.0.0.1"
# The hub's own API port stays the same from one start to the next (not a new free port each time): the students'
# servers outlive a restart (cleanup_servers = False) and keep calling the hub where they were told it is.
c.JupyterHub.hub_port = int(os.environ.get("COURSE_HUB_API_PORT", "8081"))
if _taken(c.JupyterHub.hub_port):
    sys.exit(f"error: the hub's API port 127.0.0.1:{c.JupyterHub.hub_port} is taken (another hub on this machine?): "
             f"start this one on another, e.g. COURSE_HUB_API_PORT={_free_port()} COURSE_HUB_PROXY_API_PORT="
             f"{_free_port()} make hub HUB_PORT={_free_port()}")  # fmt: skip
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(os.environ.get('COURSE_HUB_PROXY_API_PORT', '8001'))}"
c.ConfigurableHTTPProxy.command = [str(PROXY_BIN)]
c.ConfigurableHTTPProxy.pid_file = str(HUB_DIR / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{HUB_DIR / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(HUB_DIR / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(HUB_DIR / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = False  # a hub restart leaves the students' servers (and kernels) running

# ---- who may log in -------------------------------------------------------------------------
instructor = USERS["instructor"]
c.Authenticator.allowed_users = set(USERS["students"]) | {instructor}
c.Authenticator.admin_users = {instructor}
if os.environ.get("COURSE_HUB_AUTH", "pam") == "dummy":
    password = os.environ.get("COURSE_HUB_PASSWORD", "")
    if len(password) < 8:
        sys.exit("error: COURSE_HUB_AUTH=dummy needs a shared password of 8 or more characters in COURSE_HUB_PASSWORD")
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = password
else:
    c.JupyterHub.authenticator_class = "pam"
    c.PAMAuthenticator.open_sessions = False  # no login session (utmp, systemd-logind) per server

# ---- each student's server --------------------------------------------------------------------
venv_bin = STUDENT_VENV / "bin"  # readable by every user, the library installed as a package
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [str(venv_bin / "jupyterhub-singleuser")]
c.Spawner.default_url = f"/lab/tree/{course.COURSE_DIR}/00_start_here.ipynb"
c.Spawner.notebook_dir = "~"
c.Spawner.environment = {"PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin"}
# the course's JupyterLab settings: the app settings folder holding its overrides.json (readable by all)
c.Spawner.args = [f"--LabApp.app_settings_dir={ROOT / 'tools' / 'jupyter' / 'lab'}"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
SOLUTIONS = os.environ.get("COURSE_HUB_SOLUTIONS", "0") == "1"
INSTRUCTOR_GID = pwd.getpwnam(instructor).pw_gid


#: The lessons published and where the releases go (the hub test gives a copy and a folder of its own).
NOTEBOOKS = Path(os.environ.get("COURSE_HUB_NOTEBOOKS", course.NOTEBOOKS))
RELEASE_DIR = Path(os.environ.get("COURSE_HUB_RELEASE_DIR", course.HUB_DIR))


def _publish():
    return course.publish_releases(INSTRUCTOR_GID, solutions_for_students=SOLUTIONS, hub_dir=RELEASE_DIR,
                                   notebooks=NOTEBOOKS, python=STUDENT_VENV / "bin" / "python")  # fmt: skip


_publish()  # at start: a course that cannot be published stops the hub here, not at a login


_PUBLISHING = threading.Lock()  # one publish at a time: two logins at once write the same release repositories


def _update_course(name: str, log) -> None:
    """Publish the course, then nbgitpuller's pull into `name`'s home, run as `name` (blocking: in a thread)."""
    with _PUBLISHING:
        release = _publish()["instructor" if name == instructor else "students"]
    proc = course.pull_as(name, release, STUDENT_VENV / "bin" / "python")
    if proc.returncode == 0:
        log.info("the course is up to date in %s's home", name)
    else:
        log.warning("the course could not be updated in %s's home: %s", name, proc.stderr.strip()[-2000:])


async def update_course_at_login(spawner):
    """pre_spawn_hook: publish the course, then nbgitpuller's pull into the user's home, run as the user.

    The git work runs in a thread: the hub keeps answering (other logins, the servers already running,
    their calls back to the hub) while a pull takes its seconds. A publish or pull that fails (a
    ``~/perceptron-course`` that is not a course copy, a time-out) is logged with its reason and the
    server starts all the same: the user's files are as they were.
    """
    name = spawner.user.name
    try:
        await asyncio.to_thread(_update_course, name, spawner.log)
    except (OSError, subprocess.SubprocessError, ValueError, StudentCopyError) as exc:
        spawner.log.warning("the course could not be updated in %s's home: %r", name, exc)


c.Spawner.pre_spawn_hook = update_course_at_login

# ---- a read-only view for the tests and the load benchmark ---------------------------------
service_token = os.environ.get("COURSE_HUB_SERVICE_TOKEN")
if service_token:
    c.JupyterHub.services = [{"name": "course-monitor", "api_token": service_token}]
    c.JupyterHub.load_roles = [{
        "name": "course-monitor",
        "scopes": ["list:users", "read:users", "read:servers", "servers", "tokens"],
        "services": ["course-monitor"],
    }]  # fmt: skip
