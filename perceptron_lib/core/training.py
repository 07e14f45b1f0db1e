"""The perceptron's fits: online (`fit_perceptron`), mini-batch, batch, and a plain reference.

Every fit returns a `Run` (see `perceptron_lib.core.runs`).

The online fit produces exactly the trajectory of the sequential algorithm, but
it does not loop in Python over every example: it computes the margins of a
chunk of upcoming examples at once, jumps to the first mistake, updates, and
carries on after it. The cost is O(updates x chunk x d) numpy work plus
O(updates x d) history, never O(n x epochs) Python steps.
"""

from __future__ import annotations

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
from .perceptron import UPDATE_RULES, ZERO_TOL, is_mistake, scores, step
from .runs import Cycle, History, Run

__all__ = ["fit_perceptron", "fit_minibatch", "fit_batch", "reference_perceptron"]

ORDERS = ("cyclic", "random")


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
    X, y = check_X_y(X, y)
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

    # Work with margins directly, b folded in: m = [y*x, y] @ [w, b], one matmul per chunk.
    # Each update adds the row eta*[y_i x_i, y_i] (its last entry 0 when b is not fitted).
    Z = np.empty((n, d + 1))
    np.multiply(X, y[:, None], out=Z[:, :d])
    Z[:, d] = y
    scale = np.full(d + 1, eta)
    scale[d] = eta if fit_bias else 0.0
    wb = np.append(w, b)
    size_x = np.linalg.norm(X, axis=1)  # |x_i|, for the size of each score's terms
    seen: dict[bytes, tuple[int, int]] = {}
    converged, cycle = False, None
    chunk = _MIN_CHUNK
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        idx = None if gen is None else gen.permutation(n)
        Zo = Z if idx is None else Z[idx]
        size_o = size_x if idx is None else size_x[idx]
        before = rec.n
        pos = 0
        while pos < n:
            stop = min(pos + chunk, n)
            m = Zo[pos:stop] @ wb
            # Rounding around 0 is 0 (perceptron.ZERO_TOL): the same test as `step`, on every CPU.
            m[np.abs(m) <= ZERO_TOL * (np.linalg.norm(wb[:d]) * size_o[pos:stop] + abs(wb[d]))] = 0.0
            if update_on == "nonpositive":
                hit = m <= margin
            elif update_on == "negative":
                hit = m < margin
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
        fit_bias=bool(fit_bias), n_samples=n, margin=margin,
    )


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
    bias_step = 1.0 if fit_bias else 0.0
    converged = False
    it = 0
    all_idx = np.arange(n)
    while it < max_iter:
        if not is_mistake(scores(w, b, X), y, update_on).any():
            converged = True
            break
        it += 1
        batch = all_idx if batch_size == n else np.sort(rng.choice(n, size=batch_size, replace=False))
        M = batch[is_mistake(scores(w, b, X[batch]), y[batch], update_on)]
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


def reference_perceptron(
    X, y, *, eta=1.0, max_epochs=1000, w0=None, b0=0.0, fit_bias=True, update_on="nonpositive", margin=0.0
):
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
            w, b, updated = step(w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias, margin=margin)
            if updated:
                updates.append(i)
                changed = True
        if not changed:
            break
    return np.array(w), float(b), updates
