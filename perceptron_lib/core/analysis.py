"""Questions asked of a finished `Run`: errors after each epoch, what each update did, final hyperplanes.

Everything here reads ``run.history`` and the data the run was fitted on; nothing re-runs the
algorithm and nothing draws. "Misclassified" always means "fails the run's own update test"
(`perceptron_lib.core.perceptron.is_mistake` with ``run.update_on``), the same count the player's
readout calls "mistakes now", so that a converged run ends with 0 misclassified examples.

Two counts that are easy to confuse:

* ``run.mistakes_per_epoch[t - 1]``: the updates made *during* epoch t, each by a different,
  changing (w, b);
* ``errors_after_epoch(run, X, y)[t - 1]``: the examples that the one state (w, b) reached at
  the *end* of epoch t gets wrong.

    >>> from perceptron_lib import fit_perceptron
    >>> X, y = [[2.0, 1.0], [-1.0, -2.0]], [1, -1]
    >>> run = fit_perceptron(X, y)
    >>> run.mistakes_per_epoch.tolist(), errors_after_epoch(run, X, y).tolist()
    ([1, 0], [0, 0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_X_y
from .perceptron import is_mistake, scores

__all__ = [
    "UpdateEffect",
    "epoch_ends",
    "state_after_epoch",
    "mistake_mask",
    "errors_after_updates",
    "errors_after_epoch",
    "update_effects",
    "find_update",
    "final_hyperplanes",
    "cycle_updates",
]


def _check_run(run):
    h = getattr(run, "history", None)
    if h is None or not hasattr(h, "w"):
        raise TypeError(f"run must be a Run from fit_perceptron/fit_minibatch/fit_batch; got {type(run).__name__}.")
    return h


def _check_data(run, X, y):
    h = _check_run(run)
    X, y = check_X_y(X, y)
    if X.shape[1] != h.w.shape[1]:
        raise ValueError(f"the run's w has length {h.w.shape[1]} but X has {X.shape[1]} features.")
    if getattr(run, "n_samples", 0) and run.n_samples != len(X):
        raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(X)} rows.")
    return h, X, y


def epoch_ends(run) -> np.ndarray:
    """The history index k of the state at the end of each epoch, shape (epochs + 1,).

    Entry t is the number of updates made in epochs 1..t, so ``run.history[epoch_ends(run)[t]]``
    is the state after epoch t (entry 0 is the start, k = 0).

    >>> from perceptron_lib import fit_perceptron
    >>> epoch_ends(fit_perceptron([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])).tolist()
    [0, 3, 7]
    """
    _check_run(run)
    return np.concatenate([[0], np.cumsum(run.mistakes_per_epoch)]).astype(int)


def state_after_epoch(run, t: int):
    """The `State` reached at the end of epoch t (t = 0 is the start)."""
    ends = epoch_ends(run)
    if not isinstance(t, (int, np.integer)) or not 0 <= t < len(ends):
        raise ValueError(f"t must be an epoch from 0 to {len(ends) - 1}; got {t!r}.")
    return run.history[int(ends[t])]


def mistake_mask(run, X, y) -> np.ndarray:
    """Which examples fail the run's update test at each state, bool array of shape (K + 1, n)."""
    h, X, y = _check_data(run, X, y)
    return is_mistake(scores(h.w, h.b, X), y[None, :], run.update_on)


def errors_after_updates(run, X, y) -> np.ndarray:
    """How many examples fail the run's update test at each state k = 0..K, shape (K + 1,)."""
    return mistake_mask(run, X, y).sum(axis=1)


def errors_after_epoch(run, X, y) -> np.ndarray:
    """How many examples the state at the end of epoch t misclassifies, for t = 1..epochs.

    Shape (epochs,), aligned with ``run.mistakes_per_epoch`` (entry t - 1 is epoch t).
    """
    return errors_after_updates(run, X, y)[epoch_ends(run)[1:]]


