"""The voted perceptron's regions on a grid, for lesson 06's `AnswersPanel`: the vote's label at every grid point
just after each update, and the boundary between its +1 and -1 as contourpy traces it.

    gx, gy = grid_over(xlim, ylim, reach=VOTE_REACH)
    labels = vote_labels(ar, grid_points(gx, gy))  # (K + 1, m): +1 or -1
    pieces = traced_votes(ar, xlim, ylim)          # the boundary at each step, as the browser gets it

The vote is not a line, so it is traced on a grid (`VOTE_GRID` points a side). The browser computes the same for
runs of its own (``front/answers_vote.js``: `voteLabels`, `levelPieces`), held equal to these by
``tests/test_browser_answers.py``. Pure: no drawing; the numbers of the vote come from
`perceptron_lib.core.averaged`.
"""

from __future__ import annotations

import numpy as np
from contourpy import contour_generator  # matplotlib's own contouring (a dependency of matplotlib)

from ...core.averaged import vote_counts_at, voted_predict
from ...core.perceptron import scores

__all__ = ["VOTE_GRID", "VOTE_REACH", "canonical_pieces", "grid_over", "grid_points", "traced_votes",
           "vote_boundary", "vote_labels"]

#: grid points per side on which the vote's boundary is traced (the vote is not a line)
VOTE_GRID = 121
#: how far beyond each side of the data panel's view the vote's grid reaches, a share of the view
VOTE_REACH = 0.25


def grid_over(xlim, ylim, *, reach: float = 0.0, n: int = VOTE_GRID) -> tuple:
    """(gx, gy): `n` equally spaced values across each of `xlim` and `ylim`, reaching `reach` of each side's length
    beyond both of its ends.

    Examples
    --------
    >>> [v.tolist() for v in grid_over((0, 4), (-1, 1), reach=0.25, n=3)]
    [[-1.0, 2.0, 5.0], [-1.5, 0.0, 1.5]]
    """
    g = np.linspace(-reach, 1 + reach, n)
    return xlim[0] + g * (xlim[1] - xlim[0]), ylim[0] + g * (ylim[1] - ylim[0])


def grid_points(gx, gy) -> np.ndarray:
    """The grid's points as rows (x, y), a row of the grid (one y) after another: shape (len(gy) * len(gx), 2)."""
    mx, my = np.meshgrid(gx, gy)
    return np.c_[mx.ravel(), my.ravel()]


def vote_labels(ar, grid) -> np.ndarray:
    """The vote's labels on the points `grid` (m, 2) just after each update of the `AveragedRun` `ar`: shape
    (K + 1, m), +1 or -1.

    Row k is `voted_predict` of states 0..k with the weights of `vote_counts_at` (every score exact at 0,
    sgn(0) = -1, a tied vote -1), from one product of all the states with the grid: O((K + 1) m), where calling
    `voted_predict` at each k costs O(K^2 m)."""
    h = ar.run.history
    signs = np.where(scores(h.w, h.b, grid) > 0, 1, -1).astype(np.int64)  # (K + 1, m)
    full = np.diff(np.concatenate([[1], ar.t])).astype(np.int64)  # state j's weight once j + 1 exists
    before = np.vstack([np.zeros((1, grid.shape[0]), dtype=np.int64),
                        np.cumsum(full[:, None] * signs[:-1], axis=0)])
    return np.where(before + signs > 0, 1, -1)


def vote_boundary(ar, k, gx, gy) -> np.ndarray:
    """Points (m, 2) of the vote's boundary just after update k of `ar`, traced on the grid (gx, gy), pieces
    separated by rows of NaN (a line's data for matplotlib)."""
    h = ar.run.history
    labels = voted_predict(h.w[: k + 1], h.b[: k + 1], vote_counts_at(ar, k), grid_points(gx, gy))
    pieces = contour_generator(gx, gy, labels.reshape(len(gy), len(gx)).astype(float)).lines(0.0)
    if not pieces:
        return np.empty((0, 2))
    return np.vstack([np.vstack([p, [np.nan, np.nan]]) for p in pieces])[:-1]


def traced_votes(ar, xlim, ylim) -> list:
    """The vote's boundary at each step k = 0..K of `ar`, as the browser draws it: for each k a list of pieces,
    each flat [x0, y0, x1, y1, ...] rounded to 5 decimals, traced by contourpy on a grid of `VOTE_GRID` points a
    side over the view xlim x ylim and `VOTE_REACH` of it beyond each side (so that an editor's wider view still
    shows it), in canonical order (`canonical_pieces`)."""
    gx, gy = grid_over(xlim, ylim, reach=VOTE_REACH)
    K = len(ar.run.history) - 1
    labels = vote_labels(ar, grid_points(gx, gy)).reshape(K + 1, len(gy), len(gx))
    return [[np.round(p, 5).ravel().tolist()
             for p in canonical_pieces(contour_generator(gx, gy, labels[k].astype(float)).lines(0.0))]
            for k in range(K + 1)]


def canonical_pieces(pieces) -> list:
    """contourpy's pieces of one level in an order that does not depend on how it scans the grid: each closed piece
    (its last point its first) starting at its least point by (x, y), the pieces sorted by their first point (x, y).
    Directions stay (contourpy's: the higher side on the left), and so does every point.

    Examples
    --------
    >>> square = [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]
    >>> [p.tolist() for p in canonical_pieces([square, [[-1.0, 2.0], [-1.0, 3.0]]])]
    [[[-1.0, 2.0], [-1.0, 3.0]], [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]]]
    """
    out = []
    for p in pieces:
        p = np.asarray(p, dtype=float)
        if len(p) > 2 and np.array_equal(p[0], p[-1]):
            ring = p[:-1]
            first = min(range(len(ring)), key=lambda j: (ring[j, 0], ring[j, 1]))
            ring = np.roll(ring, -first, axis=0)
            p = np.vstack([ring, ring[:1]])
        out.append(p)
    return sorted(out, key=lambda p: (p[0, 0], p[0, 1]))
