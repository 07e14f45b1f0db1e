"""Small helpers shared by the drawing modules (`plotting`, `plot_arrows`, `plot_surfaces`)."""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D


def _vec(w, name="w") -> np.ndarray:
    a = np.asarray(w, dtype=float).ravel()
    if a.size == 0:
        raise ValueError(f"{name} is empty.")
    return a


def _limits(ax, xlim=None, ylim=None):
    xl = tuple(sorted(ax.get_xlim() if xlim is None else xlim))
    yl = tuple(sorted(ax.get_ylim() if ylim is None else ylim))
    return xl, yl


def _marker_size(s_area: float) -> float:
    """Line2D markersize (points, a diameter) matching a scatter size s (points squared)."""
    return float(np.sqrt(s_area))


def _empty_line_data(line: Line2D) -> None:
    line.set_data(np.empty(0), np.empty(0))
