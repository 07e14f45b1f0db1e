"""Step and edit in the course's own pages: JupyterLab with a kernel, and the built site with none; idle and busy.

Issue #30 item 7, measured where a student meets the players (`browser_step.py` and `browser_edit.py` measure the
same front ends on a blank page with a stand-in model). In headless Chromium, in one run:

1. **JupyterLab, lessons 00 and 05** (``--lessons``; a copy without outputs, Run All, its kernel running): Step
   clicks on each lesson's first `BrowserPlayer`, each timed inside the page from ``click()`` to the next
   ``requestAnimationFrame`` (the frame that paints the new SVG is being made) and the one after it (painted); then
   as many real mouse clicks at a random phase of the frame (`benchmarks.click_phase`); every comm message of each
   step is
   counted from JupyterLab's kernel connection (``anyMessage``): those the page sends (the one allowed is the ``k``
   update) and those it receives (ipywidgets' echo of ``k``).
2. **JupyterLab, edits with the kernel**: a click on an empty spot of an editor's picture (the pointer events a
   click makes), timed to the browser's own run painted, then to the library's run drawn (``data-run`` becomes
   "library": its readout shows the library's numbers) and painted; then Undo (untimed) and its run. The kernel
   side is timed in the kernel (its ``time.time()``, the same clock as the page's ``timeOrigin + now()``): the
   comm message in, `fit` (``_fit_run``), the summary (`own_data.summarize`), the words (`readout.all_words`), the
   rest of the trait (`run_trait`), and the trait's send (serialising and sending ``run``); the page adds when the
   message left and when the run came in (after JSON parsing). Editors: each lesson's first (00: 10 points; 05:
   lifted points, whose run's circles and lifted view Python computes), and two made in a scratch notebook on 200
   points (separable; no line: a 4,000-update run and a 4 MB trait).
3. **The built site over file://** (`tools.build_site`, lesson 00, every request outside file: blocked and
   counted): Step clicks on the same player with no kernel, and edits on lesson 00's editor (its browser's run).

Every part runs idle, then with two ``python -c "while True: pass"`` keeping both cores busy (`busy_cores`); the
1-minute load average is printed beside each line. Medians; the maximum beside the next frame.

Run from the repository root: ``.venv/bin/python -m benchmarks.browser_course [--clicks 30] [--edits 15]``
(about four minutes). ``--before`` adds the 200-point editors as they were before the run's arrays went as
binary buffers (`BEFORE_CELLS`), edited in turn with today's; ``--no-site`` skips the site. Needs
``/usr/bin/chromium`` (never ``playwright install``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.browser_edit import JS_SPOT
from benchmarks.browser_step import busy_cores
from benchmarks.click_phase import event_words, p95, random_phase_clicks, summary
from tests.browser_support import (
    browser_missing_reason,
    course_lab,
    launch,
    offline_site,
    open_and_run_all,
    open_offline,
    wait_kernel_settled,
)

LESSON = "00_start_here.ipynb"
#: The lessons whose first player and first editor are timed in JupyterLab: 00's, and 05's editor of lifted points
#: (its run's circles and lifted view are computed by Python after each edit).
LESSONS = (LESSON, "05_kernel_lifting.ipynb")
SCRATCH = "notebooks/zz_bench_editors.ipynb"
#: The scratch notebook's cells: two editors of 200 points (`browser_edit.py`'s sets), with the kernel.
SCRATCH_CELLS = [
    "import numpy as np\nfrom perceptron_lib import fit_perceptron\nfrom perceptron_lib.core import data\n"
    "from perceptron_lib.player import BrowserEditor\n"
    "X1, y1 = data.separable(200, margin=0.05, bias=True, seed=1)\n"
    "rng = np.random.default_rng(5)\nX2 = rng.normal(size=(200, 2))\n"
    "y2 = np.where(X2[:, 0] + 0.4 * rng.normal(size=200) > 0, 1.0, -1.0)",
    "BrowserEditor(fit_perceptron(X1, y1), X1, y1)",
    "BrowserEditor(fit_perceptron(X2, y2), X2, y2)",
]

#: ``--before``: the scratch notebook also shows the 200-point editors, and lesson 05's editor of lifted points, as
#: they were before the run's arrays went as binary buffers and the points before the page's own fit (the
#: benchmark's own subclasses; the product has no switch): ``FitFirstEditor``'s page fits and draws its own run
#: before it sends the points (`FIT_FIRST` put in place of `SEND_FIRST` in the editor's module), and
#: ``ListsEditor`` also sends the lean run's arrays as JSON lists (the old trait: the same keys and numbers). Their
#: edits alternate with today's editors', one edit each in turn (`BEFORE_ORDER`).
SEND_FIRST = """    model.set("points", [state.X, state.y]);
    model.save_changes();
    const next = own();
    const at = k ?? (ui.stay.checked ? clampStep(player.shown(), next.K) : next.K);
    const before = model.get("k");
    show(next, at);
    say(said ? `${said} ${next.summaryNotes[1] ?? next.summaryNotes[0]}` : EDIT_HINT);
    if (model.get("k") !== before) model.save_changes(); // the step on show, in a message of its own
