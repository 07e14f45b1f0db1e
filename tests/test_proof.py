"""The margin bound's proof along runs: both claims at every update, the offset form, the adversary."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_batch, fit_minibatch, fit_perceptron
from perceptron_lib.core import proof
from perceptron_lib.core.bounds import mistake_bound, offset_mistake_bound
from perceptron_lib.core.data import separable, small_2d
from perceptron_lib.core.margins import max_margin_separator, radius
from perceptron_lib.core.perceptron import is_mistake, scores
from perceptron_lib.core.proof import ProofTrace, adversarial_run, augment, trace
from perceptron_lib.core.runs import Run

SQRT2 = np.sqrt(2.0)


# --- hand-worked -------------------------------------------------------------------------------


def test_two_orthogonal_points_make_the_bound_tight():
    # x1 = (1, 0) labelled +1, x2 = (0, 1) labelled -1; u = (1, -1)/sqrt2, gamma = 1/sqrt2, R = 1: bound 2.
    # Cyclic run: w0 = 0, mistake on x1 -> (1, 0); <w, x2> = 0 is a mistake -> (1, -1). Then none.
    X, y = [[1.0, 0.0], [0.0, 1.0]], [1, -1]
    run = fit_perceptron(X, y, fit_bias=False)
    tr = trace(run, X, y, u=[1, -1])
    assert run.mistakes == 2 and tr.t.tolist() == [0, 1, 2]
    np.testing.assert_allclose(tr.u, [1 / SQRT2, -1 / SQRT2])
    assert tr.gamma == pytest.approx(1 / SQRT2) and tr.R == 1.0 and tr.bound == pytest.approx(2.0)
    np.testing.assert_allclose(tr.inner, [0, 1 / SQRT2, SQRT2])  # Claim 1 with equality
    np.testing.assert_allclose(tr.floor, [0, 1 / SQRT2, SQRT2])
    np.testing.assert_allclose(tr.sqnorm, [0, 1, 2])  # Claim 2 with equality: both cross terms are 0
    np.testing.assert_allclose(tr.ceiling, [0, 1, 2])
    np.testing.assert_allclose(tr.cross, [0, 0])
    assert tr.claim1.all() and tr.claim2.all() and tr.cauchy_schwarz.all() and tr.holds
    assert tr.mistakes == 2 and tr.form == "homogeneous"


def test_small_2d_by_hand_with_eta():
    # small_2d: u = (1, 1)/sqrt2 has margins (3, 3, 4, 2, 5, 2)/sqrt2, so gamma = sqrt2; R^2 = |(3, 2)|^2 = 13.
    # Cyclic, eta = 0.5: one mistake on x0 = (2, 1) (score 0), w = (1, 0.5); then every margin is positive.
    X, y = small_2d()
    run = fit_perceptron(X, y, fit_bias=False, eta=0.5)
    tr = trace(run, X, y, u=[1, 1])
    assert run.history.i.tolist() == [0]
    assert tr.gamma == pytest.approx(SQRT2) and tr.R == pytest.approx(np.sqrt(13)) and tr.bound == pytest.approx(6.5)
    np.testing.assert_allclose(tr.inner, [0, 1.5 / SQRT2])  # <(1,1)/sqrt2, (1, 0.5)>
    np.testing.assert_allclose(tr.floor, [0, 0.5 * SQRT2])
    np.testing.assert_allclose(tr.sqnorm, [0, 1.25])
    np.testing.assert_allclose(tr.ceiling, [0, 0.25 * 13])
    np.testing.assert_allclose(tr.gains, [1.5 / SQRT2]) and np.testing.assert_allclose(tr.growths, [1.25])
    assert tr.holds


def test_offset_by_hand():
    # Points 0 and 2 on a line, labels -1, +1; separator w* = (1, 0), b* = -1 with margin 1, R = 2.
    # Offset bound (1 + 1)(1 + 4)/1 = 10. In the augmented space u~ = (-1, 1, 0)/sqrt2, gamma~ = 1/sqrt2,
    # R~ = sqrt5, so (R~/gamma~)^2 = 10 as well.
    X, y = [[0.0, 0.0], [2.0, 0.0]], [-1, 1]
    run = fit_perceptron(X, y)
    tr = trace(run, X, y, u=[1, 0], b=-1)
    assert tr.form == "offset" and tr.bound == pytest.approx(10.0)
    assert tr.bound == pytest.approx(offset_mistake_bound(X, y, w=[1, 0], b=-1).bound)
    np.testing.assert_allclose(tr.u, np.array([-1, 1, 0]) / SQRT2)
    assert tr.gamma == pytest.approx(1 / SQRT2) and tr.R == pytest.approx(np.sqrt(5))
    # the run: (0,0) has score 0 -> mistake, (w, b) = ((0, 0), -1); (2,0): score -1 -> mistake, ((2, 0), 0);
    # (0,0) has score 0 again -> mistake, ((2, 0), -1); now both are right.
    assert run.history.i.tolist() == [0, 1, 0] and tr.holds
    np.testing.assert_allclose(tr.sqnorm, [0, 1, 4, 5])  # |(b, w)|^2
    np.testing.assert_allclose(tr.inner, np.array([0, 1, 2, 3]) / SQRT2)  # each gain exactly gamma~: tight
    np.testing.assert_allclose(tr.cross, [0, -2, 0])


def test_augment():
    np.testing.assert_array_equal(augment([[2, 3], [4, 5]]), [[1, 2, 3], [1, 4, 5]])


def test_orthonormal_points_reach_the_bound_in_any_order():
    # e_1..e_n all labelled +1: u = (1,...,1)/sqrt(n), gamma = 1/sqrt(n), R = 1, bound n; every order makes n mistakes.
    n = 6
    X, y = np.eye(n), np.ones(n)
    mb = mistake_bound(X, y)
    assert mb.bound == pytest.approx(n, rel=1e-9)
    for run in (fit_perceptron(X, y, fit_bias=False), fit_perceptron(X, y, fit_bias=False, order="random", rng=3),
                adversarial_run(X, y)):
        assert run.mistakes == n
        tr = trace(run, X, y, u=np.ones(n))
        assert tr.holds and tr.inner[-1] == pytest.approx(tr.norm[-1])  # w ends parallel to u: Cauchy-Schwarz tight
        np.testing.assert_allclose(tr.cross, 0)


# --- the theorem on random data ----------------------------------------------------------------------------


@st.composite
def separable_data(draw, bias=False):
    n = draw(st.integers(2, 40))
    d = draw(st.integers(1, 6))
    margin = draw(st.floats(0.03, 0.6))
    seed = draw(st.integers(0, 10_000))
    return separable(n, d=d, margin=margin, bias=bias, seed=seed, return_separator=True)


@settings(max_examples=60, deadline=None)
@given(separable_data(), st.sampled_from([0.01, 0.5, 1.0, 7.0]), st.sampled_from(["cyclic", "random"]),
       st.sampled_from(["nonpositive", "sign"]), st.integers(0, 100))
def test_both_claims_at_every_update(sample, eta, order, update_on, seed):
    X, y, u, _ = sample
    run = fit_perceptron(X, y, fit_bias=False, eta=eta, order=order, rng=seed, update_on=update_on)
    assert run.converged
    tr = trace(run, X, y, u=u)
    assert tr.holds
    assert run.mistakes <= mistake_bound(X, y, u=u).bound
    K = run.mistakes
    i = run.history.i
    # each gain is exactly eta * y_i <u, x_i> >= eta * gamma, each growth is cross + eta^2 |x_i|^2 <= eta^2 R^2
    np.testing.assert_allclose(tr.gains, eta * y[i] * (X[i] @ tr.u), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tr.growths, tr.cross + eta**2 * np.einsum("ij,ij->i", X[i], X[i]), rtol=1e-9,
                               atol=1e-9 * eta**2)
    assert np.all(tr.gains >= eta * tr.gamma * (1 - 1e-9))
    assert np.all(tr.growths <= eta**2 * tr.R**2 * (1 + 1e-9))
    assert tr.gamma == pytest.approx(np.min(y * (X @ u)), rel=1e-12) and tr.R == radius(X)
    assert len(tr.t) == K + 1 and len(tr.cross) == K


@settings(max_examples=15, deadline=None)
@given(separable_data(), st.integers(0, 100))
def test_default_u_is_the_maximum_margin_separator(sample, seed):
    X, y, _, _ = sample
    run = fit_perceptron(X, y, fit_bias=False, order="random", rng=seed)
    tr = trace(run, X, y)
    sep = max_margin_separator(X, y, fit_bias=False)
    np.testing.assert_allclose(tr.u, sep.w)
    assert tr.bound == pytest.approx(mistake_bound(X, y).bound) and tr.holds


@settings(max_examples=40, deadline=None)
@given(separable_data(bias=True), st.sampled_from([0.2, 1.0, 3.0]), st.sampled_from(["cyclic", "random"]),
       st.integers(0, 100))
def test_offset_run_is_a_homogeneous_run_on_augmented_points(sample, eta, order, seed):
    X, y, w_star, b_star = sample
    run = fit_perceptron(X, y, eta=eta, order=order, rng=seed)
    tr = trace(run, X, y, u=w_star, b=b_star)
    ob = offset_mistake_bound(X, y, w=w_star, b=b_star)
    assert tr.holds and tr.form == "offset"
    assert tr.bound == pytest.approx(ob.bound, rel=1e-9) and run.mistakes <= ob.bound
    assert tr.R == pytest.approx(np.sqrt(1 + ob.R**2)) and tr.gamma == pytest.approx(ob.gamma / np.hypot(ob.b, 1))
    run_a = fit_perceptron(augment(X), y, fit_bias=False, eta=eta, order=order, rng=seed)
    assert np.array_equal(run_a.history.i, run.history.i)
    np.testing.assert_allclose(run_a.history.w, np.column_stack([run.history.b, run.history.w]), atol=1e-12)


# --- the adversary ----------------------------------------------------------------------------------------


def check_adversary_rule(run, X, y, u):
    """Replay the run: each update is on the current mistake with the smallest y<u, x>, ties (gains
    within TIE_TOL * R of the smallest) by index."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    u = np.asarray(u, float) / np.linalg.norm(u)
    gain = y * (X @ u)
    tie = proof.TIE_TOL * np.linalg.norm(X, axis=1).max()
    h = run.history
    for k in range(1, len(h)):
        w_prev, i = h.w[k - 1], int(h.i[k - 1])
        wrong = np.flatnonzero(is_mistake(scores(w_prev, 0.0, X), y, run.update_on))
        assert i in wrong
        best = gain[wrong].min()
        assert gain[i] <= best + tie and i == wrong[gain[wrong] <= best + tie][0]
        np.testing.assert_allclose(h.w[k], w_prev + run.eta * y[i] * X[i])
        assert h.margin_before[k - 1] == pytest.approx(y[i] * (X[i] @ w_prev))
        assert h.margin_after[k - 1] == pytest.approx(y[i] * (X[i] @ h.w[k]))
        assert h.epoch[k - 1] == k and h.batches[k - 1].tolist() == [i]
    if run.converged:
        assert not is_mistake(scores(run.w, 0.0, X), y, run.update_on).any()


