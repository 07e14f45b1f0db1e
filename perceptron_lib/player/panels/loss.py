"""Pictures for lessons 01 (loss geometry) and 02 (subgradients).

Everything here draws numbers computed by `perceptron_lib.core.losses`; nothing re-runs the algorithm.

Drawings (draw once, move later)
--------------------------------
* `draw_margin_losses` and `MarginReader`: the 0-1, perceptron and hinge losses as functions of
  the margin m, with a cursor that reads off each loss and its slope (and the whole fan of
  supporting lines at a kink).
* `draw_distances`: each point's perpendicular to the boundary, labelled with its signed distance.
* `draw_supporting_lines`: lines under a 1-D convex function through one of its points.
* `draw_supporting_plane`: an affine function f(u) + <g, v - u> over a 2-D slice, on a 3-D axes.
* `draw_subgradient_gap`: the gap L(v) - L(u) - <g, v - u> over a 2-D slice; where it is negative,
  g is not a subgradient.

The rest of lessons 01-02's pictures are in their own modules:

* `loss_slice`: `LossSlice` (contours of a data loss over (w1, w2) at one b, kink lines, zero-loss
  set, a point and a path) and `ContourPathPanel` (a player panel: the run's path on them);
* `loss_views`: `LossPlaneView` and `SubgradientView`, views for a two-axes
  `perceptron_lib.player.LiveFigure` (data, and parameter space).
"""

from __future__ import annotations

import numpy as np

from ...core import loss_surfaces as _loss_surfaces
from ...core import losses as _losses
from ...draw import style as _style
from ..readout import num as _num
from ..readout import text_html as _readout_html
from .loss_slice import LOSS_NAMES as _NAMES

__all__ = [
    "LOSS_LOOK",
    "draw_margin_losses",
    "MarginReader",
    "draw_distances",
    "draw_supporting_lines",
    "draw_supporting_plane",
    "draw_subgradient_gap",
    "GAP_NEGATIVE_COLOR",
]

#: How each loss is drawn: colour AND line style differ, so the curves stay apart in grey print. No orange: beside
#: the course's vermillion of y = +1 it reads as a class, and on this picture it is already the cursor at m.
LOSS_LOOK = {
    "zero_one": dict(color=_style.OKABE_ITO["reddish_purple"], linestyle="-.", label="0-1 loss  1[m ≤ 0]"),
    "perceptron": dict(color=_style.OKABE_ITO["black"], linestyle="-", label="perceptron  max(0, −m)"),
    "hinge": dict(color=_style.OKABE_ITO["bluish_green"], linestyle="--", label="hinge  max(0, 1 − m)"),
}
_KINK = {"zero_one": 0.0, "perceptron": 0.0, "hinge": 1.0}

#: where a vector is not a subgradient (`draw_subgradient_gap`): light grey under black hatching. No class colour
#: and no colour of viridis; the gap is continuous, so the region borders only a gap of 0, viridis's darkest end
#: (6:1 from this grey).
GAP_NEGATIVE_COLOR = "#BBBBBB"

# --------------------------------------------------------------------------- losses of the margin


def draw_margin_losses(ax, *, m_range=(-2.5, 2.5), losses=("zero_one", "perceptron", "hinge"), style=None,
                       legend=True) -> dict:
    """The pointwise losses as functions of the margin m on one axes; returns {name: Line2D}.

    The 0-1 loss is drawn with its jump at m = 0 and a filled dot at (0, 1): a point on the
    boundary counts as a mistake.
    """
    s = _style.get(style)
    lo, hi = (float(v) for v in m_range)
    m = np.union1d(np.linspace(lo, hi, 401), [0.0, 1.0])
    out = {}
    for name in losses:
        look = dict(LOSS_LOOK[name])
        v = _losses.loss_of_margin(m, loss=name)
        if name == "zero_one":  # break the curve at the jump instead of drawing a vertical line
            m_plot = np.concatenate([m[m <= 0], [np.nan], m[m > 0]])
            v = np.concatenate([v[m <= 0], [np.nan], v[m > 0]])
        else:
            m_plot = m
        (out[name],) = ax.plot(m_plot, v, linewidth=s.line_width, zorder=3, **look)
        if name == "zero_one":
            ax.plot([0.0], [1.0], marker="o", color=look["color"], markersize=np.sqrt(s.marker_size) * 0.8,
                    zorder=4, linestyle="none")
            ax.plot([0.0], [0.0], marker="o", markerfacecolor="#FFFFFF", markeredgecolor=look["color"],
                    markersize=np.sqrt(s.marker_size) * 0.8, zorder=4, linestyle="none")
    ax.axhline(0, color="#BBBBBB", linewidth=s.thin_width * 0.7, zorder=1)
    ax.axvline(0, color="#BBBBBB", linewidth=s.thin_width * 0.7, zorder=1)
    ax.set_xlim(lo, hi)
    top = max(float(np.max(_losses.loss_of_margin([lo], loss=n))) for n in losses)
    ax.set_ylim(-0.35, top + 0.3)
    ax.set_xlabel("margin m = y(⟨w, x⟩ + b)")
    ax.set_ylabel("loss")
    if legend:
        # under the axes' labels: on the axes it would hide the curves, the cursor or the axis lines
        from matplotlib.transforms import ScaledTranslation

        below = ScaledTranslation(0, -(1.25 * (s.tick_size + s.label_size) + 8) / 72, ax.figure.dpi_scale_trans)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=ax.transAxes + below,
                  ncol=2 if s.legend_size <= 12 else 1, fontsize=s.legend_size, frameon=False, handlelength=2.2,
                  columnspacing=1.0)
    return out


