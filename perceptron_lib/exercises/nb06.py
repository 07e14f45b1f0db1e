"""Checks for the exercises of notebook 06 (beyond separable data).

    >>> from perceptron_lib.exercises import nb06
    >>> nb06.check_averaged(...)
    6.1: not attempted yet. Replace the ... with your answer and run the cell again.
"""

from __future__ import annotations

import numpy as np

from . import Verdict, attempted, could_not, verdict
from .answers import AnswerError, number, numbers

__all__ = ["EXERCISE_X", "EXERCISE_Y", "EXERCISE_EPOCHS", "check_averaged", "check_survival", "check_margin_step"]

#: The small integer data set of exercises 6.1 and 6.2 (cyclic order, from w = 0, b = 0).
EXERCISE_X = np.array([[2.0, 1.0], [-1.0, -1.0], [1.0, -2.0], [-2.0, 1.0]])
EXERCISE_Y = np.array([1.0, -1.0, -1.0, 1.0])
EXERCISE_EPOCHS = 2

# Smallest step 6.3 will run. The margin perceptron with step eta is the step-1 perceptron with threshold
# 1/eta, so on data separable with margin gamma (radius R of the points (1, x)) it makes at most
# (2/eta + R^2)/gamma^2 updates: about 1/eta (289, 3001, 29816 updates at eta = 0.1, 0.01, 0.001 on 6.3's data).
_MIN_ETA, _MAX_EPOCHS = 0.005, 3000


def _run():
    from ..core.averaged import fit_averaged

    return fit_averaged(EXERCISE_X, EXERCISE_Y, epochs=EXERCISE_EPOCHS)



def check_averaged(answer=...) -> Verdict:
    """Exercise 6.1: the averaged line (w1, w2, b) after two epochs on `EXERCISE_X`, `EXERCISE_Y`.

    `answer` is three numbers ``(w1, w2, b)``; compared with `averaged.fit_averaged` to 1e-6.
    """
    ex = "6.1"
    hint = ("give three numbers (w1, w2, b): the mean, over the 8 examples seen, of the state (w, b) right after "
            "each example (after its update, if it had one).")
    if not attempted(answer):
        return verdict(ex, answer)
    try:
        a = numbers(answer, 3, names="(w1, w2, b)")
    except Exception as exc:  # a malformed answer is a wrong answer, explained
        return could_not(ex, exc, hint)
    ar = _run()
    right = np.append(ar.w, ar.b)
    if np.allclose(a, right, rtol=0, atol=1e-6):
        return verdict(ex, answer, True, praise=(
            f"The run makes {ar.run.mistakes} updates in {ar.seen} examples; the averaged line is "
            f"w = ({right[0]:g}, {right[1]:g}), b = {right[2]:g}, the last line w = ({ar.run.w[0]:g}, "
            f"{ar.run.w[1]:g}), b = {ar.run.b:g}."))
    h = ar.run.history
    states_after = np.repeat(np.c_[h.w, h.b], ar.survival, axis=0)
    before = np.vstack([np.append(h.w[0], h.b[0]), states_after[:-1]]).mean(axis=0)
    if np.allclose(a, before, rtol=0, atol=1e-6):
        return verdict(ex, answer, False, hint="you averaged the states *before* each example. The course (and "
                                               "scikit-learn's average=True) averages the state after each example: "
                                               "the update of example t counts for example t.")
    if np.allclose(a, np.append(ar.run.w, ar.run.b), rtol=0, atol=1e-6):
        return verdict(ex, answer, False, hint="that is the last line. The averaged line is the mean of all the states "
                                               "the run passed through, each counted once per example it lasted.")
    distinct = np.c_[h.w, h.b].mean(axis=0)
    if np.allclose(a, distinct, rtol=0, atol=1e-6):
        return verdict(ex, answer, False, hint="you gave every state the same weight. Weight each state by the number "
                                               "of examples it survived (c_k).")
    return verdict(ex, answer, False, hint=hint)


