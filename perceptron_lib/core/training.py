"""The perceptron's fits: online (`fit_perceptron`), mini-batch, batch, and a plain reference.

Every fit returns a `Run` (see `perceptron_lib.core.runs`).

Every fit is built on the one rule of `perceptron_lib.core.perceptron`: the online fits call `step`,
the batched ones `batch_step`. The online fit produces exactly the trajectory of `step` applied to
each example in turn, but it does not loop in Python over every example: it computes the margins
of a chunk of upcoming examples at once (in float32, half the bytes of X to read), skips those that
provably pass the test (above `mistake_ceiling_float32`, which bounds float32's rounding), asks `step`
about the first one left, and carries on after it. The cost is
O(updates x chunk x d) numpy work plus O(updates x d) history, never O(n x epochs) Python steps.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import (
    check_choice,
    check_eta,
    check_finite_scalar,
    check_positive_int,
    check_rng,
    check_start,
    check_X_y,
    read_only,
)
from .perceptron import (
    FLOAT32_LIMIT,
    UPDATE_RULES,
    batch_step,
    is_mistake,
    mistake_ceiling,
    mistake_ceiling_float32,
    scores,
    snap_to_zero,
    step,
)
from .runs import Cycle, History, Run

__all__ = ["fit_perceptron", "fit_minibatch", "fit_batch", "reference_perceptron"]

ORDERS = ("cyclic", "random")


class _Recorder:
    """Collects the history's rows as a fit goes: one list append per field and update.

    The states appended must be new arrays that nobody changes afterwards (`step` and
    `batch_step` return new ones), so nothing is copied.
    """

    def __init__(self, w0: np.ndarray, b0: float):
        self.w, self.b = [w0.copy()], [float(b0)]
        self.i: list[int] = []
        self.epoch: list[int] = []
        self.batches: list[np.ndarray] = []

    @property
    def n(self) -> int:
        return len(self.i)

    def add(self, w, b, i, epoch, batch=None):
        self.w.append(w)
        self.b.append(b)
        self.i.append(i)
        self.epoch.append(epoch)
        if batch is not None:
            self.batches.append(batch)

    def history(self, margin_before=None, margin_after=None) -> History:
        """The `History`; the batches are the indices given to `add`, or each update's one example."""
        i = np.array(self.i, dtype=np.intp)
        if self.batches:
            batches = tuple(read_only(np.asarray(bt, dtype=np.intp)) for bt in self.batches)
        else:  # online: rows of one read-only (K, 1) array, a view each
            batches = tuple(read_only(i[:, None].copy()))
        nan = np.full(len(i), np.nan)
        return History(
            np.array(self.w), np.array(self.b), i, np.array(self.epoch, dtype=np.intp),
            nan if margin_before is None else margin_before, nan.copy() if margin_after is None else margin_after,
            batches,
        )


#: A chunk holds at most _MAX_CHUNK_VALUES numbers of X (256 KB of float32), so that the tail of a chunk,
#: recomputed after an update inside it, is still in the core's cache.
_MIN_CHUNK, _MAX_CHUNK_VALUES = 16, 65_536
#: The fixed cost of one chunk (a handful of numpy calls, about 4 us) in multiply-adds of its
#: matrix-vector product (about 0.25 ns each): the speed of the run, never its result, depends on it.
_CHUNK_OVERHEAD = 16_000


