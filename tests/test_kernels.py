"""The lift, kernels and the dual perceptron, against explicit feature maps and the primal."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import cdist

from perceptron_lib import fit_perceptron, reference_perceptron
from perceptron_lib.core.data import circles, xor
from perceptron_lib.core.dual import fit_kernel_perceptron, gram_costs
from perceptron_lib.core.kernels import (
    circle_from_plane,
    lift,
    lift_kernel,
    linear_kernel,
    n_polynomial_features,
    polynomial_kernel,
    polynomial_lift,
    quadratic_lift,
    rbf_kernel,
)
from perceptron_lib.core.margins import is_separable

FAST = settings(max_examples=60, deadline=None)


def integer_ring_data(seed, n=40):
    """Integer points labelled +1 inside the circle of radius 3.5 about (1, 0), -1 outside."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-6, 7, size=(n, 2))
    y = np.where(((X - [1, 0]) ** 2).sum(axis=1) < 12.25, 1, -1)
    return X, y


# --- feature maps and kernels ---------------------------------------------------------------


def test_lifts_hand_worked():
    assert lift([[1, 2], [0, -3]]).tolist() == [[1, 2, 5], [0, -3, 9]]
    assert lift([[1, 2, 2]]).tolist() == [[1, 2, 2, 9]]  # any d: (x, ||x||^2)
    assert quadratic_lift([[2, -3], [0, 1]]).tolist() == [[2, -3, 4, 9, -6], [0, 1, 0, 1, 0]]
    assert lift_kernel([[1, 2]], [[3, 4]]).tolist() == [[11 + 5 * 25]]


@st.composite
def point_sets(draw):
    d = draw(st.integers(1, 4))
    floats = st.floats(-5, 5, allow_nan=False)
    P = draw(arrays(np.float64, (draw(st.integers(1, 6)), d), elements=floats))
    Q = draw(arrays(np.float64, (draw(st.integers(1, 6)), d), elements=floats))
    return P, Q


@FAST
@given(point_sets())
def test_lift_kernel_is_inner_product_of_lifts(PQ):
    P, Q = PQ
    K = lift_kernel(P, Q)
    assert K.shape == (len(P), len(Q))
    np.testing.assert_allclose(K, lift(P) @ lift(Q).T, rtol=1e-12, atol=1e-9)


@FAST
@given(point_sets())
def test_polynomial_kernel_is_inner_product_of_its_feature_map(PQ):
    P, Q = PQ

    def phi(
        X,
    ):  # (<p,q> + 1)^2 = <phi(p), phi(q)> with 1, sqrt(2) x_i, x_i^2, sqrt(2) x_i x_j (i < j)
        d = X.shape[1]
        cross = [np.sqrt(2) * X[:, i] * X[:, j] for i in range(d) for j in range(i + 1, d)]
        return np.column_stack([np.ones(len(X)), np.sqrt(2) * X, X**2, *cross])

    np.testing.assert_allclose(
        polynomial_kernel(P, Q, degree=2, c=1.0), phi(P) @ phi(Q).T, rtol=1e-10, atol=1e-8
    )
    np.testing.assert_allclose(
        linear_kernel(P, Q), polynomial_kernel(P, Q, degree=1, c=0.0), atol=1e-12
    )


def test_rbf_kernel_against_cdist():
    rng = np.random.default_rng(0)
    P, Q = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    np.testing.assert_allclose(
        rbf_kernel(P, Q, width=0.7), np.exp(-cdist(P, Q, "sqeuclidean") / (2 * 0.49)), rtol=1e-12
    )
    assert (np.diag(rbf_kernel(P, P, width=3.0)) == 1.0).all()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(
    "kernel",
    [
        lambda P: rbf_kernel(P, P, width=0.3),
        lambda P: rbf_kernel(P, P, width=5.0),
        lambda P: polynomial_kernel(P, P, degree=3, c=0.5),
        lambda P: polynomial_kernel(P, P, degree=2, c=0.0),
        lambda P: lift_kernel(P, P),
    ],
)
def test_kernels_are_positive_semidefinite(seed, kernel):
    P = np.random.default_rng(seed).normal(size=(30, 3))
    K = kernel(P)
    np.testing.assert_allclose(K, K.T, rtol=1e-12)
    eig = np.linalg.eigvalsh(K)
    assert eig.min() >= -1e-9 * max(1.0, eig.max())