"""
FIT_FIRST = """    const next = own();
    const at = k ?? (ui.stay.checked ? clampStep(player.shown(), next.K) : next.K);
    show(next, at);
    say(said ? `${said} ${next.summaryNotes[1] ?? next.summaryNotes[0]}` : EDIT_HINT);
    model.set("points", [state.X, state.y]); // the page is whole before Python is told
    model.save_changes();
"""
BEFORE_CELLS = [
    "from perceptron_lib.player.browser_editor import editor_source as _src\n"
    "from perceptron_lib.player.library_run import ARRAYS as _ARRAYS, unpacked as _unpacked\n"
    f"_old = _src().replace({SEND_FIRST!r}, {FIT_FIRST!r})\n"
    "assert _old != _src(), 'editor.js refit is not SEND_FIRST: update benchmarks/browser_course.py'\n"
    "class FitFirstEditor(BrowserEditor):\n"
    "    _esm = _old\n"
    "class ListsEditor(FitFirstEditor):\n"
    "    def _fitted(self, *a, **kw):\n"
    "        t = super()._fitted(*a, **kw)\n"
    "        if t.get('form') != 'library':\n"
    "            return t\n"
    "        u = _unpacked(t)\n"
    "        return {**t, **{k: u[k].tolist() for k in _ARRAYS}}\n"
    "from perceptron_lib.core import kernels\nfrom perceptron_lib.player import LiftedPanel\n"
    "X5, y5 = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)  # lesson 05's editor's points\n"
    "def lifted(cls):\n"
    "    return cls(fit_perceptron(kernels.lift(X5), y5), X5, y5, lift=kernels.lift, panels=[LiftedPanel()],\n"
    "               separator='plane of the lift')",
    "ListsEditor(fit_perceptron(X1, y1), X1, y1)",
    "FitFirstEditor(fit_perceptron(X2, y2), X2, y2)",
    "ListsEditor(fit_perceptron(X2, y2), X2, y2)",
    "lifted(BrowserEditor)",
    "lifted(FitFirstEditor)",
    "lifted(ListsEditor)",
]
#: The scratch editors' names with ``--before`` (in the order of the cells) and the order their edits take in turn.
BEFORE_NAMES = ["200 separable points", "200 points, no line", "200 separable points, before (lists, fit first)",
                "200 points, no line, buffers but fit first", "200 points, no line, before (lists, fit first)",
                "lesson 05's editor (60 lifted points)", "lesson 05's editor, buffers but fit first",
                "lesson 05's editor, before (lists, fit first)"]
BEFORE_ORDER = [0, 2, 1, 3, 4, 5, 6, 7]

#: Counts every comm message on the notebook's kernel connection (JupyterLab's ``anyMessage``), with the page's
#: epoch time in ms (``timeOrigin + now()``) and the state keys it carries.
JS_WATCH = """() => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  if (window.__benchKernel === k) return;
  window.__benchKernel = k;
  window.__benchMsgs = [];
  k.anyMessage.connect((_, {msg, direction}) => {
    if (msg.header.msg_type !== 'comm_msg') return;
    const d = msg.content.data || {};
    window.__benchMsgs.push({dir: direction, t: performance.timeOrigin + performance.now(), method: d.method,
                             keys: Object.keys(d.state || {}).sort()});
  });
}"""

#: Runs `code` in the notebook's kernel; resolves with its printed text.
JS_EXECUTE = """async (code) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const f = k.requestExecute({code, silent: false, store_history: false});
  let out = '';
  f.onIOPub = (m) => {
    if (m.header.msg_type === 'stream') out += m.content.text;
    if (m.header.msg_type === 'error') out += `ERROR ${m.content.ename}: ${m.content.evalue}`;
  };
  await f.done;
  return out;
}"""

#: The kernel's stopwatch on every BrowserEditor: each comm message in (`recv`, `done`: epoch s), and inside it the
#: fit, the summary, the words, the trait (the full one, or the lean `library_trait` with no words) and `_fitted`
#: as a whole ((start, end) pairs). Installed once per widget.
KERNEL_WATCH = """
import time as _bench_time
import warnings as _bench_warnings
from ipywidgets import Widget as _BenchWidget
import perceptron_lib.player.browser_editor as _bench_be
if not hasattr(_bench_be, "_bench_log"):
    _bench_be._bench_log, _bench_be._bench_now = [], [{}]
    def _bench_timed(name, f):
        def timed(*a, **kw):
            t = _bench_time.time()
            r = f(*a, **kw)
            _bench_be._bench_now[0].setdefault(name, (t, _bench_time.time()))
            return r
        return timed
    for _name in ("all_words", "run_trait", "summarize", "library_trait"):
        if hasattr(_bench_be, _name):
            setattr(_bench_be, _name, _bench_timed(_name, getattr(_bench_be, _name)))
