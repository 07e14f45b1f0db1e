"""Lesson 06's statements, each checked against a computation that does not use the library's fits.

The margin perceptron and the perceptron are plain loops here; the maximum margin comes from
scikit-learn's SVC (with offset) or scipy's SLSQP (through the origin).
"""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC

from perceptron_lib.core import data
from perceptron_lib.core.averaged import fit_averaged, pocket
from perceptron_lib.core.bounds import hinge_mistake_bound

SIX_X = np.array([[-0.38, 0.782], [0.331, 0.448], [-0.132, 0.112], [0.492, -0.922], [0.686, 0.442], [-0.913, 0.394]])
SIX_Y = np.array([1.0, -1.0, -1.0, -1.0, -1.0, 1.0])


def plain_margin_perceptron(X, y, eta, *, offset=True, threshold=1.0, max_epochs=200_000):
    """Cyclic order from 0; update when y(<w,x>+b) <= threshold. Returns w, b, updates."""
    w, b, updates = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(max_epochs):
        changed = False
        for x, t in zip(X, y, strict=True):
            if t * (x @ w + b) <= threshold:
                w = w + eta * t * x
                b = b + eta * t if offset else b
                updates += 1
                changed = True
        if not changed:
            return w, b, updates
    raise AssertionError("did not settle")


def margin(w, b, X, y):
    return float(np.min(y * (X @ w + b)) / np.linalg.norm(w))


def svc_max_margin(X, y):
    svc = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    return margin(svc.coef_[0], svc.intercept_[0], X, y)


def origin_max_margin(X, y):
    res = minimize(lambda w: w @ w, np.ones(X.shape[1]), jac=lambda w: 2 * w, method="SLSQP",
                   constraints={"type": "ineq", "fun": lambda w: y * (X @ w) - 1, "jac": lambda w: y[:, None] * X},
                   options={"ftol": 1e-14, "maxiter": 500})
    return 1.0 / np.linalg.norm(res.x)


@pytest.fixture(scope="module")
def lesson_data():
    X, y = data.separable(40, margin=0.15, seed=0)
    return X, y, svc_max_margin(X, y)


def test_eta_scan_is_not_monotone(lesson_data):
    X, y, g = lesson_data
    share = {eta: margin(*plain_margin_perceptron(X, y, eta)[:2], X, y) / g for eta in (0.3, 0.316, 0.1, 0.0398)}
    assert share[0.3] == pytest.approx(0.993, abs=5e-4) and share[0.316] == pytest.approx(0.964, abs=5e-4)
    assert share[0.1] == pytest.approx(0.991, abs=5e-4) and share[0.0398] == pytest.approx(0.963, abs=5e-4)
    assert share[0.316] < share[0.3] and share[0.0398] < share[0.1]  # a smaller step is not always better


def test_updates_grow_like_one_over_eta(lesson_data):
    X, y, _ = lesson_data
    Xa = np.c_[np.ones(len(y)), X]  # the points (1, x): the bound's radius and margin
    Ra, ga = np.max(np.linalg.norm(Xa, axis=1)), origin_max_margin(Xa, y)
    counts = {eta: plain_margin_perceptron(X, y, eta)[2] for eta in (0.1, 0.01, 0.001)}
    assert counts == {0.1: 289, 0.01: 3001, 0.001: 29816}
    for eta, k in counts.items():
        assert k <= (2 / eta + Ra**2) / ga**2
        assert 25 < k * eta < 35  # about 30/eta: k grows like 1/eta, not 1/eta^2


@pytest.mark.parametrize("seed", range(12))
def test_margin_perceptron_guarantee_on_random_data(seed):
    g = np.random.default_rng(seed)
    u = g.normal(size=3)
    u /= np.linalg.norm(u)
    X = g.uniform(-1, 1, size=(300, 3))
    X = X[np.abs(X @ u) >= 0.08][:25]
    y = np.where(X @ u > 0, 1.0, -1.0)
    gamma, R = origin_max_margin(X, y), np.max(np.linalg.norm(X, axis=1))
    for eta in (2.0, 0.5, 0.05):
        w, _, k = plain_margin_perceptron(X, y, eta, offset=False)
        assert k <= (2 / eta + R**2) / gamma**2
        assert margin(w, 0.0, X, y) >= gamma / (2 + eta * R**2) * (1 - 1e-9)


