"""The perceptron in its online, mini-batch and batch forms.

Every fit returns a `Run`: an immutable record of the final state and of the
whole history (the start plus one row per update), so a player can replay any
step and the dual form can be read off the list of updated examples.

The online fit produces exactly the trajectory of the sequential algorithm, but
it does not loop in Python over every example: it computes the margins of a
chunk of upcoming examples at once, jumps to the first mistake, updates, and
carries on after it. The cost is O(updates x chunk x d) numpy work plus
O(updates x d) history, never O(n x epochs) Python steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._validation import (
    check_choice,
    check_eta,
    check_positive_int,
    check_rng,
    check_start,
    check_X_y,
    read_only,
)

__all__ = [
    "UPDATE_RULES",
    "State",
    "History",
    "Cycle",
    "Run",
    "is_mistake",
    "fit_perceptron",
    "fit_minibatch",
    "fit_batch",
    "reference_perceptron",
    "step",
]

UPDATE_RULES = ("nonpositive", "negative", "sign")
ORDERS = ("cyclic", "random")


def is_mistake(scores: np.ndarray, y: np.ndarray, update_on: str = "nonpositive") -> np.ndarray:
    """Which examples trigger an update, given raw scores <w,x>+b.

    Parameters
    ----------
    scores : ndarray, shape (n,)
        The values <w, x_i> + b.
    y : ndarray, shape (n,)
        Labels in {-1, +1}.
    update_on : {"nonpositive", "negative", "sign"}
        "nonpositive": y*score <= 0 (the loss-minimisation slides);
        "negative": y*score < 0 (subgradient 0 at the kink);
        "sign": sgn(score) != y with sgn(0) = -1 (the lecture notes).

    Returns
    -------
    ndarray of bool, shape (n,)

    Examples
    --------
    >>> is_mistake(np.array([0.0, 0.0]), np.array([1.0, -1.0]), "sign").tolist()
    [True, False]
    """
    m = y * scores
    if update_on == "nonpositive":
        return m <= 0
    if update_on == "negative":
        return m < 0
    # sgn(0) = -1: a score of exactly 0 is a mistake only for y = +1.
    return (m < 0) | ((scores == 0) & (y > 0))


def step(w, b, x, y, *, eta=1.0, update_on="nonpositive", fit_bias=True):
    """The perceptron's update rule, once: example (x, y) at state (w, b).

    Returns ``(w_new, b_new, updated)``: if the example fails the test `update_on` (see
    `is_mistake`), ``w_new = w + eta * (y * x)`` and ``b_new = b + eta * y`` (b unchanged when
    ``fit_bias`` is False), else the state unchanged. Pure: new arrays, the inputs are not
    changed, no checks (callers check their arguments once, at their boundary).

    Every producer of a `Run` is this rule applied along its history: `reference_perceptron` and
    `proof.adversarial_run` call it; the vectorised `fit_perceptron` and the batched fits (whose
    step is the sum of this rule's updates over the batch's mistakes, taken from one state) are
    tested equal to it (tests/test_step.py).

    Examples
    --------
    >>> w, b, updated = step(np.zeros(2), 0.0, np.array([2.0, 1.0]), 1.0)
    >>> w.tolist(), b, updated
    ([2.0, 1.0], 1.0, True)
    """
    w = np.asarray(w, dtype=float)
    score = float(x @ w + b)
    if not is_mistake(np.array([score]), np.array([y], dtype=float), update_on)[0]:
        return w.copy(), float(b), False
    return w + eta * (y * x), float(b + eta * y) if fit_bias else float(b), True


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
        from ._validation import check_X

        X = check_X(X)
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(f"X must have {self.w.shape[0]} features like the training data; got {X.shape[1]}.")
        return X @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}, with sgn(0) = -1."""
        return np.where(self.decision_function(X) > 0, 1, -1)


