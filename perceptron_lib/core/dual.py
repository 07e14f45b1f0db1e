"""The dual (kernel) perceptron, and what its Gram matrix costs against explicit features.

The dual perceptron keeps one mistake count ``alpha_i`` per training point and scores
``f(x) = sum_i alpha_i y_i k(x_i, x) + b``; with a kernel from `perceptron_lib.core.kernels` it works
in the lifted space without ever forming the lift. `gram_costs` times that Gram matrix both ways.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_eta, check_positive_int, check_X, check_X_y
from .kernels import KERNELS, n_polynomial_features, polynomial_kernel, polynomial_lift
from .perceptron import is_mistake

__all__ = ["DualRun", "GramCost", "fit_kernel_perceptron", "gram_costs"]


@dataclass(frozen=True)
class DualRun:
    """The result of the dual perceptron.

    Attributes
    ----------
    alpha : ndarray of int, shape (n,)
        How often each training example was updated on.
    b : float
        Offset, ``eta * sum_i alpha_i y_i`` (0.0 with ``fit_bias=False``).
    mistakes : int
        Number of updates, ``alpha.sum()``.
    epochs : int
    converged : bool
        The last epoch made no update.
    updates : ndarray of int, shape (mistakes,)
        The example updated on at each step, in order (the list E).
    kernel : str or callable
    kernel_params : dict
    eta : float
    fit_bias : bool
    X_train : ndarray, shape (n, d)
    y_train : ndarray, shape (n,)
    """

    alpha: np.ndarray
    b: float
    mistakes: int
    epochs: int
    converged: bool
    updates: np.ndarray
    kernel: str | Callable
    kernel_params: dict = field(repr=False)
    eta: float
    fit_bias: bool
    X_train: np.ndarray = field(repr=False)
    y_train: np.ndarray = field(repr=False)

    def __post_init__(self):
        for name in ("alpha", "updates", "X_train", "y_train"):
            getattr(self, name).setflags(write=False)

    def decision_function(self, X) -> np.ndarray:
        """Scores ``eta * sum_i alpha_i y_i k(x_i, x) + b`` for the rows of X, shape (n,)."""
        X = check_X(X)
        if X.shape[1] != self.X_train.shape[1]:
            raise ValueError(
                f"X must have {self.X_train.shape[1]} features like the training data; got "
                f"{X.shape[1]}."
            )
        used = np.flatnonzero(self.alpha)  # a fit always makes at least one update
        K = _gram(self.kernel, self.kernel_params, self.X_train[used], X)
        return self.eta * ((self.alpha[used] * self.y_train[used]) @ K) + self.b

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}, with sgn(0) = -1."""
        return np.where(self.decision_function(X) > 0, 1, -1)


