"""Lesson 05's lifted view as numbers: the view's box, the plane of a state cut to that box, the bowl's wire
mesh, and where a plane meets the bowl (the lifted boundary).

The lift is phi(x1, x2) = (x1, x2, x1^2 + x2^2): every lifted point lies on the bowl z = x1^2 + x2^2, and a
state (w, b) of a run on lifted points is the plane <w, p> + b = 0. The browser's lifted panel
(``perceptron_lib/player/front/lifted.js``) draws what these functions compute: Python sends the box, the
mesh and each step's plane polygon once, and the browser projects them at the view angles the student turns
to, by the formula of `lift_projection.project` (ported line for line, and held equal to it by a Chromium test).

* `view_box`: the box around the lifted points (padded as the kernel's 3-D view pads them).
* `plane_polygon`: the convex polygon where a plane meets the box (none when it misses it).
* `bowl_mesh`: rings and spokes of the bowl, cut to the box; `bowl_section`: where a plane meets the bowl (the
  lifted boundary: a circle or a line), cut to the box; `boundary_in_view`: that boundary in the plane of the
  data, cut to a view (what a data panel of lifted points draws), and `boundary_note`: the data panel's note on it.
* `checked_box`: a box as an array, refused with a clear message when it is not one.

The projection that turns the box on a screen is `perceptron_lib.core.lift_projection`.

Pure: no widgets, no drawing.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .kernels import circle_from_plane

__all__ = ["view_box", "lifted_points", "plane_polygon", "bowl_mesh", "bowl_section", "boundary_in_view",
           "boundary_note", "checked_box"]


def checked_box(box) -> np.ndarray:
    """The box (three (low, high) pairs, for x1, x2 and z) as a (3, 2) array of floats; anything else is refused."""
    B = np.asarray(box, dtype=float)
    if B.shape != (3, 2) or not np.all(np.isfinite(B)) or np.any(B[:, 1] <= B[:, 0]):
        raise ValueError(f"box must be three (low, high) pairs with low < high, such as [(-1, 1), (-1, 1), (0, 2)]; "
                         f"got {np.asarray(box).tolist()!r}.")
    return B


def lifted_points(X) -> np.ndarray:
    """The lifted points (x1, x2, z) of X: its three columns when it has them, else (x1, x2, x1^2 + x2^2).

    Examples
    --------
    >>> lifted_points([[1.0, 2.0]]).tolist()
    [[1.0, 2.0, 5.0]]
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"X must have shape (n, 2) (points in the plane) or (n, 3) (lifted points); got {X.shape}.")
    z = X[:, 2] if X.shape[1] >= 3 else X[:, 0] ** 2 + X[:, 1] ** 2
    return np.column_stack([X[:, 0], X[:, 1], z])


def view_box(Z, *, pad=0.08) -> np.ndarray:
    """The box (rows (low, high) for x1, x2, z) around the lifted points Z, each side padded by `pad` of its length.

    A side of length 0 is padded by `pad` itself; no points give the bowl's bottom, [-1, 1]^2 x [0, 2]. This is the
    box the kernel's 3-D view (`draw.surfaces.draw_lifted`) fixes its axes to.

    Examples
    --------
    >>> view_box([[0.0, 0.0, 0.0], [1.0, 2.0, 5.0]], pad=0.1).tolist()
    [[-0.1, 1.1], [-0.2, 2.2], [-0.5, 5.5]]
    """
    Z = np.asarray(Z, dtype=float).reshape(-1, 3)
    if len(Z) == 0:
        return np.array([[-1.0, 1.0], [-1.0, 1.0], [0.0, 2.0]])
    lo, hi = Z.min(axis=0), Z.max(axis=0)
    room = pad * np.where(hi > lo, hi - lo, 1.0)
    return np.column_stack([lo - room, hi + room])


def _clip_halfplane(poly, dep, bound, keep_below):
    """The part of the convex polygon `poly` (rows (u, v)) where its affine function, valued `dep` at the vertices, is
    <= bound (or >= bound); vertices made on the cut get the value bound exactly. Returns (vertices, values)."""
    out, val = [], []
    inside = dep <= bound if keep_below else dep >= bound
    n = len(poly)
    for a in range(n):
        b = (a + 1) % n
        if inside[a]:
            out.append(poly[a])
            val.append(dep[a])
        if inside[a] != inside[b]:
            t = (bound - dep[a]) / (dep[b] - dep[a])
            out.append(poly[a] + t * (poly[b] - poly[a]))
            val.append(bound)
    return np.array(out).reshape(-1, 2), np.array(val, dtype=float)


