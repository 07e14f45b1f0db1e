"""Checks of notebook 01's exercises: right -> correct, wrong -> hint, ... -> not attempted, never raise."""

import numpy as np
import pytest

from perceptron_lib.core import data, losses
from perceptron_lib.exercises import nb01

X, Y = data.small_2d()
W, B = np.array(nb01.EX1_W), nb01.EX1_B

MALFORMED = ["1, 2, 5", 3.5, None, {"a": 1}, [[1, 2], [3]], object(), float("nan"), [1.5], (1, 2, 3, 4)]


def right_contributing():
    return np.flatnonzero(losses.margins(W, B, X, Y) < 0).tolist()


@pytest.mark.parametrize("check", [nb01.check_contributing, nb01.check_scaled_loss,
                                   nb01.check_zero_loss_not_separator])
def test_placeholder_is_not_attempted(check):
    for v in (check(), check(...)):
        assert v.status == "not attempted" and "not attempted yet" in repr(v)


@pytest.mark.parametrize("check", [nb01.check_contributing, nb01.check_scaled_loss,
                                   nb01.check_zero_loss_not_separator])
def test_malformed_answers_are_wrong_never_raise(check):
    for bad in MALFORMED:
        v = check(bad)
        assert v.status in ("wrong", "not attempted"), (bad, v)
        if bad is not None:
            assert v.status == "wrong" and "not quite" in v.message


def test_contributing():
    right = right_contributing()
    assert right == [1, 2, 5]  # the notebook's prose relies on this example
    for ans in (right, set(right), tuple(right), np.array(right), [5, 2, 1]):
        assert nb01.check_contributing(ans).correct
    v = nb01.check_contributing(right + [4])  # 4 sits on the boundary
    assert v.status == "wrong" and "boundary" in v.message
    v = nb01.check_contributing([1, 2])
    assert v.status == "wrong" and "Hint" in v.message


def test_scaled_loss():
    right = losses.perceptron_loss(nb01.EX2_C * W, nb01.EX2_C * B, X, Y)
    assert right == pytest.approx(nb01.EX2_C * losses.perceptron_loss(W, B, X, Y))
    assert nb01.check_scaled_loss(right).correct
    assert nb01.check_scaled_loss(np.float32(right)).correct
    v = nb01.check_scaled_loss(right * len(Y))  # the sum instead of the mean
    assert v.status == "wrong" and "mean" in v.message
    v = nb01.check_scaled_loss(right / nb01.EX2_C)
    assert v.status == "wrong" and "Hint" in v.message
    assert nb01.check_scaled_loss(True).status == "wrong"


def test_zero_loss_not_separator():
    assert nb01.check_zero_loss_not_separator((0, 0, 0)).correct
    assert nb01.check_zero_loss_not_separator(np.array([1.0, 0.0, 0.0])).correct
    assert nb01.check_zero_loss_not_separator([0.0, 2.0, 0.0]).correct  # example 3 on the boundary
    v = nb01.check_zero_loss_not_separator((1, 1, 0))  # a strict separator
    assert v.status == "wrong" and "strictly" in v.message
    v = nb01.check_zero_loss_not_separator((1, -1, 0))  # positive loss
    assert v.status == "wrong" and "not 0" in v.message
    assert nb01.check_zero_loss_not_separator((1, 2)).status == "wrong"


@pytest.mark.parametrize("bad", MALFORMED + [(1, 2)])
def test_zero_loss_hint_never_gives_the_answer_away(bad):
    """Issue 15: the hint for a malformed or wrong answer does not name (0, 0, 0)."""
    for answer in (bad, (1, -1, 0)):
        message = nb01.check_zero_loss_not_separator(answer).message
        assert "(0, 0, 0)" not in message and "w = 0, b = 0" not in message
