"""Lesson 05's lifted view as numbers (`core.lift_view`, and `core.lift_projection` for the screen) and
`LiftedPanel.front`, the spec the browser draws.

The plane's polygon is checked against facts that do not use its algorithm: each vertex is on the plane and on a
face of the box, the polygon is convex and has area, its vertices are exactly where the plane crosses the box's
twelve edges, it is empty exactly when all eight corners lie on one side, and hand-worked cases (a square, a
triangle, the regular hexagon of the cube). The projection: hand-worked top and side views, an orthonormal turn,
and the box inside the picture at every angle (touching its edges at the angles that make it widest and tallest).
"""

from __future__ import annotations

import json
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib.core import data, kernels
from perceptron_lib.core.frames import mistakes_at_each_step
from perceptron_lib.core.lift_projection import ASPECT, picture_size, project, view_axes
from perceptron_lib.core.lift_view import (
    boundary_in_view,
    boundary_note,
    bowl_mesh,
    bowl_section,
    lifted_points,
    plane_polygon,
    view_box,
)
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import style
from perceptron_lib.player import LiftedPanel

CUBE = [(0.0, 1.0), (0.0, 1.0), (0.0, 1.0)]


def _corners(box):
    B = np.asarray(box, dtype=float)
    return np.array([[B[0, i], B[1, j], B[2, k]] for i, j, k in product((0, 1), repeat=3)])


def _edge_crossings(w, b, box):
    """Where the plane crosses the box's twelve edges (an edge's end counts when it is on the plane)."""
    C = _corners(box)
    f = C @ w + b
    out = [C[a] for a in range(8) if f[a] == 0]
    for a in range(8):
        for c in range(a + 1, 8):
            if bin(a ^ c).count("1") != 1:
                continue
            if f[a] * f[c] < 0:
                out.append(C[a] + f[a] / (f[a] - f[c]) * (C[c] - C[a]))
    return np.array(out).reshape(-1, 3)


def _check_polygon(P, w, b, box):
    """Every fact a plane's polygon in a box must have."""
    B = np.asarray(box, dtype=float)
    size = float(np.max(B[:, 1] - B[:, 0]))
    w = np.asarray(w, dtype=float)
    assert 3 <= len(P) <= 6
    # on the plane
    assert np.all(np.abs(P @ w + b) <= 1e-9 * (np.linalg.norm(w) * (size + np.abs(B).max()) + abs(b)))
    # in the box, and on one of its faces
    assert np.all(P >= B[:, 0] - 1e-12 * size) and np.all(P <= B[:, 1] + 1e-12 * size)
    on_face = np.min(np.abs(P[:, :, None] - B[None, :, :]).reshape(len(P), -1), axis=1)
    assert np.all(on_face <= 1e-9 * size)
    # convex, in order: every turn the same way about the plane's normal, and some area
    turns = np.cross(np.roll(P, -1, axis=0) - P, np.roll(P, -2, axis=0) - np.roll(P, -1, axis=0)) @ w
    assert np.all(turns > 0) or np.all(turns < 0), turns
    # the vertices are the edge crossings: each vertex is a crossing, and each crossing a vertex
    X = _edge_crossings(w, b, box)
    near = np.linalg.norm(X[:, None, :] - P[None, :, :], axis=2) / size
    assert near.min(axis=0).max() <= 1e-8 and near.min(axis=1).max() <= 1e-8


# ---------------------------------------------------------------------------------------------- the plane's polygon
def test_hand_worked_polygons():
    square = plane_polygon([0, 0, -1], 1.0, [(-1, 1), (-1, 1), (0, 2)])
    assert square.tolist() == [[-1.0, -1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, 1.0], [-1.0, 1.0, 1.0]]
    # x + y + z = 1/2 cuts the corner of the unit cube: the triangle of the three points at 1/2 on its edges
    tri = plane_polygon([1, 1, 1], -0.5, CUBE)
    assert sorted(map(tuple, tri.tolist())) == [(0.0, 0.0, 0.5), (0.0, 0.5, 0.0), (0.5, 0.0, 0.0)]
    # x + y + z = 3/2: the regular hexagon, its vertices the permutations of (1, 1/2, 0)
    hexagon = plane_polygon([1, 1, 1], -1.5, CUBE)
    from itertools import permutations

    assert sorted(map(tuple, hexagon.tolist())) == sorted(set(permutations((1.0, 0.5, 0.0))))
    sides = np.linalg.norm(hexagon - np.roll(hexagon, 1, axis=0), axis=1)
    assert np.allclose(sides, np.sqrt(0.5))  # in order around it: six equal sides
    # x = 0.25: the cross-section square, whatever the sign of w
    for w, b in (([1, 0, 0], -0.25), ([-4, 0, 0], 1.0)):
        P = plane_polygon(w, b, CUBE)
        assert sorted(map(tuple, P.tolist())) == [(0.25, j, k) for j in (0.0, 1.0) for k in (0.0, 1.0)]
    # a plane along a face of the box is that face
    assert sorted(map(tuple, plane_polygon([0, 0, 1], 0.0, CUBE).tolist())) == [
        (i, j, 0.0) for i in (0.0, 1.0) for j in (0.0, 1.0)]