def test_a_kernel_that_is_not_psd_is_refused_by_this_check():
    # The check above can fail: (<p,q> - 1)^3, a negative c, is not PSD on these points.
    P = np.array([[0.0], [1.0], [2.0]])
    K = (P @ P.T - 1.0) ** 3
    assert np.linalg.eigvalsh(K).min() < -1e-9
    with pytest.raises(ValueError, match="c must be >= 0"):
        polynomial_kernel(P, P, degree=3, c=-1.0)


# --- dual = primal on the lift ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fit_bias", [True, False])
@pytest.mark.parametrize("eta", [1.0, 0.5])
def test_dual_lift_perceptron_equals_primal_on_lifted_points(seed, fit_bias, eta):
    X, y = integer_ring_data(seed)
    primal = fit_perceptron(
        lift(X),
        y,
        eta=eta,
        update_on="nonpositive",
        order="cyclic",
        fit_bias=fit_bias,
        max_epochs=5000,
    )
    # Without offset the lifted rings are not separable and the primal stops at a detected cycle;
    # give the dual the same number of epochs.
    assert primal.converged or primal.cycle is not None
    dual = fit_kernel_perceptron(
        X, y, kernel="lift", eta=eta, fit_bias=fit_bias, max_epochs=primal.epochs
    )
    assert dual.updates.tolist() == primal.history.i.tolist()
    assert dual.mistakes == primal.mistakes == dual.alpha.sum()
    assert dual.converged == primal.converged
    assert dual.epochs == primal.epochs
    # The dual identity w = eta * sum_i alpha_i y_i phi(x_i), b = eta * sum_i alpha_i y_i.
    np.testing.assert_allclose(primal.w, eta * (dual.alpha * y) @ lift(X), rtol=1e-12)
    assert dual.b == pytest.approx(primal.b) == pytest.approx(eta * (dual.alpha @ y) * fit_bias)
    g = np.linspace(-7, 7, 29)
    grid = np.column_stack([a.ravel() for a in np.meshgrid(g, g)])
    np.testing.assert_array_equal(dual.predict(grid), primal.predict(lift(grid)))
    np.testing.assert_allclose(
        dual.decision_function(grid), primal.decision_function(lift(grid)), rtol=1e-9, atol=1e-9
    )


@pytest.mark.parametrize("seed", range(3))
def test_dual_linear_perceptron_equals_plain_loop_on_nonseparable_data(seed):
    rng = np.random.default_rng(seed)
    X, y = rng.integers(-3, 4, size=(15, 2)), np.where(rng.random(15) < 0.5, 1, -1)
    assert not is_separable(X, y).separable
    w, b, updates = reference_perceptron(X, y, max_epochs=7)
    dual = fit_kernel_perceptron(X, y, kernel="linear", max_epochs=7)
    assert dual.updates.tolist() == updates
    assert not dual.converged and dual.epochs == 7
    np.testing.assert_allclose((dual.alpha * y) @ X, w)
    assert dual.b == b


def test_circles_need_the_lift():
    X, y = circles(80, r_inner=0.5, r_outer=1.0, seed=3)
    assert not is_separable(X, y).separable
    assert is_separable(lift(X), y).separable
    # Off-centre circles too: every circle is a plane in the lifted space.
    Xc, yc = circles(80, seed=4, center=(2.0, -1.0))
    assert not is_separable(Xc, yc).separable and is_separable(lift(Xc), yc).separable
    run = fit_kernel_perceptron(X, y, kernel="lift", max_epochs=1000)
    assert run.converged and (run.predict(X) == y).all()


def test_perceptron_plane_on_circles_reads_back_as_a_separating_circle():
    X, y = circles(60, r_inner=0.5, r_outer=1.2, seed=1, center=(0.5, 0.5))
    run = fit_perceptron(lift(X), y, max_epochs=5000)
    assert run.converged
    curve = circle_from_plane(run.w, run.b)
    assert curve.kind == "circle" and curve.inside == 1
    dist = np.linalg.norm(X - curve.center, axis=1)
    assert (dist[y > 0] < curve.radius).all() and (dist[y < 0] > curve.radius).all()