class MarginReader:
    """The three losses of the margin with a cursor at m: each loss's value and slope, read off.

    ``reader.show(m, theta)`` moves a vertical cursor to m, a dot onto each curve and a short
    tangent segment with the curve's slope there. At a kink the slope is not defined: the
    segment then has slope -theta (theta in [0, 1]), and a fan of grey lines shows every
    slope in [-1, 0], the whole subdifferential. Returns the readout (HTML); `text` has it
    as plain text.
    """

    def __init__(self, ax, *, m_range=(-2.5, 2.5), losses=("zero_one", "perceptron", "hinge"), style=None):
        s = self.s = _style.get(style)
        self.ax, self.losses = ax, tuple(losses)
        self.curves = draw_margin_losses(ax, m_range=m_range, losses=self.losses, style=s)
        self.cursor = ax.axvline(0, color=_style.CURSOR_COLOR, linewidth=s.line_width * 0.8, zorder=2)
        self.dots, self.tangents = {}, {}
        for name in self.losses:
            c = LOSS_LOOK[name]["color"]
            (self.dots[name],) = ax.plot([], [], marker="o", markersize=np.sqrt(s.marker_size) * 1.2,
                                         markerfacecolor=c, markeredgecolor="#000000", linestyle="none", zorder=6)
            (self.tangents[name],) = ax.plot([], [], color=c, linewidth=s.line_width * 2.2, alpha=0.45,
                                             solid_capstyle="round", zorder=5)
        self.fan = [ax.plot([], [], color="#777777", linewidth=s.thin_width * 0.8, zorder=2)[0] for _ in range(5)]
        self.text = ""

    def show(self, m, theta=0.0):
        m, theta = float(m), float(theta)
        self.cursor.set_xdata([m, m])
        half = 0.6
        lines = [f"margin m = {_num(m)}"]
        for f in self.fan:
            f.set_data([], [])
        for name in self.losses:
            v = float(_losses.loss_of_margin(m, loss=name))
            g = float(_losses.slope_of_margin(m, loss=name, at_kink=theta))
            self.dots[name].set_data([m], [v])
            kink = m == _KINK[name]
            if np.isnan(g):
                self.tangents[name].set_data([], [])
                slope = "none: the loss jumps here (no derivative, no subgradient)"
            else:
                self.tangents[name].set_data([m - half, m + half], [v - half * g, v + half * g])
                slope = _num(g)
                if kink:
                    slope = f"{_num(g)} (θ = {_num(theta)}); at the kink every value in [−1, 0] is a subgradient"
                    for f, t in zip(self.fan, np.linspace(0.0, 1.0, len(self.fan)), strict=True):
                        f.set_data([m - 1.2, m + 1.2], [v + 1.2 * t, v - 1.2 * t])
                elif name == "zero_one":
                    slope = "0 (flat)"
            lines.append(f"{_NAMES[name]}: {_num(v)}, slope {slope}")
        self.text = "\n".join(lines)
        return _readout_html(self.text)


# --------------------------------------------------------------------------- data space


def draw_distances(ax, X, w, b, *, labels=True, index=True, style=None) -> list:
    """From each point a dotted perpendicular to the line <w,x> + b = 0, labelled with its signed distance.

    The signed distance is ``(<w, x_i> + b) / ||w||`` (`losses.signed_distance`); with `index` each
    point also gets its index i in bold. Returns the artists.
    """
    s = _style.get(style)
    X = np.asarray(X, dtype=float)
    w = np.asarray(w, dtype=float)
    dist = _losses.signed_distance(w, b, X)
    unit = w / np.linalg.norm(w)
    feet = X - dist[:, None] * unit
    arts = []
    for i, (x, f, dv) in enumerate(zip(X, feet, dist, strict=True)):
        (ln,) = ax.plot([x[0], f[0]], [x[1], f[1]], color="#555555", linestyle=":", linewidth=s.thin_width,
                        zorder=1.5)
        arts.append(ln)
        if labels:
            mid = (x + f) / 2
            arts.append(ax.annotate(f"{dv:+.2f}" if dv else "0", mid, xytext=(4, 4), textcoords="offset points",
                                    fontsize=s.legend_size, color="#333333", zorder=8))
        if index:
            arts.append(ax.annotate(str(i), x, xytext=(-6, -4), textcoords="offset points", ha="right", va="top",
                                    fontsize=s.legend_size, fontweight="bold", zorder=8))
    return arts


