"""One update rule: every producer of a run is `perceptron.step` applied along its history.

The fast online loop, the reference loop, the adversary and the dual (kernel) loop are replayed
with `step` and must give their stored states exactly; a batched step is the sum of `step`'s
updates over the batch's mistakes, all taken from the same state. One mistake test: the batches'
mistakes, the dual's, the 0-1 loss and the analyses' counts are the examples `step` updates on.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_batch, fit_kernel_perceptron, fit_minibatch, fit_perceptron
from perceptron_lib.core import kernels
from perceptron_lib.core.analysis import errors_after_updates
from perceptron_lib.core.losses import zero_one_loss
from perceptron_lib.core.perceptron import (
    UPDATE_RULES,
    batch_step,
    is_mistake,
    is_zero,
    mistake_ceiling,
    mistake_ceiling_float32,
    scores,
    step,
)
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


# --- one mistake test: the fast loop, the batches, the dual and the 0-1 loss ask the same question ------------


def boundary_data(seed, n=24, d=3):
    """Integer points, a quarter of them exactly on the line <(1, 2, ...), x> + 1 = 0 (scores 0 in exact
    arithmetic, a few ulps of either sign in floats once eta = 0.1 enters the states)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float)
    u = np.arange(1.0, d + 1)
    on = rng.random(n) < 0.25
    X[on, 0] = -1.0 - X[on, 1:] @ u[1:]  # <u, x> + 1 = 0
    y = np.where(X @ u + 1 > 0, 1.0, -1.0)
    y[rng.random(n) < 0.15] *= -1
    return X, y


RULES_AND_MARGINS = [("nonpositive", 0.0), ("negative", 0.0), ("sign", 0.0), ("nonpositive", 1.0),
                     ("negative", 1.0)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000), rule=st.sampled_from(RULES_AND_MARGINS), eta=st.sampled_from([1.0, 0.1, 0.3]),
       fit_bias=st.booleans(), d=st.integers(1, 4), start=st.booleans())
def test_fast_loop_is_step_by_step_on_the_boundary(seed, rule, eta, fit_bias, d, start):
    """The fast loop equals `step` applied to each example in turn (the reference), to the bit, on integer
    data with points exactly on a line and eta = 0.1, for every rule and threshold, from 0 or from a start."""
    update_on, margin = rule
    X, y = boundary_data(seed, d=d)
    w0, b0 = (np.full(d, 0.5), -0.5) if start else (None, 0.0)
    kw = dict(eta=eta, update_on=update_on, fit_bias=fit_bias, margin=margin, w0=w0, b0=b0, max_epochs=12)
    run = fit_perceptron(X, y, **kw)
    w, b, updates = reference_perceptron(X, y, **kw)
    assert updates[: run.mistakes] == run.history.i.tolist()
    if run.cycle is None:
        assert updates == run.history.i.tolist()
        np.testing.assert_array_equal(w, run.w)
        assert b == run.b
    h = run.history
    for k in range(1, len(h)):  # and each stored state is step's, from the one before
        i = int(h.i[k - 1])
        w1, b1, updated = step(h.w[k - 1], h.b[k - 1], X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias,
                               margin=margin)
        assert updated
        np.testing.assert_array_equal(w1, h.w[k])
        assert b1 == h.b[k]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), rule=st.sampled_from(RULES_AND_MARGINS), d=st.integers(1, 6),
       scale=st.sampled_from([1e-40, 1e-20, 1.0, 1e15, 1e31, 1e150]), order=st.sampled_from(["cyclic", "random"]))
def test_fast_loop_is_step_by_step_at_any_scale(seed, rule, d, scale, order):
    """The same at scales where the float32 pre-filter rounds to subnormals (1e-40), and where it would
    overflow, for the data (1e31 and 1e150: R is above 2**100) or for the state only (1e15: R is below,
    |w| R is not after the first update), so the loop computes in float64 from there on."""
    update_on, margin = rule
    X, y = boundary_data(seed, d=d)
    X = X * scale
    kw = dict(eta=0.1, update_on=update_on, margin=margin * scale**2, max_epochs=8)
    run = fit_perceptron(X, y, order=order, rng=seed, **kw)
    if order == "cyclic":
        w, b, updates = reference_perceptron(X, y, **kw)
        assert updates[: run.mistakes] == run.history.i.tolist()
    h = run.history
    for k in range(1, len(h)):
        i = int(h.i[k - 1])
        w1, b1, updated = step(h.w[k - 1], h.b[k - 1], X[i], y[i], eta=0.1, update_on=update_on, margin=kw["margin"])
        assert updated
        np.testing.assert_array_equal(w1, h.w[k])
        assert b1 == h.b[k]
    if order == "random":  # no example skipped: after the last update of a converged run, none fails
        assert not run.converged or not any(
            step(run.w, run.b, X[i], y[i], eta=0.1, update_on=update_on, margin=kw["margin"])[2] for i in range(len(y)))


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 100_000), rule=st.sampled_from(RULES_AND_MARGINS), d=st.integers(1, 40),
       scale=st.sampled_from([1e-6, 1.0, 1e6]))