def _gram(kernel, params: dict, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    fn = KERNELS[kernel] if isinstance(kernel, str) else kernel
    K = np.asarray(fn(P, Q, **params), dtype=np.float64)
    if K.shape != (P.shape[0], Q.shape[0]):
        raise ValueError(
            "kernel must return a Gram matrix of shape (len(P), len(Q)) = "
            f"{(P.shape[0], Q.shape[0])}; got shape {K.shape}."
        )
    if not np.isfinite(K).all():
        raise ValueError("kernel returned NaN or inf; check its parameters.")
    return K


def fit_kernel_perceptron(
    X,
    y,
    *,
    kernel="lift",
    kernel_params=None,
    max_epochs: int = 100,
    fit_bias: bool = True,
    eta: float = 1.0,
) -> DualRun:
    """The perceptron in dual form, with a kernel in place of the inner product.

    Starting from w = 0, b = 0, the primal weights are always
    ``w = eta * sum_i alpha_i y_i phi(x_i)``, so the score of x is
    ``eta * sum_i alpha_i y_i k(x_i, x) + b``. The examples are visited in
    cyclic order; example i is updated on (``alpha_i += 1``, ``b += eta y_i``)
    when ``y_i * score_i <= 0``, by `perceptron.is_mistake`, the test of `step`. The Gram
    matrix is computed once; the run stops after an epoch without update, or after
    `max_epochs`, so it ends on data that no kernel plane separates.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    kernel : {"lift", "linear", "polynomial", "rbf"} or callable
        A callable takes (P, Q) and returns the Gram matrix, shape (len(P), len(Q)).
    kernel_params : dict, optional
        Keyword arguments for the kernel, e.g. ``{"degree": 3}`` or ``{"width": 0.5}``.
    max_epochs : int >= 1
    fit_bias : bool
    eta : float > 0

    Returns
    -------
    DualRun

    Examples
    --------
    >>> X = [[0, 0], [2, 0], [0, 2], [-2, 0], [0, -2]]
    >>> run = fit_kernel_perceptron(X, [1, -1, -1, -1, -1], kernel="lift")
    >>> run.converged, run.predict([[0.1, 0.2], [3, 3]]).tolist()
    (True, [1, -1])
    """
    X, y = check_X_y(X, y)
    if isinstance(kernel, str):
        if kernel not in KERNELS:
            options = ", ".join(repr(k) for k in KERNELS)
            raise ValueError(
                f"kernel must be one of {options} or a callable k(P, Q); got {kernel!r}."
            )
    elif not callable(kernel):
        raise TypeError(
            f"kernel must be a name or a callable k(P, Q) -> Gram matrix; got {kernel!r}."
        )
    if kernel_params is None:
        kernel_params = {}
    elif not isinstance(kernel_params, dict):
        raise TypeError(
            f"kernel_params must be a dict of keyword arguments; got {kernel_params!r}."
        )
    kernel_params = dict(kernel_params)
    max_epochs = check_positive_int(max_epochs, name="max_epochs")
    if not isinstance(fit_bias, (bool, np.bool_)):
        raise TypeError(f"fit_bias must be True or False; got {fit_bias!r}.")
    eta = check_eta(eta)
    n = X.shape[0]
    K = _gram(kernel, kernel_params, X, X)
    bias_step = eta if fit_bias else 0.0

    alpha = np.zeros(n, dtype=np.int64)
    f = np.zeros(n)  # the scores eta * sum_j alpha_j y_j K[j, i] + b of the training points
    size = np.zeros(n)  # eta * sum_j alpha_j |K[j, i]| plus the bias steps: the size rounding scales with
    b = 0.0
    updates: list[int] = []
    converged = False
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        before = len(updates)
        pos = 0
        while pos < n:
            # Jump to the next mistake of this epoch instead of stepping through correct points; the
            # test is `step`'s, with its meaning of zero (a score within rounding of 0 is 0).
            hits = np.flatnonzero(is_mistake(f[pos:], y[pos:], "nonpositive", size=size[pos:]))
            if hits.size == 0:
                break
            i = pos + int(hits[0])
            alpha[i] += 1
            b += bias_step * y[i]
            f += eta * y[i] * K[i] + bias_step * y[i]
            size += eta * np.abs(K[i]) + bias_step  # the size of the terms summed into each score
            updates.append(i)
            pos = i + 1
        if len(updates) == before:
            converged = True
            break
    return DualRun(
        alpha=alpha,
        b=float(b),
        mistakes=len(updates),
        epochs=epoch,
        converged=converged,
        updates=np.array(updates, dtype=np.intp),
        kernel=kernel,
        kernel_params=kernel_params,
        eta=eta,
        fit_bias=bool(fit_bias),
        X_train=X,
        y_train=y,
    )


@dataclass(frozen=True)
class GramCost:
    """One row of `gram_costs`: the Gram matrix of n points in d dimensions, computed two ways.

    Attributes
    ----------
    d : int
        Dimension of the points.
    features : int
        Length of the explicit degree-2 lift, ``(d + 1)(d + 2) / 2``.
    explicit_s : float
        Seconds to lift the points and take all inner products of the lifted points (best of
        `repeat`).
    kernel_s : float
        Seconds for ``(<p, q> + 1)^2`` on all pairs (best of `repeat`).
    max_rel_diff : float
        Largest difference between the two Gram matrices, relative to the largest entry.
    """

    d: int
    features: int
    explicit_s: float
    kernel_s: float
    max_rel_diff: float

    @property
    def ratio(self) -> float:
        """How many times slower the explicit lift was."""
        return self.explicit_s / self.kernel_s if self.kernel_s > 0 else math.inf


def _best_time(fn, repeat: int):
    out = fn()  # warm-up: the first call pays for caches and thread start-up
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def gram_costs(ds=(10, 40, 160), *, n: int = 200, seed=0, repeat: int = 5) -> list:
    """Time the Gram matrix of n random points through `polynomial_lift` and through the kernel.

    For each d, draws n points from a standard normal (seeded), then computes the n x n Gram
    matrix twice: as ``polynomial_lift(X) @ polynomial_lift(X).T`` (forming all O(d^2)
    features), and as ``polynomial_kernel(X, X, degree=2, c=1)`` (one inner product per pair).
    The two matrices agree to rounding (``max_rel_diff``). The times depend on the machine and
    vary from run to run: print them, never test them.

    Parameters
    ----------
    ds : sequence of int >= 1
    n : int >= 1
    seed : int or numpy.random.Generator
    repeat : int >= 1
        Each time is the best of this many runs, after one warm-up run.

    Returns
    -------
    list of GramCost

    Examples
    --------
    >>> rows = gram_costs((3, 5), n=20)
    >>> [(r.d, r.features) for r in rows], all(r.max_rel_diff < 1e-12 for r in rows)
    ([(3, 10), (5, 21)], True)
    """
    n = check_positive_int(n, name="n")
    repeat = check_positive_int(repeat, name="repeat")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    try:  # one BLAS thread: on a busy machine, thread start-up and contention would swamp small products
        from threadpoolctl import threadpool_limits

        limit = threadpool_limits(limits=1)
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        limit = contextlib.nullcontext()
    with limit:
        return [_gram_cost(check_positive_int(d, name="d"), n, rng, repeat) for d in ds]


def _gram_cost(d, n, rng, repeat) -> GramCost:
    X = rng.normal(size=(n, d))

    def explicit():
        F = polynomial_lift(X)
        return F @ F.T

    t_explicit, K1 = _best_time(explicit, repeat)
    t_kernel, K2 = _best_time(lambda: polynomial_kernel(X, X, degree=2, c=1.0), repeat)
    rel = float(np.abs(K1 - K2).max() / np.abs(K2).max())
    return GramCost(d, n_polynomial_features(d), t_explicit, t_kernel, rel)
