"""Drawing primitives for the course: each draws *given* numbers onto a *given* Axes.

This module draws the data points, the decision boundary, the ring around the current example
and the mistake crosses. The arrows (w, updates) are in `perceptron_lib.draw.arrows`; loss
curves, contour maps, 3-D surfaces and the lifted view in `perceptron_lib.draw.surfaces`.

Nothing here runs or re-runs the algorithm: the caller passes w, b, points, masks or loss
values (usually read from ``run.history``). Every ``draw_*`` function returns the artists it
made (a matplotlib artist or a small record of them) and has an ``update_*`` partner, or
methods on the record, that move those artists with ``set_data``-style calls, so a player can
redraw a step without rebuilding the figure.

Conventions
-----------
* Object-oriented matplotlib only; no pyplot, no global state.
* Sizes, widths and colours come from a `perceptron_lib.draw.style.Style` (``style=None`` is the
  current preset); extra keyword arguments go to the underlying artist.
* Lines, arrows and markers that move (boundary, w, ring, mistake crosses, cursors) are added
  with ``ax.add_artist``, so they never grow the data limits: the view is set by the data
  (points, curves, surfaces) and stays put while the state changes.
* A ``w`` of length 3 given to `draw_boundary` is read as a plane over the lift
  (x1, x2, x1^2 + x2^2): the boundary drawn in the plane is then the circle (or line)
  ``w3*(x1^2 + x2^2) + w1*x1 + w2*x2 + b = 0``.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D

from . import style as _style
from ._drawing import _empty_line_data, _limits, _marker_size, _vec

__all__ = [
    "PointsArtists",
    "draw_points",
    "boundary_segment",
    "boundary_points",
    "draw_boundary",
    "update_boundary",
    "ring_point",
    "update_ring",
    "mark_mistakes",
    "update_mistakes",
    "shares_row",
    "picture_legend",
]


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
        color=_style.MISTAKE_COLOR, zorder=1.9, label="_mistakes",  # under the points: their colour shows
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


# --------------------------------------------------------------------------- one legend for a picture

_PICTURE_LEGEND = "perceptron-picture-legend"  # the gid that marks the picture's one legend
#: each picture legend's entries, by panel: kept beside the legend, not written into matplotlib's object
_ENTRIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def shares_row(ax) -> bool:
    """True when `ax` stands beside other panels in a figure laid out by constrained layout.

    There a legend under one panel that is wider than its panel pushes the next panel to the picture's
    edge, and legends under two panels, or one under the other, take their height from every panel: the
    panels' legends are better one legend under the whole picture (`picture_legend`), which the layout
    makes room for.
    """
    spec = ax.get_subplotspec()
    return spec is not None and spec.get_gridspec().ncols > 1 and _laid_out(ax.figure)


def _laid_out(fig) -> bool:
    """True if constrained layout lays the figure out, or did before it was frozen (a player's picture, whose
    panel is drawn again for another run, keeps its picture legend)."""
    constrained = type(fig.get_layout_engine()).__name__ == "ConstrainedLayoutEngine"
    return constrained or any(leg.get_gid() == _PICTURE_LEGEND for leg in fig.legends)


def picture_legend(ax, handles, *, style=None, ncol=None, most=4, **look):
    """One legend under the whole picture, outside every axes, with the entries of each of its panels.

    A call for another axes adds that panel's entries (after those of the axes before it in the figure);
    a call for the same axes replaces its entries (a panel drawn again, for another run). `ncol` defaults
    to as few rows as fit the picture's width with at most `most` columns, the rows filled evenly. `look`
    goes to ``Figure.legend``. Returns the legend.
    """
    s = _style.get(style)
    fig = ax.figure
    laid_out = _laid_out(fig)  # before the old legend goes
    entries = {}
    for old in [leg for leg in fig.legends if leg.get_gid() == _PICTURE_LEGEND]:
        entries = dict(_ENTRIES.get(old, {}))  # the panels' own artists: a legend's copies of them draw blank
        old.remove()
    entries[ax] = list(handles)
    entries = {a: entries[a] for a in fig.axes if a in entries}
    handles = [h for hs in entries.values() for h in hs]
    look = {"loc": "outside lower center" if laid_out else "lower center", "frameon": False,
            "handlelength": 1.6, "handletextpad": 0.5, "columnspacing": 1.0, "fontsize": s.legend_size, **look}
    try:
        renderer = fig.canvas.get_renderer()
    except AttributeError:  # a figure not yet on a canvas that draws: it cannot be measured
        renderer = None
    for cols in ([ncol] if ncol else range(min(most, len(handles)), 0, -1)):
        rows = -(-len(handles) // cols)
        leg = fig.legend(handles=handles, ncol=-(-len(handles) // rows), **look)
        if ncol or cols == 1 or renderer is None or leg.get_window_extent(renderer).width <= 0.98 * fig.bbox.width:
            break
        leg.remove()  # wider than the picture: fewer columns
    leg.set_gid(_PICTURE_LEGEND)
    _ENTRIES[leg] = entries
    return leg
