"""The mistakes of every state of a run at once: one matrix product in chunks, exact as the one-state test.

A player's words and crosses say, at each step k, which examples the current state (w_k, b_k) gets wrong:
``is_mistake(scores(w_k, b_k, X), y, update_on)``, the library's one test with its one meaning of zero.
Asked once per step that is K + 1 small products; here it is one product of the stacked states with the data,
``W X^T + b``, a chunk of states at a time (so that 200 points by 5,000 states needs a few MB, not the whole
matrix at once).

A stacked product sums each score in another order than the one-state product does, so the two can round a
score differently by a few units of the last place. That matters only near 0, where the test's answer turns
on rounding (`ZERO_TOL`). So, as `training.fit_perceptron` does with its chunks, the stacked margins are a
pre-filter: an entry above `mistake_ceiling` (threshold 0, the score's ``d + 1`` terms) is no mistake under
any rule, an entry below minus that ceiling is a mistake under every rule, whatever the summation order;
only a state with an entry in between (a point on or within rounding of its line, such as integer data on
an integer boundary) is asked the exact question, `is_mistake` on `scores` of that one state, the very call
each step's readout makes. The answers are therefore those of the one-state test, bit for bit.
"""

from __future__ import annotations

import numpy as np

from .perceptron import is_mistake, mistake_ceiling, scores

__all__ = ["MAX_CHUNK_VALUES", "mistakes_at_each_state", "mistake_counts", "rows_of_indices"]

#: The most scores held at once (each array of a chunk is 8 bytes per score, and a chunk makes about five).
#: 2**19 scores: 4 MB an array, about 20 MB a chunk whatever the run's length.
MAX_CHUNK_VALUES = 2**19
#: Sizes above this are asked state by state: far from float's overflow (about 1.8e308) even after rounding.
_SIZE_LIMIT = 1e300


def _states(run):
    """The run's states as float arrays: W of shape (K + 1, d) and b of shape (K + 1,) (the history's own)."""
    h = run.history
    return np.asarray(h.w, dtype=float), np.asarray(h.b, dtype=float)


def _exact(W, B, X, y, update_on, k) -> np.ndarray:
    """State k's mistakes as each step's readout asks for them: `is_mistake` on `scores` of that state."""
    return is_mistake(scores(W[k], float(B[k]), X), y, update_on)


def _chunks(W, B, X, y, update_on, max_values):
    """For each chunk of states, ``(k0, mistakes)``: rows k0, k0 + 1, ... of the (K + 1, n) mistake matrix."""
    n, d = X.shape
    rows = max(1, int(max_values) // n)
    # The size of every score of state k is at most |w_k| R + |b_k| (and a label's size, 1 for +-1, scales it):
    # one ceiling per state, as `fit_perceptron`'s pre-filter has (a larger size only widens the band asked).
    R = float(np.linalg.norm(X, axis=1).max())
    size = (np.linalg.norm(W, axis=1) * R + np.abs(B)) * float(np.abs(y).max())
    ceiling = mistake_ceiling(0.0, size, d + 1)
    # Non-finite numbers, or sizes near float's overflow, are asked state by state.
    filtered = bool(np.isfinite(X).all() and np.isfinite(y).all() and np.all(size < _SIZE_LIMIT))
    for k0 in range(0, len(B), rows):
        k1 = min(k0 + rows, len(B))
        if not filtered:
            yield k0, np.array([_exact(W, B, X, y, update_on, k) for k in range(k0, k1)])
            continue
        m = W[k0:k1] @ X.T
        m += B[k0:k1, None]
        m *= y  # the margins y(<w,x> + b), as the stacked product rounds them
        c = ceiling[k0:k1, None]
        wrong = m < -c  # a mistake under every rule: below 0 after any rounding, and not within ZERO_TOL of it
        # a state with a margin in [-c, c] (on its line, or within rounding of ZERO_TOL of it) is asked exactly
        for j in np.flatnonzero((m <= c).sum(axis=1) != wrong.sum(axis=1)):
            wrong[j] = _exact(W, B, X, y, update_on, k0 + j)
        yield k0, wrong


def rows_of_indices(wrong) -> list[list[int]]:
    """``[np.flatnonzero(row).tolist() for row in wrong]`` for a 2-D boolean array, in one pass: the column
    indices of all the rows at once, cut into rows (a long run's thousands of rows without a numpy call each).

    Examples
    --------
    >>> rows_of_indices(np.array([[True, False, True], [False, False, False], [False, True, False]]))
    [[0, 2], [], [1]]
    """
    wrong = np.asarray(wrong, dtype=bool)
    columns = np.nonzero(wrong)[1].tolist()  # row by row, each row's columns in increasing order
    ends = np.cumsum(wrong.sum(axis=1)).tolist()
    return [columns[start:end] for start, end in zip([0, *ends][:-1], ends, strict=True)]


def _checked(run, X, y, max_values):
    W, B = _states(run)
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (len(X),) or (len(X) and X.shape[1] != W.shape[1]):
        raise ValueError(f"X must be the run's data, of shape (n, {W.shape[1]}), with y of shape (n,); "
                         f"got X of shape {X.shape} and y of shape {y.shape}.")
    if isinstance(max_values, bool) or not isinstance(max_values, (int, np.integer)) or max_values < 1:
        raise ValueError(f"max_values must be a whole number >= 1, such as {MAX_CHUNK_VALUES}; got {max_values!r}.")
    return W, B, X, y


def mistake_counts(run, X, y, *, max_values: int = MAX_CHUNK_VALUES) -> np.ndarray:
    """How many examples each state of `run` gets wrong: the readout's "Mistakes now" of every step at once.

    Parameters
    ----------
    run : Run
        Any fit's run (its ``history`` and ``update_on``); the test's threshold is 0 (the readout's count,
        also for a margin perceptron's run).
    X : ndarray of shape (n, d)
        The data the run was fitted on.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    max_values : int
        The most scores computed at once (the chunk's size: memory is about 40 bytes per score).

    Returns
    -------
    ndarray of int, shape (K + 1,)
        Entry k is ``is_mistake(scores(w_k, b_k, X), y, run.update_on).sum()``, exactly.

    Examples
    --------
    >>> from perceptron_lib.core.training import fit_perceptron
    >>> X, y = np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1.0, -1.0])
    >>> mistake_counts(fit_perceptron(X, y), X, y).tolist()  # w = 0 gets both wrong; (2, 1), b = 1 none
    [2, 0]
    """
    W, B, X, y = _checked(run, X, y, max_values)
    counts = np.zeros(len(B), dtype=int)
    if len(y):
        for k0, wrong in _chunks(W, B, X, y, run.update_on, max_values):
            counts[k0 : k0 + len(wrong)] = wrong.sum(axis=1)
    return counts


def mistakes_at_each_state(run, X, y, *, max_values: int = MAX_CHUNK_VALUES) -> list[list[int]]:
    """For each state k = 0..K, the indices of the examples it gets wrong (the crosses), as `mistake_counts`
    counts them: exactly ``np.flatnonzero(is_mistake(scores(w_k, b_k, X), y, run.update_on))``.

    Examples
    --------
    >>> from perceptron_lib.core.training import fit_perceptron
    >>> X, y = np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1.0, -1.0])
    >>> mistakes_at_each_state(fit_perceptron(X, y), X, y)
    [[0, 1], []]
    """
    W, B, X, y = _checked(run, X, y, max_values)
    if not len(y):
        return [[] for _ in range(len(B))]
    out = []
    for _, wrong in _chunks(W, B, X, y, run.update_on, max_values):
        out.extend(rows_of_indices(wrong))
    return out
