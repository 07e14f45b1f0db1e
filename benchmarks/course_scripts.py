"""The scripts `browser_course.py` runs in JupyterLab's page and in its kernel, and the scratch notebook's cells.

In the page: `JS_WATCH` (every comm message on the kernel connection, timed), `JS_EXECUTE` (code run in the
kernel, its printed text back), `JS_STEPS` (Step clicks, timed to the frames) and `JS_EDIT` (an edit, timed to
the browser's run painted and the library's run drawn; it marks ``bench-click`` and ``bench-library`` for a
trace, `edit_trace.py`). In the kernel: `KERNEL_WATCH` (a stopwatch on every `BrowserEditor`'s comm messages and
the parts of its refit) and `KERNEL_READ`. The scratch notebook: `SCRATCH_CELLS` (two editors of 200 points) and,
with ``--before``, `BEFORE_CELLS` (editors as they were before the last change measured, `REDRAWN`).
"""

from __future__ import annotations

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

#: ``--before``: the scratch notebook also shows the 200-point editors and lesson 05's editor of lifted points as they
#: were before the library's run, equal to the page's own, was taken as it is drawn (`REDRAWN`: the library's run
#: always drawn again, the lifted view's bowl made again for every spec, and a new lifted view drawn at the start
#: state before the step shown): the benchmark's own subclass, its
#: module text with those lines put back (the product has no switch). Their edits alternate with today's editors',
#: one edit each in turn (`BEFORE_ORDER`).
REDRAWN = [
    ('      if (spec === mine.spec && root.dataset.run === "browser" && sameAsMine(mine, next, lib)) '
     'return adopt(lib);\n', ""),
    ("    bowl: roundedMesh(box),\n", "    bowl: bowlMesh(box).map((p) => p.map((q) => q.map(round))),\n"),
    ("  queueMicrotask(() => {\n    if (!drawn) render();\n  });\n", "  render();\n"),
]
BEFORE_CELLS = [
    "from perceptron_lib.player.browser_editor import editor_source as _src\n"
    f"_old = _src()\nfor _now, _then in {REDRAWN!r}:\n"
    "    assert _now in _old, f'not in the editor module: {_now!r}: update benchmarks/course_scripts.py REDRAWN'\n"
    "    _old = _old.replace(_now, _then)\n"
    "class RedrawnEditor(BrowserEditor):\n"
    "    _esm = _old\n"
    "from perceptron_lib.core import kernels\nfrom perceptron_lib.player import LiftedPanel\n"
    "X5, y5 = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)  # lesson 05's editor's points\n"
    "def lifted(cls):\n"
    "    return cls(fit_perceptron(kernels.lift(X5), y5), X5, y5, lift=kernels.lift, panels=[LiftedPanel()],\n"
    "               separator='plane of the lift')",
    "RedrawnEditor(fit_perceptron(X2, y2), X2, y2)",
    "lifted(BrowserEditor)",
    "lifted(RedrawnEditor)",
]
#: The scratch editors' names with ``--before`` (in the order of the cells) and the order their edits take in turn.
BEFORE_NAMES = ["200 separable points", "200 points, no line", "200 points, no line, before (drawn again)",
                "lesson 05's editor (60 lifted points)", "lesson 05's editor, before (drawn again)"]
BEFORE_ORDER = [0, 1, 2, 3, 4]

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
      if (root.dataset.run === 'library') { obs.disconnect(); performance.mark('bench-library'); resolve(now()); }
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
  performance.mark('bench-click');
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
