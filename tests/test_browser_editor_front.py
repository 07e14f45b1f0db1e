"""The point editor in the browser (`BrowserEditor`, ``perceptron_lib/player/front/editor.js``), in Chromium, no kernel.

One blank page (every request but data:, blob: and about: refused) loads the editor's front end (the module
`BrowserEditor._esm` holds) from a Blob URL, as anywidget does. Three kinds of checks:

* the browser's rules against the library's: the same random edit sequences replayed by `core.edits` here and by
  ``edits.js`` there give the same states and the same messages; the browser's words of random runs (``words.js``,
  ``runspec.js``) are `readout.state_lines`, `alt_text`, `own_data.summary_lines` and `frames.step_numbers`'s
  crosses letter for letter; numbers are written as Python writes them (ties of "g", repr, the literal);
* the editor driven as a student drives it, with a stand-in for anywidget's model and no kernel: real clicks,
  drags, alt- and shift-clicks and keys on the SVG; after each edit the run drawn is `fit_perceptron`'s on the
  points the model was sent (same updates, states within 1e-12), one message per edit;
* the hand-over to Python: a library run set on the model replaces the browser's without losing the focus, the
  keyboard cursor or the selection, and a run of older points is dropped; axe-core finds nothing serious.
"""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest

from perceptron_lib.core import data, edits
from perceptron_lib.core.frames import mistakes_at_each_step
from perceptron_lib.core.own_data import parse_points, points_literal, snap, summarize, summary_lines
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import plotting
from perceptron_lib.player.browser_editor import EDIT_HINT, BrowserEditor
from perceptron_lib.player.readout import alt_text, state_lines
from tests.test_browser_player_front import front_page

pytestmark = pytest.mark.browser

#: The editor on the page: `mountEditor` (anywidget's `render` without the handle) with the player's tests' stand-in
#: for anywidget's model (`FAKE_MODEL`: ``saves`` lists the names set before each ``save_changes``).
#: The state and every value set from Python go through ``fromWire`` (the page's half of `wire`): a binary buffer
#: becomes a DataView, as ipywidgets puts one back, at an odd offset of a larger ArrayBuffer (a reader must use the
#: view's own offset).
MOUNT_EDITOR = """() => {
  window.fromWire = (v) => {
    if (Array.isArray(v)) return v.map(window.fromWire);
    if (v === null || typeof v !== "object") return v;
    if (typeof v.$buffer === "string") {
      const bytes = Uint8Array.from(atob(v.$buffer), (c) => c.charCodeAt(0));
      const big = new Uint8Array(bytes.length + 3);
      big.set(bytes, 3);
      return new DataView(big.buffer, 3, bytes.length);
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, window.fromWire(x)]));
  };
  window.mount = (state) => {
    if (window.editor) window.editor.unmount();
    const el = document.createElement("div");
    el.id = "widget";
    document.querySelector("main").replaceChildren(el);
    window.model = window.makeModel(window.fromWire(state));
    const fromPython = window.model.fromPython;
    window.model.fromPython = (name, value) => fromPython(name, window.fromWire(value));
    window.editor = window.front.mountEditor(window.model, el);
  };
}"""


