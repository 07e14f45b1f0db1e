"""A class on one hub: N students at once, each running lesson 03 from the top, then 50 player steps as the browser
makes them (one comm message with the new ``k``).

Starts the hub of ``make hub`` (tools/hub/jupyterhub_config.py: PAM, LocalProcessSpawner, each
student their own system user) on free ports of 127.0.0.1, with users ``pc-load-1`` ... made for the
run and removed after it. For each N (``--students 5 10 20``) all N students go at the same time,
each in a thread, through the hub's REST API and their kernel's websocket (no browser):

1. log in through the login form, start their server, open a session on their copy of lesson 03;
2. run lesson 03's code cells in order; "login to first picture" is the time from the login to the
   end of the first cell that displays a picture (a PNG or a widget, here the first player);
3. 50 steps of lesson 03's main player (``player``, a `BrowserControlled`): what a Step click costs the kernel
   since the players draw in the browser. The page draws the frame itself and sends the kernel one message, the
   ``k`` update (``comm_msg``, ``{"method": "update", "state": {"k": k}}``, as JupyterLab sends it); here it is
   sent over the kernel's websocket, k = 1, 2, ... (back to 0 after the run's last step), and timed from the
   send until the kernel is idle again (its status message answering it: the update applied and echoed). The
   kernel's CPU time per step (user + system, from ``/proc/PID/stat`` before and after the 50 steps) is read
   too, and the CPU of the student's other processes (their Jupyter server, which passes the messages on);
4. memory: the proportional set size (PSS, shared pages split between users) of all the student's
   processes (their Jupyter server and their kernel), read from /proc once all have finished.

Before the players drew in the browser (2026-11-25), a step was ``player.next()`` run as code in the kernel,
which drew the frame with matplotlib and sent it as a PNG; the numbers of that version are kept in
benchmarks/README.md beside the new ones.

Then all N servers are stopped before the next N. Prints a table; ``--json FILE`` writes the numbers.
Needs root (system users), npm (``make hub-setup``). Run from the repository's root:

    .venv/bin/python -m benchmarks.class_load --students 5 10
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import nbformat

from tools.hub import setup
from tools.hub.client import HubProcess, HubUser, _decode, login

LESSON = "perceptron-course/03_hyperplane_updates.ipynb"
ROOT = Path(__file__).resolve().parent.parent
#: The main player's comm (its widget's model id) and its run's last step, printed by the kernel.
PLAYER = "print(player.model_id, player.run['K'])"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_s(pids: list[str]) -> float:
    """User + system CPU seconds of the processes `pids` so far (their ``/proc/PID/stat``); gone ones count 0."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime: the 14th and 15th fields of stat
    return total / TICKS


def processes(user: str, kernel_id: str) -> tuple[list[str], list[str]]:
    """The pids of `user`'s kernel `kernel_id` (its connection file names it) and of their other processes."""
    ps = subprocess.run(["ps", "-o", "pid=,args=", "-u", user], capture_output=True, text=True).stdout
    kernel, other = [], []
    for line in ps.splitlines():
        pid, _, args = line.strip().partition(" ")
        (kernel if kernel_id in args else other).append(pid)
    return kernel, other


def send_k(kernel, comm_id: str, k: int, timeout: float = 120) -> float:
    """Send the ``k`` update a Step click sends (one ``comm_msg`` to the player's comm); ms until the kernel is idle
    after it (its status message answering this one)."""
    msg_id = uuid.uuid4().hex
    header = {"msg_id": msg_id, "msg_type": "comm_msg", "username": kernel.username, "session": kernel.session,
              "version": "5.3", "date": ""}  # fmt: skip
    content = {"comm_id": comm_id, "data": {"method": "update", "state": {"k": k}, "buffer_paths": []}}
    t = time.perf_counter()
    kernel.ws.send(json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content,
                               "channel": "shell", "buffers": []}))  # fmt: skip
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{kernel.username}'s kernel did not answer a step within {timeout} s")
        msg = _decode(kernel.ws.recv())
        if (msg.get("parent_header", {}).get("msg_id") == msg_id and msg["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"):
            return (time.perf_counter() - t) * 1000


def pss_mb(user: str) -> float:
    pids = subprocess.run(["ps", "-o", "pid=", "-u", user], capture_output=True, text=True).stdout.split()
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    return total / 1024


def student(hub: HubProcess, name: str, password: str, cells: list[str], steps: int, out: dict) -> None:
    try:
        t0 = time.monotonic()
        login(hub.base, name, password)  # the real login form, as a browser posts it
        me = HubUser.with_new_token(hub.base, hub.service_token, name, note="class_load")
        me.start_server()
        kernel_id = me.new_session(LESSON)
        kernel = me.kernel(kernel_id)
        first_picture = None
        t_run = time.monotonic()
        for code in cells:
            kernel.execute(code, timeout=600)
            if first_picture is None and kernel.pictures:
                first_picture = time.monotonic() - t0
        run_s = time.monotonic() - t_run
        comm_id, K = kernel.execute(PLAYER).split()
        kernel_pids, other_pids = processes(name, kernel_id)
        cpu0 = cpu_s(kernel_pids), cpu_s(other_pids)
        lat = [send_k(kernel, comm_id, (j + 1) % (int(K) + 1)) for j in range(steps)]
        cpu = [(cpu_s(p) - c) * 1000 / steps for p, c in zip((kernel_pids, other_pids), cpu0, strict=True)]
        out[name] = {"first_picture_s": first_picture, "lesson_s": run_s, "step_ms": lat, "kernel": kernel,
                     "kernel_cpu_ms": cpu[0], "server_cpu_ms": cpu[1]}
    except Exception as e:  # noqa: BLE001 (reported per student, the run goes on)
        out[name] = {"error": f"{type(e).__name__}: {e}"}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]


