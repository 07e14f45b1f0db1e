"""The records of a perceptron fit: `State`, `History`, `Cycle` and `Run`.

A `Run` is an immutable record of the final state and of the whole history (the start plus
one row per update), so a player can replay any step and the dual form can be read off the
list of updated examples. The fits that build them are in `perceptron_lib.core.training`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import read_only

__all__ = ["State", "History", "Cycle", "Run"]


@dataclass(frozen=True, eq=False)  # arrays inside: compare fields explicitly, not with ==
class State:
    """The state after update `k` (k = 0 is the start).

    Attributes
    ----------
    k : int
        Index in the history, 0 for the start.
    i : int
        The example updated on (-1 for the start, and for batch steps).
    batch : ndarray of int
        The examples whose terms made up this update (length 1 online).
    epoch : int
        The epoch (online) or iteration (batch methods) of this update, from 1.
    w : ndarray, shape (d,)
        Weights after the update.
    b : float
        Offset after the update.
    margin_before, margin_after : float
        y_i(<w,x_i>+b) before and after, for an online update (NaN otherwise).
    """

    k: int
    i: int
    batch: np.ndarray
    epoch: int
    w: np.ndarray
    b: float
    margin_before: float
    margin_after: float

    @property
    def mistakes(self) -> int:
        """Updates made so far (equal to k)."""
        return self.k



@dataclass(frozen=True, eq=False)
class History:
    """Start state plus one row per update, stored as read-only arrays.

    Attributes
    ----------
    w : ndarray, shape (K + 1, d)
        Row 0 is w0, row k the weights after update k.
    b : ndarray, shape (K + 1,)
    i : ndarray of int, shape (K,)
        Example updated on (-1 for batch steps).
    epoch : ndarray of int, shape (K,)
    margin_before, margin_after : ndarray, shape (K,)
    batches : tuple of ndarray
        For each update, the indices whose terms it added (length 1 online).

    ``len(history)`` is K + 1 and ``history[k]`` is a `State`.
    """

    w: np.ndarray
    b: np.ndarray
    i: np.ndarray
    epoch: np.ndarray
    margin_before: np.ndarray
    margin_after: np.ndarray
    batches: tuple = field(repr=False)

    def __post_init__(self):
        for name in ("w", "b", "i", "epoch", "margin_before", "margin_after"):
            read_only(getattr(self, name))

    def __len__(self) -> int:
        return len(self.b)

    def __getitem__(self, k: int) -> State:
        n = len(self)
        if not isinstance(k, (int, np.integer)):
            raise TypeError(f"history index must be an int; got {k!r}.")
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(f"history index {k} out of range: this run has states 0..{n - 1}.")
        if k == 0:
            return State(0, -1, np.empty(0, dtype=int), 0, self.w[0], float(self.b[0]), np.nan, np.nan)
        return State(
            int(k),
            int(self.i[k - 1]),
            self.batches[k - 1],
            int(self.epoch[k - 1]),
            self.w[k],
            float(self.b[k]),
            float(self.margin_before[k - 1]),
            float(self.margin_after[k - 1]),
        )

    def __iter__(self):
        return (self[k] for k in range(len(self)))


@dataclass(frozen=True)
class Cycle:
    """A repeated state at an epoch boundary under cyclic order.

    The state after epoch `start` came back after epoch `start + length`, so the
    run would repeat the same `length` epochs (and `mistakes_per_cycle`
    updates) for ever.
    """

    start: int
    length: int
    mistakes_per_cycle: int


@dataclass(frozen=True, eq=False)
class Run:
    """The result of a perceptron fit: final state, settings and full history.

    Attributes
    ----------
    w : ndarray, shape (d,)
    b : float
    mistakes : int
        Number of updates made.
    epochs : int
        Passes of the producer's search for mistakes, each named by `pass_name`: epochs
        (online: one sweep over the data), iterations (mini-batch and batch: one step), or
        rounds (the adversary: one search of the whole data, one update). ``history.epoch``
        numbers the same passes from 1.
    converged : bool
        A whole epoch (online) or a step on all data (batch) found no mistake.
    cycle : Cycle or None
        Set when the state at an epoch boundary repeated (cyclic order only):
        the data cannot be separated by this run, and it stopped early.
    history : History
    method : {"online", "minibatch", "batch"}
    eta : float
    update_on : str
    order : str
    fit_bias : bool
    n_samples : int
    margin : float
        The mistake test's threshold (0 for the perceptron, 1 for the margin perceptron).
    """

    w: np.ndarray
    b: float
    mistakes: int
    epochs: int
    converged: bool
    cycle: Cycle | None
    history: History = field(repr=False)
    method: str = "online"
    eta: float = 1.0
    update_on: str = "nonpositive"
    order: str = "cyclic"
    fit_bias: bool = True
    n_samples: int = 0
    margin: float = 0.0

    def __post_init__(self):
        read_only(self.w)

    @property
    def pass_name(self) -> str:
        """What one of `epochs` is for this run: "epoch", "iteration" or "round"."""
        if self.order == "adversarial":
            return "round"
        return "epoch" if self.method == "online" else "iteration"

    def state(self, k: int) -> State:
        """The state after update k (0 is the start); same as ``history[k]``."""
        return self.history[k]

    @property
    def mistakes_per_epoch(self) -> np.ndarray:
        """Updates made in each epoch (or iteration), shape (epochs,)."""
        return np.bincount(self.history.epoch - 1, minlength=self.epochs)[: self.epochs]

    def update_counts(self) -> np.ndarray:
        """How often each example was updated on, shape (n_samples,).

        For an online run from w0 = 0, b0 = 0 this gives the dual form
        w = eta * sum_i counts[i] * y_i * x_i.
        """
        idx = np.concatenate(self.history.batches) if self.history.batches else np.empty(0, int)
        return np.bincount(idx.astype(int), minlength=self.n_samples)

    def decision_function(self, X) -> np.ndarray:
        """Scores <w, x> + b for the rows of X, shape (n,)."""
        from .._validation import check_X

        X = check_X(X)
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(f"X must have {self.w.shape[0]} features like the training data; got {X.shape[1]}.")
        return X @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}, with sgn(0) = -1."""
        return np.where(self.decision_function(X) > 0, 1, -1)
