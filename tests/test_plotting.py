"""Tests of perceptron_lib.draw.style and perceptron_lib.draw.plotting: they read artists' data, not pixels."""

import json
import os
import subprocess
import sys

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from perceptron_lib.draw import arrows as AR
from perceptron_lib.draw import plotting as P
from perceptron_lib.draw import style as S
from perceptron_lib.draw import surfaces as SU
from tests.frame_checks import contrast


def make_ax(projection=None, xlim=(-3, 3), ylim=(-2, 2)):
    fig = Figure(figsize=(4, 4), dpi=60)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(projection=projection) if projection else fig.add_subplot()
    if projection is None:
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
    return ax


def on_line(pts, w, b, tol=1e-9):
    return np.allclose(np.asarray(pts) @ np.asarray(w, float) + b, 0, atol=tol)


# --------------------------------------------------------------------------- style


def run_py(code, env_extra=None):
    env = dict(os.environ)
    env.pop("COURSE_STYLE", None)
    env.update(env_extra or {})
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.strip()


def test_import_changes_no_rcparams():
    code = """
import json, matplotlib as mpl
def snap():
    rc = mpl.rcParams
    return {k: repr(rc._get(k)) for k in rc}
before = snap()
import perceptron_lib, perceptron_lib.draw.style, perceptron_lib.draw.plotting, perceptron_lib.player
from perceptron_lib.draw import style
style.use("lecture")
with style.context("notebook"):
    pass
after = snap()
print(json.dumps([k for k in before if before[k] != after.get(k)] + [k for k in after if k not in before]))
"""
    assert json.loads(run_py(code)) == []


def test_env_var_picks_default_preset():
    code = "from perceptron_lib.draw import style; print(style.current().name)"
    assert run_py(code) == "notebook"
    assert run_py(code, {"COURSE_STYLE": "lecture"}) == "lecture"
    assert run_py(code, {"COURSE_STYLE": " Lecture "}) == "lecture"
    # The environment wins over the notebooks' own use("notebook"): one variable switches a session.
    code_use = "from perceptron_lib.draw import style; style.use('notebook'); print(style.current().name)"
    assert run_py(code_use, {"COURSE_STYLE": "lecture"}) == "lecture"
    assert run_py(code_use) == "notebook"
    code_ctx = "from perceptron_lib.draw import style\nwith style.context('notebook'): print(style.current().name)"
    assert run_py(code_ctx, {"COURSE_STYLE": "lecture"}) == "notebook"


def test_env_var_bad_value_says_what_to_do(no_style_chosen, monkeypatch):
    monkeypatch.setenv("COURSE_STYLE", "poster")
    with pytest.raises(ValueError, match="COURSE_STYLE='poster'.*lecture"):
        S.current()


def test_use_current_context(no_style_chosen):
    before = dict(matplotlib.rcParams)
    assert S.current() is S.NOTEBOOK
    assert S.use("lecture") is S.LECTURE and S.current() is S.LECTURE
    with S.context("notebook") as st:
        assert st is S.NOTEBOOK and S.current() is S.NOTEBOOK
    assert S.current() is S.LECTURE
    with pytest.raises(RuntimeError):
        with S.context("notebook"):
            raise RuntimeError("boom")
    assert S.current() is S.LECTURE  # restored after an error too
    S.use(None)
    assert S.current() is S.NOTEBOOK
    assert dict(matplotlib.rcParams) == before  # use() writes no rcParams
    with pytest.raises(ValueError, match="unknown style"):
        S.use("poster")
    with pytest.raises(TypeError):
        S.get(3)


def test_lecture_is_bigger_than_notebook():
    nb, lec = S.NOTEBOOK, S.LECTURE
    for f in ("font_size", "title_size", "label_size", "tick_size", "legend_size", "line_width", "arrow_width",
              "marker_size", "ring_size"):
        assert getattr(lec, f) > getattr(nb, f), f
    assert lec.font_size >= 20 and lec.tick_size >= 18
    assert lec.panel_size[0] > nb.panel_size[0]
    assert lec.rc()["font.size"] > nb.rc()["font.size"]


def test_class_colours_and_markers_are_okabe_ito_and_differ():
    oi = set(S.OKABE_ITO.values())
    assert S.POS_COLOR in oi and S.NEG_COLOR in oi and S.POS_COLOR != S.NEG_COLOR
    assert S.POS_MARKER != S.NEG_MARKER
    pos, neg = S.class_style(1), S.class_style(-1)
    assert (pos["c"], pos["marker"], pos["label"]) == (S.POS_COLOR, S.POS_MARKER, "y = +1")
    assert (neg["c"], neg["marker"], neg["label"]) == (S.NEG_COLOR, S.NEG_MARKER, "y = -1")


