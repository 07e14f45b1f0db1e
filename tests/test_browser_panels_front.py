"""The panels beside the data panel in the browser (``front/panels.js``, ``front/curves.js``), in Chromium.

The player's front end is loaded as in ``test_browser_player_front.py`` (one blank page, no network, the module
from a Blob URL, a stand-in for anywidget's model filled from a real widget's state). For each kind of panel,
at every step k, the drawn SVG is read back and checked against the numbers: each chart's curves (the path's
vertices), its markers, the dots on the cursor and the cursor itself, the bars, the bound's line and the title,
mapped through the chart's axes (its x and y limits onto the plot's box); the claims against
`proof.trace` itself; the overlays' lines on the data panel (the averaged line of step k, the maximum-margin line
and its band) on their equations. Then frame k is the same markup after 0 -> k, K -> k and a jump; a lesson-sized
player fits the room a notebook gives it; axe-core finds nothing serious.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_browser_player_front import View, front_page, same_whatever_the_path

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, proof
from perceptron_lib.core.averaged import fit_averaged
from perceptron_lib.core.bounds import mistake_bound
from perceptron_lib.core.margins import max_margin_separator
from perceptron_lib.player.browser import BrowserPlayer
from perceptron_lib.player.panels.averaged import AveragedLinePanel, CurvesPanel
from perceptron_lib.player.panels.claims import ClaimsPanel
from perceptron_lib.player.panels.curves import LossPanel
from perceptron_lib.player.panels.margin import MaxMarginPanel
from perceptron_lib.player.panels.updates import EpochPanel

PX = 0.02  # the markup writes coordinates to 0.01 px
SYMLOG_ADJ = 1 / (1 - 1 / 10)


def _symlog(v):
    a = abs(v)
    return v * SYMLOG_ADJ if a <= 2 else np.sign(v) * 2 * (SYMLOG_ADJ + np.log10(a / 2))


def _cases():
    X, y = data.separable(40, margin=0.15, seed=0)
    forty = fit_perceptron(X, y, fit_bias=False, eta=0.5, order="random", rng=0)
    u = mistake_bound(X, y).w
    Xo, yo = data.separable(30, margin=0.05, bias=True, seed=2)
    offset = fit_perceptron(Xo, yo)
    Xn, yn = data.blobs(60, separation=2.0, spread=1.0, seed=6)
    ar = fit_averaged(Xn, yn, epochs=3)
    K = len(ar.run.history) - 1
    rng = np.random.default_rng(3)
    errors = {"current line": rng.uniform(0.1, 0.6, K + 1), "averaged line": rng.uniform(0.1, 0.3, K + 1)}
    best = max_margin_separator(X, y)
    margins = np.r_[np.nan, rng.uniform(-0.3, 0.25, len(forty.history) - 1)]
    flat = np.ones(len(forty.history))
    loss = np.geomspace(50.0, 0.5, len(offset.history))
    return {
        "claims": (forty, X, y, [ClaimsPanel(u)], {}),
        "claims, chain, lecture": (forty, X, y, [ClaimsPanel(u, show="chain")], {"style": "lecture"}),
        "claims with offset": (offset, Xo, yo, [ClaimsPanel()], {}),
        "epochs": (offset, Xo, yo, [EpochPanel()], {}),
        "loss": (offset, Xo, yo, [LossPanel(loss, "perceptron loss L", ylabel="L")], {}),
        "loss, symlog": (offset, Xo, yo, [LossPanel(loss, "perceptron loss L", logy=True)], {}),
        "averaged line and test errors": (ar.run, Xn, yn, [AveragedLinePanel(ar), CurvesPanel(errors)], {}),
        "maximum margin and margins, lecture": (
            forty, X, y, [MaxMarginPanel(best), CurvesPanel({"current line": margins, "maximum γ*": best.gamma * flat},
                                                            ylabel="geometric margin", ylim=(-0.1, 0.2))],
            {"style": "lecture"}),
    }


CASES = _cases()


@pytest.fixture(scope="module")
def page(chromium):
    yield from front_page(chromium)


def mount(page, player, k=0):
    state = player.get_state()
    page.evaluate("(s) => window.mount(s)", {"run": state["run"], "k": k, "interval_ms": state["interval_ms"]})
    return state["run"]


def go(page, k):
    page.evaluate("(k) => window.model.fromPython('k', k)", k)


JS_CHARTS = """() => [...document.querySelectorAll('#widget svg.pp-chart')].map((svg) => {
  const all = (sel, names) => [...svg.querySelectorAll(sel)].map((e) => names.map((n) => e.getAttribute(n)));
  const clip = svg.querySelector('clipPath rect');
  const stroke = (g) => g.querySelector('path:not(.pp-marker)')?.getAttribute('d') ?? '';
  return {
    plot: svg.querySelector('.pp-plot').getAttribute('transform'),
    size: [Number(clip.getAttribute('width')), Number(clip.getAttribute('height'))],
    moving: [...svg.querySelectorAll('.pp-moving > g')].map((g) => [g.getAttribute('class'), stroke(g),
      [...g.querySelectorAll('path.pp-marker')].map((m) => m.getAttribute('d'))]),
    whole: [...svg.querySelectorAll('.pp-whole > g')].map((g) => [g.getAttribute('class'), stroke(g)]),
    cursor: all('line.pp-cursor', ['x1', 'x2', 'y1', 'y2']),
    dots: all('path.pp-dot', ['class', 'd', 'data-i']),
    bars: all('rect.pp-bar', ['x', 'y', 'width', 'height']),
    vlines: all('line.pp-vline', ['x1']),
    title: svg.querySelector('.pp-chart-title').textContent,
    label: svg.getAttribute('aria-label'),
  };
})"""


class Axes:
    """A chart's map from data to the plot's pixels, from its spec (limits, scale) and the plot's box read back."""

    def __init__(self, spec, size):
        (self.x0, self.x1), (y0, y1) = spec["xlim"], spec["ylim"]
        self.Y = _symlog if spec["yscale"] == "symlog" else (lambda v: v)
        self.y0, self.y1 = self.Y(y0), self.Y(y1)
        self.w, self.h = size

    def px(self, x, y):
        return np.array([(x - self.x0) / (self.x1 - self.x0) * self.w,
                         self.h - (self.Y(y) - self.y0) / (self.y1 - self.y0) * self.h])


