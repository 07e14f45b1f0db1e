"""Checks for the exercises of notebook 01 · Loss geometry.

Every exercise uses the six points of `perceptron_lib.core.data.small_2d` and the mean perceptron
loss of the university script. The checks recompute the answer with `perceptron_lib.core.losses`.

    >>> check_contributing(...)
    1.1: not attempted yet. Replace the ... with your answer and run the cell again.
"""

from __future__ import annotations

import numpy as np

from ..core import data, losses
from . import Verdict, safely, verdict
from .answers import indices, number, numbers

__all__ = ["EX1_W", "EX1_B", "EX2_C", "check_contributing", "check_scaled_loss", "check_zero_loss_not_separator"]

#: The point (w, b) of exercises 1 and 2.
EX1_W, EX1_B = (1.0, -2.0), 1.0
#: The factor c of exercise 2.
EX2_C = 3.0


def _problem():
    X, y = data.small_2d()
    return X, y, np.array(EX1_W), EX1_B


def check_contributing(answer=...) -> Verdict:
    """Exercise 1: the indices of the examples that add something to L(w, b) at w = (1, -2), b = 1."""
    hint = ("Compute the margins m_i = y_i(<w, x_i> + b) with losses.margins; an example adds "
            "max(0, -m_i), which is positive only when m_i < 0.")

    def check(ans):
        X, y, w, b = _problem()
        given = indices(ans, n=len(y))
        m = losses.margins(w, b, X, y)
        right = {int(i) for i in np.flatnonzero(m < 0)}
        boundary = {int(i) for i in np.flatnonzero(m == 0)}
        if given == right:
            return verdict("1.1", ans, True, praise=f"Examples {sorted(right)} have a negative margin; the "
                                                     "others add 0, including the one exactly on the boundary.")
        if given & boundary:
            return verdict("1.1", ans, False, hint="an example on the boundary has margin 0 and loss "
                                                    "max(0, -0) = 0: it counts as a mistake for the 0-1 loss, "
                                                    "but it adds nothing to the perceptron loss.")
        return verdict("1.1", ans, False, hint=hint)

    return safely("1.1", check, answer, hint)


def check_scaled_loss(answer=...) -> Verdict:
    """Exercise 2: the mean perceptron loss at (c w, c b) for c = 3, w = (1, -2), b = 1."""
    hint = "L(c w, c b) = c L(w, b) for every c >= 0: compute L(w, b) first, or evaluate at (3w, 3b) directly."

    def check(ans):
        v = number(ans)
        X, y, w, b = _problem()
        right = losses.perceptron_loss(EX2_C * w, EX2_C * b, X, y)
        # The lesson prints L to 4 decimals (2.1667), so 3 x 2.1667 = 6.5001 is right: 0.2 %, as 4.1 allows.
        if np.isclose(v, right, rtol=2e-3, atol=1e-9):
            return verdict("1.2", ans, True, praise=f"L(3w, 3b) = {right:.4f} = 3 × {right / EX2_C:.4f}: "
                                                     "scaling (w, b) scales the loss.")
        if np.isclose(v, losses.perceptron_loss(w, b, X, y, reduction="sum") * EX2_C, rtol=2e-3):
            return verdict("1.2", ans, False, hint="that is the sum over the examples; the course's L is the "
                                                    "mean (divide by N = 6).")
        return verdict("1.2", ans, False, hint=hint)

    return safely("1.2", check, answer, hint)


def check_zero_loss_not_separator(answer=...) -> Verdict:
    """Exercise 3: a point (w1, w2, b) where the loss is 0 but some example is not strictly on its side."""
    # The hint must not give the answer away: a malformed answer gets it too.
    hint = ("Look for (w, b) with every margin >= 0 and at least one margin exactly 0: a point on an edge "
            "of the hatched zero-loss region of section 3.")

    def check(ans):
        p = numbers(ans, 3, names="(w1, w2, b)")
        X, y, _, _ = _problem()
        L = losses.perceptron_loss(p[:2], p[2], X, y)
        m = losses.margins(p[:2], p[2], X, y)
        if L == 0 and np.min(m) <= 0:
            on = np.flatnonzero(m == 0).tolist()
            extra = " It is the trivial one, w = 0, b = 0." if not np.any(p) else ""
            return verdict("1.3", ans, True, praise=f"The loss is 0 there, yet example(s) {on} sit on the "
                                                     f"boundary: zero loss does not mean separated.{extra}")
        if L > 0:
            return verdict("1.3", ans, False, hint=f"the loss there is {L:.4f}, not 0: some margin is negative. "
                                                    + hint)
        return verdict("1.3", ans, False, hint="that (w, b) separates the data strictly (every margin > 0). "
                                                "Find one where the loss is still 0 but a margin is exactly 0.")

    return safely("1.3", check, answer, hint)
