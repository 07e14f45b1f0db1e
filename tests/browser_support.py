"""Helpers for the browser tests: find Chromium, start a Jupyter server, launch the browser.

Used by the browser tests, the benchmarks and the instructor-mode tests, always under one name,
``tests.browser_support`` (pytest and ``python -m benchmarks.X`` both find it from the repository's root)::

    from playwright.sync_api import sync_playwright
    from tests.browser_support import jupyter_server, launch, require_browser

    require_browser()                      # skip (or fail under COURSE_REQUIRE_BROWSER=1)
    with jupyter_server("notebooks") as srv, sync_playwright() as pw:
        browser = launch(pw)
        page = browser.new_page()
        page.goto(srv.lab_url("00_start_here.ipynb"))

The browser tests share one server for the session, the fixture `course_lab_server` (import it into a test
module): JupyterLab over a `served_copy` of the notebooks, with a kernelspec per style preset (`kernel_name`,
``COURSE_STYLE`` in the kernel's environment)::

    from tests.browser_support import course_lab_server, kernel_name, open_and_run_all

    def test_x(course_lab_server, chromium):
        page = chromium.new_page()
        open_and_run_all(page, course_lab_server, "notebooks/03_hyperplane_updates.ipynb",
                         kernel=kernel_name("lecture"))

The browser is Debian's ``/usr/bin/chromium`` (``apt-get install chromium``), driven by the
Python ``playwright`` package. Never run ``playwright install``.

The server gets its own temporary settings and workspaces directories, with an
``overrides.json`` that turns notebook windowing off (JupyterLab >= 4.2 leaves off-screen cells
out of the page otherwise) and the news toast off. JupyterLab is started with
``--expose-app-in-browser`` so a test can call ``window.jupyterapp.commands.execute(...)``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Where Debian puts Chromium; looked for first.
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")

#: Flags measured to work headless on these machines (root, no GPU, no network needed).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

#: JupyterLab settings applied through overrides.json (the server gets empty user settings).
#: windowingMode "none": every cell is in the page (JupyterLab >= 4.2 drops off-screen cells);
#: scrollPastEnd off: no blank viewport-high padding after the last cell (whole-page screenshots);
#: no news toast; no autosave, so running a course notebook in a test never rewrites it.
#: JupyterLab's settings in the tests: exactly the ones `make lab` installs for students
#: (tools/jupyter/lab/overrides.json: no news toast, no update check), plus two for the tests
#: only: every cell stays in the page (no windowing), and nothing is autosaved.
LAB_OVERRIDES = {
    **json.loads((Path(__file__).resolve().parents[1] / "tools" / "jupyter" / "lab" / "overrides.json").read_text()),
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none", "scrollPastEnd": False},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}

REQUIRE_ENV = "COURSE_REQUIRE_BROWSER"


def served_copy(tmp: Path, *, source: str | os.PathLike | None = None) -> Path:
    """`tmp` made into a copy of the repository (or of `source`, a folder holding ``notebooks/``) whose
    notebooks/ (solutions included) have no saved outputs and whose other entries are links, so that a browser
    test sees what a student's fresh Run All makes, and never writes the real notebooks. Relative paths
    (``../docs/...``) still resolve through the links."""
    repo = Path(source).resolve() if source is not None else Path(__file__).resolve().parents[1]
    for entry in repo.iterdir():
        if entry.name not in {"notebooks", ".git", ".venv"}:
            (tmp / entry.name).symlink_to(entry)
    shutil.copytree(repo / "notebooks", tmp / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for nb in (tmp / "notebooks").rglob("*.ipynb"):
        content = json.loads(nb.read_text(encoding="utf-8"))
        for cell in content["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        nb.write_text(json.dumps(content, indent=1), encoding="utf-8")
    return tmp


#: The style presets a lesson is checked in (perceptron_lib.draw.style); a kernel reads its preset from
#: ``COURSE_STYLE``. The course server has one kernelspec per preset, named by `kernel_name`.
PRESETS = ("notebook", "lecture")


def kernel_name(preset: str) -> str:
    """The kernelspec whose kernels run with ``COURSE_STYLE=preset`` (see `course_lab`)."""
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {PRESETS}; got {preset!r}.")
    return f"course-{preset}"


def write_kernelspecs(data_dir: Path, presets: Sequence[str] = PRESETS) -> Path:
    """One kernelspec per preset under ``data_dir/kernels`` (a Jupyter data folder: put it on JUPYTER_PATH):
    this Python's ipykernel, with ``COURSE_STYLE`` set to the preset in the kernel's environment."""
    for preset in presets:
        folder = data_dir / "kernels" / kernel_name(preset)
        folder.mkdir(parents=True, exist_ok=True)
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": f"Python 3 (course, {preset} preset)",
            "language": "python",
            "env": {"COURSE_STYLE": preset},
            "metadata": {"debugger": True},
        }
        (folder / "kernel.json").write_text(json.dumps(spec, indent=1))
    return data_dir


@contextlib.contextmanager
def course_lab(tmp: Path, *, source: str | os.PathLike | None = None, **server_kw) -> Iterator[JupyterServer]:
    """JupyterLab over a `served_copy` in ``tmp/served``, with a kernelspec per preset (`kernel_name`).

    Open a notebook in a preset with ``server.start_session(path, kernel=kernel_name(preset))`` before the
    page loads (`open_and_run_all` does it when given ``kernel=``): JupyterLab joins the session that exists.
    """
    root = tmp / "served"
    root.mkdir(parents=True)
    served_copy(root, source=source)
    share = write_kernelspecs(tmp / "share")
    jupyter_path = os.pathsep.join(p for p in (str(share), os.environ.get("JUPYTER_PATH", "")) if p)
    with jupyter_server(root, env={"JUPYTER_PATH": jupyter_path, **server_kw.pop("env", {})}, **server_kw) as server:
        yield server


@pytest.fixture(scope="session")
def course_lab_server(tmp_path_factory) -> Iterator[JupyterServer]:
    """One JupyterLab for the whole test session (`course_lab`), over the notebooks of
    ``$COURSE_NOTEBOOKS_ROOT`` when it is set (a folder holding ``notebooks/``), else the repository's.

    A test module uses it by importing it: ``from tests.browser_support import course_lab_server``.
    """
    require_browser()
    with course_lab(tmp_path_factory.mktemp("course-lab"), source=os.environ.get("COURSE_NOTEBOOKS_ROOT")) as server:
        yield server


def chromium_path() -> str | None:
    """The Chromium executable to use, or None. ``COURSE_CHROMIUM`` overrides the search."""
    env = os.environ.get("COURSE_CHROMIUM")
    if env:
        return env if os.access(env, os.X_OK) else None
    for cand in CHROMIUM_CANDIDATES:
        if os.access(cand, os.X_OK):
            return cand
    return shutil.which("chromium")


def browser_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if chromium_path() is None:
        return (
            "Chromium not found (looked for /usr/bin/chromium); install it with "
            "`apt-get install chromium` (never `playwright install`)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed"
    return None


def require_browser() -> str:
    """Return the Chromium path; skip the calling test when there is none.

    With ``COURSE_REQUIRE_BROWSER=1`` (CI) a missing browser is a failure, not a skip.
    """
    import pytest

    reason = browser_missing_reason()
    if reason is None:
        return chromium_path()  # type: ignore[return-value]
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        pytest.fail(f"{REQUIRE_ENV} is set but the browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")
    raise AssertionError("unreachable")


def launch(playwright, *, headless: bool = True, args: Sequence[str] = ()):
    """Launch Debian's Chromium through a ``sync_playwright()`` (or async) object."""
    path = chromium_path()
    if path is None:
        raise RuntimeError(browser_missing_reason())
    return playwright.chromium.launch(executable_path=path, headless=headless, args=[*CHROMIUM_ARGS, *args])


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class JupyterServer:
    """A running server: ``url`` ends with "/", ``token`` is the auth token."""

    url: str
    token: str
    port: int
    root_dir: Path
    process: subprocess.Popen
    log_path: Path

    def lab_url(self, path: str, *, reset: bool = True) -> str:
        """The JupyterLab URL of a file relative to root_dir (with ?reset: no saved workspace)."""
        query = ("reset&" if reset else "") + f"token={self.token}"
        return f"{self.url}lab/tree/{path}?{query}"

    def voila_url(self, path: str) -> str:
        return f"{self.url}voila/render/{path}?token={self.token}"

    def api(self, method: str, path: str, body: dict | None = None):
        """Call the REST API (e.g. ``api("GET", "api/sessions")``); returns decoded JSON or None."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            f"{self.url}{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def start_session(self, path: str, *, kernel: str) -> dict:
        """Start a kernel of the kernelspec `kernel` for the notebook at `path` (relative to root_dir): a page that
        opens the notebook afterwards joins this session instead of starting its own kernel."""
        body = {"path": path, "name": Path(path).name, "type": "notebook", "kernel": {"name": kernel}}
        return self.api("POST", "api/sessions", body)

    def shutdown_kernels(self) -> None:
        """Delete every session and kernel (keeps memory down between notebooks)."""
        for s in self.api("GET", "api/sessions") or []:
            with contextlib.suppress(urllib.error.URLError, OSError):
                self.api("DELETE", f"api/sessions/{s['id']}")
        for k in self.api("GET", "api/kernels") or []:
            with contextlib.suppress(urllib.error.URLError, OSError):
                self.api("DELETE", f"api/kernels/{k['id']}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


def _server_argv(app: str, root_dir: Path, port: int, token: str, settings_dir: Path) -> list[str]:
    root_flag = ["--allow-root"] if hasattr(os, "getuid") and os.getuid() == 0 else []
    if app == "lab":
        return [
            sys.executable, "-m", "jupyter", "lab",
            "--no-browser", "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
            f"--ServerApp.token={token}", f"--ServerApp.root_dir={root_dir}",
            "--expose-app-in-browser",
            f"--LabApp.app_settings_dir={settings_dir / 'app'}",
            f"--LabApp.user_settings_dir={settings_dir / 'user'}",
            f"--LabApp.workspaces_dir={settings_dir / 'workspaces'}",
            *root_flag,
        ]  # fmt: skip
    if app == "voila":
        return [
            sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
            f"--Voila.token={token}", f"--Voila.root_dir={root_dir}",
        ]  # fmt: skip
    raise ValueError(f"unknown app {app!r}: use 'lab', 'voila' or pass argv=")


@contextlib.contextmanager
def jupyter_server(
    root_dir: str | os.PathLike,
    *,
    app: str = "lab",
    token: str | None = None,
    extra_args: Sequence[str] = (),
    argv: Sequence[str] | None = None,
    timeout: float = 60.0,
    env: dict[str, str] | None = None,
    ready_path: str | None = None,
    overrides: dict | None = None,
) -> Iterator[JupyterServer]:
    """Start ``jupyter lab`` (or voila) on 127.0.0.1 at a free port; kill it at exit.

    ``argv`` replaces the whole command; in it, ``{port}``, ``{token}`` and ``{root_dir}`` are
    filled in. The server's output goes to a log file (``server.log``); a server that does not
    answer within ``timeout`` seconds raises RuntimeError with that log. Readiness is polled at
    ``ready_path`` (default: ``api/status`` for lab and argv, the root page for voila).
    """
    root = Path(root_dir).resolve()
    token = token or secrets.token_hex(16)
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="course-jupyter-"))
    (tmp / "app").mkdir()
    settings = LAB_OVERRIDES if overrides is None else overrides
    (tmp / "app" / "overrides.json").write_text(json.dumps(settings, indent=2))
    if argv is None:
        cmd = _server_argv(app, root, port, token, tmp)
    else:
        cmd = [str(a).format(port=port, token=token, root_dir=root) for a in argv]
    cmd += list(extra_args)
    log_path = tmp / "server.log"
    full_env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp / "config"), **(env or {})}
    full_env.pop("MPLBACKEND", None)  # kernels keep their inline backend
    logf = open(log_path, "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(cmd, cwd=root, stdout=logf, stderr=subprocess.STDOUT, env=full_env, start_new_session=True)
    server = JupyterServer(f"http://127.0.0.1:{port}/", token, port, root, proc, log_path)
    try:
        if ready_path is None:
            ready_path = "" if (app == "voila" and argv is None) else "api/status"
        _wait_ready(server, timeout, ready_path)
        yield server
    finally:
        _kill_group(proc)
        logf.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _wait_ready(server: JupyterServer, timeout: float, status_path: str) -> None:
    deadline = time.monotonic() + timeout
    url = f"{server.url}{status_path}?token={server.token}"
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"Jupyter server exited with {server.process.returncode}:\n{server.log()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)  # the poll interval of this wait: a server gives no event to wait on
    raise RuntimeError(f"Jupyter server not ready after {timeout:.0f} s:\n{server.log()[-3000:]}")


def _exited(pid: int) -> bool:
    """True once process `pid` (a child of ours) has exited, without reaping it: a zombie keeps its pid and so its
    process group's id, which no new process can take until we reap it."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # already reaped
        return True


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (server and kernels), then SIGKILL what is left, then reap the server.

    The group is signalled only while its leader, the server, is not yet reaped: once reaped, its pid (the group's
    id) may belong to another process, such as a hub user's server that leads its own session, and a SIGKILL to
    that group would end someone else's server."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while not _exited(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)  # the poll interval of this wait: no event says a process has ended
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # kernels that outlived the server
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