def vertices(d: str) -> np.ndarray:
    """The points of a path of M and L commands."""
    return np.array([[float(a), float(b)] for a, b in re.findall(r"[ML]([-\d.]+),([-\d.]+)", d)]).reshape(-1, 2)


def centre(d: str) -> np.ndarray:
    """The centre of a marker path: a circle (M x-h,y a h,h ...) or a square (M x-h,y-h h 2h ...)."""
    x, y = (float(v) for v in re.match(r"M([-\d.]+),([-\d.]+)", d).groups())
    circle = re.search(r"a([-\d.]+),", d)
    if circle:
        return np.array([x + float(circle[1]), y])
    h = float(re.search(r"h([-\d.]+)", d)[1]) / 2
    return np.array([x + h, y + h])


def check_chart(chart, spec, k):
    """Every shape of a chart at step k against its spec's numbers at k."""
    ax = Axes(spec, chart["size"])
    moving = [ln for ln in spec["lines"] if ln["upto"] is not None]
    whole = [ln for ln in spec["lines"] if ln["upto"] is None]
    assert len(chart["moving"]) == len(moving) and len(chart["whole"]) == len(whole)
    for (cls, d, markers), ln in zip(chart["moving"], moving, strict=True):
        n = ln["upto"][k]
        want = [ax.px(x, v) for x, v in zip(ln["x"][:n], ln["y"][:n], strict=True) if v is not None]
        got = vertices(d)
        assert len(got) == len(want), (cls, k)
        assert np.allclose(got, np.array(want).reshape(-1, 2), atol=PX), (cls, k)
        if ln["marker"]:
            assert len(markers) == len(want), (cls, k)
            assert np.allclose(np.array([centre(m) for m in markers]).reshape(-1, 2), np.array(want).reshape(-1, 2),
                               atol=PX)
    for (cls, d), ln in zip(chart["whole"], whole, strict=True):
        want = [ax.px(x, v) for x, v in zip(ln["x"], ln["y"], strict=True) if v is not None]
        assert np.allclose(vertices(d), want, atol=PX), cls
    if spec["cursor"] is None:
        assert chart["cursor"] == []
    else:
        ((x1, x2, y1, y2),) = chart["cursor"]
        assert float(x1) == float(x2) == pytest.approx(ax.px(spec["cursor"][k], 0)[0], abs=PX)
        assert float(y1) == 0 and float(y2) == pytest.approx(ax.h, abs=PX)
    dots = []
    for j, ln in enumerate(spec["lines"]):
        if ln["dot"] is None or ln["dot"][k] < 0 or ln["y"][ln["dot"][k]] is None:
            continue
        i = ln["dot"][k]
        p = ax.px(ln["x"][i], ln["y"][i])
        if -0.5 <= p[1] <= ax.h + 0.5:
            dots.append((j, i, p))
    assert len(chart["dots"]) == len(dots)
    for (cls, d, i), (j, want_i, p) in zip(chart["dots"], dots, strict=True):
        assert f"pp-dot-{j}" in cls and int(i) == want_i
        assert np.allclose(centre(d), p, atol=PX)
    for bar_set in spec["bars"]:
        assert len(chart["bars"]) == len(bar_set["x"])
        for (x, y, w, h), t, height in zip(chart["bars"], bar_set["x"], bar_set["heights"][k], strict=True):
            assert float(x) + float(w) / 2 == pytest.approx(ax.px(t, 0)[0], abs=PX)
            assert float(y) == pytest.approx(ax.px(t, height)[1], abs=PX)
            assert float(y) + float(h) == pytest.approx(ax.px(t, 0)[1], abs=PX)
    assert [float(v[0]) for v in chart["vlines"]] == pytest.approx([ax.px(v["x"], 0)[0] for v in spec["vlines"]],
                                                                   abs=PX)
    title = spec["titles"][k] if spec["titles"] else (spec["title"] or "")
    assert chart["title"] == title.replace("\n", "")
    assert chart["label"].startswith(spec["name"])


