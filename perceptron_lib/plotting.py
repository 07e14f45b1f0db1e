"""Drawing primitives for the course: each draws *given* numbers onto a *given* Axes.

Nothing here runs or re-runs the algorithm: the caller passes w, b, points, masks or loss
values (usually read from ``run.history``). Every ``draw_*`` function returns the artists it
made (a matplotlib artist or a small record of them) and has an ``update_*`` partner, or
methods on the record, that move those artists with ``set_data``-style calls, so a player can
redraw a step without rebuilding the figure.

Conventions
-----------
* Object-oriented matplotlib only; no pyplot, no global state.
* Sizes, widths and colours come from a `perceptron_lib.style.Style` (``style=None`` is the
  current preset); extra keyword arguments go to the underlying artist.
* Lines, arrows and markers that move (boundary, w, ring, mistake crosses, cursors) are added
  with ``ax.add_artist``, so they never grow the data limits: the view is set by the data
  (points, curves, surfaces) and stays put while the state changes.
* A ``w`` of length 3 given to `draw_boundary` is read as a plane over the lift
  (x1, x2, x1^2 + x2^2): the boundary drawn in the plane is then the circle (or line)
  ``w3*(x1^2 + x2^2) + w1*x1 + w2*x2 + b = 0``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch

from . import style as _style

__all__ = [
    "PointsArtists",
    "ArrowArtist",
    "CurveArtists",
    "ContourArtists",
    "SurfaceArtists",
    "LiftedArtists",
    "draw_points",
    "boundary_segment",
    "boundary_points",
    "draw_boundary",
    "update_boundary",
    "w_arrow_anchor",
    "draw_w_arrow",
    "update_w_arrow",
    "draw_arrow",
    "draw_update_arrow",
    "update_arrow",
    "ring_point",
    "update_ring",
    "mark_mistakes",
    "update_mistakes",
    "draw_loss_curve",
    "update_cursor",
    "draw_contours",
    "draw_surface",
    "lifted_z",
    "plane_polygon",
    "draw_lifted",
    "update_plane",
]


# --------------------------------------------------------------------------- helpers


def _vec(w, name="w") -> np.ndarray:
    a = np.asarray(w, dtype=float).ravel()
    if a.size == 0:
        raise ValueError(f"{name} is empty.")
    return a


def _limits(ax, xlim=None, ylim=None):
    xl = tuple(sorted(ax.get_xlim() if xlim is None else xlim))
    yl = tuple(sorted(ax.get_ylim() if ylim is None else ylim))
    return xl, yl


def _marker_size(s_area: float) -> float:
    """Line2D markersize (points, a diameter) matching a scatter size s (points squared)."""
    return float(np.sqrt(s_area))


def _empty_line_data(line: Line2D) -> None:
    line.set_data(np.empty(0), np.empty(0))


# --------------------------------------------------------------------------- points


@dataclass(eq=False)
class PointsArtists:
    """The two class scatters and their legend (None if ``legend=False``)."""

    pos: object
    neg: object
    legend: object = None


def draw_points(ax, X, y, *, style=None, legend=True, legend_loc="best", **kwargs) -> PointsArtists:
    """Scatter the rows of X (first two columns) by class: colour AND marker shape differ.

    The legend reads ``"y = +1"`` / ``"y = -1"``. Extra keyword arguments go to both scatters.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y).ravel()
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"draw_points needs X of shape (n, 2); got {X.shape}.")
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels.")
    out = {}
    for lab in (1, -1):
        m = y > 0 if lab > 0 else y <= 0
        kw = _style.class_style(lab, style)
        kw.update(kwargs)
        kw.setdefault("zorder", 2)
        out[lab] = ax.scatter(X[m, 0], X[m, 1], **kw)
    leg = None
    if legend:
        s = _style.get(style)
        leg = ax.legend(handles=[out[1], out[-1]], loc=legend_loc, fontsize=s.legend_size, framealpha=0.9)
    return PointsArtists(out[1], out[-1], leg)