def wire(value):
    """A widget's state or trait as the page gets it: each binary buffer (a memoryview: ipywidgets sends it as a
    buffer of the message) as ``{"$buffer": base64}``, which the page (`MOUNT_EDITOR`'s ``fromWire``) makes a
    DataView; the rest as it is (JSON)."""
    if isinstance(value, (memoryview, bytes, bytearray)):
        return {"$buffer": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dict):
        return {key: wire(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [wire(v) for v in value]
    return value


def editor_page(chromium, *, title="the editor in the browser", after=True):
    """`front_page` with the editor's front end and `MOUNT_EDITOR` defined; no page error while it was used."""
    for page in front_page(chromium, esm=BrowserEditor._esm, title=title, after=after, check_errors=True):
        page.evaluate(MOUNT_EDITOR)
        yield page


@pytest.fixture(scope="module")
def page(chromium):
    yield from editor_page(chromium)


# ---------------------------------------------------------------------------------------------- numbers as text
def test_numbers_are_written_as_python_writes_them(page):
    rng = np.random.default_rng(7)
    values = [1.0625, 0.125, 2.675, 1.5, 0.0001234, 12345.678, 1e-5, 1e16, 1.5e16, 123456789.0, -0.03125, 9.9995,
              99999.5, 0.000099995, 5e-324, 1.7976931348623157e308, -2.5, 0.1 + 0.2]
    values += rng.normal(scale=10.0 ** rng.integers(-8, 9, size=300)).tolist()
    values += (rng.integers(-2000, 2000, size=200) / 64).tolist()  # exact binary fractions: the ties of "g"
    got = json.loads(page.evaluate("""(vs) => JSON.stringify(vs.map((v) => [front.pyG(v, 2), front.pyG(v, 3),
        front.pyG(v, 4), front.pyFloatRepr(v), front.readoutNum(v), front.ownNum(v)]))""", values))
    from perceptron_lib.core.own_data import num as own_num
    from perceptron_lib.player.readout import num as readout_num

    for v, g in zip(values, got, strict=True):
        assert g == [f"{v:.2g}", f"{v:.3g}", f"{v:.4g}", repr(v), readout_num(v), own_num(v)], v


def test_the_points_literal_and_its_reading_are_pythons(page):
    rng = np.random.default_rng(3)
    X = np.round(rng.uniform(-3, 3, size=(12, 2)), 2)
    X[0] = [-0.0, 1e-5]
    y = rng.choice([-1.0, 1.0], size=12)
    assert page.evaluate("([X, y]) => front.pointsLiteral(X, y)", [X.tolist(), y.tolist()]) == points_literal(X, y)
    texts = [points_literal(X, y), "X = np.array([[0.5, 1], [-1, 2]]); y = [1, -1]",
             "X = [(1, 2), (3, 4)]\ny = (1, -1)",
             "X = [[1_000, 2e-3], [.5, 3.]]\ny=[1,-1];", "", "  ", "X = [[1, 2]]", "y = [1]\nX = [[1, 2, 3]]",
             "X = [[1, 2], [3]]\ny = [1, -1]", "X = [[1, 2]]\ny = [2]", "X = [[1, 2]]\ny = [1, -1]", "z = 3",
             "X = [[1, 2]]\ny = [1, 'a']", "X = [[1e999, 2]]\ny = [1]", "X = []\ny = []", "X = 5\ny = [1]",
             "X = [[1, 2]] + [[3, 4]]\ny = [1, 1]", f"X = {[[0.0, float(i)] for i in range(501)]}\ny = {[1] * 501}"]
    for text in texts:
        try:
            Xp, yp = parse_points(text)
            expected = {"X": Xp.tolist(), "y": yp.tolist()}
        except ValueError as exc:
            expected = {"error": str(exc)}
        got = page.evaluate("(t) => { try { return front.parsePoints(t); } catch (e) { return {error: e.message}; } }",
                            text)
        assert got == expected, text


# ---------------------------------------------------------------------------------------------- the edit rules
def _random_ops(rng, n_ops):
    """A random edit sequence: clicks near the points (some on top of one), moves, removals (some of no point),
    Clear, Start again, loads (some breaking a rule), Undo and Redo (some with nothing to walk)."""
    ops, count = [], 6
    for _ in range(n_ops):
        kind = rng.choice(["add", "add", "add", "move", "remove", "undo", "redo", "clear", "again", "load", "text"],
                          p=[0.2, 0.1, 0.1, 0.12, 0.12, 0.12, 0.08, 0.03, 0.03, 0.05, 0.05])
        span = float(rng.choice([4.0, 5.0, 0.3, 40.0, 4000.0, 7.31]))
        x = (rng.uniform(-1, 1, size=2) * span / 2).tolist()
        if rng.random() < 0.25:  # near a point of the lesson: on top of it, or just off
            near = np.array([[0.5, 0.5], [-1, 0], [1, -1.25]])[rng.integers(3)]
            x = (near + rng.normal(size=2) * span / 300).tolist()
        i = int(rng.integers(-1, count + 2))
        if kind == "add":
            ops.append(["add", x, int(rng.choice([-1, 1])), span])
            count += 1
        elif kind == "move":
            ops.append(["move", i, x, span])
        elif kind == "remove":
            ops.append(["remove", i])
            count = max(count - 1, 0)
        elif kind in ("load", "text"):
            m = int(rng.integers(1, 6))
            X = np.round(rng.normal(size=(m, 2)), int(rng.integers(0, 3)))
            y = rng.choice([-1, 1], size=m)
            if rng.random() < 0.2:
                X[-1], y[-1] = X[0], -y[0]  # one spot, two labels
            if kind == "load":
                ops.append(["load", X.tolist(), y.tolist(), bool(rng.random() < 0.3)])
            else:
                ops.append(["text", points_literal(X, y) if rng.random() < 0.8 else "X = [[1, 2]]\ny = [1, 1]"])
            count = m
        else:
            ops.append([kind])
    return ops


def _python_replay(X0, y0, ops, max_points):
    out, s = [], edits.start(X0, y0, max_points=max_points)
    apply = {
        "add": lambda s, a: edits.add(s, a[0], a[1], span=a[2]),
        "move": lambda s, a: edits.move(s, a[0], a[1], span=a[2]),
        "remove": lambda s, a: edits.remove(s, a[0]),
        "undo": lambda s, a: edits.undo(s),
        "redo": lambda s, a: edits.redo(s),
        "clear": lambda s, a: edits.clear(s),
        "again": lambda s, a: edits.start_again(s),
        "load": lambda s, a: edits.load(s, a[0], a[1], lesson=a[2]),
        "text": lambda s, a: edits.load_text(s, a[0]),
    }
    for op, *args in ops:
        try:
            s = apply[op](s, args)
            out.append(None)
        except ValueError as exc:
            out.append(str(exc))
        pts = lambda p: [[list(x) for x in p[0]], list(p[1])]  # noqa: E731
        out.append({"X": [list(p) for p in s.X], "y": list(s.y), "lesson": pts(s.lesson),
                    "undo": [pts(p) for p in s.undo_stack], "redo": [pts(p) for p in s.redo_stack]})
    return out


JS_REPLAY = """([X0, y0, ops, maxPoints]) => {
  const f = window.front;
  const apply = {
    add: (s, a) => f.addPoint(s, a[0], a[1], a[2]), move: (s, a) => f.movePoint(s, a[0], a[1], a[2]),
    remove: (s, a) => f.removePoint(s, a[0]), undo: (s) => f.undoEdit(s), redo: (s) => f.redoEdit(s),
    clear: (s) => f.clearPoints(s), again: (s) => f.startAgain(s), load: (s, a) => f.loadPoints(s, a[0], a[1], a[2]),
    text: (s, a) => f.loadPointsText(s, a[0]),
  };
  const pts = (p) => [p.X, p.y];
  let s = f.startEdits(X0, y0, maxPoints);
  const out = [];
  for (const [op, ...args] of ops) {
    try { s = apply[op](s, args); out.push(null); } catch (e) { out.push(e.message); }
    out.push({X: s.X, y: s.y, lesson: pts(s.lesson), undo: s.undo.map(pts), redo: s.redo.map(pts)});
  }
  return JSON.stringify(out);
}"""


def test_the_same_random_edits_give_the_same_states_and_messages(page):
    rng = np.random.default_rng(30)
    X0, y0 = np.array([[0.5, 0.5], [-1.0, 0.0], [1.0, -1.25], [2.0, 1.0], [-0.25, -2.0], [0.0, 1.5]]), \
        np.array([1, -1, 1, 1, -1, -1])
    refused = 0
    for seq in range(150):
        ops = _random_ops(rng, 40)
        max_points = 8 if seq % 5 == 0 else 500
        want = _python_replay(X0, y0, ops, max_points)
        got = json.loads(page.evaluate(JS_REPLAY, [X0.tolist(), y0.tolist(), ops, max_points]))
        for j, (a, b) in enumerate(zip(want, got, strict=True)):
            assert a == b, f"sequence {seq}, after {ops[j // 2]}: Python {a!r}, browser {b!r}"
        refused += sum(isinstance(m, str) for m in want)
    assert refused > 500  # the rules were met, not only the happy path


# ---------------------------------------------------------------------------------------------- the words
def _random_runs(rng, n):
    """Random runs the editors make: whole numbers, hundredths, no line (cycles), one class, every mistake test,
    both orders, the margin perceptron's threshold, through the origin or not, starts off 0."""
    for j in range(n):
        m = int(rng.integers(1, 16))
        X = rng.integers(-4, 5, size=(m, 2)).astype(float) if j % 2 else np.round(rng.uniform(-2, 2, (m, 2)), 2)
        y = rng.choice([-1.0, 1.0], size=m) if j % 3 else np.where(X @ [1.0, -0.5] + 0.3 > 0, 1.0, -1.0)
        keep = [i for i in range(m) if not any((X[k] == X[i]).all() and y[k] != y[i] for k in range(i))]
        X, y = X[keep], y[keep]
        update_on = str(rng.choice(["nonpositive", "negative", "sign"]))
        s = dict(update_on=update_on, fit_bias=bool(rng.random() < 0.7), eta=float(rng.choice([1.0, 0.5, 0.1, 3.0])),
                 max_epochs=int(rng.choice([1, 5, 100])), order="random" if rng.random() < 0.3 else "cyclic",
                 margin=1.0 if update_on != "sign" and rng.random() < 0.15 else 0.0,
                 w0=[0.0, 0.0] if rng.random() < 0.6 else rng.choice([-1.0, 0.5, 2.0], size=2).tolist(),
                 b0=0.0 if rng.random() < 0.6 else float(rng.choice([-1.0, 0.25])))
        if s["order"] == "random":
            s["rng"] = int(rng.integers(0, 100))
        yield X, y, s


JS_WORDS = """(cases) => JSON.stringify(cases.map(([X, y, s, ks]) => {
  const f = window.front;
  const run = f.editorFit(X, y, s);
  const spec = f.editorRunSpec(run, X, y, {style: {}, view: null, separator: "line", hint: ""});
  return {K: spec.K, notes: spec.notes, lines: ks.map((k) => spec.lines[k]), alt: ks.map((k) => spec.alt[k]),
          mistakes: ks.map((k) => spec.mistakes[k]), w: spec.w, b: spec.b};
}))"""


def test_the_browsers_words_are_the_readouts_on_random_runs(page):
    rng = np.random.default_rng(11)
    cases, expected = [], []
    for X, y, s in _random_runs(rng, 400):
        run = fit_perceptron(X, y, **s)
        K = len(run.history) - 1
        ks = sorted({0, K, *rng.integers(0, K + 1, size=min(K, 25)).tolist()})
        notes = summary_lines(summarize(X, y, run))
        mistakes = mistakes_at_each_step(run, X, y)
        expected.append({"K": K, "notes": notes, "lines": [state_lines(run, X, y, k) + notes for k in ks],
                         "alt": [alt_text(run, X, y, k) for k in ks], "mistakes": [mistakes[k] for k in ks]})
        cases.append([X.tolist(), y.tolist(), s, ks])
    got = json.loads(page.evaluate(JS_WORDS, cases))
    ended, near = set(), 0
    for case, want, have in zip(cases, expected, got, strict=True):
        n = len(want["notes"])
        assert have["K"] == want["K"] and have["mistakes"] == want["mistakes"] and have["alt"] == want["alt"], case
        assert [line[:-n] for line in have["lines"]] == [line[:-n] for line in want["lines"]], case
        near += _same_summary(have["notes"], want["notes"], case)
        assert all(line[-n:] == have["notes"] for line in have["lines"])
        ended.add(re.match(r"End: (converged|cycle|stopped[^,]*)", want["lines"][-1][-n - 1]).group(0))
    assert near <= 4, f"{near} summaries written with other digits"
    assert {"End: converged", "End: cycle", "End: stopped after 1 epoch (the max_epochs limit)"} <= ended


_NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?(?:e[-+]\d+)?")


def _same_summary(have, want, case) -> bool:
    """The summary lines the same, but for a number near a rounding edge: gamma and the bound are the same within
    1e-9 of their size (the browser's solver is not the library's), so "1378" may be the library's "1.38e+03".
    Returns whether such a number was met."""
    if have == want:
        return False
    assert [_NUMBER.sub("#", line) for line in have] == [_NUMBER.sub("#", line) for line in want], case
    for a, b in zip(have, want, strict=True):
        for u, v in zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True):
            assert abs(float(u) - float(v)) <= 0.01 * max(abs(float(u)), abs(float(v))), (a, b, case)
    return True


def test_no_points_is_a_run_too(page):
    got = page.evaluate("""() => { const f = window.front; const run = f.editorFit([], [], {w0: [1, -1], b0: 0.5});
        const spec = f.editorRunSpec(run, [], [], {style: {}, view: null, separator: "line", hint: ""});
        return [spec.K, spec.lines[0], spec.alt[0]]; }""")
    assert got == [0, ["No points: nothing for the perceptron to look at yet.", "w = (1, -1), b = 0.5.",
                       "Your data: no points yet. Click or tap the picture to place one."],
                   "An empty plane: no data points yet."]


def test_the_hint_and_the_view_are_the_librarys(page):
    assert page.evaluate("() => window.front.EDIT_HINT") == EDIT_HINT
    from perceptron_lib.player.panels.data import DataPanel

    rng = np.random.default_rng(2)
    for fit_bias, b0 in ((True, 0.0), (False, 0.0), (False, 1.0)):
        for X in (np.empty((0, 2)), rng.normal(size=(1, 2)), rng.normal(size=(7, 2)) * 3 + 5, np.zeros((3, 2))):
            run = fit_perceptron(np.array([[1.0, 0.0]]), np.array([1.0]), fit_bias=fit_bias, b0=b0)
            want = [list(v) for v in DataPanel(mode="plain").view_for(run, X)]
            got = page.evaluate("([X, o]) => window.front.viewFor(X, o)", [X.tolist(), {"fitBias": fit_bias, "b0": b0}])
            assert np.allclose([got["xlim"], got["ylim"]], want, rtol=0, atol=1e-12), (X, fit_bias, b0)


# ---------------------------------------------------------------------------------------------- driven as a student
TEN = data.separable(10, margin=0.2, bias=True, seed=4)


def _mount(page, editor=None):
    """The editor's front end on the page, from a real widget's state (lesson 00's ten points by default)."""
    editor = editor or BrowserEditor(fit_perceptron(*TEN), *TEN)
    state = editor.get_state()
    names = ("run", "points", "lesson", "settings", "options", "k", "interval_ms")
    page.evaluate("(s) => window.mount(s)", wire({name: state[name] for name in names}))
    page.locator("#widget .pp-picture").scroll_into_view_if_needed()
    return editor


JS_AT = """(p) => { const e = window.editor.player(); const plot = e.scene.svg.querySelector('.pp-plot');
  const m = plot.getScreenCTM(); const q = new DOMPoint(e.scene.tf.x(p[0]), e.scene.tf.y(p[1])).matrixTransform(m);
  return [q.x, q.y]; }"""


def _at(page, p, dx=0.0, dy=0.0):
    """The page coordinates of data point p, moved by (dx, dy) CSS px."""
    x, y = page.evaluate(JS_AT, [float(v) for v in p])
    return x + dx, y + dy


def _shown(page) -> dict:
    return json.loads(page.evaluate("""() => { const s = window.editor.spec(), st = window.editor.state();
      const root = document.querySelector('#widget');
      return JSON.stringify({X: st.X, y: st.y, w: s.w, b: s.b, i: s.i, K: s.K, k: window.model.get('k'),
        points: window.model.get('points'), saves: window.model.saves, view: s.view,
        drawn: root.querySelectorAll('path.pp-point').length,
        message: root.querySelector('.pe-message').textContent,
        readout: [...root.querySelectorAll('.pp-readout p')].map((p) => p.textContent),
        label: root.querySelector('.pp-picture').getAttribute('aria-label'),
        boundary: [...root.querySelectorAll('line.pp-boundary')].map((l) => {
          const tf = window.editor.player().scene.tf, v = s.view;
          const at = (x, y) => [v.xlim[0] + Number(l.getAttribute(x)) / tf.unit,
                                v.ylim[1] - Number(l.getAttribute(y)) / tf.unit];
          return [at('x1', 'y1'), at('x2', 'y2')]; }),
        cursor: root.querySelectorAll('.pe-cursor').length, selected: root.querySelectorAll('.pe-selected').length,
        focus: document.activeElement.className}); }"""))


def _is_the_librarys_run(page, settings) -> dict:
    """The run drawn is `fit_perceptron`'s on the points the model holds: the same updates, states within 1e-12
    of their size, the readout at the step shown the library's words; returns what is shown."""
    s = _shown(page)
    X, y = np.array(s["points"][0], dtype=float).reshape(-1, 2), np.array(s["points"][1], dtype=float)
    assert s["X"] == s["points"][0] and s["drawn"] == len(y)
    run = fit_perceptron(X, y, **settings)
    h = run.history
    assert s["K"] == len(h) - 1 and s["i"][1:] == h.i.tolist()
    size = np.abs(h.w).max() + np.abs(h.b).max() + 1
    assert np.allclose(s["w"], h.w, rtol=0, atol=1e-12 * size) and np.allclose(s["b"], h.b, rtol=0, atol=1e-12 * size)
    k = min(s["k"], s["K"])
    notes = summary_lines(summarize(X, y, run))
    assert s["readout"][: -len(notes)] == state_lines(run, X, y, k)
    assert s["label"] == f"{alt_text(run, X, y, k)} {EDIT_HINT}"
    w, b = h.w[k], h.b[k]
    seg = plotting.boundary_segment(w, b, s["view"]["xlim"], s["view"]["ylim"])
    assert len(s["boundary"]) == (0 if seg is None else 1)
    for end in np.array(s["boundary"]).reshape(-1, 2):  # the line drawn is <w, x> + b = 0 (to 0.01 px)
        assert abs(w @ end + b) <= np.linalg.norm(w) * 0.02 * np.ptp(s["view"]["xlim"]) / 440
    return s


def _empty_spot(page, s, prefer=(0.62, 0.3)):
    """A data point of the view at least 20 px from every point (a grid search from `prefer`)."""
    (x0, x1), (y0, y1) = s["view"]["xlim"], s["view"]["ylim"]
    X = np.array(s["X"], dtype=float).reshape(-1, 2)
    for fy in (prefer[1], 0.2, 0.5, 0.8, 0.35, 0.65):
        for fx in (prefer[0], 0.2, 0.5, 0.8, 0.35, 0.65):
            p = np.array([x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)])
            if not len(X) or np.min(np.hypot(*(X - p).T)) * 440 / max(x1 - x0, y1 - y0) > 20:
                return p
    raise AssertionError("no empty spot")