def test_rbf_perceptron_separates_xor():
    # Distinct points have a positive definite RBF Gram matrix, so every labelling is separable.
    X, y = xor()
    run = fit_kernel_perceptron(X, y, kernel="rbf", kernel_params={"width": 0.5})
    assert run.converged and (run.predict(X) == y).all()
    lin = fit_kernel_perceptron(X, y, kernel="linear", max_epochs=25)
    assert not lin.converged and lin.epochs == 25


def test_dual_run_hand_worked():
    # Update 0 (score 0): alpha = (1, 0), b = 1. Point 1 scores <x0,x1> + 1 = 0: update,
    # alpha = (1, 1),
    # b = 0, so w = x0 - x1 = (2, 0). Epoch 2 finds margins 2 and 2: converged.
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1])
    run = fit_kernel_perceptron(X, y, kernel="linear")
    assert run.updates.tolist() == [0, 1] and run.alpha.tolist() == [1, 1] and run.b == 0.0
    assert run.converged and run.epochs == 2 and run.mistakes == 2
    assert run.decision_function([[3.0, 5.0]]).tolist() == [6.0]  # <(2, 0), (3, 5)> + 0
    cubic = fit_kernel_perceptron(X, y, kernel=lambda P, Q: polynomial_kernel(P, Q, degree=3))
    assert cubic.converged and (cubic.predict(X) == y).all()
    assert cubic.kernel_params == {}


def test_dual_run_is_frozen_and_inputs_untouched():
    X, y = integer_ring_data(0)
    X0 = X.copy()
    run = fit_kernel_perceptron(X, y)
    assert (X == X0).all()
    with pytest.raises(ValueError):
        run.alpha[0] = 3
    with pytest.raises(ValueError):
        run.X_train[0, 0] = 3.0
    with pytest.raises(AttributeError):
        run.b = 1.0


# --- circle_from_plane ------------------------------------------------------------------------


def test_circle_from_plane_hand_worked():
    # (x - 1)^2 + (y + 2)^2 = 4  <=>  x^2 + y^2 - 2x + 4y + 1 = 0.
    c = circle_from_plane([-2, 4, 1], 1)
    assert c.kind == "circle" and c.center.tolist() == [1.0, -2.0] and c.radius == 2.0
    assert c.inside == -1  # w3 > 0: the score is negative inside
    neg = circle_from_plane([2, -4, -1], -1)  # the same circle with the sides swapped
    assert neg.kind == "circle" and neg.radius == 2.0 and neg.inside == 1
    t = np.linspace(0, 2 * np.pi, 17)
    pts = c.center + c.radius * np.column_stack([np.cos(t), np.sin(t)])
    np.testing.assert_allclose(lift(pts) @ [-2, 4, 1] + 1, 0, atol=1e-12)
    assert np.sign(lift(c.center[None, :]) @ [2, -4, -1] - 1)[0] == neg.inside


# Coefficients are 0 or of size 1e-3..5: a w3 near 1e-300 puts the centre beyond float range.
coef = st.one_of(st.just(0.0), st.floats(1e-3, 5), st.floats(-5, -1e-3))


@given(w=arrays(np.float64, 3, elements=coef), b=coef)
@FAST
def test_points_on_the_returned_curve_satisfy_the_equation(w, b):
    if not w.any():
        with pytest.raises(ValueError, match="w must not be zero"):
            circle_from_plane(w, b)
        return
    c = circle_from_plane(w, b)
    t = np.linspace(0, 2 * np.pi, 9)
    if c.kind == "line":
        p, q, r = c.line
        base = -r * np.array([p, q]) / (p * p + q * q)
        pts = base + np.outer(t - 3, [-q, p])
    elif c.kind in ("circle", "point"):
        pts = c.center + c.radius * np.column_stack([np.cos(t), np.sin(t)])
    else:
        # "empty": the score has the sign of w3 everywhere; try the centre, nearest to 0.
        assert c.kind == "empty" and np.sign(lift(c.center[None, :]) @ w + b)[0] == np.sign(w[2])
        return
    scale = 1 + np.abs(lift(pts)).max() * np.abs(w).max() + abs(b)
    np.testing.assert_allclose(lift(pts) @ w + b, 0, atol=1e-9 * scale)