@pytest.mark.parametrize("w, b, why", [
    ([1, 1, 1], 0.0, "through a corner only"),
    ([1, 1, 1], -3.0, "through the far corner only"),
    ([1, 1, 0], 0.0, "along an edge"),
    ([1, -1, 0], 1.0, "along the edge x = 0, y = 1"),
    ([0, 0, -1], 5.0, "above the box"),
    ([2, 1, 3], 10.0, "beside the box"),
    ([0, 0, 0], 1.0, "w = 0: no plane"),
    ([np.nan, 0, 1], 0.0, "not a number"),
])
def test_no_polygon_where_the_plane_misses_the_box_or_only_touches_it(w, b, why):
    assert plane_polygon(w, b, CUBE).shape == (0, 3), why


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="w of length 3"):
        plane_polygon([1, 2], 0.0, CUBE)
    with pytest.raises(ValueError, match="box must be three"):
        plane_polygon([1, 2, 3], 0.0, [(0, 1), (1, 0), (0, 1)])
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        lifted_points([1.0, 2.0])


@settings(max_examples=400, deadline=None)
@given(
    # each weight 0 or at least 0.01 in size: a weight of 1e-12 beside 1 puts the crossing anywhere along an edge
    # within rounding (the plane is parallel to it up to 1e-12), for this function and for any other
    w=st.lists(st.one_of(st.just(0.0), st.floats(0.01, 5), st.floats(-5, -0.01)), min_size=3, max_size=3),
    through=st.lists(st.floats(0, 1), min_size=3, max_size=3),
    lo=st.lists(st.floats(-10, 10), min_size=3, max_size=3),
    span=st.lists(st.floats(0.1, 20), min_size=3, max_size=3),
    axis_aligned=st.sampled_from([None, 0, 1, 2]),
)
def test_every_polygon_is_on_the_plane_on_the_faces_convex_and_made_of_the_edge_crossings(w, through, lo, span,
                                                                                           axis_aligned):
    box = np.column_stack([lo, np.add(lo, span)])
    w = np.array(w)
    if axis_aligned is not None:  # planes parallel to an axis: a vertex where the plane meets an edge's end
        w[axis_aligned] = 0.0
    if np.abs(w).max() < 1e-3:
        return
    point = box[:, 0] + np.array(through) * (box[:, 1] - box[:, 0])  # the plane goes through a point of the box
    b = -float(w @ point)
    P = plane_polygon(w, b, box)
    f = _corners(box) @ w + b
    tol = 1e-10 * np.linalg.norm(w) * np.max(box[:, 1] - box[:, 0])  # a sliver thinner than 1e-12 of the box: none
    if len(P) == 0:  # only when the box lies on one side, touching the plane at an edge or a corner at most
        assert np.all(f >= -tol) or np.all(f <= tol)
        assert np.sum(f == 0) <= 2  # a face in the plane is drawn: it is where the plane meets the box
        return
    _check_polygon(P, w, b, box)


def test_every_plane_of_a_run_that_finds_no_separating_plane_is_cut_to_the_box():
    """Lesson 05's rings with one inner point far outside (no plane separates the lifts): 100 states, each plane
    drawn as its part inside the view's box, never as a plane across the whole 3-D view nor as nothing while it
    crosses the box."""
    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    X, y = np.vstack([X, [[3.0, 3.0]]]), np.append(y, 1.0)
    Z = kernels.lift(X)
    run = fit_perceptron(Z, y, max_epochs=8)
    assert not run.converged
    box = view_box(Z)
    sizes = []
    for w, b in zip(run.history.w, run.history.b, strict=True):
        P = plane_polygon(w, b, box)
        f = _corners(box) @ w + b
        if np.any(w) and f.min() < 0 < f.max():
            _check_polygon(P, w, b, box)
            sizes.append(len(P))
        else:
            assert len(P) == 0
    assert len(sizes) >= 90 and set(sizes) <= {3, 4, 5, 6}


