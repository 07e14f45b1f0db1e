"""One update rule: every producer of a run is `perceptron.step` applied along its history.

The fast online loop, the reference loop, the adversary and the dual (kernel) loop are replayed
with `step` and must give their stored states exactly; a batched step is the sum of `step`'s
updates over the batch's mistakes, all taken from the same state.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_batch, fit_kernel_perceptron, fit_minibatch, fit_perceptron
from perceptron_lib.core import kernels
from perceptron_lib.core.perceptron import UPDATE_RULES, is_mistake, scores, step
from perceptron_lib.core.proof import adversarial_run
from perceptron_lib.core.training import reference_perceptron


def data(seed, n=30, d=2, margin=0.2):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float)  # integers: ties (score 0) happen
    y = np.where(X @ np.arange(1, d + 1) + 0.5 > 0, 1.0, -1.0)
    return X, y


def replay_online(run, X, y):
    """Replay each update of an online run with `step`: a mistake by the run's test, and the same state."""
    h = run.history
    for k in range(1, len(h)):
        i = int(h.i[k - 1])
        w, b, updated = step(h.w[k - 1], h.b[k - 1], X[i], y[i], eta=run.eta, update_on=run.update_on,
                             fit_bias=run.fit_bias)
        assert updated, f"update {k} on example {i} was not a mistake by the test {run.update_on}"
        np.testing.assert_array_equal(w, h.w[k])
        assert b == h.b[k]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), rule=st.sampled_from(UPDATE_RULES), eta=st.sampled_from([1.0, 0.5, 0.1]),
       fit_bias=st.booleans())
def test_fast_loop_is_the_step_function(seed, rule, eta, fit_bias):
    X, y = data(seed)
    run = fit_perceptron(X, y, update_on=rule, eta=eta, fit_bias=fit_bias, max_epochs=30)
    replay_online(run, X, y)
    w, b, updates = reference_perceptron(X, y, update_on=rule, eta=eta, fit_bias=fit_bias, max_epochs=30)
    if run.cycle is not None:  # the fast loop stops at a repeated state; the reference runs on
        assert updates[: run.mistakes] == run.history.i.tolist()
        return
    assert updates == run.history.i.tolist()
    np.testing.assert_array_equal(w, run.w)
    assert b == run.b


def test_step_is_pure_and_follows_each_test():
    w, x = np.array([1.0, -1.0]), np.array([1.0, 1.0])
    w_before = w.copy()
    for rule, want in (("nonpositive", True), ("negative", False), ("sign", True)):
        w2, b2, updated = step(w, 0.0, x, 1.0, eta=0.5, update_on=rule)  # score exactly 0
        assert updated is want
        np.testing.assert_array_equal(w2, w + 0.5 * x if want else w)
        assert b2 == (0.5 if want else 0.0)
    np.testing.assert_array_equal(w, w_before)
    assert step(w, 0.0, x, -1.0, update_on="sign")[2] is False  # sgn(0) = -1 is right for y = -1


@pytest.mark.parametrize("seed", range(5))
def test_adversary_is_the_step_function(seed):
    X, y = data(seed)
    X = X[np.abs(X @ [1.0, 2.0]) > 0]  # through the origin, with margin
    y = np.where(X @ [1.0, 2.0] > 0, 1.0, -1.0)
    run = adversarial_run(X, y, u=[1.0, 2.0])
    assert not run.fit_bias
    replay_online(run, X, y)


@pytest.mark.parametrize("fit", ["batch", "minibatch"])
def test_batched_step_is_the_sum_of_steps_from_one_state(fit):
    X, y = data(3)
    if fit == "batch":
        run = fit_batch(X, y, eta=0.5, reduction="mean")
    else:
        run = fit_minibatch(X, y, batch_size=7, eta=0.5, rng=1)
    h = run.history
    scale = 1.0 / len(X) if fit == "batch" else 1.0 / 7  # reduction "mean": eta / batch size
    for k in range(1, len(h)):
        w0, b0 = h.w[k - 1], h.b[k - 1]
        M = h.batches[k - 1]
        assert is_mistake(scores(w0, b0, X[M]), y[M], run.update_on).all()
        dw, db = np.zeros_like(w0), 0.0
        for i in M:
            w1, b1, updated = step(w0, b0, X[i], y[i], eta=run.eta * scale, update_on=run.update_on)
            assert updated
            dw, db = dw + (w1 - w0), db + (b1 - b0)
        np.testing.assert_allclose(h.w[k], w0 + dw, rtol=1e-12, atol=1e-12)
        assert h.b[k] == pytest.approx(b0 + db, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_dual_loop_is_the_step_function_on_the_lift(seed):
    """The dual perceptron with the lift kernel makes exactly `step`'s updates in the lifted space."""
    X, y = data(seed, n=25)
    y = np.where((X ** 2).sum(1) < 6, 1.0, -1.0)
    dual = fit_kernel_perceptron(X, y, kernel="lift", max_epochs=50)
    Z = kernels.lift(X)
    w, b = np.zeros(Z.shape[1]), 0.0
    updates = []
    for _ in range(dual.epochs):
        for i in range(len(Z)):
            w, b, updated = step(w, b, Z[i], y[i], eta=dual.eta)
            if updated:
                updates.append(i)
    assert updates == dual.updates.tolist()
    assert b == dual.b


@pytest.mark.parametrize("seed", range(40))
def test_a_score_of_exactly_zero_is_zero_whatever_the_rounding(seed):
    """eta scales every state, so on integer data the updates cannot depend on eta; with eta = 0.1
    (not a binary fraction) a point on the line gets a score of a few ulps, of either sign, unless
    rounding around 0 is taken as 0. The fast loop, the reference and the dual loop must agree."""
    X, y = data(seed)
    for fit_bias in (True, False):
        one = fit_perceptron(X, y, eta=1.0, fit_bias=fit_bias, max_epochs=30)
        tenth = fit_perceptron(X, y, eta=0.1, fit_bias=fit_bias, max_epochs=30)
        # A cycle is found when a state repeats bit for bit: with eta = 1 on integers it does, with
        # eta = 0.1 the float sums drift by ulps and the run goes on, so compare what both made.
        if one.cycle is None:
            assert tenth.history.i.tolist() == one.history.i.tolist()
        else:
            assert tenth.history.i.tolist()[: one.mistakes] == one.history.i.tolist()
        assert reference_perceptron(X, y, eta=0.1, fit_bias=fit_bias, max_epochs=30)[2][: tenth.mistakes] == \
            tenth.history.i.tolist()
    dual = fit_kernel_perceptron(X, y, kernel="linear", eta=0.1, max_epochs=30)
    assert dual.updates.tolist() == fit_perceptron(X, y, eta=1.0, max_epochs=30).history.i.tolist()[: dual.mistakes]