# --------------------------------------------------------------------------- boundary


def boundary_segment(w, b, xlim, ylim):
    """The part of the line <w,x> + b = 0 inside the box xlim x ylim, as a (2, 2) array.

    Returns None when w = 0 (no boundary) or the line misses the box. Vertical and
    horizontal lines are handled (the line is clipped in parametric form).
    """
    w = _vec(w)
    if w.shape != (2,):
        raise ValueError(f"boundary_segment needs w of length 2; got {w.shape[0]}.")
    b = float(b)
    nn = float(w @ w)
    if not np.isfinite(nn) or nn == 0.0 or not np.isfinite(b):
        return None
    p0 = -b * w / nn  # the point of the line closest to the origin
    d = np.array([-w[1], w[0]]) / np.sqrt(nn)  # unit direction along the line
    t0, t1 = -np.inf, np.inf
    for axis, (lo, hi) in enumerate((tuple(sorted(xlim)), tuple(sorted(ylim)))):
        if abs(d[axis]) < 1e-15:
            if not lo <= p0[axis] <= hi:
                return None
            continue
        ta, tb = (lo - p0[axis]) / d[axis], (hi - p0[axis]) / d[axis]
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
    if not t0 < t1:
        return None
    return np.array([p0 + t0 * d, p0 + t1 * d])


def _circle_points(w, b, xlim, ylim, n=400):
    """Points of w3*(x^2+y^2) + w1*x + w2*y + b = 0 that matter for the box (NaN-free)."""
    w1, w2, w3 = w
    span = max(xlim[1] - xlim[0], ylim[1] - ylim[0])
    scale = max(abs(w1), abs(w2), abs(b) / max(span, 1e-12), 1e-300)
    if abs(w3) * span <= 1e-12 * scale:  # no quadratic term: a straight line
        seg = boundary_segment((w1, w2), b, xlim, ylim)
        return np.empty((0, 2)) if seg is None else seg
    c = -np.array([w1, w2]) / (2 * w3)
    r2 = c @ c - b / w3
    if not np.isfinite(r2) or r2 <= 0:
        return np.empty((0, 2))
    r = np.sqrt(r2)
    corners = np.array([[xlim[i], ylim[j]] for i in (0, 1) for j in (0, 1)])
    near = np.hypot(c[0] - np.clip(c[0], *xlim), c[1] - np.clip(c[1], *ylim))  # 0 when c is in the box
    far = np.linalg.norm(corners - c, axis=1).max()
    if r < near or r > far:  # the circle misses the box, or encloses it
        return np.empty((0, 2))
    if near > 0:
        # seen from c, the box lies within an angle < pi: sample only that arc (keeps big circles smooth)
        ref = np.arctan2(*(np.mean(corners, axis=0) - c)[::-1])
        ang = np.arctan2(corners[:, 1] - c[1], corners[:, 0] - c[0])
        delta = (ang - ref + np.pi) % (2 * np.pi) - np.pi
        t = np.linspace(ref + delta.min(), ref + delta.max(), n)
    else:
        t = np.linspace(0.0, 2 * np.pi, n)
    return np.column_stack([c[0] + r * np.cos(t), c[1] + r * np.sin(t)])


def boundary_points(w, b, xlim, ylim) -> np.ndarray:
    """Vertices of the boundary inside the box: (2, 2) for a line, (m, 2) for a lifted circle, (0, 2) if none."""
    w = _vec(w)
    if w.shape[0] == 2:
        seg = boundary_segment(w, b, xlim, ylim)
        return np.empty((0, 2)) if seg is None else seg
    if w.shape[0] == 3:
        if not np.all(np.isfinite(w)) or not np.isfinite(b) or not np.any(w):
            return np.empty((0, 2))
        return _circle_points(w, float(b), tuple(sorted(xlim)), tuple(sorted(ylim)))
    raise ValueError(f"a boundary can be drawn for w of length 2 (a line) or 3 (lifted: a circle); got {w.shape[0]}.")


