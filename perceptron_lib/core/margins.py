"""Margins, the data radius, separability, and the maximum-margin separator.

The geometric margin of (w, b) on a data set is ``min_i y_i (<w, x_i> + b) / ||w||``:
positive exactly when (w, b) separates the data, and negative otherwise (it is
not an absolute value). The functional margins ``y_i (<w, x_i> + b)`` are
`perceptron_lib.core.losses.margins`.

The perceptron's mistake bounds built from these margins are in `perceptron_lib.core.bounds`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_w_b, check_X, check_X_y, read_only

__all__ = [
    "Separability",
    "Separator",
    "geometric_margin",
    "is_separable",
    "max_margin_separator",
    "radius",
]


def _check_fit_bias(fit_bias) -> bool:
    if not isinstance(fit_bias, (bool, np.bool_)):
        raise TypeError(f"fit_bias must be True or False; got {fit_bias!r}.")
    return bool(fit_bias)



def geometric_margin(w, b, X, y) -> float:
    """The geometric margin ``min_i y_i (<w, x_i> + b) / ||w||``.

    The distance from the hyperplane to the closest point when (w, b)
    separates the data; otherwise 0 or negative (minus the depth of the worst
    mistake). It does not depend on the length of w.

    Parameters
    ----------
    w : array-like, shape (d,), not zero
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)

    Returns
    -------
    float

    Examples
    --------
    >>> geometric_margin([3, 4], 0, [[3, 4], [-3, 0]], [1, -1])
    1.8
    >>> geometric_margin([3, 4], 0, [[3, 4], [-3, 0]], [1, 1])
    -1.8
    """
    X, y = check_X_y(X, y)
    w, b = check_w_b(w, b, X.shape[1])
    norm = np.linalg.norm(w)
    if norm == 0:
        raise ValueError(
            "w must not be the zero vector: w = 0 defines no hyperplane and has no geometric "
            "margin; "
            f"got w = {w.tolist()}."
        )
    return float(np.min(y * (X @ w + b)) / norm)


def radius(X) -> float:
    """The data radius R = max_i ||x_i||, the smallest ball about the origin holding the data.

    Parameters
    ----------
    X : array-like, shape (n, d)

    Returns
    -------
    float

    Examples
    --------
    >>> radius([[3, 4], [1, 0]])
    5.0
    """
    X = check_X(X)
    return float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))


# --- separability (linear programme) ------------------------------------------------------------


@dataclass(frozen=True)
class Separability:
    """Whether a data set is linearly separable, with a separator if it is.

    Attributes
    ----------
    separable : bool
    w : ndarray, shape (d,), or None
        A separator with ``y_i (<w, x_i> + b) >= 1`` (up to solver tolerance)
        for all i; None when not separable.
    b : float or None
        Its offset (0.0 when ``fit_bias=False``); None when not separable.
    fit_bias : bool
    """

    separable: bool
    w: np.ndarray | None
    b: float | None
    fit_bias: bool

    def __post_init__(self):
        read_only(self.w)

    def __bool__(self) -> bool:
        return self.separable


#: The last `_lp_separator` answer with its question's bits (data up to `_LP_KEPT` numbers): `own_data.summarize`
#: asks `is_separable` and then `max_margin_separator` (through the mistake bound) the same question, one LP.
_LP_LAST: list = [None]
_LP_KEPT = 100_000


def _lp_separator(X: np.ndarray, y: np.ndarray, fit_bias: bool):
    """A separator with all margins >= 1 from an LP, or None if the LP is infeasible; the same answer (a copy) for
    the same X, y and fit_bias as the call before (`_LP_LAST`)."""
    key = (X.shape, X.dtype.str, y.dtype.str, bool(fit_bias), X.tobytes(), y.tobytes()) if X.size <= _LP_KEPT else None
    last = _LP_LAST[0]
    if key is not None and last is not None and last[0] == key:  # the same bits asked again
        return None if last[1] is None else (last[1][0].copy(), last[1][1])
    found = _lp_solve(X, y, fit_bias)
    if key is not None:
        _LP_LAST[0] = (key, None if found is None else (found[0].copy(), found[1]))
    return found


def _lp_solve(X: np.ndarray, y: np.ndarray, fit_bias: bool):
    """`_lp_separator`'s LP, solved."""
    from scipy.optimize import linprog  # imported here: scipy.optimize takes ~0.5 s to import

    n, d = X.shape
    # Scaling the points into the unit ball keeps the LP well conditioned whatever the units of X.
    scale = max(float(np.sqrt(np.einsum("ij,ij->i", X, X).max())), 1e-300)
    Xs = X / scale
    A = -(y[:, None] * np.hstack([Xs, np.ones((n, 1))]))
    bounds = [(None, None)] * d + [(None, None) if fit_bias else (0.0, 0.0)]
    res = linprog(np.zeros(d + 1), A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    if res.status == 2:
        return None
    if res.status != 0:
        raise RuntimeError(
            f"the separability LP did not finish (scipy status {res.status}: {res.message})."
        )
    w, b = res.x[:d] / scale, float(res.x[d])
    # Trust the LP only if its answer really separates: a margin lost to solver tolerance means
    # "no".
    if np.min(y * (X @ w + b)) <= 0:
        return None
    return w, b


def is_separable(X, y, *, fit_bias: bool = True) -> Separability:
    """Decide whether some hyperplane separates the two classes strictly.

    Solves the linear feasibility problem ``y_i (<w, x_i> + b) >= 1`` for all i
    (with b = 0 when ``fit_bias=False``: a hyperplane through the origin). Any
    strict separator can be scaled to meet it, so it is feasible exactly when
    the data are separable. The answer is exact up to the LP solver's
    tolerance (about 1e-7 relative): data separable only with a margin far
    below that are reported as not separable.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    fit_bias : bool
        Allow an offset b.

    Returns
    -------
    Separability
        Truthy when separable; carries a separator (w, b) then.

    Examples
    --------
    >>> bool(is_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]))
    False
    >>> sep = is_separable([[1, 1], [3, 3]], [1, -1])
    >>> sep.separable, is_separable([[1, 1], [3, 3]], [1, -1], fit_bias=False).separable
    (True, False)
    """
    fit_bias = _check_fit_bias(fit_bias)
    X, y = check_X_y(X, y)
    found = _lp_separator(X, y, fit_bias)
    if found is None:
        return Separability(False, None, None, fit_bias)
    return Separability(True, found[0], found[1], fit_bias)


# --- maximum margin -------------------------------------------------------------------------


@dataclass(frozen=True)
class Separator:
    """The maximum-margin (hard-margin SVM) separator.

    Attributes
    ----------
    w : ndarray, shape (d,)
        Unit normal, ``||w|| = 1``.
    b : float
        Offset (0.0 when ``fit_bias=False``).
    gamma : float
        Its margin ``min_i y_i (<w, x_i> + b)``, the largest over all unit w
        (and all b, with ``fit_bias=True``).
    support : ndarray of int
        The examples at distance gamma (up to a relative 1e-6): the support vectors.
    fit_bias : bool
    """

    w: np.ndarray
    b: float
    gamma: float
    support: np.ndarray
    fit_bias: bool

    def __post_init__(self):
        read_only(self.w)
        read_only(self.support)


def _geometric(w, b, X, y) -> float:
    norm = np.linalg.norm(w)
    return float(np.min(y * (X @ w + b)) / norm) if norm > 0 else -np.inf


def _polish(Z, y, w, b, fit_bias):
    """Solve the KKT equations exactly on the active set found by the iterative solver."""
    m = y * (Z @ w + b)
    active = np.flatnonzero(m <= 1 + 1e-6)
    if active.size == 0:
        return None
    A = y[active, None] * Z[active]
    if fit_bias:
        ya = y[active]
        K = np.block([[A @ A.T, ya[:, None]], [ya[None, :], np.zeros((1, 1))]])
        rhs = np.append(np.ones(active.size), 0.0)
    else:
        K, rhs = A @ A.T, np.ones(active.size)
    sol = np.linalg.lstsq(K, rhs, rcond=None)[0]
    lam = sol[: active.size]
    if (lam < -1e-9 * max(1.0, np.abs(lam).max())).any():
        return None
    # Stationarity gives w = A^T lam and sum_i lam_i y_i = 0; the active constraints A w + y b = 1.
    w_new = A.T @ lam
    b_new = float(sol[-1]) if fit_bias else 0.0
    return w_new, b_new


def max_margin_separator(X, y, *, fit_bias: bool = True) -> Separator:
    """The separator with the largest margin: the hard-margin support vector machine.

    Solves ``min ||w||^2 / 2`` subject to ``y_i (<w, x_i> + b) >= 1`` (the QP),
    then rescales to ``||w|| = 1`` so that gamma = 1 / ||w_QP|| is the margin.
    The QP is solved by SLSQP in the span of the data (at most min(n, d)
    unknowns) and then polished by solving the optimality (KKT) equations on
    the active constraints, which makes gamma accurate to rounding.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    fit_bias : bool
        With False, the best hyperplane through the origin.

    Returns
    -------
    Separator

    Raises
    ------
    ValueError
        If the data are not linearly separable (with an offset, or through the
        origin when ``fit_bias=False``), or if ``fit_bias=True`` and only one
        class is present (the margin is then unbounded).

    Examples
    --------
    >>> sep = max_margin_separator([[0, 0], [2, 2]], [-1, 1])
    >>> np.round(sep.w, 6).tolist(), round(sep.b, 6), round(sep.gamma, 6)
    ([0.707107, 0.707107], -1.414214, 1.414214)
    """
    from scipy.optimize import minimize  # imported here: scipy.optimize takes ~0.5 s to import

    fit_bias = _check_fit_bias(fit_bias)
    X, y = check_X_y(X, y)
    if fit_bias and np.unique(y).size < 2:
        raise ValueError(
            "y holds only one class: with an offset the margin can grow without limit, so there is "
            "no maximum-margin separator. Give examples of both classes, or use fit_bias=False."
        )
    start = _lp_separator(X, y, fit_bias)
    if start is None:
        where = "" if fit_bias else " by a hyperplane through the origin"
        hint = "" if fit_bias else " Try fit_bias=True, or"
        raise ValueError(
            f"the data are not linearly separable{where}: no (w, b) has y_i(<w, x_i> + b) > 0 "
            f"for all i, so there is no maximum-margin separator.{hint} check is_separable(X, y) "
            "first."
        )
    n, d = X.shape
    R = float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))
    # The optimal w lies in the span of the x_i (a part orthogonal to them only adds length),
    # so work in an orthonormal basis of that span, scaled into the unit ball.
    _, s, Vt = np.linalg.svd(X / R, full_matrices=False)
    V = Vt[: int((s > s[0] * max(n, d) * np.finfo(float).eps).sum())].T
    Z = (X / R) @ V
    r = Z.shape[1]
    candidates = [(start[0], start[1])]

    w0 = np.append(V.T @ (start[0] * R), start[1])
    yZ = np.hstack([y[:, None] * Z, y[:, None] if fit_bias else np.zeros((n, 1))])
    res = minimize(
        lambda v: 0.5 * v[:r] @ v[:r],
        w0,
        jac=lambda v: np.append(v[:r], 0.0),
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda v: yZ @ v - 1.0, "jac": lambda v: yZ}],
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    wz, bz = res.x[:r], float(res.x[r]) if fit_bias else 0.0
    candidates.append((V @ wz / R, bz))
    polished = _polish(Z, y, wz, bz, fit_bias)
    if polished is not None:
        candidates.append((V @ polished[0] / R, polished[1]))
    # Candidates within rounding of the best margin are equally good; take the last (the polished
    # one when it is among them), so last-bit differences between machines cannot switch candidates.
    margins_found = np.array([_geometric(w, b, X, y) for w, b in candidates])
    best = margins_found.max()
    w, b = candidates[int(np.flatnonzero(margins_found >= best - 1e-9 * max(abs(best), 1e-12))[-1])]
    norm = np.linalg.norm(w)
    w, b = w / norm, b / norm
    m = y * (X @ w + b)
    gamma = float(m.min())
    support = np.flatnonzero(m <= gamma + 1e-6 * max(gamma, 1e-12 * R))
    return Separator(w=w, b=float(b), gamma=gamma, support=support, fit_bias=fit_bias)
