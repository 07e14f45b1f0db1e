"""Margins, max-margin separator, separability and the mistake bounds, checked as theorems."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, LinearSVC

from perceptron_lib import fit_perceptron
from perceptron_lib.core.bounds import mistake_bound, offset_mistake_bound
from perceptron_lib.core.data import collinear, no_origin_separator, separable, small_2d, xor
from perceptron_lib.core.margins import geometric_margin, is_separable, max_margin_separator, radius

SQRT2 = np.sqrt(2.0)


# --- hand-worked -------------------------------------------------------------------------------


def test_geometric_margin_hand_worked():
    X, y = [[2, 0], [0, -1]], [1, -1]
    # w = (1, 1): margins 2 and 1, divided by sqrt(2).
    assert geometric_margin([1, 1], 0, X, y) == pytest.approx(1 / SQRT2)
    assert geometric_margin([5, 5], 0, X, y) == pytest.approx(1 / SQRT2)  # independent of ||w||
    # w = (-1, 0): margins -2 and 0: negative, not an absolute value (course-notes erratum on 001).
    assert geometric_margin([-1, 0], 0, X, y) == -2.0
    # With offset: w = (0, 1), b = 0.5: margins 0.5 and 0.5.
    assert geometric_margin([0, 1], 0.5, X, y) == 0.5


def test_radius_hand_worked():
    assert radius([[3, 4], [1, 0], [0, -6]]) == 6.0


def test_max_margin_hand_worked():
    sep = max_margin_separator([[0, 0], [2, 2]], [-1, 1])
    np.testing.assert_allclose(sep.w, [1 / SQRT2, 1 / SQRT2], rtol=1e-12)
    assert sep.b == pytest.approx(-SQRT2, rel=1e-12) and sep.gamma == pytest.approx(
        SQRT2, rel=1e-12
    )
    assert sep.support.tolist() == [0, 1]

    # Origin against the segment from (2, 0) to (0, 2): halfway to its nearest point (1, 1).
    sep = max_margin_separator([[0, 0], [2, 0], [0, 2]], [-1, 1, 1])
    np.testing.assert_allclose(sep.w, [1 / SQRT2, 1 / SQRT2], rtol=1e-12)
    assert sep.gamma == pytest.approx(1 / SQRT2, rel=1e-12) and sep.b == pytest.approx(
        -1 / SQRT2, rel=1e-12
    )

    # Through the origin: (1, 0) vs (0, 1) is split by the diagonal direction (1, -1)/sqrt(2).
    sep = max_margin_separator([[1, 0], [0, 1]], [1, -1], fit_bias=False)
    np.testing.assert_allclose(sep.w, [1 / SQRT2, -1 / SQRT2], rtol=1e-12)
    assert sep.b == 0.0 and sep.gamma == pytest.approx(1 / SQRT2, rel=1e-12)

    # One class, through the origin: the margin is the distance from 0 to the hull, here at (1, 0).
    sep = max_margin_separator([[1, 0], [1, 1]], [1, 1], fit_bias=False)
    np.testing.assert_allclose(sep.w, [1, 0], atol=1e-12)
    assert sep.gamma == pytest.approx(1.0, rel=1e-12)


def test_mistake_bounds_hand_worked():
    X, y = [[1, 0], [0, 1]], [1, -1]
    mb = mistake_bound(X, y)
    assert (mb.R, mb.form, mb.b) == (1.0, "homogeneous", 0.0)
    assert mb.gamma == pytest.approx(1 / SQRT2) and mb.bound == pytest.approx(2.0)
    with pytest.raises(ValueError, match="u does not separate the data"):
        mistake_bound(X, y, u=[1, 0])
    mb = mistake_bound(X, y, u=[2, -1])  # unit u = (2, -1)/sqrt(5): margins 2/sqrt5, 1/sqrt5
    assert mb.gamma == pytest.approx(1 / np.sqrt(5)) and mb.bound == pytest.approx(5.0)
    # Offset form on (0,0) -> -1, (2,0) -> +1 with w = (1, 0), b = -1 (given scaled by 2):
    # rho = 1, R = 2, bound (1 + 1)(1 + 4) / 1.
    ob = offset_mistake_bound([[0, 0], [2, 0]], [-1, 1], w=[2, 0], b=-2)
    assert (ob.R, ob.gamma, ob.b, ob.bound, ob.form) == (2.0, 1.0, -1.0, 10.0, "offset")


def test_offset_bound_is_homogeneous_bound_on_augmented_points():
    X, y, u, b = separable(30, d=3, margin=0.2, bias=True, seed=5, return_separator=True)
    ob = offset_mistake_bound(X, y, w=u, b=b)
    Z = np.hstack([np.ones((30, 1)), X])
    # Radius of the augmented points is at most sqrt(1 + R^2); equality here as R is attained.
    hb = mistake_bound(Z, y, u=np.append(b, u))
    assert hb.bound == pytest.approx(ob.bound, rel=1e-12)


# --- the maximum-margin separator --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fit_bias", [True, False])
def test_max_margin_matches_svm_reference(seed, fit_bias):
    X, y = separable(40, d=2 + seed, margin=0.1, bias=fit_bias, seed=seed)
    sep = max_margin_separator(X, y, fit_bias=fit_bias)
    if fit_bias:
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        w_ref, b_ref = svc.coef_[0], svc.intercept_[0]
    else:
        # SVC always fits an offset; liblinear's hinge-loss dual solver can leave it out.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            svc = LinearSVC(
                loss="hinge", fit_intercept=False, C=1e8, tol=1e-12, max_iter=10**6
            ).fit(X, y)
        w_ref, b_ref = svc.coef_[0], 0.0
    gamma_ref = geometric_margin(w_ref, b_ref, X, y)
    assert np.linalg.norm(sep.w) == pytest.approx(1.0, rel=1e-12)
    assert sep.gamma == pytest.approx(gamma_ref, rel=1e-6)
    np.testing.assert_allclose(sep.w, w_ref / np.linalg.norm(w_ref), atol=1e-5)
    assert sep.gamma == pytest.approx(geometric_margin(sep.w, sep.b, X, y), rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("fit_bias", [True, False])
def test_max_margin_is_a_local_and_so_global_maximum(seed, fit_bias):
    # The max-margin problem is a convex QP in disguise, so no nearby separator may do better.
    X, y = separable(25, d=4, margin=0.15, bias=fit_bias, seed=10 + seed)
    sep = max_margin_separator(X, y, fit_bias=fit_bias)
    rng = np.random.default_rng(seed)
    for eps in (1e-2, 1e-4):
        for _ in range(200):
            dw = rng.normal(size=4)
            db = rng.normal() if fit_bias else 0.0
            assert geometric_margin(sep.w + eps * dw, sep.b + eps * db, X, y) <= sep.gamma + 1e-12
    # The support vectors are the points at distance gamma.
    m = y * (X @ sep.w + sep.b)
    np.testing.assert_allclose(m[sep.support], sep.gamma, rtol=1e-6)
    assert (np.delete(m, sep.support) > sep.gamma * (1 + 1e-7)).all()


@settings(max_examples=30, deadline=None)
@given(
    d=st.integers(1, 40),
    frac=st.floats(0.02, 0.6),
    bias=st.booleans(),
    seed=st.integers(0, 10**6),
    eta=st.floats(0.01, 10),
    order=st.sampled_from(["cyclic", "random"]),
)
def test_max_margin_beats_the_true_and_the_perceptron_separator(d, frac, bias, seed, eta, order):
    X, y, u, b = separable(30, d=d, margin=frac, bias=bias, seed=seed, return_separator=True)
    sep = max_margin_separator(X, y, fit_bias=bias)
    assert sep.gamma >= geometric_margin(u, b, X, y) * (1 - 1e-9)
    run = fit_perceptron(X, y, fit_bias=bias, eta=eta, order=order, rng=seed, max_epochs=100_000)
    assert run.converged
    assert sep.gamma >= geometric_margin(run.w, run.b, X, y) * (1 - 1e-9)


def test_max_margin_on_digits():
    from perceptron_lib.core.data import digits

    X, y = digits((0, 1))
    sep = max_margin_separator(X, y)
    svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    assert sep.gamma == pytest.approx(
        geometric_margin(svc.coef_[0], svc.intercept_[0], X, y), rel=1e-6
    )


def test_max_margin_refuses_what_has_no_maximum():
    for X, y in (xor(), collinear()):
        with pytest.raises(ValueError, match="not linearly separable"):
            max_margin_separator(X, y)
    X, y = no_origin_separator()
    assert max_margin_separator(X, y).gamma > 0
    with pytest.raises(
        ValueError, match="not linearly separable by a hyperplane through the origin"
    ):
        max_margin_separator(X, y, fit_bias=False)
    with pytest.raises(ValueError, match="only one class"):
        max_margin_separator([[1, 0], [2, 0]], [1, 1])
    with pytest.raises(ValueError, match="not linearly separable"):
        mistake_bound(*xor())
    with pytest.raises(ValueError, match="not linearly separable"):
        offset_mistake_bound(*xor())


# --- separability -----------------------------------------------------------------------------


def test_is_separable_on_the_course_sets():
    cases = [
        (xor(), False, False),
        (collinear(), False, False),
        (no_origin_separator(), True, False),
        (small_2d(), True, True),
        (separable(60, d=7, margin=0.01, seed=2), True, True),
    ]
    for (X, y), with_bias, without in cases:
        for fit_bias, expected in ((True, with_bias), (False, without)):
            res = is_separable(X, y, fit_bias=fit_bias)
            assert res.separable is expected and bool(res) is expected
            if expected:
                assert (y * (X @ res.w + res.b) > 0).all()
                assert res.b == 0.0 or fit_bias
            else:
                assert res.w is None and res.b is None


def test_is_separable_with_a_tiny_margin_and_a_point_at_the_origin():
    X, y = separable(50, d=3, margin=1e-4, seed=0)
    assert is_separable(X, y, fit_bias=False).separable
    # A point at the origin has score b: through the origin it can never be classified.
    X0, y0 = np.vstack([X, np.zeros(3)]), np.append(y, 1)
    assert not is_separable(X0, y0, fit_bias=False).separable


# --- mistake bounds: the theorems --------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    d=st.integers(2, 60),
    frac=st.floats(0.05, 0.6),
    R=st.floats(0.1, 10),
    seed=st.integers(0, 10**6),
    eta=st.floats(1e-3, 100),
    order=st.sampled_from(["cyclic", "random"]),
    update_on=st.sampled_from(["nonpositive", "sign"]),
)
def test_homogeneous_mistake_bound_holds(d, frac, R, seed, eta, order, update_on):
    X, y, u, _ = separable(40, d=d, margin=frac * R, radius=R, seed=seed, return_separator=True)
    with_u = mistake_bound(X, y, u=u)
    best = mistake_bound(X, y)
    assert with_u.gamma == pytest.approx(frac * R, rel=1e-9)
    assert best.bound <= with_u.bound * (1 + 1e-9)
    run = fit_perceptron(
        X,
        y,
        fit_bias=False,
        eta=eta,
        order=order,
        rng=seed,
        update_on=update_on,
        max_epochs=int(with_u.bound) + 2,
    )
    assert run.converged
    assert run.mistakes <= best.bound <= with_u.bound * (1 + 1e-9)


@settings(max_examples=40, deadline=None)
@given(
    d=st.integers(1, 30),
    frac=st.floats(0.05, 0.6),
    seed=st.integers(0, 10**6),
    eta=st.floats(1e-3, 100),
    order=st.sampled_from(["cyclic", "random"]),
)
def test_offset_mistake_bound_holds(d, frac, seed, eta, order):
    X, y, u, b = separable(
        40, d=d, margin=frac, radius=1.0, bias=True, seed=seed, return_separator=True
    )
    with_true = offset_mistake_bound(X, y, w=u, b=b)
    with_svm = offset_mistake_bound(X, y)
    run = fit_perceptron(
        X, y, fit_bias=True, eta=eta, order=order, rng=seed, max_epochs=int(with_true.bound) + 2
    )
    assert run.converged
    assert run.mistakes <= min(with_true.bound, with_svm.bound)


def test_bound_from_a_weaker_separator_is_weaker():
    X, y = small_2d()
    best = mistake_bound(X, y)
    other = mistake_bound(X, y, u=[1, 1])
    assert best.gamma >= other.gamma and best.bound <= other.bound


# --- validation --------------------------------------------------------------------------------


def test_bad_inputs_raise_clear_errors():
    X, y = small_2d()
    with pytest.raises(ValueError, match="w must not be the zero vector"):
        geometric_margin([0, 0], 1, X, y)
    with pytest.raises(ValueError, match="u must not be the zero vector"):
        mistake_bound(X, y, u=[0, 0])
    with pytest.raises(ValueError, match=r"u must have one entry per feature of X, shape \(2,\)"):
        mistake_bound(X, y, u=[1, 1, 1])
    with pytest.raises(ValueError, match="give both w and b, or neither"):
        offset_mistake_bound(X, y, w=[1, 1])
    with pytest.raises(ValueError, match=r"\(w, b\) does not separate the data"):
        offset_mistake_bound(X, y, w=[1, 1], b=100)
    with pytest.raises(TypeError, match="fit_bias must be True or False"):
        is_separable(X, y, fit_bias=1)
    with pytest.raises(ValueError, match="X and y must have the same number of examples"):
        max_margin_separator(X, y[:3])


def test_results_are_frozen_and_inputs_untouched():
    X, y = small_2d()
    X0, y0 = X.copy(), y.copy()
    sep = max_margin_separator(X, y)
    with pytest.raises(ValueError):
        sep.w[0] = 1.0
    with pytest.raises(AttributeError):
        sep.gamma = 2.0
    is_separable(X, y)
    mistake_bound(X, y)
    assert (X == X0).all() and (y == y0).all()
    assert max_margin_separator(
        X.astype(int).tolist(), y.astype(int).tolist()
    ).gamma == pytest.approx(sep.gamma)


def test_the_separability_lp_asked_again_with_the_same_bits_answers_as_a_fresh_solve():
    from perceptron_lib.core import margins

    rng = np.random.default_rng(4)
    solves = []
    solve = margins._lp_solve
    try:
        margins._lp_solve = lambda *a: solves.append(1) or solve(*a)
        for _ in range(30):
            X = rng.normal(size=(int(rng.integers(3, 30)), int(rng.integers(1, 4))))
            y = np.where(X @ rng.normal(size=X.shape[1]) + rng.normal(scale=0.5) > 0, 1.0, -1.0)
            y[:2] = [1.0, -1.0]
            for fit_bias in (True, False):
                n0 = len(solves)
                first = margins._lp_separator(X, y, fit_bias)
                again = margins._lp_separator(X, y, fit_bias)
                assert len(solves) == n0 + 1, "the same question solved twice"
                fresh = solve(X, y, fit_bias)
                assert (first is None) == (again is None) == (fresh is None)
                if fresh is not None:
                    assert np.array_equal(again[0], fresh[0]) and again[1] == fresh[1]
                    again[0][:] = 7.0  # a copy: the next answer is not changed
                    assert np.array_equal(margins._lp_separator(X, y, fit_bias)[0], fresh[0])
                Z = X.copy()
                Z[0, 0] = np.nextafter(Z[0, 0], np.inf)  # one bit moved: solved anew
                margins._lp_separator(Z, y, fit_bias)
                assert len(solves) == n0 + 2
    finally:
        margins._lp_solve = solve
