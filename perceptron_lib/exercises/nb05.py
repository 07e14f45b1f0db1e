"""Checks for the exercises of lesson 05 (kernel lifting).

    >>> from perceptron_lib.exercises import nb05
    >>> nb05.check_circle(...)
    5.1: not attempted yet. Replace the ... with your answer and run the cell again.

Every check recomputes the right answer with the library and never raises on a wrong or
malformed answer.
"""

from __future__ import annotations

import numpy as np

from ..core import data, kernels, margins
from ..core.own_data import plural
from ..core.training import fit_perceptron
from . import Verdict, attempted, graded, points_of, verdict

__all__ = ["EXERCISE_1", "RING", "OWN_START", "ring", "own_start", "psi", "check_circle", "check_lift",
           "check_kernel", "check_circle_needed"]

#: Exercise 1: the learned plane (w, b) over the lift (x1, x2, x1^2 + x2^2).
EXERCISE_1 = {"w": (2.0, -4.0, -1.0), "b": 5.0}

#: Exercise 2: how the ring is made from concentric circles about the origin.
RING = {"n": 80, "r_inner": 1.0, "r_outer": 2.0, "noise": 0.05, "seed": 7,
        "stretch": (2.0, 0.7), "turn_degrees": 40.0, "center": (1.0, -0.5)}

#: The points the editor of "Your own data" starts from: section 1's disc and ring (`data.circles`).
OWN_START = {"n": 60, "r_inner": 1.0, "r_outer": 2.0, "noise": 0.15, "seed": 0}

#: Epochs the perceptron gets on the student's features in exercise 2.
MAX_EPOCHS = 500


# --------------------------------------------------------------------------- exercise 1


_CIRCLE_HINT = ("write the score as w3 (x1^2 + x2^2) + w1 x1 + w2 x2 + b; the centre is "
                "(-w1 / (2 w3), -w2 / (2 w3)), the radius squared is |centre|^2 - b / w3, and with "
                "w3 < 0 the score is positive inside the circle.")


def _circle_hint(a, curve) -> str:
    """The hint for one wrong answer: name the part that is wrong, most specific slip first."""
    centre_ok = np.allclose(a[:2], curve.center, atol=1e-3)
    radius_ok = abs(a[2] - curve.radius) <= 1e-3
    if not centre_ok and np.allclose(a[:2], -curve.center, atol=1e-3):
        return ("your centre has the wrong sign: it is (-w1 / (2 w3), -w2 / (2 w3)), and here w3 < 0, "
                "so mind both minus signs.")
    if not centre_ok:
        return "your centre is off. " + _CIRCLE_HINT
    if abs(a[2] - curve.radius ** 2) <= 1e-3:
        return (f"your third number is the radius squared, r_c^2 = {curve.radius ** 2:g}; give its square "
                "root, r_c.")
    if not radius_ok:
        return "your radius is off: r_c^2 = |centre|^2 - b / w3 (mind the sign of b / w3 when w3 < 0)."
    return ("centre and radius are right; the label is not. The score is w3 (|x - c|^2 - r_c^2), which is "
            "positive inside the circle when w3 < 0.")


@graded("5.1", hint=_CIRCLE_HINT)
def check_circle(answer):
    """Exercise 1: (c1, c2, radius, label inside) of the circle of the plane EXERCISE_1.

    A wrong answer gets the hint for its own slip: a centre of the wrong sign, the radius
    squared instead of the radius, a radius that is off otherwise, or the wrong label inside.
    """
    a = np.asarray(answer, dtype=float).ravel()
    if a.shape != (4,):
        raise ValueError(f"give four numbers (c1, c2, radius, label inside); got {a.size}")
    curve = kernels.circle_from_plane(EXERCISE_1["w"], EXERCISE_1["b"])
    ok = (np.allclose(a[:2], curve.center, atol=1e-3) and abs(a[2] - curve.radius) <= 1e-3
          and a[3] == curve.inside)
    if not ok:
        return False, "", _circle_hint(a, curve)
    return ok, (f"The circle has centre ({curve.center[0]:g}, {curve.center[1]:g}) and radius "
                f"sqrt(10) = {curve.radius:.4f}; w3 < 0, so the inside is labelled +1.")


# --------------------------------------------------------------------------- exercise 2


def ring():
    """The data of exercise 2: a disc inside a ring, stretched, turned and moved (see `RING`).

    Returns
    -------
    X : ndarray, shape (80, 2)
    y : ndarray, shape (80,)
        +1 for the inner ellipse, -1 for the outer one.
    """
    X, y = data.circles(RING["n"], r_inner=RING["r_inner"], r_outer=RING["r_outer"], noise=RING["noise"],
                        seed=RING["seed"])
    t = np.deg2rad(RING["turn_degrees"])
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    A = turn @ np.diag(RING["stretch"])
    return X @ A.T + np.asarray(RING["center"]), y