def draw_boundary(ax, w, b, *, style=None, xlim=None, ylim=None, **kwargs) -> Line2D:
    """Draw <w,x> + b = 0 clipped to the current view (or xlim/ylim); nothing is drawn for w = 0.

    Set the view (``ax.set_xlim``/``set_ylim``) first: the line is clipped to it and never
    changes the limits. Returns the Line2D; move it with `update_boundary`.
    """
    s = _style.get(style)
    props = dict(color=_style.BOUNDARY_COLOR, linewidth=s.line_width, zorder=3, solid_capstyle="butt",
                 label="_boundary")
    props.update(kwargs)
    line = Line2D([], [], **props)
    ax.add_artist(line)
    update_boundary(line, w, b, ax, xlim=xlim, ylim=ylim)
    return line


def update_boundary(line: Line2D, w, b, ax=None, *, xlim=None, ylim=None) -> Line2D:
    """Move a boundary line to the state (w, b), clipped to ax's view (or xlim/ylim)."""
    ax = line.axes if ax is None else ax
    xl, yl = _limits(ax, xlim, ylim)
    pts = boundary_points(w, b, xl, yl)
    line.set_data(pts[:, 0], pts[:, 1])
    return line


# --------------------------------------------------------------------------- arrows


@dataclass(eq=False)
class ArrowArtist:
    """An arrow from `start` to `end` (data coordinates) drawn by a FancyArrowPatch.

    `start` and `end` are the positions last given; the arrow is hidden when they coincide
    or are not finite.
    """

    patch: FancyArrowPatch
    start: np.ndarray = field(default_factory=lambda: np.zeros(2))
    end: np.ndarray = field(default_factory=lambda: np.zeros(2))
    head: float = 16.0  # largest head size (points); short arrows get a smaller head

    @property
    def delta(self) -> np.ndarray:
        return self.end - self.start

    def set(self, start, end) -> ArrowArtist:
        self.start = np.asarray(start, dtype=float).ravel()[:2].copy()
        self.end = np.asarray(end, dtype=float).ravel()[:2].copy()
        ok = bool(np.all(np.isfinite(self.start)) and np.all(np.isfinite(self.end)) and np.any(self.start != self.end))
        if ok:
            self.patch.set_positions(tuple(self.start), tuple(self.end))
            self.patch.set_mutation_scale(self._head_for_length())
        self.patch.set_visible(ok)
        return self

    def _head_for_length(self) -> float:
        """Head size: `head`, but at most 60% of the arrow's length on screen."""
        ax = self.patch.axes
        if ax is None:
            return self.head
        px = ax.transData.transform(np.array([self.start, self.end]))
        length_pt = float(np.hypot(*(px[1] - px[0]))) * 72.0 / ax.figure.dpi
        if not np.isfinite(length_pt):
            return self.head
        return max(2.0, min(self.head, 0.6 * length_pt))

    def hide(self) -> ArrowArtist:
        self.patch.set_visible(False)
        return self

    def get_visible(self) -> bool:
        return self.patch.get_visible()


def draw_arrow(ax, start, end, *, color, style=None, width=None, head=None, zorder=4, **kwargs) -> ArrowArtist:
    """A generic arrow from `start` to `end` in data coordinates (does not touch the limits)."""
    s = _style.get(style)
    props = dict(
        arrowstyle="-|>",
        mutation_scale=s.arrow_head if head is None else head,
        linewidth=s.arrow_width if width is None else width,
        color=color,
        shrinkA=0,
        shrinkB=0,
        zorder=zorder,
        capstyle="round",
        joinstyle="miter",
    )
    props.update(kwargs)
    patch = FancyArrowPatch((0, 0), (1, 1), **props)
    ax.add_artist(patch)
    return ArrowArtist(patch, head=float(props["mutation_scale"])).set(start, end)