# The kernel of the current notebook panel is up: the session exists, the kernel is connected
# and idle. The toolbar indicator alone reads "idle" before the kernel exists.
JS_KERNEL_IDLE = """(path) => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext || !w.sessionContext.isReady) return false;
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle' && k.connectionStatus === 'connected';
}"""


JS_ALL_CELLS_RAN = """() => { const w = window.jupyterapp.shell.currentWidget;
  const p = [...w.content.node.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
  return w.sessionContext.session.kernel.status === 'idle'
         && p.every((x) => /^\\[\\d+\\]/.test(x.textContent.trim())); }"""


# The kernel of the notebook at `path` is up (JS_KERNEL_IDLE) and its connection has been quiet for
# `quiet` ms: no message either way and no status change. After a kernel first reports idle, JupyterLab
# goes on talking to it for a few hundred ms (the widget manager's comm_info, a train of debugger
# requests, each flipping the status to busy and back); a Run All issued in that chatter races the
# widget manager's set-up. The listeners stay on the kernel for the life of the page.
JS_KERNEL_SETTLED = """([path, quiet]) => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext || !w.sessionContext.isReady) return false;
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  if (!k) return false;
  if (window.__courseWatchedKernel !== k) {
    window.__courseWatchedKernel = k;
    window.__courseLastHeard = performance.now();
    const heard = () => { window.__courseLastHeard = performance.now(); };
    k.anyMessage.connect(heard);
    k.statusChanged.connect(heard);
  }
  return k.status === 'idle' && k.connectionStatus === 'connected'
         && performance.now() - window.__courseLastHeard >= quiet;
}"""


