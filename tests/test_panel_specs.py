"""Each kernel panel's ``front`` spec (what a `BrowserPlayer` sends the browser) against the panel's own drawing.

For every step k, the kernel panel is drawn with matplotlib and moved to k (``draw`` then ``update(k)``); its
artists' data are the reference: the revealed part of each curve, the dots on the cursor, the cursor's x, the
bars' heights, the title, the fixed lines (floor, ceiling, the bound's line), the legend's words and colours.
The spec must hold the same numbers at k. `core.curves.epoch_steps` is checked against a count by hand, and
`BrowserPlayer` against panels it cannot draw and against the still's panels.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data
from perceptron_lib.core.averaged import fit_averaged
from perceptron_lib.core.bounds import mistake_bound
from perceptron_lib.core.curves import epoch_steps
from perceptron_lib.core.margins import max_margin_separator
from perceptron_lib.draw import style as S
from perceptron_lib.player.browser import BrowserPlayer
from perceptron_lib.player.panel_specs import FrontPanel, dash, padded
from perceptron_lib.player.panels.averaged import AveragedLinePanel, CurvesPanel
from perceptron_lib.player.panels.claims import ClaimsPanel
from perceptron_lib.player.panels.curves import LossPanel
from perceptron_lib.player.panels.margin import MaxMarginPanel
from perceptron_lib.player.panels.updates import EpochPanel


def drawn(panel, run, X, y, preset="notebook"):
    """The kernel panel drawn on a fresh axes in `preset` (the still's own way); returns (panel, axes)."""
    s = S.get(preset)
    with S.context(s):
        ax = Figure(figsize=s.panel_size).add_subplot()
        panel.draw(ax, run, X, y)
    return panel, ax


def shown(ln, k):
    """A spec line's points at step k (all of them, or its first upto[k]) as two float arrays (None: NaN)."""
    n = len(ln["x"]) if ln["upto"] is None else ln["upto"][k]
    as_float = lambda v: np.array([np.nan if a is None else a for a in v[:n]], dtype=float)  # noqa: E731
    return as_float(ln["x"]), as_float(ln["y"])


def hexed(c) -> str:
    return to_hex(c).upper()


@pytest.fixture(scope="module")
def forty():
    X, y = data.separable(40, margin=0.15, seed=0)
    return fit_perceptron(X, y, fit_bias=False, eta=0.5, order="random", rng=0), X, y


@pytest.fixture(scope="module")
def noisy():
    X, y = data.blobs(60, separation=2.0, spread=1.0, seed=6)
    return fit_averaged(X, y, epochs=4), X, y


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
@pytest.mark.parametrize("show", ["claims", "claim1", "claim2", "chain"])
def test_claims_spec_holds_the_panels_numbers_at_every_step(forty, show, preset):
    run, X, y = forty
    u = mistake_bound(X, y).w
    panel, ax = drawn(ClaimsPanel(u, show=show), run, X, y, preset)
    spec = panel.front(run, X, y, style=S.get(preset))
    assert json.loads(json.dumps(spec, allow_nan=False)) == spec
    K = len(run.history) - 1
    revealed = [ln for ln in spec["lines"] if ln["upto"] is not None]
    assert len(revealed) == len(panel.curves)
    for k in range(K + 1):
        panel.update(k)
        assert spec["titles"][k] == ax.get_title()
        assert spec["cursor"][k] == panel.cursor.get_xdata()[0] == k
        for ln, (line, dot, _values) in zip(revealed, panel.curves, strict=True):
            x, v = shown(ln, k)
            np.testing.assert_array_equal(x, line.get_xdata())
            np.testing.assert_allclose(v, line.get_ydata(), rtol=1e-12)
            assert ln["dot"][k] == k and ln["y"][k] == pytest.approx(dot.get_ydata()[0], rel=1e-12)
            assert ln["color"] == hexed(line.get_color()) == ln["dot_face"]
    # the floor, the ceiling (or sqrt curve): every spec point on the kernel's reference line
    refs = [ln for ln in ax.lines if ln.get_label() and not ln.get_label().startswith("_") and ln.get_linestyle() != "-"
            and ln.get_linestyle() != ":"]
    fixed = [ln for ln in spec["lines"] if ln["upto"] is None and ln["alpha"] == 1.0]
    assert len(fixed) == len(refs)
    for ln, ref in zip(fixed, refs, strict=True):
        x, v = shown(ln, 0)
        np.testing.assert_array_equal(x, ref.get_xdata())
        np.testing.assert_allclose(v, ref.get_ydata(), rtol=1e-15)
        assert ln["color"] == hexed(ref.get_color())
    bound = [ln for ln in ax.lines if ln.get_linestyle() == ":" and ln.get_label().startswith("$t =")]
    assert [v["x"] for v in spec["vlines"]] == [ln.get_xdata()[0] for ln in bound]
    assert spec["xlim"] == pytest.approx(list(ax.get_xlim()))
    handles, labels = ax.get_legend_handles_labels()
    assert len(spec["legend"]) == len(labels)
    for entry, handle in zip(spec["legend"], handles, strict=True):
        assert entry["color"] == hexed(handle.get_color())


def test_claims_spec_says_no_margin_on_points_no_line_separates():
    X, y = data.xor()
    run = fit_perceptron(X, y)
    panel, ax = drawn(ClaimsPanel(), run, X, y)
    spec = panel.front(run, X, y, style=S.get("notebook"))
    assert spec["title"] == ax.get_title() == "Claims 1 and 2: no separator"
    assert spec["message"].startswith("No margin: no line separates these points.")
    assert spec["lines"] == [] and spec["cursor"] is None


def test_claims_spec_says_no_line_through_the_origin_where_only_that_fails():
    # a line with offset (x1 + x2 = 1.5) separates them, none through the origin does (a student's example)
    X, y = np.array([[0.5, 0.5], [1.0, 1.0], [0.6, 0.4]]), np.array([1, -1, 1])
    for fit_bias, want in ((False, "No margin: no line through the origin separates these points."),
                           (True, None)):
        run = fit_perceptron(X, y, fit_bias=fit_bias, max_epochs=50)
        panel, ax = drawn(ClaimsPanel(), run, X, y)
        spec = panel.front(run, X, y, style=S.get("notebook"))
        if want is None:
            assert "message" not in spec and spec["lines"]
        else:
            assert spec["message"].startswith(want) and want in "".join(t.get_text() for t in ax.texts)


def test_loss_spec_holds_the_curve_the_cursor_and_its_dot(forty):
    run, X, y = forty
    values = np.linspace(3.0, 0.0, len(run.history))
    panel, ax = drawn(LossPanel(values, "perceptron loss L", ylabel="L"), run, X, y)
    spec = panel.front(run, X, y, style=S.get("notebook"))
    (ln,) = spec["lines"]
    np.testing.assert_allclose(shown(ln, 0)[1], panel.curve.line.get_ydata())
    for k in range(len(run.history)):
        panel.update(k)
        assert spec["cursor"][k] == panel.curve.cursor.get_xdata()[0]
        assert ln["y"][ln["dot"][k]] == pytest.approx(panel.curve.dot.get_ydata()[0])
    assert spec["title"] == ax.get_title() and spec["ylabel"] == ax.get_ylabel() and spec["xlabel"] == ax.get_xlabel()
    assert spec["xlim"] == pytest.approx(list(ax.get_xlim()))
    assert spec["ylim"] == pytest.approx(list(ax.get_ylim()))
    with pytest.raises(ValueError, match="got 3 values but the run has"):
        LossPanel([1.0, 2.0, 3.0]).front(run, X, y, style=S.get("notebook"))


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_epoch_spec_holds_the_bars_the_line_and_the_cursor(preset):
    X, y = data.separable(30, margin=0.05, bias=True, seed=2)
    run = fit_perceptron(X, y)
    assert run.epochs >= 3
    panel, ax = drawn(EpochPanel(), run, X, y, preset)
    spec = panel.front(run, X, y, style=S.get(preset))
    (bars,), (ln,) = spec["bars"], spec["lines"]
    for k in range(len(run.history)):
        panel.update(k)
        assert bars["heights"][k] == [b.get_height() for b in panel.bars.patches]
        x, v = shown(ln, k)
        np.testing.assert_array_equal(x, panel.line.get_xdata())
        np.testing.assert_array_equal(v, panel.line.get_ydata())
        assert spec["cursor"][k] == panel.cursor.get_xdata()[0]
    assert spec["ylim"] == pytest.approx(list(ax.get_ylim())) and spec["xlim"] == pytest.approx(list(ax.get_xlim()))
    words = [e["label"] for e in spec["legend"]]
    assert words == [t.get_text() for t in ax.get_legend().get_texts()]


def test_epoch_steps_by_hand():
    """Counted here one update at a time: the updates of each epoch so far, the epochs over, the current one."""
    X, y = data.separable(30, margin=0.05, bias=True, seed=2)
    run = fit_perceptron(X, y)
    e = epoch_steps(run, X, y)
    h, K, T = run.history, len(run.history) - 1, run.epochs
    for k in range(K + 1):
        counts = [sum(1 for j in range(k) if h.epoch[j] == t) for t in range(1, T + 1)]
        assert e.updates[k].tolist() == counts
        current = T if k == K else 1 if k == 0 else int(h.epoch[k - 1])
        assert e.current[k] == current
        over = [t for t in range(1, T + 1) if sum(run.mistakes_per_epoch[:t]) <= k and (k == K or t < current)]
        assert e.done[k] == len(over)
    assert e.updates[K].tolist() == run.mistakes_per_epoch.tolist()


def test_curves_spec_holds_each_curve_its_dot_and_look(noisy):
    ar, X, y = noisy
    K = len(ar.run.history) - 1
    rng = np.random.default_rng(1)
    curves = {"current line": rng.uniform(0, 1, K + 1), "averaged line": rng.uniform(0, 1, K + 1),
              "third": np.r_[np.nan, rng.uniform(0, 1, K)]}
    panel, ax = drawn(CurvesPanel(curves, ylabel="test error", ylim=(0.0, 0.8)), ar.run, X, y)
    spec = panel.front(ar.run, X, y, style=S.get("notebook"))
    assert spec["ylim"] == [0.0, 0.8] and spec["xlim"] == pytest.approx(list(ax.get_xlim()))
    kernel_lines = [ln for ln in ax.lines if ln.get_label() in curves]
    for ln, ref in zip(spec["lines"], kernel_lines, strict=True):
        assert ln["color"] == hexed(ref.get_color()) and ln["label"] is None
        pattern = ref._dash_pattern[1]  # matplotlib's own dashes, in points at the line's width
        assert ln["dash"] == (None if pattern is None else pytest.approx(list(pattern)))
        np.testing.assert_array_equal(shown(ln, 0)[1], ref.get_ydata())
    for k in (0, 1, K // 2, K):
        panel.update(k)
        assert spec["cursor"][k] == panel.cursor.get_xdata()[0]
        for ln, (dot, _v) in zip(spec["lines"], panel.dots, strict=True):
            assert ln["dot"][k] == k
            got = dot.get_ydata()[0]
            assert (ln["y"][k] is None and np.isnan(got)) or ln["y"][k] == pytest.approx(got)
    assert [e["label"] for e in spec["legend"]] == list(curves)


def test_averaged_overlay_holds_the_averaged_line_at_every_step(noisy):
    ar, X, y = noisy
    panel, _ = drawn(AveragedLinePanel(ar), ar.run, X, y)
    spec = panel.front(ar.run, X, y, style=S.get("notebook"))
    (ln,) = spec["lines"]
    W, B = ar.averages()
    np.testing.assert_allclose(ln["w"], W, rtol=1e-15)
    np.testing.assert_allclose(ln["b"], B, rtol=1e-15)
    assert ln["moving"] and ln["color"] == hexed(panel.avg.get_color())
    assert [e["label"] for e in spec["legend"]] == ["averaged line"]


def test_max_margin_overlay_holds_the_line_and_its_band(forty):
    run, X, y = forty
    best = max_margin_separator(X, y)
    panel, ax = drawn(MaxMarginPanel(best), run, X, y)
    spec = panel.front(run, X, y, style=S.get("notebook"))
    lines = spec["lines"]
    assert [ln["moving"] for ln in lines] == [False] * 3
    np.testing.assert_allclose([ln["w"] for ln in lines], [best.w] * 3)
    assert sorted(ln["b"] for ln in lines) == pytest.approx(sorted([best.b, best.b - best.gamma, best.b + best.gamma]))
    assert lines[0]["color"] == hexed(ax.get_legend().legend_handles[0].get_color())


def test_a_panel_the_browser_cannot_draw_is_refused_by_name(forty):
    run, X, y = forty

    class Kernel:
        def draw(self, ax, run, X, y):
            return []

    assert not isinstance(Kernel(), FrontPanel) and isinstance(ClaimsPanel(), FrontPanel)
    with pytest.raises(TypeError, match=r"panels\[1\] \(Kernel\) has no front"):
        BrowserPlayer(run, X, y, panels=[ClaimsPanel(), Kernel()])
    with pytest.raises(ValueError, match="got 2 values but the run has"):
        BrowserPlayer(run, X, y, panels=[LossPanel([0.0, 1.0])])


def test_the_still_draws_the_same_panels_and_set_run_keeps_them(forty, noisy):
    run, X, y = forty
    player = BrowserPlayer(run, X, y, panels=[ClaimsPanel()], k=2)
    assert [type(p).__name__ for p in player._drawn().scene.panels] == ["DataPanel", "ClaimsPanel"]
    png, width, _, alt = player.snapshot()
    # the still's alt: the picture's name, then the panel beside it in the browser's words for it
    assert width > BrowserPlayer(run, X, y).snapshot()[1]
    assert alt == f"{player.alt} Beside it: Claims 1 and 2 along the run: t = 2 mistakes, bound (R/γ)² = 44.", alt
    ar, Xn, yn = noisy
    player.set_run(ar.run, Xn, yn)
    assert player.run["panels"][0]["K"] == len(ar.run.history) - 1


def test_padded_and_dash_are_matplotlibs():
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([2.0, 7.0], [-1.0, 3.0])
    assert padded(2.0, 7.0) == pytest.approx(list(ax.get_xlim()))
    (line,) = ax.plot([0, 1], [0, 1], linestyle="--", linewidth=2.0)
    assert dash("--", 2.0) == pytest.approx(list(line._dash_pattern[1]))
