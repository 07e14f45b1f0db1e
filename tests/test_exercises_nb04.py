"""Checks of notebook 04's exercises: right -> correct, wrong -> hint, ... -> not attempted, never raises."""

import numpy as np
import pytest

from perceptron_lib.core.bounds import mistake_bound
from perceptron_lib.core.data import separable
from perceptron_lib.exercises import nb04


@pytest.fixture(scope="module")
def ex1():
    Xe, ye = separable(30, margin=0.2, seed=0)
    u_other = np.array([3.0, -4.0])
    return Xe, ye, u_other, mistake_bound(Xe, ye).bound, mistake_bound(Xe, ye, u=u_other).bound


def test_bound_right(ex1):
    Xe, ye, u, best, other = ex1
    assert best < other
    for answer in [(best, other), [best, other], np.array([best, other]), (round(best, 2), round(other, 2))]:
        v = nb04.check_bound(answer, Xe, ye, u)
        assert v.correct and "4.1: correct." in repr(v)


def test_bound_wrong_with_hints(ex1):
    Xe, ye, u, best, other = ex1
    R = mistake_bound(Xe, ye).R
    raw = (R / np.min(ye * (Xe @ u))) ** 2  # u_other not scaled to unit length
    cases = {
        (other, best): "swapped",
        (best, raw): "not 1",
        (np.sqrt(best), other): "square it",
        (best, other + 5): "second number is off",
        (best + 1, other): "first number is off",
    }
    for answer, hint in cases.items():
        v = nb04.check_bound(answer, Xe, ye, u)
        assert v.status == "wrong" and "Hint:" in v.message and hint in v.message, (answer, v)


def test_bound_placeholder_and_malformed(ex1):
    Xe, ye, u, best, other = ex1
    assert nb04.check_bound(..., Xe, ye, u).status == "not attempted"
    assert nb04.check_bound(None, Xe, ye, u).status == "not attempted"
    for bad in [best, (best,), (best, other, 1), "24.6, 34.5", (best, "x"), (best, np.nan), {"a": 1}, (True, 1)]:
        v = nb04.check_bound(bad, Xe, ye, u)
        assert v.status == "wrong" and "Hint:" in v.message, bad
    v = nb04.check_bound((best, other))  # the data were left out
    assert v.status == "wrong" and "check_bound(answer, Xe, ye, u_other)" in v.message


def test_tight_right():
    for answer in [(np.eye(5), np.ones(5)), (np.eye(3), np.ones(3), "adversarial"),
                   ([[1.0, 0.0], [0.0, 1.0]], [1, -1])]:
        v = nb04.check_tight(answer)
        assert v.correct and "ratio 1.00" in v.message, answer


def test_tight_wrong_says_the_ratio():
    X, y = separable(40, margin=0.15, seed=0)
    for answer in [(X, y), (X, y, "adversarial")]:
        v = nb04.check_tight(answer)
        mistakes, bound, ratio = nb04.tight_ratio(*answer)
        assert v.status == "wrong" and f"ratio {ratio:.2f}" in v.message and "Hint:" in v.message
        assert ratio < 0.5 and mistakes <= bound


def test_tight_placeholder_and_malformed():
    assert nb04.check_tight(...).status == "not attempted"
    assert nb04.check_tight().status == "not attempted"
    bad = [
        "data",
        (np.eye(2),),
        (np.eye(2), np.ones(2), "reverse"),
        (np.eye(2), np.ones(3)),
        (np.eye(2), [1, 2]),  # labels must be -1/+1
        ([[1.0, 1.0], [3.0, 3.0]], [1, -1]),  # no line through the origin separates these
        (np.zeros((2, 2)), [1, -1]),  # a point at the origin is never classified
        (np.array([["a", "b"]]), [1]),
    ]
    for answer in bad:
        v = nb04.check_tight(answer)
        assert v.status == "wrong" and "Hint:" in v.message, answer


def test_tight_ratio_order_matters_only_through_the_run():
    X, y = np.eye(4), np.ones(4)
    assert nb04.tight_ratio(X, y) == pytest.approx((4, 4.0, 1.0))
    assert nb04.tight_ratio(X, y, "adversarial") == pytest.approx((4, 4.0, 1.0))


def test_tight_says_tight_only_at_ratio_one():
    """Issue 15: reaching the bound (ratio 1.00) is reported as a tight bound; half is not."""
    full = nb04.check_tight((np.eye(4), np.ones(4)))
    assert full.correct and "ratio 1.00" in full.message and "the bound is tight" in full.message


def test_half_bound_hint_reads_the_points():
    """Issue 31: from the lesson's start (ratio 0.49) and after dragging a point toward the line (bound 10),
    the hint names the points that never caused an update and says that a thinner margin raises the bound."""
    X4 = np.array([[1.0, 1.0], [1.5, -0.5], [-1.0, -1.0], [-0.5, 1.5]])
    y4 = np.array([1.0, 1.0, -1.0, -1.0])
    start = nb04.check_half_bound((X4, y4)).message
    assert "0.49 of it" in start and "Points 1 and 2" in start and "would give 0.74" in start
    assert "Shrink the margin" not in start and "raises the bound, not the mistakes" in start
    dragged = X4.copy()
    dragged[1] = [0.5, 0.3]
    msg = nb04.check_half_bound((dragged, y4)).message
    assert "bound 10.00" in msg and "0.20 of it" in msg and "Points 1 and 2" in msg
    every = np.array([[1.4, 1.3], [-0.4, -0.1], [1.3, 0.7], [1.3, 1.0]])  # every point updates; gamma 0.082
    msg = nb04.check_half_bound((every, np.array([1.0, 1.0, -1.0, -1.0]))).message
    assert "Every point caused an update" in msg and "gamma = 0.082 is set by point 0" in msg
