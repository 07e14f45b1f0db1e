"""Pictures of lessons 01 and 02: every drawn artist shows the number the losses module computes."""

import itertools
import re

import ipywidgets as widgets
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, loss_surfaces, losses, subgradients
from perceptron_lib.draw import style
from perceptron_lib.player import DataPanel, LiveFigure, LossPanel
from perceptron_lib.player.panels import loss as LP
from perceptron_lib.player.panels import loss_slice, loss_views
from tests.drawn import Drawn
from tests.frame_checks import contrast

X, Y = data.small_2d()
X8 = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
Y8 = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)


def axes(n=1, projection=None):
    fig = Figure()
    return [fig.add_subplot(1, n, j + 1, projection=projection) for j in range(n)]


# --------------------------------------------------------------------------- the margin picture


def test_margin_losses_curves_are_the_losses():
    (ax,) = axes()
    curves = LP.draw_margin_losses(ax, m_range=(-2, 2))
    assert set(curves) == {"zero_one", "perceptron", "hinge"}
    for name, line in curves.items():
        m, v = line.get_xdata(), line.get_ydata()
        ok = np.isfinite(m)
        np.testing.assert_allclose(v[ok], losses.loss_of_margin(m[ok], loss=name))
    # the 0-1 curve is broken at its jump, not joined by a vertical segment
    assert np.isnan(curves["zero_one"].get_xdata()).sum() == 1


@pytest.mark.parametrize("m, theta", [(-1.0, 0.0), (0.0, 0.0), (0.0, 1.0), (1.0, 0.5), (0.5, 1.0)])
def test_margin_reader_reads_values_and_slopes(m, theta):
    (ax,) = axes()
    r = LP.MarginReader(ax)
    html = r.show(m, theta)
    assert html.startswith("<div") and "margin m" in html
    for name in r.losses:
        v = float(losses.loss_of_margin(m, loss=name))
        np.testing.assert_allclose(r.dots[name].get_xydata(), [[m, v]])
        g = float(losses.slope_of_margin(m, loss=name, at_kink=theta))
        seg = r.tangents[name].get_xydata()
        if np.isnan(g):
            assert len(seg) == 0
        else:
            slope = (seg[1, 1] - seg[0, 1]) / (seg[1, 0] - seg[0, 0])
            assert slope == pytest.approx(g)
    at_kink = m in (0.0, 1.0)
    assert any(len(f.get_xydata()) for f in r.fan) == at_kink
    assert ("every value in [−1, 0]" in r.text) == at_kink


def test_distances_feet_on_the_line():
    (ax,) = axes()
    w, b = np.array([1.0, -2.0]), 1.0
    arts = LP.draw_distances(ax, X, w, b)
    lines = [a for a in arts if hasattr(a, "get_xydata")]
    assert len(lines) == len(X)
    for x, ln in zip(X, lines, strict=True):
        start, foot = ln.get_xydata()
        np.testing.assert_allclose(start, x)
        assert foot @ w + b == pytest.approx(0, abs=1e-12)
    labels = [a.get_text() for a in arts if hasattr(a, "get_text")]
    assert "+2.24" in labels and "0" in labels  # example 5's distance, example 4 on the line


def test_supporting_lines_and_plane():
    (ax,) = axes()
    lines = LP.draw_supporting_lines(ax, 0.0, [-1.0, -0.5, 0.0])
    for ln, g in zip(lines, [-1.0, -0.5, 0.0], strict=True):
        (x0, y0), (x1, y1) = ln.get_xydata()
        assert (y1 - y0) / (x1 - x0) == pytest.approx(g)
        assert y0 + g * (0 - x0) == pytest.approx(0.0)  # through (0, f(0))
    (ax3,) = axes(projection="3d")
    A, B = np.meshgrid(np.linspace(-1, 1, 5), np.linspace(-1, 1, 5))
    surf = LP.draw_supporting_plane(ax3, A, B, (0.0, 0.0), 1.0, (2.0, -1.0), zmin=0.0)
    assert surf is not None


def test_subgradient_gap_sign():
    (ax0, ax1) = axes(2)
    u = np.array([1.0, 0.0, 0.0])
    g0, g1 = (subgradients.perceptron_subgradient(u[:2], u[2], X, Y, at_kink=t).vector for t in (0.0, 1.0))
    assert LP.draw_subgradient_gap(ax0, X, Y, u, g1) >= -1e-12
    assert LP.draw_subgradient_gap(ax1, X, Y, u, g0 + 1.5 * (g1 - g0), colorbar=False) < 0
    # the negative region: grey under black hatching, no class colour
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    hatched = lambda ax: [c for c in ax.collections if any(getattr(c, "hatches", None) or ())]  # noqa: E731
    negative = hatched(ax1)
    assert len(negative) == 1 and to_hex(negative[0].get_facecolor()[0]) == to_hex(LP.GAP_NEGATIVE_COLOR)
    assert to_hex(LP.GAP_NEGATIVE_COLOR) not in {to_hex(style.POS_COLOR), to_hex(style.NEG_COLOR)}
    # the gap is continuous, so the region borders only a gap of 0: viridis's darkest end
    assert contrast(LP.GAP_NEGATIVE_COLOR, colormaps["viridis"](0.0)) >= 3.0
    assert not hatched(ax0)  # θ = 1: nothing is negative


