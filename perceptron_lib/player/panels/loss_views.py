"""Views for a two-axes `perceptron_lib.player.live.LiveFigure`: the data, and parameter space.

* `LossPlaneView`: the boundary of (w, b) among the data, next to the point (w1, w2) on the loss
  contours at b. ``view.show(w1, w2, b)`` moves both and returns the readout.
* `SubgradientView`: the same, plus every point's case and its subgradient contribution as an
  arrow in parameter space, tip to tail, with their total. ``view.show(w1, w2, b, theta)``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D

from ..._validation import check_X_y
from ...core import losses as _losses
from ...core import subgradients as _subgradients
from ...draw import arrows as _arrows
from ...draw import plotting as _plot
from ...draw import style as _style
from ..readout import num as _num
from ..readout import text_html as _readout_html
from ..readout import vec as _vec
from .loss_slice import LossSlice

__all__ = ["LossPlaneView", "SubgradientView"]


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
        self.labels, self.sides = [], []
        for i, x in enumerate(X):
            # the label goes on the side away from the nearest other point, so neighbours' labels do not collide
            d = np.hypot(*(X - x).T)
            d[i] = np.inf
            left = len(X) > 1 and X[int(np.argmin(d)), 0] > x[0]
            self.sides.append(left)
            self.off = 0.375 * np.sqrt(s.ring_size) + 2.5  # points: clear of the square that marks a case
            self.labels.append(ax.annotate(str(i), x, xytext=(-self.off if left else self.off, 0.7 * self.off),
                                           textcoords="offset points",
                                           ha="right" if left else "left", fontsize=s.legend_size, zorder=8,
                                           bbox=dict(boxstyle="round,pad=0.15", facecolor="#FFFFFF",
                                                     edgecolor="none", alpha=0.8)))

    def set(self, cases):
        mis, bnd = cases == "mistake", cases == "boundary"
        _plot.update_mistakes(self.cross, self.X, mis)
        self.square.set_data(self.X[bnd, 0], self.X[bnd, 1])
        if self.words:
            (x0, x1) = self.labels[0].axes.get_xlim() if self.labels else (0.0, 1.0)
            for i, (lab, c) in enumerate(zip(self.labels, cases, strict=True)):
                lab.set_text(f"{i}\n{c}")
                # a worded label is wide: near an edge of the view it goes toward the middle, so it stays
                # inside the axes; elsewhere away from the nearest other point, as the short label does
                frac = (self.X[i, 0] - x0) / (x1 - x0)
                left = frac > 0.7 or (frac >= 0.25 and self.sides[i])
                lab.set_horizontalalignment("right" if left else "left")
                lab.xyann = (-self.off if left else self.off, 0.7 * self.off)


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
        sub = _subgradients.perceptron_subgradient(w, b, self.X, self.y)
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
            f"wrong side (margin < 0): {idx('mistake')};  on the boundary (margin = 0): {idx('boundary')}",
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
            _arrows.draw_arrow(self.ax_p, (0, 0), (0, 0), color=_style.POS_COLOR if yi > 0 else _style.NEG_COLOR,
                             width=s.arrow_width * 0.8, head=s.arrow_head * 0.8, zorder=6)
            for yi in self.y
        ]
        self.total = _arrows.draw_arrow(self.ax_p, (0, 0), (0, 0), color="#000000", width=s.arrow_width * 2.2,
                                      head=s.arrow_head * 1.2, zorder=5.5, alpha=0.55)
        self.sub = None

    def show(self, w1, w2, b, theta=0.0):
        w, b, _ = self._move(w1, w2, b)
        sub = self.sub = _subgradients.perceptron_subgradient(w, b, self.X, self.y, at_kink=float(theta),
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
            case = {"mistake": "wrong side", "boundary": f"boundary (θ = {_num(theta)})"}.get(c, c)
            lines.append(f"  point {i}: {case:<18} g_w = {_vec(g[:2])}, g_b = {_num(g[2])}")
        scale = "mean of the g_i" if self.reduction == "mean" else "sum of the g_i"
        lines.append(f"g = {scale}:  g_w = {_vec(sub.gw)}, g_b = {_num(round(sub.gb, 4))}")
        self.text = "\n".join(lines)
        return _readout_html(self.text)
