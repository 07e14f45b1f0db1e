"""Gallant's pocket, the course's variant: the state of a run with the fewest training errors.

One of lesson 06's answers for data no line separates, beside the averaged and voted perceptrons of
`averaged` (which imports `Pocket` and `pocket` from here, so ``from perceptron_lib.core.averaged import pocket``
still works): it reads the states of any online run, at the price of one pass over the data per state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_X_y, read_only
from .perceptron import is_mistake, scores
from .runs import Run

__all__ = ["Pocket", "pocket"]


@dataclass(frozen=True, eq=False)
class Pocket:
    """Gallant's pocket: the state of a run with the fewest training errors.

    Attributes
    ----------
    k : int
        The state kept (0 is the start); the earliest among equally good states.
    w, b : ndarray (d,), float
    errors : int
        Its training errors: the examples that `perceptron.is_mistake` with the run's `update_on`
        (threshold 0) counts as mistakes.
    errors_per_state : ndarray of int, shape (K + 1,)
        The training errors of every state of the run.
    evaluations : int
        The cost: K + 1 passes over the data to count errors, against the run's own passes.
    """

    k: int
    w: np.ndarray
    b: float
    errors: int
    errors_per_state: np.ndarray = field(repr=False)
    evaluations: int

    def __post_init__(self):
        read_only(self.w)
        read_only(self.errors_per_state)


def pocket(run: Run, X, y) -> Pocket:
    """The state of a run with the fewest training errors (the course's pocket), read off the run.

    Every state of the run (the start and the state after each update) has its training errors
    counted over the whole data, and the first state with the fewest is kept: a later state
    replaces the one in the pocket only if it has strictly fewer. An error is what the run itself
    counts as a mistake at threshold 0: `perceptron.is_mistake` with the run's `update_on` (so a
    score of exactly 0 is an error for "nonpositive" and "sign" with y = +1, not for "negative"); a
    margin run's threshold is not used, since a training error is a point on the wrong side, not
    one inside the margin. The scores are exact at 0 (`perceptron.scores`), so the counts are
    integers decided the same way on every machine. Cost: one pass over the data per state, K + 1
    passes.

    This is a variant of Gallant's (1990) pocket algorithm, which keeps the weights with the longest
    run of consecutive correct classifications and counts training errors only when a run beats
    the pocket's (the ratchet). Either way the pocket is the best of the run's own states only: a
    line that is not a state of the run (the averaged line, for one) can have fewer errors.

    Examples
    --------
    >>> from perceptron_lib.core.training import fit_perceptron
    >>> X, y = [[1.0], [2.0], [-1.0], [1.5]], [1, 1, -1, -1]
    >>> pk = pocket(fit_perceptron(X, y, max_epochs=3), X, y)
    >>> pk.errors, pk.errors_per_state.tolist()
    (1, [4, 2, 1, 2, 1, 2, 1, 2])
    """
    X, y = check_X_y(X, y)
    h = run.history
    if X.shape[1] != h.w.shape[1]:
        raise ValueError(f"X must have {h.w.shape[1]} features like the run's data; got {X.shape[1]}.")
    if run.n_samples and run.n_samples != len(X):  # 0: a Run made by hand, which does not say
        raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(X)} rows: pass the data it "
                         "was fitted on.")
    errs = np.empty(len(h), dtype=np.int64)
    for lo in range(0, len(h), 256):
        s = scores(h.w[lo : lo + 256], h.b[lo : lo + 256], X)
        errs[lo : lo + 256] = is_mistake(s, y, run.update_on).sum(axis=1)
    k = int(np.argmin(errs))  # the first minimum: strict improvement only
    return Pocket(k=k, w=h.w[k].copy(), b=float(h.b[k]), errors=int(errs[k]), errors_per_state=errs, evaluations=len(h))