def run_class(hub: HubProcess, names: list[str], passwords: dict, cells: list[str], steps: int) -> dict:
    out: dict = {}
    threads = [threading.Thread(target=student, args=(hub, n, passwords[n], cells, steps, out)) for n in names]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    errors = {n: r["error"] for n, r in out.items() if "error" in r}
    mem = [pss_mb(n) for n in names]
    monitor = HubUser(hub.base, "course-monitor", hub.service_token)
    for n in names:
        if "kernel" in out.get(n, {}):
            out[n]["kernel"].close()
        monitor.hub("DELETE", f"/users/{n}/server")
    ok = [r for r in out.values() if "error" not in r]
    lat = [x for r in ok for x in r["step_ms"]]
    first = [r["first_picture_s"] for r in ok if r["first_picture_s"] is not None]
    res = {
        "students": len(names), "ok": len(ok), "errors": errors, "wall_s": round(wall, 1),
        "mem_median_mb": round(statistics.median(mem)), "mem_max_mb": round(max(mem)),
        "step_p50_ms": round(pct(lat, 50), 1) if lat else None, "step_p95_ms": round(pct(lat, 95), 1) if lat else None,
        "kernel_cpu_per_step_ms": round(statistics.median(r["kernel_cpu_ms"] for r in ok), 2) if ok else None,
        "server_cpu_per_step_ms": round(statistics.median(r["server_cpu_ms"] for r in ok), 2) if ok else None,
        "first_picture_median_s": round(statistics.median(first), 1) if first else None,
        "first_picture_max_s": round(max(first), 1) if first else None,
        "lesson_median_s": round(statistics.median(r["lesson_s"] for r in ok), 1) if ok else None,
        "load_avg_1min": os.getloadavg()[0],
    }  # fmt: skip
    for _ in range(120):  # wait until every server is gone before the next N
        if not any(monitor.hub("GET", f"/users/{n}").json()["server"] for n in names):
            break
        time.sleep(0.5)
    return res


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="+", default=[5, 10, 20], help="class sizes (default 5 10 20)")
    parser.add_argument("--steps", type=int, default=50, help="player steps (k updates) per student (default 50)")
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        sys.exit("error: class_load creates system users and starts a hub: run it as root")
    nb = nbformat.read(ROOT / "notebooks" / "03_hyperplane_updates.ipynb", as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    setup.install_proxy()
    setup.install_student_env()
    names = [f"pc-load-{i}" for i in range(1, max(args.students) + 1)]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        passwords = setup.setup_class(names, "pc-load-inst", state_dir=state)
        hub = HubProcess(state, secrets.token_hex(16)).start()
        try:
            for n in args.students:
                res = run_class(hub, names[:n], passwords, cells, args.steps)
                results.append(res)
                print(json.dumps(res), flush=True)
        finally:
            hub.stop()
            for name in [*names, "pc-load-inst"]:
                ps = subprocess.run(["ps", "-o", "pid=", "-u", name], capture_output=True, text=True)
                for pid in ps.stdout.split():
                    try:
                        os.kill(int(pid), 9)
                    except ProcessLookupError:
                        pass
                subprocess.run(["userdel", "--remove", name], capture_output=True)
    print("\n| students | memory per student, median / max (MB PSS) | step: k update to idle, p50 / p95 (ms) "
          "| CPU per step, kernel / server (ms) | login to first picture, median / max (s) | lesson 03 run, median (s) "
          "| errors | load average |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['students']} | {r['mem_median_mb']} / {r['mem_max_mb']} | {r['step_p50_ms']} / {r['step_p95_ms']} "
              f"| {r['kernel_cpu_per_step_ms']} / {r['server_cpu_per_step_ms']} "
              f"| {r['first_picture_median_s']} / {r['first_picture_max_s']} | {r['lesson_median_s']} "
              f"| {len(r['errors'])} | {r['load_avg_1min']:.1f} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
