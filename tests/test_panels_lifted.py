"""Lesson 05's pictures: the lift scene, decision regions, update counts and the folded fallback."""

import itertools

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, kernels
from perceptron_lib.draw import style
from perceptron_lib.player import LiveFigure
from perceptron_lib.player.panels import lifted as pics


@pytest.fixture(scope="module")
def rings():
    X, y = data.circles(40, r_inner=1.0, r_outer=2.0, noise=0.1, seed=0)
    return X, y


def _fig(ncols=1, projection=None):
    fig = Figure(figsize=(4 * ncols, 4), layout="constrained")
    projs = projection or [None] * ncols
    return fig, [fig.add_subplot(1, ncols, j + 1, projection=p) for j, p in enumerate(projs)]


def _radius_of(line):
    x, y = line.get_data()
    return np.hypot(np.asarray(x), np.asarray(y))


def test_lift_scene_plane_and_circle_follow_the_radius(rings):
    X, y = rings
    fig, (ax3, ax2) = _fig(2, ["3d", None])
    scene = pics.draw_lift_scene(ax3, ax2, X, y, r=1.5)
    np.testing.assert_allclose(_radius_of(scene.circle), 1.5)
    np.testing.assert_allclose(scene.lifted.polygon[:, 2], 1.5**2)  # a horizontal plane at z = r^2
    moved = scene.set_radius(1.2)
    assert scene.circle in moved and scene.lifted.plane in moved and scene.r == 1.2
    np.testing.assert_allclose(_radius_of(scene.circle), 1.2)
    np.testing.assert_allclose(scene.lifted.polygon[:, 2], 1.44)
    # every lifted point lies inside the 3-D box, which starts at z = 0 (the bottom of the bowl)
    zlo, zhi = ax3.get_zlim()
    assert zlo == 0.0 and zhi >= kernels.lift(X)[:, 2].max()
    assert scene.bowl is not None
    fig.canvas.draw()


def test_lift_scene_in_a_live_figure_moves_with_the_sliders(rings):
    import ipywidgets as widgets

    X, y = rings
    Z = kernels.lift(X)
    live = LiveFigure(1, 2, projection=["3d", None])
    scene = pics.draw_lift_scene(live.axes[0], live.axes[1], X, y, r=1.5, bowl=False)

    def show(azimuth, r):
        live.axes[0].view_init(elev=20, azim=azimuth)
        scene.set_radius(r)
        return f"{int(np.sum(y * (r**2 - Z[:, 2]) <= 0))} wrong"

    live.bind(show, azimuth=widgets.FloatSlider(value=-60, min=-180, max=180), r=widgets.FloatSlider(value=1.5))
    assert live.text == "0 wrong"
    before = live.frame_png()
    live.set(azimuth=30)
    assert live.axes[0].azim == 30 and live.frame_png() != before
    live.set(r=0.5)
    assert live.text == f"{int((y > 0).sum())} wrong"  # every inner point is above a low plane


def test_regions_colour_by_sign_and_draw_the_zero_level(rings):
    X, y = rings
    fig, (ax,) = _fig()
    art = pics.draw_regions(ax, lambda G: 1.5**2 - (G**2).sum(axis=1), X, y, n=81, title="t")
    A = np.asarray(art.fill.get_array()).reshape(81, 81)
    gx, gy = np.linspace(*art.xlim, 81), np.linspace(*art.ylim, 81)
    inside = gx[None, :] ** 2 + gy[:, None] ** 2 < 1.5**2  # rows follow x2, columns x1
    assert (A[inside] == 1).all() and (A[~inside] == 0).all()
    assert art.boundary is not None and ax.get_title() == "t"
    assert len(fig.legends) == 1 and ax.get_aspect() == 1.0
    fig.canvas.draw()


def test_regions_without_a_sign_change_draw_no_boundary(rings):
    X, y = rings
    fig, (ax,) = _fig()
    art = pics.draw_regions(ax, lambda G: -np.ones(len(G)), X, y, legend=False, xlim=(-3, 3), ylim=(-3, 3))
    assert art.boundary is None and not fig.legends and ax.get_xlim() == (-3.0, 3.0)
    assert (np.asarray(art.fill.get_array()) == 0).all()  # sgn(0) and below: -1 everywhere


def test_update_counts_size_and_label_the_used_points(rings):
    X, y = rings
    run = fit_perceptron(kernels.lift(X), y)
    counts = run.update_counts()
    fig, (ax,) = _fig()
    pts = pics.draw_update_counts(ax, X, y, counts, w=run.w, b=run.b, title="used")
    used = counts > 0
    labels = sorted(int(t.get_text()) for t in ax.texts)
    assert labels == sorted(counts[used].tolist())
    n_drawn = len(pts.pos.get_offsets()) + len(pts.neg.get_offsets())
    assert n_drawn == used.sum()
    sizes = np.concatenate([pts.neg.get_sizes(), pts.pos.get_sizes() / 1.25])
    assert sizes.min() > style.current().marker_size  # a used point is drawn larger than a plain one
    # the learned circle is drawn: its points satisfy the plane's equation
    line = [a for a in ax.lines if a.get_label() == "_boundary"][0]
    P = np.column_stack(line.get_data())
    np.testing.assert_allclose(kernels.lift(P) @ run.w + run.b, 0, atol=1e-9 * np.abs(run.w).max() * 10)
    with pytest.raises(ValueError, match="one entry per point"):
        pics.draw_update_counts(ax, X, y, counts[:-1])


