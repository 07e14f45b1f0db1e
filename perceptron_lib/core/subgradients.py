"""The subgradient of the perceptron (or hinge) data loss at (w, b).

Built on the losses of `perceptron_lib.core.losses`; at a kink the caller chooses the slope
(``at_kink``, the weight theta in [0, 1] of the kink's subgradient). The course's perceptron, with
its test ``y(<w,x>+b) <= 0``, steps against the subgradient with ``at_kink=1`` (theta = 1: a point
on the boundary is updated on); ``at_kink=0`` is the strict test ``< 0`` of the script, which from
w = 0, b = 0 never moves.

Words: a point with margin ``m < 0`` is on the *wrong side*; a *mistake* is any ``m <= 0`` (what
the course's test updates on). The kink ``m = 0`` is the perceptron's one zero: a margin within
rounding of 0 is 0 (`perceptron_lib.core.losses.margins`), so the cases here are the mistake
tests' ("negative" for the wrong side, "nonpositive" for a mistake). The case label ``"mistake"``
in `Subgradient.cases` names the wrong side, m < 0, and keeps that name because the players read
it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_finite_scalar, check_w_b, check_X_y
from .losses import REDUCTIONS, _check_at_kink, _reduce, margins
from .perceptron import is_mistake

__all__ = ["Subgradient", "perceptron_subgradient"]


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
        kink) or "mistake" (margin < 0, the wrong side in the course's words; contribution
        ``(-y_i x_i, -y_i)``).
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
    theta in [0, 1] gives a valid subgradient (the script takes 0, the slides 1). The course's
    update (test ``<= 0``) is ``w - eta * gw``, ``b - eta * gb`` with ``at_kink=1`` and
    ``reduction="sum"`` over the examples of the step.

    Parameters
    ----------
    w : array-like, shape (d,)
    b : float
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    at_kink : float in [0, 1]
    reduction : {"mean", "sum"}
    atol : 0
        Kept for old calls; only 0 is accepted. The kink is where the margin is 0 with the
        perceptron's one meaning of zero: within rounding of 0 (`perceptron.ZERO_TOL` times the
        size of its terms ``|w| |x_i| + |b|``) is 0, for integer and float data alike.

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
    if atol != 0:
        raise ValueError(
            f"atol must be 0 (leave it out); got {atol!r}. A margin within rounding of 0 already counts as the "
            "kink (perceptron.ZERO_TOL times the size of its terms), the same zero as the perceptron's mistake test."
        )
    X, y = check_X_y(X, y)
    w, b = check_w_b(w, b, X.shape[1])
    m = margins(w, b, X, y)  # exactly 0 within rounding of 0
    mistake = is_mistake(m, 1.0, "negative")  # the wrong side, m < 0 (a margin is the score of y = +1)
    correct = ~is_mistake(m, 1.0, "nonpositive")  # m > 0
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