def test_circle_from_plane_degenerate_cases():
    assert circle_from_plane([0, 0, 1], 1).kind == "empty"
    p = circle_from_plane([0, 0, 1], 0)
    assert p.kind == "point" and p.radius == 0.0 and p.center.tolist() == [0.0, 0.0]
    line = circle_from_plane([1, 2, 0], 3)
    assert line.kind == "line" and line.line.tolist() == [1, 2, 3] and line.center is None


# --- validation --------------------------------------------------------------------------------


def test_bad_inputs_raise_clear_errors():
    X, y = xor()
    with pytest.raises(
        ValueError, match="kernel must be one of 'linear', 'lift', 'polynomial', 'rbf'"
    ):
        fit_kernel_perceptron(X, y, kernel="sigmoid")
    with pytest.raises(TypeError, match="kernel must be a name or a callable"):
        fit_kernel_perceptron(X, y, kernel=3)
    with pytest.raises(ValueError, match=r"kernel must return a Gram matrix of shape .*\(4, 4\)"):
        fit_kernel_perceptron(X, y, kernel=lambda P, Q: np.ones(3))
    with pytest.raises(ValueError, match="P and Q must have the same number of features"):
        lift_kernel([[1, 2]], [[1, 2, 3]])
    with pytest.raises(ValueError, match="width must be > 0"):
        rbf_kernel(X, X, width=0)
    with pytest.raises(ValueError, match="degree must be a whole number >= 1"):
        polynomial_kernel(X, X, degree=0)
    with pytest.raises(ValueError, match=r"X must have 2 columns .*got shape \(1, 3\)"):
        quadratic_lift([[1, 2, 3]])
    with pytest.raises(ValueError, match="max_epochs must be a whole number >= 1"):
        fit_kernel_perceptron(X, y, max_epochs=0)
    with pytest.raises(ValueError, match="eta must be a finite number > 0"):
        fit_kernel_perceptron(X, y, eta=-1)
    with pytest.raises(TypeError, match="kernel_params must be a dict"):
        fit_kernel_perceptron(X, y, kernel="rbf", kernel_params=[0.5])
    with pytest.raises(ValueError, match="X must have 2 features like the training data"):
        fit_kernel_perceptron(X, y).predict([[1, 2, 3]])
    with pytest.raises(ValueError, match=r"w must have the weights \(w1, w2, w3\) .*shape \(3,\)"):
        circle_from_plane([1, 2], 0)


def test_circle_beyond_float_range_is_refused():
    with pytest.raises(ValueError, match="overflows"):
        circle_from_plane([1.0, 1.0, 1e-310], 0.0)


# --- explicit polynomial lift against the kernel, and the cost table ------------------------------


@FAST
@given(point_sets())
def test_polynomial_lift_is_the_feature_map_of_the_degree_2_kernel(PQ):
    P, Q = PQ
    FP, FQ = polynomial_lift(P), polynomial_lift(Q)
    assert FP.shape == (len(P), n_polynomial_features(P.shape[1]))
    np.testing.assert_allclose(FP @ FQ.T, polynomial_kernel(P, Q, degree=2, c=1.0), rtol=1e-10, atol=1e-8)


def test_n_polynomial_features_counts_monomials():
    assert [n_polynomial_features(d) for d in (1, 2, 3, 10, 1000)] == [3, 6, 10, 66, 501501]
    assert n_polynomial_features(2, degree=3) == 10  # 1, x, y, x^2, xy, y^2, x^3, x^2y, xy^2, y^3
    with pytest.raises(ValueError, match="d must be a whole number >= 1"):
        n_polynomial_features(0)


def test_gram_costs_rows_agree_and_are_positive():
    rows = gram_costs((2, 7), n=15, seed=np.random.default_rng(1), repeat=2)
    assert [(r.d, r.features) for r in rows] == [(2, 6), (7, 36)]
    for r in rows:
        assert r.explicit_s > 0 and r.kernel_s > 0 and r.ratio > 0
        assert r.max_rel_diff < 1e-12
    with pytest.raises(ValueError, match="repeat must be a whole number >= 1"):
        gram_costs((2,), repeat=0)
