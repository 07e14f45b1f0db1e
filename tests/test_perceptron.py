"""The online, mini-batch and batch perceptron against independent references."""

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron

from perceptron_lib import fit_batch, fit_minibatch, fit_perceptron, is_mistake, reference_perceptron

XOR_X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
XOR_Y = np.array([-1, -1, 1, 1])


def random_data(seed, n=60, d=3, noise=0.0, integer=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float) if integer else rng.normal(size=(n, d))
    u = rng.normal(size=d)
    y = np.where(X @ u + 0.5 > 0, 1.0, -1.0)
    flip = rng.random(n) < noise
    y[flip] *= -1
    return X, y


# --- hand-worked ---------------------------------------------------------------------------


def test_hand_worked_run():
    # (2,1) with y=+1: score 0 -> mistake, w=(2,1), b=1. Then (-1,-2) with y=-1: score -4+1=-3, y*s=3 > 0.
    run = fit_perceptron([[2, 1], [-1, -2]], [1, -1])
    assert run.w.tolist() == [2.0, 1.0] and run.b == 1.0
    assert run.mistakes == 1 and run.epochs == 2 and run.converged and run.cycle is None
    s = run.history[1]
    assert (s.i, s.epoch, s.margin_before, s.margin_after) == (0, 1, 0.0, 6.0)  # 0 + 1*(|x|^2 + 1) = 6


def test_hand_worked_rules_at_zero():
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [-1, 1]
    # "sign" with sgn(0) = -1: the first point (y=-1) is "correct" at w=0; the second (y=+1) is not.
    run = fit_perceptron(X, y, update_on="sign", max_epochs=1, fit_bias=False)
    assert run.history.i.tolist() == [1]
    assert fit_perceptron(X, y, update_on="negative").mistakes == 0
    assert fit_perceptron(X, y, update_on="nonpositive", max_epochs=1).history.i[0] == 0


# --- the fast path equals the plain loop -------------------------------------------------


