"""Data sets: the promised shapes, labels, margins and radii, and the (non-)separability facts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_perceptron
from perceptron_lib.core.data import blobs, circles, collinear, digits, no_origin_separator, separable, small_2d, xor
from perceptron_lib.core.margins import is_separable


def assert_labelled_data(X, y, n=None, d=None):
    assert X.dtype == np.float64 and y.dtype == np.float64
    assert X.ndim == 2 and y.shape == (X.shape[0],)
    assert set(np.unique(y).tolist()) <= {-1.0, 1.0}
    if n is not None:
        assert X.shape[0] == n
    if d is not None:
        assert X.shape[1] == d


# --- separable -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 40),
    d=st.integers(1, 30),
    radius=st.floats(0.1, 10),
    frac=st.floats(0.01, 0.95),
    bias=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_separable_keeps_its_promises(n, d, radius, frac, bias, seed):
    margin = frac * radius
    X, y, u, b = separable(
        n, d=d, margin=margin, radius=radius, bias=bias, seed=seed, return_separator=True
    )
    assert_labelled_data(X, y, n, d)
    assert {-1.0, 1.0} == set(y.tolist())
    assert np.linalg.norm(u) == pytest.approx(1.0)
    assert np.linalg.norm(X, axis=1).max() <= radius * (1 + 1e-12)
    m = y * (X @ u + b)
    assert m.min() >= margin * (1 - 1e-9) - 1e-12
    # One point of each class sits exactly at the margin, so the realised margin is `margin`.
    for label in (-1, 1):
        assert m[y == label].min() == pytest.approx(margin, rel=1e-9, abs=1e-12)
    if bias:
        assert abs(b) <= (radius - margin) / 2
    else:
        assert b == 0.0


def test_separable_is_reproducible_and_leaves_global_state_alone():
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    X1, y1 = separable(30, d=3, seed=7)
    X2, y2 = separable(30, d=3, seed=7)
    X3, _ = separable(30, d=3, seed=8)
    assert (np.random.get_state()[1] == before).all()
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.array_equal(X1, X3)
    gen = np.random.default_rng(5)
    assert separable(10, seed=gen)[0].shape == (10, 2)


def test_separable_in_high_dimension_fills_the_ball():
    X, y, u, _ = separable(2000, d=1000, margin=0.1, seed=0, return_separator=True)
    assert_labelled_data(X, y, 2000, 1000)
    assert (y * (X @ u)).min() == pytest.approx(0.1)
    # Points are not squashed onto the u axis: their orthogonal parts carry most of the norm.
    ortho = X - np.outer(X @ u, u)
    assert np.median(np.linalg.norm(ortho, axis=1)) > 0.3


def test_separable_data_are_separable():
    for bias in (False, True):
        X, y = separable(40, d=5, margin=0.05, bias=bias, seed=3)
        assert is_separable(X, y, fit_bias=bias).separable


def test_separable_rejects_bad_arguments():
    with pytest.raises(ValueError, match="margin must be smaller than radius"):
        separable(10, margin=1.0, radius=1.0)
    with pytest.raises(ValueError, match="margin must be > 0; got -0.1"):
        separable(10, margin=-0.1)
    with pytest.raises(ValueError, match="n must be a whole number >= 2; got 1"):
        separable(1)
    with pytest.raises(TypeError, match="d must be a whole number"):
        separable(10, d=2.0)
    with pytest.raises(TypeError, match="seed must be an int"):
        separable(10, seed="abc")
    with pytest.raises(TypeError, match="bias must be True or False"):
        separable(10, bias="yes")


# --- the small hand-made sets ---------------------------------------------------------------


def test_xor_and_collinear_are_not_separable():
    for make in (xor, collinear):
        X, y = make()
        assert_labelled_data(X, y)
        assert not is_separable(X, y).separable
        assert not is_separable(X, y, fit_bias=False).separable


def test_xor_is_the_truth_table():
    X, y = xor()
    assert ((X[:, 0] != X[:, 1]) == (y > 0)).all()


def test_collinear_points_lie_on_a_line():
    X, y = collinear()
    assert np.linalg.matrix_rank(X[1:] - X[0]) == 1
    assert y.tolist() == [1, -1, 1]


def test_no_origin_separator():
    X, y = no_origin_separator()
    assert_labelled_data(X, y, 6, 2)
    assert (X == np.round(X)).all()
    # With offset: the line x1 + x2 = 4.5 separates.
    assert (y * (4.5 - X.sum(axis=1)) > 0).all()
    assert is_separable(X, y).separable
    # Without: every negative point is a positive multiple of a positive point.
    neg, pos = X[y < 0], X[y > 0]
    for z in neg:
        assert any(z[0] / p[0] > 0 and np.array_equal(z, (z[0] / p[0]) * p) for p in pos)
    assert not is_separable(X, y, fit_bias=False).separable
    # And the homogeneous perceptron cycles, while the one with offset converges.
    run = fit_perceptron(X, y, fit_bias=False, max_epochs=10_000)
    assert not run.converged and run.cycle is not None
    assert fit_perceptron(X, y, fit_bias=True, max_epochs=10_000).converged


def test_small_2d():
    X, y = small_2d()
    assert_labelled_data(X, y)
    assert 6 <= len(y) <= 8 and (X == np.round(X)).all() and set(y.tolist()) == {-1.0, 1.0}
    assert (y * (X @ [1.0, 1.0]) > 0).all()
    assert is_separable(X, y, fit_bias=False).separable


def test_hand_made_sets_are_fresh_copies():
    X, y = xor()
    X[0, 0] = 99.0
    y[0] = 1.0
    assert xor()[0][0, 0] == 0.0 and xor()[1][0] == -1.0


# --- circles and blobs ----------------------------------------------------------------------


def test_circles_radii_labels_and_center():
    X, y = circles(101, r_inner=0.5, r_outer=2.0, seed=4, center=(3.0, -1.0))
    assert_labelled_data(X, y, 101, 2)
    assert (y > 0).sum() == 51
    r = np.linalg.norm(X - [3.0, -1.0], axis=1)
    np.testing.assert_allclose(r[y > 0], 0.5)
    np.testing.assert_allclose(r[y < 0], 2.0)
    assert not is_separable(X, y).separable


def test_circles_noise_moves_points():
    X, y = circles(400, noise=0.1, seed=0)
    r = np.linalg.norm(X, axis=1)
    assert 0.05 < np.std(r[y > 0] - 0.5) < 0.2
    assert np.mean(r[y < 0]) == pytest.approx(1.0, abs=0.05)


def test_blobs_centres_and_spread():
    X, y = blobs(4000, separation=3.0, spread=0.5, seed=1, d=3)
    assert_labelled_data(X, y, 4000, 3)
    np.testing.assert_allclose(X[y > 0].mean(axis=0), [1.5, 0, 0], atol=0.05)
    np.testing.assert_allclose(X[y < 0].mean(axis=0), [-1.5, 0, 0], atol=0.05)
    np.testing.assert_allclose(X[y > 0].std(axis=0), 0.5, rtol=0.06)


def test_overlapping_blobs_are_not_separable():
    X, y = blobs(200, separation=1.0, spread=1.0, seed=0)
    assert not is_separable(X, y).separable


def test_circles_and_blobs_reject_bad_arguments():
    with pytest.raises(ValueError, match="r_inner must be smaller than r_outer"):
        circles(10, r_inner=2.0, r_outer=1.0)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        circles(10, noise=-1)
    with pytest.raises(ValueError, match="center must be a pair of finite numbers"):
        circles(10, center=(0, 0, 0))
    with pytest.raises(ValueError, match="spread must be > 0"):
        blobs(10, spread=0)
    with pytest.raises(ValueError, match="separation must be >= 0"):
        blobs(10, separation=-2)


# --- digits ----------------------------------------------------------------------------------


def test_digits_against_sklearn():
    from sklearn.datasets import load_digits

    ref = load_digits()
    X, y = digits((3, 8))
    keep = np.isin(ref.target, [3, 8])
    assert_labelled_data(X, y, int(keep.sum()), 64)
    np.testing.assert_array_equal(X, ref.data[keep] / 16)
    np.testing.assert_array_equal(y == 1, ref.target[keep] == 8)
    assert X.min() >= 0 and X.max() <= 1
    X[0, 0] = 5.0  # the cached table must not be touched
    assert digits((3, 8))[0][0, 0] == ref.data[keep][0, 0] / 16


@pytest.mark.parametrize("pair", [(1, 1), (0, 10), (0,), "01", (0.0, 1.0), (-1, 2)])
def test_digits_rejects_bad_pairs(pair):
    with pytest.raises(ValueError, match="pair must be two different digits from 0 to 9"):
        digits(pair)
