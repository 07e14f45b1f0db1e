"""The stepping player in the browser (`BrowserPlayer`, ``perceptron_lib/player/front/player.js``), in Chromium.

One blank page (no network: every request but data:, blob: and about: is refused) loads the widget's
front end, the module `BrowserPlayer._esm` holds, from a Blob URL as anywidget does, and calls its
``render({model, el})`` with a small stand-in for anywidget's model (``get``, ``set``, ``on``, ``off``,
``save_changes``) filled from a real widget's traits (``widget.get_state()``). The model records every
``save_changes`` with the names set since the last one: the messages the kernel would get.

Checked against the run's numbers, read back from the SVG through the view's transform: the boundary's
ends (on <w, x> + b = 0 and on the view's edge: `plotting.boundary_segment`), the arrows' tails and tips
(where `DataPanel.place` puts them on a matplotlib axes of the same view), the ringed example, the crossed
points (the points with y(<w,x>+b) <= 0, computed here). Then the controls and the keys, frame k as a pure
function of k (the same markup after 0 -> k, K -> k, and a jump), one message per step carrying only k,
and axe-core on the rendered widget.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import traitlets

from perceptron_lib.core import data
from perceptron_lib.core.frames import mistakes_at_each_step, ringed_at_each_step
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import plotting
from perceptron_lib.player.browser import BrowserPlayer
from perceptron_lib.player.panels.data import DataPanel, _fraction
from perceptron_lib.player.panels.updates import EpochPanel
from perceptron_lib.player.readout import alt_text, state_lines

PX = 0.02  # the markup writes coordinates to 0.01 px
TESTS = Path(__file__).resolve().parent


def _runs():
    """Real runs: lesson 00's two points and ten, lesson 03's forty (with offset and through the origin) and its
    six points, a cycle (XOR), and the strict test (the "wrong side" legend)."""
    tiny = np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1.0, -1.0])
    ten = data.separable(10, margin=0.2, bias=True, seed=4)
    forty = data.separable(40, margin=0.1, bias=True, seed=3)
    origin = data.separable(40, margin=0.1, seed=3)
    six = data.no_origin_separator()
    xor = data.xor()
    small = data.small_2d()
    return {
        "00 two points": (fit_perceptron(*tiny), *tiny, {}),
        "00 ten points": (fit_perceptron(*ten), *ten, {}),
        "03 forty points": (fit_perceptron(*forty), *forty, {}),
        "03 homogeneous": (fit_perceptron(*origin, fit_bias=False, eta=0.5), *origin, {}),
        "03 six points, lecture": (fit_perceptron(*six), *six, {"style": "lecture"}),
        "xor cycle": (fit_perceptron(*xor), *xor, {}),
        "strict test": (fit_perceptron(*small, update_on="negative", w0=[1.0, -1.0]), *small, {}),
    }


RUNS = _runs()

FAKE_MODEL = """() => {
  window.makeModel = (state) => {
    const listeners = {};
    let dirty = new Set();
    const model = {
      saves: [],
      get: (name) => state[name],
      set: (name, value) => { state[name] = value; dirty.add(name); model.emit(name); },
      on: (event, cb) => { (listeners[event] ||= []).push(cb); },
      off: (event, cb) => { listeners[event] = (listeners[event] || []).filter((f) => f !== cb); },
      save_changes: () => { model.saves.push([...dirty].sort()); dirty = new Set(); },
      emit: (name) => { for (const cb of listeners[`change:${name}`] || []) cb(); },
      fromPython: (name, value) => { state[name] = value; model.emit(name); },
    };
    return model;
  };
  window.mount = (state) => {
    if (window.unmount) window.unmount();
    const el = document.createElement("div");
    el.id = "widget";
    document.querySelector("main").replaceChildren(el);
    window.model = window.makeModel(state);
    window.unmount = window.front.default.render({ model: window.model, el });
  };
}"""


def front_page(chromium, *, width=1440, height=900, esm=None, title="the player in the browser", after=True,
               check_errors=False, touch=False):
    """A blank page with a widget's front end loaded (`esm`, default the player's) and the model stand-in defined
    (`FAKE_MODEL`); yields it, and closes its browser context after. `after`: a button after the widget (where Tab
    goes on to); `check_errors`: no page error may have been raised while the page was used; `touch`: a phone's
    screen (touch events, device pixel ratio 3)."""
    phone = {"has_touch": True, "is_mobile": True, "device_scale_factor": 3} if touch else {}
    ctx = chromium.new_context(viewport={"width": width, "height": height}, **phone)
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:", "about:")) else r.abort())
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    button = '<button id="after" type="button">a button after the widget</button>' if after else ""
    meta = '<meta name="viewport" content="width=device-width, initial-scale=1">' if touch else ""
    page.set_content(f'<!doctype html><html lang="en">{meta}<title>{title}</title><body><main></main>{button}'
                     '</body></html>')
    page.evaluate("""async (src) => {
        const url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
        window.front = await import(url);
    }""", BrowserPlayer._esm if esm is None else esm)
    page.evaluate(FAKE_MODEL)
    yield page
    if check_errors:
        assert not errors, errors
    ctx.close()


@pytest.fixture(scope="module")
def page(chromium):
    yield from front_page(chromium)


def mount(page, widget):
    """Render `widget`'s front end into the page from its real state; returns the state."""
    state = widget.get_state()
    page.evaluate("(state) => window.mount(state)", {"run": state["run"], "k": state["k"],
                                                     "interval_ms": state["interval_ms"]})
    return state


