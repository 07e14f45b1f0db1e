"""Lesson 06's library: the margin rule, the averaged, voted and pocket perceptrons, the hinge bound.

Each is checked against an independent fact: scikit-learn's SGDClassifier (its own Cython loop),
a plain Python loop written here, or a property that must hold on any data.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import SGDClassifier

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data
from perceptron_lib.core.averaged import fit_averaged, pocket, voted_predict
from perceptron_lib.core.bounds import hinge_mistake_bound
from perceptron_lib.core.perceptron import is_mistake, step
from perceptron_lib.core.training import reference_perceptron


def noisy(seed, n=40, d=3, flip=0.15):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X @ np.linspace(1, 2, d) + 0.3 > 0, 1.0, -1.0)
    y[rng.random(n) < flip] *= -1
    return X, y


def post_states(X, y, epochs, *, eta=1.0, margin=0.0, fit_bias=True):
    """Plain loop: the state (w, b) after each of the T examples, cyclic order, from zero."""
    w, b, out_w, out_b = np.zeros(X.shape[1]), 0.0, [], []
    for _ in range(epochs):
        for i in range(len(X)):
            if y[i] * (X[i] @ w + b) <= margin:
                w = w + eta * y[i] * X[i]
                b = b + eta * y[i] * fit_bias
            out_w.append(w)
            out_b.append(b)
    return np.array(out_w), np.array(out_b)


def sgd(loss, epochs, eta=1.0, average=False):
    return SGDClassifier(
        loss=loss, penalty=None, learning_rate="constant", eta0=eta, average=average, shuffle=False,
        tol=None, max_iter=epochs, fit_intercept=True,
    )


# ---------------------------------------------------------------- the margin rule


def test_margin_zero_is_the_perceptron():
    X, y = noisy(1)
    a, b = fit_perceptron(X, y, max_epochs=5), fit_perceptron(X, y, max_epochs=5, margin=0.0)
    np.testing.assert_array_equal(a.history.w, b.history.w)


def test_margin_test_threshold():
    m = np.array([0.5, 1.0, 1.5])
    assert is_mistake(m, np.ones(3), "nonpositive", 1.0).tolist() == [True, True, False]
    assert is_mistake(m, np.ones(3), "negative", 1.0).tolist() == [True, False, False]
    with pytest.raises(ValueError, match="no threshold"):
        is_mistake(m, np.ones(3), "sign", 1.0)
    with pytest.raises(ValueError, match=">= 0"):
        fit_perceptron([[1.0]], [1], margin=-1)
    with pytest.raises(ValueError, match="sign"):
        fit_perceptron([[1.0]], [1], margin=1, update_on="sign")


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("eta", [1.0, 0.1])
def test_margin_perceptron_is_sklearn_hinge_sgd(seed, eta):
    # SGDClassifier(loss="hinge") updates when y(<w,x>+b) <= 1 (Hinge(threshold=1).dloss is -y there),
    # w += eta0*y*x and b += eta0*y (intercept_decay is 1 on dense data), one pass in order with
    # shuffle=False, every pass with tol=None; penalty=None leaves w unscaled.
    X, y = noisy(seed)
    ours = fit_averaged(X, y, epochs=4, eta=eta, margin=1.0)
    ref = sgd("hinge", 4, eta).fit(X, y)
    np.testing.assert_allclose(ours.run.w, ref.coef_[0], rtol=0, atol=1e-9)
    assert abs(ours.run.b - ref.intercept_[0]) < 1e-9
    fast = fit_perceptron(X, y, max_epochs=4, eta=eta, margin=1.0)
    if fast.cycle is None:
        np.testing.assert_allclose(fast.w, ours.run.w, rtol=0, atol=1e-9)


def test_margin_perceptron_replays_with_step():
    X, y = noisy(3)
    run = fit_perceptron(X, y, max_epochs=6, margin=1.0, eta=0.5)
    w, b, ups = reference_perceptron(X, y, max_epochs=6, margin=1.0, eta=0.5)
    assert ups[: run.mistakes] == run.history.i.tolist()
    h = run.history
    for k in range(1, len(h)):
        i = int(h.i[k - 1])
        w, b, updated = step(h.w[k - 1], h.b[k - 1], X[i], y[i], eta=0.5, margin=1.0)
        assert updated
        np.testing.assert_array_equal(w, h.w[k])


def test_margin_perceptron_is_not_scale_invariant():
    X, y = noisy(4)
    a = fit_perceptron(X, y, max_epochs=3, margin=1.0, eta=1.0)
    b = fit_perceptron(X, y, max_epochs=3, margin=1.0, eta=0.01)
    assert a.history.i.tolist() != b.history.i.tolist()
    p, q = fit_perceptron(X, y, max_epochs=3, eta=1.0), fit_perceptron(X, y, max_epochs=3, eta=0.01)
    assert p.history.i.tolist() == q.history.i.tolist()


# ---------------------------------------------------------------- averaged and voted


@pytest.mark.parametrize("seed", range(6))
def test_averaged_is_the_mean_of_the_states_after_each_example(seed):
    X, y = noisy(seed)
    ar = fit_averaged(X, y, epochs=5)
    W, B = post_states(X, y, 5)
    np.testing.assert_allclose(ar.w, W.mean(axis=0), rtol=0, atol=1e-9)
    assert abs(ar.b - B.mean()) < 1e-9
    n = len(X)
    for e in range(5):
        np.testing.assert_allclose(ar.epoch_w[e], W[: (e + 1) * n].mean(axis=0), rtol=0, atol=1e-9)
        np.testing.assert_array_equal(ar.epoch_last_w[e], W[(e + 1) * n - 1])
    # the survival counts weight the history's states into the same mean
    c = ar.survival
    assert c.sum() == ar.seen == 5 * n and (c >= 0).all()
    np.testing.assert_allclose(c @ ar.run.history.w / ar.seen, ar.w, rtol=0, atol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_averaged_is_sklearn_average_true(seed):
    # sklearn's _plain_sgd averages after the update of sample t for 0 < average <= t, t from 1:
    # with average=True (= 1) that is the mean of the states after examples 1..T.
    X, y = noisy(seed)
    ar = fit_averaged(X, y, epochs=5)
    ref = sgd("perceptron", 5, 1.0, average=True).fit(X, y)
    np.testing.assert_allclose(ar.w, ref.coef_[0], rtol=0, atol=1e-9)
    assert abs(ar.b - ref.intercept_[0]) < 1e-9
    # not the mean of the states before each example (it differs by (w_T - w_0) / T)
    W, _ = post_states(X, y, 5)
    before = np.vstack([np.zeros((1, X.shape[1])), W[:-1]]).mean(axis=0)
    assert np.abs(before - ref.coef_[0]).max() > 1e-3
    np.testing.assert_allclose(ar.w - before, ar.run.w / ar.seen, rtol=0, atol=1e-9)


@pytest.mark.parametrize("start", [2, 7, 40])
def test_sklearn_average_k_starts_at_example_k(start):
    X, y = noisy(11)
    ref = sgd("perceptron", 3, 1.0, average=start).fit(X, y)
    W, B = post_states(X, y, 3)
    np.testing.assert_allclose(ref.coef_[0], W[start - 1 :].mean(axis=0), rtol=0, atol=1e-9)
    assert abs(ref.intercept_[0] - B[start - 1 :].mean()) < 1e-9


def plain_vote(W, B, c, x):
    total = 0
    for wk, bk, ck in zip(W, B, c, strict=True):
        total += ck * (1 if x @ wk + bk > 0 else -1)
    return 1 if total > 0 else -1


@pytest.mark.parametrize("seed", range(4))
def test_voted_prediction_is_a_plain_loop(seed):
    X, y = noisy(seed)
    ar = fit_averaged(X, y, epochs=3)
    Xt, _ = noisy(seed + 100, n=60)
    h = ar.run.history
    expect = [plain_vote(h.w, h.b, ar.survival, x) for x in Xt]
    assert ar.predict_voted(Xt).tolist() == expect


def test_voted_tie_is_minus_one():
    assert voted_predict([[1.0], [-1.0]], [0.0, 0.0], [2, 2], [[1.0]]).tolist() == [-1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), epochs=st.integers(1, 4), eta=st.sampled_from([1.0, 0.25]))
def test_averaged_run_is_the_fast_fit(seed, epochs, eta):
    X, y = noisy(seed, n=25)
    ar = fit_averaged(X, y, epochs=epochs, eta=eta)
    fast = fit_perceptron(X, y, max_epochs=epochs, eta=eta)
    k = fast.mistakes
    np.testing.assert_array_equal(ar.run.history.w[: k + 1], fast.history.w)
    assert ar.run.history.i[:k].tolist() == fast.history.i.tolist()


def test_averaged_random_order_is_seeded():
    X, y = noisy(5)
    a, b = fit_averaged(X, y, epochs=3, order="random", rng=1), fit_averaged(X, y, epochs=3, order="random", rng=1)
    np.testing.assert_array_equal(a.w, b.w)
    assert a.survival.sum() == 3 * len(X)


def test_averages_after_each_update_are_running_means():
    X, y = noisy(8)
    ar = fit_averaged(X, y, epochs=3)
    Wa, Ba = ar.averages()
    W, B = post_states(X, y, 3)
    assert len(Wa) == ar.run.mistakes + 1
    np.testing.assert_array_equal(Wa[0], np.zeros(X.shape[1]))
    for k, t in enumerate(ar.t, start=1):
        np.testing.assert_allclose(Wa[k], W[:t].mean(axis=0), rtol=0, atol=1e-9)
        assert abs(Ba[k] - B[:t].mean()) < 1e-9


# ---------------------------------------------------------------- pocket


def test_pocket_is_a_ratchet_loop():
    X, y = noisy(7)
    run = fit_perceptron(X, y, max_epochs=8)
    pk = pocket(run, X, y)
    best, best_err = 0, None
    for k, (wk, bk) in enumerate(zip(run.history.w, run.history.b, strict=True)):
        err = int(sum(yi * (xi @ wk + bk) <= 0 for xi, yi in zip(X, y, strict=True)))
        if best_err is None or err < best_err:
            best, best_err = k, err
    assert (pk.k, pk.errors, pk.evaluations) == (best, best_err, run.mistakes + 1)


@pytest.mark.parametrize("update_on", ["nonpositive", "negative", "sign"])
def test_pocket_counts_errors_with_the_runs_own_test(update_on):
    # points on a line through the origin: at w = 0 every score is exactly 0, and the three tests
    # disagree about it (all errors, none, the y = +1 points)
    X, y = np.array([[1.0, 1.0], [2.0, 2.0], [-1.0, -1.0], [3.0, 3.0]]), np.array([1.0, -1.0, -1.0, 1.0])
    run = fit_perceptron(X, y, max_epochs=3, update_on=update_on, fit_bias=False)
    pk = pocket(run, X, y)
    h = run.history
    plain = []
    for wk, bk in zip(h.w, h.b, strict=True):
        s = X @ wk + bk
        if update_on == "nonpositive":
            plain.append(int(np.sum(y * s <= 0)))
        elif update_on == "negative":
            plain.append(int(np.sum(y * s < 0)))
        else:
            plain.append(int(np.sum(np.where(s > 0, 1, -1) != y)))
    assert pk.errors_per_state.tolist() == plain
    assert pk.errors_per_state[0] == {"nonpositive": 4, "negative": 0, "sign": 2}[update_on]


# ---------------------------------------------------------------- the hinge-loss bound


@pytest.mark.parametrize("seed", range(20))
def test_hinge_bound_never_exceeded(seed):
    X, y = noisy(seed, n=30, d=2, flip=0.2)
    u = np.array([1.0, 1.5])
    for passes in (1, 3):
        mistakes = fit_averaged(X, y, epochs=passes, fit_bias=False).run.mistakes
        for gamma in (0.05, 0.2, 0.5, 1.0, 2.0):
            hb = hinge_mistake_bound(X, y, u=u, gamma=gamma, passes=passes)
            assert mistakes <= hb.bound and mistakes <= hb.bound_linear


def test_hinge_bound_is_novikoff_when_u_separates():
    X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.0, 3.0]])
    y = np.array([1.0, -1.0, 1.0])
    hb = hinge_mistake_bound(X, y, u=[1.0, 1.0], gamma=3 / np.sqrt(2))
    assert hb.D == 0 and hb.hinge_total == 0
    assert hb.bound == pytest.approx((np.sqrt(10) / (3 / np.sqrt(2))) ** 2)


def test_hinge_bound_checks():
    with pytest.raises(ValueError, match="gamma"):
        hinge_mistake_bound([[1.0]], [1], u=[1.0], gamma=0)
    with pytest.raises(ValueError, match="zero vector"):
        hinge_mistake_bound([[1.0]], [1], u=[0.0], gamma=1)


def test_pocket_refuses_data_the_run_was_not_fitted_on():
    # tester 4: pocket(run, X[:3], y[:3]) returned a pocket with 0 errors, read off a run of 6 examples
    X, y = data.small_2d()
    run = fit_perceptron(X, y)
    with pytest.raises(ValueError, match="fitted on 6 examples but X has 3 rows"):
        pocket(run, X[:3], y[:3])
