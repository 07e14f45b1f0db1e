"""Lesson 03's pictures: the epoch panel in a player, one update before/after, several runs, digit weights."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_lib import fit_perceptron
from perceptron_lib.core import analysis as A
from perceptron_lib.core import data
from perceptron_lib.player.panels import updates as U
from tests.drawn import Drawn
from tests.frame_checks import contrast


@pytest.fixture(scope="module")
def cycling():
    X, y = data.no_origin_separator()
    return fit_perceptron(X, y, fit_bias=False), X, y


@pytest.fixture(scope="module")
def forty():
    X, y = data.separable(40, margin=0.1, bias=True, seed=3)
    return fit_perceptron(X, y), X, y


def heights(panel):
    return [int(b.get_height()) for b in panel.bars.patches]


def test_epoch_panel_grows_with_the_player(cycling):
    run, X, y = cycling
    p = Drawn(run, X, y, panels=[U.EpochPanel()])
    panel = p.panels[1]
    mpe = run.mistakes_per_epoch.tolist()
    err = A.errors_after_epoch(run, X, y)
    p.seek(0)
    assert heights(panel) == [0] * run.epochs and len(panel.line.get_xdata()) == 0
    ends = A.epoch_ends(run)
    k = int(ends[2]) + 1  # the first update of epoch 3
    p.seek(k)
    assert heights(panel) == mpe[:2] + [1] + [0] * (run.epochs - 3)
    assert panel.line.get_xdata().tolist() == [1, 2]
    assert panel.line.get_ydata().tolist() == err[:2].tolist()
    assert panel.cursor.get_xdata()[0] == 3
    p.seek(p.K)
    assert heights(panel) == mpe and panel.line.get_ydata().tolist() == err.tolist()
    assert min(heights(panel)) > 0  # a cycling run: no epoch without an update
    assert p.frame_png()[:4] == b"\x89PNG"


def test_epoch_panel_draws_each_run_it_is_given(cycling, forty):
    run, X, y = cycling
    configured = U.EpochPanel()
    Drawn(run, X, y, panels=[configured])
    run2, X2, y2 = forty
    p = Drawn(run2, X2, y2, panels=[configured])  # the configured panel again, on another run
    p.seek(p.K)
    assert heights(p.panels[1]) == run2.mistakes_per_epoch.tolist()
    assert p.panels[1].line.get_ydata()[-1] == 0


def test_draw_epoch_curves(forty):
    run, X, y = forty
    fig = Figure()
    ax = fig.add_subplot()
    panel = U.draw_epoch_curves(ax, run, X, y)
    assert heights(panel) == run.mistakes_per_epoch.tolist()
    assert panel.line.get_ydata().tolist() == A.errors_after_epoch(run, X, y).tolist()
    assert not panel.cursor.get_visible()
    fig.canvas.draw()


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_draw_update(forty, preset):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import same_color

    from perceptron_lib.draw import style

    run, X, y = forty
    with style.context(preset):
        fig = Figure(figsize=(10, 4.6), layout="constrained")
        canvas = FigureCanvasAgg(fig)
        axes = fig.subplots(1, 2)
        e = U.draw_update(axes, run, X, y, 3)
    assert e.k == 3 and len(e.broke) > 0
    assert axes[0].get_title() == f"before update 3: {e.errors_before} mistakes"  # the course says mistakes
    assert axes[1].get_title() == f"after update 3: {e.errors_after} mistake{'' if e.errors_after == 1 else 's'}"
    # the legend (under the panel, or in the lecture preset under the picture) names the squares
    legends = [ax.get_legend() for ax in axes if ax.get_legend() is not None] + list(fig.legends)
    assert len(legends) == 1
    labels = [t.get_text() for t in legends[0].get_texts()]
    assert "broken by this update" in labels and labels.count("y = +1") == 1
    # one meaning per colour: the squares are not a class's colour nor orange, and read on white (WCAG 1.4.11)
    (broken,) = [a for a in axes[1].get_children() if getattr(a, "get_label", lambda: "")() == "broken by this update"]
    edge = broken.get_markeredgecolor()
    assert same_color(edge, U.BROKEN_COLOR) and broken.get_marker() == "s"
    assert not any(same_color(edge, c) for c in (style.POS_COLOR, style.NEG_COLOR, style.OKABE_ITO["orange"]))
    assert contrast(edge) >= 3.0
    assert len(broken.get_xdata()) == len(e.broke)
    # the titles stay over the arrow-scale note, not on it
    canvas.draw()
    r = canvas.get_renderer()
    for ax in axes:
        note = [t for t in ax.texts if t.get_text().strip()]
        assert all(not ax.title.get_window_extent(r).overlaps(t.get_window_extent(r)) for t in note)
    # the boundaries drawn are the states k - 1 and k
    for ax, st in ((axes[0], run.history[2]), (axes[1], run.history[3])):
        lines = [ln for ln in ax.lines if ln.get_label() == "_boundary" and ln.get_linestyle() == "-"]
        seg = lines[0].get_xydata()
        assert np.allclose(seg @ st.w + st.b, 0, atol=1e-9)
    with pytest.raises(ValueError):
        U.draw_update(axes, run, X, y, 0)


def test_draw_update_arrow_scale_pulls_a_short_step_apart_from_w():
    """Lesson 03's update 6: w is about 1.7 long and the step 0.33, so the default scale (1/5) draws the three
    arrows on top of each other at the origin; arrow_scale=1/2 draws them 2.5 times as long, inside the view."""
    X, y = data.separable(40, margin=0.1, bias=True, seed=3)
    run = fit_perceptron(X, y)
    stuck = A.find_update(run, X, y, fixed=False)
    assert stuck.k == 6
    notes = {}
    for scale in (None, 0.5):
        axes = Figure(figsize=(10, 4.6), layout="constrained").subplots(1, 2)
        U.draw_update(axes, run, X, y, stuck.k, arrow_scale=scale)
        notes[scale] = " ".join(t.get_text() for t in axes[1].texts)
    assert "×1/5" in notes[None] and "×1/2" in notes[0.5]  # the scale is used: every tip fits the view at 1/2


def test_draw_final_boundaries_and_weights(forty):
    run, X, y = forty
    runs = [fit_perceptron(X, y, order="random", rng=s) for s in range(3)]
    fig = Figure()
    ax = fig.add_subplot()
    lines = U.draw_final_boundaries(ax, X, y, runs, title="three orders")
    assert len(lines) == 3
    for ln, r in zip(lines, runs, strict=True):
        assert np.allclose(ln.get_xydata() @ r.w + r.b, 0, atol=1e-9)
    Xd, yd = data.digits((0, 1))
    rd = fit_perceptron(Xd, yd)
    fig = Figure()
    ax = fig.add_subplot()
    im = U.draw_weight_image(ax, rd.w, title="0 vs 1")
    assert im.get_array().shape == (8, 8)
    lo, hi = im.get_clim()
    assert lo == -hi == -np.abs(rd.w).max()  # centred at 0
    assert im.get_cmap().name == U.WEIGHT_CMAP  # blue for w_j < 0 (toward y = -1), vermillion for > 0
    from matplotlib.colors import to_rgb

    from perceptron_lib.draw.style import NEG_COLOR, POS_COLOR

    assert np.allclose(im.get_cmap()(0.0)[:3], to_rgb(NEG_COLOR), atol=0.01)
    assert np.allclose(im.get_cmap()(1.0)[:3], to_rgb(POS_COLOR), atol=0.01)
    fig.canvas.draw()