@pytest.mark.browser
@pytest.mark.parametrize("name", CASES)
def test_every_chart_draws_its_numbers_at_every_step(page, name):
    run, X, y, panels, kw = CASES[name]
    trait = mount(page, BrowserPlayer(run, X, y, panels=panels, **kw))
    charts = [s for s in trait["panels"] if s["shape"] == "chart"]
    K = trait["K"]
    for k in sorted({0, 1, 2, K // 2, K - 1, K}):
        go(page, k)
        drawn = page.evaluate(JS_CHARTS)
        assert len(drawn) == len(charts)
        for chart, spec in zip(drawn, charts, strict=True):
            check_chart(chart, spec, k)


@pytest.mark.browser
def test_the_claims_curves_are_the_proofs_numbers(page):
    """Independently of the spec: the revealed curves' last vertices are <u, w_k> and ||w_k||^2 of `proof.trace`,
    the floor's end is eta*gamma*xmax, the bound's line is at (R/gamma)^2."""
    run, X, y, panels, _ = CASES["claims"]
    u = panels[0].u
    tr = proof.trace(run, X, y, u=u)
    trait = mount(page, BrowserPlayer(run, X, y, panels=panels))
    spec = trait["panels"][0]
    for k in range(trait["K"] + 1):
        go(page, k)
        (chart,) = page.evaluate(JS_CHARTS)
        ax = Axes(spec, chart["size"])
        inner, sqnorm = (vertices(d)[-1] for _, d, _ in chart["moving"])
        assert np.allclose(inner, ax.px(k, tr.inner[k]), atol=PX)
        assert np.allclose(sqnorm, ax.px(k, tr.sqnorm[k]), atol=PX)
        assert chart["title"] == f"t = {k} mistake{'' if k == 1 else 's'}, bound (R/γ)² = {tr.bound:.3g}"
    floor = vertices(chart["whole"][0][1])  # the first line drawn whole: the floor t*eta*gamma
    xmax = spec["xlim"][1] / 1.03
    assert np.allclose(floor[-1], ax.px(xmax, tr.eta * tr.gamma * xmax), atol=PX)
    if tr.bound <= xmax:
        assert float(chart["vlines"][0][0]) == pytest.approx(ax.px(tr.bound, 0)[0], abs=PX)


JS_OVERLAY = """() => { const r = document.querySelector('#widget');
  return { plot: r.querySelector('svg.pp-scene .pp-plot').getAttribute('transform'),
    lines: [...r.querySelectorAll('.pp-overlays line')].map((e) =>
      [e.getAttribute('class'), ...['x1', 'y1', 'x2', 'y2'].map((n) => Number(e.getAttribute(n)))]),
    legend: [...r.querySelectorAll('svg.pp-scene ~ * li, .pp-figure li, .pp-side > .pp-legend li')]
      .map((li) => li.textContent) }; }"""


@pytest.mark.browser
@pytest.mark.parametrize("name", ["averaged line and test errors", "maximum margin and margins, lecture"])
def test_the_overlays_draw_their_lines_on_the_data_panel(page, name):
    run, X, y, panels, kw = CASES[name]
    trait = mount(page, BrowserPlayer(run, X, y, panels=panels, **kw))
    K = trait["K"]
    for k in sorted({0, 1, K // 2, K}):
        go(page, k)
        got = page.evaluate(JS_OVERLAY)
        view = View(trait, got["plot"])
        lines = {}
        for cls, *ends in got["lines"]:
            lines.setdefault(cls, []).append([view.data(ends[:2]), view.data(ends[2:])])
        if "averaged" in name:
            W, B = panels[0].averaged.averages()
            wanted = {"pp-averaged": [(W[k], B[k])] if np.any(W[k]) else []}  # w = 0: no line
            assert "averaged line" in got["legend"]
        else:
            sep = panels[0].separator
            wanted = {"pp-max-margin": [(sep.w, sep.b)],
                      "pp-band": [(sep.w, sep.b + sep.gamma), (sep.w, sep.b - sep.gamma)]}
            assert "maximum margin" in got["legend"]
        for cls, eqs in wanted.items():
            assert len(lines.get(cls, [])) == len(eqs), (cls, k)
            tol = 1.5 * PX / view.unit  # the markup's accuracy, in data units

            def on(ends, w, b, tol=tol):
                return all(abs(np.dot(w, p) + b) <= np.linalg.norm(w) * tol for p in ends)

            # each equation's line drawn once, both ends on it
            assert sorted(next(j for j, (w, b) in enumerate(eqs) if on(ends, w, b)) for ends in lines.get(cls, [])) == \
                list(range(len(eqs))), (cls, k)


@pytest.mark.browser
@pytest.mark.parametrize("name", ["claims", "epochs", "averaged line and test errors"])
def test_frame_k_with_its_panels_is_the_same_markup_whatever_the_path(page, name):
    run, X, y, panels, kw = CASES[name]
    mount(page, BrowserPlayer(run, X, y, panels=panels, **kw))
    K = len(run.history) - 1
    # the data panel, the charts, the legends and the readout: all of the body
    frames = same_whatever_the_path(page, "() => document.querySelector('#widget .pp-body').innerHTML", K, jumps=8)
    assert len(set(frames)) == K + 1


JS_BOXES = """() => { const r = document.querySelector('#widget .perceptron-browserplayer').getBoundingClientRect();
  const data = document.querySelector('#widget svg.pp-scene').getBoundingClientRect();
  const plot = document.querySelector('#widget svg.pp-scene .pp-plot > g.pp-axes rect').getBoundingClientRect();
  const parts = [...document.querySelectorAll('#widget .pp-controls, #widget .pp-picture, #widget .pp-panel, '
                 + '#widget .pp-legend, #widget .pp-readout b')].map((e) => e.getBoundingClientRect().bottom);
  return {height: r.height, bottom: Math.max(...parts) - r.top, plot: [plot.width, plot.height],
          width: r.width, charts: [...document.querySelectorAll('#widget .pp-panel')].map((e) => {
            const b = e.getBoundingClientRect(); return [b.left - r.left, b.top - r.top, b.width]; }),
          dataRight: data.right - r.left}; }"""


@pytest.mark.browser
@pytest.mark.parametrize(("name", "width", "height", "least"), [
    ("averaged line and test errors", 1000, 775, 420),
    ("claims", 1000, 775, 420),
    ("maximum margin and margins, lecture", 1115, 598, 360),
])
def test_a_lesson_sized_player_fits_the_room_of_a_notebook(page, name, width, height, least):
    """The room a 1440x900 JupyterLab with the file browser open gives an output (about 1000 x 775 CSS px), and a
    1280x720 one in the lecture preset (about 1115 x 598): the whole player fits, its charts beside the data panel,
    whose plot keeps its size (the longer side at least 420 px, or 360 in the lecture preset)."""
    run, X, y, panels, kw = CASES[name]
    page.set_viewport_size({"width": width, "height": 900})
    try:
        mount(page, BrowserPlayer(run, X, y, panels=panels, **kw))
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        m = page.evaluate(JS_BOXES)
    finally:
        page.set_viewport_size({"width": 1440, "height": 900})
    assert m["bottom"] <= height, m
    assert max(m["plot"]) >= least - 0.5, m
    for left, _top, _ in m["charts"]:
        assert left >= m["dataRight"] - 1, f"a chart under the data panel, not beside it: {m}"


@pytest.mark.browser
@pytest.mark.parametrize("name", ["claims", "maximum margin and margins, lecture"])
def test_axe_finds_nothing_serious_in_a_player_with_panels(page, name):
    from test_a11y import blocking_violations

    run, X, y, panels, kw = CASES[name]
    mount(page, BrowserPlayer(run, X, y, panels=panels, **kw))
    page.click("#widget button:text-is('Step')")
    found = blocking_violations(page, "document.querySelector('#widget')")
    assert not found, "\n".join(found)