# ---------------------------------------------------------------------------------------------- box and bowl
def test_the_view_box_is_the_kernel_views():
    Z = lifted_points(np.array([[0.0, 0.0], [1.0, 2.0]]))
    assert Z.tolist() == [[0.0, 0.0, 0.0], [1.0, 2.0, 5.0]]
    assert np.allclose(view_box(Z), [[-0.08, 1.08], [-0.16, 2.16], [-0.4, 5.4]])
    assert view_box(np.empty((0, 3))).tolist() == [[-1.0, 1.0], [-1.0, 1.0], [0.0, 2.0]]
    assert np.allclose(view_box([[1.0, 1.0, 2.0]]), [[0.92, 1.08], [0.92, 1.08], [1.92, 2.08]])


@pytest.mark.parametrize("box", [[(-2.5, 3.4), (-2.5, 3.4), (-0.8, 19.4)], [(-1, 1), (-1, 1), (0, 2)],
                                 [(0.5, 2.0), (-1.0, 0.2), (1.0, 3.0)], [(-3, 3), (-3, 3), (-2, -1)]])
def test_the_bowls_mesh_is_on_the_bowl_and_in_the_box(box):
    mesh = bowl_mesh(box)
    B = np.asarray(box, dtype=float)
    if B[2, 1] <= 0:
        assert mesh == []
        return
    assert mesh
    for piece in mesh:
        assert piece.shape[1] == 3 and len(piece) >= 2
        assert np.allclose(piece[:, 2], piece[:, 0] ** 2 + piece[:, 1] ** 2, rtol=0, atol=1e-9)
        assert np.all(piece >= B[:, 0] - 1e-9) and np.all(piece <= B[:, 1] + 1e-9)


def test_the_bowls_mesh_reaches_the_box_top_and_cuts_at_its_sides():
    box = [(-1.0, 1.0), (-1.0, 1.0), (0.0, 4.0)]  # the rings above z = 1 leave the box through its sides
    mesh = bowl_mesh(box, rings=4, spokes=8)
    top = max(piece[:, 2].max() for piece in mesh)
    assert top == pytest.approx(2.0, abs=1e-9)  # the highest point in the box: a corner (1, 1, 2)
    ends = np.vstack([piece[[0, -1]] for piece in mesh])
    at_side = np.isclose(np.abs(ends[:, :2]).max(axis=1), 1.0)
    assert at_side.sum() >= 8


def _check_section(S, w, b, box):
    B = np.asarray(box, dtype=float)
    for piece in S:
        assert len(piece) >= 2
        assert np.allclose(piece[:, 2], piece[:, 0] ** 2 + piece[:, 1] ** 2, rtol=0, atol=1e-9)  # on the bowl
        assert np.all(np.abs(piece @ w + b) <= 1e-9 * (np.abs(w) @ np.abs(B).max(axis=1) + abs(b)))  # on the plane
        assert np.all(piece >= B[:, 0] - 1e-9) and np.all(piece <= B[:, 1] + 1e-9)  # in the box