def test_a_click_adds_a_point_and_the_run_drawn_is_fit_perceptrons(page):
    editor = _mount(page)
    settings = dict(editor.settings)
    s0 = _is_the_librarys_run(page, settings)
    assert s0["message"] == EDIT_HINT and s0["k"] == 0
    spot = _empty_spot(page, s0)
    page.mouse.click(*_at(page, spot))
    s1 = _is_the_librarys_run(page, settings)
    assert len(s1["y"]) == 11 and s1["y"][-1] == 1 and s1["k"] == s1["K"]
    assert s1["message"].startswith("Added point 10 at (") and "class +1." in s1["message"]
    assert s1["saves"] == [["points"], ["k"]]  # the points before the page's fit, then the step it shows
    assert s1["focus"] == "pp-picture" and s1["view"] == s0["view"]
    span = max(np.ptp(s0["view"]["xlim"]), np.ptp(s0["view"]["ylim"]))
    assert np.allclose(s1["X"][-1], spot, atol=span / 400)  # rounded to the view's grid
    page.keyboard.down("Shift")
    page.mouse.click(*_at(page, _empty_spot(page, s1, prefer=(0.3, 0.7))))
    page.keyboard.up("Shift")
    s2 = _is_the_librarys_run(page, settings)
    assert s2["y"][-1] == -1 and "class −1." in s2["message"]