def _max_chunk(d: int) -> int:
    return max(_MIN_CHUNK, _MAX_CHUNK_VALUES // d)


def _chunk_after_update(gap: float, d: int) -> int:
    """The next chunk's length, given the expected gap between mistakes (in examples).

    Only the speed depends on it, never the run. With mistakes arriving at random at rate
    1/gap, a chunk of L examples costs ``overhead + L (d + 1)`` and finds the next mistake with
    probability ``1 - exp(-L / gap)``; the cost per mistake is least where
    ``exp(x) = 1 + a + x`` for ``x = L / gap`` and ``a = overhead / (gap (d + 1))``, and
    ``x = log1p(a + sqrt(2 a))`` solves that within 10%. Short chunks for wide rows and long gaps
    (recomputing a wasted tail is dear), long ones for narrow rows and bursts (calls are dear).

    >>> _chunk_after_update(20.0, 100), _chunk_after_update(2000.0, 100), _chunk_after_update(2000.0, 10)
    (51, 655, 2152)
    """
    a = _CHUNK_OVERHEAD / (gap * (d + 1))
    return int(min(max(_MIN_CHUNK, gap * math.log1p(a + math.sqrt(2.0 * a))), _max_chunk(d)))


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
    margin: float = 0.0,
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
    margin : float >= 0
        The test's threshold (see `is_mistake`): 0 is the perceptron; ``margin=1`` updates when
        ``y_i(<w,x_i>+b) <= 1``, the margin perceptron, a subgradient step of size eta on the
        hinge loss. Unlike the perceptron it is not scale-invariant: eta changes its lines.

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
    X, y = check_X_y(X, y, copy=False)  # only read
    eta = check_eta(eta)
    max_epochs = check_positive_int(max_epochs, name="max_epochs")
    order = check_choice(order, name="order", choices=ORDERS)
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    margin = check_margin(margin, update_on)
    if not isinstance(fit_bias, (bool, np.bool_)):
        raise TypeError(f"fit_bias must be True or False; got {fit_bias!r}.")
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    gen = check_rng(rng) if order == "random" else None
    rec = _Recorder(w, b)
    # The pre-filter bounds each example's size |w| |x_i| + |b| by |w| R + |b|, R the longest x_i, and
    # reads a float32 copy of X: half the bytes to stream, its rounding in its ceiling.
    R = math.sqrt(float(np.einsum("ij,ij->i", X, X).max()))
    X32 = X.astype(np.float32) if R <= FLOAT32_LIMIT else None
    y32 = y.astype(np.float32)
    seen: dict[bytes, tuple[int, int]] = {}
    converged, cycle = False, None
    chunk, gap, max_chunk = _MIN_CHUNK, float(_MIN_CHUNK), _max_chunk(d)  # gap: a mean of the gaps between mistakes
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        idx = None if gen is None else gen.permutation(n)
        Xo32, yo32 = (X32, y32) if idx is None else (None if X32 is None else X32[idx], y32[idx])
        Xo, yo = (X, y) if idx is None else (None, y[idx])  # float64 rows only if a state outgrows float32
        ceiling, w_pre, b_pre, single = _pre_filter(w, b, R, margin, d, X32 is not None)
        before = rec.n
        pos = 0
        while pos < n:
            if not single and Xo is None:
                Xo = X[idx]
            rows, labels = (Xo32, yo32) if single else (Xo, yo)
            stop = min(pos + chunk, n)
            m = rows[pos:stop].dot(w_pre)  # the chunk's margins y (<w, x> + b); .dot costs less than @
            m += b_pre
            m *= labels[pos:stop]
            j = int((m <= ceiling).argmax())
            if m[j] > ceiling:  # no example of the chunk can be a mistake: skip it whole
                pos = stop
                chunk = min(chunk * 2, max_chunk)
                continue
            i = pos + j if idx is None else int(idx[pos + j])
            pos += j + 1
            w_new, b_new, updated = step(w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias,
                                         margin=margin)  # the one rule decides
            if not updated:  # within rounding of the threshold, and not a mistake after all
                continue
            w, b = w_new, b_new
            rec.add(w, b, i, epoch)
            ceiling, w_pre, b_pre, single = _pre_filter(w, b, R, margin, d, X32 is not None)
            gap = 0.5 * (gap + (j + 1))  # a running mean of the distance to the next mistake (speed only)
            chunk = _chunk_after_update(gap, d)
        if rec.n == before:
            converged = True
            break
        if gen is None:
            key = np.append(w, b).tobytes()
            if key in seen:
                start, mistakes_then = seen[key]
                cycle = Cycle(start=start, length=epoch - start, mistakes_per_cycle=rec.n - mistakes_then)
                break
            seen[key] = (epoch, rec.n)
    return Run(
        w=w.copy(), b=float(b), mistakes=rec.n, epochs=epoch, converged=converged, cycle=cycle,
        history=_online_history(rec, X, y), method="online", eta=eta, update_on=update_on, order=order,
        fit_bias=bool(fit_bias), n_samples=n, margin=margin,
    )


def _pre_filter(w, b, R: float, margin: float, d: int, single: bool):
    """What the chunks compare at state (w, b): ``(ceiling, w, b, single)``, in float32 (`single`) when
    the data have a float32 copy and the state cannot overflow it, else in float64."""
    norm_w = math.sqrt(w.dot(w))
    ceiling = mistake_ceiling_float32(margin, norm_w, R, b, d + 1) if single else None
    if ceiling is None:
        return mistake_ceiling(margin, norm_w * R + abs(b), d + 1), w, b, False
    return ceiling, w.astype(np.float32), b, True  # a float b: numpy adds it in float32, with less overhead


def _online_history(rec: _Recorder, X: np.ndarray, y: np.ndarray) -> History:
    """The history with each update's margins y_i(<w,x_i>+b) before and after, computed from the states.

    Before: rounding around 0 is 0, as in the test that chose the update. After: the plain value,
    measured from the stored state, not filled in from the identity m_after = m_before +
    eta(|x|^2 + 1), so that tests of the identity are not circular.
    """
    if not rec.n:
        return rec.history(np.empty(0), np.empty(0))
    i = np.array(rec.i, dtype=np.intp)
    W, B = np.array(rec.w), np.array(rec.b)
    Xi, yi = X[i], y[i]
    before = np.einsum("ij,ij->i", Xi, W[:-1]) + B[:-1]
    size = np.sqrt(np.einsum("ij,ij->i", W[:-1], W[:-1])) * np.sqrt(np.einsum("ij,ij->i", Xi, Xi)) + np.abs(B[:-1])
    after = np.einsum("ij,ij->i", Xi, W[1:]) + B[1:]
    return rec.history(yi * snap_to_zero(before, size), yi * after)


def check_margin(margin, update_on: str) -> float:
    """The mistake test's threshold: a finite number >= 0, and 0 for the "sign" rule."""
    margin = check_finite_scalar(margin, name="margin")
    if margin < 0:
        raise ValueError(f"margin must be >= 0 (0 is the perceptron, 1 the margin perceptron); got {margin!r}.")
    if update_on == "sign" and margin != 0:
        raise ValueError("update_on='sign' has no threshold: use margin=0, or update_on='nonpositive'.")
    return margin


def _fit_batched(X, y, *, batch_size, eta, max_iter, rng, w0, b0, fit_bias, update_on, scale, method, order):
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    rec = _Recorder(w, b)
    converged = False
    it = 0
    all_idx = np.arange(n)
    while it < max_iter:
        if not is_mistake(scores(w, b, X), y, update_on).any():
            converged = True
            break
        it += 1
        batch = all_idx if batch_size == n else np.sort(rng.choice(n, size=batch_size, replace=False))
        w_new, b_new, M = batch_step(w, b, X[batch], y[batch], eta=eta * scale, update_on=update_on,
                                     fit_bias=bool(fit_bias))
        if M.size:
            w, b = w_new, b_new
            rec.add(w, b, -1, it, batch[M])
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
    X, y = check_X_y(X, y, copy=False)  # only read
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
    X, y = check_X_y(X, y, copy=False)  # only read
    eta = check_eta(eta)
    max_iter = check_positive_int(max_iter, name="max_iter")
    reduction = check_choice(reduction, name="reduction", choices=("sum", "mean"))
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    n = X.shape[0]
    return _fit_batched(
        X, y, batch_size=n, eta=eta, max_iter=max_iter, rng=None, w0=w0, b0=b0, fit_bias=fit_bias,
        update_on=update_on, scale=1.0 if reduction == "sum" else 1.0 / n, method="batch", order="all",
    )


def reference_perceptron(
    X, y, *, eta=1.0, max_epochs=1000, w0=None, b0=0.0, fit_bias=True, update_on="nonpositive", margin=0.0
):
    """The online perceptron as a plain Python loop, cyclic order.

    The slow, obviously-correct version the fast `fit_perceptron` is tested
    against: `step` on each example in turn. Returns (w, b, updates) with updates the list of
    example indices.
    """
    X, y = check_X_y(X, y, copy=False)  # only read
    w, b = check_start(w0, b0, X.shape[1])
    updates = []
    for _ in range(max_epochs):
        changed = False
        for i in range(len(X)):
            w, b, updated = step(w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias, margin=margin)
            if updated:
                updates.append(i)
                changed = True
        if not changed:
            break
    return np.array(w), float(b), updates
