"""A malformed answer gets the student's words, never a Python error from inside numpy (tester 4's table).

Each row is an answer a student typed and what the verdict must say; every row failed before the readers of
`perceptron_lib.exercises.answers` (a KeyError, "float() argument must be ...", "too many values to unpack").
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_lib.core import data
from perceptron_lib.exercises import answers, nb01, nb02, nb04, nb06

XE, YE = data.separable(30, margin=0.2, seed=0)
U_OTHER = np.array([3.0, -4.0])

MALFORMED = [
    (nb01.check_contributing, [6], "numbered 0 to 5; got 6"),
    (nb01.check_contributing, [-1, 2, 5], "numbered 0 to 5; got -1"),
    (nb01.check_contributing, [True], "whole numbers such as [0, 3]; got True"),
    (nb01.check_scaled_loss, [6.5], "give one number, such as 6.5, not a list of 1 item"),
    (nb01.check_scaled_loss, float("nan"), "give a finite number; got nan"),
    (nb01.check_zero_loss_not_separator, (np.nan, 0, 0), "three finite numbers (w1, w2, b); number 1 is nan"),
    (nb01.check_zero_loss_not_separator, "1,0,0", "not the text '1,0,0'"),
    (nb02.check_cases, ["correct"] * 5 + ["wrong-side"], "example 5 is the text 'wrong-side': use 'correct', "),
    (nb02.check_cases, [0, 0, -1, 1, 0, -1], "example 0 is the number 0"),
    (nb02.check_subgradient, "1,0,0", "give three numbers (g_w1, g_w2, g_b), not the text"),
    (lambda a: nb04.check_bound(a, XE, YE, U_OTHER), 24.6, "give two numbers (bound with the maximum-margin"),
    (nb04.check_tight, "x", 'give (X, y) or (X, y, "adversarial"), not the text'),
    (nb04.check_half_bound, (XE[:4], YE[:4], "adversarial"), "the editor or a pair (X, y) of points and labels, "
                                                             "not a tuple of 3 items"),
    (nb06.check_averaged, "1,2,3", "give three numbers (w1, w2, b), not the text '1,2,3'"),
    (nb06.check_survival, [1, 2], "got 2 numbers"),
    # tester 5: a 0-d array, nan and a huge int in a list, the library's words for 4.2 and 4.3, a step <= 0
    (nb01.check_contributing, [np.nan], "whole numbers such as [0, 3]; got the number nan"),
    (nb01.check_scaled_loss, 10**400, "of a size a float holds (up to about 1e308); yours has 401 digits"),
    (nb06.check_averaged, [10**400, 0, 0], "number 1 has 401 digits"),
    (nb01.check_scaled_loss, np.array([6.5]), "not an array of 1 item"),
    (nb04.check_tight, ([[1, 0], [-1, 0], [2, 0]], [1, 1, -1]), "no line (hyperplane) through the origin separates"),
    (nb04.check_half_bound, (np.eye(5, 2) + 1, [1, 1, 1, -1, -1]), "allows at most 4 points; you have 5"),
    (lambda a: nb06.check_margin_step(a, *data.separable(40, margin=0.15, seed=0)), -1, "must be > 0; got -1"),
]


@pytest.mark.parametrize(("check", "answer", "said"), MALFORMED)
def test_a_malformed_answer_is_told_what_to_give(check, answer, said):
    v = check(answer)
    assert v.status == "wrong"
    assert said in v.message
    assert "could not be checked" not in v.message  # no Python error's name in the student's verdict


def test_the_printed_loss_times_three_is_right():
    # the lesson prints L = 2.1667, so 3 x 2.1667 = 6.5001 is the student's answer (it was "not quite")
    assert nb01.check_scaled_loss(3 * 2.1667).correct
    assert nb01.check_scaled_loss(13 / 2).correct
    assert not nb01.check_scaled_loss(6.6).correct


def test_a_bound_of_one_is_not_a_tight_bound():
    trivial = nb04.check_tight(([[1, 0], [-1, 0]], [1, -1]))  # one update meets a bound of 1
    assert trivial.status == "wrong" and "1 mistake (" in trivial.message and "at least 2" in trivial.message
    assert nb04.check_tight(([[1, 0], [0, 1]], [1, 1])).correct  # two points at right angles: 2 of 2


def test_the_step_hint_says_what_its_numbers_show():
    X, y = data.separable(40, margin=0.15, seed=0)  # lesson 06's X5, y5
    v = nb06.check_margin_step(100.0, X, y)  # 0.644 of the maximum, and so are 80 and 125 (tester 4)
    assert not v.correct
    shares = [float(t.split(" gives ")[1].rstrip(".").split(" ")[0]) for t in v.message.split("Nearby, ")[1]
              .split(". ")[0].split(" and ")]
    own = float(v.message.split("final line has ")[1].split(" ")[0])
    steady = all(abs(s - own) < 5e-4 for s in shares)
    assert ("stays the same for steps near this one" in v.message) == steady
    assert ("does not move steadily" in v.message) == (not steady)


@given(st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner), max_leaves=8))
def test_a_reader_returns_numbers_or_says_why(answer):
    try:
        out = answers.numbers(answer, 3, names="(w1, w2, b)")
    except answers.AnswerError as exc:
        assert str(exc).startswith("give three ")
    else:
        assert out.shape == (3,) and np.all(np.isfinite(out))


def test_a_numpy_scalar_is_the_number_it_holds():
    assert nb01.check_scaled_loss(np.array(6.5)).correct  # np.sum(...) * 3 gives one
    assert nb01.check_zero_loss_not_separator((np.array(0.0), 0, 0)).correct
    assert nb01.check_contributing(np.array([1, 2], dtype=np.int64)).status in ("correct", "wrong")


def test_half_the_bound_is_half_even_where_the_bound_is_computed_a_bit_above_4():
    # bound 4.000000000000002 and 2 mistakes: "ratio 0.50. You need at least 0.50" before the tolerance
    assert nb04.check_tight(([[1, 0], [0, 1], [1, 1]], [1, 1, 1])).correct


def test_a_huge_vector_is_not_a_subgradient_and_says_so_quietly(recwarn):
    v = nb02.check_other_subgradient([1e160, 0, 0])
    assert v.status == "wrong" and "not a subgradient" in v.message
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]  # no overflow on the student's stderr