def test_a_point_is_hit_within_a_few_pixels_selected_dragged_and_removed(page):
    editor = _mount(page)
    settings = dict(editor.settings)
    s0 = _shown(page)
    p = s0["X"][3]
    page.mouse.click(*_at(page, p, 3, -3))  # 4 px from the centre: on the point
    s1 = _shown(page)
    assert len(s1["y"]) == 10 and s1["message"].startswith("Point 3 selected: (") and s1["selected"] == 1
    page.keyboard.press("Delete")
    s2 = _is_the_librarys_run(page, settings)
    assert len(s2["y"]) == 9 and s2["message"].startswith("Removed point 3; points after it are numbered one less.")
    assert s2["X"] == s0["X"][:3] + s0["X"][4:]
    q = s2["X"][0]
    page.mouse.click(*_at(page, q, 16, 0))  # 16 px away: a new point, not a hit
    assert len(_shown(page)["y"]) == 10
    to = _empty_spot(page, _shown(page), prefer=(0.25, 0.25))
    page.mouse.move(*_at(page, q))
    page.mouse.down()
    page.mouse.move(*_at(page, (np.array(q) + to) / 2), steps=3)
    page.mouse.move(*_at(page, to), steps=3)
    page.mouse.up()
    s3 = _is_the_librarys_run(page, settings)
    assert s3["message"].startswith("Moved point 0 to (") and len(s3["y"]) == 10
    assert np.allclose(s3["X"][0], to, atol=max(np.ptp(s3["view"]["xlim"]), np.ptp(s3["view"]["ylim"])) / 400)
    page.keyboard.down("Alt")
    page.mouse.click(*_at(page, s3["X"][0]))
    page.keyboard.up("Alt")
    s4 = _is_the_librarys_run(page, settings)
    assert len(s4["y"]) == 9 and s4["message"].startswith("Removed point 0")