class _Recorder:
    """Collects history rows in growing arrays (amortised O(d) per update)."""

    def __init__(self, w0: np.ndarray, b0: float):
        self.d = w0.shape[0]
        self.cap = 64
        self.W = np.empty((self.cap, self.d))
        self.B = np.empty(self.cap)
        self.I = np.empty(self.cap, dtype=np.intp)
        self.E = np.empty(self.cap, dtype=np.intp)
        self.MB = np.empty(self.cap)
        self.MA = np.empty(self.cap)
        self.batches: list[np.ndarray] = []
        self.n = 0
        self.w0, self.b0 = w0.copy(), b0

    def add(self, i, batch, epoch, w, b, m_before, m_after):
        if self.n == self.cap:
            self.cap *= 2
            for name in ("W", "B", "I", "E", "MB", "MA"):
                old = getattr(self, name)
                new = np.empty((self.cap,) + old.shape[1:], dtype=old.dtype)
                new[: self.n] = old[: self.n]
                setattr(self, name, new)
        k = self.n
        self.W[k], self.B[k], self.I[k], self.E[k] = w, b, i, epoch
        self.MB[k], self.MA[k] = m_before, m_after
        self.batches.append(batch)
        self.n += 1

    def history(self) -> History:
        k = self.n
        W = np.vstack([self.w0[None, :], self.W[:k]])
        B = np.concatenate([[self.b0], self.B[:k]])
        batches = tuple(read_only(np.asarray(bt, dtype=np.intp)) for bt in self.batches)
        return History(W, B, self.I[:k].copy(), self.E[:k].copy(), self.MB[:k].copy(), self.MA[:k].copy(), batches)


_MIN_CHUNK, _MAX_CHUNK = 16, 8192


