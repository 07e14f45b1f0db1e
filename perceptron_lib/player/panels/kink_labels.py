"""Where the kink lines of a loss slice over (w1, w2) go in the view, and where their labels (the example's index
i) sit on them: clear of each other and of the run's path drawn over them. Used by `loss_slice.LossSlice` (the
kernel's drawing) and `loss_slice.ContourPathPanel.front` (the browser's), so that both place them alike.
"""

from __future__ import annotations

import numpy as np

from ...core import loss_surfaces as _loss_surfaces
from ...draw import plotting as _plot

__all__ = ["label_place", "kink_marks"]


def label_place(inner, i, placed, *, scale, clear) -> np.ndarray:
    """Where kink line i's label goes on its segment `inner`: near one end, spread along it by index (the
    lines through one point, all of them at w = 0 when b = 0, then keep their labels apart), at the first
    place along the line clear of the labels `placed` before it and of the path's states there too (lines that
    leave the view side by side put their labels next to each other: big lecture text made them overlap); if none
    is clear, the place farthest from them. `scale` is the view's sides, `clear` the least gap as a share of them."""
    first = 0.06 + 0.07 * (i % 3)
    along = [first] + [t for t in np.arange(0.06, 0.95, 0.07) if not np.isclose(t, first)]
    spots = [inner[0] + t * (inner[1] - inner[0]) for t in along]
    if not placed:
        return spots[0]
    gaps = [float(np.min(np.hypot(*((np.asarray(placed) - at) / scale).T))) for at in spots]
    return next((at for at, g in zip(spots, gaps, strict=True) if g >= clear), spots[int(np.argmax(gaps))])


def kink_marks(X, b, xlim, ylim, *, frac, avoid=()) -> list:
    """The kink lines of the slice at `b` that cross the view, with their labels' places: a list of
    (example index, (2, 2) segment, label centre). `frac` is a label's generous radius as a share of the view's
    side (the label's centre stays that far inside the view). The labels keep clear of each other and of the
    points `avoid` (the run's states w_0..w_K: a label there hid the path's dot or its star, at w = 0 most of
    all, where every kink line meets at b = 0: in lessons 01 and 02 a label's centre came 0.27 label radii from
    a state; now at least 2.2 in the notebook preset, 1.15 in the lecture's)."""
    xl, yl = tuple(map(float, xlim)), tuple(map(float, ylim))
    dx, dy = frac * (xl[1] - xl[0]), frac * (yl[1] - yl[0])
    box = ((xl[0] + dx, xl[1] - dx), (yl[0] + dy, yl[1] - dy))
    scale = np.array([xl[1] - xl[0], yl[1] - yl[0]])
    marks, placed = [], [np.asarray(p, float) for p in np.asarray(avoid, float).reshape(-1, 2)]
    for i, (p, q, r) in enumerate(_loss_surfaces.kink_lines(X, center=[0.0, 0.0, b])):
        seg = _plot.boundary_segment((p, q), r, xl, yl) if (p or q) else None
        if seg is None:
            continue
        inner = _plot.boundary_segment((p, q), r, *box)
        inner = seg if inner is None else inner  # the line only grazes a corner: its own ends
        at = label_place(inner, i, placed, scale=scale, clear=frac)
        placed.append(at)
        marks.append((i, np.asarray(seg, float), np.asarray(at, float)))
    return marks