def test_undo_redo_start_again_clear_load_and_copy(page):
    editor = _mount(page)
    settings = dict(editor.settings)
    s0 = _shown(page)
    page.click("#widget button:text-is('Step')")
    page.click("#widget button:text-is('Step')")
    page.mouse.click(*_at(page, _empty_spot(page, s0)))
    s1 = _shown(page)
    page.click("#widget button:text-is('Undo')")
    s2 = _is_the_librarys_run(page, settings)
    assert s2["X"] == s0["X"] and s2["k"] == 2 and s2["message"].startswith("Undone. A line separates them")
    page.click("#widget button:text-is('Redo')")
    s3 = _is_the_librarys_run(page, settings)
    assert s3["X"] == s1["X"] and s3["k"] == s1["k"] and s3["message"].startswith("Redone.")
    assert page.is_disabled("#widget button:text-is('Redo')")
    page.click("#widget button:text-is('Clear')")
    s4 = _shown(page)
    assert s4["y"] == [] and s4["readout"][0] == "No points: nothing for the perceptron to look at yet."
    assert s4["message"] == "Cleared. Your data: no points yet. Click or tap the picture to place one."
    assert s4["points"] == [[], []] and s4["view"] == s0["view"]
    page.click("#widget button:text-is('Start again')")
    assert _is_the_librarys_run(page, settings)["X"] == s0["X"]
    page.click("#widget button:text-is('Copy points')")  # the lesson's points, rounded to the view's grid
    page.wait_for_function("() => /clipboard/.test(document.querySelector('#widget .pe-message').textContent)")
    span = max(np.ptp(s0["view"]["xlim"]), np.ptp(s0["view"]["ylim"]))
    rounded = points_literal(snap(np.array(s0["X"]), span), np.array(s0["y"]))
    assert page.input_value("#widget textarea") == rounded
    assert max(len(v.split(".")[1]) for v in re.findall(r"-?\d+\.\d+", rounded)) == 3  # span 2.6: a grid of 0.001
    assert page.evaluate("() => document.querySelector('#widget details.pe-more').open")  # Copy opened the box
    page.fill("#widget textarea", "X = [[0, 1], [1, 0], [-1, -1]]\ny = [1, 1, -1]")
    page.click("#widget button:text-is('Load')")
    s5 = _is_the_librarys_run(page, settings)
    assert s5["X"] == [[0, 1], [1, 0], [-1, -1]] and s5["message"].startswith("Loaded 3 points from the box.")
    assert s5["view"] != s0["view"]  # fitted to the new points
    page.fill("#widget textarea", "X = [[0, 1]]\ny = [1, 1]")
    page.click("#widget button:text-is('Load')")
    s6 = _shown(page)
    assert s6["X"] == s5["X"] and s6["message"] == ("Not done: y needs one label per point: X has 1 points and y has "
                                                    "2 labels. Your points are as they were.")
    page.click("#widget button:text-is('Copy points')")
    page.wait_for_function("() => /clipboard/.test(document.querySelector('#widget .pe-message').textContent)")
    assert page.input_value("#widget textarea") == points_literal(np.array(s5["X"]), np.array(s5["y"]))
    page.fill("#widget textarea", "X = [[0, 1]]\ny = [1]")
    page.click("#widget button:text-is('Load')")
    assert _shown(page)["message"].startswith("Loaded 1 point from the box.")  # not '1 points'


