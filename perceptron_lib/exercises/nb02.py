"""Checks for the exercises of notebook 02 · Subgradients.

The exercises use the six points of `perceptron_lib.core.data.small_2d` at w = (1, -1), b = -1,
where three examples sit exactly on the boundary. The checks recompute the answer with
`perceptron_lib.core.subgradients.perceptron_subgradient`.

    >>> check_cases(...)
    2.1: not attempted yet. Replace the ... with your answer and run the cell again.
"""

from __future__ import annotations

import numpy as np

from ..core import data, subgradients
from . import Verdict, safely, verdict
from .answers import numbers, words

__all__ = ["EX_W", "EX_B", "check_cases", "check_subgradient", "check_other_subgradient"]

#: The point (w, b) of all three exercises.
EX_W, EX_B = (1.0, -1.0), -1.0

_WORDS = {
    "correct": "correct", "right": "correct",
    "boundary": "boundary", "on the boundary": "boundary", "kink": "boundary",
    # The course's word for m < 0 is "wrong side" ("mistake" is any m <= 0); the library's case
    # name is "mistake", so every word for m < 0 maps onto it.
    "wrong side": "mistake", "on the wrong side": "mistake", "mistake": "mistake", "wrong": "mistake",
    "misclassified": "mistake",
}


def _problem():
    X, y = data.small_2d()
    return X, y, np.array(EX_W), EX_B


def _vector(ans):
    return numbers(ans, 3, names="(g_w1, g_w2, g_b)")


def check_cases(answer=...) -> Verdict:
    """Exercise 1: the case of each of the six examples at w = (1, -1), b = -1, as a list of words."""
    hint = ("Compute each margin m_i = y_i(<w, x_i> + b): 'correct' if m_i > 0, 'boundary' if m_i = 0, "
            "'wrong side' if m_i < 0.")

    def check(ans):
        X, y, w, b = _problem()
        right = subgradients.perceptron_subgradient(w, b, X, y).cases.tolist()
        given = words(ans, len(right), vocabulary=_WORDS, say="'correct', 'boundary' or 'wrong side'")
        wrong = [i for i, (a, r) in enumerate(zip(given, right, strict=True)) if a != r]
        if not wrong:
            return verdict("2.1", ans, True, praise="Three examples sit exactly on the boundary: there the loss "
                                                     "has its kink.")
        return verdict("2.1", ans, False, hint=f"look again at example(s) {wrong}. " + hint)

    return safely("2.1", check, answer, hint)


def check_subgradient(answer=...) -> Verdict:
    """Exercise 2: the subgradient (g_w1, g_w2, g_b) of the SUM of the f_i at w = (1, -1), b = -1, with theta = 1."""
    hint = ("Add up (-y_i x_i, -y_i) over the examples on the wrong side and, with theta = 1, over the "
            "examples on the boundary too; correct examples add 0.")

    def check(ans):
        v = _vector(ans)
        X, y, w, b = _problem()
        right = subgradients.perceptron_subgradient(w, b, X, y, at_kink=1.0, reduction="sum").vector
        if np.allclose(v, right, atol=1e-9):
            return verdict("2.2", ans, True, praise=f"g = {right.tolist()}, the choice theta = 1 of the "
                                                     "loss-minimisation slides.")
        zero = subgradients.perceptron_subgradient(w, b, X, y, at_kink=0.0, reduction="sum").vector
        if np.allclose(v, zero, atol=1e-9):
            return verdict("2.2", ans, False, hint="that is the subgradient with theta = 0 (the script's "
                                                    "choice): here the boundary examples count in full.")
        if np.allclose(v, right / len(y), atol=1e-9):
            return verdict("2.2", ans, False, hint="that is the mean; this exercise asks for the sum.")
        if np.allclose(v, -right, atol=1e-9):
            return verdict("2.2", ans, False, hint="check the signs: a wrong-side point with y = +1 adds "
                                                    "-x_i to g_w.")
        return verdict("2.2", ans, False, hint=hint)

    return safely("2.2", check, answer, hint)


def check_other_subgradient(answer=..., tol=1e-6) -> Verdict:
    """Exercise 3: a subgradient of the sum at the same point that neither theta = 0 nor theta = 1 gives."""
    hint = ("On the boundary each example may add theta_i * (-y_i x_i, -y_i) with its own theta_i in [0, 1]; "
            "try theta_i = 1/2 for all of them.")

    def check(ans):
        from scipy.optimize import lsq_linear

        v = _vector(ans)
        X, y, w, b = _problem()
        sub = subgradients.perceptron_subgradient(w, b, X, y, at_kink=0.0, reduction="sum")
        base = sub.vector
        C = -(y[:, None] * np.hstack([X, np.ones((len(y), 1))]))[sub.cases == "boundary"]
        # every subgradient is base + sum_i theta_i c_i with theta_i in [0, 1], so no coordinate of it lies further
        # from base's than the rows' sum of absolute values: past that it is outside, and the solver is not asked
        # ([1e160, 0, 0] overflowed in it, and its length's inf <= inf called it a subgradient)
        reach = np.abs(C).sum(axis=0)
        inside = bool(np.all(np.abs(v - base) <= reach * (1 + tol) + tol))
        if inside:
            fit = lsq_linear(C.T, v - base, bounds=(0.0, 1.0), method="bvls")
            inside = np.max(np.abs(C.T @ fit.x - (v - base))) <= tol * max(1.0, np.max(np.abs(v)))
        full = base + C.sum(axis=0)
        if inside and not (np.allclose(v, base) or np.allclose(v, full)):
            return verdict("2.3", ans, True, praise="It lies in the subdifferential, between the two "
                                                     "conventions: a step along its negative is as valid as "
                                                     "theirs.")
        if inside:
            return verdict("2.3", ans, False, hint="that one is what theta = 0 or theta = 1 gives; find one "
                                                    "in between. " + hint)
        return verdict("2.3", ans, False, hint="that vector is not a subgradient here. " + hint)

    return safely("2.3", check, answer, hint)