def test_contrast_against_known_values():
    assert contrast("#000000") == pytest.approx(21.0)
    assert contrast("#FFFFFF") == pytest.approx(1.0)
    assert contrast("#767676") == pytest.approx(4.54, abs=0.01)  # the usual grey that just passes AA for text


@pytest.mark.parametrize("name", ["POS_COLOR", "NEG_COLOR", "BOUNDARY_COLOR", "PREV_BOUNDARY_COLOR", "W_COLOR",
                                  "UPDATE_COLOR", "RING_COLOR", "MISTAKE_COLOR", "CURVE_COLOR", "CURSOR_COLOR",
                                  "CURSOR_MARK_COLOR", "PLANE_COLOR"])
def test_every_mark_colour_has_3_to_1_on_white_and_no_role_borrows_a_class_colour(name):
    """WCAG 1.4.11: a line or marker a student must see has 3:1 against the white axes. The class colours mean
    y = +1 and y = -1 only, and Okabe-Ito's orange (2:1, and read as the vermillion of y = +1) is no mark's."""
    colour = getattr(S, name)
    assert contrast(colour) >= 3.0, f"{name} = {colour}: {contrast(colour):.2f}:1"
    assert to_hex(colour) != to_hex(S.OKABE_ITO["orange"])
    if name not in ("POS_COLOR", "NEG_COLOR"):
        assert to_hex(colour) not in {to_hex(S.POS_COLOR), to_hex(S.NEG_COLOR)}


def test_the_cursor_on_a_curve_is_dark_grey_with_a_hollow_marker():
    ax = make_ax()
    art = SU.draw_loss_curve(ax, [3.0, 2.0, 1.0], label="loss")
    assert to_hex(art.cursor.get_color()) == to_hex(S.CURSOR_COLOR) and contrast(art.cursor.get_color()) >= 3.0
    assert to_hex(art.dot.get_markerfacecolor()) == to_hex(S.CURSOR_FACE_COLOR)
    assert contrast(art.dot.get_markeredgecolor()) >= 3.0  # the ring's edge carries it


def test_style_axes_sets_sizes():
    ax = make_ax()
    ax.set_xlabel("x")
    S.style_axes(ax, "lecture")
    assert ax.xaxis.label.get_fontsize() == S.LECTURE.label_size
    assert ax.xaxis.get_major_ticks()[0].label1.get_fontsize() == S.LECTURE.tick_size


# --------------------------------------------------------------------------- points


def test_draw_points_colour_marker_legend():
    X = np.array([[0, 0], [1, 1], [2, 0], [-1, 1]], float)
    y = np.array([1, -1, 1, -1])
    ax = make_ax()
    art = P.draw_points(ax, X, y)
    np.testing.assert_array_equal(art.pos.get_offsets(), X[y > 0])
    np.testing.assert_array_equal(art.neg.get_offsets(), X[y < 0])
    assert to_hex(art.pos.get_facecolor()[0]) == S.POS_COLOR.lower()
    assert to_hex(art.neg.get_facecolor()[0]) == S.NEG_COLOR.lower()
    assert art.pos.get_paths()[0] != art.neg.get_paths()[0]  # different marker shapes
    assert [t.get_text() for t in art.legend.get_texts()] == ["y = +1", "y = -1"]
    with pytest.raises(ValueError):
        P.draw_points(ax, X[:, :1], y)
    with pytest.raises(ValueError):
        P.draw_points(ax, X, y[:3])


# --------------------------------------------------------------------------- boundary


@pytest.mark.parametrize("w,b", [((1.0, 2.0), 0.5), ((1.0, 0.0), -1.0), ((0.0, 3.0), 1.5), ((-2.0, 1.0), 0.0),
                                 ((1e-6, 1.0), 0.0), ((5.0, -0.1), 3.0)])
def test_boundary_segment_on_line_and_box(w, b):
    xl, yl = (-3, 3), (-2, 2)
    seg = P.boundary_segment(w, b, xl, yl)
    assert seg is not None and seg.shape == (2, 2)
    assert on_line(seg, w, b)
    for p in seg:  # each end on the box's edge
        assert xl[0] - 1e-9 <= p[0] <= xl[1] + 1e-9 and yl[0] - 1e-9 <= p[1] <= yl[1] + 1e-9
        assert min(abs(p[0] - xl[0]), abs(p[0] - xl[1]), abs(p[1] - yl[0]), abs(p[1] - yl[1])) < 1e-9


