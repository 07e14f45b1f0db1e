"""The perceptron's batched fits: mini-batch (`fit_minibatch`) and full batch (`fit_batch`) subgradient steps.

Each iteration takes `batch_step` (the sum of `step`'s updates over a batch's mistakes, all from one state) and
records it; both return a `Run` (see `perceptron_lib.core.runs`). The online fit is `perceptron_lib.core.training`.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice, check_eta, check_positive_int, check_rng, check_start, check_X_y
from .perceptron import UPDATE_RULES, batch_step, is_mistake, scores
from .recorder import Recorder
from .runs import Run

__all__ = ["fit_minibatch", "fit_batch"]


def _fit_batched(X, y, *, batch_size, eta, max_iter, rng, w0, b0, fit_bias, update_on, scale, method, order):
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    rec = Recorder(w, b)
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
