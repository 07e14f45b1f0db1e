"""Lesson 06's panels: the averaged line beside the current one, curves along a run, and the four answers on
the student's own points.

    from perceptron_lib.player.panels.averaged import AveragedLinePanel, CurvesPanel
    curves = CurvesPanel({"current line": e1, "averaged line": e2})
    player = BrowserPlayer(ar.run, X, y, panels=[AveragedLinePanel(ar), curves])

    fit = AnswersFit(epochs=10)                      # the editor's fit: fit_averaged, and the counts of step_errors
    editor = BrowserEditor(fit(X, y), X, y, fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout)

Both give the browser their numbers (``front``) and follow the scene protocol of `perceptron_lib.player.render`
for the still: ``draw(ax, run, X, y)`` once per scene returns the moving artists, ``update(k)`` moves them to
state k. They draw numbers computed elsewhere (`perceptron_lib.core.averaged`, and the vote's regions on a grid
in `.vote_regions`); they compute nothing themselves but the view.
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np
from matplotlib.lines import Line2D

from ...core.averaged import fit_averaged, step_errors
from ...draw import plotting as _plot
from ...draw import style as _style
from .. import panel_specs as _spec
from ..readout import state_lines
from .data import DataPanel
from .vote_regions import VOTE_GRID, VOTE_REACH, grid_over, traced_votes, vote_boundary

__all__ = ["AnswersFit", "AnswersPanel", "AveragedLinePanel", "CurvesPanel", "AVERAGED_COLOR", "LAST_COLOR",
           "POCKET_COLOR", "VOTE_COLOR", "show_points"]

#: the averaged line, deep violet (8.1:1 on white): not blue (class -1), not the green of the arrow w
AVERAGED_COLOR = "#5E3C99"
LAST_COLOR = _style.OKABE_ITO["black"]  #: the current line (state k), as the data panel draws it
#: the pocket's line, ochre (4.9:1 on white): not the pink of the update's arrow eta*y*x
POCKET_COLOR = "#996600"
#: the vote's boundary, dotted, wine (9.4:1 on white): not the grey of the dashed boundary before an update, which the
#: data panel draws beside it (testers 4 and 5), nor the pink of eta*y*x (lighter, an arrow) or a class colour
VOTE_COLOR = "#882255"
#: the answers an editor draws over its current line: (colour, dash, width as a share of the preset's line width)
_ANSWER_LOOKS = {"averaged": (AVERAGED_COLOR, "-", 1.2), "pocket": (POCKET_COLOR, "-.", 1.0),
                 "vote": (VOTE_COLOR, ":", 1.3)}
# each 3:1 on white (no sky blue: 2:1), none a class colour, none the cursor's dark grey, none an arrow's colour
# (green w, pink eta*y*x: the data panel beside the curves draws them); the second is the maximum-margin line's, and
# violet, the averaged line's, comes last, so that a curve of another line is not read as the average (06's guarantee)
_CURVE_COLORS = (_style.OKABE_ITO["black"], POCKET_COLOR, _style.PREV_BOUNDARY_COLOR, AVERAGED_COLOR)
_CURVE_DASHES = ("-", "--", "-.", ":")
#: a curve named as a line `AveragedLinePanel` draws is drawn in that line's colour and dash, so that the two
#: panels of one player read alike (lesson 06)
_LINE_LOOKS = {"current line": (LAST_COLOR, (0, (4, 3))), "averaged line": (AVERAGED_COLOR, "-")}


def _curve_look(label: str, j: int) -> tuple:
    """(colour, dash) of curve number j called `label` (`CurvesPanel`)."""
    return _LINE_LOOKS.get(label, (_CURVE_COLORS[j % len(_CURVE_COLORS)], _CURVE_DASHES[j % len(_CURVE_DASHES)]))


def show_points(ax, X, y, *, pad: float) -> None:
    """The points on equal axes that cover them, with `pad` of their range on each side (a panel's static part)."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    ax.set_xlim(lo[0] - pad * span[0], hi[0] + pad * span[0])
    ax.set_ylim(lo[1] - pad * span[1], hi[1] + pad * span[1])
    ax.set_aspect("equal", adjustable="box")
    _plot.draw_points(ax, X, y, legend=False)


class AveragedLinePanel:
    """The data with the averaged line at update k (solid, violet) and the current line (dashed, thin).

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

    def _averages(self, run) -> tuple:
        """(W, B): the averaged line at each state of `run`, which must be the averaged run's."""
        W, B = self.averaged.averages()
        if len(W) != len(run.history):
            raise ValueError(
                f"AveragedLinePanel got an averaged run with {len(W)} states but the player's run has "
                f"{len(run.history)}; pass averaged.run to the player."
            )
        return W, B

    def draw(self, ax, run, X, y):
        s = _style.current()
        X = np.asarray(X, dtype=float)
        self.W, self.B = self._averages(run)
        self.run = run
        show_points(ax, X, y, pad=self.pad)
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

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (`panel_specs.FrontPanel`): the averaged line at each step drawn on the
        data panel (whose boundary is the current line), and its legend entry; the numbers from
        `AveragedRun.averages`."""
        W, B = self._averages(run)
        K = len(run.history) - 1
        width = style.line_width * 1.2
        avg = _spec.overlay_line(W, B, color=AVERAGED_COLOR, width=width, cls="pp-averaged")
        return _spec.overlay("averaged", K=K, lines=[avg],
                             legend=[_spec.legend_entry("averaged line", color=AVERAGED_COLOR, width=width)],
                             name="the averaged line")


class CurvesPanel:
    """Several curves along a run (one value per state k = 0..K each), with a cursor at k.

    Curves labelled "current line" and "averaged line" take the colour and dash `AveragedLinePanel` gives
    those lines; the others take black, ochre, grey and violet, solid, dashed, dash-dotted and dotted.

    Parameters
    ----------
    curves : dict of label -> array of length K + 1
    ylabel : str
    title : str, optional
    ylim : (float, float), optional
        The vertical range (default: the curves'); a value outside it is shown by the readout only.
    """

    projection = None
    wide = True  # a curve along the run: in a player of three panels, a full-width row of its own

    def __init__(self, curves: dict, *, ylabel: str = "test error", title: str | None = None, ylim=None):
        if not curves:
            raise ValueError("CurvesPanel needs at least one curve: {label: values}.")
        if ylim is not None and not (len(ylim) == 2 and float(ylim[0]) < float(ylim[1])):
            raise ValueError(f"ylim must be (low, high) with low < high; got {ylim!r}.")
        self.ylim = None if ylim is None else (float(ylim[0]), float(ylim[1]))
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
            colour, dash = _curve_look(label, j)
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
        if self.ylim is not None:
            ax.set_ylim(*self.ylim)
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

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (`panel_specs.FrontPanel`): the curves with their dots at k and the
        cursor, as `draw` and `update` show them, in the same colours, dashes and words."""
        s = style
        K = len(run.history) - 1
        lines, legend, values = [], [], []
        ms = float(np.sqrt(s.marker_size))
        k = np.arange(K + 1)
        for j, (label, v) in enumerate(self.curves.items()):
            if len(v) != K + 1:
                raise ValueError(
                    f"CurvesPanel curve {label!r} has {len(v)} values but the run has {K + 1} states (k = 0..{K})."
                )
            colour, dash = _curve_look(label, j)
            width = s.line_width * 0.8
            lines.append(_spec.line(k, v, color=colour, width=width, linestyle=dash, dot=k, dot_size=ms * 1.1,
                                    dot_face=colour, dot_edge=_style.CURSOR_COLOR, dot_edge_width=s.marker_edge * 3))
            legend.append(_spec.legend_entry(label, color=colour, width=width, dash_=_spec.dash(dash, width)))
            values.append(v[np.isfinite(v)])
        found = np.concatenate(values)
        ylim = self.ylim or (_spec.padded(found.min(), found.max()) if len(found) else [0.0, 1.0])
        return _spec.chart("curves", K=K, title=self.title, xlabel="update k", ylabel=self.ylabel,
                           xlim=[-0.05 * max(K, 1), K * 1.05 + 0.5], ylim=ylim, lines=lines, cursor=k,
                           cursor_color=_style.CURSOR_COLOR, cursor_width=s.line_width * 0.9, legend=legend,
                           legend_at="right", name=f"{self.ylabel} along the run", wide=True)


class AnswersFit:
    """The fit for a `BrowserEditor` on noisy points: `fit_averaged`, and what `AnswersPanel` and `readout` show.

    ``fit(X, y)`` returns the run (the editor's contract) and keeps, for the latest run only, its
    `AveragedRun` and its `step_errors` (exact counts from `perceptron_lib.core.averaged`).

    Parameters
    ----------
    epochs : int
        Passes of each run (cyclic order, from w = 0, b = 0, test <= 0, eta = 1: the lesson's).
    """

    def __init__(self, *, epochs: int = 10):
        self.epochs = int(epochs)
        self.latest = None

    def browser(self) -> dict:
        """The recipe with which an editor's browser makes the same fit for points of its own
        (``front/answers_fit.js`` `fitAveraged`: `fit_averaged` with this many epochs and its defaults)."""
        return {"kind": "averaged", "epochs": self.epochs}

    def __call__(self, X, y):
        ar = fit_averaged(X, y, epochs=self.epochs)
        self.latest = (ar, step_errors(ar, X, y))
        return ar.run

    def answers(self, run):
        """(AveragedRun, StepErrors) of `run` if it is the latest fitted, else None (no points: the editor's
        empty run)."""
        if self.latest is None or self.latest[0].run is not run:
            return None
        return self.latest

    def readout(self, run, X, y, k) -> list:
        """The player's readout (`state_lines`) and a line with the four answers' training errors at update k."""
        lines = state_lines(run, X, y, k)
        got = self.answers(run)
        if got is None:
            return lines
        k = min(max(int(k), 0), len(run.history) - 1)
        e, pk = got[1].at(k), int(got[1].pocket_k[k])
        when = "at the start" if k == 0 else f"after update {k}"
        lines.insert(1, f"Training errors of the {len(y)} points {when}: current line {e['current']}, "
                        f"averaged line {e['averaged']}, pocket (state {pk}) {e['pocket']}, vote {e['vote']}.")
        return lines

    #: what the browser calls this readout: it words its own runs alike (``front/answers_fit.js`` `answersLine`)
    readout.browser_kind = "answers"


class AnswersPanel:
    """The points with the four answers as they stood just after update k: the current line (dashed), the
    averaged line (solid), the pocket's line (dash-dotted) and the vote's boundary (dotted, traced on a grid).

    Its numbers come from an `AnswersFit` (the run's `AveragedRun`: `averages`, the pocket of `step_errors`, the
    vote's regions of `.vote_regions`); a run the fit did not make (no points) shows the points only.

    Parameters
    ----------
    fit : AnswersFit
    pad : float
        Margin around the data, as a share of their range.
    """

    name = "four answers"
    projection = None

    def __init__(self, fit: AnswersFit, *, pad: float = 0.12):
        self.fit = fit
        self.pad = float(pad)
        self.redraw = False

    def _view(self, X):
        if len(X) == 0:
            return (-1.0, 1.0), (-1.0, 1.0)
        lo, hi = X.min(axis=0), X.max(axis=0)
        span = np.maximum(hi - lo, 0.25 * max(float(np.max(hi - lo)), 1e-9))
        mid = (lo + hi) / 2
        return tuple((mid[j] - span[j] * (0.5 + self.pad), mid[j] + span[j] * (0.5 + self.pad)) for j in (0, 1))

    def draw(self, ax, run, X, y):
        s = _style.current()
        X = np.asarray(X, dtype=float)
        xl, yl = self._view(X)
        ax.set_xlim(*xl)
        ax.set_ylim(*yl)
        ax.set_aspect("equal", adjustable="box")
        if len(y):
            _plot.draw_points(ax, X, y, legend=False)
        got = self.fit.answers(run)
        self.run, self.W, self.B, self.pk = run, None, None, None
        looks = [("current line", (LAST_COLOR, (0, (4, 3)), 0.7)), *_ANSWER_LOOKS.items()]
        self.lines = [Line2D([], [], color=c, linestyle=d, linewidth=s.line_width * f, label=name, zorder=3)
                      for name, (c, d, f) in looks]
        for line in self.lines:
            ax.add_artist(line)
        if got is not None:
            self.ar, self.errors = got
            self.W, self.B = self.ar.averages()
            self.gx, self.gy = grid_over(xl, yl)
        big = s.title_size > 16
        ax.set_title("four answers after update k" if not big else "four answers\nafter update k")
        if big and _plot.shares_row(ax):
            _plot.picture_legend(ax, self.lines, style=s)
        else:
            ax.legend(handles=self.lines, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=4, handlelength=1.6,
                      handletextpad=0.5, columnspacing=1.0, fontsize=s.legend_size, frameon=False)
        self.update(0)
        return list(self.lines)

    def update(self, k):
        current, avg, pocket_line, vote = self.lines
        if self.W is None:
            return list(self.lines)
        h = self.run.history
        _plot.update_boundary(current, h.w[k], h.b[k])
        _plot.update_boundary(avg, self.W[k], self.B[k])
        j = int(self.errors.pocket_k[k])
        _plot.update_boundary(pocket_line, h.w[j], h.b[j])
        pts = vote_boundary(self.ar, k, self.gx, self.gy)
        vote.set_data(pts[:, 0], pts[:, 1])
        return list(self.lines)

    # ------------------------------------------------------------------ in the browser (`BrowserEditor`)
    def browser(self) -> dict:
        """The recipe with which an editor's browser computes `front` for a run of its own (``front/answers_fit.js``
        `answersSpec`: the same numbers from its own `fit_averaged`, the vote traced on the same grid)."""
        patterns = {"-": None, "-.": mpl.rcParams["lines.dashdot_pattern"], ":": mpl.rcParams["lines.dotted_pattern"]}
        return {"kind": "answers", "name": "the four answers", "grid": VOTE_GRID, "reach": VOTE_REACH,
                "scale_dashes": bool(mpl.rcParams["lines.scale_dashes"]),
                "looks": {name: [c, None if patterns[d] is None else [float(v) for v in patterns[d]], f]
                          for name, (c, d, f) in _ANSWER_LOOKS.items()}}

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserEditor` (`panel_specs.FrontPanel`): an overlay on the data panel, whose boundary is
        the current line: the averaged line (solid, violet), the pocket's line (dash-dotted) and the vote's boundary
        (dotted: its pieces at each step over the data panel's view, `vote_regions.traced_votes`); the numbers from
        `AveragedRun.averages` and `step_errors`' pocket. A run the fit did not make (no points) has no answers:
        the overlay is empty."""
        K = len(run.history) - 1
        got = self.fit.answers(run)
        looks = {name: (c, d, style.line_width * f) for name, (c, d, f) in _ANSWER_LOOKS.items()}
        legend = [_spec.legend_entry(f"{name} line" if name != "vote" else "vote", color=c, width=w,
                                     dash_=_spec.dash(d, w)) for name, (c, d, w) in looks.items()]
        if got is None or not len(y):
            spec = _spec.overlay("answers", K=K, lines=[], legend=[], name="the four answers")
            spec["paths"] = []
            return spec
        ar, errors = got
        h = run.history
        W, B = ar.averages()
        pk = np.asarray(errors.pocket_k, dtype=int)
        (ca, da, wa), (cp, dp, wp), (cv, dv, wv) = looks.values()
        lines = [_spec.overlay_line(W, B, color=ca, width=wa, linestyle=da, cls="pp-averaged"),
                 _spec.overlay_line(h.w[pk], h.b[pk], color=cp, width=wp, linestyle=dp, cls="pp-pocket")]
        pieces = traced_votes(ar, *DataPanel(mode="plain").view_for(run, np.asarray(X, dtype=float)))
        spec = _spec.overlay("answers", K=K, lines=lines, legend=legend, name="the four answers")
        spec["paths"] = [{"pieces": pieces, "color": cv, "width": float(wv), "dash": _spec.dash(dv, wv),
                          "cls": "pp-vote"}]
        return spec

