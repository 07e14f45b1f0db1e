"""The words of a whole run in one pass: `readout.all_state_lines` and `readout.all_alt_texts` (and `all_words`,
both) give, string for string, what `state_lines` and `alt_text` give step by step, and `core.step_counts`
counts each state's mistakes exactly as the one-state test (`is_mistake` on `scores`), ties on the line
included.

The runs are drawn at random: integer data (scores of exactly 0, points on the boundary), rounded and scaled
floats, labels that no line separates (cycles), every update rule, with and without b, online (cyclic and random
order, the margin perceptron), mini-batch and batch. The counts are also held to the one-state test on states
built to score within rounding of the one meaning of zero (`ZERO_TOL` of the size), where a stacked product and a
one-state product can round apart.
"""

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_batch, fit_minibatch, fit_perceptron
from perceptron_lib.core import step_counts
from perceptron_lib.core.own_data import empty_run
from perceptron_lib.core.perceptron import UPDATE_RULES, ZERO_TOL, is_mistake, scores
from perceptron_lib.core.runs import History, Run
from perceptron_lib.core.step_counts import mistake_counts, mistakes_at_each_state
from perceptron_lib.player.readout import all_alt_texts, all_state_lines, all_words, alt_text, state_lines


def one_state(run, X, y, k) -> np.ndarray:
    """The mistakes of state k as one step's readout asks: the test of record."""
    h = run.history
    return is_mistake(scores(h.w[k], float(h.b[k]), X), y, run.update_on)


def points(seed: int, kind: str, n: int):
    rng = np.random.default_rng(seed)
    if kind == "integer":  # small integers: many points on integer boundaries, scores of exactly 0
        X = rng.integers(-3, 4, size=(n, 2)).astype(float)
        y = np.where(X @ [1.0, 2.0] + rng.integers(-1, 2) >= 0, 1.0, -1.0)
    elif kind == "noisy":  # labels at random: no line separates them, cyclic runs cycle
        X = rng.integers(-4, 5, size=(n, 2)).astype(float)
        y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    elif kind == "rounded":  # a click's snap: tenths, sums of which round
        X = np.round(rng.uniform(-5, 5, size=(n, 2)), 1)
        y = np.where(X[:, 0] + rng.normal(scale=1.0, size=n) > 0, 1.0, -1.0)
    else:  # scaled floats, far from 1
        X = rng.normal(size=(n, 2)) * 10.0 ** rng.integers(-4, 5)
        y = np.where(X[:, 1] > 0, 1.0, -1.0)
    if len(np.unique(y)) == 1:
        y[0] = -y[0]
    return X, y


def fit(X, y, *, method, rule, fit_bias, eta, seed):
    if method == "cyclic":
        return fit_perceptron(X, y, update_on=rule, fit_bias=fit_bias, eta=eta, max_epochs=25)
    if method == "random":
        return fit_perceptron(X, y, update_on=rule, fit_bias=fit_bias, eta=eta, order="random", rng=seed,
                              max_epochs=15)
    if method == "margin":
        return fit_perceptron(X, y, update_on="negative" if rule == "negative" else "nonpositive",
                              fit_bias=fit_bias, eta=eta, margin=1.0, max_epochs=15)
    if method == "minibatch":
        return fit_minibatch(X, y, batch_size=max(1, len(y) // 4), update_on=rule, fit_bias=fit_bias, eta=eta,
                             max_iter=60, rng=seed)
    return fit_batch(X, y, update_on=rule, fit_bias=fit_bias, eta=eta, max_iter=60)


RUNS = dict(seed=st.integers(0, 100_000), kind=st.sampled_from(["integer", "noisy", "rounded", "scaled"]),
            n=st.integers(1, 40), method=st.sampled_from(["cyclic", "random", "margin", "minibatch", "batch"]),
            rule=st.sampled_from(UPDATE_RULES), fit_bias=st.booleans(), eta=st.sampled_from([1.0, 0.5, 0.1]))


@settings(max_examples=150, deadline=None)
@given(**RUNS)
def test_the_words_of_every_step_at_once_are_the_words_of_each_step(seed, kind, n, method, rule, fit_bias, eta):
    X, y = points(seed, kind, n)
    run = fit(X, y, method=method, rule=rule, fit_bias=fit_bias, eta=eta, seed=seed)
    steps = range(len(run.history))
    lines, alts = [state_lines(run, X, y, k) for k in steps], [alt_text(run, X, y, k) for k in steps]
    assert all_state_lines(run, X, y) == lines and all_alt_texts(run, X, y) == alts
    assert all_words(run, X, y) == (lines, alts)


@settings(max_examples=150, deadline=None)
@given(**RUNS, max_values=st.sampled_from([1, 7, 64, step_counts.MAX_CHUNK_VALUES]))
def test_counts_and_crosses_are_the_one_state_test_in_any_chunks(seed, kind, n, method, rule, fit_bias, eta,
                                                                  max_values):
    X, y = points(seed, kind, n)
    run = fit(X, y, method=method, rule=rule, fit_bias=fit_bias, eta=eta, seed=seed)
    want = [one_state(run, X, y, k) for k in range(len(run.history))]
    assert mistake_counts(run, X, y, max_values=max_values).tolist() == [int(m.sum()) for m in want]
    assert mistakes_at_each_state(run, X, y, max_values=max_values) == [np.flatnonzero(m).tolist() for m in want]


def states_run(W, B, rule) -> Run:
    """A run whose history is the given states (a batch step each), to count their mistakes."""
    K = len(B) - 1
    h = History(w=np.array(W, dtype=float), b=np.array(B, dtype=float), i=np.full(K, -1), epoch=np.arange(1, K + 1),
                margin_before=np.full(K, np.nan), margin_after=np.full(K, np.nan),
                batches=tuple(np.array([0]) for _ in range(K)))
    return Run(w=h.w[-1], b=float(h.b[-1]), mistakes=K, epochs=K, converged=False, cycle=None, history=h,
               method="batch", update_on=rule)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 100_000), rule=st.sampled_from(UPDATE_RULES), d=st.integers(1, 5))
