"""Per-step numbers of the players' curve panels, for a front end that draws them itself.

`epoch_steps(run, X, y)`: what `perceptron_lib.player.panels.updates.EpochPanel` shows at every step k of a
run: the updates made so far in each epoch (the bars), how many epochs are over (the misclassified-after-epoch
line has a point for each), and the epoch shown as current (the cursor). Pure: no widgets, no drawing; it reads
the run's history (`perceptron_lib.core.analysis`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .analysis import epoch_ends, errors_after_epoch

__all__ = ["EpochSteps", "epoch_steps"]


@dataclass(frozen=True, eq=False)
class EpochSteps:
    """The epochs of a run seen from each step k = 0..K.

    Attributes
    ----------
    updates : ndarray of int, shape (K + 1, T)
        ``updates[k, t - 1]``: the updates of epoch t among updates 1..k (a bar's height at step k).
    errors : ndarray of int, shape (T,)
        The examples the state at the end of epoch t fails (`analysis.errors_after_epoch`).
    done : ndarray of int, shape (K + 1,)
        How many epochs are over at step k: the line shows ``errors[:done[k]]``.
    current : ndarray of int, shape (K + 1,)
        The epoch shown as current at step k: that of update k; 1 at the start, the last epoch at the end.
    """

    updates: np.ndarray
    errors: np.ndarray
    done: np.ndarray
    current: np.ndarray


def epoch_steps(run, X, y) -> EpochSteps:
    """The epoch panel's numbers at every step (see `EpochSteps`).

    An epoch is over at step k when its last update is made (k at or past its end) and, before the last
    step, the current epoch is a later one (a run that has not finished epoch t is still in it).

    Examples
    --------
    >>> from perceptron_lib import fit_perceptron
    >>> X, y = [[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]
    >>> s = epoch_steps(fit_perceptron(X, y), X, y)   # 3 updates in epoch 1, 4 in epoch 2
    >>> s.updates[4].tolist(), s.current[4].item(), s.done[4].item(), s.done[-1].item()
    ([3, 1], 2, 1, 2)
    """
    h = run.history
    K = len(h) - 1
    T = int(run.epochs)
    epoch_of = np.asarray(h.epoch[:K], dtype=int)  # epoch of update k (k = 1..K) at index k - 1
    onehot = np.zeros((K + 1, T), dtype=int)
    if K:
        onehot[np.arange(1, K + 1), epoch_of - 1] = 1
    updates = np.cumsum(onehot, axis=0)
    current = np.ones(K + 1, dtype=int)
    if K:
        current[1:] = epoch_of
    current[K] = T
    ends = epoch_ends(run)[1:]
    steps = np.arange(K + 1)[:, None]
    over = ends[None, :] <= steps
    over[:K] &= np.arange(1, T + 1)[None, :] < current[:K, None]
    done = over.sum(axis=1).astype(int)
    return EpochSteps(updates=updates, errors=np.asarray(errors_after_epoch(run, X, y), dtype=int), done=done,
                      current=current)