def w_arrow_anchor(w, b) -> np.ndarray:
    """Where the w arrow starts: the boundary's point closest to the origin, -b*w/||w||^2 (origin if w = 0 or b = 0)."""
    w = _vec(w)[:2]
    nn = float(w @ w)
    if nn == 0.0 or not np.isfinite(nn) or b == 0:
        return np.zeros(2)
    return -float(b) * w / nn


def draw_w_arrow(ax, w, b, *, scale=1.0, anchor=None, style=None, **kwargs) -> ArrowArtist:
    """w as an arrow normal to the boundary, from `anchor` (default `w_arrow_anchor`) to anchor + scale*w.

    For a homogeneous perceptron (b = 0) it starts at the origin. Hidden when w = 0.
    Keep the axes' aspect equal (``ax.set_aspect("equal")``) so that it *looks* normal.
    """
    kwargs.setdefault("color", _style.W_COLOR)
    arrow = draw_arrow(ax, (0, 0), (0, 0), style=style, zorder=kwargs.pop("zorder", 6), **kwargs)
    return update_w_arrow(arrow, w, b, scale=scale, anchor=anchor)


def update_w_arrow(arrow: ArrowArtist, w, b, *, scale=1.0, anchor=None) -> ArrowArtist:
    """Move a w arrow to the state (w, b)."""
    w = _vec(w)[:2]
    a = w_arrow_anchor(w, b) if anchor is None else np.asarray(anchor, dtype=float).ravel()[:2]
    return arrow.set(a, a + scale * w)


def draw_update_arrow(ax, x_from, delta, *, style=None, **kwargs) -> ArrowArtist:
    """The update eta*y*x (or any step `delta`) as an arrow starting at `x_from`."""
    kwargs.setdefault("color", _style.UPDATE_COLOR)
    x_from = np.asarray(x_from, dtype=float).ravel()[:2]
    return draw_arrow(ax, x_from, x_from + np.asarray(delta, dtype=float).ravel()[:2], style=style,
                      zorder=kwargs.pop("zorder", 5), **kwargs)


def update_arrow(arrow: ArrowArtist, start, delta) -> ArrowArtist:
    """Move an arrow to start at `start` with vector `delta`."""
    start = np.asarray(start, dtype=float).ravel()[:2]
    return arrow.set(start, start + np.asarray(delta, dtype=float).ravel()[:2])


# --------------------------------------------------------------------------- current example, mistakes


def ring_point(ax, x, *, style=None, **kwargs) -> Line2D:
    """Ring the current example(s): `x` of shape (2,) or (m, 2); None or empty for no ring."""
    s = _style.get(style)
    props = dict(
        linestyle="none", marker="o", markersize=_marker_size(s.ring_size), markerfacecolor="none",
        markeredgecolor=_style.RING_COLOR, markeredgewidth=s.ring_width, zorder=7, label="_current",
    )
    props.update(kwargs)
    line = Line2D([], [], **props)
    ax.add_artist(line)
    return update_ring(line, x)


def update_ring(line: Line2D, x) -> Line2D:
    """Move the ring to `x` ((2,) or (m, 2)); None or empty hides it."""
    pts = np.empty((0, 2)) if x is None else np.atleast_2d(np.asarray(x, dtype=float))
    if pts.size == 0:
        _empty_line_data(line)
    else:
        line.set_data(pts[:, 0], pts[:, 1])
    return line


def mark_mistakes(ax, X, mask, *, style=None, **kwargs) -> Line2D:
    """An x over each row of X where `mask` is True (the misclassified points)."""
    s = _style.get(style)
    props = dict(
        linestyle="none", marker="x", markersize=_marker_size(s.mistake_size), markeredgewidth=s.mistake_width,
        color=_style.MISTAKE_COLOR, zorder=6, label="_mistakes",
    )
    props.update(kwargs)
    line = Line2D([], [], **props)
    ax.add_artist(line)
    return update_mistakes(line, X, mask)


def update_mistakes(line: Line2D, X, mask) -> Line2D:
    """Move the mistake crosses to the rows of X where `mask` is True."""
    X = np.asarray(X, dtype=float)
    m = np.asarray(mask, dtype=bool).ravel()
    line.set_data(X[m, 0], X[m, 1])
    return line