@dataclass(frozen=True, eq=False)
class UpdateEffect:
    """What update k did to the data set.

    Attributes
    ----------
    k : int
        The update (1..K); the states compared are k - 1 and k.
    i : int
        The example updated on (-1 for a batch step).
    epoch : int
    margin_before, margin_after : float
        y_i(<w, x_i> + b) before and after (NaN for a batch step).
    fixed : bool
        The updated example(s) pass the test after the update.
    broke : ndarray of int
        Other examples that passed the test before and fail it after.
    mended : ndarray of int
        Other examples that failed before and pass after.
    errors_before, errors_after : int
        Examples failing the test before and after.
    """

    k: int
    i: int
    epoch: int
    margin_before: float
    margin_after: float
    fixed: bool
    broke: np.ndarray
    mended: np.ndarray
    errors_before: int
    errors_after: int


def update_effects(run, X, y) -> list:
    """One `UpdateEffect` per update k = 1..K."""
    h, X, y = _check_data(run, X, y)
    M = mistake_mask(run, X, y)
    out = []
    for k in range(1, len(h)):
        st = h[k]
        own = np.asarray(st.batch, dtype=int)
        before, after = M[k - 1], M[k]
        others = np.ones(len(y), bool)
        others[own] = False
        out.append(UpdateEffect(
            k=k, i=st.i, epoch=st.epoch, margin_before=st.margin_before, margin_after=st.margin_after,
            fixed=bool(not after[own].any()),
            broke=np.flatnonzero(others & ~before & after),
            mended=np.flatnonzero(others & before & ~after),
            errors_before=int(before.sum()), errors_after=int(after.sum()),
        ))
    return out


def find_update(run, X, y, *, fixed=None, breaks=None):
    """The first update with the asked-for effect, or None if the run has none.

    Parameters
    ----------
    fixed : None or bool
        Ask for an update that did (True) or did not (False) fix its own example.
    breaks : None or bool
        Ask for an update that did (True) or did not (False) make some other example fail.

    >>> from perceptron_lib import fit_perceptron
    >>> from perceptron_lib.core import data
    >>> X, y = data.xor()
    >>> run = fit_perceptron(X, y)
    >>> find_update(run, X, y, breaks=True).k
    2
    """
    for e in update_effects(run, X, y):
        if fixed is not None and e.fixed != bool(fixed):
            continue
        if breaks is not None and (len(e.broke) > 0) != bool(breaks):
            continue
        return e
    return None


def final_hyperplanes(runs) -> np.ndarray:
    """The final hyperplanes of several runs, each scaled to ||w|| = 1, as rows (w_1, ..., w_d, b).

    Scaling does not move a hyperplane, so two runs end on the same hyperplane exactly when
    their rows are equal; a run that ends at w = 0 gives a row of NaN.
    """
    rows = []
    for r in runs:
        _check_run(r)
        w = np.asarray(r.w, dtype=float)
        nw = float(np.linalg.norm(w))
        rows.append(np.append(w, r.b) / nw if nw > 0 else np.full(len(w) + 1, np.nan))
    if not rows:
        raise ValueError("runs is empty; give at least one run.")
    if len({len(v) for v in rows}) != 1:
        raise ValueError("the runs have weights of different lengths; compare runs on the same data.")
    return np.array(rows)


def cycle_updates(run) -> np.ndarray:
    """The examples updated on during one period of the run's cycle, in order (empty without a cycle).

    The period starts after epoch ``run.cycle.start`` and lasts ``run.cycle.length`` epochs.

    >>> from perceptron_lib import fit_perceptron
    >>> from perceptron_lib.core import data
    >>> cycle_updates(fit_perceptron(*data.xor())).tolist()
    [0, 1, 2, 3]
    """
    h = _check_run(run)
    c = getattr(run, "cycle", None)
    if c is None:
        return np.empty(0, dtype=int)
    ends = epoch_ends(run)
    return np.asarray(h.i[ends[c.start]: ends[c.start + c.length]], dtype=int)
