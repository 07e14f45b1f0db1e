"""The lift to three dimensions, kernels, and the dual (kernel) perceptron.

The lift ``phi(x) = (x, ||x||^2)`` sends points inside and outside a circle
about the origin to either side of a horizontal plane. Its kernel
``k(p, q) = <phi(p), phi(q)> = <p, q> + ||p||^2 ||q||^2`` lets the dual
perceptron work in the lifted space without ever forming phi.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ._validation import check_eta, check_finite_scalar, check_positive_int, check_w, check_X, check_X_y

__all__ = [
    "KERNELS",
    "BoundaryCurve",
    "DualRun",
    "GramCost",
    "circle_from_plane",
    "fit_kernel_perceptron",
    "gram_costs",
    "lift",
    "lift_kernel",
    "linear_kernel",
    "n_polynomial_features",
    "polynomial_kernel",
    "polynomial_lift",
    "quadratic_lift",
    "rbf_kernel",
]


def _check_2d(X) -> np.ndarray:
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(
            f"X must have 2 columns (points (x, y) in the plane); got shape {X.shape}."
        )
    return X


def lift(X) -> np.ndarray:
    """The lift ``(x, y) -> (x, y, x^2 + y^2)``; in general ``x -> (x, ||x||^2)``.

    Parameters
    ----------
    X : array-like, shape (n, d)
        Usually d = 2.

    Returns
    -------
    ndarray, shape (n, d + 1)

    Examples
    --------
    >>> lift([[1, 2], [0, -3]]).tolist()
    [[1.0, 2.0, 5.0], [0.0, -3.0, 9.0]]
    """
    X = check_X(X)
    return np.hstack([X, np.einsum("ij,ij->i", X, X)[:, None]])


def quadratic_lift(X) -> np.ndarray:
    """All monomials of degree 1 and 2: ``(x, y) -> (x, y, x^2, y^2, xy)``.

    A plane in these five coordinates is a general conic in the plane
    (ellipse, parabola, hyperbola, line pair), not only a circle. The
    coordinates are not scaled; the inner product of two lifted points is
    therefore not exactly a polynomial kernel (that would need factors sqrt(2)
    on some coordinates and a constant one).

    Parameters
    ----------
    X : array-like, shape (n, 2)

    Returns
    -------
    ndarray, shape (n, 5)

    Examples
    --------
    >>> quadratic_lift([[2, 3]]).tolist()
    [[2.0, 3.0, 4.0, 9.0, 6.0]]
    """
    X = _check_2d(X)
    x, y = X[:, 0], X[:, 1]
    return np.column_stack([x, y, x * x, y * y, x * y])


def _check_pair(P, Q):
    P = check_X(P, name="P")
    Q = check_X(Q, name="Q")
    if P.shape[1] != Q.shape[1]:
        raise ValueError(
            f"P and Q must have the same number of features; got P with {P.shape[1]} and Q with "
            f"{Q.shape[1]}."
        )
    return P, Q


def linear_kernel(P, Q) -> np.ndarray:
    """Gram matrix of inner products ``k(p, q) = <p, q>``.

    Parameters
    ----------
    P : array-like, shape (n_p, d)
    Q : array-like, shape (n_q, d)

    Returns
    -------
    ndarray, shape (n_p, n_q)

    Examples
    --------
    >>> linear_kernel([[1, 2]], [[3, 4], [0, 1]]).tolist()
    [[11.0, 2.0]]
    """
    P, Q = _check_pair(P, Q)
    return P @ Q.T


def lift_kernel(P, Q) -> np.ndarray:
    """Kernel of the lift: ``k(p, q) = <p, q> + ||p||^2 ||q||^2 = <lift(p), lift(q)>``.

    Parameters
    ----------
    P : array-like, shape (n_p, d)
    Q : array-like, shape (n_q, d)

    Returns
    -------
    ndarray, shape (n_p, n_q)

    Examples
    --------
    >>> lift_kernel([[1, 2]], [[3, 4]]).tolist()
    [[136.0]]
    """
    P, Q = _check_pair(P, Q)
    return P @ Q.T + np.outer(np.einsum("ij,ij->i", P, P), np.einsum("ij,ij->i", Q, Q))


def polynomial_kernel(P, Q, *, degree: int = 2, c: float = 1.0) -> np.ndarray:
    """Polynomial kernel ``k(p, q) = (<p, q> + c)^degree``.

    Parameters
    ----------
    P : array-like, shape (n_p, d)
    Q : array-like, shape (n_q, d)
    degree : int >= 1
    c : float >= 0
        With c >= 0 the kernel is positive semidefinite.

    Returns
    -------
    ndarray, shape (n_p, n_q)

    Examples
    --------
    >>> polynomial_kernel([[1, 2]], [[3, 4]], degree=2, c=1.0).tolist()
    [[144.0]]
    """
    degree = check_positive_int(degree, name="degree")
    c = check_finite_scalar(c, name="c")
    if c < 0:
        raise ValueError(
            f"c must be >= 0 (a negative c can break positive semidefiniteness); got {c!r}."
        )
    P, Q = _check_pair(P, Q)
    return (P @ Q.T + c) ** degree


def rbf_kernel(P, Q, *, width: float = 1.0) -> np.ndarray:
    """Gaussian (RBF) kernel ``k(p, q) = exp(-||p - q||^2 / (2 width^2))``.

    Parameters
    ----------
    P : array-like, shape (n_p, d)
    Q : array-like, shape (n_q, d)
    width : float > 0
        The length scale (called sigma in many texts; not the margin gamma).

    Returns
    -------
    ndarray, shape (n_p, n_q)

    Examples
    --------
    >>> np.round(rbf_kernel([[0, 0]], [[0, 0], [1, 1]], width=1.0), 6).tolist()
    [[1.0, 0.367879]]
    """
    width = check_finite_scalar(width, name="width")
    if width <= 0:
        raise ValueError(f"width must be > 0 (a length scale); got {width!r}.")
    P, Q = _check_pair(P, Q)
    sq = (
        np.einsum("ij,ij->i", P, P)[:, None]
        + np.einsum("ij,ij->i", Q, Q)[None, :]
        - 2.0 * (P @ Q.T)
    )
    # Rounding can make a squared distance slightly negative; distances are never below 0.
    return np.exp(-np.maximum(sq, 0.0) / (2.0 * width**2))


KERNELS: dict[str, Callable] = {
    "linear": linear_kernel,
    "lift": lift_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
}


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
    when ``y_i * score_i <= 0``. The Gram matrix is computed once; the run
    stops after an epoch without update, or after `max_epochs`, so it ends on
    data that no kernel plane separates.

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
    scores = np.zeros(n)  # current eta * sum_j alpha_j y_j K[j, i] + b for every training point
    b = 0.0
    updates: list[int] = []
    converged = False
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        before = len(updates)
        pos = 0
        while pos < n:
            # Jump to the next mistake of this epoch instead of stepping through correct points.
            hits = np.flatnonzero(y[pos:] * scores[pos:] <= 0)
            if hits.size == 0:
                break
            i = pos + int(hits[0])
            alpha[i] += 1
            b += bias_step * y[i]
            scores += eta * y[i] * K[i] + bias_step * y[i]
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
class BoundaryCurve:
    """The curve in the plane where a plane in lifted space meets the lift.

    The plane ``w1 x + w2 y + w3 z + b = 0`` with ``z = x^2 + y^2`` gives
    ``w3 (x^2 + y^2) + w1 x + w2 y + b = 0``.

    Attributes
    ----------
    kind : {"circle", "point", "empty", "line"}
        "circle" (radius > 0), "point" (radius 0), "empty" (no real point),
        or "line" when w3 = 0.
    center : ndarray, shape (2,), or None
        ``(-w1 / (2 w3), -w2 / (2 w3))`` when w3 != 0.
    radius : float or None
        ``sqrt(cx^2 + cy^2 - b / w3)`` for "circle" and "point" (0.0).
    line : ndarray, shape (3,), or None
        ``(w1, w2, b)`` of the line ``w1 x + w2 y + b = 0`` when w3 = 0.
    inside : int or None
        For "circle" and "point", the label the lifted plane gives inside
        the circle: +1 when w3 < 0, since the score is
        ``w3 (||x - center||^2 - radius^2)``. None for "line", and for
        "empty", where every point of the plane gets the label sign(w3).
    """

    kind: str
    center: np.ndarray | None
    radius: float | None
    line: np.ndarray | None
    inside: int | None

    def __post_init__(self):
        for name in ("center", "line"):
            a = getattr(self, name)
            if a is not None:
                a.setflags(write=False)


def circle_from_plane(w, b) -> BoundaryCurve:
    """Read a lifted plane back in the plane: a circle, or a line when w3 = 0.

    Parameters
    ----------
    w : array-like, shape (3,)
        ``(w1, w2, w3)``, the weights on (x, y, x^2 + y^2); not all zero.
    b : float

    Returns
    -------
    BoundaryCurve

    Examples
    --------
    >>> c = circle_from_plane([0, 0, 1], -4)
    >>> c.kind, c.center.tolist(), c.radius, c.inside
    ('circle', [0.0, 0.0], 2.0, -1)
    """
    w = check_w(w, 3, what="the weights (w1, w2, w3) of a plane in the lifted space")
    b = check_finite_scalar(b, name="b")
    w1, w2, w3 = w
    if w3 == 0:
        if w1 == 0 and w2 == 0:
            raise ValueError(
                "w must not be zero: with w = (0, 0, 0) the equation b = 0 is no plane; got w = "
                f"{w.tolist()}."
            )
        return BoundaryCurve("line", None, None, np.array([w1, w2, b]), None)
    with np.errstate(over="ignore"):
        center = np.array([-w1 / (2 * w3), -w2 / (2 * w3)]) + 0.0  # + 0.0 turns -0.0 into 0.0
        r2 = float(center @ center - b / w3)
    if not (np.isfinite(center).all() and np.isfinite(r2)):
        raise ValueError(
            f"w3 = {w3!r} is so small next to w1, w2, b that the circle's centre or radius "
            "overflows; the curve is, to machine precision, the line w1 x + w2 y + b = 0. "
            "Use w3 = 0 to get it."
        )
    inside = 1 if w3 < 0 else -1
    if r2 < 0:
        return BoundaryCurve("empty", center, None, None, None)
    if r2 == 0:
        return BoundaryCurve("point", center, 0.0, None, inside)
    return BoundaryCurve("circle", center, float(np.sqrt(r2)), None, inside)


# --------------------------------------------------------------------------- explicit lift or kernel: the cost


def polynomial_lift(X) -> np.ndarray:
    """The explicit features of ``polynomial_kernel(degree=2, c=1)``, for points in any dimension d.

    ``phi(x) = (1, sqrt(2) x_1, ..., sqrt(2) x_d, x_1^2, ..., x_d^2, sqrt(2) x_i x_j for i < j)``,
    so that ``<phi(p), phi(q)> = (<p, q> + 1)^2``. That is ``(d + 1)(d + 2) / 2`` features
    (see `n_polynomial_features`): the explicit lift grows like d^2, while the kernel costs
    one inner product, O(d), per pair.

    Parameters
    ----------
    X : array-like, shape (n, d)

    Returns
    -------
    ndarray, shape (n, (d + 1)(d + 2) / 2)

    Examples
    --------
    >>> F = polynomial_lift([[1, 2], [3, -1]])
    >>> F.shape, round(float(F[0] @ F[1]), 9), float(polynomial_kernel([[1, 2]], [[3, -1]])[0, 0])
    ((2, 6), 4.0, 4.0)
    """
    X = check_X(X)
    n, d = X.shape
    i, j = np.triu_indices(d, k=1)
    r2 = np.sqrt(2.0)
    return np.hstack([np.ones((n, 1)), r2 * X, X * X, r2 * X[:, i] * X[:, j]])


def n_polynomial_features(d: int, degree: int = 2) -> int:
    """Number of monomials of degree at most `degree` in d variables: ``C(d + degree, degree)``.

    It is the length of the explicit feature map of ``polynomial_kernel(degree=degree, c > 0)``
    (for degree 2, the length of `polynomial_lift`).

    Examples
    --------
    >>> [n_polynomial_features(d) for d in (2, 10, 100)]
    [6, 66, 5151]
    """
    d = check_positive_int(d, name="d")
    degree = check_positive_int(degree, name="degree")
    return math.comb(d + degree, degree)


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