@pytest.mark.parametrize("update_on", ["nonpositive", "negative", "sign"])
@pytest.mark.parametrize("fit_bias", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_equals_reference_loop(update_on, fit_bias, seed):
    X, y = random_data(seed, noise=0.1 * (seed % 2), integer=seed >= 2)
    w0 = np.random.default_rng(seed).normal(size=3) if update_on == "negative" else None
    run = fit_perceptron(X, y, max_epochs=15, fit_bias=fit_bias, update_on=update_on, w0=w0, b0=0.5, eta=0.7)
    w, b, updates = reference_perceptron(X, y, max_epochs=15, fit_bias=fit_bias, update_on=update_on, w0=w0,
                                         b0=0.5, eta=0.7)
    if run.cycle is None:
        np.testing.assert_allclose(run.w, w, rtol=1e-12, atol=1e-12)
        assert run.b == pytest.approx(b)
        assert run.history.i.tolist() == updates
    else:  # stopped early on a repeated state: its updates are a prefix of the loop's
        assert run.history.i.tolist() == updates[: run.mistakes]


def test_random_order_replays_the_permutations():
    X, y = random_data(7, n=40, noise=0.1)
    run = fit_perceptron(X, y, order="random", rng=np.random.default_rng(3), max_epochs=6)
    gen = np.random.default_rng(3)
    w, b, updates = np.zeros(3), 0.0, []
    for _ in range(run.epochs):
        for i in gen.permutation(len(X)):
            if y[i] * (X[i] @ w + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append(int(i))
    assert run.history.i.tolist() == updates
    np.testing.assert_allclose(run.w, w)
    assert fit_perceptron(X, y, order="random", rng=3, max_epochs=6).history.i.tolist() == updates


@pytest.mark.parametrize("noisy", [False, True])
@pytest.mark.parametrize("epochs", range(1, 6))
def test_equals_sklearn(noisy, epochs):
    X, y = random_data(11, n=200, d=5, noise=0.1 if noisy else 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = Perceptron(shuffle=False, eta0=1, tol=None, penalty=None, max_iter=epochs).fit(X, y)
    run = fit_perceptron(X, y, max_epochs=epochs)
    # Once converged, more epochs change nothing, so a run that stopped early still equals sklearn's.
    np.testing.assert_allclose(run.w, sk.coef_[0], rtol=1e-12, atol=1e-12)
    assert run.b == pytest.approx(sk.intercept_[0], abs=1e-12)


# --- the history ------------------------------------------------------------------------


def test_history_records_every_update_and_the_margin_identity():
    X, y = random_data(5, n=80, noise=0.05)
    for fit_bias in (True, False):
        run = fit_perceptron(X, y, eta=0.3, max_epochs=10, fit_bias=fit_bias, w0=[1, -1, 0.5], b0=0.2)
        h = run.history
        assert len(h) == run.mistakes + 1 and h.w.shape == (run.mistakes + 1, 3)
        np.testing.assert_array_equal(h.w[0], [1, -1, 0.5])
        # each row is the previous one plus eta*y_i*x_i
        np.testing.assert_allclose(np.diff(h.w, axis=0), 0.3 * y[h.i, None] * X[h.i])
        # y(<w,x>+b) rises by exactly eta(|x|^2 + 1), or eta|x|^2 without an offset
        gain = 0.3 * ((X[h.i] ** 2).sum(1) + (1.0 if fit_bias else 0.0))
        np.testing.assert_allclose(h.margin_after - h.margin_before, gain, rtol=1e-10, atol=1e-10)
        assert (h.margin_before <= 0).all()
        assert run.mistakes_per_epoch.sum() == run.mistakes
        assert len(run.mistakes_per_epoch) == run.epochs


def test_dual_identity():
    X, y = random_data(2, n=50, noise=0.1)
    run = fit_perceptron(X, y, eta=0.25, max_epochs=7)
    counts = run.update_counts()
    np.testing.assert_allclose(run.w, 0.25 * (counts * y) @ X, atol=1e-12)
    assert run.b == pytest.approx(0.25 * (counts * y).sum())


def test_state_access_and_immutability():
    run = fit_perceptron(XOR_X, XOR_Y, max_epochs=3)
    assert run.state(0).k == 0 and run.state(0).i == -1 and run.state(-1).k == run.mistakes
    with pytest.raises(IndexError, match="states 0..7"):
        run.history[99]
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.w = np.zeros(2)
    with pytest.raises(ValueError, match="read-only"):
        run.w[0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        run.history.w[0, 0] = 5.0


def test_history_is_proportional_to_updates_not_epochs():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]] * 500)
    y = np.array([1.0, -1.0] * 500)
    run = fit_perceptron(X, y, max_epochs=50)
    # (1,0): w=(1,0), b=1; then (-1,0) scores -1+1 = 0, a mistake: w=(2,0), b=0; then all 1000 are correct.
    assert run.mistakes == 2 and run.history.w.shape == (3, 2)


# --- not separable ----------------------------------------------------------------------


def test_xor_cycle_detected_exactly():
    run = fit_perceptron(XOR_X, XOR_Y, max_epochs=10_000)
    assert not run.converged and run.cycle is not None
    assert run.epochs == run.cycle.start + run.cycle.length < 10
    # replaying the cycle from its start reproduces the same state
    h = run.history
    def at(e):  # the state after the last update of epoch e
        k = np.searchsorted(h.epoch, e, side="right")
        return h.w[k], h.b[k]

    w1, b1 = at(run.cycle.start)
    w2, b2 = at(run.cycle.start + run.cycle.length)
    assert np.array_equal(w1, w2) and b1 == b2
    assert run.mistakes_per_epoch.min() > 0


def test_collinear_and_random_order_do_not_loop_forever():
    X, y = [[0.0], [1.0], [2.0]], [1, -1, 1]
    assert fit_perceptron(X, y, max_epochs=10_000).cycle is not None
    run = fit_perceptron(X, y, max_epochs=200, order="random", rng=0)
    assert run.epochs == 200 and not run.converged and run.cycle is None


# --- properties -------------------------------------------------------------------------

small_X = arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 4)),
                 elements=st.floats(-5, 5, allow_nan=False, width=32))


@settings(max_examples=60, deadline=None)
@given(X=small_X, seed=st.integers(0, 10_000), power=st.integers(-12, 12))
def test_eta_invariance_from_zero(X, seed, power):
    # Scaling by a power of two is exact in floating point, so the statement holds to the last bit:
    # same updates in the same order, and every iterate is eta times the eta = 1 iterate.
    eta = 2.0**power
    y = np.where(np.random.default_rng(seed).random(len(X)) < 0.5, -1.0, 1.0)
    a = fit_perceptron(X, y, max_epochs=20, eta=1.0)
    b = fit_perceptron(X, y, max_epochs=20, eta=eta)
    assert a.history.i.tolist() == b.history.i.tolist()
    np.testing.assert_array_equal(b.history.w, eta * a.history.w)
    np.testing.assert_array_equal(b.history.b, eta * a.history.b)


