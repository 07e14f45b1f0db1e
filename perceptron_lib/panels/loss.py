"""Pictures for lessons 01 (loss geometry) and 02 (subgradients).

Everything here draws numbers computed by `perceptron_lib.losses`; nothing re-runs the algorithm.

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
* `LossSlice`: contours of a data loss over (w1, w2) at one value of b, with the kink line of
  every example, the zero-loss set hatched, a current point and a path.

Views for `perceptron_lib.widgets.LiveFigure` (two axes: data, and parameter space)
-----------------------------------------------------------------------------------
* `LossPlaneView`: the boundary of (w, b) among the data, next to the point (w1, w2) on the
  loss contours at b. ``view.show(w1, w2, b)`` moves both and returns the readout.
* `SubgradientView`: the same, plus every point's case (correct, boundary, mistake) and its
  subgradient contribution as an arrow in parameter space, tip to tail, with their total.
  ``view.show(w1, w2, b, theta)``.

For the `StepThrough` player
----------------------------
* `ContourPathPanel`: the run's path on the loss contours over (w1, w2), at b fixed or at the
  current b_k.
* `RunSwitch`: toggle buttons above a player that swap its run (``player.set_run``).
"""

from __future__ import annotations

import html as _html

import ipywidgets as widgets
import numpy as np
from matplotlib.lines import Line2D

from .. import losses as _losses
from .. import plotting as _plot
from .. import style as _style
from .._validation import check_X_y
from ..widgets import ShowsWidget, fold

__all__ = [
    "LOSS_LOOK",
    "draw_margin_losses",
    "MarginReader",
    "draw_distances",
    "draw_supporting_lines",
    "draw_supporting_plane",
    "draw_subgradient_gap",
    "LossSlice",
    "LossPlaneView",
    "SubgradientView",
    "ContourPathPanel",
    "RunSwitch",
]

#: How each loss is drawn: colour AND line style differ, so the curves stay apart in grey print.
LOSS_LOOK = {
    "zero_one": dict(color=_style.OKABE_ITO["reddish_purple"], linestyle="-.", label="0-1 loss  1[m ≤ 0]"),
    "perceptron": dict(color=_style.OKABE_ITO["black"], linestyle="-", label="perceptron  max(0, −m)"),
    "hinge": dict(color=_style.OKABE_ITO["orange"], linestyle="--", label="hinge  max(0, 1 − m)"),
}
_KINK = {"zero_one": 0.0, "perceptron": 0.0, "hinge": 1.0}
_NAMES = {"zero_one": "0-1 loss", "perceptron": "perceptron loss", "hinge": "hinge loss"}


def _num(v) -> str:
    """A number as a person writes it: 2 not 2.0, -0.0 as 0, otherwise up to 4 significant digits."""
    v = float(v)
    if not np.isfinite(v):
        return str(v)
    if v == round(v) and abs(v) < 1e12:
        return str(int(round(v)))
    return f"{v:.4g}"


def _vec(v) -> str:
    return "(" + ", ".join(_num(a) for a in np.ravel(v)) + ")"


def _readout_html(text: str) -> str:
    """Plain text shown line by line under a LiveFigure."""
    return ('<div style="white-space:pre-line;font-size:1.05em;line-height:1.45;'
            f'font-variant-numeric:tabular-nums">{_html.escape(text)}</div>')


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
        ax.legend(loc="upper right", fontsize=s.legend_size, framealpha=0.95)
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


