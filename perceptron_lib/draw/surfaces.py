"""Loss curves with a cursor, contour maps, 3-D loss surfaces, and the lifted 3-D view.

Part of the drawing layer; see `perceptron_lib.draw.plotting` for the conventions. The numbers drawn
here come from `perceptron_lib.core.loss_surfaces` and `perceptron_lib.core.kernels` (the lift).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from . import style as _style
from ._drawing import _marker_size, _vec

__all__ = [
    "CurveArtists",
    "ContourArtists",
    "SurfaceArtists",
    "LiftedArtists",
    "draw_loss_curve",
    "update_cursor",
    "draw_contours",
    "draw_surface",
    "lifted_z",
    "plane_polygon",
    "draw_lifted",
    "update_plane",
    "FittingTicks",
    "fit_ticks",
]


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
                 markerfacecolor=_style.CURSOR_FACE_COLOR, markeredgecolor="#000000",
                 markeredgewidth=s.marker_edge * 1.5, zorder=5, label="_cursor_dot")
    ax.add_artist(dot)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    ax.set_xlabel("update k")
    if len(xs):
        lo, hi = float(xs.min()), float(xs.max())
        if hi > lo:
            pad = 0.05 * (hi - lo)  # room for the cursor's dot at either end
            ax.set_xlim(lo - pad, hi + pad)
        else:  # one state only: k = 0 at the left edge of a short axis, not centred on -0.5..0.5
            ax.set_xlim(lo - 0.1, lo + 1.0)
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
                markerfacecolor=_style.CURSOR_FACE_COLOR, markeredgecolor="#000000",
                markeredgewidth=s.marker_edge * 1.5, zorder=5, label="_point")
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
                      markerfacecolor=_style.CURSOR_FACE_COLOR, markeredgecolor="#000000", zorder=5)
    art = SurfaceArtists(surf, pt)
    if point is not None:
        art.set_point(*point)
    for lab, setter in ((xlabel, ax3d.set_xlabel), (ylabel, ax3d.set_ylabel), (zlabel, ax3d.set_zlabel)):
        if lab:
            setter(lab)
    return art


# --------------------------------------------------------------------------- ticks of a 3-D axes


class FittingTicks(MaxNLocator):
    """Ticks for one axis of a 3-D axes: as many as fit along that axis as it is drawn now (at most ``nbins + 1``).

    A 3-D axis's tick labels stand along its edge. Where the edge runs up the picture they need only a
    label's height each; where it runs across the picture, as the floor's two axes do when the view is
    level (elevation 0), they stand side by side and need a label's width each, so fewer of them fit. An
    axis seen nearly end-on gets none. Seen level or from straight above, the floor's axes keep only their
    two end ticks: the axis's name (x₁) then stands between them, not on the middle tick, where such a view
    puts it. Short of room, the z axis leaves out a tick at the box's bottom corner, where the floor's labels
    end. The room is measured at each draw, so a view slider moves the ticks too.
    """

    #: the room of one label, in ems of its font: across (a sign, a digit and a gap) and up (a line and a gap)
    WIDE, HIGH = 3.0, 1.8
    #: degrees from a level view or a view from straight above, in which the floor's axes' names come down onto
    #: their middle tick labels
    LEVEL = 10.0

    def __init__(self, nbins=3, *, fontsize, **kwargs):
        super().__init__(nbins, **kwargs)
        self.most, self.fontsize = int(nbins), float(fontsize)

    def fits(self) -> int | None:
        """How many labels fit along the axis as drawn now; None when it is not on a 3-D axes."""
        axis = getattr(self, "axis", None)
        ax = getattr(axis, "axes", None)
        if ax is None or not hasattr(ax, "get_proj"):
            return None
        from mpl_toolkits.mplot3d import proj3d

        box = np.array([ax.get_xlim(), ax.get_ylim(), ax.get_zlim()], dtype=float)
        ends = np.repeat(box.mean(axis=1)[:, None], 2, axis=1)  # the axis's direction through the box's centre
        j = "xyz".index(axis.axis_name)
        ends[j] = box[j]
        px, py, _ = proj3d.proj_transform(*ends, ax.get_proj())
        d = np.abs(np.diff(ax.transData.transform(np.column_stack([px, py])), axis=0)[0])
        em = self.fontsize * ax.figure.dpi / 72
        return int(max(d[0] / (self.WIDE * em), d[1] / (self.HIGH * em)))

    def __call__(self):
        n = self.fits()
        if n is None:
            return super().__call__()
        if n < 2:
            return []
        axis = self.axis
        lo, hi = sorted(axis.get_view_interval())
        corner = axis.axis_name == "z" and n <= self.most  # short of room: z leaves the bottom corner to the floor
        self.set_params(nbins=min(self.most, n if corner else n - 1))  # nbins intervals: at most nbins + 1 ticks
        ticks = [t for t in super().__call__() if lo <= t <= hi]
        if corner:
            return [t for t in ticks if t > lo]
        elev = abs(axis.axes.elev) % 180
        if axis.axis_name != "z" and min(elev, abs(90 - elev), 180 - elev) < self.LEVEL:
            return ticks[:: max(len(ticks) - 1, 1)]  # the first and the last: the axis's name between them
        return ticks


def fit_ticks(ax3d, *, fontsize, nbins=3, integer=False) -> None:
    """Give each axis of a 3-D axes `FittingTicks` (labels of `fontsize` points)."""
    for axis in (ax3d.xaxis, ax3d.yaxis, ax3d.zaxis):
        axis.set_major_locator(FittingTicks(nbins, fontsize=fontsize, integer=integer))


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
    if box is None and len(P) == 0:  # no points yet (an editor after Clear): the bowl's bottom, z from 0
        box = [(-1.0, 1.0), (-1.0, 1.0), (0.0, 2.0)]
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
