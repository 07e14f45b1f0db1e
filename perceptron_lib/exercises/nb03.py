"""Checks for the exercises of lesson 03 (hyperplane updates).

    >>> from perceptron_lib.exercises import nb03
    >>> nb03.check_never_stops(...)
    3.1: not attempted yet. Replace the ... with your answer and run the cell again.

Every check recomputes the right answer with the library (`margins.is_separable`, the run's
history, `fit_perceptron`) and never raises on a wrong or malformed answer.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_X_y
from ..core import margins
from ..core.own_data import plural
from ..core.perceptron import is_mistake, scores
from ..core.training import fit_perceptron
from . import Verdict, attempted, graded, no_points, no_points_in, points_of, verdict

__all__ = ["check_never_stops", "check_next_update", "check_quiet_start", "check_many_updates"]


def _fmt(v) -> str:
    a = np.atleast_1d(np.asarray(v, dtype=float))
    parts = [f"{x:.4g}" if x != int(x) else str(int(x)) for x in a]
    return parts[0] if len(parts) == 1 and np.ndim(v) == 0 else "(" + ", ".join(parts) + ")"


# --------------------------------------------------------------------------- exercise 1


def check_never_stops(X=..., y=..., *, fit_bias: bool = True) -> Verdict:
    """Exercise 1: points X (n, 2) and labels y on which the perceptron never stops.

    It never stops exactly when no line separates the two classes (with an offset, or through
    the origin when ``fit_bias=False``); `margins.is_separable` decides that with a linear
    programme.
    """
    name = "3.1"
    if not attempted(X) or not attempted(y):
        return verdict(name, ...)
    shape_hint = ("give X as points in the plane, an array of shape (n, 2), and y as n labels, each -1 or +1, "
                  "e.g. X = np.array([[0, 0], [1, 0], [2, 0]]) and y = np.array([1, -1, 1]).")
    if no_points_in(X, y):
        return Verdict(name, "wrong", no_points(at_least=3 if fit_bias else 2, editor=False))
    try:
        Xa, ya = check_X_y(X, y)
        if Xa.shape[1] != 2:
            raise ValueError(f"X has {Xa.shape[1]} columns, not 2")
    except Exception as exc:  # a malformed answer is a wrong answer, explained
        return Verdict(name, "wrong", f"not quite: your answer could not be checked ({exc}). Hint: {shape_hint}")
    sep = margins.is_separable(Xa, ya, fit_bias=fit_bias)
    line = "line" if fit_bias else "line through the origin"
    if sep:
        return verdict(name, X, False, hint=(
            f"these points are separable: w = {_fmt(sep.w)}, b = {_fmt(sep.b)} puts every point on its own side "
            f"(y(<w,x>+b) >= 1 for all of them), so the perceptron stops after finitely many updates. Place the "
            f"points so that no {line} can have each class on its own side: for example a point of "
            "one class between two points of the other."))
    return verdict(name, X, True, praise=(
        f"No {line} separates these {len(ya)} points (the linear programme has no solution), "
        "so some point is always on the wrong side and the perceptron never stops. Now step through "
        "fit_perceptron on your points with the player, and watch it cycle."))


# --------------------------------------------------------------------------- exercise 2


def check_next_update(answer=..., run=None, X=None, y=None, k=None) -> Verdict:
    """Exercise 2: (w, b) after update k + 1 of `run`, predicted from the state after update k.

    The check reads the right answer from ``run.history[k + 1]`` and, for a wrong answer, says
    which example the answer would have updated on and why that is not the next one.
    """
    name = "3.2"
    if not attempted(answer):
        return verdict(name, answer)
    try:
        K = len(run.history) - 1
        Xa, ya = check_X_y(X, y)
        k = int(k)
        if not 0 <= k < K:
            raise ValueError(f"k must be between 0 and {K - 1} for this run")
    except Exception as exc:
        return Verdict(name, "wrong", f"not quite: the check needs the run, its data and k ({exc}).")
    now, nxt = run.history[k], run.history[k + 1]
    hint = (f"start from w = {_fmt(now.w)}, b = {_fmt(now.b)} and look at the examples in order after i = {now.i} "
            f"(after the last one comes 0 again). The first one with y(<w,x>+b) <= 0 is updated: "
            f"w + eta*y*x and b + eta*y, with eta = {_fmt(run.eta)}.")
    try:
        w, b = answer
        w = np.asarray(w, dtype=float).ravel()
        b = float(b)
        if w.shape != now.w.shape:
            raise ValueError(f"w must have {len(now.w)} numbers; got {w.size}")
    except Exception as exc:
        return Verdict(name, "wrong", f"not quite: give the answer as (w, b), e.g. (({', '.join(['1.0'] * len(now.w))}"
                                      f"), 2.0) ({type(exc).__name__}: {exc}). Hint: {hint}")
    s = scores(now.w, now.b, Xa)  # rounding around 0 is 0, as in the run's own mistake test
    if np.allclose(w, nxt.w, atol=1e-6) and abs(b - nxt.b) <= 1e-6:
        m = float(ya[nxt.i] * s[nxt.i])
        return verdict(name, answer, True, praise=(
            f"The next update is on example {nxt.i}: y(<w,x>+b) = {_fmt(m)} <= 0 there"
            + (" (exactly 0 counts as a mistake under the test <= 0)" if m == 0 else "")
            + f", so w becomes {_fmt(nxt.w)} and b becomes {_fmt(nxt.b)}."))
    if np.allclose(w, now.w, atol=1e-6) and abs(b - now.b) <= 1e-6:
        return verdict(name, answer, False, hint="that is the state after update k itself; " + hint)
    for j in range(len(ya)):
        wj = now.w + run.eta * ya[j] * Xa[j]
        bj = now.b + (run.eta * ya[j] if run.fit_bias else 0.0)
        if np.allclose(w, wj, atol=1e-6) and abs(b - bj) <= 1e-6:
            m = float(ya[j] * s[j])
            why = (f"but example {j} passes the test: y(<w,x>+b) = {_fmt(m)} > 0"
                   if not is_mistake(s[j], ya[j], run.update_on, run.margin)
                   else f"but example {j} is not the first mistake met after i = {now.i}")
            return verdict(name, answer, False, hint=f"that would be the update on example {j}, {why}; " + hint)
    return verdict(name, answer, False, hint=hint)


# --------------------------------------------------------------------------- exercise 3


@graded("3.3", hint="a start makes no update when every example already passes the test y(<w,x>+b) > 0, "
                    "that is, when (w0, b0) separates the data. Read a separator off the picture, or use the "
                    "final w and b of any run that converged. Give the answer as (w0, b0), e.g. ((1.0, -2.0), 0.5).")
def check_quiet_start(answer, X, y):
    """Exercise 3: a start (w0, b0) from which the perceptron on X, y makes no update at all."""
    w0, b0 = answer
    w0 = np.asarray(w0, dtype=float).ravel()
    run = fit_perceptron(X, y, w0=w0, b0=float(b0), max_epochs=1)
    ok = run.mistakes == 0
    m = float(np.min(np.asarray(y, float) * scores(w0, float(b0), np.asarray(X, float))))
    return ok, (f"Every example has y(<w0,x>+b0) > 0 (the smallest is {m:.4g}), so the first epoch makes no "
                "update and the perceptron stops where it started: every separator is a fixed point, and "
                "the answer depends on where you start.")


@graded("3.4", hint="Place at most 12 points that a line separates, but with a thin gap between the classes "
                    "and long points far from the origin: every point near the gap is a chance for a mistake.")
def check_many_updates(answer, *, at_least=10, most_points=12):
    """Exercise 3.4: at most 12 points (the editor, or (X, y)) on which the perceptron with offset, from
    w = 0, b = 0 in cyclic order, converges after at least 10 updates."""
    X, y = points_of(answer, max_points=most_points, min_points=2)
    run = fit_perceptron(X, y, max_epochs=1000)
    if not run.converged:
        return False, "", (f"the run did not converge ({'a cycle' if run.cycle else 'stopped after 1000 epochs'}): "
                           "a line must separate your points. Move a point back across.")
    if run.mistakes < at_least:
        return False, "", (f"the perceptron converged after {plural(run.mistakes, 'update')}; you need {at_least}. "
                           "Bring the two classes closer together, or put the points far from the origin.")
    return True, f"{len(y)} points, {plural(run.mistakes, 'update')} before it converged."