def test_hand_worked_sections_of_the_bowl():
    box = [(-2.0, 2.0), (-2.0, 2.0), (0.0, 5.0)]
    (ring,) = bowl_section([0, 0, -1], 1.0, box)  # z = 1: the unit circle at height 1
    assert np.allclose(np.hypot(ring[:, 0], ring[:, 1]), 1.0) and np.allclose(ring[:, 2], 1.0)
    assert np.allclose(ring[0], ring[-1])  # closed: the whole circle is in the box
    # x1 = 1/2: the parabola z = 1/4 + x2^2, cut by the box's sides x2 = -2 and 2 (at z = 4.25, under its top)
    (line,) = bowl_section([1, 0, 0], -0.5, box)
    assert np.allclose(line[:, 0], 0.5) and np.allclose(line[:, 2], 0.25 + line[:, 1] ** 2)
    assert np.allclose(sorted([line[0, 1], line[-1, 1]]), [-2.0, 2.0])
    (line,) = bowl_section([1, 0, 0], -0.5, [(-3.0, 3.0), (-3.0, 3.0), (0.0, 5.0)])  # now cut by the top, z = 5
    assert np.allclose(sorted([line[0, 1], line[-1, 1]]), [-np.sqrt(4.75), np.sqrt(4.75)])
    assert bowl_section([0, 0, -1], -1.0, box) == []  # z = -1: under the bowl
    assert bowl_section([0, 0, 0], 1.0, box) == []
    # z = 9 over a box whose top is z = 5: a circle of radius 3 about the origin, entirely outside the box
    assert bowl_section([0, 0, -1], 9.0, box) == []
    # a circle that leaves the box through its sides: pieces that end on the faces x1 = +-2 or x2 = +-2
    pieces = bowl_section([0, 0, -1], 6.25, [(-2.0, 2.0), (-2.0, 2.0), (0.0, 9.0)])
    ends = np.vstack([p[[0, -1]] for p in pieces])
    assert len(pieces) == 4 and np.allclose(np.abs(ends[:, :2]).max(axis=1), 2.0)


def test_every_section_of_a_run_that_finds_no_separating_plane_is_on_the_bowl_the_plane_and_in_the_box():
    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    X, y = np.vstack([X, [[3.0, 3.0]]]), np.append(y, 1.0)
    Z = kernels.lift(X)
    run = fit_perceptron(Z, y, max_epochs=8)
    box = view_box(Z)
    # the bowl inside the box, on a fine grid: the plane meets it there when the score changes sign on it
    g = np.meshgrid(np.linspace(*box[0], 400), np.linspace(*box[1], 400))
    bowl = np.column_stack([g[0].ravel(), g[1].ravel(), g[0].ravel() ** 2 + g[1].ravel() ** 2])
    bowl = bowl[(bowl[:, 2] >= box[2, 0]) & (bowl[:, 2] <= box[2, 1])]
    drawn = 0
    for w, b in zip(run.history.w, run.history.b, strict=True):
        S = bowl_section(w, b, box)
        _check_section(S, w, b, box)
        f = bowl @ w + b
        assert bool(S) == bool(np.any(w) and f.min() < 0 < f.max())
        drawn += bool(S)
        c = kernels.circle_from_plane(w, b) if np.any(w) else None
        if c is not None and c.kind == "circle" and S:  # the section is the lifted boundary circle
            P = np.vstack(S)[:, :2]
            assert np.allclose(np.linalg.norm(P - c.center, axis=1), c.radius)
    assert drawn == 70  # of 100 states; the others miss the bowl inside the box


@pytest.mark.parametrize("extra", [None, [3.0, 3.0]])
def test_the_boundary_in_the_view_is_the_kernel_panels_circle_cut_to_the_view(extra):
    """Against `plotting.boundary_points` (the kernel's data panel: a dense arc, which matplotlib clips): the same
    states have a boundary in the view, every point drawn is on the curve and in the view, and every point of the
    kernel's arc inside the view lies on the pieces (within one piece's step)."""
    from perceptron_lib.draw import plotting
    from perceptron_lib.player.panels.data import DataPanel

    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    if extra is not None:
        X, y = np.vstack([X, [extra]]), np.append(y, 1.0)
    Z = kernels.lift(X)
    run = fit_perceptron(Z, y, max_epochs=8)
    xlim, ylim = DataPanel(mode="lifted").view_for(run, X)
    lo, hi = np.array([xlim[0], ylim[0]]), np.array([xlim[1], ylim[1]])
    for w, b in zip(run.history.w, run.history.b, strict=True):
        pieces = boundary_in_view(w, b, xlim, ylim)
        theirs = plotting.boundary_points(w, b, xlim, ylim)
        theirs = theirs[np.all((theirs >= lo) & (theirs <= hi), axis=1)]
        assert bool(pieces) == (len(theirs) > 0)
        for P in pieces:
            assert np.all(P >= lo - 1e-9) and np.all(P <= hi + 1e-9)
            score = w[2] * (P**2).sum(axis=1) + P @ w[:2] + b
            assert np.all(np.abs(score) <= 1e-9 * (np.abs(w).sum() * 10 + abs(b)))
        if pieces:
            mine = np.vstack(pieces)
            step = max(np.linalg.norm(np.diff(P, axis=0), axis=1).max() for P in pieces)
            gap = np.linalg.norm(theirs[:, None, :] - mine[None, :, :], axis=2).min(axis=1)
            assert gap.max() <= step


