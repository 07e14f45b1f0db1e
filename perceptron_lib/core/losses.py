"""Losses of a linear classifier (w, b): margins, the three losses, and their slopes.

Every loss here is a function of the functional margins
``m_i = y_i (<w, x_i> + b)``, computed with the perceptron's one meaning of zero (a margin within
rounding of 0 is 0, `perceptron_lib.core.perceptron.scores`):

- 0-1 loss ``1[m <= 0]``: a point exactly on the boundary counts as an error; it is the
  perceptron's mistake test (`perceptron_lib.core.perceptron.is_mistake`), so the 0-1 loss of a
  run's state counts exactly the examples the run would update on;
- perceptron loss ``max(0, -m)``: convex, piecewise linear, 0 at (w, b) = (0, 0);
- hinge loss ``max(0, 1 - m)``: a different function, with a margin of 1.

Data losses average (``reduction="mean"``, the script) or add up
(``reduction="sum"``, the slides) the pointwise losses; the minimisers are the
same.

The subgradient of the data loss is in `perceptron_lib.core.subgradients`; loss surfaces over a grid
of parameters, losses along a run and kink lines in `perceptron_lib.core.loss_surfaces`.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice, check_finite_scalar, check_w_b, check_X, check_X_y, numeric_array
from .perceptron import UPDATE_RULES, is_mistake, scores

__all__ = [
    "LOSSES",
    "REDUCTIONS",
    "hinge_loss",
    "loss_of_margin",
    "margins",
    "perceptron_loss",
    "signed_distance",
    "slope_of_margin",
    "zero_one_loss",
]

LOSSES = ("zero_one", "perceptron", "hinge")
REDUCTIONS = ("mean", "sum")



def _check_at_kink(at_kink) -> float:
    theta = check_finite_scalar(at_kink, name="at_kink")
    if not 0.0 <= theta <= 1.0:
        raise ValueError(
            f"at_kink must lie in [0, 1] (the subdifferential at the kink is theta * (-y x, -y) "
            f"for theta in [0, 1]); got {at_kink!r}. Use 0 (the script) or 1 (the slides)."
        )
    return theta


def _pointwise(m: np.ndarray, loss: str) -> np.ndarray:
    if loss == "zero_one":  # the mistake test on margins (a margin is the score of y = +1)
        return is_mistake(m, 1.0).astype(np.float64)
    if loss == "perceptron":
        return np.maximum(0.0, -m)
    return np.maximum(0.0, 1.0 - m)


def _reduce(values: np.ndarray, reduction: str, axis=-1):
    return values.mean(axis=axis) if reduction == "mean" else values.sum(axis=axis)


# --- margins and distances -----------------------------------------------------------------------


def margins(w, b, X, y) -> np.ndarray:
    """Functional margins ``y_i (<w, x_i> + b)``.

    Positive means correctly classified, 0 on the boundary, negative on the wrong side (a
    mistake, for the course's test ``<= 0``, is any margin <= 0). A margin within rounding of 0
    (`perceptron.ZERO_TOL` times the size of its terms) is exactly 0, as in the mistake test.

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
    >>> margins([0.1, 0.3], -1, [[1, 3]], [1]).tolist()  # 0.1 + 0.9 - 1 rounds to 1e-16: it is 0
    [0.0]
    """
    X, y = check_X_y(X, y)
    w, b = check_w_b(w, b, X.shape[1])
    return y * scores(w, b, X)


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


def zero_one_loss(w, b, X, y, *, reduction: str = "mean", update_on: str = "nonpositive") -> float:
    """Share (``"mean"``) or number (``"sum"``) of mistakes ``y_i (<w, x_i> + b) <= 0``.

    A point exactly on the boundary counts as a mistake, so (w, b) = (0, 0)
    has 0-1 loss 1: it classifies nothing. The mistakes are those of the perceptron's test
    (`perceptron.is_mistake`, rounding around 0 taken as 0), so the 0-1 loss of a run's state,
    with the run's ``update_on``, counts exactly the examples the run would update on there.

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    reduction : {"mean", "sum"}
    update_on : {"nonpositive", "negative", "sign"}
        The mistake test: ``<= 0`` (the 0-1 loss of the course), ``< 0``, or sgn(score) != y
        with sgn(0) = -1 (the errors of the classifier ``predict``).

    Returns
    -------
    float

    Examples
    --------
    >>> zero_one_loss([1, 0], 0, [[1, 0], [-1, 0], [0, 5]], [1, 1, 1], reduction="sum")
    2.0
    """
    X, y = check_X_y(X, y)
    w, b = check_w_b(w, b, X.shape[1])
    reduction = check_choice(reduction, name="reduction", choices=REDUCTIONS)
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    return float(_reduce(is_mistake(scores(w, b, X), y, update_on).astype(np.float64), reduction))


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
