"""The perceptron's mistake bounds: (R / gamma)^2 through the origin, with an offset, and
without separability (the hinge-loss bound of Freund and Schapire).

Built on the margins, radius and maximum-margin separator of `perceptron_lib.core.margins`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_w, check_w_b, check_X_y, read_only
from .margins import max_margin_separator, radius

__all__ = ["HingeBound", "MistakeBound", "hinge_mistake_bound", "mistake_bound", "offset_mistake_bound"]


@dataclass(frozen=True)
class MistakeBound:
    """A perceptron mistake bound and the quantities it is made of.

    Attributes
    ----------
    bound : float
        The bound on the number of updates.
    R : float
        Data radius max_i ||x_i||.
    gamma : float
        Margin of the separator: ``min_i y_i (<w, x_i> + b)`` with ``||w|| = 1``
        (rho in the pattern-recognition lecture).
    w : ndarray, shape (d,)
        The unit separator used.
    b : float
        Its offset (0.0 for the homogeneous bound).
    form : {"homogeneous", "offset"}
    """

    bound: float
    R: float
    gamma: float
    w: np.ndarray
    b: float
    form: str

    def __post_init__(self):
        read_only(self.w)


def _not_separating(name: str, gamma: float) -> ValueError:
    return ValueError(
        f"{name} does not separate the data: its margin min_i y_i(...) is {gamma:.6g} <= 0, and "
        f"the bound needs a separator with a positive margin. Leave {name} out to use the "
        "maximum-margin separator."
    )


def mistake_bound(X, y, *, u=None) -> MistakeBound:
    """The homogeneous mistake bound ``(R / gamma)^2``.

    If a unit vector u has ``y_i <u, x_i> >= gamma > 0`` for all i and
    ``||x_i|| <= R``, the perceptron without offset, from w = 0, makes at most
    ``(R / gamma)^2`` updates, in any order and with any eta > 0.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    u : array-like, shape (d,), optional
        A separator through the origin; it is scaled to unit length. Default:
        the maximum-margin separator through the origin, which gives the
        smallest bound of this form.

    Returns
    -------
    MistakeBound

    Raises
    ------
    ValueError
        If u does not separate the data (gamma <= 0), or, with u omitted, if no
        hyperplane through the origin separates them.

    Examples
    --------
    >>> mb = mistake_bound([[1, 0], [0, 1]], [1, -1])
    >>> round(mb.R, 6), round(mb.gamma, 6), round(mb.bound, 6)
    (1.0, 0.707107, 2.0)
    """
    X, y = check_X_y(X, y)
    if u is None:
        u = max_margin_separator(X, y, fit_bias=False).w
    u = check_w(u, X.shape[1], name="u")
    norm = np.linalg.norm(u)
    if norm == 0:
        raise ValueError(
            "u must not be the zero vector; give the normal of a separating hyperplane."
        )
    u = u / norm
    gamma = float(np.min(y * (X @ u)))
    if gamma <= 0:
        raise _not_separating("u", gamma)
    R = radius(X)
    return MistakeBound(bound=(R / gamma) ** 2, R=R, gamma=gamma, w=u, b=0.0, form="homogeneous")


def offset_mistake_bound(X, y, *, w=None, b=None) -> MistakeBound:
    """The mistake bound with offset, ``(b^2 + 1)(1 + R^2) / gamma^2``.

    With ``||w|| = 1``, ``y_i (<w, x_i> + b) >= gamma > 0`` and ``||x_i|| <= R``,
    the perceptron with offset, from (0, 0), makes at most this many updates.
    It is the homogeneous bound applied to the augmented points ``(1, x_i)``
    (norm at most ``sqrt(1 + R^2)``) and the augmented separator ``(b, w)``
    (norm ``sqrt(b^2 + 1)``, margin ``gamma / sqrt(b^2 + 1)``).

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    w : array-like, shape (d,), optional
    b : float, optional
        A separator; (w, b) is scaled so that ``||w|| = 1``. Give both or
        neither. Default: the maximum-margin separator with offset. That is a
        valid choice, not always the one minimising this bound (the ``b^2``
        factor favours hyperplanes near the origin).

    Returns
    -------
    MistakeBound
        ``gamma`` is the margin rho of the unit separator, ``b`` its offset.

    Raises
    ------
    ValueError
        If (w, b) does not separate the data, or, with them omitted, if the
        data are not linearly separable.

    Examples
    --------
    >>> mb = offset_mistake_bound([[0, 0], [2, 0]], [-1, 1], w=[1, 0], b=-1)
    >>> mb.R, mb.gamma, mb.bound
    (2.0, 1.0, 10.0)
    """
    X, y = check_X_y(X, y)
    if (w is None) != (b is None):
        raise ValueError("give both w and b, or neither (to use the maximum-margin separator).")
    if w is None:
        sep = max_margin_separator(X, y, fit_bias=True)
        w, b = sep.w, sep.b
    w, b = check_w_b(w, b, X.shape[1])
    norm = np.linalg.norm(w)
    if norm == 0:
        raise ValueError(
            "w must not be the zero vector; give the normal of a separating hyperplane."
        )
    w, b = w / norm, b / norm
    gamma = float(np.min(y * (X @ w + b)))
    if gamma <= 0:
        raise _not_separating("(w, b)", gamma)
    R = radius(X)
    b = float(b)
    bound = (b * b + 1.0) * (1.0 + R * R) / gamma**2
    return MistakeBound(bound=bound, R=R, gamma=gamma, w=w, b=b, form="offset")


@dataclass(frozen=True)
class HingeBound:
    """The mistake bound without separability, for a comparator u at margin gamma.

    Attributes
    ----------
    bound : float
        Freund and Schapire's ``((R + D) / gamma)^2`` (their Theorem 2).
    bound_linear : float
        A different bound, from the total hinge loss L: ``L + (R/gamma) sqrt(L) + (R/gamma)^2``.
        Neither of the two implies the other.
    R : float
        Radius of the sequence, max ||x_t||.
    gamma : float
    D : float
        ``sqrt(sum_t d_t^2)`` with ``d_t = max(0, gamma - y_t <u, x_t>)``, u of unit length.
    hinge_total : float
        L = ``sum_t max(0, 1 - y_t <u, x_t> / gamma)``: the hinge loss of u / gamma, summed.
    passes : int
        How often the data are repeated in the sequence.
    """

    bound: float
    bound_linear: float
    R: float
    gamma: float
    D: float
    hinge_total: float
    passes: int


def hinge_mistake_bound(X, y, *, u, gamma: float, passes: int = 1) -> HingeBound:
    """Two mistake bounds of the perceptron through the origin that need no separating line.

    Let the perceptron run from w = 0 (test ``<= 0``, any eta) on a sequence of examples with
    ``||x_t|| <= R``. For any unit u and any gamma > 0 let ``d_t = max(0, gamma - y_t <u, x_t>)`` be
    the shortfall of example t and ``D = sqrt(sum_t d_t^2)``. Then the run makes at most
    ``((R + D) / gamma)^2`` mistakes (Freund and Schapire 1999, Theorem 2; their Theorem 1 is
    Block-Novikoff's). Proof: give occurrence t its own extra coordinate of size Delta; the data
    become separable with margin ``gamma / sqrt(1 + D^2 / Delta^2)``, Novikoff's bound applies, and
    ``Delta^2 = R D`` minimises it.

    A separate bound comes from Novikoff's two inequalities directly: with
    ``L = sum_t max(0, 1 - y_t <u, x_t> / gamma)`` the total hinge loss of u / gamma,
    ``M - L <= (R/gamma) sqrt(M)``, so ``M <= L + (R/gamma) sqrt(L) + (R/gamma)^2``. Neither bound
    implies the other: in the example below the first gives 4 and the second 3, and on other data
    the order is the other way round. Both hold for every u and gamma, so the
    smallest over them is a bound too. When u separates with margin gamma, D = L = 0 and both are
    Novikoff's ``(R/gamma)^2``.

    The sequence here is the data (X, y) repeated `passes` times (in any order within a pass):
    every occurrence has its own shortfall, so D^2 and L grow with the passes. With an offset,
    apply the bounds to the points (1, x) as `offset_mistake_bound` does.

    Examples
    --------
    >>> hb = hinge_mistake_bound([[1.0, 0.0], [0.0, 1.0]], [1, 1], u=[1.0, 0.0], gamma=1.0)
    >>> hb.D, hb.hinge_total, hb.bound, hb.bound_linear
    (1.0, 1.0, 4.0, 3.0)
    """
    X, y = check_X_y(X, y)
    u = check_w(u, X.shape[1], name="u")
    norm = np.linalg.norm(u)
    if norm == 0:
        raise ValueError("u must not be the zero vector; give the normal of a comparison line.")
    gamma = float(gamma)
    if not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"gamma must be a number > 0; got {gamma!r}.")
    if not isinstance(passes, (int, np.integer)) or isinstance(passes, bool) or passes < 1:
        raise ValueError(f"passes must be a whole number >= 1; got {passes!r}.")
    u = u / norm
    short = np.maximum(0.0, gamma - y * (X @ u))
    D = float(np.sqrt(passes * np.sum(short**2)))
    L = float(passes * np.sum(short) / gamma)
    R = radius(X)
    q = R / gamma
    return HingeBound(
        bound=((R + D) / gamma) ** 2, bound_linear=float(L + q * np.sqrt(L) + q * q), R=R, gamma=gamma, D=D,
        hinge_total=L, passes=int(passes),
    )