@pytest.mark.parametrize("extra", [None, [3.0, 3.0], [0.0, 0.0]])
def test_the_boundarys_note_is_the_kernel_data_panels(extra):
    """`boundary_note` says what the kernel's `DataPanel` says under its title at every step of lesson 05's run and
    of two variants (a far point, a point at the centre): no circle, outside the view, partly outside, or nothing."""
    from matplotlib.figure import Figure

    from perceptron_lib.player.panels.data import DataPanel

    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    if extra is not None:
        X, y = np.vstack([X, [extra]]), np.append(y, 1.0)
    Z = kernels.lift(X)
    run = fit_perceptron(Z, y, max_epochs=8)
    panel = DataPanel()
    with style.context("notebook"):
        panel.draw(Figure().add_subplot(), run, Z, y)
        xlim, ylim = panel.ax.get_xlim(), panel.ax.get_ylim()
        seen = set()
        for k, (w, b) in enumerate(zip(run.history.w, run.history.b, strict=True)):
            panel.update(k)
            note = boundary_note(w, b, xlim, ylim, start=k == 0)
            assert note == panel.scale_text.get_text(), k
            seen.add(note.split(":")[0])
    assert {"w = 0", "no circle"} <= seen


# ---------------------------------------------------------------------------------------------- the projection
def test_hand_worked_views():
    box = [(-1.0, 1.0), (-1.0, 1.0), (0.0, 2.0)]
    size = 400.0
    width, height = picture_size(size)
    scale = size / np.linalg.norm(ASPECT)
    # from above, azimuth -90: x1 to the right, x2 up the screen, z toward the viewer
    top = project([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 2.0]], box=box, elev=90, azim=-90, size=size)
    assert np.allclose(top[0], [width / 2 + scale * 0.5, size / 2, 0.0])
    assert np.allclose(top[1], [width / 2, size / 2 - scale * 0.5, 0.0])
    assert np.allclose(top[2, :2], [width / 2, size / 2]) and top[2, 2] == pytest.approx(0.375)
    # from the side (elevation 0), azimuth -90: x1 to the right, z up, x2 away from the viewer
    side = project([[0.0, 0.0, 2.0], [0.0, 1.0, 1.0]], box=box, elev=0, azim=-90, size=size)
    assert np.allclose(side[0], [width / 2, size / 2 - scale * 0.375, 0.0])
    assert np.allclose(side[1], [width / 2, size / 2, -0.5])