def test_boundary_segment_vertical_horizontal_none():
    seg = P.boundary_segment((1, 0), -1, (-3, 3), (-2, 2))  # x = 1
    np.testing.assert_allclose(sorted(seg[:, 1]), [-2, 2])
    np.testing.assert_allclose(seg[:, 0], [1, 1])
    seg = P.boundary_segment((0, 2), 2, (-3, 3), (-2, 2))  # y = -1
    np.testing.assert_allclose(seg[:, 1], [-1, -1])
    assert P.boundary_segment((0, 0), 1, (-3, 3), (-2, 2)) is None  # w = 0
    assert P.boundary_segment((0, 0), 0, (-3, 3), (-2, 2)) is None
    assert P.boundary_segment((1, 0), -10, (-3, 3), (-2, 2)) is None  # x = 10 misses the view
    assert P.boundary_segment((1, 1), -100, (-3, 3), (-2, 2)) is None
    assert P.boundary_segment((np.nan, 1), 0, (-3, 3), (-2, 2)) is None
    with pytest.raises(ValueError):
        P.boundary_segment((1, 2, 3), 0, (-3, 3), (-2, 2))


def test_draw_and_update_boundary_keep_view():
    ax = make_ax()
    before = (ax.get_xlim(), ax.get_ylim())
    line = P.draw_boundary(ax, (1, 2), 0.5)
    assert on_line(line.get_xydata(), (1, 2), 0.5) and len(line.get_xydata()) == 2
    P.update_boundary(line, (0, 0), 0.0)
    assert len(line.get_xydata()) == 0  # w = 0: nothing drawn
    P.update_boundary(line, (2, 0), 1.0, ax)  # vertical x = -0.5
    np.testing.assert_allclose(line.get_xdata(), [-0.5, -0.5])
    assert (ax.get_xlim(), ax.get_ylim()) == before
    assert line in ax.lines and line.get_label().startswith("_")


def test_lifted_boundary_is_the_circle():
    xl, yl = (-3, 3), (-3, 3)
    pts = P.boundary_points((0, 0, 1), -1, xl, yl)  # x^2 + y^2 = 1
    assert len(pts) > 100
    np.testing.assert_allclose(np.hypot(pts[:, 0], pts[:, 1]), 1.0)
    pts = P.boundary_points((2, 0, 1), -3, xl, yl)  # (x+1)^2 + y^2 = 4
    np.testing.assert_allclose(np.hypot(pts[:, 0] + 1, pts[:, 1]), 2.0)
    assert on_line(P.boundary_points((1, 1, 0), 0.5, xl, yl), (1, 1), 0.5)  # w3 = 0: a line
    assert len(P.boundary_points((0, 0, 1), 1, xl, yl)) == 0  # r^2 < 0: no points
    assert len(P.boundary_points((0, 0, 1), -100, xl, yl)) == 0  # circle around the whole view
    assert len(P.boundary_points((0, 0, 0), 0, xl, yl)) == 0
    far = P.boundary_points((-40, 0, 1), 399, xl, yl)  # centre (20, 0), r = 1: misses the view
    assert len(far) == 0
    big = P.boundary_points((-200, 0, 1), 100 ** 2 - 101 ** 2, xl, yl)  # centre (100, 0), r = 101: an arc through x=-1
    assert len(big) > 10
    np.testing.assert_allclose(np.hypot(big[:, 0] - 100, big[:, 1]), 101)
    assert np.any((np.abs(big[:, 1]) <= 3) & (np.abs(big[:, 0]) <= 3))
    with pytest.raises(ValueError):
        P.boundary_points((1, 2, 3, 4), 0, xl, yl)


# --------------------------------------------------------------------------- arrows, ring, mistakes