# --------------------------------------------------------------------------- the slice over (w1, w2)


def check_kinks(sl, b):
    P = loss_surfaces.kink_lines(X, center=[0, 0, b])
    segs = sl.kink_segments()
    assert len(segs) >= 1
    for i, seg in segs.items():
        p, q, r = P[i]
        np.testing.assert_allclose(seg @ [p, q] + r, 0, atol=1e-9)


def test_loss_slice_levels_kinks_and_layers():
    (ax,) = axes()
    sl = loss_slice.LossSlice(ax, X, Y, b=0.0, num=41)
    assert sl.levels[0] == 0 and sl.levels[1] == pytest.approx(1e-12)  # the zero band is the zero set
    np.testing.assert_allclose(sl.values(0.0), loss_surfaces.loss_surface(X, Y, np.stack(
        [sl.A, sl.B, np.zeros_like(sl.A)], axis=-1)))
    check_kinks(sl, 0.0)
    assert len(sl.kink_segments()) == len(X)  # b = 0: every kink line crosses the box at w = 0
    assert len(sl.layer_artists()) == 3 + 2 * len(X)  # contourf, contour lines, hatching; lines, labels
    first = sl.layer_artists()
    assert sl.set_b(1.0) and not sl.set_b(1.0)
    check_kinks(sl, 1.0)
    assert not any(a.get_visible() for a in first) and all(a.get_visible() for a in sl.layer_artists())
    assert sl.set_b(0.0) and sl.layer_artists() == first  # cached, not rebuilt
    sl.set_point(1, 2)
    sl.set_path([[0, 0], [1, 2]])
    np.testing.assert_array_equal(sl.point.get_xydata(), [[1, 2]])
    assert len(sl.path.get_xydata()) == 2


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
@pytest.mark.parametrize("b", [0.0, 1.0, -1.0])
def test_kink_labels_stay_apart(preset, b):
    """Kink lines that leave the view side by side, or meet in it, keep their labels apart in both presets."""
    Xk = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
    Yk = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)
    with style.context(preset):
        fig = Figure(figsize=(4.0, 4.0), layout="constrained")  # about a lecture panel beside another
        canvas = FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        sl = loss_slice.LossSlice(ax, Xk, Yk, b=b, span=6.0)
        canvas.draw()
    texts = sl._layers[b]["texts"]
    assert len(texts) >= 2
    r = canvas.get_renderer()
    discs = [(t.get_text(), t.get_bbox_patch().get_window_extent(r)) for t in texts]  # each label's circle
    for (i, bs), (j, bt) in itertools.combinations(discs, 2):
        apart = np.hypot(bs.x0 + bs.x1 - bt.x0 - bt.x1, bs.y0 + bs.y1 - bt.y0 - bt.y1) / 2
        assert apart >= (bs.width + bt.width) / 2, f"labels {i} and {j} overlap at b = {b} ({preset})"
    for t in texts:  # each label stays on its own line
        i = int(t.get_text())
        p, q, c = loss_surfaces.kink_lines(Xk, center=[0, 0, b])[i]
        assert abs(p * t.get_position()[0] + q * t.get_position()[1] + c) < 1e-9 * (abs(p) + abs(q) + abs(c) + 1)


def test_loss_slice_zero_one_and_errors():
    (ax,) = axes()
    sl = loss_slice.LossSlice(ax, X, Y, loss="zero_one", num=31, colorbar=True)
    np.testing.assert_allclose(sl.levels, (np.arange(len(X) + 2) - 0.5) / len(X))
    with pytest.raises(ValueError, match="2 features"):
        loss_slice.LossSlice(ax, np.ones((3, 3)), [1, -1, 1])