def fit_perceptron(
    X,
    y,
    *,
    eta: float = 1.0,
    max_epochs: int = 1000,
    order: str = "cyclic",
    rng=None,
    w0=None,
    b0: float = 0.0,
    fit_bias: bool = True,
    update_on: str = "nonpositive",
) -> Run:
    """Run the online perceptron: on each mistake, w <- w + eta*y_i*x_i, b <- b + eta*y_i.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
        Labels in {-1, +1}.
    eta : float > 0
        Step size.
    max_epochs : int >= 1
        Upper limit on passes over the data.
    order : {"cyclic", "random"}
        "cyclic" visits examples 0..n-1 every epoch; "random" draws a fresh
        permutation each epoch from `rng`.
    rng : None, int or numpy.random.Generator
        Source of the permutations for ``order="random"``.
    w0 : array-like, shape (d,), optional
        Start weights (default zeros).
    b0 : float
        Start offset.
    fit_bias : bool
        If False, b stays at b0 (the homogeneous perceptron when b0 = 0).
    update_on : {"nonpositive", "negative", "sign"}
        The mistake test; see `is_mistake`.

    Returns
    -------
    Run
        Stops when an epoch makes no update (``converged``), when the state
        at an epoch boundary repeats under cyclic order (``cycle``), or after
        `max_epochs`.

    Examples
    --------
    >>> run = fit_perceptron([[2, 1], [-1, -2]], [1, -1])
    >>> run.w.tolist(), run.b, run.mistakes, run.converged
    ([2.0, 1.0], 1.0, 1, True)
    """
    X, y = check_X_y(X, y)
    eta = check_eta(eta)
    max_epochs = check_positive_int(max_epochs, name="max_epochs")
    order = check_choice(order, name="order", choices=ORDERS)
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    if not isinstance(fit_bias, (bool, np.bool_)):
        raise TypeError(f"fit_bias must be True or False; got {fit_bias!r}.")
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    gen = check_rng(rng) if order == "random" else None
    rec = _Recorder(w, b)

    # Work with margins directly, b folded in: m = [y*x, y] @ [w, b], one matmul per chunk.
    # Each update adds the row eta*[y_i x_i, y_i] (its last entry 0 when b is not fitted).
    Z = np.empty((n, d + 1))
    np.multiply(X, y[:, None], out=Z[:, :d])
    Z[:, d] = y
    scale = np.full(d + 1, eta)
    scale[d] = eta if fit_bias else 0.0
    wb = np.append(w, b)
    seen: dict[bytes, tuple[int, int]] = {}
    converged, cycle = False, None
    chunk = _MIN_CHUNK
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        idx = None if gen is None else gen.permutation(n)
        Zo = Z if idx is None else Z[idx]
        before = rec.n
        pos = 0
        while pos < n:
            stop = min(pos + chunk, n)
            m = Zo[pos:stop] @ wb
            if update_on == "nonpositive":
                hit = m <= 0
            elif update_on == "negative":
                hit = m < 0
            else:  # "sign", sgn(0) = -1: a zero score is a mistake only for y = +1
                hit = (m < 0) | ((m == 0) & (Zo[pos:stop, d] > 0))
            j = int(hit.argmax())
            if not hit[j]:
                pos = stop
                chunk = min(chunk * 2, _MAX_CHUNK)
                continue
            i = pos + j if idx is None else int(idx[pos + j])
            wb = wb + scale * Z[i]
            rec.add(i, (i,), epoch, wb[:d], wb[d], m[j], np.nan)
            pos += j + 1
            # Next chunk about twice the gap just seen: short during a burst of mistakes, long once they thin out.
            chunk = min(max(_MIN_CHUNK, 2 * (j + 1)), _MAX_CHUNK)
        if rec.n == before:
            converged = True
            break
        if gen is None:
            key = wb.tobytes()
            if key in seen:
                start, mistakes_then = seen[key]
                cycle = Cycle(start=start, length=epoch - start, mistakes_per_cycle=rec.n - mistakes_then)
                break
            seen[key] = (epoch, rec.n)
    w, b = wb[:d], float(wb[d])
    hist = rec.history()
    # margin_after is measured from the stored state, not filled in from the identity
    # m_after = m_before + eta(|x|^2 + 1), so that tests of the identity are not circular.
    if rec.n:
        Xi = X[hist.i]
        ma = y[hist.i] * (np.einsum("ij,ij->i", Xi, hist.w[1:]) + hist.b[1:])
        hist = History(hist.w, hist.b, hist.i, hist.epoch, hist.margin_before, ma, hist.batches)
    return Run(
        w=w.copy(), b=float(b), mistakes=rec.n, epochs=epoch, converged=converged, cycle=cycle,
        history=hist, method="online", eta=eta, update_on=update_on, order=order,
        fit_bias=bool(fit_bias), n_samples=n,
    )


def _fit_batched(X, y, *, batch_size, eta, max_iter, rng, w0, b0, fit_bias, update_on, scale, method, order):
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    rec = _Recorder(w, b)
    bias_step = 1.0 if fit_bias else 0.0
    converged = False
    it = 0
    all_idx = np.arange(n)
    while it < max_iter:
        if not is_mistake(X @ w + b, y, update_on).any():
            converged = True
            break
        it += 1
        batch = all_idx if batch_size == n else np.sort(rng.choice(n, size=batch_size, replace=False))
        scores = X[batch] @ w + b
        M = batch[is_mistake(scores, y[batch], update_on)]
        if M.size == 0:
            continue
        step = eta * scale
        w = w + step * (y[M] @ X[M])
        b = b + step * y[M].sum() * bias_step
        rec.add(-1, M, it, w, b, np.nan, np.nan)
    return Run(
        w=w.copy(), b=float(b), mistakes=rec.n, epochs=it, converged=converged, cycle=None,
        history=rec.history(), method=method, eta=eta, update_on=update_on, order=order,
        fit_bias=bool(fit_bias), n_samples=n,
    )