def _svg(page) -> str:
    return page.eval_on_selector("#widget svg.pp-scene", "e => e.outerHTML")


def _k(page) -> int:
    return page.evaluate("() => window.model.get('k')")


def _frame(page) -> dict:
    """What step the picture shows, read from the page: the SVG's shapes and the words."""
    return page.evaluate("""() => {
      const root = document.querySelector('#widget');
      const attrs = (sel, names) => [...root.querySelectorAll(sel)].map((e) => names.map((n) => e.getAttribute(n)));
      const plot = root.querySelector('.pp-plot').getAttribute('transform');
      return {
        plot,
        boundary: attrs('line.pp-boundary', ['x1', 'y1', 'x2', 'y2']),
        before: attrs('line.pp-boundary-before', ['x1', 'y1', 'x2', 'y2']),
        arrows: Object.fromEntries(['pp-w', 'pp-w-before', 'pp-update'].map((c) => [c,
          attrs(`g.${c} line`, ['x1', 'y1']).map((t, j) => [t, root.querySelectorAll(`g.${c} polygon`)[j]
            .getAttribute('points').split(' ')[0].split(',')])])),
        ring: attrs('circle.pp-ring', ['data-i', 'cx', 'cy']),
        crosses: attrs('path.pp-cross', ['data-i', 'd']),
        note: root.querySelector('.pp-note').textContent,
        caption: root.querySelector('.pp-caption').textContent,
        readout: [...root.querySelectorAll('.pp-readout p')].map((p) => p.textContent),
        label: root.querySelector('.pp-picture').getAttribute('aria-label'),
        box: root.querySelector('input[type=number]').value,
      };
    }""")