with _bench_warnings.catch_warnings():
    _bench_warnings.simplefilter("ignore", DeprecationWarning)  # _active_widgets: the widgets of this kernel
    _bench_editors = [w for w in _BenchWidget._active_widgets.values() if isinstance(w, _bench_be.BrowserEditor)]
for _w in _bench_editors:
    if not getattr(_w, "_bench", False):
        _w._bench = True
        def _on_msg(msg, handle=_w._handle_msg, w=_w):
            rec = {"recv": _bench_time.time(), "keys": sorted(msg["content"]["data"].get("state", {}))}
            _bench_be._bench_now[0] = rec
            handle(msg)
            rec["done"], rec["K"] = _bench_time.time(), w.run["K"]
            _bench_be._bench_log.append(rec)
        _w.comm.on_msg(_on_msg)
        _w._fit_run = _bench_timed("fit", _w._fit_run)
        _w._fitted = _bench_timed("fitted", _w._fitted)
"""
KERNEL_READ = "import json as _bench_json\nprint(_bench_json.dumps(_bench_be._bench_log))\n_bench_be._bench_log.clear()"

#: `n` Step clicks on the player in `el` (Reset, untimed, at the end of the run). Per click: ms to the next frame and
#: to the one after (painted), whether the k box moved on, and the comm messages of the step (150 ms after it).
JS_STEPS = """async ([el, n]) => {
  const button = (name) => [...el.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const box = el.querySelector('input[type=number]');
  const out = {handler: [], first: [], painted: [], moved: [], sent: [], other: [], received: []};
  for (let j = 0; j < n; j++) {
    if (button('Step').disabled) { button('Reset').click(); await sleep(300); }
    await frame(); await frame();
    const m0 = (window.__benchMsgs || []).length;
    const before = box.value;
    const t0 = performance.now();
    button('Step').click();
    out.handler.push(performance.now() - t0);
    out.first.push(await frame() - t0);
    out.painted.push(await frame() - t0);
    out.moved.push(Number(box.value) === Number(before) + 1);
    await sleep(150);
    const these = (window.__benchMsgs || []).slice(m0);
    const sent = these.filter((m) => m.dir === 'send');
    out.sent.push(sent.length);
    out.other.push(sent.filter((m) => m.method !== 'update' || m.keys.join() !== 'k').length);
    out.received.push(these.length - sent.length);
  }
  return out;
}"""


#: One edit of the editor in `el` at `spot`, then its Undo. Times in epoch ms (the kernel's clock): the click, the
#: handler done (the browser's run drawn), its frame painted, the points' message sent, the library's run received
#: and drawn (data-run "library") and painted; `library` is false with no kernel (or none within 20 s).
JS_EDIT = """async ([el, spot, kernel]) => {
  const now = () => performance.timeOrigin + performance.now();
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(now())));
  const root = el.matches('.perceptron-browsereditor') ? el : el.querySelector('.perceptron-browsereditor');
  const library = () => new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (root.dataset.run === 'library') { obs.disconnect(); resolve(now()); }
    });
    obs.observe(root, {attributes: true, attributeFilter: ['data-run']});
    setTimeout(() => { obs.disconnect(); resolve(null); }, 20000);
  });
  const pointer = (type) => new PointerEvent(type, {clientX: spot[0], clientY: spot[1], bubbles: true, button: 0,
                                                  pointerId: 1, isPrimary: true});
  const count = () => root.querySelectorAll('path.pp-point').length;
  await frame(); await frame();
  const n0 = count();
  const m0 = (window.__benchMsgs || []).length;
  const lib = kernel ? library() : null;
  const target = document.elementFromPoint(spot[0], spot[1]);
  const t = {click: now()};
  target.dispatchEvent(pointer('pointerdown'));
  target.dispatchEvent(pointer('pointerup'));
  t.handler = now();
  t.browser_first = await frame();
  t.browser_painted = await frame();
  t.added = count() === n0 + 1;
  if (kernel) {
    t.library = await lib;
    if (t.library !== null) { await frame(); t.library_painted = await frame(); }
    const these = (window.__benchMsgs || []).slice(m0);
    const sent = these.find((m) => m.dir === 'send' && m.keys.includes('points'));
    const got = these.find((m) => m.dir === 'recv' && m.keys.includes('run'));
    t.sent = sent ? sent.t : null;
    t.received = got ? got.t : null;
  }
  const back = kernel ? library() : null;
  [...root.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Undo').click();
  if (kernel) await back;
  await frame();
  t.undone = count() === n0;
  return t;
}"""


def median(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def load_avg() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def under(load: str):
    """The context of a load: nothing for "idle", `busy_cores` for "busy"."""
    return busy_cores(2) if load == "busy" else _Nothing()


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def steps(page, locator, clicks: int, load: str, where: str) -> dict:
    locator.scroll_into_view_if_needed()
    handle = locator.element_handle()
    page.evaluate(JS_STEPS, [handle, 3])  # warm-up
    random_phase_clicks(page, handle, 3, seed=99)  # warm-up
    with under(load):
        la = load_avg()
        r = page.evaluate(JS_STEPS, [handle, clicks])
        phase = summary(random_phase_clicks(page, handle, clicks, seed=7))
    assert all(r["moved"]), f"{where}: a Step click did not move k on by one"
    return {"where": where, "load": load, "load_avg": la, "handler": median(r["handler"]),
            "first": median(r["first"]), "first_p95": p95(r["first"]), "first_max": max(r["first"]),
            "painted": median(r["painted"]), "painted_p95": p95(r["painted"]), "sent": statistics.mean(r["sent"]),
            "other": sum(r["other"]), "received": statistics.mean(r["received"]), "phase": phase}


def print_steps(rows: list) -> None:
    print("\nStep click to the next frame and to the frame after it (painted), ms, median (p95). Frame start: the "
          "click is made just after a frame starts (the worst phase: 16.7 at the next frame means no frame missed). "
          "Random phase: a real mouse click at a uniformly random moment of the frame (`click_phase`), from its "
          "event's timeStamp; Event Timing: the browser's own click -> next paint. Messages per step: sent by the "
          "page / other than the k update / received")
    print("| where | load | load avg | handler | frame start: next frame | frame start: painted | random phase: next "
          "frame | random phase: painted | Event Timing | phase quartiles | messages per step |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        msgs = "no kernel" if r["sent"] is None else f"{r['sent']:.1f} / {r['other']} / {r['received']:.1f}"
        ph = r["phase"]
        print(f"| {r['where']} | {r['load']} | {r['load_avg']} | {r['handler']:.2f} / {ph['handler']:.2f} | "
              f"{r['first']:.1f} ({r['first_p95']:.1f}) | {r['painted']:.1f} ({r['painted_p95']:.1f}) | "
              f"{ph['first']:.1f} ({ph['first_p95']:.1f}) | {ph['painted']:.1f} ({ph['painted_p95']:.1f}) | "
              f"{event_words(ph)} | {' / '.join(f'{q:.1f}' for q in ph['phase_q'])} | {msgs} |")


def edits(page, locator, n: int, load: str, where: str, *, kernel: bool, path: str | None = None) -> dict:
    locator.locator(".pp-picture").scroll_into_view_if_needed()
    handle = locator.element_handle()
    spot = page.evaluate(JS_SPOT, handle)
    out = []
    with under(load):
        la = load_avg()
        for j in range(n + 1):
            t = page.evaluate(JS_EDIT, [handle, spot, kernel])
            assert t["added"] and t["undone"], f"{where}: a click did not add a point, or Undo did not remove it"
            if kernel:
                wait_kernel_settled(page, path, quiet_ms=100)
            if j:  # the first is a warm-up
                out.append(t)
    kernel_log = json.loads(page.evaluate(JS_EXECUTE, KERNEL_READ) or "[]") if kernel else []
    return {"where": where, "load": load, "load_avg": la, "edits": out, "kernel": kernel_log}


def edits_alternating(page, locators: list, names: list, n: int, load: str, path: str) -> list:
    """`edits` on several editors in turn (one edit each, then the next round): their rows side by side at the same
    moments of the machine's load."""
    out = [[] for _ in locators]
    with under(load):
        la = load_avg()
        for j in range(n + 1):
            for e, locator in enumerate(locators):
                locator.locator(".pp-picture").scroll_into_view_if_needed()  # the spot where the editor is now
                handle = locator.element_handle()
                t = page.evaluate(JS_EDIT, [handle, page.evaluate(JS_SPOT, handle), True])
                assert t["added"] and t["undone"], f"{names[e]}: a click did not add a point, or Undo did not remove it"
                wait_kernel_settled(page, path, quiet_ms=100)
                if j:  # the first round is a warm-up
                    out[e].append(t)
    kernel_log = json.loads(page.evaluate(JS_EXECUTE, KERNEL_READ) or "[]")
    return [{"where": name, "load": load, "load_avg": la, "edits": o, "kernel": kernel_log}
            for name, o in zip(names, out, strict=True)]