def check_survival(answer=...) -> Verdict:
    """Exercise 6.2: the survival counts c_0, ..., c_K of the states of the same run."""
    ex = "6.2"
    hint = ("give one whole number per state, c_0 first: the number of examples after which that state was the "
            "current one. They add up to the 8 examples seen.")
    if not attempted(answer):
        return verdict(ex, answer)
    ar = _run()
    right = ar.survival
    try:
        a = numbers(answer, len(right), names="(c_0, ..., c_K)")
    except Exception as exc:
        return could_not(ex, exc, hint + f" This run has {len(right)} states (k = 0..{len(right) - 1}).")
    if np.array_equal(a, right):
        return verdict(ex, answer, True, praise=(
            f"c = {right.tolist()}, adding up to {ar.seen}. The voted perceptron weights state k's vote by c_k; "
            "the averaged line weights state k's (w, b) by it."))
    shifted = right.copy()  # states counted from before each example: one more for c_0, one fewer for c_K
    shifted[0] += 1
    shifted[-1] -= 1
    if np.array_equal(a, shifted):
        return verdict(ex, answer, False, hint="each update's own example counts for the new state: the state after "
                                               "update k is current after its example already.")
    if a.sum() != right.sum():
        return verdict(ex, answer, False, hint=f"your counts add up to {a.sum():g}; they must add up to {ar.seen}, "
                                               "one per example seen.")
    return verdict(ex, answer, False, hint=hint)


def check_margin_step(answer=..., X=None, y=None) -> Verdict:
    """Exercise 6.3: a step size eta for which the margin perceptron reaches 98 % of the maximum margin.

    Runs ``fit_perceptron(X, y, margin=1, eta=answer)`` from zero and compares the geometric margin of
    its final line with `margins.max_margin_separator`'s.
    """
    ex = "6.3"
    hint = ("give one step size eta > 0. The margin perceptron's final line depends on eta: try a few values "
            "between 0.01 and 1 with fit_perceptron(X, y, margin=1.0, eta=...).")
    if not attempted(answer):
        return verdict(ex, answer)
    from ..core.margins import geometric_margin, max_margin_separator
    from ..core.training import fit_perceptron

    try:
        best = max_margin_separator(X, y, fit_bias=True)
    except Exception as exc:
        return could_not(ex, exc, "call the check with the section's data: nb06.check_margin_step(answer, X5, y5).")
    try:
        eta = number(answer, example="0.1")
        if eta <= 0:
            raise AnswerError(f"a step size must be > 0; got {eta:g}")
    except Exception as exc:
        return could_not(ex, exc, hint)
    if eta < _MIN_ETA:
        return verdict(ex, answer, False, hint=f"eta = {eta:g} is too small to check quickly (the margin perceptron "
                                               "makes about 1/eta updates); try values from 0.01 up.")
    run = fit_perceptron(X, y, margin=1.0, eta=eta, max_epochs=_MAX_EPOCHS)
    if not run.converged:
        return verdict(ex, answer, False, hint=f"with eta = {eta:g} the run did not settle within {_MAX_EPOCHS} "
                                               "epochs; try a larger step.")
    ratio = geometric_margin(run.w, run.b, X, y) / best.gamma
    if ratio >= 0.98:
        return verdict(ex, answer, True, praise=(
            f"With eta = {eta:g}: {run.mistakes} updates, geometric margin {ratio:.3f} of the maximum. That is a "
            "fact about these data: the theory promises only gamma*/(2 + eta R^2) for the points (1, x), and the "
            "share does not grow steadily as eta shrinks."))
    return verdict(ex, answer, False, hint=_margin_hint(eta, ratio, X, y, best.gamma))


def _margin_hint(eta: float, ratio: float, X, y, gamma_best: float) -> str:
    """What to try next: the shares of two neighbouring step sizes, so the student sees they jump."""
    from ..core.margins import geometric_margin
    from ..core.training import fit_perceptron

    shares = {}
    for other in (eta * 0.8, eta * 1.25):
        if other >= _MIN_ETA:
            r = fit_perceptron(X, y, margin=1.0, eta=other, max_epochs=_MAX_EPOCHS)
            if r.converged:
                shares[other] = round(geometric_margin(r.w, r.b, X, y) / gamma_best, 3)
    said = " and ".join(f"eta = {other:.3g} gives {share:.3f}" for other, share in shares.items())
    around = f" Nearby, {said}." if shares else ""
    if any(share != round(ratio, 3) for share in shares.values()):  # the neighbours show the jumps themselves
        why = "The share does not move steadily with eta, so a smaller step is not always better: try"
    else:  # the same share around eta: the final line did not change, so a nearby step will not help
        why = "The final line stays the same for steps near this one, so try steps further away:"
    return (f"with eta = {eta:g} the final line has {ratio:.3f} of the maximum margin.{around} {why} several values "
            "between 0.01 and 1, for example in a loop over np.geomspace(1, 0.01, 9).")