def wait_kernel_settled(page, path: str, *, quiet_ms: int = 300, timeout_ms: int = 60_000) -> None:
    """Wait until the kernel of the notebook at `path` (relative to the server's root) is connected, idle,
    and has been quiet for `quiet_ms` (see JS_KERNEL_SETTLED). Returns as soon as that holds."""
    page.wait_for_function(JS_KERNEL_SETTLED, arg=[path, quiet_ms], timeout=timeout_ms, polling=50)


def open_and_run_all(
    page, server: JupyterServer, path: str, *, timeout_ms: int = 180_000, kernel: str | None = None
) -> None:
    """Open the notebook at `path` (relative to the server's root) in JupyterLab, wait for its kernel to
    start and settle, Run All, and wait until every code cell has run and the kernel is idle.
    With `kernel` (a kernelspec name), the notebook runs in a kernel of that spec."""
    if kernel is not None:
        server.start_session(path, kernel=kernel)
    page.goto(server.lab_url(path))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout_ms)
    wait_kernel_settled(page, path, timeout_ms=timeout_ms)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(JS_ALL_CELLS_RAN, timeout=timeout_ms, polling=200)


def offline_site(chromium, tmp_path, lessons):
    """`lessons` (file names in notebooks/) built as `make site` builds them, and a browser page whose every request
    outside file:, data:, blob: and about: is blocked and counted. Returns (page, out, remote, problems): the site's
    folder, the blocked URLs and the page's errors; `open_offline` opens a page of it."""
    import shutil

    from tools import build_site
    from tools import course_export as ce

    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    for name in (*lessons, build_site.GLOSSARY):
        shutil.copy2(ce.NOTEBOOKS / name, notebooks)
    out = build_site.build(tmp_path / "site", notebooks, style="notebook")["out"]
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
    remote, problems = [], []

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:", "about:")):
            r.continue_()
        else:
            remote.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page, out, remote, problems


def open_offline(page, path) -> str:
    """Open the site's page `path` and wait for its widgets' loader; returns its state ("ready" or "failed")."""
    page.goto(path.as_uri())
    page.wait_for_function("document.documentElement.dataset.courseWidgets", timeout=30_000)
    return page.evaluate("document.documentElement.dataset.courseWidgets")