# --------------------------------------------------------------------------- curves


@dataclass(eq=False)
class CurveArtists:
    """A curve of values along a run, with a cursor (vertical line + dot) at one step."""

    line: Line2D
    cursor: Line2D
    dot: Line2D
    x: np.ndarray
    values: np.ndarray

    def set_cursor(self, k) -> list:
        """Put the cursor at index k (clamped to the curve); returns the moved artists."""
        n = len(self.values)
        if n == 0:
            return [self.cursor, self.dot]
        k = int(min(max(int(k), 0), n - 1))
        xk = self.x[k]
        self.cursor.set_xdata([xk, xk])
        self.dot.set_data([xk], [self.values[k]])
        return [self.cursor, self.dot]


def draw_loss_curve(ax, values, *, x=None, cursor=0, label=None, ylabel=None, style=None, color=None,
                    markers=None, **kwargs) -> CurveArtists:
    """Plot `values` (one per state, e.g. a loss or the mistakes after each update) with a cursor.

    `x` defaults to 0..len(values)-1 (the update index k). `markers` defaults to dots when
    there are at most 60 values. Move the cursor with ``artists.set_cursor(k)`` or `update_cursor`.
    """
    s = _style.get(style)
    v = np.asarray(values, dtype=float).ravel()
    xs = np.arange(len(v), dtype=float) if x is None else np.asarray(x, dtype=float).ravel()
    if len(xs) != len(v):
        raise ValueError(f"x has {len(xs)} entries but values has {len(v)}.")
    if markers is None:
        markers = len(v) <= 60
    (line,) = ax.plot(xs, v, color=color or _style.CURVE_COLOR, linewidth=s.line_width * 0.8,
                      marker="o" if markers else None, markersize=_marker_size(s.marker_size) * 0.6,
                      label=label or "_curve", zorder=3, **kwargs)
    vline = Line2D([0, 0], [0, 1], transform=ax.get_xaxis_transform(), color=_style.CURSOR_COLOR,
                   linewidth=s.line_width * 0.9, zorder=4, label="_cursor")
    ax.add_artist(vline)
    dot = Line2D([], [], linestyle="none", marker="o", markersize=_marker_size(s.marker_size) * 1.3,
                 markerfacecolor=_style.CURSOR_COLOR, markeredgecolor="#000000", markeredgewidth=s.marker_edge * 1.5,
                 zorder=5, label="_cursor_dot")
    ax.add_artist(dot)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    ax.set_xlabel("update k")
    if len(xs):
        lo, hi = float(xs.min()), float(xs.max())
        pad = 0.03 * (hi - lo) if hi > lo else 0.5
        ax.set_xlim(lo - pad, hi + pad)
    ax.xaxis.get_major_locator().set_params(integer=True)
    art = CurveArtists(line, vline, dot, xs, v)
    art.set_cursor(cursor)
    return art


def update_cursor(curve: CurveArtists, k) -> list:
    """Move a curve's cursor to step k; returns the moved artists."""
    return curve.set_cursor(k)


# --------------------------------------------------------------------------- loss landscapes


@dataclass(eq=False)
class ContourArtists:
    """Contours of a function of two parameters, plus a movable point and path."""

    contour: object
    lines: object
    point: Line2D
    path: Line2D
    colorbar: object = None

    def set_point(self, a, b) -> list:
        self.point.set_data([a], [b])
        return [self.point]

    def set_path(self, a_values, b_values) -> list:
        self.path.set_data(np.asarray(a_values, float), np.asarray(b_values, float))
        return [self.path]


