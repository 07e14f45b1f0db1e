"""`core.contours` against facts that do not come from contourpy: a line's vertices lie where the function equals
its level (within what linear interpolation on the grid can miss), a band's vertices lie within its limits, and the
bands cover the box exactly once (their even-odd areas add up to the box's)."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.core import contours, data, loss_surfaces


def _ring_area(r) -> float:
    x, y = np.asarray(r, float).T
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _loss_at(X, y, P, b, loss):
    params = np.column_stack([P, np.full(len(P), b)])
    return loss_surfaces.loss_surface(X, y, params, loss=loss, reduction="mean")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("loss", ["perceptron", "hinge"])
def test_every_vertex_of_a_level_line_has_the_level_as_its_loss(seed, loss):
    X, y = data.separable(12, margin=0.1, bias=True, seed=seed)
    b = [0.0, -0.7, 1.3, 0.4][seed]
    a = np.linspace(-3, 3, 61)
    A, B = np.meshgrid(a, a)
    Z = _loss_at(X, y, np.column_stack([A.ravel(), B.ravel()]), b, loss).reshape(A.shape)
    levels = contours.loss_levels(Z, n=len(X), loss=loss, reduction="mean")
    # the loss is piecewise linear in w with slope at most mean |x_i| (a hinge of <w, x_i>): interpolating along a
    # grid edge of length h misses the level by at most that slope times h
    tol = float(np.mean(np.linalg.norm(X, axis=1))) * (a[1] - a[0]) + 1e-12
    found = 0
    for level, lines in zip(levels, contours.contour_lines(a, a, Z, levels), strict=True):
        for ln in lines:
            assert ln.shape[1] == 2
            err = np.abs(_loss_at(X, y, ln, b, loss) - level)
            assert err.max() <= tol, f"level {level}: a vertex's loss is {err.max()} off (tolerance {tol})"
            found += len(ln)
    assert found > 100


def test_circles_of_a_smooth_function_have_their_radius():
    a = np.linspace(-2, 2, 81)
    A, B = np.meshgrid(a, a)
    Z = A**2 + B**2
    h = a[1] - a[0]
    for r2, lines in zip([0.25, 1.0, 2.25], contours.contour_lines(a, a, Z, [0.25, 1.0, 2.25]), strict=True):
        assert len(lines) == 1 and np.allclose(lines[0][0], lines[0][-1])  # one closed ring
        assert np.abs(np.hypot(*lines[0].T) ** 2 - r2).max() <= h**2  # linear interpolation of a quadratic


@pytest.mark.parametrize("loss", ["perceptron", "zero_one"])
def test_bands_hold_their_values_and_cover_the_box_once(loss):
    X, y = data.separable(10, margin=0.1, bias=True, seed=3)
    a = np.linspace(-2.5, 2.5, 41)
    A, B = np.meshgrid(a, a)
    Z = _loss_at(X, y, np.column_stack([A.ravel(), B.ravel()]), 0.3, loss).reshape(A.shape)
    levels = contours.loss_levels(Z, n=len(X), loss=loss, reduction="mean")
    extend = "neither" if loss == "zero_one" else "max"
    lowers, uppers = contours.band_limits(levels, Z, extend=extend)
    bands = contours.filled_bands(a, a, Z, lowers, uppers)
    tol = float(np.mean(np.linalg.norm(X, axis=1))) * (a[1] - a[0]) + 1e-12
    total = 0.0
    for lo, hi, rings in zip(lowers, uppers, bands, strict=True):
        for r in rings:
            assert np.allclose(r[0], r[-1])
            if loss != "zero_one":  # the 0-1 loss jumps inside a cell: its bands follow the grid, not the loss
                v = _loss_at(X, y, r, 0.3, loss)
                assert v.min() >= lo - tol and v.max() <= hi + tol
        total += sum(_ring_area(r) for r in rings)
    assert total == pytest.approx((a[-1] - a[0]) ** 2, rel=1e-9)


def test_band_limits_follow_matplotlib_and_bad_input_is_named():
    lo, hi = contours.band_limits([0.0, 1e-12, 1.0], np.array([[0.0, 2.0]]), extend="max")
    assert lo.tolist() == [-1.0, 1e-12, 1.0] and hi.tolist() == [1e-12, 1.0, contours.EXTEND_TOP]
    lo, _ = contours.band_limits([0.0, 1.0], np.array([[0.5, 2.0]]))
    assert lo.tolist() == [0.0]  # the grid's least value is not the lowest level: the band stays open below
    with pytest.raises(ValueError, match="extend"):
        contours.band_limits([0.0, 1.0], np.zeros((2, 2)), extend="both")
    with pytest.raises(ValueError, match="increasing"):
        contours.band_limits([1.0, 0.0], np.zeros((2, 2)))
    with pytest.raises(ValueError, match="shape"):
        contours.contour_lines(np.arange(3.0), np.arange(4.0), np.zeros((3, 4)), [0.5])
    with pytest.raises(ValueError, match="finite"):
        contours.contour_lines(np.arange(2.0), np.arange(2.0), np.array([[0.0, np.nan], [1.0, 2.0]]), [0.5])
