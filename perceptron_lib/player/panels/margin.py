"""Lesson 06's margin perceptron beside the maximum-margin line: a panel and a readout.

    best = max_margin_separator(X, y)                       # perceptron_lib.core.margins
    margins = [geometric margin of each state of the run]   # computed with core.margins, k = 0..K
    player = BrowserPlayer(run, X, y, panels=[MaxMarginPanel(best), CurvesPanel({...})],
                           readout=MarginReadout(margins, gamma_star=best.gamma, guarantee=g, eta=eta))

The panel follows the panel protocols (`panel_specs.FrontPanel`, `render`'s scene); the readout is the
player's ``readout(run, X, y, k)``. Both draw or print numbers computed elsewhere (`perceptron_lib.core`);
they compute nothing themselves but the view.
"""

from __future__ import annotations

import math

import numpy as np

from ...draw import plotting as _plot
from ...draw import style as _style
from .. import panel_specs as _spec
from ..readout import num, state_lines
from .averaged import LAST_COLOR, show_points

__all__ = ["MaxMarginPanel", "MarginReadout", "MAX_MARGIN_COLOR"]

#: the maximum-margin line, ochre (4.9:1 on white): not a class colour, not the green of the arrow w
MAX_MARGIN_COLOR = "#996600"


class MaxMarginPanel:
    """The data with the current line at step k (dashed, black) and the maximum-margin line (solid, ochre) with
    its margin band: the two thin lines at distance γ* on either side, on which its nearest points lie.

    Parameters
    ----------
    separator : Separator
        From `perceptron_lib.core.margins.max_margin_separator` on the player's data (unit w, margin gamma).
    pad : float
        Margin around the data, as a share of their range.
    """

    name = "maximum margin"
    projection = None

    def __init__(self, separator, *, pad: float = 0.08):
        w = np.asarray(separator.w, dtype=float)
        if w.shape != (2,) or not math.isclose(float(np.linalg.norm(w)), 1.0, rel_tol=1e-9):
            raise ValueError(f"MaxMarginPanel needs a Separator of 2-D data with a unit w; got w = {w.tolist()}.")
        self.separator = separator
        self.pad = float(pad)
        self.redraw = False

    def draw(self, ax, run, X, y):
        s = _style.current()
        X = np.asarray(X, dtype=float)
        show_points(ax, X, y, pad=self.pad)
        sep = self.separator
        best = _plot.draw_boundary(ax, sep.w, sep.b, color=MAX_MARGIN_COLOR, linewidth=s.line_width * 1.2,
                                   label="maximum margin")
        for side in (-1.0, 1.0):  # <w, x> + b = ±γ*: the band's edges
            _plot.draw_boundary(ax, sep.w, sep.b - side * sep.gamma, color=MAX_MARGIN_COLOR,
                                linewidth=s.line_width * 0.5, linestyle=":", label="_band")
        self.run = run
        self.current = _plot.draw_boundary(ax, run.history.w[0], run.history.b[0], color=LAST_COLOR,
                                           linewidth=s.line_width * 0.8, linestyle=(0, (4, 3)), label="current line")
        big = s.title_size > 16
        ax.set_title("maximum margin\nand current line" if big else "maximum-margin line and current line")
        if big and _plot.shares_row(ax):
            _plot.picture_legend(ax, [best, self.current], style=s)
        else:
            ax.legend(handles=[best, self.current], loc="upper center", bbox_to_anchor=(0.5, -0.1),
                      ncol=1 if big else 2, fontsize=s.legend_size, frameon=False)
        return [self.current]

    def update(self, k):
        h = self.run.history
        _plot.update_boundary(self.current, h.w[k], h.b[k])
        return [self.current]

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (`panel_specs.FrontPanel`): the maximum-margin line and its band drawn on
        the data panel (whose boundary is the current line), and its legend entry."""
        sep, s = self.separator, style
        width = s.line_width * 1.2
        lines = [_spec.overlay_line(sep.w, sep.b, color=MAX_MARGIN_COLOR, width=width, cls="pp-max-margin")]
        for side in (-1.0, 1.0):  # <w, x> + b = ±γ*: the band's edges
            lines.append(_spec.overlay_line(sep.w, sep.b - side * sep.gamma, color=MAX_MARGIN_COLOR,
                                            width=s.line_width * 0.5, linestyle=":", cls="pp-band"))
        return _spec.overlay("max_margin", K=len(run.history) - 1, lines=lines,
                             legend=[_spec.legend_entry("maximum margin", color=MAX_MARGIN_COLOR, width=width)],
                             name="the maximum-margin line and its band")


class MarginReadout:
    """The player's readout (`state_lines`) with the current line's geometric margin against γ* and the theorem's
    guarantee for the final line.

    Parameters
    ----------
    margins : array of length K + 1
        The geometric margin of each state k = 0..K (NaN where w = 0: no line).
    gamma_star : float
        The maximum margin of the data.
    guarantee : float
        The theorem's lower bound on the final line's margin, γ*/(2 + ηR²) (of the points (1, x) with an offset).
    eta : float
        The run's step, as the readout names it.
    """

    def __init__(self, margins, *, gamma_star: float, guarantee: float, eta: float):
        self.margins = np.asarray(margins, dtype=float).ravel()
        self.gamma_star, self.guarantee, self.eta = float(gamma_star), float(guarantee), float(eta)
        if not self.gamma_star > 0:
            raise ValueError(f"gamma_star must be a positive margin; got {gamma_star!r}.")

    def __call__(self, run, X, y, k) -> list:
        K = len(run.history) - 1
        if len(self.margins) != K + 1:
            raise ValueError(f"MarginReadout has {len(self.margins)} margins but the run has {K + 1} states.")
        k = min(max(int(k), 0), K)
        lines = state_lines(run, X, y, k)
        m = self.margins[k]
        if math.isnan(m):
            now = "no line yet (w = 0)"
        elif m > 0:
            now = f"{m:.4f}, {100 * m / self.gamma_star:.1f} % of the maximum γ* = {self.gamma_star:.4f}"
        else:  # not a share of γ*: "-2023.9 %" said nothing (tester 6)
            now = f"{m:.4f}, the line does not separate yet (γ* = {self.gamma_star:.4f})"
        lines.insert(1, f"Margin now: {now}; the theorem guarantees the final line at least {self.guarantee:.4f} "
                        f"(η = {num(self.eta)}).")
        return lines