_LIFT_HINT = ("the simple lift (x1, x2, x1^2 + x2^2) can only draw circles, and this ring is an ellipse that is "
              "turned. Give the perceptron x1^2, x2^2 and x1*x2 as separate features (kernels.quadratic_lift does), "
              "or undo the move, the turn and the stretch and take the squared distance from the centre.")


def check_lift(lift_fn=...) -> Verdict:
    """Exercise 2: does the perceptron converge on ``lift_fn(X)`` for the ring of `ring()`?

    `lift_fn` takes X of shape (n, 2) and returns the features, shape (n, m) (or (n,) for one
    feature). The check runs `fit_perceptron` for at most `MAX_EPOCHS` epochs on them.
    """
    ex = "5.2"
    if not attempted(lift_fn):
        return verdict(ex, lift_fn)
    if not callable(lift_fn):
        return Verdict(ex, "wrong", f"not quite: give a function my_lift(X), not a {type(lift_fn).__name__}. "
                                    "Define it with def and pass its name, without brackets.")
    X, y = ring()
    try:
        F = lift_fn(X.copy())
    except Exception as exc:  # the student's function failed: explain, never raise
        return Verdict(ex, "wrong", f"not quite: calling your function on the points failed "
                                    f"({type(exc).__name__}: {exc}). It gets X of shape {X.shape}; X[:, 0] is x1.")
    if not attempted(F):
        return verdict(ex, F)
    try:
        F = np.asarray(F, dtype=float)
    except (TypeError, ValueError) as exc:
        return Verdict(ex, "wrong", f"not quite: your function must return numbers, an array of shape (n, m) "
                                    f"({type(exc).__name__}: {exc}).")
    if F.ndim == 1 and F.shape[0] == len(X):
        F = F[:, None]
    if F.ndim != 2 or F.shape[0] != len(X) or F.shape[1] < 1:
        return Verdict(ex, "wrong", f"not quite: your function must return one row of features per point, shape "
                                    f"({len(X)}, m); it returned shape {F.shape}. np.column_stack([...]) builds it.")
    if F.shape[1] > 10_000:
        return Verdict(ex, "wrong", f"not quite: {F.shape[1]} features is far more than this needs; a handful will do.")
    if not np.all(np.isfinite(F)):
        return Verdict(ex, "wrong", "not quite: your features contain NaN or inf; check for divisions by zero.")
    run = fit_perceptron(F, y, max_epochs=MAX_EPOCHS)
    m = F.shape[1]
    feats = f"{m} feature" + ("" if m == 1 else "s")
    if run.converged:
        extra = (" One feature: you undid the stretch, the turn and the move." if m == 1 else
                 " Can you do it with fewer? One feature is enough." if m > 2 else "")
        return Verdict(ex, "correct", f"correct. On your {feats} the perceptron converged after "
                                      f"{plural(run.mistakes, 'mistake')} in {plural(run.epochs, 'epoch')}: "
                                      f"a plane separates the lifted ring.{extra}")
    separable = margins.is_separable(F, y).separable
    why = ("no plane separates your lifted points (a linear program says so), so the perceptron can never stop"
           if not separable else
           "a plane does separate your lifted points, but with a tiny margin; scale your features so they "
           "have similar sizes, or choose features that pull the classes further apart")
    return Verdict(ex, "wrong", f"not quite: on your {feats} the perceptron still made "
                                f"{int(run.mistakes_per_epoch[-1])} mistakes in epoch {run.epochs}: {why}. "
                                f"Hint: {_LIFT_HINT}")


# --------------------------------------------------------------------------- exercise 3


def psi(x) -> np.ndarray:
    """The lift of exercise 3: ``psi(x) = (x1, x2, x1^2, sqrt(2) x1 x2, x2^2)`` for one point or rows of points."""
    x = np.asarray(x, dtype=float)
    x1, x2 = x[..., 0], x[..., 1]
    return np.stack([x1, x2, x1 * x1, np.sqrt(2.0) * x1 * x2, x2 * x2], axis=-1)


def _pairs(m=25, seed=5):
    rng = np.random.default_rng(seed)
    return rng.normal(scale=1.5, size=(m, 2)), rng.normal(scale=1.5, size=(m, 2))