def plane_polygon(w, b, box) -> np.ndarray:
    """The polygon where the plane <w, p> + b = 0 meets the box, its vertices in order around it.

    Parameters
    ----------
    w : array of 3 numbers; b : number
        The plane (a state of a run on lifted points).
    box : three (low, high) pairs
        For x1, x2 and z (`view_box`).

    Returns
    -------
    ndarray of shape (m, 3)
        m = 3..6 vertices of a convex polygon, each on the plane and on a face of the box; m = 0 when the plane
        misses the box or only touches it (at a corner or along an edge: a polygon of area under 1e-12 of the box's
        longest side squared counts as none), and for w = 0. A plane along a face of the box gives that face.

    How: the coordinate with the largest |w_i| is solved for, so the plane is the graph of an affine function over
    the box's face of the other two; that rectangle, cut where the function leaves the box's range, is the polygon
    seen along that axis (a rectangle cut by two half-planes stays convex and keeps its order).

    Examples
    --------
    >>> plane_polygon([0, 0, -1], 1.0, [(-1, 1), (-1, 1), (0, 2)]).tolist()  # z = 1: a square
    [[-1.0, -1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, 1.0], [-1.0, 1.0, 1.0]]
    >>> len(plane_polygon([0, 0, -1], 3.0, [(-1, 1), (-1, 1), (0, 2)]))  # z = 3: above the box
    0
    """
    w = np.asarray(w, dtype=float).ravel()
    if w.shape != (3,):
        raise ValueError(f"plane_polygon needs w of length 3 (a plane over lifted points); got length {w.shape[0]}.")
    B = checked_box(box)
    b = float(b)
    if not np.any(w) or not np.all(np.isfinite(w)) or not np.isfinite(b):
        return np.empty((0, 3))
    d = int(np.argmax(np.abs(w)))  # solved for: p_d = -(b + w_u p_u + w_v p_v) / w_d
    u, v = [i for i in range(3) if i != d]
    coef, const = -np.array([w[u], w[v]]) / w[d], -b / w[d]
    (u0, u1), (v0, v1) = B[u], B[v]
    poly = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]])
    dep = poly @ coef + const
    # within rounding of a face is on it: a plane along a face gives the face, whichever way b / w_d was rounded
    near = 1e-12 * (B[d, 1] - B[d, 0])
    dep = np.where(np.abs(dep - B[d, 0]) <= near, B[d, 0], np.where(np.abs(dep - B[d, 1]) <= near, B[d, 1], dep))
    for bound, below in ((B[d, 1], True), (B[d, 0], False)):
        if len(poly) == 0:
            break
        poly, dep = _clip_halfplane(poly, dep, bound, below)
    if len(poly) < 3:
        return np.empty((0, 3))
    P = np.empty((len(poly), 3))
    P[:, u], P[:, v], P[:, d] = poly[:, 0], poly[:, 1], np.clip(dep, *B[d])
    # a cut through a corner makes a vertex twice; a plane along an edge or a face's corner leaves no area
    tol = 1e-12 * float(np.max(B[:, 1] - B[:, 0]))
    keep = np.linalg.norm(P - np.roll(P, 1, axis=0), axis=1) > tol
    P = P[keep]
    if len(P) < 3:
        return np.empty((0, 3))
    e1, e2 = P[1:-1] - P[0], P[2:] - P[0]
    if np.max(np.linalg.norm(np.cross(e1, e2), axis=1)) <= tol * float(np.max(B[:, 1] - B[:, 0])):
        return np.empty((0, 3))
    return P


def _inside(P, B) -> np.ndarray:
    return np.all((P >= B[:, 0]) & (P <= B[:, 1]), axis=-1)


def _point_inside(p, bounds) -> bool:
    """`_inside` of one point ``(x, y, z)`` (numpy scalars), with `bounds` the box as ((lo, hi), ...) floats."""
    (x, y, z), ((x0, x1), (y0, y1), (z0, z1)) = p, bounds
    return x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1


def _edge_of_box(curve, t_in, t_out, B) -> float:
    """The parameter where `curve` leaves the box between t_in (inside) and t_out (outside): bisection, the inside
    end kept, so the point is in the box and within about 1e-15 of the curve's parameter range of its face.

    Each step evaluates the curve at one numpy scalar (the curve then gives a point's three coordinates, `_rows`):
    the same ufuncs on the same number as on a one-element array, so the same bits, without an array per step."""
    bounds = B.tolist()
    t_in, t_out = np.float64(t_in), np.float64(t_out)
    for _ in range(60):
        mid = (t_in + t_out) / 2
        if mid == t_in or mid == t_out:  # neighbouring floats: every step after this one would change nothing
            break
        if _point_inside(curve(mid), bounds):
            t_in = mid
        else:
            t_out = mid
    return t_in