class _CaseMarks:
    """Each point's case at (w, b): a cross for a mistake, a square for the boundary, and its index."""

    def __init__(self, ax, X, y, *, style=None, words=False):
        s = _style.get(style)
        self.X, self.y, self.words = X, y, words
        self.cross = _plot.mark_mistakes(ax, X, np.zeros(len(X), bool), style=s)
        self.square = Line2D([], [], linestyle="none", marker="s", markersize=np.sqrt(s.ring_size) * 0.75,
                             markerfacecolor="none", markeredgecolor="#000000", markeredgewidth=s.ring_width * 0.8,
                             zorder=6)
        ax.add_artist(self.square)
        self.labels = []
        for i, x in enumerate(X):
            # the label goes on the side away from the nearest other point, so neighbours' labels do not collide
            d = np.hypot(*(X - x).T)
            d[i] = np.inf
            left = len(X) > 1 and X[int(np.argmin(d)), 0] > x[0]
            self.labels.append(ax.annotate(str(i), x, xytext=(-7 if left else 7, 5), textcoords="offset points",
                                           ha="right" if left else "left", fontsize=s.legend_size, zorder=8,
                                           bbox=dict(boxstyle="round,pad=0.15", facecolor="#FFFFFF",
                                                     edgecolor="none", alpha=0.8)))

    def set(self, cases):
        mis, bnd = cases == "mistake", cases == "boundary"
        _plot.update_mistakes(self.cross, self.X, mis)
        self.square.set_data(self.X[bnd, 0], self.X[bnd, 1])
        if self.words:
            for i, (lab, c) in enumerate(zip(self.labels, cases, strict=True)):
                lab.set_text(f"{i}\n{c}")


def _data_axes(ax, X, y, *, pad=1.0, style=None):
    s = _style.get(style)
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    lo, hi = np.minimum(lo, -pad), np.maximum(hi, pad)  # keep the origin in view
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal", adjustable="box")
    ax.axhline(0, color="#BBBBBB", linewidth=s.thin_width * 0.7, zorder=1)
    ax.axvline(0, color="#BBBBBB", linewidth=s.thin_width * 0.7, zorder=1)
    ax.set_xlabel("x₁")
    ax.set_ylabel("x₂")
    _plot.draw_points(ax, X, y, style=s, legend=True, legend_loc="lower right")


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
    return ax3d.plot_surface(A, B, Z, color=color or _style.OKABE_ITO["orange"], alpha=alpha, linewidth=0,
                             shade=False, **kwargs)


