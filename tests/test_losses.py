"""Losses, subgradients and loss surfaces against hand-worked values and convex-analysis facts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from perceptron_lib.core.loss_surfaces import kink_lines, loss_surface, param_grid
from perceptron_lib.core.losses import (
    hinge_loss,
    loss_of_margin,
    margins,
    perceptron_loss,
    signed_distance,
    slope_of_margin,
    zero_one_loss,
)
from perceptron_lib.core.perceptron import step
from perceptron_lib.core.subgradients import perceptron_subgradient

LOSS_FNS = {"zero_one": zero_one_loss, "perceptron": perceptron_loss, "hinge": hinge_loss}
FAST = settings(max_examples=60, deadline=None)

# Hand-worked data: scores of w = (1, -1), b = 1 are 1-0+1 = 2, 0-2+1 = -1, 2-3+1 = 0, -1-1+1 = -1.
HX = np.array([[1, 0], [0, 2], [2, 3], [-1, 1]])
HY = np.array([1, 1, -1, -1])
HW, HB = np.array([1, -1]), 1


def small_int_data(draw, n_max=6, d_max=3):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    X = draw(arrays(np.int64, (n, d), elements=st.integers(-4, 4)))
    y = draw(arrays(np.int64, (n,), elements=st.sampled_from([-1, 1])))
    return X, y


@st.composite
def int_data(draw):
    return small_int_data(draw)


@st.composite
def data_and_params(draw, count=2):
    X, y = small_int_data(draw)
    d = X.shape[1]
    ps = [draw(arrays(np.float64, (d + 1,), elements=st.floats(-3, 3))) for _ in range(count)]
    return X, y, ps


# --- hand-worked -------------------------------------------------------------------------------


def test_margins_hand_worked():
    assert margins(HW, HB, HX, HY).tolist() == [2.0, -1.0, 0.0, 1.0]


def test_losses_hand_worked():
    # margins 2, -1, 0, 1
    assert zero_one_loss(HW, HB, HX, HY, reduction="sum") == 2.0  # -1 and the boundary point 0
    assert zero_one_loss(HW, HB, HX, HY) == 0.5
    assert perceptron_loss(HW, HB, HX, HY, reduction="sum") == 1.0
    assert perceptron_loss(HW, HB, HX, HY) == 0.25
    assert hinge_loss(HW, HB, HX, HY, reduction="sum") == 0 + 2 + 1 + 0
    assert hinge_loss(HW, HB, HX, HY) == 0.75


def test_signed_distance_hand_worked():
    # Line 3x + 4y - 5 = 0 is at distance 1 from the origin, on the negative side.
    np.testing.assert_allclose(signed_distance([3, 4], -5, [[0, 0], [3, 4], [1, 0.5]]), [-1, 4, 0])


def test_losses_at_origin():
    X, y = np.random.default_rng(0).normal(size=(20, 3)), np.where(np.arange(20) % 3, 1, -1)
    assert perceptron_loss(np.zeros(3), 0, X, y) == 0.0
    assert zero_one_loss(np.zeros(3), 0, X, y) == 1.0  # every point is on the boundary
    assert hinge_loss(np.zeros(3), 0, X, y) == 1.0


def test_loss_of_margin_and_slope_hand_worked():
    m = np.array([-2.0, -0.5, 0.0, 0.5, 1.0, 3.0])
    assert loss_of_margin(m, loss="zero_one").tolist() == [1, 1, 1, 0, 0, 0]
    assert loss_of_margin(m, loss="perceptron").tolist() == [2, 0.5, 0, 0, 0, 0]
    assert loss_of_margin(m, loss="hinge").tolist() == [3, 1.5, 1, 0.5, 0, 0]
    assert slope_of_margin(m, loss="perceptron", at_kink=0.25).tolist() == [-1, -1, -0.25, 0, 0, 0]
    assert slope_of_margin(m, loss="hinge", at_kink=0.25).tolist() == [-1, -1, -1, -1, -0.25, 0]
    s = slope_of_margin(m, loss="zero_one")
    assert np.isnan(s[2]) and (np.delete(s, 2) == 0).all()
    assert loss_of_margin(-1.5, loss="perceptron") == 1.5 and isinstance(
        loss_of_margin(-1.5, loss="perceptron"), float
    )
    assert loss_of_margin([[0.0, 2.0]], loss="hinge").shape == (1, 2)


def test_slope_is_finite_difference_of_loss_away_from_kinks():
    m = np.array([-3.1, -0.7, 0.4, 0.8, 1.6, 5.0])
    h = 1e-6
    for loss in ("zero_one", "perceptron", "hinge"):
        fd = (loss_of_margin(m + h, loss=loss) - loss_of_margin(m - h, loss=loss)) / (2 * h)
        np.testing.assert_allclose(slope_of_margin(m, loss=loss), fd, atol=1e-6)


def test_zero_one_loss_is_not_convex():
    # Points x = 1 and x = -1, both y = +1, b = 0: w = 1 and w = -1 each get one wrong (loss 1/2),
    # their midpoint w = 0 gets both wrong (loss 1 > 1/2).
    X, y = [[1], [-1]], [1, 1]
    mid = zero_one_loss([0], 0, X, y)
    assert mid > 0.5 * zero_one_loss([1], 0, X, y) + 0.5 * zero_one_loss([-1], 0, X, y)


def test_subgradient_hand_worked():
    g = perceptron_subgradient(HW, HB, HX, HY, at_kink=0.5, reduction="sum")
    assert g.cases.tolist() == ["correct", "mistake", "boundary", "correct"]
    # mistake (0,2), y=+1: (-0, -2, -1); boundary (2,3), y=-1, half of (2, 3, 1).
    np.testing.assert_array_equal(
        g.contributions, [[0, 0, 0], [0, -2, -1], [1, 1.5, 0.5], [0, 0, 0]]
    )
    assert g.gw.tolist() == [1.0, -0.5] and g.gb == -0.5
    assert g.vector.tolist() == [1.0, -0.5, -0.5]
    gm = perceptron_subgradient(HW, HB, HX, HY, at_kink=0.5)
    np.testing.assert_allclose(gm.vector, g.vector / 4)


def test_subgradient_kink_choices_from_the_texts():
    # From w = 0, b = 0 every point is on the boundary: theta = 0 gives a zero subgradient.
    g0 = perceptron_subgradient([0, 0], 0, HX, HY, at_kink=0.0)
    assert (g0.cases == "boundary").all() and not g0.vector.any()
    g1 = perceptron_subgradient([0, 0], 0, HX, HY, at_kink=1.0, reduction="sum")
    np.testing.assert_array_equal(g1.vector, -np.append(HY @ HX, HY.sum()))


def test_the_kink_is_the_mistake_tests_zero():
    # 0.1 + 0.2 - 0.3 is 5.6e-17 in floats, 0 in exact arithmetic: on the kink, as for `step`.
    X, y = [[1.0, 1.0], [1.0, 1.0]], [1, -1]
    g = perceptron_subgradient([0.1, 0.2], -0.3, X, y, at_kink=1.0, reduction="sum")
    assert g.cases.tolist() == ["boundary", "boundary"]
    assert [step([0.1, 0.2], -0.3, np.array(x), t, update_on="negative")[2] for x, t in zip(X, y, strict=True)] == [
        False, False]
    # A real margin of -1e-12 (the size of its terms is 1e-12) is no rounding: the wrong side.
    assert perceptron_subgradient([0.0], 1e-12, [[1.0]], [-1]).cases.tolist() == ["mistake"]
    with pytest.raises(ValueError, match="atol must be 0 .* the same zero as the perceptron's mistake test"):
        perceptron_subgradient([0.0], 1e-12, [[1.0]], [-1], atol=1e-9)
    assert perceptron_subgradient([0.0], 1e-12, [[1.0]], [-1], atol=0).cases.tolist() == ["mistake"]


def test_theta_outside_unit_interval_is_not_a_subgradient():
    # f(w, b) = max(0, -(w + b)) for x = 1, y = +1; at (0, 0) theta = 1.5 would give
    # g = (-1.5, -1.5),
    # and at v = (-1, 0): f(v) = 1 < f(0) + g.v = 1.5, so it is no subgradient: the check must
    # refuse it.
    f_v = perceptron_loss([-1], 0, [[1]], [1])
    assert f_v < 0 + np.dot([-1.5, -1.5], [-1, 0])
    with pytest.raises(ValueError, match=r"at_kink must lie in \[0, 1\].*got 1.5"):
        perceptron_subgradient([0], 0, [[1]], [1], at_kink=1.5)


def test_subgradient_result_is_frozen():
    g = perceptron_subgradient(HW, HB, HX, HY)
    with pytest.raises(ValueError):
        g.gw[0] = 5.0
    with pytest.raises(AttributeError):
        g.gb = 1.0


# --- convex analysis on random data ------------------------------------------------------------


@FAST
@given(
    data_and_params(),
    st.floats(0, 1),
    st.sampled_from(["perceptron", "hinge"]),
    st.sampled_from(["mean", "sum"]),
)
def test_convexity(dp, t, loss, reduction):
    X, y, (p, q) = dp
    f = LOSS_FNS[loss]

    def L(v):
        return f(v[:-1], v[-1], X, y, reduction=reduction)

    lhs = L(t * p + (1 - t) * q)
    assert lhs <= t * L(p) + (1 - t) * L(q) + 1e-9 * (1 + abs(lhs))


@FAST
@given(data_and_params(count=1), st.floats(0, 10))
def test_positive_homogeneity(dp, c):
    X, y, (p,) = dp
    lhs = perceptron_loss(c * p[:-1], c * p[-1], X, y)
    assert lhs == pytest.approx(c * perceptron_loss(p[:-1], p[-1], X, y), rel=1e-12, abs=1e-12)


@st.composite
def point_with_kinks(draw):
    """Integer data and an integer (w, b) that puts some example exactly on the boundary."""
    X, y = small_int_data(draw)
    d = X.shape[1]
    w = draw(arrays(np.int64, (d,), elements=st.integers(-3, 3)))
    k = draw(st.integers(0, X.shape[0] - 1))
    b = -int(X[k] @ w)  # example k has score exactly 0
    v = draw(arrays(np.float64, (d + 1,), elements=st.floats(-4, 4)))
    return X, y, w, b, v


@FAST
@given(point_with_kinks(), st.floats(0, 1), st.sampled_from(["mean", "sum"]))
def test_subgradient_inequality(case, theta, reduction):
    X, y, w, b, v = case
    g = perceptron_subgradient(w, b, X, y, at_kink=theta, reduction=reduction)
    assert (g.cases == "boundary").any()
    f_u = perceptron_loss(w, b, X, y, reduction=reduction)
    f_v = perceptron_loss(v[:-1], v[-1], X, y, reduction=reduction)
    u = np.append(w, b).astype(float)
    assert f_v >= f_u + g.vector @ (v - u) - 1e-9 * (1 + abs(f_v))


@FAST
@given(point_with_kinks())
def test_contributions_add_up(case):
    X, y, w, b, _ = case
    g = perceptron_subgradient(w, b, X, y, at_kink=0.3, reduction="sum")
    np.testing.assert_allclose(g.contributions.sum(axis=0), g.vector)
    m = y * (X @ w + b)
    assert ((g.cases == "boundary") == (m == 0)).all() and ((g.cases == "mistake") == (m < 0)).all()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("loss", ["perceptron", "hinge"])
def test_gradient_equals_finite_difference_away_from_kinks(seed, loss):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(30, 4)), np.where(rng.random(30) < 0.5, -1, 1)
    w, b = rng.normal(size=4), float(rng.normal())
    kink = 0.0 if loss == "perceptron" else 1.0
    assert np.abs(y * (X @ w + b) - kink).min() > 1e-3
    f = LOSS_FNS[loss]
    h = 1e-7
    p = np.append(w, b)
    fd = np.array(
        [
            (
                f((p + h * e)[:-1], (p + h * e)[-1], X, y)
                - f((p - h * e)[:-1], (p - h * e)[-1], X, y)
            )
            / (2 * h)
            for e in np.eye(5)
        ]
    )
    if loss == "perceptron":
        np.testing.assert_allclose(perceptron_subgradient(w, b, X, y).vector, fd, atol=1e-6)
    else:
        # The hinge gradient from the 1-D slope and the chain rule:
        # dL/dp = mean of slope(m_i) * y_i (x_i, 1).
        slopes = slope_of_margin(y * (X @ w + b), loss="hinge")
        np.testing.assert_allclose(
            (slopes * y) @ np.hstack([X, np.ones((30, 1))]) / 30, fd, atol=1e-6
        )


# --- surfaces ------------------------------------------------------------------------------


@pytest.mark.parametrize("loss", ["zero_one", "perceptron", "hinge"])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_surface_equals_pointwise_loop(loss, reduction):
    rng = np.random.default_rng(1)
    X, y = rng.integers(-3, 4, size=(7, 2)), np.where(rng.random(7) < 0.5, -1, 1)
    A, B, params = param_grid([0.5, -0.5, 0.25], axes=(0, 2), span=(2.0, 1.5), num=9)
    Z = loss_surface(X, y, params, loss=loss, reduction=reduction)
    assert Z.shape == (9, 9) and (params[..., 0] == A).all() and (params[..., 2] == B).all()
    f = LOSS_FNS[loss]
    for r in range(9):
        for c in range(9):
            p = params[r, c]
            assert Z[r, c] == pytest.approx(f(p[:2], p[2], X, y, reduction=reduction), abs=1e-12)


def test_surface_blocks_give_the_same_answer(monkeypatch):
    import perceptron_lib.core.loss_surfaces as L

    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(13, 3)), np.where(rng.random(13) < 0.5, -1, 1)
    P = rng.normal(size=(5, 7, 4))
    whole = loss_surface(X, y, P)
    monkeypatch.setattr(L, "_SURFACE_BLOCK", 13 * 3)  # 3 grid points per block, uneven last block
    np.testing.assert_allclose(loss_surface(X, y, P), whole, rtol=1e-14)


def test_surface_of_a_large_grid():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(50, 2)), np.where(rng.random(50) < 0.5, -1, 1)
    _, _, params = param_grid([0, 0, 0], span=3, num=200)
    Z = loss_surface(X, y, params)
    assert Z.shape == (200, 200)
    assert Z[100, 100] == pytest.approx(
        perceptron_loss(params[100, 100, :2], params[100, 100, 2], X, y)
    )


def test_param_grid_layout():
    A, B, params = param_grid([1.0, 2.0, 3.0, 4.0], axes=(3, 1), span=1.0, num=5)
    assert A.shape == B.shape == (5, 5) and params.shape == (5, 5, 4)
    np.testing.assert_array_equal(params[..., 3], A)
    np.testing.assert_array_equal(params[..., 1], B)
    assert (params[..., 0] == 1.0).all() and (params[..., 2] == 3.0).all()
    assert A[0].tolist() == [3.0, 3.5, 4.0, 4.5, 5.0]  # "xy" layout: A varies along columns
    assert B[:, 0].tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]


def test_kink_lines_are_where_scores_vanish():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(6, 3))
    center = rng.normal(size=4)
    lines = kink_lines(X, center=center, axes=(1, 3))  # vary w_2 and b
    for i, (p, q, r) in enumerate(lines):
        s = np.linspace(-2, 2, 5)
        t = -(p * s + r) / q
        params = np.tile(center, (5, 1))
        params[:, 1], params[:, 3] = s, t
        np.testing.assert_allclose(params[:, :3] @ X[i] + params[:, 3], 0, atol=1e-10)


def test_kink_lines_hand_worked_and_loss_is_linear_between_them():
    # Homogeneous slice (b fixed at 0): the kink of x_i is the line through 0 orthogonal to x_i.
    X, y = np.array([[1, 0], [0, 1]]), np.array([1, -1])
    assert kink_lines(X).tolist() == [[1, 0, 0], [0, 1, 0]]
    # In the quadrant w1 < 0, w2 > 0 both points err (margins w1 and -w2): loss (-w1 + w2) / 2.
    A, B, params = param_grid([-2, 2, 0], span=1.0, num=5)
    np.testing.assert_allclose(loss_surface(X, y, params), (-A + B) / 2)


# --- validation --------------------------------------------------------------------------------


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(
        ValueError, match=r"w must have one entry per feature of X, shape \(2,\); got shape \(3,\)"
    ):
        margins([1, 2, 3], 0, HX, HY)
    with pytest.raises(TypeError, match="b must be a real number"):
        perceptron_loss(HW, "1", HX, HY)
    with pytest.raises(ValueError, match="reduction must be one of 'mean', 'sum'; got 'avg'"):
        hinge_loss(HW, HB, HX, HY, reduction="avg")
    with pytest.raises(ValueError, match="loss must be one of"):
        loss_of_margin(1.0, loss="logistic")
    with pytest.raises(ValueError, match="w must not be the zero vector"):
        signed_distance([0, 0], 1, HX)
    with pytest.raises(
        ValueError, match=r"params must have shape \(\.\.\., d \+ 1\) = \(\.\.\., 3\)"
    ):
        loss_surface(HX, HY, np.zeros((4, 2)))
    with pytest.raises(ValueError, match="atol must be 0"):
        perceptron_subgradient(HW, HB, HX, HY, atol=-1)
    with pytest.raises(ValueError, match="axes must be two different indices"):
        param_grid([0, 0, 0], axes=(1, 1))
    with pytest.raises(ValueError, match="axes must be two different indices"):
        kink_lines(HX, axes=(0, 3))
    with pytest.raises(ValueError, match="span must be a number > 0"):
        param_grid([0, 0, 0], span=0)
    with pytest.raises(ValueError, match="num must be a whole number >= 2"):
        param_grid([0, 0, 0], num=1)
    with pytest.raises(ValueError, match=r"y must hold labels in \{-1, \+1\}"):
        margins(HW, HB, HX, [0, 1, 0, 1])


def test_inputs_are_not_modified_and_lists_are_accepted():
    X, y, w = HX.copy(), HY.copy(), HW.copy()
    perceptron_subgradient(w, HB, X, y, at_kink=1)
    loss_surface(X, y, np.zeros((2, 3)))
    assert (X == HX).all() and (y == HY).all() and (w == HW).all()
    assert margins(HW.tolist(), HB, HX.tolist(), HY.tolist()).tolist() == [2.0, -1.0, 0.0, 1.0]


# --- loss along a run -----------------------------------------------------------------------------


def test_loss_along_run_matches_pointwise_losses():
    from perceptron_lib import fit_batch, fit_perceptron
    from perceptron_lib.core import data
    from perceptron_lib.core.loss_surfaces import loss_along_run

    X, y = data.no_origin_separator()
    run = fit_perceptron(X, y, max_epochs=3)
    for loss, fn in LOSS_FNS.items():
        for reduction in ("mean", "sum"):
            got = loss_along_run(run, X, y, loss=loss, reduction=reduction)
            want = [fn(w, b, X, y, reduction=reduction) for w, b in zip(run.history.w, run.history.b, strict=True)]
            assert got.shape == (len(run.history),)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    # a History works as well as a Run; the start from (0, 0) has perceptron loss 0
    batch = fit_batch(X, y, max_iter=4)
    v = loss_along_run(batch.history, X, y)
    assert v[0] == 0.0 and len(v) == len(batch.history)


def test_loss_along_run_rejects_non_runs():
    from perceptron_lib.core.loss_surfaces import loss_along_run

    with pytest.raises(TypeError, match="must be a Run"):
        loss_along_run([1, 2], HX, HY)
    with pytest.raises(ValueError, match="reduction"):
        from perceptron_lib import fit_perceptron

        loss_along_run(fit_perceptron(HX, HY, max_epochs=2), HX, HY, reduction="max")