def draw_contours(ax, A, B, Z, *, levels=14, filled=True, cmap=None, point=None, path=None, colorbar=False,
                  xlabel=None, ylabel=None, style=None, **kwargs) -> ContourArtists:
    """Contours of given values Z over a grid of two parameters (A along x, B along y).

    A and B are 1-D grid vectors (then Z has shape (len(B), len(A))) or 2-D meshgrids. Values
    are not computed here. `point` (a, b) and `path` (a_values, b_values) draw a current point
    and a trajectory, movable later with ``set_point`` / ``set_path``.
    """
    s = _style.get(style)
    cmap = cmap or _style.CMAP
    Z = np.asarray(Z, dtype=float)
    if filled:
        cs = ax.contourf(A, B, Z, levels=levels, cmap=cmap, **kwargs)
        lines = ax.contour(A, B, Z, levels=cs.levels, colors="#FFFFFF", linewidths=s.thin_width * 0.5, alpha=0.6)
    else:
        cs = ax.contour(A, B, Z, levels=levels, cmap=cmap, linewidths=s.thin_width, **kwargs)
        lines = None
    cb = ax.figure.colorbar(cs, ax=ax) if colorbar else None
    if cb is not None:
        cb.ax.tick_params(labelsize=s.tick_size)
    pth = Line2D([], [], color="#FFFFFF", linewidth=s.line_width * 0.8, marker="o",
                 markersize=_marker_size(s.marker_size) * 0.5, markeredgecolor="#000000", zorder=4, label="_path")
    ax.add_artist(pth)
    pt = Line2D([], [], linestyle="none", marker="*", markersize=_marker_size(s.marker_size) * 2.2,
                markerfacecolor=_style.CURSOR_COLOR, markeredgecolor="#000000", markeredgewidth=s.marker_edge * 1.5,
                zorder=5, label="_point")
    ax.add_artist(pt)
    art = ContourArtists(cs, lines, pt, pth, cb)
    if point is not None:
        art.set_point(*point)
    if path is not None:
        art.set_path(*path)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    return art


@dataclass(eq=False)
class SurfaceArtists:
    """A 3-D surface of given values plus a movable point on it."""

    surface: object
    point: object

    def set_point(self, a, b, z) -> list:
        self.point.set_data_3d([a], [b], [z])
        return [self.point]


def draw_surface(ax3d, A, B, Z, *, cmap=None, alpha=0.85, point=None, style=None, xlabel=None, ylabel=None,
                 zlabel=None, **kwargs) -> SurfaceArtists:
    """The surface z = Z over a grid of two parameters on a 3-D axes (values given, not computed)."""
    s = _style.get(style)
    A, B = np.asarray(A, float), np.asarray(B, float)
    if A.ndim == 1 and B.ndim == 1:
        A, B = np.meshgrid(A, B)
    surf = ax3d.plot_surface(A, B, np.asarray(Z, float), cmap=cmap or _style.CMAP, alpha=alpha,
                             linewidth=0, antialiased=True, **kwargs)
    (pt,) = ax3d.plot([], [], [], linestyle="none", marker="o", markersize=_marker_size(s.marker_size) * 1.4,
                      markerfacecolor=_style.CURSOR_COLOR, markeredgecolor="#000000", zorder=5)
    art = SurfaceArtists(surf, pt)
    if point is not None:
        art.set_point(*point)
    for lab, setter in ((xlabel, ax3d.set_xlabel), (ylabel, ax3d.set_ylabel), (zlabel, ax3d.set_zlabel)):
        if lab:
            setter(lab)
    return art


# --------------------------------------------------------------------------- lifted 3-D view


def lifted_z(X) -> np.ndarray:
    """The third coordinate of the lift phi(x1, x2) = (x1, x2, x1^2 + x2^2)."""
    X = np.asarray(X, dtype=float)
    return X[:, 0] ** 2 + X[:, 1] ** 2


