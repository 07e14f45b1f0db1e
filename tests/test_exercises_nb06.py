"""Checks of notebook 06's exercises: right -> correct, wrong -> hint, ... -> not attempted, never raises."""

import numpy as np
import pytest

from perceptron_lib.core.averaged import fit_averaged
from perceptron_lib.core.data import separable
from perceptron_lib.exercises import nb06


@pytest.fixture(scope="module")
def ar():
    return fit_averaged(nb06.EXERCISE_X, nb06.EXERCISE_Y, epochs=nb06.EXERCISE_EPOCHS)


def test_placeholders_are_not_attempted():
    X, y = separable(40, margin=0.15, seed=0)
    for v in (nb06.check_averaged(), nb06.check_survival(...), nb06.check_margin_step(..., X, y)):
        assert v.status == "not attempted" and "not attempted yet" in repr(v)


def test_averaged(ar):
    assert nb06.check_averaged((1.25, 2.5, 0.25)).correct
    assert "correct. The run makes" in nb06.check_averaged((1.25, 2.5, 0.25)).message
    assert nb06.check_averaged([np.array([1.25, 2.5]), 0.25]).correct
    assert "before" in nb06.check_averaged(_before(ar)).message
    assert "last line" in nb06.check_averaged((1.0, 3.0, 0.0)).message
    for bad in ("x", (1, 2), None, [1, "a", 2], (np.nan, 1, 2), {"w": 1}):
        v = nb06.check_averaged(bad)
        assert v.status in ("wrong", "not attempted")


def _before(ar):
    h = ar.run.history
    after = np.repeat(np.c_[h.w, h.b], ar.survival, axis=0)
    return tuple(np.vstack([np.append(h.w[0], h.b[0]), after[:-1]]).mean(axis=0))


def test_survival(ar):
    assert ar.survival.tolist() == [0, 2, 6]
    assert nb06.check_survival([0, 2, 6]).correct
    assert "own example" in nb06.check_survival([1, 2, 5]).message
    assert "add up" in nb06.check_survival([0, 2, 7]).message
    for bad in ("abc", [1], 3, [0.5, "x", 1]):
        assert nb06.check_survival(bad).status == "wrong"


def test_margin_step():
    X, y = separable(40, margin=0.15, seed=0)
    assert nb06.check_margin_step(0.3, X, y).correct
    assert not nb06.check_margin_step(1.0, X, y).correct
    assert "too small" in nb06.check_margin_step(1e-4, X, y).message
    assert "1/eta updates" in nb06.check_margin_step(1e-4, X, y).message
    hint = nb06.check_margin_step(1.0, X, y).message  # reads the student's step: its neighbours' shares
    assert "0.917" in hint and "eta = 0.8 gives 0.968" in hint and "not always better" in hint
    praise = nb06.check_margin_step(0.3, X, y).message
    assert "correct. With eta = 0.3" in praise and "shortest" not in praise
    for bad in (-1, 0, "a", [1, 2], np.inf):
        assert nb06.check_margin_step(bad, X, y).status == "wrong"
    assert nb06.check_margin_step(0.3).status == "wrong"  # no data: explained, not raised
