"""Discrete choices made from floats do not depend on the last bits (issue: same course everywhere).

Another CPU, BLAS or Python changes the last bits of a solver's answer. Wherever the course
turns floats into a choice, the choice must not move when its inputs move by rounding.
"""

import numpy as np
import pytest

from perceptron_lib.core import data, proof
from perceptron_lib.core.bounds import mistake_bound
from perceptron_lib.core.margins import max_margin_separator


def _nudged(u, eps, seed):
    """u moved by a relative eps in a random direction: what another machine's solver might return."""
    rng = np.random.default_rng(seed)
    return u + eps * np.linalg.norm(u) * rng.standard_normal(u.shape)


def test_adversary_breaks_exact_ties_by_index_not_by_last_bits():
    # Two points with the same gain y<u, x> = 1 under u = (1, 0): a tie by construction.
    X = np.array([[1.0, 2.0], [1.0, -2.0], [3.0, 0.5]])
    y = np.ones(3)
    u = np.array([1.0, 0.0])
    first = [proof.adversarial_run(X, y, _nudged(u, 1e-13, s)).history.i[0] for s in range(20)]
    assert set(first) == {0}  # the smaller index of the tie, for every nudge


@pytest.mark.parametrize("margin", np.geomspace(0.02, 0.5, 8).tolist())
def test_adversary_run_is_the_same_for_every_nudge_of_the_max_margin_u(margin):
    # At the maximum margin several support vectors tie exactly (lesson 04's sweep).
    X, y = data.separable(100, margin=margin, seed=1)
    u = mistake_bound(X, y).w
    runs = [proof.adversarial_run(X, y, _nudged(u, 1e-12, s)) for s in range(6)]
    for r in runs[1:]:
        np.testing.assert_array_equal(r.history.i, runs[0].history.i)


def test_the_sweep_has_ties_at_all():
    """Guards the test above: without ties among support vectors it would prove nothing."""
    X, y = data.separable(100, margin=0.5, seed=1)
    sep = max_margin_separator(X, y, fit_bias=False)
    assert sep.support.size >= 2


def test_tie_tolerance_far_from_real_gaps_and_from_rounding():
    # Gaps between distinct gains in the course's data are many orders above TIE_TOL * R ...
    X, y = data.separable(100, margin=0.05, seed=1)
    u = mistake_bound(X, y).w
    gains = np.sort(y * (X @ u))
    gaps = np.diff(gains)
    R = np.linalg.norm(X, axis=1).max()
    assert gaps[gaps > 1e-10].min() > 1e3 * proof.TIE_TOL * R
    # ... and rounding (a few ulps of R) is many orders below it.
    assert 100 * np.finfo(float).eps < proof.TIE_TOL