COPIED = "() => /clipboard/.test(document.querySelector('#widget .pe-message').textContent)"


def test_copys_message_is_said_once_and_goes_at_the_next_step_key_or_edit(page):
    """Copy's report ("the points are on the clipboard") is put in the live region once, and goes, the line emptied
    without a word more, at the next thing the student does: a step (the button, or a key on the picture), an edit;
    a shortcut (Ctrl+C, a modifier alone) is no such thing."""
    _mount(page)
    message = "#widget .pe-message"
    assert page.get_attribute(message, "role") == "status" and page.get_attribute(message, "aria-live") == "polite"
    page.evaluate("""() => { window.said = [];
      new MutationObserver(() => window.said.push(document.querySelector('#widget .pe-message').textContent))
        .observe(document.querySelector('#widget .pe-message'), {childList: true, characterData: true, subtree: true});
    }""")
    for next_action in ("Step", "key", "edit"):
        page.click("#widget button:text-is('Copy points')")
        page.wait_for_function(COPIED)
        page.wait_for_timeout(100)
        page.focus("#widget .pp-picture")
        page.keyboard.press("Control")  # a modifier alone and a shortcut leave it
        page.keyboard.press("Control+c")
        page.click("#widget .pe-more > summary")  # any click in the editor is its next action, a fold's too
        page.click("#widget .pe-more > summary")
        assert page.evaluate(COPIED) is False, "a click in the editor is its next action"
        page.click("#widget button:text-is('Copy points')")
        page.wait_for_function(COPIED)
        page.keyboard.press("Shift")
        assert page.evaluate(COPIED), next_action
        k = _shown(page)["k"]
        if next_action == "Step":
            button = "#widget button:text-is('Back')" if k else "#widget button:text-is('Step')"
            top = page.locator(button).bounding_box()["y"]
            page.click(button)
            assert page.text_content(message) == "" and _shown(page)["k"] != k
            assert page.locator(button).bounding_box()["y"] == top, "the controls under the line stay put"
            picture = page.locator("#widget .pp-picture").bounding_box()["y"]
            page.hover("#after")  # the pointer off the editor: the line keeps its tallest message's room (keptHeight)
            assert page.locator("#widget .pp-picture").bounding_box()["y"] == picture, "the picture moved"
        elif next_action == "key":
            page.focus("#widget .pp-picture")
            page.keyboard.press("ArrowLeft" if k else "ArrowRight")
            assert _shown(page)["k"] != k and page.text_content(message) == ""
            held = page.evaluate("() => document.querySelector('#widget .pe-message').style.minHeight")
            assert held == "" or page.evaluate("() => document.querySelector('#widget').matches(':hover')")
        else:
            page.click("#widget button:text-is('Clear')")
            assert page.text_content(message).startswith("Cleared.")
            page.click("#widget button:text-is('Undo')")
    copies = [t for t in page.evaluate("() => window.said") if "clipboard" in t]
    assert len(copies) == 6 and len(set(copies)) == 1, "each Copy said once"