class View:
    """The map from data to the SVG's pixels, computed here from the trait: equal units, the view's longer side
    `panel_px` long, y up, shifted by the plot group's translation."""

    def __init__(self, run_trait, plot_transform):
        (self.x0, self.x1), (self.y0, self.y1) = run_trait["view"]["xlim"], run_trait["view"]["ylim"]
        self.unit = run_trait["style"]["panel_px"] / max(self.x1 - self.x0, self.y1 - self.y0)
        self.left, self.top = map(float, re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", plot_transform).groups())

    def px(self, p):
        """Pixels of data point p, inside the plot group."""
        return np.array([(p[0] - self.x0) * self.unit, (self.y1 - p[1]) * self.unit])

    def data(self, q):
        return np.array([float(q[0]) / self.unit + self.x0, self.y1 - float(q[1]) / self.unit])


def _place(view, w, b, wp):
    """Where the kernel's DataPanel puts the step's arrows on a matplotlib axes with the same view."""
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    ax.set_xlim(view.x0, view.x1)
    ax.set_ylim(view.y0, view.y1)
    panel = DataPanel()
    panel.ax, panel.mode = ax, "plain"
    panel.room = 0.4 * min(view.x1 - view.x0, view.y1 - view.y0)
    return panel.place(np.asarray(w), float(b), None if wp is None else np.asarray(wp))


def _check_frame(f, trait, run, X, y, k):
    """Every shape of frame k against the run's numbers at k."""
    view = View(trait, f["plot"])
    h = run.history
    w, b = h.w[k], float(h.b[k])
    box = (view.x0, view.x1), (view.y0, view.y1)
    seg = plotting.boundary_segment(w, b, *box)
    if seg is None:
        assert f["boundary"] == []
    else:
        (line,) = f["boundary"]
        ends = [view.data(line[:2]), view.data(line[2:])]
        for end in ends:  # on the line, and on the view's edge
            assert abs(w @ end + b) <= np.linalg.norm(w) * PX / view.unit
            assert min(abs(end[0] - view.x0), abs(end[0] - view.x1), abs(end[1] - view.y0), abs(end[1] - view.y1)) \
                <= PX / view.unit
        assert np.allclose(np.array(ends), seg, atol=PX / view.unit)
    before = None if k == 0 else plotting.boundary_segment(h.w[k - 1], h.b[k - 1], *box)
    if before is None:
        assert f["before"] == []
    else:
        (line,) = f["before"]
        assert np.allclose([view.data(line[:2]), view.data(line[2:])], before, atol=PX / view.unit)
    wp = h.w[k - 1] if k > 0 else None
    anchor, scale = _place(view, w, b, wp)
    expected = {"pp-w": (anchor, anchor + scale * w)}
    if wp is not None:
        expected["pp-w-before"] = (anchor, anchor + scale * wp)
        expected["pp-update"] = (anchor + scale * wp, anchor + scale * w)
    for cls, arrows in f["arrows"].items():
        tail_tip = expected.get(cls)
        if tail_tip is None or np.array_equal(tail_tip[0], tail_tip[1]):
            assert arrows == [], f"{cls} drawn at k = {k}"
            continue
        ((tail, tip),) = arrows
        assert np.allclose([float(v) for v in tail], view.px(tail_tip[0]), atol=PX), (cls, k)
        assert np.allclose([float(v) for v in tip], view.px(tail_tip[1]), atol=PX), (cls, k)
    assert f["note"].startswith("" if scale == 1 else f"arrows ×{_fraction(scale)}"), (f["note"], scale)
    ringed = [] if k == 0 else [int(h.i[k - 1])]
    assert [int(r[0]) for r in f["ring"]] == ringed
    for i, cx, cy in f["ring"]:
        assert np.allclose([float(cx), float(cy)], view.px(X[int(i)]), atol=PX)
    margins = y * (X @ w + b)  # the crosses: y(<w,x>+b) <= 0, or < 0 for the strict test
    wrong = np.flatnonzero(margins < 0 if run.update_on == "negative" else margins <= 0).tolist()
    assert [int(c[0]) for c in f["crosses"]] == wrong
    for i, d in f["crosses"]:
        a, bb = (np.array(p.split(","), float) for p in re.findall(r"[ML]([-\d.]+,[-\d.]+)", d)[:2])
        assert np.allclose((a + bb) / 2, view.px(X[int(i)]), atol=PX)
    assert f["readout"] == state_lines(run, X, y, k)
    assert f["label"] == alt_text(run, X, y, k)
    assert f["box"] == str(k)


# ---------------------------------------------------------------------------------------------- the tests
@pytest.mark.browser
@pytest.mark.parametrize("name", RUNS)
def test_every_frame_draws_the_runs_numbers(page, name):
    run, X, y, kw = RUNS[name]
    trait = mount(page, BrowserPlayer(run, X, y, **kw))["run"]
    K = len(run.history) - 1
    for k in range(K + 1):
        page.evaluate("(k) => window.model.fromPython('k', k)", k)
        _check_frame(_frame(page), trait, run, X, y, k)


@pytest.mark.browser
def test_the_buttons_step_and_python_follows_with_one_message_of_k_per_step(page):
    run, X, y, _ = RUNS["03 forty points"]
    mount(page, BrowserPlayer(run, X, y))
    K = len(run.history) - 1
    w = "#widget"
    shown = [_svg(page)]
    for _ in range(3):
        page.click(f"{w} button:text-is('Step')")
        shown.append(_svg(page))
    assert _k(page) == 3 and len(set(shown)) == 4
    assert _frame(page)["readout"][0] == f"Update 3 of {K} (epoch {run.history.epoch[2]})."
    page.click(f"{w} button:text-is('Back')")
    assert _k(page) == 2 and _svg(page) == shown[2]
    page.click(f"{w} button:text-is('End')")
    assert _k(page) == K and page.is_disabled(f"{w} button:text-is('Step')")
    page.click(f"{w} button:text-is('Reset')")
    assert _k(page) == 0 and _svg(page) == shown[0] and page.is_disabled(f"{w} button:text-is('Back')")
    page.fill(f"{w} input[type=number]", "7")
    assert _k(page) == 7
    saves = page.evaluate("() => window.model.saves")
    assert saves == [["k"]] * 7, saves  # 3 steps, back, end, reset, and the box ("7" filled: one input event)
    # a number past the run, committed with Enter, goes to the last step, and the box says so (it kept K + 2: tester 6)
    page.fill(f"{w} input[type=number]", str(K + 2))
    page.press(f"{w} input[type=number]", "Enter")
    assert _k(page) == K and page.input_value(f"{w} input[type=number]") == str(K)


@pytest.mark.browser
def test_play_runs_on_the_browsers_timer_to_the_end_with_only_k_sent(page):
    run, X, y, _ = RUNS["03 forty points"]
    mount(page, BrowserPlayer(run, X, y, interval_ms=50))
    K = len(run.history) - 1
    page.click("#widget button:text-is('Play')")
    assert page.get_attribute("#widget button[aria-pressed]", "aria-pressed") == "true"
    page.wait_for_function("(K) => window.model.get('k') === K", arg=K, timeout=10_000)
    page.wait_for_selector("#widget button:text-is('Play')[aria-pressed=false]")
    assert page.evaluate("() => window.model.saves") == [["k"]] * K
    # "Pause" takes no more room than "Play" had: the speed and the k box beside it stay put (they moved 17 px)
    box = page.locator("#widget input[type=number]")
    at = box.bounding_box()["x"]
    page.click("#widget button:text-is('Play')")
    page.wait_for_selector("#widget button:text-is('Pause')")
    assert box.bounding_box()["x"] == at
    page.click("#widget button:text-is('Pause')")


@pytest.mark.browser
def test_a_run_with_no_update_has_nothing_to_play(page):
    X, y = RUNS["strict test"][1:3]
    run = fit_perceptron(X, y, update_on="negative")  # from w = 0 every score is 0: nothing is < 0, no update
    mount(page, BrowserPlayer(run, X, y))
    assert len(run.history) == 1
    assert all(page.is_disabled(f"#widget button:text-is('{name}')") for name in ("Play", "Step", "End", "Back"))


@pytest.mark.browser
def test_keys_step_only_with_focus_or_pointer_and_tab_and_escape_leave(page):
    run, X, y, _ = RUNS["03 forty points"]
    mount(page, BrowserPlayer(run, X, y))
    K = len(run.history) - 1
    page.evaluate("""() => { window.passed = [];
        window.addEventListener('keydown', (e) => window.passed.push([e.key, e.defaultPrevented])); }""")
    page.mouse.move(1400, 880)  # away from the picture, nothing focused: the keys are not the player's
    page.keyboard.press("ArrowRight")
    assert _k(page) == 0
    page.focus("#widget .pp-picture")
    for key, k in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", K), ("Home", 0)):
        page.keyboard.press(key)
        assert _k(page) == k, key
    page.keyboard.press(" ")
    assert page.get_attribute("#widget button[aria-pressed]", "aria-pressed") == "true"
    page.keyboard.press(" ")
    assert page.get_attribute("#widget button[aria-pressed]", "aria-pressed") == "false"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('.pp-picture')"), "Tab did not leave the picture"
    assert [p for p in page.evaluate("() => window.passed") if p[0] in ("Escape", "Tab")] == [
        ["Escape", False], ["Tab", False]]
    # the pointer on the picture, the focus on a button outside: → steps; space presses the button
    page.focus("#after")
    page.hover("#widget .pp-picture")
    at = _k(page)
    page.keyboard.press("ArrowRight")
    assert _k(page) == at + 1
    page.evaluate("() => { window.pressed = 0; document.querySelector('#after').onclick = () => window.pressed++; }")
    page.keyboard.press(" ")
    assert page.evaluate("() => window.pressed") == 1
    assert page.get_attribute("#widget button[aria-pressed]", "aria-pressed") == "false"
    page.focus("#widget input[type=number]")  # a key in the box is the box's
    page.keyboard.press("End")
    assert _k(page) == at + 1


@pytest.mark.browser
@pytest.mark.parametrize("name", ["03 forty points", "xor cycle", "03 homogeneous"])
def test_frame_k_is_the_same_markup_whatever_the_path(page, name):
    run, X, y, _ = RUNS[name]
    mount(page, BrowserPlayer(run, X, y))
    K = len(run.history) - 1
    read = """() => { const r = document.querySelector('#widget');
        return [r.querySelector('svg').outerHTML, r.querySelector('.pp-readout').innerHTML,
                r.querySelector('.pp-picture').getAttribute('aria-label')]; }"""
    forward = same_whatever_the_path(page, read, K)
    assert len({f[0] for f in forward}) == K + 1 or K == 0


@pytest.mark.browser
def test_a_new_run_is_drawn_in_the_same_elements_as_a_fresh_player_draws_it(page):
    """A new `run` from Python (`handle.setRun`): the same widget as a player mounted afresh on it at the same k
    (picture, legend, readout, controls), and the picture keeps the focus, the readout element and the speed."""
    read = """() => { const r = document.querySelector('#widget');
        const inner = r.firstElementChild.cloneNode(true);
        inner.removeAttribute('id');
        for (const e of inner.querySelectorAll('[id], [aria-describedby]')) {
            e.removeAttribute('id'); e.removeAttribute('aria-describedby'); }
        return inner.outerHTML.replace(/perceptron-player-\\d+|pp-clip-[a-z0-9]+/g, ''); }"""
    plain, charted = BrowserPlayer(*RUNS["03 forty points"][:3]), BrowserPlayer(*RUNS["xor cycle"][:3],
                                                                                  panels=[EpochPanel()])
    for first, second, k in ((plain, charted, 5), (charted, plain, 3)):
        page.evaluate("(state) => window.mount(state)", {"run": second.run, "k": k, "interval_ms": 250})
        fresh = page.evaluate(read)
        page.evaluate("(state) => window.mount(state)", {"run": first.run, "k": 2, "interval_ms": 250})
        page.focus("#widget .pp-picture")
        page.evaluate("() => { window.readoutBefore = document.querySelector('#widget .pp-readout'); }")
        page.evaluate("([run, k]) => { window.model.set('k', k); window.model.fromPython('run', run); }",
                      [second.run, k])
        assert page.evaluate(read) == fresh
        assert page.evaluate("""() => document.activeElement === document.querySelector('#widget .pp-picture')
            && window.readoutBefore === document.querySelector('#widget .pp-readout')""")
        assert page.input_value("#widget select") == "250"
        page.keyboard.press("End")
        assert page.evaluate("() => window.model.get('k')") == second.K


@pytest.mark.browser
def test_players_of_two_copies_of_the_module_have_distinct_ids(page):
    """anywidget evaluates each widget's module apart (a player and an editor): their players' ids still differ."""
    run, X, y, _ = RUNS["00 ten points"]
    state = {"run": BrowserPlayer(run, X, y).run, "k": 0, "interval_ms": 500}
    ids = page.evaluate("""async ([src, state]) => {
        const copies = [];
        for (const n of [1, 2]) {
            const url = URL.createObjectURL(new Blob([src + `\\n// copy ${n}`], {type: "text/javascript"}));
            copies.push(await import(url));
        }
        const main = document.querySelector("main");
        const ids = copies.map((copy) => {
            const el = document.createElement("div");
            main.appendChild(el);
            copy.default.render({ model: window.makeModel({ ...state }), el });
            return [...el.querySelectorAll("[id]")].map((e) => e.id);
        });
        return ids;
    }""", [BrowserPlayer._esm, state])
    assert ids[0] and ids[1] and not set(ids[0]) & set(ids[1])


def same_whatever_the_path(page, read: str, K: int, *, jumps: int = 10) -> list:
    """Step 0 -> K, Back K -> 0, then jump to `jumps` steps by the box: what `read` (a JavaScript function) reads
    of frame k is the same each time. Returns what it read at each k on the way forward."""
    forward = [page.evaluate(read)]
    for _ in range(K):
        page.click("#widget button:text-is('Step')")
        forward.append(page.evaluate(read))
    backward = {K: page.evaluate(read)}
    for k in range(K - 1, -1, -1):
        page.click("#widget button:text-is('Back')")
        backward[k] = page.evaluate(read)
    for k in range(K + 1):
        assert backward[k] == forward[k], f"frame {k} after K -> k differs from 0 -> k"
    for k in np.random.default_rng(5).permutation(K + 1)[:jumps].tolist():
        page.fill("#widget input[type=number]", str(k))
        assert page.evaluate(read) == forward[k], f"frame {k} after a jump differs"
    return forward


@pytest.mark.browser
@pytest.mark.parametrize("name", ["03 forty points", "03 six points, lecture"])
def test_axe_finds_nothing_serious_in_the_widget(page, name):
    from test_a11y import blocking_violations

    run, X, y, kw = RUNS[name]
    mount(page, BrowserPlayer(run, X, y, **kw))
    page.click("#widget button:text-is('Step')")
    found = blocking_violations(page, "document.querySelector('#widget')")
    assert not found, "\n".join(found)


# ---------------------------------------------------------------------------------------------- Python's side
def test_the_trait_is_json_and_holds_one_entry_per_step():
    run, X, y, _ = RUNS["xor cycle"]
    trait = BrowserPlayer(run, X, y).get_state()["run"]
    assert json.loads(json.dumps(trait, allow_nan=False)) == trait
    K = len(run.history) - 1
    assert trait["K"] == K and run.cycle is not None
    for key in ("w", "b", "i", "ring", "mistakes", "lines", "alt"):
        assert len(trait[key]) == K + 1, key
    assert trait["style"]["panel_px"] >= 420


def test_step_numbers_by_hand():
    """Lesson 00's two points: w = 0 gets both wrong (score 0), one update on example 0 to w = (2, 1), b = 1."""
    X, y = np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1.0, -1.0])
    run = fit_perceptron(X, y)
    assert mistakes_at_each_step(run, X, y) == [[0, 1], []]
    assert ringed_at_each_step(run) == [[], [0]]