@pytest.mark.parametrize("eta", [0.1, 0.37, 3.0])
def test_eta_invariance_with_rounding(eta):
    # Other step sizes round; on data whose margins stay away from 0 the updates still agree.
    X, y = random_data(12, n=80, noise=0.1)
    a = fit_perceptron(X, y, max_epochs=30)
    b = fit_perceptron(X, y, max_epochs=30, eta=eta)
    assert a.history.i.tolist() == b.history.i.tolist()
    np.testing.assert_allclose(b.history.w, eta * a.history.w, rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(X=small_X, seed=st.integers(0, 10_000), order=st.sampled_from(["cyclic", "random"]))
def test_negative_rule_never_moves_from_zero(X, seed, order):
    y = np.where(np.random.default_rng(seed).random(len(X)) < 0.5, -1.0, 1.0)
    run = fit_perceptron(X, y, update_on="negative", order=order, rng=seed)
    assert run.mistakes == 0 and run.converged and not run.w.any() and run.b == 0.0


@settings(max_examples=60, deadline=None)
@given(X=small_X, seed=st.integers(0, 10_000), eta=st.floats(1e-2, 1e2), order=st.sampled_from(["cyclic", "random"]),
       fit_bias=st.booleans())
def test_dual_identity_property(X, seed, eta, order, fit_bias):
    # From w0 = 0, b0 = 0: w = eta * sum over updates of y_i x_i, b likewise with y_i, at every step.
    y = np.where(np.random.default_rng(seed).random(len(X)) < 0.5, -1.0, 1.0)
    run = fit_perceptron(X, y, eta=eta, order=order, rng=seed, max_epochs=15, fit_bias=fit_bias)
    counts = run.update_counts()
    np.testing.assert_allclose(run.w, eta * (counts * y) @ X, rtol=1e-9, atol=1e-9 * eta * (1 + np.abs(X).sum()))
    assert run.b == pytest.approx(eta * (counts * y).sum() if fit_bias else 0.0, abs=1e-9 * eta * len(X))
    steps = eta * np.cumsum(y[run.history.i, None] * X[run.history.i], axis=0)
    np.testing.assert_allclose(run.history.w[1:], steps, rtol=1e-9, atol=1e-9 * eta * (1 + np.abs(X).sum()))


def test_eta_matters_from_a_nonzero_start():
    X, y = random_data(3, n=40)
    a = fit_perceptron(X, y, w0=[1.0, 1.0, 1.0])
    b = fit_perceptron(X, y, w0=[1.0, 1.0, 1.0], eta=0.01)
    assert a.history.i.tolist() != b.history.i.tolist()


# --- mini-batch and batch ---------------------------------------------------------------


def test_minibatch_with_all_examples_is_batch_descent():
    X, y = random_data(4, n=30, noise=0.1)
    mb = fit_minibatch(X, y, batch_size=30, eta=0.5, max_iter=25, rng=1)
    full = fit_batch(X, y, eta=0.5, max_iter=25, reduction="mean")
    summed = fit_batch(X, y, eta=0.5 / 30, max_iter=25, reduction="sum")
    for other in (full, summed):
        np.testing.assert_allclose(mb.history.w, other.history.w, atol=1e-12)
        np.testing.assert_allclose(mb.history.b, other.history.b, atol=1e-12)


def test_minibatch_of_one_is_the_online_step_on_a_random_example():
    X, y = random_data(6, n=25, noise=0.1)
    run = fit_minibatch(X, y, batch_size=1, eta=0.5, max_iter=40, rng=2)
    gen, w, b, path = np.random.default_rng(2), np.zeros(3), 0.0, [(np.zeros(3), 0.0)]
    for _ in range(run.epochs):
        if not ((X @ w + b) * y <= 0).any():
            break
        i = gen.choice(len(X), size=1, replace=False)[0]
        if y[i] * (X[i] @ w + b) <= 0:
            w, b = w + 0.5 * y[i] * X[i], b + 0.5 * y[i]
            path.append((w, b))
    np.testing.assert_allclose(run.history.w, [p[0] for p in path])
    np.testing.assert_allclose(run.history.b, [p[1] for p in path])


def test_batch_hand_worked_and_convergence():
    run = fit_batch([[2, 1], [-1, -2]], [1, -1])
    # both points are mistakes at 0: w = (2,1) - (-1,-2) = (3,3), b = 1 - 1 = 0; then both correct.
    assert run.w.tolist() == [3.0, 3.0] and run.b == 0.0 and run.converged and run.epochs == 1
    X, y = random_data(8, n=40)
    assert fit_batch(X, y, max_iter=5000).converged


# --- caller's data ----------------------------------------------------------------------


def test_accepts_lists_and_ints_and_never_modifies_inputs():
    X = np.array([[2, 1], [-1, -2]])
    y = np.array([1, -1])
    w0 = np.array([0.0, 0.0])
    X_copy, y_copy = X.copy(), y.copy()
    run = fit_perceptron(X, y, w0=w0)
    assert X.dtype.kind == "i" and np.array_equal(X, X_copy) and np.array_equal(y, y_copy)
    assert not w0.any()
    assert np.array_equal(fit_perceptron(X.tolist(), y.tolist()).w, run.w)
    assert is_mistake(np.array([0.0]), np.array([1.0]))[0]


@pytest.mark.parametrize("fit", [fit_perceptron, fit_batch, lambda X, y: fit_minibatch(X, y, batch_size=2, rng=0)])
def test_float_data_is_read_in_place_and_never_written_or_kept(fit):
    # The fits read a float64 C-contiguous X without copying it (speed): through a read-only view,
    # so neither the fit nor a student holding the run can change the caller's array.
    X, y = random_data(3, n=30)
    X.setflags(write=True)
    X_copy = X.copy()
    run = fit(X, y)
    assert np.array_equal(X, X_copy) and X.flags.writeable
    for a in (run.w, run.history.w, run.history.b):
        assert not np.shares_memory(a, X)
    X[:] = 0.0  # the caller's array stays theirs to change; the run does not move with it
    assert run.w.any()


# --- bad input --------------------------------------------------------------------------

GOOD_X, GOOD_Y = [[1.0, 2.0], [-1.0, -1.0]], [1, -1]


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(y=[0, 1]), ValueError, r"labels in \{-1, \+1\}; got \{0.0, 1.0\}\. Convert them with y = 2 \* y - 1"),
        (dict(y=["a", "b"]), TypeError, r"y must hold the numbers -1 and \+1.*PerceptronClassifier"),
        (dict(X=[[1.0, 2], [3, 4], [5, 6]], y=[0, 1, 2]), ValueError, r"two classes.*got 3 distinct labels"),
        (dict(X=[[np.nan, 1.0], [1.0, 1.0]]), ValueError, r"X contains NaN or inf \(first at row 0, column 0"),
        (dict(X=[[np.inf, 1.0], [1.0, 1.0]]), ValueError, r"X contains NaN or inf"),
        (dict(y=[np.nan, 1.0]), ValueError, r"y contains NaN or inf"),
        (dict(X=[1.0, 2.0]), ValueError, r"X must be 2-D.*got 1-D.*reshape\(-1, 1\)"),
        (dict(X=np.zeros((2, 2, 2))), ValueError, r"X must be 2-D.*got 3-D"),
        (dict(y=[1, -1, 1]), ValueError, r"same number of examples; got X with 2 rows and y with 3 labels"),
        (dict(X=np.empty((0, 2)), y=[]), ValueError, r"X is empty"),
        (dict(X=[["a", "b"], ["c", "d"]]), TypeError, r"X must hold numbers; got an array of dtype <U1"),
        (dict(X=[[1.0, 2.0], [3.0]]), ValueError, r"rectangular table.*same length"),
        (dict(eta=0), ValueError, r"eta must be a finite number > 0; got 0"),
        (dict(eta=-1.0), ValueError, r"eta must be a finite number > 0; got -1.0"),
        (dict(eta=float("nan")), ValueError, r"eta must be a finite number > 0; got nan"),
        (dict(eta="1"), TypeError, r"eta must be a positive number"),
        (dict(max_epochs=0), ValueError, r"max_epochs must be a whole number >= 1; got 0"),
        (dict(max_epochs=2.5), TypeError, r"max_epochs must be a whole number >= 1; got 2.5"),
        (dict(order="shuffle"), ValueError, r"order must be one of 'cyclic', 'random'; got 'shuffle'"),
        (dict(update_on="zero"), ValueError, r"update_on must be one of 'nonpositive', 'negative', 'sign'"),
        (dict(w0=[1.0, 2.0, 3.0]), ValueError, r"w0 must have one entry per feature, shape \(2,\); got shape \(3,\)"),
        (dict(b0=float("inf")), ValueError, r"b0 must be finite"),
        (dict(rng="seed", order="random"), TypeError, r"rng must be None, an int seed or a numpy.random.Generator"),
        (dict(y=[[1], [-1]]), ValueError, r"y must be 1-D.*ravel"),
    ],
)
def test_bad_input_messages(kwargs, exc, match):
    args = dict(X=GOOD_X, y=GOOD_Y) | kwargs
    X, y = args.pop("X"), args.pop("y")
    with pytest.raises(exc, match=match):
        fit_perceptron(X, y, **args)


@pytest.mark.parametrize(
    "fit, kwargs, match",
    [
        (fit_minibatch, dict(batch_size=3), r"batch_size must be at most the number of examples \(2\); got 3"),
        (fit_minibatch, dict(batch_size=0), r"batch_size must be a whole number >= 1"),
        (fit_minibatch, dict(batch_size=1, eta=0.0), r"eta must be a finite number > 0"),
        (fit_batch, dict(reduction="avg"), r"reduction must be one of 'sum', 'mean'; got 'avg'"),
        (fit_batch, dict(max_iter=-1), r"max_iter must be a whole number >= 1"),
    ],
)
def test_bad_input_batch_methods(fit, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        fit(GOOD_X, GOOD_Y, **kwargs)