@settings(max_examples=40, deadline=None)
@given(separable_data(), st.sampled_from([0.5, 1.0, 2.0]), st.sampled_from(["nonpositive", "sign"]))
def test_adversary_follows_its_rule_and_the_bound(sample, eta, update_on):
    X, y, u, _ = sample
    run = adversarial_run(X, y, u, eta=eta, update_on=update_on)
    assert isinstance(run, Run) and run.method == "online" and run.order == "adversarial" and not run.fit_bias
    assert run.converged and run.epochs == run.mistakes + 1 and run.b == 0.0
    assert run.mistakes <= mistake_bound(X, y, u=u).bound
    check_adversary_rule(run, X, y, u)
    tr = trace(run, X, y, u=u)
    assert tr.holds
    # Claim 1 as tight as the data allow: each gain is the smallest y<u,x> over the mistakes of that step
    np.testing.assert_allclose(tr.gains, eta * y[run.history.i] * (X[run.history.i] @ tr.u))
    np.testing.assert_array_equal(run.update_counts().sum(), run.mistakes)


def test_adversary_by_hand_and_ties():
    X, y = [[1.0, 0.0], [0.0, 1.0], [3.0, 1.0]], [1, -1, 1]
    run = adversarial_run(X, y, u=[1, -1])
    # gains (1, 1, 2)/sqrt2: points 0 and 1 tie; 0 first, then 1 (its score is 0), then no mistake is left
    assert run.history.i.tolist() == [0, 1] and run.w.tolist() == [1.0, -1.0] and run.converged
    check_adversary_rule(run, X, y, [1, -1])
    run = adversarial_run(np.eye(4), np.ones(4))
    assert run.history.i.tolist() == [0, 1, 2, 3]  # all tie: by index


