"""Lesson 06's panels: the averaged line beside the current one, and curves along a run.

    from perceptron_lib.player.panels.averaged import AveragedLinePanel, CurvesPanel
    curves = CurvesPanel({"current line": e1, "averaged line": e2})
    player = StepThrough(ar.run, X, y, panels=[AveragedLinePanel(ar), curves])

Both follow the player's panel protocol (`perceptron_lib.player.stepthrough`): ``draw(ax, run, X, y)`` once per
scene returns the moving artists, ``update(k)`` moves them to state k. They draw numbers computed
elsewhere (`perceptron_lib.core.averaged`); they compute nothing themselves but the view.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D

from ...draw import plotting as _plot
from ...draw import style as _style

__all__ = ["AveragedLinePanel", "CurvesPanel", "AVERAGED_COLOR", "LAST_COLOR"]

AVERAGED_COLOR = _style.OKABE_ITO["bluish_green"]  #: the averaged line (not blue: blue is class -1)
LAST_COLOR = _style.OKABE_ITO["black"]  #: the current line (state k), as the data panel draws it
# each 3:1 on white (no sky blue: 2:1), none a class colour, none the cursor's dark grey
_CURVE_COLORS = (_style.OKABE_ITO["black"], _style.OKABE_ITO["bluish_green"], _style.OKABE_ITO["reddish_purple"],
                 _style.PREV_BOUNDARY_COLOR)
_CURVE_DASHES = ("-", "--", "-.", ":")
#: a curve named as a line `AveragedLinePanel` draws is drawn in that line's colour and dash, so that the two
#: panels of one player read alike (lesson 06)
_LINE_LOOKS = {"current line": (LAST_COLOR, (0, (4, 3))), "averaged line": (AVERAGED_COLOR, "-")}


class AveragedLinePanel:
    """The data with the averaged line at update k (solid, green) and the current line (dashed, thin).

    Parameters
    ----------
    averaged : AveragedRun
        From `perceptron_lib.core.averaged.fit_averaged`; the player's run must be ``averaged.run``.
    pad : float
        Margin around the data, as a share of their range.
    title : str, optional
        Default: "averaged line (solid), current line (dashed)"; in the lecture preset "averaged line / and
        current line" on two lines (the legend says which is solid).
    """

    name = "averaged line"  #: in a player's panel picker
    projection = None

    def __init__(self, averaged, *, pad: float = 0.08, title: str | None = None):
        self.averaged = averaged
        self.pad = float(pad)
        self.title = title
        self.redraw = False

    def draw(self, ax, run, X, y):
        s = _style.current()
        X = np.asarray(X, dtype=float)
        self.W, self.B = self.averaged.averages()
        if len(self.W) != len(run.history):
            raise ValueError(
                f"AveragedLinePanel got an averaged run with {len(self.W)} states but the player's run has "
                f"{len(run.history)}; pass averaged.run to the player."
            )
        self.run = run
        lo, hi = X.min(axis=0), X.max(axis=0)
        span = np.maximum(hi - lo, 1e-9)
        ax.set_xlim(lo[0] - self.pad * span[0], hi[0] + self.pad * span[0])
        ax.set_ylim(lo[1] - self.pad * span[1], hi[1] + self.pad * span[1])
        ax.set_aspect("equal", adjustable="box")
        _plot.draw_points(ax, X, y, legend=False)
        self.last = _plot.draw_boundary(ax, run.history.w[0], run.history.b[0], color=LAST_COLOR,
                                        linewidth=s.line_width * 0.6, linestyle=(0, (4, 3)), label="current line")
        self.avg = _plot.draw_boundary(ax, self.W[0], self.B[0], color=AVERAGED_COLOR, linewidth=s.line_width * 1.2,
                                       label="averaged line")
        big = s.title_size > 16
        # big lecture text: two short lines, so the title fits the panel (in a lecture player two panels share
        # the picture's width, and the data panel's legend leaves them short, so narrow: equal aspect); the
        # legend under it says which line is solid and which dashed
        title = "averaged line\nand current line" if big else "averaged line (solid), current line (dashed)"
        ax.set_title(self.title or title)
        # under the axes (as the data panel's legend): on them it would hide points; big lecture text beside the
        # data panel joins the picture's one legend (two legends under two panels took the panels' height)
        if big and _plot.shares_row(ax):
            _plot.picture_legend(ax, [self.avg, self.last], style=s)
        else:
            ax.legend(handles=[self.avg, self.last], loc="upper center", bbox_to_anchor=(0.5, -0.1),
                      ncol=1 if big else 2, fontsize=s.legend_size, frameon=False)
        return [self.last, self.avg]

    def update(self, k):
        h = self.run.history
        _plot.update_boundary(self.last, h.w[k], h.b[k])
        _plot.update_boundary(self.avg, self.W[k], self.B[k])
        return [self.last, self.avg]


class CurvesPanel:
    """Several curves along a run (one value per state k = 0..K each), with a cursor at k.

    Curves labelled "current line" and "averaged line" take the colour and dash `AveragedLinePanel` gives
    those lines; the others take black, green, purple and grey, solid, dashed, dash-dotted and dotted.

    Parameters
    ----------
    curves : dict of label -> array of length K + 1
    ylabel : str
    title : str, optional
    """

    projection = None
    wide = True  # a curve along the run: in a player of three panels, a full-width row of its own

    def __init__(self, curves: dict, *, ylabel: str = "test error", title: str | None = None):
        if not curves:
            raise ValueError("CurvesPanel needs at least one curve: {label: values}.")
        self.curves = {str(k): np.asarray(v, dtype=float).ravel() for k, v in curves.items()}
        self.ylabel = ylabel
        self.title = title
        self.redraw = False

    def draw(self, ax, run, X, y):
        s = _style.current()
        n = len(run.history)
        for label, v in self.curves.items():
            if len(v) != n:
                raise ValueError(
                    f"CurvesPanel curve {label!r} has {len(v)} values but the run has {n} states (k = 0..{n - 1})."
                )
        self.dots = []
        for j, (label, v) in enumerate(self.curves.items()):
            colour, dash = _LINE_LOOKS.get(label, (_CURVE_COLORS[j % len(_CURVE_COLORS)],
                                                   _CURVE_DASHES[j % len(_CURVE_DASHES)]))
            ax.plot(np.arange(n), v, color=colour, linestyle=dash, linewidth=s.line_width * 0.8, label=label, zorder=3)
            dot = Line2D([], [], linestyle="none", marker="o", markersize=np.sqrt(s.marker_size) * 1.1,
                         markerfacecolor=colour, markeredgecolor=_style.CURSOR_COLOR,
                         markeredgewidth=s.marker_edge * 3, zorder=5)
            ax.add_artist(dot)
            self.dots.append((dot, v))
        self.cursor = Line2D([0, 0], [0, 1], transform=ax.get_xaxis_transform(), color=_style.CURSOR_COLOR,
                             linewidth=s.line_width * 0.9, zorder=4)
        ax.add_artist(self.cursor)
        ax.set_xlim(-0.05 * max(n - 1, 1), (n - 1) * 1.05 + 0.5)  # room for the cursor's dots at either end
        ax.set_xlabel("update k")
        ax.set_ylabel(self.ylabel)
        # beside the axes, not on them: a legend inside would cover the curves somewhere along the run
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=s.legend_size,
                  frameon=False)
        if self.title:
            ax.set_title(self.title)
        self.update(0)
        return [self.cursor] + [d for d, _ in self.dots]

    def update(self, k):
        self.cursor.set_xdata([k, k])
        for dot, v in self.dots:
            dot.set_data([k], [v[k]])
        return [self.cursor] + [d for d, _ in self.dots]
