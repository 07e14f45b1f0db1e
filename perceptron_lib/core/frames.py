"""The numbers of each step of a run that a player shows, for a front end that draws them itself.

`step_numbers(run, X, y)` is a run as plain lists (JSON-able): the states w_k, b_k for k = 0..K, the
example of each update with its label, the examples to ring at each step, and the examples that fail
the run's mistake test at each step (the crosses: the same test as `perceptron_lib.player.panels.data.DataPanel`
and the readout's "Mistakes now" count, `is_mistake` with the run's `update_on` and threshold 0). A
browser that draws frame k reads these and computes nothing about the run. Pure: no widgets, no drawing.
"""

from __future__ import annotations

import numpy as np

from .step_counts import mistakes_at_each_state

__all__ = ["step_numbers", "mistakes_at_each_step", "ringed_at_each_step"]


def mistakes_at_each_step(run, X, y) -> list[list[int]]:
    """For each step k = 0..K, the indices of the examples that state k gets wrong (its mistake test, threshold 0).

    Exactly the one-state test each step's readout asks (`step_counts.mistakes_at_each_state`: one chunked product
    for all the states, asked state by state only within rounding of a line), so the crosses are the states'
    "Mistakes now" count, also for a long run.

    Examples
    --------
    >>> from perceptron_lib.core.training import fit_perceptron
    >>> X, y = np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1.0, -1.0])
    >>> mistakes_at_each_step(fit_perceptron(X, y), X, y)  # w = 0 gets both wrong; (2, 1), b = 1 none
    [[0, 1], []]
    """
    return mistakes_at_each_state(run, np.asarray(X, dtype=float), np.asarray(y, dtype=float))


def ringed_at_each_step(run) -> list[list[int]]:
    """For each step k = 0..K, the examples whose terms made update k (one online; none at the start)."""
    return [[]] + [np.asarray(batch, dtype=int).tolist() for batch in run.history.batches]


def step_numbers(run, X, y) -> dict:
    """The run on (X, y) as JSON-able lists, one entry per step k = 0..K.

    Returns
    -------
    dict
        ``K``; ``X`` (n lists of d numbers), ``y`` (n numbers, +1 or -1); ``w`` (K + 1 lists), ``b`` (K + 1
        numbers); ``i`` (K + 1: the example of update k, -1 at the start and for a batch step); ``ring`` and
        ``mistakes`` (K + 1 lists of indices, `ringed_at_each_step` and `mistakes_at_each_step`); and the run's
        settings ``eta``, ``update_on``, ``fit_bias``, ``method``. Numbers are Python floats and ints, so a JSON
        writer keeps each float exactly (shortest round-trip digits).
    """
    h = run.history
    return {
        "K": len(h) - 1,
        "X": np.asarray(X, dtype=float).tolist(),
        "y": [1.0 if v > 0 else -1.0 for v in np.asarray(y, dtype=float)],
        "w": np.asarray(h.w, dtype=float).tolist(),
        "b": np.asarray(h.b, dtype=float).tolist(),
        "i": [-1] + np.asarray(h.i, dtype=int).tolist(),
        "ring": ringed_at_each_step(run),
        "mistakes": mistakes_at_each_step(run, X, y),
        "eta": float(run.eta),
        "update_on": str(run.update_on),
        "fit_bias": bool(run.fit_bias),
        "method": str(run.method),
    }
