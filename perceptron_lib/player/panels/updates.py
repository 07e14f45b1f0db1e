"""Pictures for lesson 03 (hyperplane updates): epochs, single updates, several runs, digit weights.

* `EpochPanel`: a player's panel with the updates made in each epoch (bars) and the examples
  misclassified after each epoch (line), both growing as the player steps; `draw_epoch_curves`
  draws the finished picture on any axes.
* `draw_update`: the state before and after one update, side by side, with the examples the
  update broke marked.
* `draw_final_boundaries`: the final boundaries of several runs over the data.
* `draw_weight_image`: a weight vector of 64 pixels as an 8x8 image, in a diverging colour map
  centred at 0, with a colorbar.

As everywhere in `perceptron_lib`, the numbers come from the run's history
(`perceptron_lib.core.analysis`); these functions only draw them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.transforms import ScaledTranslation

from ...core import analysis as _an
from ...core.curves import epoch_steps
from ...draw import plotting as _plot
from ...draw import style as _style
from .. import panel_specs as _spec
from ..readout import plural as _plural
from .data import DataPanel

__all__ = [
    "BAR_COLOR",
    "BROKEN_COLOR",
    "WEIGHT_CMAP",
    "EpochPanel",
    "draw_epoch_curves",
    "draw_update",
    "draw_final_boundaries",
    "draw_weight_image",
]

BAR_COLOR = _style.OKABE_ITO["sky_blue"]  #: bars: updates made during an epoch
#: squares around examples an update broke: the update's own colour (what this update did), not orange, which
#: reads as the vermillion of y = +1; the square and the legend's words carry the meaning as well
BROKEN_COLOR = _style.UPDATE_COLOR
#: Diverging in the classes' own colours: w_j < 0 (ink there pushes toward y = -1) blue, w_j > 0 (toward
#: y = +1) vermillion, 0 white; the same meaning the two colours have everywhere in the course.
WEIGHT_CMAP = "perceptron_classes"


def _weight_cmap():
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list(WEIGHT_CMAP, [_style.NEG_COLOR, "#FFFFFF", _style.POS_COLOR])


# --------------------------------------------------------------------------- epochs


class EpochPanel:
    """Updates in epoch t (bars) and examples misclassified after epoch t (line), up to step k.

    At step k the bars of finished epochs are full, the bar of the current epoch holds the
    updates made in it so far, and the line has a point for every epoch whose last update has
    been made (the state does not change after it until the next epoch). A vertical cursor
    marks the current epoch. "Misclassified" is the run's own update test, as in the readout.
    """

    name = "epochs"  #: in a player's panel picker
    projection = None

    def __init__(self, *, title="per epoch", legend=True):
        self.title = title
        self.legend = legend
        self.redraw = False

    def draw(self, ax, run, X, y):
        s = _style.current()
        self.run = run
        self.mpe = np.asarray(run.mistakes_per_epoch, dtype=int)
        self.err = _an.errors_after_epoch(run, X, y)
        self.ends = _an.epoch_ends(run)
        self.T = T = run.epochs
        t = np.arange(1, T + 1)
        self.bars = ax.bar(t, self.mpe, width=0.7, color=BAR_COLOR, edgecolor="#000000",
                           linewidth=s.thin_width * 0.6, zorder=2, label="updates in epoch t")
        # big lecture text: the longest label on two lines, so the legend is no wider than a narrow panel
        misclassified = "misclassified after epoch t" if s.legend_size <= 12 else "misclassified\nafter epoch t"
        (self.line,) = ax.plot(t, self.err, color=_style.CURVE_COLOR, linewidth=s.line_width * 0.8, marker="s",
                               markersize=np.sqrt(s.marker_size) * 0.8, zorder=4, label=misclassified)
        self.cursor = Line2D([1, 1], [0, 1], transform=ax.get_xaxis_transform(), color=_style.CURSOR_COLOR,
                             linewidth=s.line_width * 0.9, zorder=3, label="current epoch")
        ax.add_artist(self.cursor)
        top = max(int(self.mpe.max(initial=0)), int(self.err.max(initial=0)), 1)
        ax.set_ylim(0, top * 1.08 + 0.3)
        ax.set_xlim(0.4, T + 0.6)
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.set_xlabel("epoch t")
        ax.set_ylabel("examples")
        if self.title:
            ax.set_title(self.title)
        if self.legend and s.legend_size > 12 and _plot.shares_row(ax):
            # big lecture text beside the data panel: in the picture's one legend, not in a band of its own
            _plot.picture_legend(ax, [self.bars, self.line, self.cursor], style=s)
        elif self.legend:
            ncol = 2 if s.legend_size <= 12 else 1  # big lecture text: one column, so it fits under the panel
            # under the tick labels and the x label whatever the axes' height (an offset in points, as the data
            # panel's legend): a share of the axes' height put it on the x label of the lecture's big text
            below = ScaledTranslation(0, -(1.25 * (s.tick_size + s.label_size) + 10) / 72, ax.figure.dpi_scale_trans)
            ax.legend(handles=[self.bars, self.line, self.cursor], loc="upper center", bbox_to_anchor=(0.5, 0.0),
                      bbox_transform=ax.transAxes + below, ncol=ncol, fontsize=s.legend_size, frameon=False,
                      handlelength=1.6, columnspacing=1.0)
        self.update(len(run.history) - 1)
        return list(self.bars.patches) + [self.line, self.cursor]

    def current_epoch(self, k: int) -> int:
        """The epoch shown as current at step k: that of update k (1 at the start, the last at the end)."""
        K = len(self.run.history) - 1
        if k >= K:
            return self.T
        if k <= 0:
            return 1
        return int(self.run.history.epoch[k - 1])

    def update(self, k):
        K = len(self.run.history) - 1
        k = min(max(int(k), 0), K)
        e = self.current_epoch(k)
        epochs = self.run.history.epoch[:k]
        for t, bar in enumerate(self.bars.patches, start=1):
            bar.set_height(int(np.count_nonzero(epochs == t)))
        done = self.ends[1:] <= k
        if k < K:
            done &= np.arange(1, self.T + 1) < e  # the current epoch is not over yet
        t = np.arange(1, self.T + 1)
        self.line.set_data(t[done], self.err[done])
        self.cursor.set_xdata([e, e])
        return list(self.bars.patches) + [self.line, self.cursor]

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (`panel_specs.FrontPanel`): the bars, the line and the cursor at each
        step, as `update` shows them; the numbers from `core.curves.epoch_steps`."""
        s = style
        K = len(run.history) - 1
        e = epoch_steps(run, X, y)
        T = len(e.errors)
        t = np.arange(1, T + 1)
        ms = float(np.sqrt(s.marker_size))
        misclassified = "misclassified after epoch t" if s.legend_size <= 12 else "misclassified\nafter epoch t"
        top = max(int(e.updates[-1].max(initial=0)), int(e.errors.max(initial=0)), 1)
        bar_set = _spec.bars(t, e.updates, color=BAR_COLOR, edge="#000000", edge_width=s.thin_width * 0.6)
        curve = _spec.line(t, e.errors, color=_style.CURVE_COLOR, width=s.line_width * 0.8, marker="s",
                           marker_size=ms * 0.8, upto=e.done)
        legend = [_spec.legend_entry("updates in epoch t", color=BAR_COLOR, shape="bar"),
                  _spec.legend_entry(misclassified, color=_style.CURVE_COLOR, width=s.line_width * 0.8, marker="s"),
                  _spec.legend_entry("current epoch", color=_style.CURSOR_COLOR, width=s.line_width * 0.9)]
        return _spec.chart("epochs", K=K, title=self.title or None, xlabel="epoch t", ylabel="examples",
                           xlim=[0.4, T + 0.6], ylim=[0, top * 1.08 + 0.3], lines=[curve], bar_sets=[bar_set],
                           cursor=e.current, cursor_color=_style.CURSOR_COLOR, cursor_width=s.line_width * 0.9,
                           legend=legend if self.legend else [], yinteger=True, name="updates and errors per epoch")