def fit_minibatch(
    X,
    y,
    *,
    batch_size: int,
    eta: float = 1.0,
    max_iter: int = 1000,
    rng=None,
    w0=None,
    b0: float = 0.0,
    fit_bias: bool = True,
    update_on: str = "nonpositive",
) -> Run:
    """Stochastic subgradient method on the mean perceptron loss, batch size B.

    Each iteration draws B distinct indices, finds the mistakes M among them and
    steps ``w <- w + (eta/B) * sum_{i in M} y_i x_i`` (and b with y_i). It stops
    when no example of the whole data set is a mistake, or after `max_iter`.
    B = 1 in random order is the online perceptron with step eta; B = n is
    `fit_batch` with ``reduction="mean"``.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    batch_size : int, 1 <= B <= n
    eta : float > 0
        The step tau of the script.
    max_iter : int >= 1
    rng : None, int or numpy.random.Generator
    w0, b0, fit_bias, update_on
        As in `fit_perceptron`.

    Returns
    -------
    Run
        One history row per iteration that moved; ``epoch`` holds the iteration.

    Examples
    --------
    >>> run = fit_minibatch([[2, 1], [-1, -2]], [1, -1], batch_size=2, eta=1.0, rng=0)
    >>> run.converged, run.w.tolist()
    (True, [1.5, 1.5])
    """
    X, y = check_X_y(X, y)
    n = X.shape[0]
    batch_size = check_positive_int(batch_size, name="batch_size")
    if batch_size > n:
        raise ValueError(f"batch_size must be at most the number of examples ({n}); got {batch_size}.")
    eta = check_eta(eta)
    max_iter = check_positive_int(max_iter, name="max_iter")
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    return _fit_batched(
        X, y, batch_size=batch_size, eta=eta, max_iter=max_iter, rng=check_rng(rng), w0=w0, b0=b0,
        fit_bias=fit_bias, update_on=update_on, scale=1.0 / batch_size, method="minibatch", order="random",
    )


def fit_batch(
    X,
    y,
    *,
    eta: float = 1.0,
    max_iter: int = 1000,
    reduction: str = "sum",
    w0=None,
    b0: float = 0.0,
    fit_bias: bool = True,
    update_on: str = "nonpositive",
) -> Run:
    """Batch (sub)gradient descent on the perceptron loss.

    Each iteration steps along minus a subgradient of the whole loss:
    ``w <- w + eta * c * sum_{i in M} y_i x_i`` over all current mistakes M,
    with c = 1 for ``reduction="sum"`` (the slides) and c = 1/n for "mean"
    (the script). It stops when there is no mistake, or after `max_iter`.

    Examples
    --------
    >>> run = fit_batch([[2, 1], [-1, -2]], [1, -1])
    >>> run.converged, run.w.tolist(), run.b
    (True, [3.0, 3.0], 0.0)
    """
    X, y = check_X_y(X, y)
    eta = check_eta(eta)
    max_iter = check_positive_int(max_iter, name="max_iter")
    reduction = check_choice(reduction, name="reduction", choices=("sum", "mean"))
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    n = X.shape[0]
    return _fit_batched(
        X, y, batch_size=n, eta=eta, max_iter=max_iter, rng=None, w0=w0, b0=b0, fit_bias=fit_bias,
        update_on=update_on, scale=1.0 if reduction == "sum" else 1.0 / n, method="batch", order="all",
    )


def reference_perceptron(X, y, *, eta=1.0, max_epochs=1000, w0=None, b0=0.0, fit_bias=True, update_on="nonpositive"):
    """The online perceptron as a plain Python loop, cyclic order.

    The slow, obviously-correct version the fast `fit_perceptron` is tested
    against: `step` on each example in turn. Returns (w, b, updates) with updates the list of
    example indices.
    """
    X, y = check_X_y(X, y)
    w, b = check_start(w0, b0, X.shape[1])
    updates = []
    for _ in range(max_epochs):
        changed = False
        for i in range(len(X)):
            w, b, updated = step(w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias)
            if updated:
                updates.append(i)
                changed = True
        if not changed:
            break
    return np.array(w), float(b), updates