def _split(r: dict) -> dict:
    """Medians (ms) of each part of an edit: page times (epoch ms) matched to the kernel's records (epoch s)."""
    parts = {name: [] for name in ("handler", "browser_painted", "library", "library_painted", "to_kernel", "fit",
                                   "summary", "words", "trait", "fitted", "send", "to_page", "front", "K")}
    recs = [k for k in r["kernel"] if "points" in k["keys"]]
    for t in r["edits"]:
        c = t["click"]
        parts["handler"].append(t["handler"] - c)
        parts["browser_painted"].append(t["browser_painted"] - c)
        if t.get("library") is None:
            continue
        parts["library"].append(t["library"] - c)
        parts["library_painted"].append(t["library_painted"] - c)
        rec = min(recs, key=lambda k: abs(k["recv"] * 1e3 - (t["sent"] or c)), default=None)
        if rec is None or t["sent"] is None or t["received"] is None:
            continue
        ms = {name: (rec[name][1] - rec[name][0]) * 1e3 for name in ("fit", "summarize", "all_words", "run_trait",
                                                                     "library_trait", "fitted") if name in rec}
        parts["K"].append(rec.get("K"))
        parts["to_kernel"].append(rec["recv"] * 1e3 - t["sent"])
        parts["fit"].append(ms.get("fit"))
        parts["summary"].append(ms.get("summarize"))
        parts["words"].append(ms.get("all_words"))
        parts["trait"].append(ms.get("run_trait", ms.get("library_trait")))  # the full trait, or the lean one
        parts["fitted"].append(ms.get("fitted"))
        parts["send"].append(rec["done"] * 1e3 - rec["fitted"][1] * 1e3)
        parts["to_page"].append(t["received"] - rec["done"] * 1e3)
        parts["front"].append(t["library"] - t["received"])
    return {name: median(v) for name, v in parts.items()}