def _pieces_in_box(curve, t, B) -> list:
    """The pieces of the curve ``curve(t)`` (rows (x, y, z)) inside the box, sampled at the parameters `t`; where it
    crosses a face between two samples the piece ends at the crossing, found on the curve itself."""
    inside = _inside(curve(t), B)
    pieces, cur = [], []
    for j in range(len(t)):
        if inside[j]:
            if not cur and j > 0:  # comes in between t[j - 1] and t[j]
                cur.append(_edge_of_box(curve, t[j], t[j - 1], B))
            cur.append(t[j])
        elif cur:  # goes out between t[j - 1] and t[j]
            cur.append(_edge_of_box(curve, t[j - 1], t[j], B))
            pieces.append(cur)
            cur = []
    if cur:
        pieces.append(cur)
    return [curve(np.array(piece)) for piece in pieces if len(piece) >= 2]


def _rows(x, y, z):
    """Points as rows (x, y, z) of an array, from the coordinates at an array of parameters; at one parameter (a
    numpy scalar) the point as a tuple of its three coordinates."""
    return (x, y, z) if isinstance(x, np.generic) else np.column_stack([x, y, z])


def _ring(a, *, r):
    """The bowl's circle of radius r at the angles a."""
    return _rows(r * np.cos(a), r * np.sin(a), np.full(np.shape(a), r * r))


def _spoke(s, *, a):
    """The bowl's line up its side at the angle a, at the radii s."""
    return _rows(s * np.cos(a), s * np.sin(a), s * s)