def test_the_ceiling_never_hides_a_mistake(seed, rule, d, scale):
    """Every example `step` updates on has a chunk margin (a matrix-vector product, summed in another order
    than step's dot product) at or below `mistake_ceiling`; points on the line or on the margin included."""
    update_on, margin = rule
    rng = np.random.default_rng(seed)
    X = scale * rng.normal(size=(50, d))
    w, b = rng.normal(size=d) / scale * 0.1, float(rng.normal())
    m_line = X @ w + b
    X[:10] -= np.outer(m_line[:10] / (w @ w), w)  # ten points on the line, up to rounding
    X[10:20] -= np.outer((m_line[10:20] - margin) / (w @ w), w)  # ten at the margin, for y = +1
    y = np.where(rng.random(50) < 0.8, 1.0, -1.0)
    chunk_margins = (X @ w + b) * y
    R = np.sqrt(np.einsum("ij,ij->i", X, X).max())
    ceiling = mistake_ceiling(margin, np.linalg.norm(w) * R + abs(b), d + 1)
    for i in range(50):
        if step(w, b, X[i], y[i], update_on=update_on, margin=margin)[2]:
            assert chunk_margins[i] <= ceiling


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 100_000), rule=st.sampled_from(RULES_AND_MARGINS), d=st.integers(1, 40),
       scale=st.sampled_from([1e-30, 1e-6, 1.0, 1e6, 1e25]), w_scale=st.sampled_from([1e-45, 1e-20, 1.0, 1e20]))
def test_the_float32_ceiling_never_hides_a_mistake(seed, rule, d, scale, w_scale):
    """The same for margins computed in float32 (X, w and b rounded to float32, as the fast loop's chunks
    do), at scales where float32 rounds coarsely or underflows to subnormals; None only where it could
    overflow."""
    update_on, margin = rule
    rng = np.random.default_rng(seed)
    X = scale * rng.normal(size=(50, d))
    w, b = w_scale * rng.normal(size=d), float(w_scale * scale * rng.normal())
    m_line = X @ w + b
    X[:10] -= np.outer(m_line[:10] / (w @ w), w)  # ten points on the line, up to rounding
    X[10:20] -= np.outer((m_line[10:20] - margin) / (w @ w), w)  # ten at the margin, for y = +1
    y = np.where(rng.random(50) < 0.8, 1.0, -1.0)
    R = float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))
    ceiling = mistake_ceiling_float32(margin, float(np.linalg.norm(w)), R, b, d + 1)
    if ceiling is None:
        assert max(np.linalg.norm(w) * R + abs(b), R) > 2.0**100
        return
    with np.errstate(under="ignore"):
        m32 = (X.astype(np.float32) @ w.astype(np.float32) + np.float32(b)) * y.astype(np.float32)
    for i in range(50):
        if step(w, b, X[i], y[i], update_on=update_on, margin=margin)[2]:
            assert m32[i] <= ceiling, (i, m32[i], ceiling)


def test_the_float32_ceiling_is_close():
    # Above the threshold by more than float32's rounding is never a candidate.
    assert mistake_ceiling_float32(0.0, 1.0, 1.0, 0.0, 3) < 1e-5
    assert mistake_ceiling_float32(0.0, 2.0**101, 1.0, 0.0, 3) is None


def test_the_ceiling_is_a_tight_bound():
    # Above the threshold by more than rounding is never a candidate; at it, always.
    assert mistake_ceiling(0.0, 1.0, 3) < 1e-11
    assert mistake_ceiling(1.0, 1.0, 3) - 1.0 < 1e-11


@pytest.mark.parametrize("update_on", UPDATE_RULES)
@pytest.mark.parametrize("seed", range(6))
def test_zero_one_loss_counts_the_runs_mistakes(update_on, seed):
    """At every state of a run (eta = 0.1 on integer data with points on a line: rounding around 0 everywhere)
    the 0-1 loss with the run's rule counts exactly the examples `step` would update on."""
    X, y = boundary_data(seed)
    run = fit_perceptron(X, y, eta=0.1, update_on=update_on, w0=[0.3, -0.2, 0.1], b0=0.1, max_epochs=8)
    for k in range(len(run.history)):
        s = run.history[k]
        count = sum(step(s.w, s.b, X[i], y[i], eta=0.1, update_on=update_on)[2] for i in range(len(y)))
        assert zero_one_loss(s.w, s.b, X, y, reduction="sum", update_on=update_on) == count
        assert errors_after_updates(run, X, y)[k] == count
    if update_on == "nonpositive":  # the default is the course's 0-1 loss, 1[m <= 0]
        assert zero_one_loss(run.w, run.b, X, y) == zero_one_loss(run.w, run.b, X, y, update_on="nonpositive")