def test_w_arrow_starts_on_boundary_and_is_normal():
    ax = make_ax()
    w, b = np.array([1.0, 2.0]), -1.0
    line = P.draw_boundary(ax, w, b)
    arrow = AR.draw_w_arrow(ax, w, b)
    assert on_line([arrow.start], w, b)  # starts on the boundary
    np.testing.assert_allclose(arrow.start, -b * w / (w @ w))  # closest point to the origin
    np.testing.assert_allclose(arrow.delta, w)
    seg = line.get_xydata()
    assert abs(np.dot(seg[1] - seg[0], arrow.delta)) < 1e-9  # normal to the boundary
    np.testing.assert_allclose(arrow.patch.get_path().vertices[0], arrow.start, atol=1e-9)
    assert arrow.get_visible()
    AR.update_w_arrow(arrow, (3, 0), 0.0, scale=0.5)  # homogeneous: from the origin
    np.testing.assert_allclose(arrow.start, [0, 0])
    np.testing.assert_allclose(arrow.end, [1.5, 0])
    AR.update_w_arrow(arrow, (0, 0), 1.0)
    assert not arrow.get_visible()  # w = 0: hidden
    AR.update_w_arrow(arrow, (1, 1), 0.0, anchor=(1, -1))
    np.testing.assert_allclose([arrow.start, arrow.end], [[1, -1], [2, 0]])
    np.testing.assert_allclose(AR.w_arrow_anchor((0, 0), 5), [0, 0])


def test_update_arrow_and_head_size():
    ax = make_ax()
    arr = AR.draw_update_arrow(ax, (1, 1), (0.5, -1))
    np.testing.assert_allclose(arr.start, [1, 1])
    np.testing.assert_allclose(arr.end, [1.5, 0])
    np.testing.assert_allclose(arr.delta, [0.5, -1])
    AR.update_arrow(arr, (0, 0), (2, 0))
    np.testing.assert_allclose(arr.end, [2, 0])
    big_head = arr.patch.get_mutation_scale()
    AR.update_arrow(arr, (0, 0), (0.01, 0))
    assert arr.patch.get_mutation_scale() < big_head  # a short arrow gets a small head
    AR.update_arrow(arr, (0, 0), (0, 0))
    assert not arr.get_visible()
    AR.update_arrow(arr, (0, 0), (np.nan, 0))
    assert not arr.get_visible()
    arr.set((0, 0), (1, 1))
    assert arr.get_visible()
    arr.hide()
    assert not arr.get_visible()


def test_ring_and_mistakes():
    ax = make_ax()
    before = (ax.get_xlim(), ax.get_ylim())
    ring = P.ring_point(ax, (1, 2))
    np.testing.assert_array_equal(ring.get_xydata(), [[1, 2]])
    P.update_ring(ring, [[0, 0], [1, 1]])
    np.testing.assert_array_equal(ring.get_xydata(), [[0, 0], [1, 1]])
    P.update_ring(ring, None)
    assert len(ring.get_xydata()) == 0
    P.update_ring(ring, np.empty((0, 2)))
    assert len(ring.get_xydata()) == 0
    X = np.arange(10, dtype=float).reshape(5, 2)
    mask = np.array([True, False, True, False, False])
    mk = P.mark_mistakes(ax, X, mask)
    np.testing.assert_array_equal(mk.get_xydata(), X[mask])
    assert mk.get_marker() == "x"
    P.update_mistakes(mk, X, np.zeros(5, bool))
    assert len(mk.get_xydata()) == 0
    assert (ax.get_xlim(), ax.get_ylim()) == before


# --------------------------------------------------------------------------- curves and landscapes


def test_loss_curve_and_cursor():
    ax = make_ax()
    v = np.array([3.0, 2.0, 2.5, 0.0])
    art = SU.draw_loss_curve(ax, v, label="loss", ylabel="L")
    np.testing.assert_array_equal(art.line.get_ydata(), v)
    np.testing.assert_array_equal(art.dot.get_xydata(), [[0, 3.0]])
    moved = SU.update_cursor(art, 2)
    assert set(map(id, moved)) == {id(art.cursor), id(art.dot)}
    np.testing.assert_array_equal(art.cursor.get_xdata(), [2, 2])
    np.testing.assert_array_equal(art.dot.get_xydata(), [[2, 2.5]])
    art.set_cursor(99)  # clamped
    np.testing.assert_array_equal(art.dot.get_xydata(), [[3, 0.0]])
    art.set_cursor(-5)
    np.testing.assert_array_equal(art.dot.get_xydata(), [[0, 3.0]])
    assert ax.get_ylabel() == "L" and ax.get_xlabel() == "update k"
    with pytest.raises(ValueError):
        SU.draw_loss_curve(ax, v, x=[0, 1])
    empty = SU.draw_loss_curve(make_ax(), [])
    assert empty.set_cursor(3) == [empty.cursor, empty.dot]