def bowl_mesh(box, *, rings=6, spokes=24, samples=96) -> list:
    """The bowl z = x1^2 + x2^2 as a wire mesh cut to the box: a list of polylines (arrays of rows (x1, x2, z)).

    `rings` circles of equally spaced radii between the radius of the box's floor (or 0) and that of its top, and
    `spokes` lines from the bottom of the bowl up its side at equally spaced angles; each sampled at `samples` points
    (spokes at a quarter as many), and cut where it leaves the box (at the crossing on the bowl, not on a chord).
    Every point is on the bowl and in the box.

    Examples
    --------
    >>> mesh = bowl_mesh([(-1, 1), (-1, 1), (0, 2)], rings=2, spokes=4)
    >>> all(np.allclose(p[:, 2], p[:, 0] ** 2 + p[:, 1] ** 2) for p in mesh)
    True
    """
    B = checked_box(box)
    if B[2, 1] <= 0:
        return []
    r_lo, r_hi = np.sqrt(max(B[2, 0], 0.0)), np.sqrt(B[2, 1])
    mesh = []
    for r in np.linspace(r_lo, r_hi, rings + 2)[1:-1]:  # strictly between the floor and the top
        mesh += _pieces_in_box(partial(_ring, r=r), np.linspace(0.0, 2 * np.pi, samples + 1), B)
    for a in np.linspace(0.0, 2 * np.pi, spokes, endpoint=False):
        mesh += _pieces_in_box(partial(_spoke, a=a), np.linspace(r_lo, r_hi, max(samples // 4, 2)), B)
    return mesh


def _on_circle(t, *, c, r):
    """The lifted points of the circle of centre c and radius r at the angles t."""
    x, y = c[0] + r * np.cos(t), c[1] + r * np.sin(t)
    return _rows(x, y, x * x + y * y)


def _on_line(t, *, p0, d):
    """The lifted points of the line p0 + t d."""
    x, y = p0[0] + t * d[0], p0[1] + t * d[1]
    return _rows(x, y, x * x + y * y)


def bowl_section(w, b, box, *, samples=64) -> list:
    """Where the plane <w, p> + b = 0 meets the bowl, inside the box: a list of polylines (rows (x1, x2, z)).

    Over the plane of the data this is the boundary of the lifted perceptron (`kernels.circle_from_plane`): a
    circle when w3 != 0, a line when w3 = 0, nothing when the plane misses the bowl (or touches it at one point).
    A circle is sampled at `samples` angles over the arc that can reach the box (all of it when its centre is
    above the box's floor), a line at `samples` points across the box; each is cut where it leaves the box, at
    the crossing on the curve. Every point is on the bowl, on the plane (up to rounding) and in the box.

    Examples
    --------
    >>> (ring,) = bowl_section([0, 0, -1], 1.0, [(-2, 2), (-2, 2), (0, 5)], samples=8)
    >>> np.allclose(ring[:, 2], 1.0), np.allclose(np.hypot(ring[:, 0], ring[:, 1]), 1.0)
    (True, True)
    """
    B = checked_box(box)
    w = np.asarray(w, dtype=float).ravel()
    if w.shape != (3,):
        raise ValueError(f"bowl_section needs w of length 3 (a plane over lifted points); got length {w.shape[0]}.")
    if not np.any(w) or not np.all(np.isfinite(w)) or not np.isfinite(b):
        return []
    curve = circle_from_plane(w, b)
    if curve.kind == "circle":
        c, r = curve.center, curve.radius
        corners = np.array([[B[0, i], B[1, j]] for i in (0, 1) for j in (0, 1)])
        if np.all((c >= B[:2, 0]) & (c <= B[:2, 1])):
            t = np.linspace(0.0, 2 * np.pi, samples + 1)
        else:  # seen from c the box lies within an angle < pi: that arc only (a large circle stays smooth)
            mid = np.arctan2(*(corners.mean(axis=0) - c)[::-1])
            turn = (np.arctan2(corners[:, 1] - c[1], corners[:, 0] - c[0]) - mid + np.pi) % (2 * np.pi) - np.pi
            t = np.linspace(mid + turn.min(), mid + turn.max(), samples + 1)
        return _pieces_in_box(partial(_on_circle, c=c, r=r), t, B)
    if curve.kind == "line":
        n = w[:2] / np.linalg.norm(w[:2])
        p0 = -float(b) / np.linalg.norm(w[:2]) * n  # the line's point nearest the origin
        d = np.array([-n[1], n[0]])
        centre = B[:2].mean(axis=1)
        reach = float(np.linalg.norm(B[:2, 1] - B[:2, 0]))
        along = float((centre - p0) @ d)
        t = np.linspace(along - reach, along + reach, samples + 1)
        return _pieces_in_box(partial(_on_line, p0=p0, d=d), t, B)
    return []


def boundary_in_view(w, b, xlim, ylim, *, samples=96) -> list:
    """The boundary of a lifted state in the plane of the data, inside the view: polylines of rows (x1, x2).

    The points x with w1 x1 + w2 x2 + w3 (x1^2 + x2^2) + b = 0 (a circle, a line when w3 = 0, or none), cut to
    the rectangle xlim x ylim: `bowl_section` seen from above, in a box as high as the bowl over the rectangle. The
    data panel of a player on lifted points draws these (its boundary and the boundary before).

    Examples
    --------
    >>> (circle,) = boundary_in_view([0, 0, -1], 1.0, (-2, 2), (-2, 2), samples=8)
    >>> np.allclose(np.hypot(circle[:, 0], circle[:, 1]), 1.0)
    True
    """
    key = tuple(np.asarray(v, dtype=float).tobytes() for v in (w, b, xlim, ylim)) + (samples,)
    last = _LAST_IN_VIEW[0]  # (key, pieces), read once: another thread may replace it
    if last is None or last[0] != key:
        corners = np.array([[x, y] for x in xlim for y in ylim], dtype=float)
        top = float(np.max(np.sum(corners**2, axis=1)))
        box = [sorted(map(float, xlim)), sorted(map(float, ylim)), (-1.0, top * (1 + 1e-9) + 1.0)]
        last = _LAST_IN_VIEW[0] = (key, [piece[:, :2] for piece in bowl_section(w, b, box, samples=samples)])
    return [piece.copy() for piece in last[1]]


#: The last `boundary_in_view` answer, under the exact bytes of its question (the same question gets the same
#: answer, in new arrays): a data panel's note asks about the boundary just drawn (`boundary_note` after
#: `boundary_in_view`, at every step of a lifted run).
_LAST_IN_VIEW: list = [None]


def boundary_note(w, b, xlim, ylim, *, start=False) -> str:
    """The data panel's note on a lifted state's boundary in the view (`DataPanel`'s words), or "".

    "w = 0: no boundary" (" yet" at the `start`), "no circle: every point gets +1" (or −1: the plane misses the
    bowl, so every point of the plane has the sign of w3), "boundary outside the view", "boundary partly outside
    the view" (a circle the view cuts), or "" (the whole circle, or a line across the view).

    Examples
    --------
    >>> boundary_note([0, 0, -1], 1.0, (-2, 2), (-2, 2)), boundary_note([0, 0, 1], 1.0, (-2, 2), (-2, 2))
    ('', 'no circle: every point gets +1')
    >>> boundary_note([0, 0, -1], 9.0, (-2, 2), (-2, 2)), boundary_note([0, 0, -1], 4.0, (-1, 3), (-1, 1))
    ('boundary outside the view', 'boundary partly outside the view')
    """
    w = np.asarray(w, dtype=float)
    if not np.any(w):
        return "w = 0: no boundary" + (" yet" if start else "")
    try:
        curve = circle_from_plane(w, b)
    except ValueError:  # w3 so small that the curve is a line to machine precision (as DataPanel reads it)
        curve = None
    if curve is not None and curve.kind == "empty":
        return f"no circle: every point gets {'+1' if w[2] > 0 else '−1'}"
    if not boundary_in_view(w, b, xlim, ylim):
        return "boundary outside the view"
    if curve is not None and curve.kind == "circle":
        (x0, x1), (y0, y1), (cx, cy), r = sorted(xlim), sorted(ylim), curve.center, curve.radius
        if not (x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1):
            return "boundary partly outside the view"
    return ""