def test_adversary_safety_limit_and_eta():
    run = adversarial_run(np.eye(3), np.ones(3), max_updates=1)
    assert run.mistakes == 1 and not run.converged and run.epochs == 1
    a, b = adversarial_run(*small_2d(), u=[1, 1]), adversarial_run(*small_2d(), u=[1, 1], eta=0.25)
    assert a.history.i.tolist() == b.history.i.tolist()  # from w = 0, eta only scales every w_t
    np.testing.assert_allclose(b.history.w, 0.25 * a.history.w)


def test_adversary_replays_in_the_player():
    from perceptron_lib.player import BrowserPlayer

    X, y = small_2d()
    run = adversarial_run(X, y)
    player = BrowserPlayer(run, X, y)
    assert player.run["K"] == run.mistakes and "End: converged" in " ".join(player.run["lines"][run.mistakes])


# --- errors -----------------------------------------------------------------------------------------


def test_trace_refuses_what_the_theorem_does_not_cover():
    X, y = small_2d()
    with pytest.raises(ValueError, match="online run"):
        trace(fit_batch(X, y, fit_bias=False), X, y)
    with pytest.raises(ValueError, match="online run"):
        trace(fit_minibatch(X, y, batch_size=2, rng=0, fit_bias=False), X, y)
    with pytest.raises(ValueError, match="starts from w = 0"):
        trace(fit_perceptron(X, y, fit_bias=False, w0=[1, 0]), X, y)
    run = fit_perceptron(X, y, fit_bias=False)
    with pytest.raises(ValueError, match="does not separate"):
        trace(run, X, y, u=[-1, -1])
    with pytest.raises(ValueError, match="zero vector"):
        trace(run, X, y, u=[0, 0])
    with pytest.raises(ValueError, match="shape"):
        trace(run, X, y, u=[1, 1, 1])
    with pytest.raises(ValueError, match="through the origin"):
        trace(run, X, y, u=[1, 1], b=0.5)
    with pytest.raises(ValueError, match="does not fit X"):
        trace(run, np.hstack([X, X]), y)
    with pytest.raises(TypeError, match="Run"):
        trace("not a run", X, y)
    with_offset = fit_perceptron(X, y)
    with pytest.raises(ValueError, match="both u and b"):
        trace(with_offset, X, y, u=[1, 1])


def test_adversary_refuses_data_without_a_separator_through_the_origin():
    X, y = [[1.0, 1.0], [3.0, 3.0]], [1, -1]
    with pytest.raises(ValueError, match="not linearly separable"):
        adversarial_run(X, y)
    with pytest.raises(ValueError, match="does not separate"):
        adversarial_run(*small_2d(), u=[1, -1])
    with pytest.raises(ValueError):
        adversarial_run(*small_2d(), eta=0)


def test_trace_is_read_only():
    X, y = small_2d()
    tr = trace(fit_perceptron(X, y, fit_bias=False), X, y)
    assert isinstance(tr, ProofTrace)
    for name in ("t", "inner", "sqnorm", "floor", "ceiling", "cross", "u"):
        with pytest.raises(ValueError):
            getattr(tr, name)[0] = 1.0