@settings(max_examples=200, deadline=None)
@given(elev=st.floats(-90, 90), azim=st.floats(-180, 180))
def test_the_turn_is_orthonormal_and_the_box_fits_the_picture_at_every_angle(elev, azim):
    R = view_axes(elev, azim)
    assert np.allclose(R @ R.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(R) == pytest.approx(1.0)  # a turn, not a mirror: right x up = toward
    box = [(-2.0, 3.0), (-1.0, 1.0), (0.0, 9.0)]
    width, height = picture_size(300)
    P = project(_corners(box), box=box, elev=elev, azim=azim, size=300)
    assert np.all(P[:, 0] >= -1e-9) and np.all(P[:, 0] <= width + 1e-9)
    assert np.all(P[:, 1] >= -1e-9) and np.all(P[:, 1] <= height + 1e-9)


def test_the_picture_is_as_small_as_it_can_be():
    """Seen from the side along a diagonal the box is as wide as the picture; along the longest diagonal, as tall."""
    box = [(0.0, 1.0), (0.0, 1.0), (0.0, 1.0)]
    size = 300
    width, height = picture_size(size)
    wide = project(_corners(box), box=box, elev=0, azim=45, size=size)
    assert np.ptp(wide[:, 0]) == pytest.approx(width)
    a = np.asarray(ASPECT)
    elev = np.degrees(np.arctan2(np.hypot(a[0], a[1]), a[2]))  # the diagonal of the shaped box lies in the screen
    tall = project(_corners(box), box=box, elev=elev, azim=45, size=size)
    assert np.ptp(tall[:, 1]) == pytest.approx(height)


# ---------------------------------------------------------------------------------------------- LiftedPanel.front
def _lesson05():
    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    Z = kernels.lift(X)
    return fit_perceptron(Z, y), Z, y


def test_the_panels_spec_holds_the_core_numbers_of_every_step():
    run, Z, y = _lesson05()
    spec = LiftedPanel().front(run, Z, y, style=style.get("notebook"))
    assert json.loads(json.dumps(spec)) == spec
    K = len(run.history) - 1
    assert spec["kind"] == "lifted" and spec["K"] == K == 24
    assert spec["view"] == {"elev": 24.0, "azim": -58.0} and spec["aspect"] == list(ASPECT)
    assert spec["size_px"] == 340 and LiftedPanel().front(run, Z, y, style=style.get("lecture"))["size_px"] == 340
    assert np.array_equal(spec["points"], Z)
    box = view_box(Z)
    assert np.array_equal(spec["box"], box)
    assert len(spec["planes"]) == len(spec["alt"]) == K + 1
    for k in range(K + 1):
        assert np.array_equal(np.reshape(spec["planes"][k], (-1, 3)),
                              plane_polygon(run.history.w[k], run.history.b[k], box))
    assert spec["planes"][0] == [] and spec["sections"][0] == []  # w = 0
    for k in range(K + 1):
        want = bowl_section(run.history.w[k], run.history.b[k], box)
        assert len(spec["sections"][k]) == len(want)
        for got, piece in zip(spec["sections"][k], want, strict=True):
            assert np.allclose(got, piece, atol=5e-7)
    assert len(spec["bowl"]) == len(bowl_mesh(box))
    for got, want in zip(spec["bowl"], bowl_mesh(box), strict=True):
        assert np.allclose(got, want, atol=5e-7)
    # the same panel from the two plane columns: the lift is made for it
    assert LiftedPanel().front(run, Z[:, :2], y, style=style.get("notebook"))["points"] == spec["points"]


def test_the_panels_words_say_what_the_plane_does_at_each_step():
    run, Z, y = _lesson05()
    alt = LiftedPanel().front(run, Z, y, style=style.get("lecture"))["alt"]
    wrong = mistakes_at_each_step(run, Z, y)
    assert alt[0] == "The 60 lifted points on the bowl z = x₁² + x₂²; w = 0 at the start: no plane."
    assert "it misses the bowl: every point gets −1" in alt[1]  # the lesson: after update 1 the plane cuts nothing
    c = kernels.circle_from_plane(run.history.w[24], run.history.b[24])
    assert f"circle of radius {c.radius:.2f}" in alt[24] and alt[24].endswith("mistakes now: 0 of 60.")
    for k, sentence in enumerate(alt):
        assert sentence.endswith(f"{len(wrong[k])} of 60.") or k == 0


def test_the_panel_refuses_a_run_that_is_not_on_lifted_points():
    X, y = data.circles(20, r_inner=1.0, r_outer=2.0, seed=0)
    with pytest.raises(ValueError, match="3 lifted features"):
        LiftedPanel().front(fit_perceptron(X, y, max_epochs=2), X, y, style=style.get("notebook"))
    with pytest.raises(ValueError, match="one label per point"):
        Z = kernels.lift(X)
        LiftedPanel().front(fit_perceptron(Z, y), Z, y[:-1], style=style.get("notebook"))


def test_boundary_in_view_asked_again_answers_the_same_in_new_arrays():
    """`boundary_in_view` remembers its last answer (a data panel's note asks the same question right after): the
    same question gives equal pieces in new arrays, so a caller that changes its answer changes nothing else."""
    from perceptron_lib.core.lift_view import boundary_in_view

    w, b, view = np.array([0.3, -0.2, -1.0]), 1.5, ((-2.0, 2.0), (-1.0, 1.0))
    first = boundary_in_view(w, b, *view)
    kept = [p.copy() for p in first]
    first[0][:] = 99.0
    again = boundary_in_view(w, b, *view)
    assert all(np.array_equal(p, q) for p, q in zip(again, kept, strict=True)) and again[0] is not first[0]
    other = boundary_in_view(w, -b, *view)  # another question, then the first again: each its own answer
    assert not any(np.array_equal(p, q) for p, q in zip(other, kept, strict=False))
    assert all(np.array_equal(p, q) for p, q in zip(boundary_in_view(w, b, *view), kept, strict=True))
    assert boundary_in_view(w, b, *view, samples=8)[0].shape != kept[0].shape  # samples is part of the question