def print_edits(rows: list) -> None:
    print("\nAn edit (a click adding a point) to the new run painted (ms, medians). With a kernel: to the library's "
          "run drawn (its readout) and painted, and where the time went: page -> kernel (from the points' message "
          "sent), in the kernel the fit, the summary, the words (all_words), the trait (run_trait, or the lean "
          "library_trait), _fitted in all, "
          "the trait's send, kernel -> page (until the run is parsed), the front end drawing it")
    print("| editor | load | load avg | K after the edit | browser's run painted (handler) | library's run drawn / "
          "painted | to kernel | fit | summary | words | trait | _fitted | send | to page | front |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        s = _split(r)
        lib = f"{s['library']:.1f} / {s['library_painted']:.1f}" if s["library"] == s["library"] else "no kernel"
        rest = " | ".join(f"{s[k]:.1f}" if s[k] == s[k] else "-" for k in
                          ("to_kernel", "fit", "summary", "words", "trait", "fitted", "send", "to_page", "front"))
        K = f"{s['K']:.0f}" if s["K"] == s["K"] else "-"
        print(f"| {r['where']} | {r['load']} | {r['load_avg']} | {K} | {s['browser_painted']:.1f} "
              f"({s['handler']:.1f}) | {lib} | {rest} |")


def in_lab(browser, tmp: Path, clicks: int, n_edits: int, step_rows: list, edit_rows: list, lessons,
           before: bool = False) -> None:
    cells = SCRATCH_CELLS + (BEFORE_CELLS if before else [])
    with course_lab(tmp / "lab") as server:
        (server.root_dir / SCRATCH).write_text(json.dumps({
            "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
                      for s in cells],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                        "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}))
        for lesson in lessons:
            page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
            path = f"notebooks/{lesson}"
            open_and_run_all(page, server, path)
            wait_kernel_settled(page, path)
            page.evaluate(JS_WATCH)
            page.evaluate(JS_EXECUTE, KERNEL_WATCH)
            player = page.locator(".perceptron-browserplayer").first
            editor = page.locator(".perceptron-browsereditor").first
            n = page.evaluate(JS_EXECUTE, "print(len(_bench_editors[0].points[1]))").strip()
            for load in ("idle", "busy"):
                step_rows.append(steps(page, player, clicks, load, f"JupyterLab, lesson {lesson[:2]}, kernel running"))
                edit_rows.append(edits(page, editor, n_edits, load, f"JupyterLab, lesson {lesson[:2]} ({n} points)",
                                       kernel=True, path=path))
            page.close()
            server.shutdown_kernels()
        page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        open_and_run_all(page, server, SCRATCH)
        wait_kernel_settled(page, SCRATCH)
        page.evaluate(JS_WATCH)
        page.evaluate(JS_EXECUTE, KERNEL_WATCH)
        names = BEFORE_NAMES if before else ["200 separable points", "200 points, no line"]
        Ks = [page.evaluate(JS_EXECUTE, f"print(_bench_editors[{j}].run['K'])").strip() for j in range(len(names))]
        names = [f"JupyterLab, {name} (K = {K})" for name, K in zip(names, Ks, strict=True)]
        locators = [page.locator(".perceptron-browsereditor").nth(j) for j in range(len(names))]
        for load in ("idle", "busy"):
            if before:  # now and before, one edit each in turn
                order = BEFORE_ORDER
                rows = edits_alternating(page, [locators[j] for j in order], [names[j] for j in order], n_edits,
                                         load, SCRATCH)
                edit_rows.extend(rows)
                continue
            for locator, name in zip(locators, names, strict=True):
                edit_rows.append(edits(page, locator, n_edits, load, name, kernel=True, path=SCRATCH))
        page.close()
        server.shutdown_kernels()


def in_site(browser, tmp: Path, clicks: int, n_edits: int, step_rows: list, edit_rows: list) -> None:
    page, out, remote, problems = offline_site(browser, tmp / "site", (LESSON,))
    assert open_offline(page, out / LESSON.replace(".ipynb", ".html")) == "ready"
    for load in ("idle", "busy"):
        row = steps(page, page.locator(".perceptron-browserplayer").first, clicks, load, "site over file://, lesson 00")
        row["sent"] = None
        step_rows.append(row)
        edit_rows.append(edits(page, page.locator(".perceptron-browsereditor").first, n_edits, load,
                               "site over file://, lesson 00 (10 points)", kernel=False))
    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems[:3])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=30, help="timed Step clicks per place and load (default 30)")
    parser.add_argument("--edits", type=int, default=15, help="timed edits per editor and load (default 15)")
    parser.add_argument("--lessons", nargs="*", default=list(LESSONS), help="lessons stepped and edited in "
                        f"JupyterLab: their first player and first editor (default {' '.join(LESSONS)})")
    parser.add_argument("--before", action="store_true", help="also the 200-point editors as they were before "
                        "the run's arrays went as binary buffers and the points before the page's fit (`BEFORE_CELLS`)"
                        ", their edits alternating with today's")
    parser.add_argument("--no-site", action="store_true", help="skip the built site (JupyterLab only)")
    args = parser.parse_args(argv)
    missing = browser_missing_reason()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    step_rows, edit_rows = [], []
    with tempfile.TemporaryDirectory(prefix="bench-course-") as tmp, sync_playwright() as pw:
        browser = launch(pw)
        (Path(tmp) / "site").mkdir()
        if not args.no_site:
            in_site(browser, Path(tmp), args.clicks, args.edits, step_rows, edit_rows)
        in_lab(browser, Path(tmp), args.clicks, args.edits, step_rows, edit_rows, args.lessons, args.before)
        browser.close()
    print_steps(step_rows)
    print_edits(edit_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
