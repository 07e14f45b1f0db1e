"""Pictures for lesson 05 (kernel lifting): the lift as a 3-D scene, decision regions, update counts.

Each function draws *given* numbers onto *given* axes, like `perceptron_lib.draw.plotting`; nothing
here fits or re-fits a perceptron. The lesson's players use the built-in `widgets.DataPanel`
(which draws a length-3 w over lifted data as a circle in the plane) and `widgets.LiftedPanel`.

* `draw_lift_scene`: the lifted points on the bowl z = x1^2 + x2^2 (3-D) next to the data in
  the plane, with the horizontal plane z = r^2 and its circle of radius r; `LiftScene.set_radius`
  moves both (for a `LiveFigure` with a radius slider and view-angle sliders).
* `draw_regions`: the two regions of a score function (sign of the score) with its zero level.
* `draw_update_counts`: the points sized and labelled by how often the perceptron updated on each.
* `static_fallback`: a player's recorded run as a JavaScript animation, folded in a ``<details>``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.colors import ListedColormap, to_rgb
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ...draw import plotting as _plot
from ...draw import style as _style
from ...draw import surfaces as _surfaces

__all__ = [
    "LiftScene",
    "RegionArtists",
    "draw_lift_scene",
    "draw_regions",
    "draw_update_counts",
    "style_lifted_axes",
    "region_colors",
]


def _xy(X) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"X must have shape (n, 2) (points in the plane); got {X.shape}.")
    return X[:, :2]


def _square_view(ax, P, pad=0.12, center=None):
    """Equal-aspect square view around the points (with padding); returns (xlim, ylim)."""
    lo, hi = P.min(axis=0), P.max(axis=0)
    mid = (lo + hi) / 2 if center is None else np.asarray(center, dtype=float)
    half = max(float(np.max(np.maximum(hi - mid, mid - lo))), 1e-9) * (1 + pad)
    xlim, ylim = (mid[0] - half, mid[0] + half), (mid[1] - half, mid[1] + half)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x₁")
    ax.set_ylabel("x₂")
    return xlim, ylim


def style_lifted_axes(ax3d, *, title="lifted: z = x₁² + x₂²", zoom=0.95, integer=True, style=None) -> None:
    """Labels, ticks that fit the view and a fitting box for a 3-D axes of lifted points (`LiftedPanel` too)."""
    s = _style.get(style)
    big = s.label_size > 16
    # mplot3d sets an axis's name off its edge by a share of the box, not of the text: big lecture text on a
    # small box put x₁ on its middle tick label, so the lecture's floor names stand farther off (not z's: the
    # layout leaves z's name out, so farther off it would run into the next panel)
    pad = s.tick_size * 0.35
    ax3d.set_xlabel("x₁", labelpad=pad * (2.9 if big else 1.0))
    ax3d.set_ylabel("x₂", labelpad=pad * (2.9 if big else 1.0))
    ax3d.set_zlabel("z", labelpad=pad * 0.6)
    if title:
        ax3d.set_title(title, fontsize=s.title_size)
    ax3d.tick_params(labelsize=s.tick_size * 0.9, pad=1)  # 9 pt: 11 CSS px even at 0.9 of the size
    # as many ticks as fit the view: seen level (elevation 0) the floor's labels stand in one row and crowd
    _surfaces.fit_ticks(ax3d, fontsize=s.tick_size * 0.9, integer=integer)
    # big lecture labels need more room around the box, or the z label runs off the picture (or into the next panel)
    ax3d.set_box_aspect(None, zoom=zoom * (0.88 if big else 1.0))


# --------------------------------------------------------------------------- the lift as a scene


@dataclass(eq=False)
class LiftScene:
    """The artists of `draw_lift_scene`: lifted view (3-D) and plane view (2-D) of one radius r."""

    ax3d: object
    ax2d: object
    lifted: _surfaces.LiftedArtists
    circle: Line2D
    bowl: object
    r: float

    def set_radius(self, r) -> list:
        """Move the plane to z = r^2 and the circle to radius r; returns the moved artists."""
        r = float(r)
        self.r = r
        moved = self.lifted.set_plane((0.0, 0.0, -1.0), r * r)
        _plot.update_boundary(self.circle, (0.0, 0.0, -1.0), r * r, self.ax2d)
        return moved + [self.circle]


def draw_lift_scene(ax3d, ax2d, X, y, r, *, bowl=True, style=None) -> LiftScene:
    """The lift phi(x1, x2) = (x1, x2, x1^2 + x2^2) as two linked views.

    Left (`ax3d`, a 3-D axes): the lifted points, a light wire frame of the bowl
    z = x1^2 + x2^2 on which every lifted point lies (if `bowl`), and the plane z = r^2.
    Right (`ax2d`): the points in the plane and the circle x1^2 + x2^2 = r^2, which is where
    that plane cuts the bowl. The plane is stored as ``w = (0, 0, -1), b = r^2``, so the score
    ``r^2 - z`` is positive below the plane, inside the circle.

    Move both with ``scene.set_radius(r)``; turn the 3-D view with ``ax3d.view_init``.
    """
    s = _style.get(style)
    P = _xy(X)
    y = np.asarray(y).ravel()
    z = _surfaces.lifted_z(P)
    R = float(np.sqrt(z.max())) * 1.08
    box = [(-R, R), (-R, R), (0.0, R * R)]
    wire = None
    if bowl:
        rr, tt = np.meshgrid(np.linspace(0, R, 7), np.linspace(0, 2 * np.pi, 25))
        wire = ax3d.plot_wireframe(rr * np.cos(tt), rr * np.sin(tt), rr**2, color="#B0B0B0",
                                   linewidth=s.thin_width * 0.5, alpha=0.6, rstride=1, cstride=1)
    lifted = _surfaces.draw_lifted(ax3d, P, y, z, w=(0.0, 0.0, -1.0), b=float(r) ** 2, style=s, box=box)
    style_lifted_axes(ax3d, style=s)
    _square_view(ax2d, np.vstack([P, [[0.0, 0.0]]]), center=(0.0, 0.0))
    _plot.draw_points(ax2d, P, y, style=s, legend=False)
    # the legend beside the plane view, outside the axes: it hides no point
    ax2d.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, frameon=False, fontsize=s.legend_size,
                handletextpad=0.3)
    circle = _plot.draw_boundary(ax2d, (0.0, 0.0, -1.0), float(r) ** 2, style=s)
    ax2d.set_title("in the plane: x₁² + x₂² = r²", fontsize=s.title_size)
    return LiftScene(ax3d, ax2d, lifted, circle, wire, float(r))


# --------------------------------------------------------------------------- decision regions


def _figure_legend(ax, handles, s):
    """A legend in one row under the figure, outside every axes (so it hides no point)."""
    return _plot.picture_legend(ax, handles, style=s, ncol=len(handles) if s.legend_size <= 12 else 2,
                                columnspacing=1.2)


def region_colors(alpha=0.22):
    """Light tints of the two class colours (for regions predicted -1 and +1), as RGB tuples."""
    def tint(c):
        return tuple(1 - alpha + alpha * np.array(to_rgb(c)))

    return tint(_style.NEG_COLOR), tint(_style.POS_COLOR)


@dataclass(eq=False)
class RegionArtists:
    """Filled regions, the zero level of the score, and the points."""

    fill: object
    boundary: object
    points: _plot.PointsArtists
    xlim: tuple
    ylim: tuple


def draw_regions(ax, score, X, y, *, xlim=None, ylim=None, n=161, title=None, legend=True, style=None,
                 center=None) -> RegionArtists:
    """Colour the plane by the sign of ``score`` and draw its zero level and the points.

    Parameters
    ----------
    ax : Axes
    score : callable
        ``score(G)`` for a grid of points G of shape (m, 2) returns m scores; the region where it
        is > 0 is tinted with the +1 colour, the rest with the -1 colour (sgn(0) = -1).
    X, y : the points to show (first two columns) and their labels.
    xlim, ylim : optional
        The view; by default a square around the points with padding.
    n : int
        Grid points per side.
    legend : bool
        A legend for the points and the two regions, under the figure (give it for one axes of
        a figure only).
    """
    s = _style.get(style)
    P = _xy(X)
    y = np.asarray(y).ravel()
    if xlim is None or ylim is None:
        xlim, ylim = _square_view(ax, P, center=center)
    else:
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("x₁")
        ax.set_ylabel("x₂")
    gx, gy = np.linspace(*xlim, n), np.linspace(*ylim, n)
    A, B = np.meshgrid(gx, gy)
    S = np.asarray(score(np.column_stack([A.ravel(), B.ravel()])), dtype=float).reshape(A.shape)
    label = np.where(S > 0, 1.0, 0.0)
    neg, pos = region_colors()
    fill = ax.pcolormesh(A, B, label, cmap=ListedColormap([neg, pos]), vmin=0, vmax=1, shading="auto",
                         zorder=0, rasterized=True)
    boundary = None
    if S.min() < 0 < S.max():
        boundary = ax.contour(A, B, S, levels=[0.0], colors=[_style.BOUNDARY_COLOR], linewidths=s.line_width,
                              zorder=3)
    pts = _plot.draw_points(ax, P, y, style=s, legend=False)
    if legend:
        handles = [pts.pos, pts.neg, Patch(facecolor=pos, edgecolor="#999999", label="predicted +1"),
                   Patch(facecolor=neg, edgecolor="#999999", label="predicted -1")]
        _figure_legend(ax, handles, s)
    if title:
        ax.set_title(title, fontsize=s.title_size)
    return RegionArtists(fill, boundary, pts, tuple(xlim), tuple(ylim))


# --------------------------------------------------------------------------- update counts


def _label_offsets(ax, P, radii, labels, fontsize) -> list:
    """Offsets in points (of each label's lower left corner) that put labels[j] beside the point P[j] (`radii`:
    each point's marker radius in points). The largest points choose first: each label takes the first place
    around its point that covers no other point and comes near no label placed before it, else the place that
    covers least. Measured after the figure's layout has placed the axes."""
    if ax.figure.get_layout_engine() is not None:
        ax.figure.draw_without_rendering()
    at = ax.transData.transform(P) * 72.0 / ax.figure.dpi
    boxes = np.column_stack([at - radii[:, None], at + radii[:, None]])  # (x0, y0, x1, y1) of every marker

    def covered(box, others):
        if len(others) == 0:
            return 0.0
        o = np.asarray(others)
        w = np.clip(np.minimum(box[2], o[:, 2]) - np.maximum(box[0], o[:, 0]), 0, None)
        h = np.clip(np.minimum(box[3], o[:, 3]) - np.maximum(box[1], o[:, 1]), 0, None)
        return float(np.sum(w * h))

    placed, out = [], [None] * len(labels)
    for j in np.argsort(-radii, kind="stable"):  # the largest points (the largest counts) choose first
        text = labels[j]
        w, h, r = 0.62 * fontsize * len(text), 0.8 * fontsize, radii[j] + 1.5
        # up and right first, then around the point, then the same a little farther off
        spots = [(dx, dy) for e in (0.0, 0.5 * fontsize) for dx, dy in
                 ((r + e, 0.6 * r), (r + e, -h - 0.6 * r), (-w - r - e, 0.6 * r), (-w - r - e, -h - 0.6 * r),
                  (r + 1 + e, -h / 2), (-w - r - 1 - e, -h / 2), (-w / 2, r + 1 + e), (-w / 2, -h - r - 1 - e))]
        others = np.delete(boxes, j, axis=0)
        cost = [covered((at[j, 0] + dx, at[j, 1] + dy, at[j, 0] + dx + w, at[j, 1] + dy + h), list(others) + placed)
                for dx, dy in spots]
        free = [i for i, c in enumerate(cost) if c == 0]
        dx, dy = spots[free[0] if free else int(np.argmin(cost))]
        gap = fontsize  # two labels closer than this read as one number ("1" and "3" as "13")
        placed.append((at[j, 0] + dx - gap, at[j, 1] + dy - gap, at[j, 0] + dx + w + gap, at[j, 1] + dy + h + gap))
        out[j] = (float(dx), float(dy))
    return out


def draw_update_counts(ax, X, y, counts, *, w=None, b=0.0, annotate=True, title=None, style=None):
    """The points by class, each sized by how often the perceptron updated on it.

    Points never updated on (count 0) are drawn small and pale: the dual weights
    ``w = eta * sum_i counts_i y_i phi(x_i)`` do not involve them. The others are drawn with an
    area growing with the count and, if `annotate`, labelled with it. If `w` is given (length 2:
    a line; length 3: a plane over the lift, drawn as its circle) the boundary is drawn too.
    Returns the `PointsArtists` of the used points.
    """
    s = _style.get(style)
    P = _xy(X)
    y = np.asarray(y).ravel()
    c = np.asarray(counts).ravel().astype(int)
    if c.shape != y.shape:
        raise ValueError(f"counts must have one entry per point ({len(y)}); got {c.shape[0]}.")
    _square_view(ax, P)
    used = c > 0
    _plot.draw_points(ax, P[~used], y[~used], style=s, legend=False, alpha=0.3, s=s.marker_size * 0.45)
    sizes = s.marker_size * (1.0 + 1.6 * c[used])
    pts = _plot.draw_points(ax, P[used], y[used], style=s, legend=False)
    for art, m in ((pts.pos, y[used] > 0), (pts.neg, y[used] <= 0)):
        art.set_sizes(sizes[m] * (1.25 if art is pts.pos else 1.0))
        art.set_edgecolor("#000000")
    if annotate:
        labels = [str(k) for k in c[used]]
        # marker radii in points (a triangle is drawn 1.25 times larger and reaches past its circle); a label may
        # cover a pale point, never a used one or another label
        radii = np.sqrt(sizes * np.where(y[used] > 0, 1.25 * 1.3, 1.0)) / 2
        for p, text, (dx, dy) in zip(P[used], labels, _label_offsets(ax, P[used], radii, labels, s.legend_size),
                                     strict=True):
            ax.annotate(text, p, xytext=(dx, dy), textcoords="offset points", ha="left", va="bottom",
                        fontsize=s.legend_size, color="#000000", zorder=8)
    if w is not None:
        _plot.draw_boundary(ax, w, b, style=s)
    handles = [
        Line2D([], [], linestyle="none", marker=_style.POS_MARKER, color=_style.POS_COLOR,
               markersize=np.sqrt(s.marker_size * 2.6), markeredgecolor="#000000", label="y = +1, used"),
        Line2D([], [], linestyle="none", marker=_style.NEG_MARKER, color=_style.NEG_COLOR,
               markersize=np.sqrt(s.marker_size * 2.6), markeredgecolor="#000000", label="y = -1, used"),
        Line2D([], [], linestyle="none", marker=_style.NEG_MARKER, color=_style.NEG_COLOR, alpha=0.3,
               markersize=np.sqrt(s.marker_size * 0.45), label="never updated on"),
    ]
    _figure_legend(ax, handles, s)
    if title:
        ax.set_title(title, fontsize=s.title_size)
    return pts