@pytest.mark.parametrize("update_on", UPDATE_RULES)
@pytest.mark.parametrize("fit", ["batch", "minibatch"])
def test_batch_mistakes_are_exactly_steps_mistakes(update_on, fit):
    """Each batched update adds the terms of exactly the examples of its batch that `step` would update on."""
    X, y = boundary_data(4)
    w0, b0 = [0.3, -0.2, 0.1], 0.1
    if fit == "batch":
        run = fit_batch(X, y, eta=0.1, update_on=update_on, w0=w0, b0=b0, max_iter=40)
    else:
        run = fit_minibatch(X, y, batch_size=9, eta=0.1, update_on=update_on, w0=w0, b0=b0, max_iter=40, rng=2)
    assert run.mistakes > 3
    h = run.history
    for k in range(1, len(h)):
        w, b, M = h.w[k - 1], h.b[k - 1], set(h.batches[k - 1].tolist())
        wrong = {i for i in range(len(y)) if step(w, b, X[i], y[i], eta=0.1, update_on=update_on)[2]}
        assert M <= wrong
        if fit == "batch":
            assert M == wrong


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), eta=st.sampled_from([1.0, 0.1, 0.3]), fit_bias=st.booleans())
@example(seed=113, eta=0.1, fit_bias=False)  # w back at 0 after 82 updates: a residue of 1e-16 once decided
def test_dual_with_the_linear_kernel_is_the_primal(seed, eta, fit_bias):
    X, y = boundary_data(seed)
    dual = fit_kernel_perceptron(X, y, kernel="linear", eta=eta, fit_bias=fit_bias, max_epochs=10)
    primal = fit_perceptron(X, y, eta=eta, fit_bias=fit_bias, max_epochs=10)
    k = min(dual.mistakes, primal.mistakes)  # the primal stops at a repeated state, the dual runs on
    assert k > 0 and dual.updates.tolist()[:k] == primal.history.i.tolist()[:k]
    if primal.converged or dual.converged:
        assert dual.updates.tolist() == primal.history.i.tolist() and dual.converged == primal.converged


def test_batch_step_is_the_sum_of_steps():
    X, y = boundary_data(7)
    w, b = np.array([0.3, -0.2, 0.1]), 0.1
    for update_on in UPDATE_RULES:
        w1, b1, M = batch_step(w, b, X, y, eta=0.1, update_on=update_on)
        steps = [step(w, b, X[i], y[i], eta=0.1, update_on=update_on) for i in range(len(y))]
        assert M.tolist() == [i for i, s in enumerate(steps) if s[2]]
        np.testing.assert_allclose(w1, w + sum(s[0] - w for s in steps), rtol=1e-12, atol=1e-12)
        assert b1 == pytest.approx(b + sum(s[1] - b for s in steps), abs=1e-12)
    w1, b1, M = batch_step(w, b, X, y, eta=0.1, fit_bias=False)
    assert b1 == b and M.size


def test_is_mistake_reads_zero_one_way_for_numbers_and_arrays():
    raw = np.array([3e-17, -3e-17, 0.0, 1e-9, -1e-9])
    size = np.ones(5)
    for rule in UPDATE_RULES:
        for label in (1.0, -1.0):
            ys = np.full(5, label)
            arr = is_mistake(raw, ys, rule, size=size).tolist()
            assert arr == [is_mistake(float(s), label, rule, size=1.0) for s in raw]
            assert arr[:3] == [is_mistake(0.0, label, rule)] * 3  # rounding around 0 is 0
    assert is_zero(np.array([1e-12, 1.1e-12]), 1.0).tolist() == [True, False]
    with pytest.raises(ValueError, match="update_on must be one of 'nonpositive', 'negative', 'sign'; got 'nope'"):
        is_mistake(np.zeros(2), np.ones(2), "nope")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), eta=st.sampled_from([0.1, 0.3, 0.7]), fit=st.sampled_from(["online", "batch"]))
@example(seed=113, eta=0.1, fit="online")
def test_a_coordinate_that_is_0_in_exact_arithmetic_is_0(seed, eta, fit):
    """Every state's coordinates, recomputed in exact rationals from the updates the run made: where
    the exact value is 0 the float state holds 0.0, not a rounding residue (which no score's size could
    tell from a real score); elsewhere it is within rounding of the exact value."""
    X, y = boundary_data(seed)
    if fit == "online":
        run = fit_perceptron(X, y, eta=eta, max_epochs=10)
    else:
        run = fit_batch(X, y, eta=eta, max_iter=30)
    h, step_ = run.history, Fraction(eta)
    w, b = [Fraction(0)] * X.shape[1], Fraction(0)
    for k in range(1, len(h)):
        for i in h.batches[k - 1].tolist():
            w = [wc + step_ * int(y[i]) * int(xc) for wc, xc in zip(w, X[i], strict=True)]
            b += step_ * int(y[i])
        for exact, got in zip([*w, b], [*h.w[k].tolist(), float(h.b[k])], strict=True):
            assert got == 0.0 if exact == 0 else abs(got - float(exact)) <= 1e-9 * (1 + abs(float(exact)))
