"""A small client of a running hub: log in, start and stop a user's server, run code in their kernel.

Used by tests/test_hub.py and benchmarks/class_load.py; it speaks only the hub's REST API, the
single-user server's REST API and the kernel's websocket (Jupyter messaging protocol 5.3), with
``requests`` and ``websocket-client`` (both come with the lock's jupyter stack).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import requests
import websocket

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tools" / "hub" / "jupyterhub_config.py"


class HubError(RuntimeError):
    pass


def login(base: str, name: str, password: str) -> requests.Session:
    """Log in through the hub's login form (as a browser does); the session holds the user's cookies."""
    s = requests.Session()
    r = s.get(f"{base}/hub/login", timeout=30)
    r.raise_for_status()
    xsrf = s.cookies.get("_xsrf")
    r = s.post(f"{base}/hub/login", data={"username": name, "password": password, "_xsrf": xsrf},
               allow_redirects=False, timeout=60)  # fmt: skip
    if r.status_code != 302 or "jupyterhub-session-id" not in s.cookies:
        raise HubError(f"login of {name} failed: HTTP {r.status_code} (wrong password, or not an allowed user?)")
    return s


@dataclass
class HubUser:
    """One user of the hub, acting with their own API token."""

    base: str
    name: str
    token: str
    http: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self):
        self.http.headers["Authorization"] = f"token {self.token}"

    @classmethod
    def with_new_token(cls, base: str, admin_token: str, name: str, note: str = "course") -> HubUser:
        """A token for `name`, issued by a service or admin that holds the `tokens` scope."""
        r = requests.post(f"{base}/hub/api/users/{name}/tokens", json={"note": note},
                          headers={"Authorization": f"token {admin_token}"}, timeout=30)  # fmt: skip
        if r.status_code != 201:
            raise HubError(f"could not issue a token for {name}: HTTP {r.status_code} {r.text[:200]}")
        return cls(base, name, r.json()["token"])

    # ---- the hub --------------------------------------------------------------------------
    def hub(self, method: str, path: str, **kw) -> requests.Response:
        return self.http.request(method, f"{self.base}/hub/api{path}", timeout=kw.pop("timeout", 60), **kw)

    def server_status(self) -> dict:
        r = self.hub("GET", f"/users/{self.name}")
        r.raise_for_status()
        return r.json()

    def start_server(self, timeout: float = 120) -> float:
        """Start this user's server (if stopped) and wait until it answers; returns the seconds it took."""
        t0 = time.monotonic()
        r = self.hub("POST", f"/users/{self.name}/server")
        if r.status_code not in (201, 202, 400):  # 400: already running
            raise HubError(f"starting {self.name}'s server: HTTP {r.status_code} {r.text[:200]}")
        while time.monotonic() - t0 < timeout:
            st = self.server_status()
            if st["server"] and not st["pending"]:
                if self.user("GET", "/api/status").status_code == 200:
                    return time.monotonic() - t0
            time.sleep(0.3)
        raise HubError(f"{self.name}'s server did not start within {timeout} s")

    def stop_server(self, timeout: float = 60) -> None:
        r = self.hub("DELETE", f"/users/{self.name}/server")
        if r.status_code not in (202, 204, 400):
            raise HubError(f"stopping {self.name}'s server: HTTP {r.status_code} {r.text[:200]}")
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            st = self.server_status()
            if not st["server"] and not st["pending"]:
                return
            time.sleep(0.3)
        raise HubError(f"{self.name}'s server did not stop within {timeout} s")

    # ---- the user's own server ---------------------------------------------------------------
    def user(self, method: str, path: str, *, owner: str | None = None, **kw) -> requests.Response:
        """A request to /user/<owner>/<path> (owner: this user unless given) with this user's token."""
        url = f"{self.base}/user/{owner or self.name}{path}"
        return self.http.request(method, url, timeout=kw.pop("timeout", 60), allow_redirects=False, **kw)

    def new_session(self, path: str) -> str:
        """A notebook session for `path` (relative to the home); returns its kernel id."""
        r = self.user("POST", "/api/sessions", json={"path": path, "type": "notebook", "name": path.split("/")[-1],
                                                     "kernel": {"name": "python3"}})  # fmt: skip
        if r.status_code != 201:
            raise HubError(f"{self.name}: a session for {path}: HTTP {r.status_code} {r.text[:200]}")
        return r.json()["kernel"]["id"]

    def kernel(self, kernel_id: str) -> Kernel:
        ws_base = self.base.replace("http://", "ws://", 1)
        url = f"{ws_base}/user/{self.name}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"
        return Kernel(websocket.create_connection(url, header=[f"Authorization: token {self.token}"], timeout=120),
                      self.name)  # fmt: skip