def draw_epoch_curves(ax, run, X, y, *, title="per epoch", legend=True) -> EpochPanel:
    """The finished `EpochPanel` picture (every epoch, no cursor) on a given axes."""
    p = EpochPanel(title=title, legend=False)
    p.draw(ax, run, X, y)
    p.cursor.set_visible(False)
    if legend:
        s = _style.current()
        ax.legend(handles=[p.bars, p.line], loc="upper right", fontsize=s.legend_size, framealpha=0.9)
    return p


# --------------------------------------------------------------------------- one update


def draw_update(axes, run, X, y, k: int, *, legend=True, arrow_scale=None):
    """The state before update k (left) and after it (right), for 2-D data.

    Left: the boundary and w before, the example about to be updated ringed, the misclassified
    examples crossed. Right: the player's picture of update k (the boundary before dashed, the
    arrows w before + eta*y*x = w after), with squares in the update's colour (reddish purple) around the
    examples this update broke. `arrow_scale` fixes the scale of the right panel's arrows (by default the
    largest of 1, 1/2, 1/5, ... that keeps w in 40 % of the view; a step much shorter than w then sits on
    top of the two w arrows, and a larger scale pulls them apart). The titles count the mistakes
    (y(<w,x>+b) ≤ 0 under the run's test) before and after. Returns the
    `perceptron_lib.core.analysis.UpdateEffect` of update k.
    """
    ax0, ax1 = axes
    K = len(run.history) - 1
    if not isinstance(k, (int, np.integer)) or not 1 <= k <= K:
        raise ValueError(f"k must be an update of the run, from 1 to {K}; got {k!r}.")
    effect = _an.update_effects(run, X, y)[k - 1]
    s = _style.current()
    after = DataPanel(legend=legend, arrow_scale=arrow_scale)
    after.draw(ax1, run, np.asarray(X, float), np.asarray(y, float))
    after.update(k)
    before = DataPanel(legend=False, show_previous=False, arrow_scale=arrow_scale)
    before.draw(ax0, run, np.asarray(X, float), np.asarray(y, float))
    before.update(k - 1)
    before.ghost.hide()
    before.update_arrow.hide()
    own = [effect.i] if effect.i >= 0 else list(run.history[k].batch)
    _plot.update_ring(before.ring, before.P[own])
    broken = Line2D(before.P[effect.broke, 0], before.P[effect.broke, 1], linestyle="none", marker="s",
                    markersize=np.sqrt(s.ring_size) * 0.6, markerfacecolor="none", markeredgecolor=BROKEN_COLOR,
                    markeredgewidth=s.ring_width * 0.75, zorder=7, label="broken by this update")
    ax1.add_artist(broken)
    # set_text, not set_title: the panels lifted their titles over the arrow-scale note; set_title would
    # put them back on it
    ax0.title.set_text(f"before update {k}: {_plural(effect.errors_before, 'mistake')}")
    ax1.title.set_text(f"after update {k}: {_plural(effect.errors_after, 'mistake')}")
    if len(effect.broke):
        after.add_to_legend(broken)  # the player's legend, plus the squares
    return effect


