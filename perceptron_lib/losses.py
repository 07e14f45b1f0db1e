"""Losses of a linear classifier (w, b), their subgradients, and their surfaces.

Every loss here is a function of the functional margins
``m_i = y_i (<w, x_i> + b)``:

- 0-1 loss ``1[m <= 0]``: a point exactly on the boundary counts as an error,
  matching the perceptron's update test ``y * score <= 0``;
- perceptron loss ``max(0, -m)``: convex, piecewise linear, 0 at (w, b) = (0, 0);
- hinge loss ``max(0, 1 - m)``: a different function, with a margin of 1.

Data losses average (``reduction="mean"``, the script) or add up
(``reduction="sum"``, the slides) the pointwise losses; the minimisers are the
same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import (
    check_choice,
    check_finite_scalar,
    check_positive_int,
    check_w_b,
    check_X,
    check_X_y,
    numeric_array,
)

__all__ = [
    "LOSSES",
    "REDUCTIONS",
    "Subgradient",
    "hinge_loss",
    "kink_lines",
    "loss_along_run",
    "loss_of_margin",
    "loss_surface",
    "margins",
    "param_grid",
    "perceptron_loss",
    "perceptron_subgradient",
    "signed_distance",
    "slope_of_margin",
    "zero_one_loss",
]

LOSSES = ("zero_one", "perceptron", "hinge")
REDUCTIONS = ("mean", "sum")

# Largest (grid points x examples) block evaluated at once by `loss_surface`: 2**21 doubles = 16 MB.
_SURFACE_BLOCK = 2**21


def _check_at_kink(at_kink) -> float:
    theta = check_finite_scalar(at_kink, name="at_kink")
    if not 0.0 <= theta <= 1.0:
        raise ValueError(
            f"at_kink must lie in [0, 1] (the subdifferential at the kink is theta * (-y x, -y) "
            f"for theta in [0, 1]); got {at_kink!r}. Use 0 (the script) or 1 (the slides)."
        )
    return theta


def _pointwise(m: np.ndarray, loss: str) -> np.ndarray:
    if loss == "zero_one":
        return (m <= 0).astype(np.float64)
    if loss == "perceptron":
        return np.maximum(0.0, -m)
    return np.maximum(0.0, 1.0 - m)


def _reduce(values: np.ndarray, reduction: str, axis=-1):
    return values.mean(axis=axis) if reduction == "mean" else values.sum(axis=axis)


# --- margins and distances -----------------------------------------------------------------------


def margins(w, b, X, y) -> np.ndarray:
    """Functional margins ``y_i (<w, x_i> + b)``.

    Positive means correctly classified, 0 on the boundary, negative a mistake.

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
        Labels in {-1, +1}.

    Returns
    -------
    ndarray, shape (n,)

    Examples
    --------
    >>> margins([1, 1], 0, [[2, 0], [0, -1]], [1, 1]).tolist()
    [2.0, -1.0]
    """
    X, y = check_X_y(X, y)
    w, b = check_w_b(w, b, X.shape[1])
    return y * (X @ w + b)


def signed_distance(w, b, X) -> np.ndarray:
    """Signed distances ``(<w, x_i> + b) / ||w||`` of the rows of X to the hyperplane.

    Positive on the side w points to. Needs w != 0 (w = 0 defines no hyperplane).

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)

    Returns
    -------
    ndarray, shape (n,)

    Examples
    --------
    >>> signed_distance([3, 4], -5, [[3, 4], [0, 0]]).tolist()
    [4.0, -1.0]
    """
    X = check_X(X)
    w, b = check_w_b(w, b, X.shape[1])
    norm = np.linalg.norm(w)
    if norm == 0:
        raise ValueError(
            "w must not be the zero vector: w = 0 defines no hyperplane, so there is no distance "
            f"to it; got w = {w.tolist()}."
        )
    return (X @ w + b) / norm


# --- losses on data ---------------------------------------------------------------------------


def _data_loss(w, b, X, y, loss: str, reduction: str) -> float:
    reduction = check_choice(reduction, name="reduction", choices=REDUCTIONS)
    return float(_reduce(_pointwise(margins(w, b, X, y), loss), reduction))


def zero_one_loss(w, b, X, y, *, reduction: str = "mean") -> float:
    """Share (``"mean"``) or number (``"sum"``) of mistakes ``y_i (<w, x_i> + b) <= 0``.

    A point exactly on the boundary counts as a mistake, so (w, b) = (0, 0)
    has 0-1 loss 1: it classifies nothing.

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    reduction : {"mean", "sum"}

    Returns
    -------
    float

    Examples
    --------
    >>> zero_one_loss([1, 0], 0, [[1, 0], [-1, 0], [0, 5]], [1, 1, 1], reduction="sum")
    2.0
    """
    return _data_loss(w, b, X, y, "zero_one", reduction)


def perceptron_loss(w, b, X, y, *, reduction: str = "mean") -> float:
    """The perceptron criterion: mean or sum of ``max(0, -y_i (<w, x_i> + b))``.

    Convex and piecewise linear in (w, b); always 0 at (0, 0).

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    reduction : {"mean", "sum"}

    Returns
    -------
    float

    Examples
    --------
    >>> perceptron_loss([1, 0], 0, [[1, 0], [-2, 0], [0, 5]], [1, 1, 1], reduction="sum")
    2.0
    """
    return _data_loss(w, b, X, y, "perceptron", reduction)


def hinge_loss(w, b, X, y, *, reduction: str = "mean") -> float:
    """Hinge loss: mean or sum of ``max(0, 1 - y_i (<w, x_i> + b))``.

    Not the perceptron criterion: it also charges correct points with margin below 1.

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    reduction : {"mean", "sum"}

    Returns
    -------
    float

    Examples
    --------
    >>> hinge_loss([1, 0], 0, [[1, 0], [0.5, 0], [3, 0]], [1, 1, 1], reduction="sum")
    0.5
    """
    return _data_loss(w, b, X, y, "hinge", reduction)


# --- the 1-D picture: loss as a function of the margin -----------------------------------------


def _scalar_or_array(values: np.ndarray, like: np.ndarray):
    return float(values) if like.ndim == 0 else values


def loss_of_margin(m, *, loss: str):
    """Pointwise loss as a function of the margin m, vectorised.

    Parameters
    ----------
    m : float or array-like of any shape
        Margins ``y (<w, x> + b)``.
    loss : {"zero_one", "perceptron", "hinge"}
        ``1[m <= 0]``, ``max(0, -m)`` or ``max(0, 1 - m)``.

    Returns
    -------
    float or ndarray, same shape as m

    Examples
    --------
    >>> loss_of_margin([-2, 0, 0.5, 2], loss="hinge").tolist()
    [3.0, 1.0, 0.5, 0.0]
    """
    loss = check_choice(loss, name="loss", choices=LOSSES)
    arr = numeric_array(m, name="m")
    return _scalar_or_array(_pointwise(arr, loss), arr)


def slope_of_margin(m, *, loss: str, at_kink: float = 0.0):
    """Derivative of the pointwise loss with respect to the margin m.

    Away from the kink this is the ordinary derivative: 0 for the 0-1 loss;
    -1 left of the kink and 0 right of it for the perceptron loss (kink at
    m = 0) and the hinge loss (kink at m = 1). At the kink the perceptron and
    hinge losses have the subgradients ``[-1, 0]``; this returns
    ``-at_kink``. The 0-1 loss jumps at m = 0 and has no derivative or
    subgradient there: the result is NaN.

    Parameters
    ----------
    m : float or array-like of any shape
    loss : {"zero_one", "perceptron", "hinge"}
    at_kink : float in [0, 1]
        Which subgradient to report at the kink, as theta in ``-theta``.

    Returns
    -------
    float or ndarray, same shape as m

    Examples
    --------
    >>> slope_of_margin([-1, 0, 1], loss="perceptron", at_kink=1).tolist()
    [-1.0, -1.0, 0.0]
    """
    loss = check_choice(loss, name="loss", choices=LOSSES)
    theta = _check_at_kink(at_kink)
    arr = numeric_array(m, name="m")
    if loss == "zero_one":
        out = np.where(arr == 0, np.nan, 0.0)
    else:
        kink = 0.0 if loss == "perceptron" else 1.0
        out = np.where(arr < kink, -1.0, np.where(arr > kink, 0.0, -theta))
    return _scalar_or_array(out, arr)


# --- subgradient ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Subgradient:
    """A subgradient of the perceptron loss at (w, b), with each point's share.

    Attributes
    ----------
    gw : ndarray, shape (d,)
        The part with respect to w.
    gb : float
        The part with respect to b.
    cases : ndarray of str, shape (n,)
        "correct" (margin > 0, contribution 0), "boundary" (margin = 0, the
        kink) or "mistake" (margin < 0, contribution ``(-y_i x_i, -y_i)``).
    contributions : ndarray, shape (n, d + 1)
        Row i is point i's subgradient ``(d/dw, d/db)``; the total is their
        mean or sum.
    at_kink : float
        The theta used on the boundary: contribution ``theta * (-y_i x_i, -y_i)``.
    reduction : {"mean", "sum"}
    """

    gw: np.ndarray
    gb: float
    cases: np.ndarray
    contributions: np.ndarray
    at_kink: float
    reduction: str

    def __post_init__(self):
        for name in ("gw", "cases", "contributions"):
            getattr(self, name).setflags(write=False)

    @property
    def vector(self) -> np.ndarray:
        """The full subgradient ``(gw, gb)``, shape (d + 1,)."""
        return np.append(self.gw, self.gb)


def perceptron_subgradient(
    w, b, X, y, *, at_kink: float = 0.0, reduction: str = "mean", atol: float = 0.0
) -> Subgradient:
    """A subgradient of the perceptron loss at (w, b), point by point.

    Point i contributes 0 if ``m_i > 0``, ``(-y_i x_i, -y_i)`` if ``m_i < 0``,
    and ``at_kink * (-y_i x_i, -y_i)`` on the kink ``m_i = 0``, where every
    theta in [0, 1] gives a valid subgradient (the script takes 0, the slides 1).

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    at_kink : float in [0, 1]
    reduction : {"mean", "sum"}
    atol : float >= 0
        Margins with ``|m_i| <= atol`` count as "boundary". The default 0 is an
        exact test, right for integer data; a small atol absorbs rounding in
        float data (the result is then a subgradient up to that rounding).

    Returns
    -------
    Subgradient

    Examples
    --------
    >>> g = perceptron_subgradient([0, 0], 0, [[1, 2], [3, 0]], [1, -1], at_kink=1, reduction="sum")
    >>> g.gw.tolist(), g.gb, g.cases.tolist()
    ([2.0, -2.0], 0.0, ['boundary', 'boundary'])
    """
    theta = _check_at_kink(at_kink)
    reduction = check_choice(reduction, name="reduction", choices=REDUCTIONS)
    atol = check_finite_scalar(atol, name="atol")
    if atol < 0:
        raise ValueError(f"atol must be >= 0; got {atol!r}. Use 0 for an exact test on the kink.")
    X, y = check_X_y(X, y)
    w, b = check_w_b(w, b, X.shape[1])
    m = y * (X @ w + b)
    mistake, correct = m < -atol, m > atol
    cases = np.where(mistake, "mistake", np.where(correct, "correct", "boundary"))
    weight = np.where(mistake, 1.0, np.where(correct, 0.0, theta))
    contributions = -(weight * y)[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    total = _reduce(contributions, reduction, axis=0)
    return Subgradient(
        gw=total[:-1].copy(),
        gb=float(total[-1]),
        cases=cases,
        contributions=contributions,
        at_kink=theta,
        reduction=reduction,
    )


# --- loss surfaces ------------------------------------------------------------------------------


def loss_surface(X, y, params, *, loss: str = "perceptron", reduction: str = "mean") -> np.ndarray:
    """The data loss at many parameter points at once.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    params : array-like, shape (..., d + 1)
        Each row along the last axis is ``(w_1, ..., w_d, b)``.
    loss : {"zero_one", "perceptron", "hinge"}
    reduction : {"mean", "sum"}

    Returns
    -------
    ndarray, shape params.shape[:-1]
        The loss at each parameter point. Evaluated in blocks, so a
        200 x 200 grid on hundreds of examples needs only a few MB.

    Examples
    --------
    >>> X, y = [[1, 0], [0, 1]], [1, -1]
    >>> loss_surface(X, y, [[0, 0, 0], [1, -1, 0], [-1, 1, 0]], reduction="sum").tolist()
    [0.0, 0.0, 2.0]
    """
    loss = check_choice(loss, name="loss", choices=LOSSES)
    reduction = check_choice(reduction, name="reduction", choices=REDUCTIONS)
    X, y = check_X_y(X, y)
    n, d = X.shape
    P = numeric_array(params, name="params")
    if P.ndim == 0 or P.shape[-1] != d + 1:
        raise ValueError(
            f"params must have shape (..., d + 1) = (..., {d + 1}), each row (w_1, ..., w_{d}, b); "
            f"got shape {P.shape}. Build a grid with param_grid."
        )
    flat = P.reshape(-1, d + 1)
    Z = np.hstack([X, np.ones((n, 1))]) * y[:, None]  # row i: y_i (x_i, 1), so margins = flat @ Z.T
    out = np.empty(flat.shape[0])
    block = max(1, _SURFACE_BLOCK // n)
    for start in range(0, flat.shape[0], block):
        M = flat[start : start + block] @ Z.T
        out[start : start + block] = _reduce(_pointwise(M, loss), reduction)
    return out.reshape(P.shape[:-1])


def loss_along_run(run, X, y, *, loss: str = "perceptron", reduction: str = "mean") -> np.ndarray:
    """The data loss at every state of a run: one value per row of its history.

    Parameters
    ----------
    run : Run or History
        From `fit_perceptron`, `fit_minibatch` or `fit_batch` (or its ``history``).
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
        The data the run was fitted on (or any data with d features).
    loss : {"zero_one", "perceptron", "hinge"}
    reduction : {"mean", "sum"}

    Returns
    -------
    ndarray, shape (K + 1,)
        Entry k is the loss at ``(history.w[k], history.b[k])``; entry 0 is the start.
        Ready for ``widgets.LossPanel``.

    Examples
    --------
    >>> from perceptron_lib.perceptron import fit_perceptron
    >>> X, y = [[2, 1], [-1, -2]], [1, -1]
    >>> loss_along_run(fit_perceptron(X, y), X, y, reduction="sum").tolist()
    [0.0, 0.0]
    """
    hist = getattr(run, "history", run)
    W, B = getattr(hist, "w", None), getattr(hist, "b", None)
    if W is None or B is None:
        raise TypeError(
            f"run must be a Run (from fit_perceptron, fit_minibatch or fit_batch) or its History; "
            f"got {type(run).__name__}."
        )
    params = np.column_stack([np.asarray(W, dtype=np.float64), np.asarray(B, dtype=np.float64)])
    return loss_surface(X, y, params, loss=loss, reduction=reduction)


def _check_axes(axes, size: int) -> tuple[int, int]:
    if (
        not isinstance(axes, (tuple, list))
        or len(axes) != 2
        or not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in axes)
    ):
        raise TypeError(f"axes must be a pair of parameter indices such as (0, 1); got {axes!r}.")
    a, c = (int(v) for v in axes)
    if not (0 <= a < size and 0 <= c < size) or a == c:
        raise ValueError(
            f"axes must be two different indices into (w_1, ..., w_d, b), each in 0..{size - 1} "
            f"(index {size - 1} is b); got {axes!r}."
        )
    return a, c


def param_grid(center, *, axes=(0, 1), span=1.0, num: int = 101):
    """A 2-D slice of parameter space: vary two coordinates of (w, b), fix the rest.

    Parameters
    ----------
    center : array-like, shape (d + 1,)
        The point ``(w_1, ..., w_d, b)`` the slice passes through; its other
        coordinates stay fixed.
    axes : pair of int
        Which coordinates vary (index d is b).
    span : float > 0, or pair of float
        Each varying coordinate runs over ``center[axis] +- span``.
    num : int >= 2
        Grid points per axis.

    Returns
    -------
    A, B : ndarray, shape (num, num)
        Values of the two varying coordinates (``np.meshgrid`` "xy" layout,
        ready for ``plt.contour(A, B, Z)``).
    params : ndarray, shape (num, num, d + 1)
        The full parameter vector at each grid point; pass it to `loss_surface`.

    Examples
    --------
    >>> A, B, params = param_grid([0, 0, 0.5], axes=(0, 1), span=1.0, num=3)
    >>> A[0].tolist(), params[2, 0].tolist()
    ([-1.0, 0.0, 1.0], [-1.0, 1.0, 0.5])
    """
    c = numeric_array(center, name="center")
    if c.ndim != 1 or c.size < 2:
        raise ValueError(
            f"center must be a 1-D point (w_1, ..., w_d, b) with at least 2 entries; got shape "
            f"{c.shape}."
        )
    a0, a1 = _check_axes(axes, c.size)
    spans = numeric_array(span, name="span")
    if spans.ndim == 0:
        spans = np.array([spans, spans])
    if spans.shape != (2,) or (spans <= 0).any():
        raise ValueError(f"span must be a number > 0 or a pair of them; got {span!r}.")
    num = check_positive_int(num, name="num", minimum=2)
    A, B = np.meshgrid(
        c[a0] + np.linspace(-spans[0], spans[0], num), c[a1] + np.linspace(-spans[1], spans[1], num)
    )
    params = np.broadcast_to(c, A.shape + (c.size,)).copy()
    params[..., a0], params[..., a1] = A, B
    return A, B, params


def kink_lines(X, *, center=None, axes=(0, 1)) -> np.ndarray:
    """Where each example's loss has its kink, in a 2-D slice of parameter space.

    Example i is on the boundary exactly on the hyperplane
    ``{(w, b) : <w, x_i> + b = 0}`` of parameter space (the labels play no
    part). In the slice where coordinates ``axes = (j, k)`` take values (s, t)
    and the others are fixed at `center`, that hyperplane is the line
    ``p_i * s + q_i * t + r_i = 0``.

    Parameters
    ----------
    X : array-like, shape (n, d)
    center : array-like, shape (d + 1,), optional
        The fixed values of the other coordinates (default all zero).
    axes : pair of int
        Which coordinates of (w_1, ..., w_d, b) vary (index d is b).

    Returns
    -------
    ndarray, shape (n, 3)
        Row i is ``(p_i, q_i, r_i)``. If p_i = q_i = 0 the kink does not
        cross the slice (r_i != 0) or covers all of it (r_i = 0).

    Examples
    --------
    >>> kink_lines([[2, 3]], center=[0, 0, 1]).tolist()
    [[2.0, 3.0, 1.0]]
    """
    X = check_X(X)
    n, d = X.shape
    c = np.zeros(d + 1) if center is None else numeric_array(center, name="center")
    if c.shape != (d + 1,):
        raise ValueError(
            f"center must be a point (w_1, ..., w_{d}, b) of shape ({d + 1},); got shape {c.shape}."
        )
    a0, a1 = _check_axes(axes, d + 1)
    Z = np.hstack([X, np.ones((n, 1))])
    fixed = np.ones(d + 1, dtype=bool)
    fixed[[a0, a1]] = False
    return np.column_stack([Z[:, a0], Z[:, a1], Z[:, fixed] @ c[fixed]])