def test_contours_and_surface():
    a = np.linspace(-2, 2, 21)
    bb = np.linspace(-1, 1, 11)
    A, B = np.meshgrid(a, bb)
    Z = A ** 2 + B ** 2
    ax = make_ax()
    art = SU.draw_contours(ax, a, bb, Z, point=(0.5, 0.5), path=([0, 0.5], [0, 0.5]), colorbar=True,
                          xlabel="w1", ylabel="b")
    np.testing.assert_array_equal(art.point.get_xydata(), [[0.5, 0.5]])
    np.testing.assert_array_equal(art.path.get_xydata(), [[0, 0], [0.5, 0.5]])
    art.set_point(1, -1)
    np.testing.assert_array_equal(art.point.get_xydata(), [[1, -1]])
    assert art.colorbar is not None and ax.get_xlabel() == "w1"
    lines_only = SU.draw_contours(make_ax(), A, B, Z, filled=False)
    assert lines_only.lines is None
    ax3 = make_ax("3d")
    surf = SU.draw_surface(ax3, a, bb, Z, point=(0, 0, 0), xlabel="w1", ylabel="b", zlabel="L")
    surf.set_point(1, 0.5, 1.25)
    xs, ys, zs = surf.point.get_data_3d()
    assert (xs[0], ys[0], zs[0]) == (1, 0.5, 1.25)
    ax3.figure.canvas.draw()


def test_plane_polygon_lies_on_plane_and_in_box():
    box = np.array([[-1, 1], [-2, 2], [0, 3]], float)
    for w, b in [((0, 0, 1), -1.5), ((1, 1, 1), -1), ((1, 0, 0), 0.2), ((0.3, -2, 1), 0.5)]:
        poly = SU.plane_polygon(w, b, box)
        assert 3 <= len(poly) <= 6
        assert np.allclose(poly @ np.array(w, float) + b, 0, atol=1e-9)
        assert np.all(poly >= box[:, 0] - 1e-9) and np.all(poly <= box[:, 1] + 1e-9)
    assert len(SU.plane_polygon((0, 0, 1), -1.5, box)) == 4
    assert len(SU.plane_polygon((0, 0, 1), -10, box)) == 0  # above the box
    assert len(SU.plane_polygon((0, 0, 0), 1, box)) == 0
    with pytest.raises(ValueError):
        SU.plane_polygon((1, 2), 0, box)


def test_draw_lifted_points_and_plane():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (30, 2))
    y = np.where((X ** 2).sum(1) < 0.5, 1, -1)
    ax3 = make_ax("3d")
    art = SU.draw_lifted(ax3, X, y, w=(0, 0, -1), b=0.5)
    np.testing.assert_allclose(SU.lifted_z(X), (X ** 2).sum(1))
    xs, ys, zs = art.pos._offsets3d
    np.testing.assert_allclose(np.column_stack([xs, ys, zs]),
                               np.column_stack([X[y > 0], SU.lifted_z(X[y > 0])]))
    assert len(art.polygon) == 4 and np.allclose(art.polygon[:, 2], 0.5)
    moved = SU.update_plane(art, (1, 0, 0), 0.0)
    assert moved == [art.plane] and art.plane.get_visible()
    assert np.allclose(art.polygon[:, 0], 0)  # x = 0
    SU.update_plane(art, (0, 0, 0), 1.0)
    assert not art.plane.get_visible()
    art2 = SU.draw_lifted(make_ax("3d"), np.column_stack([X, SU.lifted_z(X)]), y)  # 3 columns, no plane yet
    assert not art2.plane.get_visible()
    ax3.figure.canvas.draw()


def test_no_pyplot_figures():
    import matplotlib.pyplot as plt

    assert plt.get_fignums() == []


def test_subplots_titles_and_legends_added_later_follow_the_preset():
    import matplotlib.pyplot as plt

    from perceptron_lib.draw import style as S2

    for name in ("notebook", "lecture"):
        fig, ax = S2.subplots(style=name)
        ax.plot([0, 1], [0, 1], label="a line")
        ax.set_title("made after the axes")
        ax.set_xlabel("x")
        leg = ax.legend()
        fig.canvas.draw()
        preset = S2.get(name)
        assert ax.title.get_fontsize() == preset.title_size
        assert ax.xaxis.label.get_fontsize() == preset.label_size
        assert leg.get_texts()[0].get_fontsize() == preset.legend_size
        plt.close(fig)