# --------------------------------------------------------------------------- several runs


def draw_final_boundaries(ax, X, y, runs, *, title=None, pad=0.12, legend=True):
    """The data and the final boundary of each run (thin black lines), in one picture."""
    s = _style.current()
    X = np.asarray(X, dtype=float)
    lo, hi = X[:, :2].min(axis=0), X[:, :2].max(axis=0)
    half = (hi - lo) * (0.5 + pad)
    mid = (lo + hi) / 2
    ax.set_xlim(mid[0] - half[0], mid[0] + half[0])
    ax.set_ylim(mid[1] - half[1], mid[1] + half[1])
    ax.set_aspect("equal", adjustable="box")
    _plot.draw_points(ax, X, y, legend=legend, legend_loc="lower left")
    lines = [_plot.draw_boundary(ax, r.w, r.b, linewidth=s.thin_width, alpha=0.85) for r in runs]
    ax.set_xlabel("x₁")
    ax.set_ylabel("x₂")
    if title:
        ax.set_title(title)
    return lines


# --------------------------------------------------------------------------- digits


def draw_weight_image(ax, w, *, shape=(8, 8), title=None, cmap=WEIGHT_CMAP, colorbar=True, label="weight $w_j$"):
    """Show a weight vector as an image (row-major `shape`), colour scale symmetric about 0."""
    W = np.asarray(w, dtype=float).reshape(shape)
    v = float(np.abs(W).max()) or 1.0
    im = ax.imshow(W, cmap=_weight_cmap() if cmap == WEIGHT_CMAP else cmap, vmin=-v, vmax=v, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    if title:
        ax.set_title(title)
    if colorbar:
        s = _style.current()
        cb = ax.figure.colorbar(im, ax=ax, shrink=0.85)
        cb.ax.tick_params(labelsize=s.tick_size)
        cb.set_label(label, fontsize=s.label_size)
    return im


# --------------------------------------------------------------------------- display helpers
