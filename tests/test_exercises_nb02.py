"""Checks of notebook 02's exercises: right -> correct, wrong -> hint, ... -> not attempted, never raise."""

import numpy as np
import pytest

from perceptron_lib.core import data, subgradients
from perceptron_lib.exercises import nb02

X, Y = data.small_2d()
W, B = np.array(nb02.EX_W), nb02.EX_B
CHECKS = [nb02.check_cases, nb02.check_subgradient, nb02.check_other_subgradient]
MALFORMED = ["correct", 3.5, None, {"a": 1}, [[1, 2], [3]], object(), [float("nan")] * 3, [1, 2], ["x"] * 6]


def sub(theta):
    return subgradients.perceptron_subgradient(W, B, X, Y, at_kink=theta, reduction="sum")


@pytest.mark.parametrize("check", CHECKS)
def test_placeholder_is_not_attempted(check):
    for v in (check(), check(...)):
        assert v.status == "not attempted" and "not attempted yet" in repr(v)


@pytest.mark.parametrize("check", CHECKS)
def test_malformed_answers_are_wrong_never_raise(check):
    for bad in MALFORMED:
        v = check(bad)
        if bad is None:
            assert v.status == "not attempted"
        else:
            assert v.status == "wrong" and "not quite" in v.message, (bad, v)


def test_cases():
    right = sub(0.0).cases.tolist()
    assert right.count("boundary") == 3  # the exercise is built around three boundary points
    assert nb02.check_cases(right).correct
    assert nb02.check_cases([c.upper() for c in right]).correct
    assert nb02.check_cases(tuple("on the boundary" if c == "boundary" else c for c in right)).correct
    wrong = list(right)
    wrong[0] = "correct"
    v = nb02.check_cases(wrong)
    assert v.status == "wrong" and "[0]" in v.message
    v = nb02.check_cases(right[:5])
    assert v.status == "wrong" and "each of the 6" in v.message


def test_subgradient():
    right = sub(1.0).vector
    assert right.tolist() == [-7.0, -10.0, -1.0]  # the solutions notebook works this out by hand
    assert nb02.check_subgradient(right).correct
    assert nb02.check_subgradient(right.tolist()).correct
    v = nb02.check_subgradient(sub(0.0).vector)
    assert v.status == "wrong" and "theta = 0" in v.message
    v = nb02.check_subgradient(right / len(Y))
    assert v.status == "wrong" and "mean" in v.message
    v = nb02.check_subgradient(-right)
    assert v.status == "wrong" and "signs" in v.message
    v = nb02.check_subgradient([0, 0, 0])
    assert v.status == "wrong" and "Hint" in v.message


def test_other_subgradient():
    g0, g1 = sub(0.0).vector, sub(1.0).vector
    assert nb02.check_other_subgradient((g0 + g1) / 2).correct
    assert nb02.check_other_subgradient(g0 + 0.3 * (g1 - g0)).correct
    # each boundary example may take its own theta_i
    C = -(Y[:, None] * np.hstack([X, np.ones((len(Y), 1))]))[sub(0.0).cases == "boundary"]
    assert nb02.check_other_subgradient(g0 + np.array([1.0, 0.0, 0.5]) @ C).correct
    for end in (g0, g1):
        v = nb02.check_other_subgradient(end)
        assert v.status == "wrong" and "in between" in v.message
    v = nb02.check_other_subgradient(g0 + 1.5 * (g1 - g0))  # outside the subdifferential
    assert v.status == "wrong" and "not a subgradient" in v.message


def test_cases_accept_the_course_word_wrong_side():
    """Issue 15: the course says "wrong side" for m < 0 ("mistake" is m <= 0); the check takes it."""
    right = ["wrong side" if c == "mistake" else c for c in sub(0.0).cases.tolist()]
    assert "wrong side" in right and nb02.check_cases(right).correct
    assert "'wrong side' if m_i < 0" in nb02.check_cases(["correct"] * 6).message