def _forty(**kw):
    run, X, y, _ = RUNS["03 forty points"]
    return (run, X, y), kw


_X3, _Y3 = np.eye(3), np.array([1.0, -1.0, 1.0])
_XB = np.column_stack([np.ones(3), np.eye(3)[:, :2]])  # the bias absorbed: a first column of ones
_XL = np.column_stack([np.eye(3)[:, :2], np.sum(np.eye(3)[:, :2] ** 2, axis=1)])  # lifted: x1² + x2² third
BAD = {
    "not a run": (lambda: (("not a run", [[0.0, 0.0]], [1]), {}), TypeError, "run must be a Run"),
    "3 features": (lambda: ((fit_perceptron(_X3, _Y3), _X3, _Y3), {}), ValueError, "2 features in the plane"),
    "bias absorbed": (lambda: ((fit_perceptron(_XB, _Y3), _XB, _Y3), {}), ValueError, "bias absorbed as a column"),
    "lifted, 2-D run": (lambda: ((fit_perceptron(_XL[:, :2], _Y3), _XL, _Y3), {}), ValueError,
                        "w has length 2 but X has 3 features"),
    "interval 0": (lambda: _forty(interval_ms=0), ValueError, "interval_ms must be a whole number"),
    "interval 0.5": (lambda: _forty(interval_ms=0.5), ValueError, "interval_ms must be a whole number"),
    "k too big": (lambda: _forty(k=10_000), traitlets.TraitError, r"k must be a step of the run, 0\.\.15"),
    "other data": (lambda: ((RUNS["03 forty points"][0], *RUNS["03 six points, lecture"][1:3]), {}), ValueError,
                   "fitted on 40 examples but X has 6 rows"),
    "labels 2": (lambda: ((RUNS["03 forty points"][0], RUNS["03 forty points"][1], np.full(40, 2.0)), {}),
                 ValueError, "y"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_refused_with_a_clear_message(case):
    make, error, words = BAD[case]
    args, kwargs = make()
    with pytest.raises(error, match=words) as raised:
        BrowserPlayer(*args, **kwargs)
    print(f"{case}: {raised.value}")


def test_python_refuses_a_k_outside_the_run_after_it_is_made():
    run, X, y, _ = RUNS["00 two points"]
    player = BrowserPlayer(run, X, y)
    player.k = 1
    with pytest.raises(traitlets.TraitError, match=r"0\.\.1; got 2"):
        player.k = 2
    assert player.k == 1


def test_it_displays_as_every_player_does_a_still_with_its_alt():
    """The display contract (`recording.Shown`): the widget view, a repr without an address, and a small PNG of the
    step shown first as matplotlib draws it (`render.Scene`: the same size and alt sentence); no recording."""
    import io

    from PIL import Image

    from tests.drawn import Drawn

    run, X, y, _ = RUNS["00 ten points"]
    player = BrowserPlayer(run, X, y, k=2)
    data, meta = player._repr_mimebundle_()
    assert set(data) == {"application/vnd.jupyter.widget-view+json", "text/plain", "image/png"}
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == player.model_id
    assert data["text/plain"] == "<BrowserPlayer: online run, 9 updates>" == repr(player)
    twin = Drawn(run, X, y)
    twin.seek(2)
    twin_png, width, height, twin_alt = twin.still()
    assert meta == {"image/png": {"width": width, "height": height, "alt": twin_alt}}
    assert meta["image/png"]["alt"] == alt_text(run, X, y, 2) == player.alt
    still = Image.open(io.BytesIO(data["image/png"]))
    assert still.size == Image.open(io.BytesIO(twin_png)).size and data["image/png"] == twin_png
    assert len(data["image/png"]) < 60_000
    assert player.k == 2 and player.lines() == state_lines(run, X, y, 2)
    # the still follows the step and a new run (drawn on the first display after it)
    player.k = 5
    assert player.snapshot()[3] == alt_text(run, X, y, 5)
    other, X6, y6, _ = RUNS["03 six points, lecture"]
    player.set_run(other, X6, y6, at=3)
    assert player.snapshot()[3] == alt_text(other, X6, y6, 3) == player.alt


# ---------------------------------------------------------------------------------------------- JupyterLab
@pytest.mark.browser
def test_in_jupyterlab_the_picture_steps_and_the_kernel_follows(chromium, tmp_path):
    """The real thing: anywidget's front end in JupyterLab 4 with a kernel. Three Step clicks draw three frames,
    the focused controls keep their keys from JupyterLab's command mode (Enter on Step is a fourth step), and a
    cell run afterwards prints the kernel's k: 4. A screenshot at 1440x900 is left in the test's folder."""
    import shutil

    from browser_support import jupyter_server, open_and_run_all, wait_kernel_settled

    shutil.copy(TESTS / "browser_player_demo.ipynb", tmp_path / "demo.ipynb")
    with jupyter_server(tmp_path) as server:
        ctx = chromium.new_context(viewport={"width": 1440, "height": 900})
        page = ctx.new_page()
        open_and_run_all(page, server, "demo.ipynb")
        player = page.wait_for_selector(".perceptron-browserplayer", timeout=60_000)
        first = page.inner_html(".perceptron-browserplayer svg")
        for _ in range(3):
            page.click(".perceptron-browserplayer button:text-is('Step')")
        assert page.get_attribute(".perceptron-browserplayer input[type=number]", "value") is not None
        assert page.input_value(".perceptron-browserplayer input[type=number]") == "3"
        assert page.inner_html(".perceptron-browserplayer svg") != first
        assert page.inner_text(".perceptron-browserplayer .pp-readout").startswith("Update 3 of 15")
        player.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "jupyterlab_1440x900.png"))
        # in command mode a focused control keeps its keys: the select moves (the next cell is not selected), Enter
        # on Step steps (no cell editor opens), "b" adds no cell; the page's keys (Escape) still reach JupyterLab
        cells = page.locator(".jp-Notebook .jp-Cell").count()
        active = ("() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')]"
                  ".findIndex((c) => c.classList.contains('jp-mod-active'))")
        speed = player.query_selector("select")
        speed.focus()
        before, where = speed.input_value(), page.evaluate(active)
        page.keyboard.press("ArrowDown")
        assert speed.input_value() != before and page.evaluate(active) == where
        assert page.evaluate("document.activeElement.tagName") == "SELECT"
        player.query_selector("button:text-is('Step')").focus()
        page.keyboard.press("b")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('.perceptron-browserplayer input[type=number]')"
                               ".value === '4'", timeout=5000)  # fmt: skip
        assert page.locator(".jp-Notebook .jp-Cell").count() == cells
        assert page.evaluate("document.activeElement.textContent") == "Step"
        assert page.evaluate(active) == where
        wait_kernel_settled(page, "demo.ipynb")
        page.click(".jp-Cell:has-text('k in the kernel') .jp-InputArea-editor")
        page.keyboard.press("Shift+Enter")
        page.wait_for_selector(".jp-OutputArea-output:has-text('k in the kernel: 4')", timeout=30_000)
        ctx.close()