def test_loss_plane_view_in_a_live_figure():
    live = LiveFigure(1, 2)
    view = loss_views.LossPlaneView(live.axes, X, Y)
    live.bind(view.show, w1=widgets.FloatSlider(value=1.0, min=-3, max=3, step=0.5),
              w2=widgets.FloatSlider(value=-2.0, min=-3, max=3, step=0.5),
              b=widgets.FloatSlider(value=1.0, min=-3, max=3, step=0.5))
    seg = view.boundary.get_xydata()
    np.testing.assert_allclose(seg @ [1.0, -2.0] + 1.0, 0, atol=1e-9)
    np.testing.assert_array_equal(view.slice.point.get_xydata(), [[1.0, -2.0]])
    assert view.slice.b == 1.0
    np.testing.assert_array_equal(view.marks.cross.get_xydata(), X[[1, 2, 5]])
    np.testing.assert_array_equal(view.marks.square.get_xydata(), X[[4]])
    assert "L(w, b) = 2.1667" in view.text and "wrong side (margin < 0): 1, 2, 5" in view.text
    live.set(w1=0.0, w2=0.0, b=0.0)
    assert len(view.boundary.get_xydata()) == 0 and "no boundary" in view.text
    assert len(view.marks.square.get_xydata()) == len(X)


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
@pytest.mark.parametrize("point", [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, -2.0, 1.0), (1.0, 1.0, 0.0)])
@pytest.mark.parametrize("theta", [0.0, 1.0])
def test_subgradient_view_arrows_add_up(point, theta, preset):
    (ax0, ax1) = axes(2)
    with style.context(preset):
        view = loss_views.SubgradientView([ax0, ax1], X, Y)
        view.show(*point, theta)
    w = np.array(point[:2])
    g = subgradients.perceptron_subgradient(w, point[2], X, Y, at_kink=theta)
    tip = w.copy()
    for i, arr in enumerate(view.arrows):
        share = g.contributions[i, :2] / len(Y)
        assert arr.get_visible() == bool(np.any(share))
        if arr.get_visible():
            np.testing.assert_allclose(arr.start, tip)
            tip = tip + share
            np.testing.assert_allclose(arr.end, tip)
    np.testing.assert_allclose(tip, w + g.gw, atol=1e-12)  # the chain ends at the total
    assert view.total.get_visible() == bool(np.any(g.gw))
    if view.total.get_visible():
        np.testing.assert_allclose(view.total.end, w + g.gw)
    # each point's label is its index, then its case: on two lines (notebook) or after ": " (lecture)
    assert [re.fullmatch(r"(\d+)(?:\n|: )(.+)", lab.get_text()).groups() for lab in view.marks.labels] == [
        (str(i), c) for i, c in enumerate(g.cases)]
    assert f"θ at the kink = {theta:g}" in view.text


# --------------------------------------------------------------------------- in a player's still


def test_contour_path_panel_follows_the_run():
    run = fit_perceptron(X8, Y8)
    # fixed arrow scale: the main panel's scale note would otherwise ask for full redraws of its own
    p = Drawn(run, X8, Y8, panels=[loss_slice.ContourPathPanel(), LossPanel(loss_surfaces.loss_along_run, "L")],
              data_panel=DataPanel(arrow_scale=0.2))
    panel = p.panels[1]  # the scene's copy
    assert panel.blit_layers  # b takes two values in this run
    full = []  # a full draw of the figure fires matplotlib's draw_event; a blit does not
    p.figure.canvas.mpl_connect("draw_event", lambda _e: full.append(1))
    frames = set()
    for k in range(p.K + 1):
        p.seek(k)
        h = run.history
        np.testing.assert_array_equal(panel.slice.point.get_xydata(), [h.w[k]])
        np.testing.assert_array_equal(panel.slice.path.get_xydata(), h.w[: k + 1])
        assert panel.slice.b == h.b[k]
        assert panel.ax.title.get_text().endswith(f"b = {h.b[k]:g}")
        frames.add(p.frame_png())
    assert not full  # every step was blitted, also when b changed
    assert len(frames) == p.K + 1


def test_contour_path_panel_fixed_b_and_redraw_fallback():
    run = fit_perceptron(X8, Y8)
    p = Drawn(run, X8, Y8, panels=[loss_slice.ContourPathPanel(b=0.0)])
    fixed = p.panels[1]
    p.seek(1)
    assert fixed.slice.b == 0.0 and not fixed.blit_layers
    p2 = Drawn(run, X8, Y8, panels=[loss_slice.ContourPathPanel(max_layers=1)])
    capped = p2.panels[1]
    assert not capped.blit_layers
    p2.seek(1)
    assert capped.slice.b == run.history.b[1] and capped.redraw is False  # the player consumed the flag
    homogeneous = fit_perceptron(X8, Y8, fit_bias=False)
    p3 = Drawn(homogeneous, X8, Y8, panels=[loss_slice.ContourPathPanel()])
    p3.seek(p3.K)
    with pytest.raises(ValueError, match="'current' or a number"):
        loss_slice.ContourPathPanel(b="now")
    X3 = np.column_stack([np.ones(len(Y8)), X8])  # bias absorbed: the main panel shows it, the path panel cannot
    with pytest.raises(ValueError, match="2 features"):
        Drawn(fit_perceptron(X3, Y8), X3, Y8, panels=[loss_slice.ContourPathPanel()])