def _decode(frame: str | bytes) -> dict:
    """A kernel websocket frame: JSON text, or (with binary buffers, e.g. a widget's PNG) jupyter_server's
    binary form: 4 bytes n, n offsets of 4 bytes, the JSON message at the first offset, then the buffers."""
    if isinstance(frame, str):
        return json.loads(frame)
    n = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i : 8 + 4 * i], "big") for i in range(n)]
    return json.loads(frame[offsets[0] : offsets[1] if n > 1 else None])


@dataclass
class Kernel:
    """A kernel's websocket: `execute` runs code and returns what it printed, or raises on an error."""

    ws: websocket.WebSocket
    username: str
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    #: how many pictures (PNG, or a widget view such as a player) the last `execute` displayed
    pictures: int = 0

    def execute(self, code: str, timeout: float = 120) -> str:
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": "execute_request", "username": self.username,
                  "session": self.session, "version": "5.3", "date": ""}  # fmt: skip
        content = {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                   "allow_stdin": False, "stop_on_error": True}  # fmt: skip
        self.ws.send(json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content,
                                 "channel": "shell", "buffers": []}))  # fmt: skip
        out, error, replied, idle, pictures = [], None, False, False, 0
        deadline = time.monotonic() + timeout
        while not (replied and idle):
            if time.monotonic() > deadline:
                raise HubError(f"{self.username}'s kernel gave no answer within {timeout} s")
            msg = _decode(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind == "stream":
                out.append(msg["content"]["text"])
            elif kind in ("display_data", "execute_result"):
                data = msg["content"].get("data", {})
                pictures += "image/png" in data or "application/vnd.jupyter.widget-view+json" in data
            elif kind == "error":
                error = f"{msg['content']['ename']}: {msg['content']['evalue']}"
            elif kind == "execute_reply":
                replied = True
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
        self.pictures = pictures
        if error:
            raise HubError(f"{self.username}'s kernel: {error}")
        return "".join(out)

    def close(self) -> None:
        self.ws.close()


# ---- the hub's process (the tests and the load benchmark start their own) ------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class HubProcess:
    """`python -m jupyterhub -f tools/hub/jupyterhub_config.py` with its state in `state_dir`, on free ports."""

    state_dir: Path
    service_token: str
    port: int = field(default_factory=free_port)
    api_port: int = field(default_factory=free_port)
    proxy_port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> HubProcess:
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
        env.update(COURSE_HUB_DIR=str(self.state_dir), COURSE_HUB_PORT=str(self.port),
                   COURSE_HUB_API_PORT=str(self.api_port), COURSE_HUB_PROXY_API_PORT=str(self.proxy_port),
                   COURSE_HUB_SERVICE_TOKEN=self.service_token)  # fmt: skip
        log = open(self.state_dir / "hub.log", "a")  # noqa: SIM115 (closed with the process)
        self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)], cwd=ROOT, env=env,
                                     stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise HubError(f"the hub exited with {self.proc.returncode}; see {self.state_dir / 'hub.log'}:\n"
                               + (self.state_dir / "hub.log").read_text()[-3000:])  # fmt: skip
            try:
                if requests.get(f"{self.base}/hub/api/", timeout=2).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.3)
        raise HubError(f"the hub did not answer within {timeout} s; see {self.state_dir / 'hub.log'}")

    def stop(self, timeout: float = 30) -> None:
        """Stop the hub (and its proxy); users' servers keep running (cleanup_servers = False)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
