"""Arrows on an Axes: the weight vector w, and an update's step from a point.

Part of the drawing layer; see `perceptron_lib.draw.plotting` for the conventions (object-oriented
matplotlib, sizes from a `Style`, moving artists added with ``ax.add_artist``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from matplotlib.patches import FancyArrowPatch

from . import style as _style
from ._drawing import _vec

__all__ = [
    "ArrowArtist",
    "w_arrow_anchor",
    "draw_w_arrow",
    "update_w_arrow",
    "draw_arrow",
    "draw_update_arrow",
    "update_arrow",
]


# --------------------------------------------------------------------------- arrows


@dataclass(eq=False)
class ArrowArtist:
    """An arrow from `start` to `end` (data coordinates) drawn by a FancyArrowPatch.

    `start` and `end` are the positions last given; the arrow is hidden when they coincide
    or are not finite.
    """

    patch: FancyArrowPatch
    start: np.ndarray = field(default_factory=lambda: np.zeros(2))
    end: np.ndarray = field(default_factory=lambda: np.zeros(2))
    head: float = 16.0  # largest head size (points); short arrows get a smaller head

    @property
    def delta(self) -> np.ndarray:
        return self.end - self.start

    def set(self, start, end) -> ArrowArtist:
        self.start = np.asarray(start, dtype=float).ravel()[:2].copy()
        self.end = np.asarray(end, dtype=float).ravel()[:2].copy()
        ok = bool(np.all(np.isfinite(self.start)) and np.all(np.isfinite(self.end)) and np.any(self.start != self.end))
        if ok:
            self.patch.set_positions(tuple(self.start), tuple(self.end))
            self.patch.set_mutation_scale(self._head_for_length())
        self.patch.set_visible(ok)
        return self

    def _head_for_length(self) -> float:
        """Head size: `head`, but at most 60% of the arrow's length on screen."""
        ax = self.patch.axes
        if ax is None:
            return self.head
        px = ax.transData.transform(np.array([self.start, self.end]))
        length_pt = float(np.hypot(*(px[1] - px[0]))) * 72.0 / ax.figure.dpi
        if not np.isfinite(length_pt):
            return self.head
        return max(2.0, min(self.head, 0.6 * length_pt))

    def hide(self) -> ArrowArtist:
        self.patch.set_visible(False)
        return self

    def get_visible(self) -> bool:
        return self.patch.get_visible()


def draw_arrow(ax, start, end, *, color, style=None, width=None, head=None, zorder=4, **kwargs) -> ArrowArtist:
    """A generic arrow from `start` to `end` in data coordinates (does not touch the limits)."""
    s = _style.get(style)
    props = dict(
        arrowstyle="-|>",
        mutation_scale=s.arrow_head if head is None else head,
        linewidth=s.arrow_width if width is None else width,
        color=color,
        shrinkA=0,
        shrinkB=0,
        zorder=zorder,
        capstyle="round",
        joinstyle="miter",
    )
    props.update(kwargs)
    patch = FancyArrowPatch((0, 0), (1, 1), **props)
    ax.add_artist(patch)
    return ArrowArtist(patch, head=float(props["mutation_scale"])).set(start, end)


def w_arrow_anchor(w, b) -> np.ndarray:
    """Where the w arrow starts: the boundary's point closest to the origin, -b*w/||w||^2 (origin if w = 0 or b = 0)."""
    w = _vec(w)[:2]
    nn = float(w @ w)
    if nn == 0.0 or not np.isfinite(nn) or b == 0:
        return np.zeros(2)
    return -float(b) * w / nn


def draw_w_arrow(ax, w, b, *, scale=1.0, anchor=None, style=None, **kwargs) -> ArrowArtist:
    """w as an arrow normal to the boundary, from `anchor` (default `w_arrow_anchor`) to anchor + scale*w.

    For a homogeneous perceptron (b = 0) it starts at the origin. Hidden when w = 0.
    Keep the axes' aspect equal (``ax.set_aspect("equal")``) so that it *looks* normal.
    """
    kwargs.setdefault("color", _style.W_COLOR)
    arrow = draw_arrow(ax, (0, 0), (0, 0), style=style, zorder=kwargs.pop("zorder", 6), **kwargs)
    return update_w_arrow(arrow, w, b, scale=scale, anchor=anchor)


def update_w_arrow(arrow: ArrowArtist, w, b, *, scale=1.0, anchor=None) -> ArrowArtist:
    """Move a w arrow to the state (w, b)."""
    w = _vec(w)[:2]
    a = w_arrow_anchor(w, b) if anchor is None else np.asarray(anchor, dtype=float).ravel()[:2]
    return arrow.set(a, a + scale * w)


def draw_update_arrow(ax, x_from, delta, *, style=None, **kwargs) -> ArrowArtist:
    """The update eta*y*x (or any step `delta`) as an arrow starting at `x_from`."""
    kwargs.setdefault("color", _style.UPDATE_COLOR)
    x_from = np.asarray(x_from, dtype=float).ravel()[:2]
    return draw_arrow(ax, x_from, x_from + np.asarray(delta, dtype=float).ravel()[:2], style=style,
                      zorder=kwargs.pop("zorder", 5), **kwargs)


def update_arrow(arrow: ArrowArtist, start, delta) -> ArrowArtist:
    """Move an arrow to start at `start` with vector `delta`."""
    start = np.asarray(start, dtype=float).ravel()[:2]
    return arrow.set(start, start + np.asarray(delta, dtype=float).ravel()[:2])