def test_a_brief_message_goes_after_its_time_and_a_later_message_stays(page):
    """`messageLine`: a brief message goes by itself after its time, not at a key pressed elsewhere on the page; a
    message said after it (an edit's) cancels that, and stays; so does a problem, with its words."""
    page.mouse.move(1, 1)
    got = page.evaluate("""async () => {
      const root = document.createElement('div');
      const line = document.createElement('div');
      root.append(line);
      document.querySelector('main').append(root);
      const { say, sayBriefly } = front.messageLine(line, root, window, 60);
      const wait = (ms) => new Promise((r) => setTimeout(r, ms));
      sayBriefly('copied');
      document.querySelector('#after').dispatchEvent(new KeyboardEvent('keydown', {key: 'a', bubbles: true}));
      const before = line.textContent;
      await wait(150);
      const after = line.textContent;
      sayBriefly('copied');
      say('Added point 3.');
      await wait(150);
      const kept = line.textContent;
      sayBriefly('copied');
      say('no such point.', true);
      line.dispatchEvent(new KeyboardEvent('keydown', {key: 'a', bubbles: true}));
      const problem = [line.textContent, line.classList.contains('pe-problem')];
      root.remove();
      return [before, after, kept, problem];
    }""")
    assert got == ["copied", "", "Added point 3.", ["Not done: no such point. Your points are as they were.", True]]


