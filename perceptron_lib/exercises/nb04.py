"""Checks for the exercises of notebook 04 (the margin bound).

    >>> from perceptron_lib.exercises import nb04
    >>> nb04.check_tight(...)
    4.2: not attempted yet. Replace the ... with your answer and run the cell again.
"""

from __future__ import annotations

import numpy as np

from . import Verdict, attempted, could_not, graded, no_points, no_points_in, points_of, verdict
from .answers import AnswerError, described, numbers

__all__ = ["check_bound", "check_tight", "tight_ratio", "check_half_bound"]

# Longest run a check will make for a student's data (the bound can be huge for a tiny margin).
_MAX_UPDATES = 20_000
# Exercise 4.2 asks for a bound of at least this: below it one update meets the bound and teaches nothing.
_MIN_TIGHT_BOUND = 2


def _close(a: float, b: float, rtol: float = 2e-3) -> bool:
    return abs(a - b) <= rtol * abs(b)


def check_bound(answer=..., X=None, y=None, u_other=None) -> Verdict:
    """Exercise 4.1: the bound (R/gamma)^2 with the maximum-margin separator, and with `u_other`.

    `answer` is a pair ``(bound_best, bound_other)`` of numbers. Both are recomputed with
    `perceptron_lib.core.bounds.mistake_bound`; a relative error of 0.2 % is accepted (rounding).
    """
    ex = "4.1"
    formula = ("Each bound is (R / gamma)^2 with R = max_i ||x_i|| and gamma = min_i y_i <u, x_i> for a UNIT "
               "vector u.")
    hint = "give two numbers, (bound with the maximum-margin separator, bound with u_other). " + formula
    if not attempted(answer):
        return verdict(ex, answer)
    from ..core.bounds import mistake_bound

    try:
        best, other = mistake_bound(X, y), mistake_bound(X, y, u=u_other)
        X, y, u = np.asarray(X, dtype=float), np.asarray(y, dtype=float), np.asarray(u_other, dtype=float)
    except Exception as exc:
        return could_not(ex, exc, "call the check with the exercise's data: nb04.check_bound(answer, Xe, ye, "
                                   "u_other).")
    try:
        a_best, a_other = numbers(answer, 2, names="(bound with the maximum-margin separator, bound with u_other)")
    except Exception as exc:  # a malformed answer is a wrong answer, explained
        return could_not(ex, exc, hint)
    ok_best, ok_other = _close(a_best, best.bound), _close(a_other, other.bound)
    if ok_best and ok_other:
        return verdict(ex, answer, True, praise=(
            f"R = {best.R:.4f}; the maximum-margin u has gamma = {best.gamma:.4f} and bound {best.bound:.2f}, "
            f"u_other has gamma = {other.gamma:.4f} and bound {other.bound:.2f}. Both are valid; the larger "
            "margin gives the smaller bound."))
    if _close(a_best, other.bound) and _close(a_other, best.bound):
        return verdict(ex, answer, False, hint="your two numbers are swapped: the maximum-margin separator "
                                               "gives the smaller bound, so it comes first.")
    raw_gamma = float(np.min(y * (X @ u)))
    if ok_best and raw_gamma > 0 and _close(a_other, (other.R / raw_gamma) ** 2):
        return verdict(ex, answer, False, hint=f"u_other has length {np.linalg.norm(u):.4g}, not 1. Divide it by "
                                               "its length before you compute its margin.")
    for mine, right in ((a_best, best), (a_other, other)):
        g, R = right.gamma, right.R
        if _close(mine, R / g):
            return verdict(ex, answer, False, hint="square it: the bound is (R / gamma)^2, not R / gamma.")
        if _close(mine, 1 / g**2) and not _close(R, 1.0):
            return verdict(ex, answer, False, hint=f"R is {R:.4f} here, not 1: use (R / gamma)^2, not 1/gamma^2.")
    which = "first" if not ok_best else "second"
    return verdict(ex, answer, False, hint=f"your {which} number is off. " + formula)


def _unpack_tight(answer):
    if not isinstance(answer, (tuple, list)) or len(answer) not in (2, 3):
        raise AnswerError(f"give (X, y) or (X, y, \"adversarial\"), not {described(answer)}")
    X, y = answer[0], answer[1]
    order = answer[2] if len(answer) == 3 else "cyclic"
    if order not in ("cyclic", "adversarial"):
        raise AnswerError(f"the order must be 'cyclic' or 'adversarial'; got {described(order)}")
    return X, y, order


def tight_ratio(X, y, order="cyclic"):
    """(mistakes, bound, ratio) for the homogeneous perceptron on (X, y), eta = 1, from w = 0.

    ``order="cyclic"`` visits the rows in the order given, again and again; ``"adversarial"``
    uses `perceptron_lib.core.proof.adversarial_run`. The bound uses the maximum-margin separator
    through the origin. Raises ValueError if no hyperplane through the origin separates the data.
    """
    from ..core.bounds import mistake_bound
    from ..core.margins import is_separable
    from ..core.proof import adversarial_run
    from ..core.training import fit_perceptron

    if not is_separable(X, y, fit_bias=False):  # a real answer, and a wrong one: the student's words (AnswerError)
        raise AnswerError("no line (hyperplane) through the origin separates these data, so there is no bound to reach")
    mb = mistake_bound(X, y)
    cap = int(min(np.floor(mb.bound) + 2, _MAX_UPDATES))
    if order == "adversarial":
        run = adversarial_run(X, y, mb.w, max_updates=cap)
    else:
        run = fit_perceptron(X, y, fit_bias=False, max_epochs=cap)
    if not run.converged:
        raise AnswerError(f"the run did not finish within {cap} updates or epochs; choose data with a larger margin")
    return run.mistakes, mb.bound, run.mistakes / mb.bound


