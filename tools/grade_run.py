"""Run one submitted notebook and report each exercise's verdict: the child process of tools/grade.py.

    python -m tools.grade_run SUBMISSION.ipynb --cell-timeout 60      # or - : the notebook on stdin

prints one JSON object on stdout: ``{"verdicts": [...], "cells": [...]}``. Each verdict is one
`perceptron_lib.exercises.Verdict` made while the notebook ran, with the index of the cell that
made it and whether its check read a point editor (``"editor"``); each cell entry says why a cell
did not finish (its error, or the time limit). The grader
(`tools/grade.py`) starts this in its own process, with no network (``unshare -n`` where it can),
kills it after the notebook's time limit and decides the scores.

How a verdict is read: a first cell, run before the student's cells, makes every Verdict publish
itself once more under a mimetype carrying a token the student's notebook cannot know in advance;
so a printed "1.2: correct." is not a verdict. The kernel speaks to this process over Unix sockets
(ZeroMQ's ipc transport), so it needs no network interface at all. In the kernel, Python's sockets
refuse every address that is not a Unix socket ("network is off while grading").
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import tempfile
import threading
from pathlib import Path

MIME = "application/vnd.perceptron-course.verdict+json"

_SETUP = r'''
def _course_grading_setup(mime, token):
    import socket
    from IPython.display import publish_display_data
    import perceptron_lib.exercises as ex

    def refuse(*args, **kwargs):
        raise OSError("network is off while grading")

    base = socket.socket
    class GuardedSocket(base):
        def connect(self, address):
            if self.family != socket.AF_UNIX:
                refuse()
            return super().connect(address)
        def connect_ex(self, address):
            if self.family != socket.AF_UNIX:
                refuse()
            return super().connect_ex(address)
    socket.socket = GuardedSocket
    socket.create_connection = refuse
    socket.getaddrinfo = refuse

    # a check that reads a point editor (`points_of` on an object with .points) is marked: in this fresh run
    # an editor holds only the points the notebook's code gives it, never those placed with clicks
    import importlib, pkgutil
    read = {"editor": False}
    plain = ex.points_of
    def points_of(answer, **kwargs):
        if hasattr(answer, "points") and not isinstance(answer, tuple):
            read["editor"] = True
        return plain(answer, **kwargs)
    for info in pkgutil.iter_modules(ex.__path__):
        module = importlib.import_module(f"{ex.__name__}.{info.name}")
        if getattr(module, "points_of", None) is plain:
            module.points_of = points_of

    made = ex.Verdict.__post_init__
    def post_init(self):
        publish_display_data({mime: {"token": token, "exercise": self.exercise, "status": self.status,
                                     "message": self.message, "editor": read["editor"]}})
        read["editor"] = False
        made(self)
    ex.Verdict.__post_init__ = post_init

_course_grading_setup(%r, %r)
del _course_grading_setup
'''


def _interrupt(late: threading.Event, pid: int) -> None:
    late.set()
    os.kill(pid, signal.SIGINT)  # KeyboardInterrupt in the cell; the next cell runs


def run(path: Path, *, cell_timeout: float) -> dict:
    """Execute the notebook at ``path`` in a fresh kernel; its verdicts and its cells' failures."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = nbformat.read(sys.stdin if str(path) == "-" else path, as_version=4)
    token = secrets.token_hex(16)
    nb.cells.insert(0, nbformat.v4.new_code_cell(_SETUP % (MIME, token)))
    with tempfile.TemporaryDirectory(prefix="grade-") as work:
        # ipc: the kernel's five channels are Unix sockets in `work`, so no network namespace is needed.
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(work) / "kernel"))
        client = NotebookClient(nb, km=km, timeout=None, allow_errors=True, record_timing=False,
                                resources={"metadata": {"path": work}})
        # the widgets' comms are left alone: grading needs no widget state, and nbclient's own recorder raised
        # (KeyError '_model_module') on a widget it did not know, which stopped the whole run
        client.comm_open_handlers = {}
        cells = []
        with client.setup_kernel(env={**os.environ, "MPLBACKEND": "agg"}, cwd=work):
            pid = km.provisioner.process.pid
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                # our own watchdog: nbclient's timeout did not interrupt a cell here (nbclient 0.11, ipykernel 7.4)
                late = threading.Event()
                timer = threading.Timer(cell_timeout, _interrupt, args=(late, pid))
                timer.start()
                try:
                    client.execute_cell(cell, index)
                finally:
                    timer.cancel()
                if index == 0 and any(o.output_type == "error" for o in cell.outputs):
                    raise RuntimeError(f"the grader's setup failed: {cell.outputs}")
                errors = [o for o in cell.outputs if o.output_type == "error"]
                if late.is_set():
                    cells.append({"cell": index - 1, "why": f"ran past the {cell_timeout:g} s limit of a cell; "
                                                            "interrupted"})
                elif errors:
                    cells.append({"cell": index - 1, "why": f"raised {errors[-1].ename}: {errors[-1].evalue}"})
    verdicts = []
    for index, cell in enumerate(nb.cells[1:]):
        for out in cell.get("outputs", []):
            data = out.get("data", {}).get(MIME) if out.get("output_type") == "display_data" else None
            if isinstance(data, dict) and data.get("token") == token:
                verdicts.append({"cell": index, **{k: data[k] for k in ("exercise", "status", "message")},
                                 "editor": bool(data.get("editor"))})  # fmt: skip
    return {"verdicts": verdicts, "cells": cells}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path, help="the notebook, or - to read it from stdin")
    parser.add_argument("--cell-timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    json.dump(run(args.notebook, cell_timeout=args.cell_timeout), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