def test_the_keyboard_alone_places_and_removes_points_and_never_traps(page):
    editor = _mount(page)
    settings = dict(editor.settings)
    assert page.is_hidden("#widget .pe-cursor-row")  # the cursor's boxes show with the cursor only
    page.focus("#widget button:text-is('Keyboard cursor')")
    page.keyboard.press("Enter")
    assert page.is_visible("#widget .pe-cursor-row")
    s0 = _shown(page)
    assert s0["cursor"] == 1 and s0["message"].startswith("Keyboard cursor at the centre")
    # the focus went to the picture, where the cursor's keys work (on the button, → moved a deck's slide)
    assert page.evaluate("() => !!document.activeElement.closest('#widget .pp-picture')")
    x0 = float(page.input_value("#widget input[type=number] >> nth=0"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowUp")
    assert _shown(page)["k"] == 0  # the arrows move the cursor, not the player
    x1 = float(page.input_value("#widget input[type=number] >> nth=0"))
    assert x1 > x0
    page.keyboard.press("Enter")
    s1 = _is_the_librarys_run(page, settings)
    assert len(s1["y"]) == 11 and s1["message"].startswith("Added point 10") and s1["focus"] == "pp-picture"
    assert s1["cursor"] == 1  # the cursor stays over the new picture
    page.keyboard.press("Delete")
    s2 = _is_the_librarys_run(page, settings)
    assert s2["X"] == s0["X"] and s2["message"].startswith("Removed point 10. ")  # the last: none renumbered
    page.keyboard.press("Escape")
    assert _shown(page)["cursor"] == 0
    page.keyboard.press("ArrowLeft")
    assert _shown(page)["k"] == s2["K"] - 1  # the cursor hidden: the arrows step again
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('.pp-picture')"), "Tab did not leave the picture"


def test_the_librarys_run_replaces_the_browsers_keeping_focus_cursor_and_selection(page):
    editor = _mount(page)
    page.click("#widget button:text-is('Keyboard cursor')")
    page.keyboard.down("Shift")
    page.mouse.click(*_at(page, _empty_spot(page, _shown(page))))
    page.keyboard.up("Shift")
    page.mouse.click(*_at(page, _shown(page)["X"][2]))  # select point 2 (the picture takes the focus)
    s1 = _shown(page)
    assert s1["selected"] == 1 and len(s1["y"]) == 11
    # the kernel's side: the points arrive, the library fits them and sets run (its words marked to tell them)
    editor.points = s1["points"]
    library = json.loads(json.dumps(editor.full_run()))  # whole, to mark its words
    library["lines"][s1["k"]][0] = "THE LIBRARY'S WORDS"
    page.evaluate("(r) => window.model.fromPython('run', r)", library)
    s2 = _shown(page)
    assert s2["readout"][0] == "THE LIBRARY'S WORDS" and s2["k"] == s1["k"] and s2["view"] == s1["view"]
    assert s2["focus"] == "pp-picture" and s2["cursor"] == 1 and s2["selected"] == 1
    # a run of older points (the student went on editing) is dropped
    stale = wire(BrowserEditor(fit_perceptron(*TEN), *TEN).run)
    page.evaluate("(r) => window.model.fromPython('run', r)", stale)
    assert _shown(page)["readout"][0] == "THE LIBRARY'S WORDS"
    # Python loads points: an edit the student can undo
    page.evaluate("(p) => window.model.fromPython('points', p)", [[[0, 1], [2, 2]], [1, -1]])
    s3 = _shown(page)
    assert s3["X"] == [[0, 1], [2, 2]] and s3["message"].startswith("Loaded 2 points.")
    page.click("#widget button:text-is('Undo')")
    assert _shown(page)["X"] == s1["X"]
    page.evaluate("(s) => window.model.fromPython('settings', s)", {**editor.settings, "eta": 0.25})
    s4 = _is_the_librarys_run(page, {**editor.settings, "eta": 0.25})
    assert s4["message"].startswith("Fitted again with the new settings.")


def test_axe_finds_nothing_serious_in_the_editor(page):
    from test_a11y import blocking_violations

    _mount(page, BrowserEditor(fit_perceptron(*TEN), *TEN, style="lecture"))
    page.click("#widget button:text-is('Keyboard cursor')")
    page.click("#widget summary")
    found = blocking_violations(page, "document.querySelector('#widget')")
    assert not found, "\n".join(found)
    # the lecture preset: no text of the editor's own (controls, message, help, the box) under 18 px
    smallest = page.evaluate("""() => { let least = [Infinity, ''];
      for (const e of document.querySelectorAll('#widget *')) {
        if (!e.offsetParent || e.closest('svg, .pp-readout, .pp-legend')) continue;
        if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const px = parseFloat(getComputedStyle(e).fontSize);
        if (px < least[0]) least = [px, e.textContent.trim().slice(0, 30)]; }
      return least; }""")
    assert smallest[0] >= 18, smallest