def check_kernel(kernel_fn=...) -> Verdict:
    """Exercise 3: is ``kernel_fn(p, q)`` equal to ``<psi(p), psi(q)>`` for points p, q in the plane?"""
    ex = "5.3"
    hint = ("multiply out <p, q>^2 = (p1 q1 + p2 q2)^2 and compare it with the last three coordinates of "
            "psi(p) and psi(q); the first two give <p, q>.")
    if not attempted(kernel_fn):
        return verdict(ex, kernel_fn)
    if not callable(kernel_fn):
        return Verdict(ex, "wrong", f"not quite: give a function my_kernel(p, q), not a {type(kernel_fn).__name__}.")
    P, Q = _pairs()
    got = []
    for p, q in zip(P, Q, strict=True):
        try:
            v = kernel_fn(p.copy(), q.copy())
        except Exception as exc:
            return Verdict(ex, "wrong", f"not quite: your kernel failed on p = {np.round(p, 3).tolist()}, "
                                        f"q = {np.round(q, 3).tolist()} ({type(exc).__name__}: {exc}). p and q are "
                                        "arrays of length 2.")
        if not attempted(v):
            return verdict(ex, v)
        try:
            a = np.asarray(v, dtype=float)
        except (TypeError, ValueError) as exc:
            return Verdict(ex, "wrong", f"not quite: your kernel must return a number ({type(exc).__name__}: {exc}).")
        if a.size != 1:
            return Verdict(ex, "wrong", f"not quite: your kernel must return one number for two points; it returned "
                                        f"shape {a.shape}. Sum the products, e.g. with p @ q.")
        got.append(float(a.ravel()[0]))
    got = np.array(got)
    want = np.einsum("ij,ij->i", psi(P), psi(Q))
    if np.allclose(got, want, rtol=1e-9, atol=1e-9):
        return verdict(ex, kernel_fn, True, praise="Your kernel equals <psi(p), psi(q)> = <p, q> + <p, q>^2 on "
                       f"{len(P)} random pairs: five features, one inner product.")
    simple = np.einsum("ij,ij->i", P, Q) + np.einsum("ij,ij->i", P, P) * np.einsum("ij,ij->i", Q, Q)
    if np.allclose(got, simple, rtol=1e-9, atol=1e-9):
        return verdict(ex, kernel_fn, False, hint="that is the kernel of the simple lift (x1, x2, x1^2 + x2^2), "
                       "not of psi. " + hint)
    worst = int(np.argmax(np.abs(got - want)))
    return verdict(ex, kernel_fn, False, hint=f"for p = {np.round(P[worst], 3).tolist()}, "
                   f"q = {np.round(Q[worst], 3).tolist()} your kernel gives {got[worst]:.4f} but "
                   f"<psi(p), psi(q)> = {want[worst]:.4f}. " + hint)


def own_start():
    """The points the lesson's editor starts from (`OWN_START`): X of shape (60, 2) and y, +1 or -1."""
    return data.circles(OWN_START["n"], r_inner=OWN_START["r_inner"], r_outer=OWN_START["r_outer"],
                        noise=OWN_START["noise"], seed=OWN_START["seed"])


def same_points(X, y, X0, y0, *, tol: float = 5e-3) -> bool:
    """True when (X, y) are the points (X0, y0) in any order: each point within `tol` of its own point of the same
    label, one for one (Copy points' text and the editor's order both count as the same)."""
    X, X0 = np.asarray(X, dtype=float), np.asarray(X0, dtype=float)
    y, y0 = np.asarray(y, dtype=float), np.asarray(y0, dtype=float)
    if X.shape != X0.shape or y.shape != y0.shape:
        return False
    dist = np.linalg.norm(X[:, None, :] - X0[None, :, :], axis=-1)
    dist[y[:, None] != y0[None, :]] = np.inf
    nearest = np.argmin(dist, axis=1)
    return bool(np.all(dist[np.arange(len(y)), nearest] <= tol) and len(set(nearest.tolist())) == len(y))


@graded("5.4", hint="Put points of one class near the origin and points of the other class around them on all "
                    "sides: no line separates a disc from the ring around it, and the lift z = x1^2 + x2^2 does.")
def check_circle_needed(answer, *, at_least=6, at_most=20):
    """Exercise 5.4: between 6 and 20 points of the student's own (the editor, or (X, y)) that no line separates,
    but that the lift (x1, x2, x1^2 + x2^2) makes separable, and on whose lift the perceptron converges.

    The lesson's own starting points (`own_start`, in any order) are refused: the exercise starts from Clear."""
    from ..core.training import fit_perceptron

    X, y = points_of(answer, min_points=at_least)
    if same_points(X, y, *own_start()):
        return False, "", (f"these are the lesson's {len(y)} points: press Clear, then place your own (between "
                           f"{at_least} and {at_most}).")
    if len(y) > at_most:
        return False, "", f"place at most {at_most} points of your own; you have {len(y)}. Press Clear to start again."
    if len(y) < at_least:
        return False, "", f"place at least {at_least} points; you have {len(y)}."
    if margins.is_separable(X, y):
        return False, "", "a line separates these points already: the lift is not needed. Surround one class."
    Z = kernels.lift(X)
    if not margins.is_separable(Z, y):
        return False, "", "even the lift does not separate them: no circle has one class inside and the other outside."
    run = fit_perceptron(Z, y, max_epochs=5000)
    if not run.converged:
        return False, "", "the lift separates them, but by so thin a margin that 5000 epochs were not enough."
    return True, f"No line separates your {len(y)} points; on their lift the perceptron converged after " \
                 f"{plural(run.mistakes, 'update')}."