def draw_subgradient_gap(ax, X, y, u, g, *, span=2.0, num=121, reduction="mean", colorbar=True, style=None):
    """The gap ``L(v) - L(u) - <g, v - u>`` over the slice of (w1, w2) through u at b = u[2].

    g is a subgradient at u exactly when the gap is >= 0 for every v. Where the gap is
    negative in the slice, the region is filled in vermillion and hatched: there the affine
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
    gap = _losses.loss_surface(X, y, V, reduction=reduction) - L_u - (V - u) @ g
    top = max(float(gap.max()), 1e-9)
    from matplotlib.ticker import MaxNLocator

    levels = MaxNLocator(10).tick_values(0.0, top)
    cf = ax.contourf(A, B, np.maximum(gap, 0.0), levels=levels[levels >= 0], cmap=_style.CMAP, zorder=0.5,
                     extend="max")
    if gap.min() < -1e-12:
        with mpl.rc_context({"hatch.color": "#FFFFFF", "hatch.linewidth": s.thin_width * 0.6}):
            ax.contourf(A, B, gap, levels=[gap.min() - 1.0, -1e-12], colors=[_style.POS_COLOR], hatches=["\\\\"],
                        zorder=0.7)
    ax.plot([u[0]], [u[1]], linestyle="none", marker="*", markersize=np.sqrt(s.marker_size) * 2.2,
            markerfacecolor=_style.CURSOR_COLOR, markeredgecolor="#000000", zorder=5)
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


# --------------------------------------------------------------------------- loss over (w1, w2)


class LossSlice:
    """Contours of a data loss over (w1, w2) at one value of b, with each example's kink line.

    The slice is the plane ``{(w1, w2, b) : b fixed}`` of parameter space. Example i has its
    kink on the line ``<w, x_i> + b = 0`` (`losses.kink_lines`), drawn dashed and labelled i; the
    set where the loss is 0 is hatched. `set_b` shows the slice at another b (the levels stay
    fixed, so colours compare); `set_point` and `set_path` move the marked point and path.

    Everything that depends on b (contours, hatching, kink lines and labels) forms one *layer*.
    Layers are built on first use and kept: going back to a b seen before only switches which
    layer is visible. `layer_artists(b)` gives a layer's artists, so a player can blit them.

    Parameters
    ----------
    ax : Axes
    X, y : the data (2 features)
    b : float
        The slice shown first.
    loss : {"perceptron", "zero_one", "hinge"}
    reduction : {"mean", "sum"}
    center, span : the box ``center +- span`` in (w1, w2); span a number or a pair
    num : grid points per axis
    levels : sequence, optional
        Filled levels (default: about 10 steps up to the loss's maximum over the box at the first b).
    kinks, kink_labels : bool
        Draw the kink lines, and label them with the example's index.
    colorbar : bool
    """

    def __init__(self, ax, X, y, *, b=0.0, loss="perceptron", reduction="mean", center=(0.0, 0.0), span=3.0,
                 num=121, levels=None, kinks=True, kink_labels=True, colorbar=True, style=None):
        self.s = s = _style.get(style)
        self.X, self.y = check_X_y(X, y)
        if self.X.shape[1] != 2:
            raise ValueError(f"LossSlice draws a loss over (w1, w2): X needs 2 features; got {self.X.shape[1]}.")
        self.ax, self.loss, self.reduction = ax, loss, reduction
        c = np.asarray(center, float)
        sp = np.broadcast_to(np.asarray(span, float), (2,))
        self.a = np.linspace(c[0] - sp[0], c[0] + sp[0], num)
        self.c = np.linspace(c[1] - sp[1], c[1] + sp[1], num)
        self.A, self.B = np.meshgrid(self.a, self.c)
        self.b = float(b)
        Z = self.values(self.b)
        self.levels = self._levels(Z) if levels is None else np.asarray(levels, float)
        self.kinks, self.kink_labels = kinks, kink_labels
        ax.set_xlim(self.a[0], self.a[-1])
        ax.set_ylim(self.c[0], self.c[-1])
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("w₁")
        ax.set_ylabel("w₂")
        self._layers = {}
        self._layer(self.b, Z)
        self.path = Line2D([], [], color="#FFFFFF", linewidth=s.line_width * 0.8, marker="o",
                           markersize=np.sqrt(s.marker_size) * 0.5, markeredgecolor="#000000", zorder=4)
        self.point = Line2D([], [], linestyle="none", marker="*", markersize=np.sqrt(s.marker_size) * 2.2,
                            markerfacecolor=_style.CURSOR_COLOR, markeredgecolor="#000000",
                            markeredgewidth=s.marker_edge * 1.5, zorder=5)
        ax.add_artist(self.path)
        ax.add_artist(self.point)
        self.colorbar = None
        if colorbar:
            self.colorbar = ax.figure.colorbar(self._layers[self.b]["sets"][0], ax=ax, shrink=0.85)
            self.colorbar.ax.tick_params(labelsize=s.tick_size)
            lv = self.levels
            ticks = (lv[:-1] + lv[1:]) / 2 if loss == "zero_one" else np.concatenate([[0.0], lv[3::2]])
            self.colorbar.set_ticks(ticks, labels=[_num(round(t, 3)) for t in ticks])
            self.colorbar.set_label(_NAMES.get(loss, loss), fontsize=s.label_size * 0.9)

    # -- values
    def values(self, b) -> np.ndarray:
        """The loss on the grid at offset b, shape (num, num)."""
        params = np.stack([self.A, self.B, np.full_like(self.A, float(b))], axis=-1)
        return _losses.loss_surface(self.X, self.y, params, loss=self.loss, reduction=self.reduction)

    def _levels(self, Z):
        n = len(self.X)
        unit = 1.0 / n if self.reduction == "mean" else 1.0
        if self.loss == "zero_one":
            return (np.arange(n + 2) - 0.5) * unit
        top = float(Z.max())
        if top <= 0:
            return np.array([0.0, 1e-12, unit])
        raw = top / 10
        mag = 10.0 ** np.floor(np.log10(raw))
        step = mag * min(m for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
        # the first band [0, 1e-12] is exactly the zero-loss set
        return np.concatenate([[0.0, 1e-12], np.arange(1, 12) * step])

    # -- layers
    def _layer(self, b, Z=None) -> dict:
        """The artists of the slice at b, built on first use."""
        if b in self._layers:
            return self._layers[b]
        import matplotlib as mpl

        ax, s = self.ax, self.s
        Z = self.values(b) if Z is None else Z
        extend = "neither" if self.loss == "zero_one" else "max"
        sets = [ax.contourf(self.A, self.B, Z, levels=self.levels, cmap=_style.CMAP, extend=extend, zorder=0.5),
                ax.contour(self.A, self.B, Z, levels=self.levels, colors="#FFFFFF", linewidths=s.thin_width * 0.4,
                           alpha=0.5, zorder=0.6)]
        if self.loss != "zero_one" and np.any(Z <= 0):
            with mpl.rc_context({"hatch.color": "#FFFFFF", "hatch.linewidth": s.thin_width * 0.6}):
                sets.append(ax.contourf(self.A, self.B, Z, levels=[-1.0, 1e-12], colors="none", hatches=["///"],
                                        zorder=0.7))
        lines, texts = [], []
        P = _losses.kink_lines(self.X, center=[0.0, 0.0, b])
        xl, yl = (self.a[0], self.a[-1]), (self.c[0], self.c[-1])
        for i, (p, q, r) in enumerate(P):
            seg = _plot.boundary_segment((p, q), r, xl, yl) if self.kinks and (p or q) else None
            if seg is None:
                continue
            ln = Line2D(seg[:, 0], seg[:, 1], color="#FFFFFF", linestyle=(0, (5, 3)), linewidth=s.thin_width,
                        zorder=3)
            ax.add_artist(ln)
            lines.append(ln)
            if self.kink_labels:
                # near one end of the segment, spread along it by index, so the labels of lines
                # through one point (all lines meet at w = 0 when b = 0) do not sit on each other
                at = seg[0] + (0.06 + 0.07 * (i % 3)) * (seg[1] - seg[0])
                texts.append(ax.text(at[0], at[1], str(i), fontsize=s.legend_size * 0.9, color="#000000", zorder=3.5,
                                     ha="center", va="center",
                                     bbox=dict(boxstyle="circle,pad=0.15", facecolor="#FFFFFF", edgecolor="none",
                                               alpha=0.85)))
        layer = self._layers[b] = {"sets": sets, "lines": lines, "texts": texts, "index": [i for i, (p, q, r) in
                                   enumerate(P) if self.kinks and (p or q) and _plot.boundary_segment((p, q), r, xl,
                                                                                                   yl) is not None]}
        return layer

    def layer_artists(self, b=None) -> list:
        """The artists of the layer at b (default: the one shown)."""
        lay = self._layer(self.b if b is None else float(b))
        return lay["sets"] + lay["lines"] + lay["texts"]

    def kink_segments(self) -> dict:
        """The kink lines drawn at the current b: {example index: (2, 2) array of the segment's ends}."""
        lay = self._layer(self.b)
        return {i: ln.get_xydata() for i, ln in zip(lay["index"], lay["lines"], strict=True)}

    # -- moving parts
    def set_b(self, b) -> bool:
        """Show the slice at another b; True if the picture changed."""
        b = float(b)
        if b == self.b:
            return False
        for a in self.layer_artists():
            a.set_visible(False)
        self.b = b
        for a in self.layer_artists(b):
            a.set_visible(True)
        return True

    def set_point(self, w1, w2) -> list:
        self.point.set_data([float(w1)], [float(w2)])
        return [self.point]

    def set_path(self, W) -> list:
        W = np.asarray(W, float).reshape(-1, 2)
        self.path.set_data(W[:, 0], W[:, 1])
        return [self.path]


# --------------------------------------------------------------------------- live views


class LossPlaneView:
    """Data space and parameter space side by side, linked: the boundary of (w, b) among the data,
    and the point (w1, w2) on the loss contours over (w1, w2) at this b.

    Use with ``LiveFigure(1, 2)``: ``view = LossPlaneView(live.axes, X, y)``, then
    ``live.bind(view.show, w1=..., w2=..., b=...)``. Mistakes are crossed and points on the
    boundary boxed in data space.
    """

    def __init__(self, axes, X, y, *, span=3.0, reduction="mean", loss="perceptron", num=101, style=None):
        s = self.s = _style.get(style)
        self.X, self.y = check_X_y(X, y)
        self.reduction, self.loss = reduction, loss
        ax_d, ax_p = axes[0], axes[1]
        self.ax_d, self.ax_p = ax_d, ax_p
        _data_axes(ax_d, self.X, self.y, style=s)
        self.boundary = _plot.draw_boundary(ax_d, [0.0, 0.0], 0.0, style=s)
        self.marks = _CaseMarks(ax_d, self.X, self.y, style=s)
        self.slice = LossSlice(ax_p, self.X, self.y, b=0.0, loss=loss, reduction=reduction, span=span, num=num,
                               style=s)
        self.text = ""

    def _move(self, w1, w2, b):
        w = np.array([float(w1), float(w2)])
        b = float(b)
        _plot.update_boundary(self.boundary, w, b, self.ax_d)
        self.slice.set_b(b)
        self.slice.set_point(*w)
        self.ax_p.title.set_text(f"loss over (w₁, w₂) at b = {_num(b)}")
        self.ax_d.title.set_text("data: boundary ⟨w, x⟩ + b = 0")
        sub = _losses.perceptron_subgradient(w, b, self.X, self.y)
        self.marks.set(sub.cases)
        return w, b, sub

    def _summary(self, w, b, cases) -> list:
        n = len(self.y)
        L = _losses.perceptron_loss(w, b, self.X, self.y, reduction=self.reduction)
        L01 = _losses.zero_one_loss(w, b, self.X, self.y, reduction="sum")

        def idx(name):
            i = np.flatnonzero(cases == name)
            return ", ".join(str(j) for j in i) if len(i) else "none"

        red = "mean" if self.reduction == "mean" else "sum"
        return [
            f"w = {_vec(w)}, b = {_num(b)}" + ("   (w = 0: no boundary, every score is 0)" if not np.any(w) else ""),
            f"perceptron loss L(w, b) = {L:.4f} ({red} over {n} examples)",
            f"0-1 loss: {_num(L01)} of {n} examples count as mistakes (y(⟨w,x⟩+b) ≤ 0)",
            f"mistakes (margin < 0): {idx('mistake')};  on the boundary (margin = 0): {idx('boundary')}",
        ]

    def show(self, w1, w2, b):
        w, b, sub = self._move(w1, w2, b)
        self.text = "\n".join(self._summary(w, b, sub.cases))
        return _readout_html(self.text)


class SubgradientView(LossPlaneView):
    """`LossPlaneView` plus subgradients: each point's case in words, and in parameter space each
    point's contribution to a subgradient of the loss as an arrow, tip to tail from (w1, w2),
    with their total as a thick black arrow.

    The arrows show the (w1, w2) parts, coloured by the class of their point (thin, tip to tail
    in the order of the points); the total is the thick translucent arrow from (w1, w2) to the
    last tip. The b parts are in the readout. With
    ``reduction="mean"`` point i contributes ``(1/N) g_i`` where ``g_i = (-y_i x_i, -y_i)``
    for a mistake, ``theta * (-y_i x_i, -y_i)`` on the boundary and 0 when correct.
    ``view.show(w1, w2, b, theta)``.
    """

    def __init__(self, axes, X, y, *, span=3.0, reduction="mean", num=101, style=None):
        super().__init__(axes, X, y, span=span, reduction=reduction, num=num, style=style)
        s = self.s
        self.marks.words = True
        self.arrows = [
            _plot.draw_arrow(self.ax_p, (0, 0), (0, 0), color=_style.POS_COLOR if yi > 0 else _style.NEG_COLOR,
                             width=s.arrow_width * 0.8, head=s.arrow_head * 0.8, zorder=6)
            for yi in self.y
        ]
        self.total = _plot.draw_arrow(self.ax_p, (0, 0), (0, 0), color="#000000", width=s.arrow_width * 2.2,
                                      head=s.arrow_head * 1.2, zorder=5.5, alpha=0.55)
        self.sub = None

    def show(self, w1, w2, b, theta=0.0):
        w, b, _ = self._move(w1, w2, b)
        sub = self.sub = _losses.perceptron_subgradient(w, b, self.X, self.y, at_kink=float(theta),
                                                        reduction=self.reduction)
        self.marks.set(sub.cases)
        n = len(self.y)
        share = sub.contributions / n if self.reduction == "mean" else sub.contributions
        tip = w.copy()
        for i, arr in enumerate(self.arrows):
            step = share[i, :2]
            if np.any(step):
                arr.set(tip, tip + step)
                tip = tip + step
            else:
                arr.hide()
        self.total.set(w, w + sub.gw)
        lines = self._summary(w, b, sub.cases)
        lines = lines[:2] + [f"θ at the kink = {_num(theta)}"]
        for i, c in enumerate(sub.cases):
            g = sub.contributions[i]
            lines.append(f"  point {i}: {c:<8}  g_{i} = (g_w | g_b) = {_vec(g[:2])} | {_num(g[2])}")
        scale = f"(1/{n}) · sum of the g_i" if self.reduction == "mean" else "sum of the g_i"
        lines.append(f"subgradient g = {scale} = {_vec(sub.gw)} | {_num(round(sub.gb, 4))}")
        self.text = "\n".join(lines)
        return _readout_html(self.text)


# --------------------------------------------------------------------------- player panel


class ContourPathPanel:
    """A player panel: the run's path (w1, w2) on the contours of the loss over (w1, w2).

    Parameters
    ----------
    b : "current" or float
        "current": the contours are the slice at the current b_k (the path is then the shadow of
        the run in that plane). A number: one fixed slice. For a run without offset
        (``fit_bias=False``) the slice is its fixed b either way.
    loss, reduction : as in `losses.loss_surface`
    span : float, optional
        Half-width of the box; default: the whole path and the origin, padded.
    max_layers : int
        With b = "current", the slices of up to this many distinct b values are built once and
        blitted (a step then costs a few ms more than a plain player's); past it, a step that
        changes b asks the player for a full redraw.
    """

    projection = None

    def __init__(self, *, b="current", loss="perceptron", reduction="mean", span=None, num=61, kinks=True,
                 max_layers=12):
        if not (b == "current" or isinstance(b, (int, float, np.floating, np.integer))):
            raise ValueError(f"b must be 'current' or a number; got {b!r}.")
        self.b_mode, self.loss, self.reduction = b, loss, reduction
        self.span, self.num, self.kinks, self.max_layers = span, num, kinks, max_layers
        self.redraw = False

    def draw(self, ax, run, X, y):
        W = np.asarray(run.history.w, float)
        if W.shape[1] != 2:
            raise ValueError(f"ContourPathPanel draws (w1, w2): the run needs 2 features; it has {W.shape[1]}.")
        self.run, self.W, self.Bs = run, W, np.asarray(run.history.b, float)
        self.follow = self.b_mode == "current" and bool(run.fit_bias)
        b0 = float(self.Bs[0]) if self.b_mode == "current" else float(self.b_mode)
        lo = np.minimum(W.min(axis=0), 0.0)
        hi = np.maximum(W.max(axis=0), 0.0)
        center = (lo + hi) / 2
        span = float(self.span) if self.span is not None else float(max(hi - lo) / 2 * 1.2 + 1.0)
        self.ax = ax
        self.slice = LossSlice(ax, X, y, b=b0, loss=self.loss, reduction=self.reduction, center=center, span=span,
                               num=self.num, kinks=self.kinks, colorbar=True)
        ax.grid(False)  # the contours are drawn over it when they are blitted
        moving = [self.slice.path, self.slice.point]
        bs = sorted(set(self.Bs.tolist())) if self.follow else [b0]
        self.blit_layers = self.follow and len(bs) <= self.max_layers
        if self.blit_layers:
            for bv in bs:
                arts = self.slice.layer_artists(bv)
                for a in arts:
                    a.set_visible(bv == b0)
                moving += arts
            moving.append(ax.title)
        self._title()
        self.moving = moving
        self.update(0)
        return moving

    def _title(self):
        self.ax.title.set_text(f"path over (w₁, w₂), b = {_num(self.slice.b)}")

    def update(self, k):
        if self.follow and self.slice.set_b(self.Bs[k]):
            self._title()
            if not self.blit_layers:
                self.redraw = True
        self.slice.set_path(self.W[: k + 1])
        self.slice.set_point(*self.W[k])
        if self.blit_layers:
            return [a for a in self.moving if a.get_visible()]
        return [self.slice.path, self.slice.point]


class RunSwitch(ShowsWidget):
    """Toggle buttons over a player that swap the run it shows (``player.set_run``).

    ``RunSwitch(player, {"label": run, ...})`` or values ``(run, X, y)`` when the data differ
    (e.g. flipped labels). The first entry should be the run the player was built with.
    Display the switch as a cell's last value: it shows the buttons above the player.
    """

    def __init__(self, player, runs: dict, *, description="run"):
        if not runs:
            raise ValueError("RunSwitch needs at least one run.")
        self.player = player
        self.runs = {k: (v if isinstance(v, tuple) else (v, None, None)) for k, v in runs.items()}
        self.buttons = widgets.ToggleButtons(options=list(self.runs), description=description,
                                             style={"button_width": "auto"})
        self.buttons.observe(self._on_change, names="value")
        self.widget = widgets.VBox([self.buttons, player.widget])
        self.widget.add_class("perceptron-runswitch")

    @property
    def value(self) -> str:
        return self.buttons.value

    def select(self, label):
        """Show the run named `label`, as a click on its button does."""
        if label not in self.runs:
            raise KeyError(f"no run named {label!r}; the runs are {list(self.runs)}.")
        self.buttons.value = label

    def _on_change(self, change):
        run, X, y = self.runs[change["new"]]
        self.player.set_run(run, X, y)

    def to_html(self, summary="No kernel? Step through the recorded runs", *, labels=None, **kwargs):
        """The static fallback: each run's animation (``player.to_html(**kwargs)``), titled by its
        label, in one closed ``<details>`` block (`perceptron_lib.widgets.fold`). The player shows
        the selected run again afterwards.

        `labels` picks the runs to include (default: all). Each animation costs about three figure
        builds, so a notebook may include only the runs a reader without a kernel most needs.
        """
        chosen = list(self.runs) if labels is None else list(labels)
        for label in chosen:
            if label not in self.runs:
                raise KeyError(f"no run named {label!r}; the runs are {list(self.runs)}.")
        # the run on show first: it needs no new figure, and the player is only rebuilt (once, at
        # the end) if another run was drawn
        order = sorted(chosen, key=lambda label: not self._showing(label))
        parts, swapped = {}, False
        try:
            for label in order:
                if not self._showing(label):
                    self.player.set_run(*self.runs[label])
                    swapped = True
                parts[label] = self.player.to_html(**kwargs)
        finally:
            if swapped:
                self.player.set_run(*self.runs[self.value])
        return fold(summary, *[(label, parts[label]) for label in chosen])

    def _showing(self, label) -> bool:
        """True if the player shows the run of `label` on its data."""
        run, X, y = self.runs[label]
        p = self.player
        return p.run is run and (X is None or np.array_equal(p.X, X)) and (y is None or np.array_equal(p.y, y))

    def __repr__(self):
        return f"<RunSwitch: {' | '.join(self.runs)}; showing {self.value}>"