def test_region_colors_are_light_tints_of_the_class_colours():
    neg, pos = pics.region_colors()
    assert min(neg) > 0.7 and min(pos) > 0.7 and neg != pos


def test_lecture_preset_draws_too(rings):
    X, y = rings
    with style.context("lecture"):
        fig, (ax3, ax2) = _fig(2, ["3d", None])
        pics.draw_lift_scene(ax3, ax2, X, y, r=1.4)
        fig2, (ax,) = _fig()
        pics.draw_regions(ax, lambda G: G[:, 0], X, y)
        assert ax3.title.get_fontsize() == style.LECTURE.title_size
        fig.canvas.draw()
        fig2.canvas.draw()


def _tick_labels_drawn(axis):
    """The tick labels a 3-D axis drew: those of its ticks inside the view, with text."""
    lo, hi = sorted(axis.get_view_interval())
    locs = axis.get_majorticklocs()
    return [t.label1 for t, v in zip(axis.get_major_ticks(len(locs)), locs, strict=True)
            if lo <= v <= hi and t.label1.get_text()]


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_lifted_tick_labels_never_collide(rings, preset):
    """Seen level (elevation 0), from above or turned, no two texts of the 3-D box (tick labels, axis names) overlap."""
    X, y = rings
    with style.context(preset):
        live = LiveFigure(1, 2, projection=["3d", None])
        pics.draw_lift_scene(live.axes[0], live.axes[1], X, y, r=1.5)
        live.refresh()
    ax3 = live.axes[0]
    r = live.canvas.get_renderer()
    shown = {}
    for elev in (0, 5, 20, 90):
        for azim in (-60, -90, 30, 120):
            ax3.view_init(elev=elev, azim=azim)
            live.canvas.draw()
            boxes = [(f"{a.axis_name} {t.get_text()}", t.get_window_extent(r))
                     for a in (ax3.xaxis, ax3.yaxis, ax3.zaxis) for t in _tick_labels_drawn(a)]
            shown[elev, azim] = len(boxes)
            boxes += [(f"{a.axis_name} label", a.label.get_window_extent(r)) for a in (ax3.xaxis, ax3.yaxis, ax3.zaxis)]
            for (m, bm), (n, bn) in itertools.combinations(boxes, 2):
                assert not bm.overlaps(bn), f"{m!r} and {n!r} overlap at elevation {elev}, azimuth {azim} ({preset})"
    assert min(shown.values()) >= 3  # every view keeps some numbers on its axes
    assert shown[20, -60] >= (7 if preset == "notebook" else 4)  # the lesson's first view keeps most of them


def test_bad_points_are_refused():
    fig, (ax,) = _fig()
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        pics.draw_regions(ax, lambda G: G[:, 0], np.ones(5), np.ones(5))


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_lift_scene_panels_stand_apart_in_a_live_figure(rings, preset):
    """Lesson 05's live figure: the 3-D view's z name stood 1 px from the plane view's x₂ in the lecture
    preset (mplot3d places it after the layout). Every pair of panels is at least 4 points apart."""
    X, y = rings
    live = LiveFigure(1, 2, projection=["3d", None], style=preset)
    with style.context(live.style):
        pics.draw_lift_scene(live.axes[0], live.axes[1], X, y, r=1.5)
    live.refresh()
    r = live.canvas.get_renderer()
    left, right = (ax.get_tightbbox(r) for ax in live.axes)
    z_name, y_name = live.axes[0].zaxis.label.get_window_extent(r), live.axes[1].yaxis.label.get_window_extent(r)
    air = 4 * live.fig.dpi / 72 - 0.5
    assert right.x0 - left.x1 >= air and y_name.x0 - z_name.x1 >= air


def test_update_counts_labels_stand_apart():
    """Each count sits beside its own point: no two labels touch (lesson 05 once showed "1" and "3" of two
    neighbours as "13"), and none covers a point that has a count."""
    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)  # lesson 05's data and run
    run = fit_perceptron(kernels.lift(X), y)
    counts = run.update_counts()
    fig = style.subplots()[0]
    ax = fig.axes[0]
    pics.draw_update_counts(ax, X, y, counts, w=run.w, b=run.b)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(r) for t in ax.texts]
    assert len(boxes) == int((counts > 0).sum())
    def apart(a, b):
        return np.hypot(max(0, max(a.x0, b.x0) - min(a.x1, b.x1)), max(0, max(a.y0, b.y0) - min(a.y1, b.y1)))

    # half a letter's height apart at least (the old labels came within 4 px, a third of it)
    least = 0.5 * ax.texts[0].get_fontsize() * fig.dpi / 72
    assert min(apart(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]) >= least
    centres = ax.transData.transform(np.asarray(X)[counts > 0])
    for a in boxes:
        assert not any(a.contains(*c) for c in centres)