# --------------------------------------------------------------------------- supporting lines and planes


def draw_supporting_lines(ax, m0, slopes, *, fn=None, span=1.5, style=None, **kwargs) -> list:
    """Lines through (m0, fn(m0)) with the given slopes: ``fn(m0) + g (m - m0)`` for g in `slopes`.

    `fn` defaults to the perceptron loss of the margin, max(0, -m). Returns the Line2D list.
    """
    s = _style.get(style)
    fn = fn or (lambda t: _losses.loss_of_margin(t, loss="perceptron"))
    f0 = float(fn(m0))
    props = dict(color=_style.OKABE_ITO["bluish_green"], linewidth=s.thin_width * 1.2, zorder=2)
    props.update(kwargs)
    out = []
    for g in np.atleast_1d(slopes):
        (ln,) = ax.plot([m0 - span, m0 + span], [f0 - span * g, f0 + span * g], **props)
        out.append(ln)
    ax.plot([m0], [f0], marker="o", color="#000000", markersize=np.sqrt(s.marker_size) * 0.9, zorder=5,
            linestyle="none")
    return out


def draw_supporting_plane(ax3d, A, B, u, f_u, g, *, color=None, alpha=0.35, zmin=None, **kwargs):
    """The affine function ``f_u + <g, (a, b) - u>`` over the grid (A, B) on a 3-D axes.

    Where f is convex and g is a subgradient at u, this plane lies under the surface of f.
    With `zmin`, the part of the plane below it is left out (so a steep plane does not
    stretch the view).
    """
    A, B = np.asarray(A, float), np.asarray(B, float)
    Z = float(f_u) + g[0] * (A - u[0]) + g[1] * (B - u[1])
    if zmin is not None:
        Z = np.ma.masked_less(Z, zmin)
    # the supporting lines' colour (`draw_supporting_lines`), not orange: that reads as the vermillion of y = +1
    return ax3d.plot_surface(A, B, Z, color=color or _style.OKABE_ITO["bluish_green"], alpha=alpha, linewidth=0,
                             shade=False, **kwargs)


def draw_subgradient_gap(ax, X, y, u, g, *, span=2.0, num=121, reduction="mean", colorbar=True, style=None):
    """The gap ``L(v) - L(u) - <g, v - u>`` over the slice of (w1, w2) through u at b = u[2].

    g is a subgradient at u exactly when the gap is >= 0 for every v. Where the gap is
    negative in the slice, the region is filled in light grey and hatched in black: there the affine
    function through u with slope g rises above L, so g is not a subgradient. Returns the
    smallest gap on the grid.
    """
    import matplotlib as mpl

    s = _style.get(style)
    u, g = np.asarray(u, float), np.asarray(g, float)
    a = np.linspace(u[0] - span, u[0] + span, num)
    c = np.linspace(u[1] - span, u[1] + span, num)
    A, B = np.meshgrid(a, c)
    V = np.stack([A, B, np.full_like(A, u[2])], axis=-1)
    L_u = _losses.perceptron_loss(u[:2], u[2], X, y, reduction=reduction)
    gap = _loss_surfaces.loss_surface(X, y, V, reduction=reduction) - L_u - (V - u) @ g
    top = max(float(gap.max()), 1e-9)
    from matplotlib.ticker import MaxNLocator

    levels = MaxNLocator(10).tick_values(0.0, top)
    cf = ax.contourf(A, B, np.maximum(gap, 0.0), levels=levels[levels >= 0], cmap=_style.CMAP, zorder=0.5,
                     extend="max")
    if gap.min() < -1e-12:
        with mpl.rc_context({"hatch.color": "#000000", "hatch.linewidth": s.thin_width * 0.6}):
            ax.contourf(A, B, gap, levels=[gap.min() - 1.0, -1e-12], colors=[GAP_NEGATIVE_COLOR], hatches=["\\\\"],
                        zorder=0.7)
    ax.plot([u[0]], [u[1]], linestyle="none", marker="*", markersize=np.sqrt(s.marker_size) * 2.2,
            markerfacecolor=_style.CURSOR_FACE_COLOR, markeredgecolor="#000000", zorder=5)
    ax.set_xlim(a[0], a[-1])
    ax.set_ylim(c[0], c[-1])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("w₁")
    ax.set_ylabel("w₂")
    if colorbar:
        cb = ax.figure.colorbar(cf, ax=ax, shrink=0.85)
        cb.ax.tick_params(labelsize=s.tick_size)
        cb.set_label("gap where ≥ 0", fontsize=s.label_size * 0.9)
    return float(gap.min())