def plane_polygon(w, b, box) -> np.ndarray:
    """The polygon where the plane <w,p> + b = 0 cuts the box ((lo, hi) for x, y, z); shape (m, 3), m = 0 or 3..6."""
    w = _vec(w)
    if w.shape != (3,):
        raise ValueError(f"plane_polygon needs w of length 3; got {w.shape[0]}.")
    box = np.asarray(box, dtype=float).reshape(3, 2)
    if not np.any(w) or not np.all(np.isfinite(w)) or not np.isfinite(b):
        return np.empty((0, 3))
    corners = np.array([[box[0, i], box[1, j], box[2, k]] for i in (0, 1) for j in (0, 1) for k in (0, 1)])
    f = corners @ w + b
    pts = []
    for a in range(8):
        for c in range(a + 1, 8):
            if bin(a ^ c).count("1") != 1:  # not an edge of the box
                continue
            fa, fc = f[a], f[c]
            if fa == 0:
                pts.append(corners[a])
            if fc == 0:
                pts.append(corners[c])
            if fa * fc < 0:
                t = fa / (fa - fc)
                pts.append(corners[a] + t * (corners[c] - corners[a]))
    if len(pts) < 3:
        return np.empty((0, 3))
    P = np.unique(np.round(np.array(pts), 12), axis=0)
    if len(P) < 3:
        return np.empty((0, 3))
    n = w / np.linalg.norm(w)
    u = np.cross(n, [1.0, 0, 0] if abs(n[0]) < 0.9 else [0, 1.0, 0])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    c = P.mean(axis=0)
    ang = np.arctan2((P - c) @ v, (P - c) @ u)
    return P[np.argsort(ang)]


@dataclass(eq=False)
class LiftedArtists:
    """Lifted points (by class), the current plane, and the box the plane is cut to."""

    pos: object
    neg: object
    plane: object
    box: np.ndarray
    polygon: np.ndarray = field(default_factory=lambda: np.empty((0, 3)))  # vertices of the plane drawn

    def set_plane(self, w, b) -> list:
        poly = self.polygon = plane_polygon(w, b, self.box)
        if len(poly) >= 3:
            self.plane.set_verts([poly])
            self.plane.set_visible(True)
        else:
            self.plane.set_visible(False)
        return [self.plane]


def draw_lifted(ax3d, X, y, z=None, *, w=None, b=0.0, style=None, box=None, plane_alpha=0.35) -> LiftedArtists:
    """Points at (x1, x2, z) on a 3-D axes by class, plus the plane <w,(x1,x2,z)> + b = 0.

    `z` defaults to the third column of X if it has one, else x1^2 + x2^2. The view is fixed
    to `box` (default: the data with 8% padding). Move the plane with ``set_plane`` / `update_plane`.
    """
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    s = _style.get(style)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y).ravel()
    if z is None:
        z = X[:, 2] if X.shape[1] >= 3 else lifted_z(X)
    z = np.asarray(z, dtype=float).ravel()
    P = np.column_stack([X[:, 0], X[:, 1], z])
    out = {}
    for lab in (1, -1):
        m = y > 0 if lab > 0 else y <= 0
        kw = _style.class_style(lab, s)
        kw["s"] = kw["s"] * 0.8
        out[lab] = ax3d.scatter(P[m, 0], P[m, 1], P[m, 2], depthshade=False, **kw)
    if box is None:
        lo, hi = P.min(axis=0), P.max(axis=0)
        pad = 0.08 * np.where(hi > lo, hi - lo, 1.0)
        box = np.column_stack([lo - pad, hi + pad])
    box = np.asarray(box, dtype=float).reshape(3, 2)
    ax3d.set_xlim(*box[0])
    ax3d.set_ylim(*box[1])
    ax3d.set_zlim(*box[2])
    plane = Poly3DCollection([np.zeros((3, 3))], facecolors=_style.PLANE_COLOR, edgecolors=_style.PLANE_COLOR,
                             linewidths=s.thin_width, alpha=plane_alpha, zorder=1)
    ax3d.add_collection3d(plane, autolim=False)
    art = LiftedArtists(out[1], out[-1], plane, box)
    if w is None:
        plane.set_visible(False)
    else:
        art.set_plane(w, b)
    return art


def update_plane(artists: LiftedArtists, w, b) -> list:
    """Move the lifted view's plane to <w,p> + b = 0; returns the moved artists."""
    return artists.set_plane(w, b)