def test_counts_agree_with_the_one_state_test_at_the_edge_of_zero(seed, rule, d):
    """States that score some points at 0, at +-ZERO_TOL of the size (the edge of the one meaning of zero),
    and a few ulps either side of those: where summation order decides, the count is still the test's."""
    rng = np.random.default_rng(seed)
    n, K = 12, 30
    X = rng.normal(size=(n, d)) * 10.0 ** rng.integers(-2, 3)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    W = rng.normal(size=(K + 1, d)) * 10.0 ** rng.integers(-2, 3)
    B = np.empty(K + 1)
    for k in range(K + 1):
        i = rng.integers(n)
        size = np.linalg.norm(W[k]) * np.linalg.norm(X[i])
        edge = rng.choice([0.0, 1.0, -1.0, 0.999999, 1.000001, -0.999999, -1.000001]) * ZERO_TOL * size
        B[k] = -(X[i] @ W[k]) + edge + rng.choice([0.0, 1.0, -1.0]) * np.spacing(size)
    W[rng.integers(K + 1)] = 0.0  # w = 0: every score is b
    B[rng.integers(K + 1)] = 0.0
    run = states_run(W, B, rule)
    want = [one_state(run, X, y, k) for k in range(K + 1)]
    assert mistake_counts(run, X, y).tolist() == [int(m.sum()) for m in want]
    assert mistakes_at_each_state(run, X, y, max_values=50) == [np.flatnonzero(m).tolist() for m in want]


def test_only_states_with_a_point_within_rounding_of_their_line_are_asked_one_by_one(monkeypatch):
    """The pre-filter decides most states; a state with a point on its line is asked exactly (so the band in
    between is really used by the tests above)."""
    asked = []
    exact = step_counts._exact
    monkeypatch.setattr(step_counts, "_exact", lambda *a: asked.append(a[-1]) or exact(*a))
    X = np.array([[1.0, 1.0], [2.0, 0.0], [-1.0, -1.0], [0.0, -2.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    # state 1: w = (1, -1), b = 0 puts (1, 1) and (-1, -1) on its line; states 0 and 2 leave every point clear of it
    run = states_run([[1.0, 1.0], [1.0, -1.0], [1.0, 0.5]], [0.5, 0.0, 0.0], "sign")
    assert mistake_counts(run, X, y).tolist() == [0, 2, 0] and asked == [1]


def test_empty_data_and_bad_arguments():
    run = empty_run(2)
    X0, y0 = np.empty((0, 2)), np.empty(0)
    assert mistake_counts(run, X0, y0).tolist() == [0] and mistakes_at_each_state(run, X0, y0) == [[]]
    assert all_state_lines(run, X0, y0) == [state_lines(run, X0, y0, 0)]
    assert all_alt_texts(run, X0, y0) == [alt_text(run, X0, y0, 0)] == ["An empty plane: no data points yet."]
    X, y = points(1, "integer", 10)
    run = fit_perceptron(X, y)
    with pytest.raises(ValueError, match=r"X must be the run's data, of shape \(n, 2\)"):
        mistake_counts(run, X[:, :1], y)
    with pytest.raises(ValueError, match="max_values must be a whole number >= 1"):
        mistake_counts(run, X, y, max_values=0)
    with pytest.raises(ValueError, match="counts must be mistake_counts"):
        all_state_lines(run, X, y, counts=[1, 2])
    counts = mistake_counts(run, X, y)
    assert all_alt_texts(run, X, y, counts=counts) == all_alt_texts(run, X, y)


def test_the_inputs_are_not_changed():
    X, y = points(3, "noisy", 30)
    run = fit_perceptron(X, y, max_epochs=10)
    X0, y0 = X.copy(), y.copy()
    mistake_counts(run, X, y, max_values=10)
    all_state_lines(run, X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_a_long_run_is_counted_in_chunks_of_a_few_megabytes():
    """200 points and 5,000 states (a million scores): the chunks keep the peak far below the 40 MB that the whole
    matrix of margins and its masks would take at once."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(rng.random(200) < 0.5, 1.0, -1.0)
    run = states_run(rng.normal(size=(5000, 2)), rng.normal(size=5000), "nonpositive")
    tracemalloc.start()
    try:
        counts = mistake_counts(run, X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 25e6, f"peak {peak / 1e6:.1f} MB"
    assert counts[:50].tolist() == [int(one_state(run, X, y, k).sum()) for k in range(50)]
