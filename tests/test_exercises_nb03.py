"""The checks of lesson 03's exercises: right -> correct, wrong -> a hint, ... -> not attempted, never raise."""

import numpy as np
import pytest

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data
from perceptron_lib.exercises import nb03


@pytest.fixture(scope="module")
def six():
    X, y = data.no_origin_separator()
    return fit_perceptron(X, y), X, y


# --- 3.1: a data set on which the perceptron never stops ------------------------------------


@pytest.mark.parametrize("make", [data.xor, data.collinear])
def test_never_stops_right(make):
    v = nb03.check_never_stops(*make())
    assert v.correct and "never stops" in v.message


def test_never_stops_homogeneous():
    X, y = data.no_origin_separator()
    assert nb03.check_never_stops(X, y, fit_bias=False).correct
    v = nb03.check_never_stops(X, y)  # with an offset a line does separate them
    assert v.status == "wrong" and "separable" in v.message and "Hint:" in v.message


def test_never_stops_wrong_names_a_separator():
    X, y = data.small_2d()
    v = nb03.check_never_stops(X, y)
    assert v.status == "wrong" and "w = (" in v.message and "b = " in v.message


@pytest.mark.parametrize("X, y", [(..., ...), (..., [1, -1]), ([[0, 0], [1, 1]], ...), (None, None)])
def test_never_stops_not_attempted(X, y):
    assert nb03.check_never_stops(X, y).status == "not attempted"


@pytest.mark.parametrize("X, y", [
    ([[1, 2, 3], [4, 5, 6]], [1, -1]),       # three columns
    ([[0, 0], [1, 1]], [1, 2]),               # labels not -1/+1
    ([[0, 0], [1, 1]], [1, -1, 1]),           # lengths differ
    ("points", [1]),                          # not numbers
    ([[0, np.nan], [1, 1]], [1, -1]),         # NaN
    (5, 3),
])
def test_never_stops_malformed(X, y):
    v = nb03.check_never_stops(X, y)
    assert v.status == "wrong" and "Hint:" in v.message


# --- 3.2: predict the next update -------------------------------------------------------------


def test_next_update_right(six):
    run, X, y = six
    for k in (0, 9, 20):
        st = run.history[k + 1]
        v = nb03.check_next_update((st.w.tolist(), st.b), run, X, y, k)
        assert v.correct, v
    v = nb03.check_next_update(((1, 0), 4), run, X, y, 9)
    assert v.correct and "exactly 0" in v.message


def test_next_update_wrong_with_hints(six):
    run, X, y = six
    now = run.history[9]
    v = nb03.check_next_update((now.w, now.b), run, X, y, 9)  # no change
    assert v.status == "wrong" and "state after update k itself" in v.message
    v = nb03.check_next_update((now.w + y[5] * X[5], now.b + y[5]), run, X, y, 9)  # example 5 passes the test
    assert v.status == "wrong" and "update on example 5" in v.message and "passes the test" in v.message
    v = nb03.check_next_update(((0, 1), 4), run, X, y, 9)  # example 4 fails, but comes later
    assert v.status == "wrong" and "not the first mistake" in v.message
    v = nb03.check_next_update(((7, 7), 7), run, X, y, 9)
    assert v.status == "wrong" and "Hint:" in v.message


@pytest.mark.parametrize("answer", [5, "w", ((1, 2, 3), 1), ((1, 0),), (None, 1), ([[1, 0]], "b")])
def test_next_update_malformed(six, answer):
    run, X, y = six
    v = nb03.check_next_update(answer, run, X, y, 9)
    assert v.status == "wrong" and "(w, b)" in v.message


def test_next_update_not_attempted_and_bad_setup(six):
    run, X, y = six
    assert nb03.check_next_update(..., run, X, y, 9).status == "not attempted"
    assert nb03.check_next_update().status == "not attempted"
    for k in (-1, run.mistakes, "nine"):
        assert nb03.check_next_update(((1, 0), 4), run, X, y, k).status == "wrong"
    assert nb03.check_next_update(((1, 0), 4)).status == "wrong"


# --- 3.3: a start from which nothing happens ---------------------------------------------------


def test_quiet_start():
    X, y = data.separable(40, margin=0.1, bias=True, seed=3)
    run = fit_perceptron(X, y)
    assert nb03.check_quiet_start((run.w, run.b), X, y).correct
    assert nb03.check_quiet_start(((3 * run.w).tolist(), 3 * run.b), X, y).correct
    v = nb03.check_quiet_start(((0, 0), 0), X, y)
    assert v.status == "wrong" and "Hint:" in v.message
    v = nb03.check_quiet_start((-run.w, -run.b), X, y)
    assert v.status == "wrong"
    assert nb03.check_quiet_start(..., X, y).status == "not attempted"
    for bad in (3, ((1, 2, 3), 0), ("a", "b"), ((np.inf, 0), 0)):
        v = nb03.check_quiet_start(bad, X, y)
        assert v.status == "wrong" and "could not be checked" in v.message


def test_next_update_reads_a_rounded_zero_as_the_run_does():
    # eta = 0.1 on integer points: before update 4 the example's score is 8.3e-17 in floats, 0 in exact
    # arithmetic. The run updated on it (rounding around 0 is 0); the check must not call it "8.327e-17 <= 0".
    rng = np.random.default_rng(1)
    X = rng.integers(-3, 4, size=(8, 2)).astype(float)
    y = np.where(X @ [1.0, 2.0] + 0.5 > 0, 1.0, -1.0)
    run = fit_perceptron(X, y, eta=0.1, max_epochs=20)
    now, nxt = run.history[3], run.history[4]
    assert 0 < y[nxt.i] * (X[nxt.i] @ now.w + now.b) < 1e-15
    v = nb03.check_next_update((nxt.w, nxt.b), run, X, y, 3)
    assert v.correct and "y(<w,x>+b) = 0 <= 0" in v.message and "exactly 0 counts as a mistake" in v.message
