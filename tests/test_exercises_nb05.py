"""Lesson 05's exercise checks: right -> correct, wrong -> a hint, ... -> not attempted, never raises."""

import numpy as np
import pytest

from perceptron_lib.core import kernels
from perceptron_lib.exercises import nb05

# --- exercise 1: the circle of a plane -----------------------------------------------------------


def test_circle_right_wrong_and_placeholder():
    assert nb05.check_circle(...).status == "not attempted"
    ok = nb05.check_circle((1.0, -2.0, np.sqrt(10), 1))
    assert ok.correct and "sqrt(10)" in ok.message
    assert nb05.check_circle([1, -2, 3.1623, 1]).correct  # rounded to 4 decimals is fine
    wrong_side = nb05.check_circle((1.0, -2.0, np.sqrt(10), -1))
    assert wrong_side.status == "wrong" and "Hint:" in wrong_side.message and "w3 < 0" in wrong_side.message
    assert nb05.check_circle((-1.0, 2.0, np.sqrt(10), 1)).status == "wrong"  # centre with the wrong sign


@pytest.mark.parametrize("bad", ["circle", (1, 2), [[1, 2], [3, 4, 5]], None, {"c": 1}, 3.0])
def test_circle_malformed_never_raises(bad):
    v = nb05.check_circle(bad)
    assert v.status in ("wrong", "not attempted")
    if bad is not None:
        assert v.status == "wrong"


def test_circle_answer_matches_the_library():
    c = kernels.circle_from_plane(nb05.EXERCISE_1["w"], nb05.EXERCISE_1["b"])
    assert c.center.tolist() == [1.0, -2.0] and c.radius == pytest.approx(np.sqrt(10)) and c.inside == 1


# --- exercise 2: a lift for the ring ---------------------------------------------------------------


def test_ring_is_deterministic_and_needs_more_than_the_simple_lift():
    X, y = nb05.ring()
    X2, y2 = nb05.ring()
    assert X.shape == (80, 2) and (X == X2).all() and (y == y2).all()
    assert set(y.tolist()) == {-1, 1}


def test_lift_right_answers():
    assert nb05.check_lift(kernels.quadratic_lift).correct
    t = np.deg2rad(nb05.RING["turn_degrees"])
    A = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ np.diag(nb05.RING["stretch"])

    def one(X):
        u = np.linalg.solve(A, (X - nb05.RING["center"]).T).T
        return (u**2).sum(axis=1)  # shape (n,): one feature is accepted

    v = nb05.check_lift(one)
    assert v.correct and "1 feature" in v.message


def test_lift_wrong_answers_get_hints():
    for fn in (kernels.lift, lambda X: X, lambda X: X**2):
        v = nb05.check_lift(fn)
        assert v.status == "wrong" and "Hint:" in v.message and "no plane separates" in v.message


def test_lift_placeholder_and_malformed_never_raise():
    assert nb05.check_lift().status == "not attempted"
    assert nb05.check_lift(...).status == "not attempted"
    assert nb05.check_lift(lambda X: ...).status == "not attempted"  # the notebook's template
    assert nb05.check_lift(lambda X: None).status == "not attempted"
    cases = [
        3,  # not a function
        lambda X: 1 / 0,  # raises
        lambda: X,  # noqa: F821 - wrong signature, raises TypeError when called
        lambda X: "features",  # not numbers
        lambda X: X[:10],  # wrong number of rows
        lambda X: np.ones((80, 2, 2)),  # wrong rank
        lambda X: np.full((80, 2), np.nan),  # not finite
        lambda X: [[1, 2], [3]],  # ragged
        lambda X: np.empty((80, 0)),  # no features
    ]
    for bad in cases:
        v = nb05.check_lift(bad)
        assert v.status == "wrong" and v.message.startswith("not quite"), (bad, v)


# --- exercise 3: the kernel of psi -------------------------------------------------------------------


def test_psi_has_five_coordinates():
    assert nb05.psi([1.0, 2.0]).tolist() == pytest.approx([1, 2, 1, 2 * np.sqrt(2), 4])
    assert nb05.psi(np.ones((3, 2))).shape == (3, 5)


def test_kernel_right_answers():
    assert nb05.check_kernel(lambda p, q: p @ q + (p @ q) ** 2).correct
    assert nb05.check_kernel(lambda p, q: nb05.psi(p) @ nb05.psi(q)).correct  # the explicit way is right too
    assert nb05.check_kernel(lambda p, q: np.array([[p @ q * (1 + p @ q)]])).correct  # one number, any shape


def test_kernel_wrong_answers_get_hints():
    v = nb05.check_kernel(lambda p, q: p @ q + (p @ p) * (q @ q))
    assert v.status == "wrong" and "simple lift" in v.message and "Hint:" in v.message
    v = nb05.check_kernel(lambda p, q: (p @ q) ** 2)
    assert v.status == "wrong" and "your kernel gives" in v.message


def test_kernel_placeholder_and_malformed_never_raise():
    assert nb05.check_kernel().status == "not attempted"
    assert nb05.check_kernel(lambda p, q: ...).status == "not attempted"
    for bad in (2.0, lambda p: p, lambda p, q: p * q, lambda p, q: "k", lambda p, q: p[5], lambda p, q: [1, [2]]):
        v = nb05.check_kernel(bad)
        assert v.status == "wrong" and v.message.startswith("not quite"), (bad, v)


def test_circle_hints_name_the_slip():
    """Issue 15: rho^2 for rho, a centre of the wrong sign and a wrong label each get their own hint."""
    hints = {name: nb05.check_circle(answer).message for name, answer in {
        "rho squared": (1.0, -2.0, 10.0, 1),
        "centre sign": (-1.0, 2.0, np.sqrt(10), 1),
        "label": (1.0, -2.0, np.sqrt(10), -1),
        "radius off": (1.0, -2.0, 2.0, 1),
    }.items()}
    assert all(m.startswith("not quite. Hint:") for m in hints.values())
    assert len(set(hints.values())) == len(hints)  # four slips, four different hints
    assert "radius squared" in hints["rho squared"] and "wrong sign" in hints["centre sign"]
    assert "label" in hints["label"]
