"""Views for a two-axes `perceptron_lib.player.live.LiveFigure`: the data, and parameter space.

* `LossPlaneView`: the boundary of (w, b) among the data, next to the point (w1, w2) on the loss
  contours at b. ``view.show(w1, w2, b)`` moves both and returns the readout.
* `SubgradientView`: the same, plus every point's case and its subgradient contribution as an
  arrow in parameter space, tip to tail, with their total. ``view.show(w1, w2, b, theta)``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox, ScaledTranslation

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


class _LabelPlacer(Artist):
    """Places the case labels of a `_CaseMarks` as the figure is drawn, on the measured picture.

    It draws nothing itself: drawn just before the labels (its zorder is just under theirs), it measures
    each label at each of its candidate places (`_CaseMarks.places`), keeps those inside the axes, and
    chooses one place a label so that labels cover as few other points and other labels as they can:
    each label in turn takes its best place given the others', a few rounds (earlier places first on a
    tie). Measured, not estimated: a worded label ("1\nboundary") in the lecture preset was a third of the
    panel wide, and a fixed rule ran it out of the axes near an edge or over its neighbour.
    """

    ROUNDS = 4

    def __init__(self, marks, zorder):
        super().__init__()
        self.marks = marks
        self.set_zorder(zorder)
        self.set_in_layout(False)  # it has no extent of its own

    @staticmethod
    def _put(lab, place):
        lab.xyann = place[0]
        lab.set_horizontalalignment(place[1][0])
        lab.set_verticalalignment(place[1][1])

    def draw(self, renderer):
        m = self.marks
        if not self.get_visible() or not m.labels:
            return
        ax = m.labels[0].axes
        box = ax.bbox
        half = m.half_px(renderer)
        pts = ax.transData.transform(m.X)
        dots = [Bbox.from_extents(x - half, y - half, x + half, y + half) for x, y in pts]
        options = []  # per label: [(place, its box, how many other points it covers)]
        for i, lab in enumerate(m.labels):
            opts = []
            for place in m.places(i):
                self._put(lab, place)
                ext = lab.get_window_extent(renderer)
                if ext.x0 >= box.x0 and ext.x1 <= box.x1 and ext.y0 >= box.y0 and ext.y1 <= box.y1:
                    opts.append((place, ext, sum(ext.overlaps(d) for j, d in enumerate(dots) if j != i)))
            options.append(opts or [(m.places(i)[0], None, 0)])  # nowhere inside (a tiny view): the first
        pick = [0] * len(options)

        def cost(i, o):
            ext = options[i][o][1]
            if ext is None:
                return 0
            return options[i][o][2] + sum(
                ext.overlaps(options[j][pick[j]][1]) for j in range(len(options))
                if j != i and options[j][pick[j]][1] is not None)

        for _ in range(self.ROUNDS):
            changed = False
            for i in range(len(options)):
                best = min(range(len(options[i])), key=lambda o: (cost(i, o), o))
                if cost(i, best) < cost(i, pick[i]):
                    pick[i], changed = best, True
            if not changed:
                break
        for lab, opts, o in zip(m.labels, options, pick, strict=True):
            self._put(lab, opts[o][0])


class _CaseMarks:
    """Each point's case at (w, b): a cross for a mistake, a square for the boundary, and its index."""

    def __init__(self, ax, X, y, *, style=None, words=False):
        s = self.s = _style.get(style)
        self.X, self.y, self.words = X, y, words
        self.cross = _plot.mark_mistakes(ax, X, np.zeros(len(X), bool), style=s)
        self.square = Line2D([], [], linestyle="none", marker="s", markersize=np.sqrt(s.ring_size) * 0.75,
                             markerfacecolor="none", markeredgecolor="#000000", markeredgewidth=s.ring_width * 0.8,
                             zorder=6)
        ax.add_artist(self.square)
        self.labels, self.sides = [], []
        # A worded label ("1: boundary") is wide: in the lecture preset one line of text a little smaller than
        # the legend's (still above the preset's least size), so that six of them find room among the points
        # of a panel; the notebook's small text keeps the index over the word.
        big = s.legend_size > 12
        self.word_sep = ": " if big else "\n"
        size = max(s.legend_size * 0.85, 15.0) if big else s.legend_size
        self.off = 0.375 * np.sqrt(s.ring_size) + 2.5  # points: clear of the square that marks a case
        for i, x in enumerate(X):
            # the label goes first on the side away from the nearest other point, so neighbours' labels do not
            # collide; `_LabelPlacer` moves it where it fits when it is drawn
            d = np.hypot(*(X - x).T)
            d[i] = np.inf
            left = len(X) > 1 and X[int(np.argmin(d)), 0] > x[0]
            self.sides.append(left)
            self.labels.append(ax.annotate(str(i), x, xytext=(-self.off if left else self.off, 0.7 * self.off),
                                           textcoords="offset points",
                                           ha="right" if left else "left", fontsize=size, zorder=8,
                                           bbox=dict(boxstyle="round,pad=0.15", facecolor="#FFFFFF",
                                                     edgecolor="none", alpha=0.8)))
        ax.add_artist(_LabelPlacer(self, zorder=7.99))

    def half_px(self, renderer) -> float:
        """Half the side of a point's box in pixels: its square mark (the largest of its marks)."""
        return 0.5 * np.sqrt(self.s.ring_size) * 0.75 * renderer.points_to_pixels(1.0)

    def places(self, i) -> list:
        """Label i's candidate places, best first: ((dx, dy) in points, (ha, va))."""
        o, left = self.off, self.sides[i]
        sides = [(-o, "right"), (o, "left")] if left else [(o, "left"), (-o, "right")]
        out = []
        for far in (1.0, 2.0):  # next to the point, then a little farther (the index in the label names it)
            out += [((far * dx, far * 0.35 * o), (ha, "bottom")) for dx, ha in sides]
            out += [((far * dx, -far * 0.35 * o), (ha, "top")) for dx, ha in sides]
            out += [((0.0, far * o), ("center", "bottom")), ((0.0, -far * o), ("center", "top"))]
        return out

    def set(self, cases):
        mis, bnd = cases == "mistake", cases == "boundary"
        _plot.update_mistakes(self.cross, self.X, mis)
        self.square.set_data(self.X[bnd, 0], self.X[bnd, 1])
        if self.words:
            for i, (lab, c) in enumerate(zip(self.labels, cases, strict=True)):
                lab.set_text(f"{i}{self.word_sep}{c}")


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
    pts = _plot.draw_points(ax, X, y, style=s, legend=False)
    # the legend under the axes (below the tick labels and the x label, an offset in points), where no point,
    # boundary or label can run through it: inside, wherever it went, some (w, b) put the boundary on it
    below = ScaledTranslation(0, -(1.25 * (s.tick_size + s.label_size) + 10) / 72, ax.figure.dpi_scale_trans)
    ax.legend(handles=[pts.pos, pts.neg], loc="upper center", bbox_to_anchor=(0.5, 0.0),
              bbox_transform=ax.transAxes + below, ncol=2,
              fontsize=s.legend_size, frameon=False, handletextpad=0.4, columnspacing=1.2)


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
        sep = "\n" if self.s.title_size > 16 else " "  # big lecture titles: two short lines, as wide as a panel
        self.ax_p.title.set_text(f"loss over (w₁, w₂){sep}at b = {_num(b)}")
        self.ax_d.title.set_text(f"data: boundary{sep}⟨w, x⟩ + b = 0")
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
