"""The lift to three dimensions, polynomial features, and kernel functions.

The lift ``phi(x) = (x, ||x||^2)`` sends points inside and outside a circle
about the origin to either side of a horizontal plane. Its kernel
``k(p, q) = <phi(p), phi(q)> = <p, q> + ||p||^2 ||q||^2`` lets the dual
perceptron work in the lifted space without ever forming phi.

The dual (kernel) perceptron that uses these kernels, and the cost of its Gram matrix,
live in `perceptron_lib.core.dual`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validation import check_finite_scalar, check_positive_int, check_w, check_X

__all__ = [
    "KERNELS",
    "BoundaryCurve",
    "circle_from_plane",
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
