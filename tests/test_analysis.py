"""perceptron_lib.core.analysis against hand-worked runs and brute-force recounts."""

import numpy as np
import pytest

from perceptron_lib import fit_batch, fit_perceptron, is_mistake
from perceptron_lib.core import analysis as A
from perceptron_lib.core import data
from perceptron_lib.core.perceptron import scores


def brute_errors(run, X, y):
    h = run.history
    return np.array([int(is_mistake(scores(w, b, X), y, run.update_on).sum()) for w, b in zip(h.w, h.b, strict=True)])


@pytest.fixture(scope="module")
def forty():
    X, y = data.separable(40, margin=0.1, bias=True, seed=3)
    return fit_perceptron(X, y), X, y


def test_epoch_ends_and_states_xor():
    X, y = data.xor()
    run = fit_perceptron(X, y)
    assert A.epoch_ends(run).tolist() == [0, 3, 7]
    assert A.state_after_epoch(run, 0).k == 0
    s1, s2 = A.state_after_epoch(run, 1), A.state_after_epoch(run, 2)
    assert np.array_equal(s1.w, s2.w) and s1.b == s2.b  # the cycle of length 1 epoch
    with pytest.raises(ValueError):
        A.state_after_epoch(run, 3)


def test_errors_after_updates_equal_brute_force(forty):
    run, X, y = forty
    e = A.errors_after_updates(run, X, y)
    assert e.tolist() == brute_errors(run, X, y).tolist()
    assert e[0] == len(y) and e[-1] == 0  # all fail at w = 0 (test <= 0); none at the end
    assert A.mistake_mask(run, X, y).shape == (run.mistakes + 1, len(y))


def test_errors_after_epoch_aligned_with_mistakes_per_epoch(forty):
    run, X, y = forty
    err = A.errors_after_epoch(run, X, y)
    assert err.shape == run.mistakes_per_epoch.shape == (run.epochs,)
    ends = np.cumsum(run.mistakes_per_epoch)
    assert err.tolist() == [brute_errors(run, X, y)[k] for k in ends]
    assert err[-1] == 0 and err[-2] == 0  # converged: the last epoch only confirms


def test_errors_use_the_runs_test():
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [-1, 1]
    run = fit_perceptron(X, y, update_on="negative")  # never moves from w = 0
    assert run.mistakes == 0 and A.errors_after_updates(run, X, y).tolist() == [0]
    run = fit_perceptron(X, y, update_on="sign", fit_bias=False, max_epochs=1)
    assert A.errors_after_updates(run, X, y)[0] == 1  # sgn(0) = -1: only the y = +1 point fails


def test_update_effects_by_hand():
    # small_2d: one update on example 0, then everything is right
    X, y = data.small_2d()
    run = fit_perceptron(X, y)
    (e,) = A.update_effects(run, X, y)
    assert (e.k, e.i, e.epoch, e.fixed, e.errors_before, e.errors_after) == (1, 0, 1, True, 6, 0)
    assert e.broke.tolist() == [] and e.mended.tolist() == [1, 2, 3, 4, 5]


def test_update_effects_consistent(forty):
    run, X, y = forty
    M = A.mistake_mask(run, X, y)
    effects = A.update_effects(run, X, y)
    assert len(effects) == run.mistakes
    for e in effects:
        assert e.fixed == (e.margin_after > 0)
        assert e.errors_after - e.errors_before == len(e.broke) - len(e.mended) - (1 if e.fixed else 0)
        assert np.all(~M[e.k - 1, e.broke] & M[e.k, e.broke])
        assert e.i not in e.broke and e.i not in e.mended


def test_find_update(forty):
    run, X, y = forty
    e = A.find_update(run, X, y, fixed=False)
    assert e.k == 6 and e.i == 22 and e.margin_after < 0 < e.margin_after - e.margin_before
    e = A.find_update(run, X, y, breaks=True)
    assert e.k == 2 and len(e.broke) == 4
    assert A.find_update(run, X, y, fixed=False, breaks=True) is None
    assert A.find_update(run, X, y, breaks=False).k == 1
    X2, y2 = data.small_2d()
    assert A.find_update(fit_perceptron(X2, y2), X2, y2, fixed=False) is None


def test_update_effects_batch_run():
    X, y = data.small_2d()
    run = fit_batch(X, y)
    effects = A.update_effects(run, X, y)
    assert all(e.i == -1 for e in effects) and effects[-1].errors_after == 0


def test_final_hyperplanes_scale_free(forty):
    run, X, y = forty
    r2 = fit_perceptron(X, y, eta=7.0)  # from zero: the same line, w scaled by 7
    H = A.final_hyperplanes([run, r2])
    assert H.shape == (2, 3)
    np.testing.assert_allclose(H[0], H[1], atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(H[:, :2], axis=1), 1.0)
    runs = [fit_perceptron(X, y, order="random", rng=s) for s in range(4)]
    assert len(np.unique(A.final_hyperplanes(runs).round(6), axis=0)) == 4
    Xq, yq = [[1.0, 0.0], [-1.0, 0.0]], [-1, 1]
    assert np.isnan(A.final_hyperplanes([fit_perceptron(Xq, yq, update_on="negative")])).all()
    with pytest.raises(ValueError):
        A.final_hyperplanes([])


def test_cycle_updates():
    X, y = data.xor()
    run = fit_perceptron(X, y)
    cyc = A.cycle_updates(run)
    assert cyc.tolist() == [0, 1, 2, 3]
    Z = np.c_[X, np.ones(len(X))] * y[:, None]
    assert np.all(Z[cyc].sum(axis=0) == 0)  # the updates of one period cancel out
    X, y = data.no_origin_separator()
    run = fit_perceptron(X, y, fit_bias=False)
    cyc = A.cycle_updates(run)
    assert len(cyc) == run.cycle.mistakes_per_cycle
    assert np.all((y[cyc, None] * X[cyc]).sum(axis=0) == 0)
    X, y = data.small_2d()
    assert A.cycle_updates(fit_perceptron(X, y)).size == 0


def test_bad_inputs(forty):
    run, X, y = forty
    with pytest.raises(TypeError):
        A.epoch_ends("not a run")
    with pytest.raises(ValueError):
        A.errors_after_updates(run, X[:, :1], y)
    with pytest.raises(ValueError):
        A.errors_after_updates(run, X[:10], y[:10])