def test_six_points_stall_below_the_maximum_margin():
    g = svc_max_margin(SIX_X, SIX_Y)
    shares = [margin(*plain_margin_perceptron(SIX_X, SIX_Y, eta)[:2], SIX_X, SIX_Y) / g for eta in (0.01, 0.001)]
    assert shares == pytest.approx([0.928, 0.930], abs=1e-3)


def noisy_blobs(n, seed):
    X, y = data.blobs(n, separation=2.0, spread=1.0, seed=seed)
    return np.round(X * 16) / 16, y


def plain_states(X, y, epochs):
    """The state after each example of a cyclic perceptron run (test <= 0, eta = 1, with offset)."""
    w, b, after = np.zeros(X.shape[1]), 0.0, []
    for _ in range(epochs):
        for x, t in zip(X, y, strict=True):
            if t * (x @ w + b) <= 0:
                w, b = w + t * x, b + t
            after.append(np.append(w, b))
    return np.array(after)


@pytest.mark.parametrize(("seed", "averaged", "pocket_errors"), [(31, 19, 20), (48, 21, 22), (52, 17, 18)])
def test_averaged_line_can_beat_the_pocket(seed, averaged, pocket_errors):
    X, y = noisy_blobs(160, seed)
    after = plain_states(X, y, 10)
    Xa = np.c_[X, np.ones(len(y))]
    errors = lambda v: int(np.sum(y * (Xa @ v) <= 0))  # noqa: E731
    states = np.vstack([np.zeros(3), after])
    assert errors(after.mean(axis=0)) == averaged
    assert min(errors(s) for s in states) == pocket_errors
    ar = fit_averaged(X, y, epochs=10)
    assert pocket(ar.run, X, y).errors == pocket_errors


def test_four_of_two_hundred_sets_flip_no_label():
    assert sum(not (np.random.default_rng(s).random(40) < 0.1).any() for s in range(200)) == 4


@pytest.mark.parametrize("seed", range(10))
def test_augmentation_argument_step_by_step(seed):
    X, y, u, _ = data.separable(30, margin=0.1, seed=seed, return_separator=True)
    y = np.where(np.random.default_rng(seed).random(30) < 0.15, -y, y)
    gamma, passes = 0.3, 2
    Xs, ys = np.tile(X, (passes, 1)), np.tile(y, passes)
    xi = np.maximum(0, gamma - ys * (Xs @ u))
    R, D = np.max(np.linalg.norm(Xs, axis=1)), np.sqrt(np.sum(xi**2))
    delta = np.sqrt(R * D)
    Xaug = np.hstack([Xs, delta * np.eye(len(ys))])
    w, wa, m, ma = np.zeros(2), np.zeros(2 + len(ys)), 0, 0
    for t in range(len(ys)):  # the two runs side by side, one occurrence at a time
        if ys[t] * (Xs[t] @ w) <= 0:
            w, m = w + ys[t] * Xs[t], m + 1
        if ys[t] * (Xaug[t] @ wa) <= 0:
            wa, ma = wa + ys[t] * Xaug[t], ma + 1
        assert np.array_equal(w, wa[:2])
    Z = np.sqrt(1 + D**2 / delta**2)
    ua = np.r_[u, ys * xi / delta] / Z
    assert np.linalg.norm(ua) == pytest.approx(1.0)
    assert np.min(ys * (Xaug @ ua)) >= gamma / Z - 1e-12
    novikoff = (R**2 + delta**2) / (gamma / Z) ** 2
    assert novikoff == pytest.approx(((R + D) / gamma) ** 2)
    assert m == ma <= novikoff
    hb = hinge_mistake_bound(X, y, u=u, gamma=gamma, passes=passes)
    assert hb.bound == pytest.approx(novikoff)
    L = np.sum(xi) / gamma
    assert m - L <= R / gamma * np.sqrt(m) + 1e-9
    assert hb.bound_linear == pytest.approx(L + R / gamma * np.sqrt(L) + (R / gamma) ** 2)


def test_neither_hinge_bound_implies_the_other():
    hb = hinge_mistake_bound([[1.0, 0.0], [0.0, 1.0]], [1, 1], u=[1.0, 0.0], gamma=1.0)
    assert (hb.bound, hb.bound_linear) == (4.0, 3.0)  # the second is smaller here
    X, y, u, _ = data.separable(40, margin=0.1, seed=199, return_separator=True)
    y = np.where(np.random.default_rng(199).random(40) < 0.1, -y, y)
    X = np.round(X * 64) / 64
    hb = hinge_mistake_bound(X, y, u=u, gamma=1.5, passes=3)
    assert hb.bound < hb.bound_linear  # the first is smaller here