def check_tight(answer=...) -> Verdict:
    """Exercise 4.2: data (and an order) on which the perceptron reaches half its bound or more (1: tight).

    `answer` is ``(X, y)``, visited in cyclic order (row 0, 1, ..., then again), or
    ``(X, y, order)`` with order "cyclic" or "adversarial". The check runs the homogeneous
    perceptron (b = 0, eta = 1, update when ``y <w, x> <= 0``) from w = 0, computes the bound with
    the maximum-margin separator through the origin, and reports mistakes / bound.
    """
    ex = "4.2"
    hint = ("you need few points that are each a mistake when their turn comes. Points at right angles to each "
            "other do that: an update on one does not change <w, x> for the others.")
    if not attempted(answer):
        return verdict(ex, answer)
    try:
        X, y, order = _unpack_tight(answer)
        if no_points_in(X, y):
            return Verdict(ex, "wrong", no_points(at_least=2, editor=False))
        mistakes, bound, ratio = tight_ratio(X, y, order)
    except Exception as exc:  # a malformed answer is a wrong answer, explained
        return could_not(ex, exc, "give (X, y) with X of shape (n, d), labels y in {-1, +1}, and data that a "
                                   "hyperplane through the origin separates.")
    said = (f"Your data: {mistakes} mistake{'s' * (mistakes != 1)} ({order} order) against a bound of {bound:.2f}: "
            f"ratio {ratio:.2f}.")
    if bound < _MIN_TIGHT_BOUND - 1e-9:  # one point each side, one update: the claims of the proof never meet
        return Verdict(ex, "wrong", f"not quite. {said} A bound under {_MIN_TIGHT_BOUND} is met by a single update, "
                                    "where no cross term arises: give data with a bound (R/gamma)^2 of at least "
                                    f"{_MIN_TIGHT_BOUND}. Hint: {hint}")
    if ratio >= 1 - 1e-9:  # the bound is reached: no smaller bound in R and gamma alone can hold
        return verdict(ex, answer, True, praise=said + " The run reaches the bound: the bound is tight.")
    if ratio >= 0.5 - 1e-9:  # a bound of 4.000000000000002 and 2 mistakes is half of it
        return verdict(ex, answer, True, praise=said + " Half or more: correct. Can you reach ratio 1? Then the "
                                                       "bound is tight.")
    return Verdict(ex, "wrong", f"not quite. {said} You need at least 0.50. Hint: {hint}")


@graded("4.3", hint="Four points, at about the same distance R from the origin, that a line through the origin "
                    "separates with a small margin gamma: then (R/gamma)^2 is large and every point is a mistake "
                    "at least once.")
def check_half_bound(answer, *, points=4, fraction=0.5):
    """Exercise 4.3: four points (the editor, or (X, y)) that a line through the origin separates, on which
    the perceptron without offset, from w = 0 in cyclic order, makes at least half the bound (R/gamma)^2."""
    from ..core.bounds import mistake_bound
    from ..core.margins import is_separable
    from ..core.training import fit_perceptron

    X, y = points_of(answer, max_points=points, min_points=points)
    if len(y) != points:
        return False, "", f"place exactly {points} points; you have {len(y)}."
    if not is_separable(X, y, fit_bias=False):
        return False, "", "no line through the origin separates your points, so there is no bound: move one across."
    bound = mistake_bound(X, y).bound
    if bound < 4:
        return False, "", (f"the bound (R/gamma)^2 is only {bound:.2f}: make it at least 4 with a thinner margin, "
                           "so that half of it means at least two mistakes.")
    run = fit_perceptron(X, y, fit_bias=False, max_epochs=_MAX_UPDATES)
    ratio = run.mistakes / bound
    if ratio < fraction:
        return False, "", _half_bound_hint(X, y, run, bound, fraction)
    return True, f"{run.mistakes} mistakes against the bound {bound:.2f}: {ratio:.2f} of it, and never above it."


def _half_bound_hint(X, y, run, bound: float, fraction: float) -> str:
    """Exercise 4.3's next move, read from the student's points: which points never caused an update, or
    which point holds the margin down."""
    from ..core.bounds import mistake_bound

    said = (f"{run.mistakes} mistakes against the bound {bound:.2f}: {run.mistakes / bound:.2f} of it, and you need "
            f"{fraction}.")
    idle = sorted(set(range(len(y))) - set(np.asarray(run.history.i).tolist()))
    if idle:
        names = " and ".join(map(str, idle))
        one_more = (run.mistakes + 1) / bound
        which = (f"Point {names} (counting from 0) never caused an update: when its turn came, the run's line "
                 "had it" if len(idle) == 1 else
                 f"Points {names} (counting from 0) never caused an update: when their turns came, the run's "
                 "line had them")
        return (f"{said} {which} right already. One more mistake with the bound where it is would give "
                f"{one_more:.2f}. Move "
                f"{'it' if len(idle) == 1 else 'one of them'} so that the line the run holds at its turn gets it "
                "wrong (the player shows that line), about as far from the origin as the others. Bringing a point "
                "closer to the separating line raises the bound, not the mistakes.")
    mb = mistake_bound(X, y)
    nearest = int(np.argmin(y * (X @ mb.w)))
    return (f"{said} Every point caused an update, so the bound is what is too large: its margin gamma = "
            f"{mb.gamma:.3f} is set by point {nearest}, the nearest to the best line through the origin. Move it "
            "away from that line, so that gamma grows and the bound falls while the mistakes stay.")
