"""Contour lines and filled bands of a function sampled on a grid, as numbers, for a front end that draws them.

The same computation matplotlib's ``contour`` and ``contourf`` make (they call `contourpy`, with the algorithm
``mpl2014`` and corner masking by default): `contour_lines` gives each level's lines, `filled_bands` the regions
between consecutive levels, with matplotlib's conventions (a band holds ``lower < z <= upper``; the lowest band also
holds z equal to its lower level when that is the grid's least value; ``extend="max"`` adds a band over the top
level). Pure: no drawing, only arrays.
"""

from __future__ import annotations

import contourpy
import numpy as np

__all__ = ["contour_lines", "filled_bands", "band_limits", "loss_levels", "EXTEND_TOP"]

#: The upper limit matplotlib gives the band over the top level (``extend="max"``).
EXTEND_TOP = 1e250


def _generator(x, y, Z):
    x, y, Z = (np.asarray(v, dtype=float) for v in (x, y, Z))
    if x.ndim != 1 or y.ndim != 1 or Z.shape != (len(y), len(x)):
        raise ValueError(f"Z must have shape (len(y), len(x)) for 1-D x and y; got x {x.shape}, y {y.shape}, "
                         f"Z {Z.shape}.")
    if not np.all(np.isfinite(Z)):
        raise ValueError("Z must be finite everywhere on the grid; got NaN or infinity.")
    return contourpy.contour_generator(x, y, Z, name="mpl2014", corner_mask=True,
                                       line_type=contourpy.LineType.SeparateCode,
                                       fill_type=contourpy.FillType.OuterCode)


def _rings(points, codes) -> list:
    """Split one path (vertices and matplotlib path codes: 1 move, 2 line, 79 close) into its rings."""
    starts = np.flatnonzero(np.asarray(codes) == 1)
    ends = np.append(starts[1:], len(points))
    return [np.asarray(points[a:b], dtype=float) for a, b in zip(starts, ends, strict=True)]


def contour_lines(x, y, Z, levels) -> list:
    """The lines where the grid's function equals each level.

    Parameters
    ----------
    x : array of shape (n,)
    y : array of shape (m,)
    Z : array of shape (m, n)
        ``Z[j, i]`` is the value at ``(x[i], y[j])`` (`numpy.meshgrid`'s order).
    levels : sequence of float

    Returns
    -------
    list
        One entry per level: a list of arrays of shape (p, 2), the lines' vertices (x, y) in order; a closed line
        ends where it starts.
    """
    gen = _generator(x, y, Z)
    out = []
    for level in np.asarray(levels, dtype=float).ravel():
        lines, _codes = gen.lines(float(level))
        out.append([np.asarray(v, dtype=float) for v in lines])
    return out


def band_limits(levels, Z, *, extend="neither"):
    """matplotlib's (lower, upper) limits of the filled bands of `levels` over the values `Z`.

    The lowest band's lower limit is moved down by 1 when it equals the least value of `Z` (so that band holds
    that value too); ``extend="max"`` adds the band from the top level to `EXTEND_TOP`.

    >>> band_limits([0.0, 1.0, 2.0], np.array([[0.0, 3.0]]), extend="max")
    (array([-1.,  1.,  2.]), array([1.e+000, 2.e+000, 1.e+250]))
    """
    if extend not in ("neither", "max"):
        raise ValueError(f"extend must be 'neither' or 'max'; got {extend!r}.")
    lv = np.asarray(levels, dtype=float).ravel()
    if len(lv) < 2 or np.any(np.diff(lv) <= 0):
        raise ValueError(f"levels must be at least two increasing numbers; got {lv.tolist()}.")
    if extend == "max":
        lv = np.append(lv, EXTEND_TOP)
    lowers, uppers = lv[:-1].copy(), lv[1:].copy()
    if float(np.min(Z)) == lowers[0]:
        lowers[0] -= 1.0
    return lowers, uppers


def filled_bands(x, y, Z, lowers, uppers) -> list:
    """The regions where ``lower < Z <= upper``, band by band, as rings.

    Returns
    -------
    list
        One entry per band: a list of rings, arrays of shape (p, 2) (closed: the last vertex is the first). Drawn
        with the even-odd rule they fill the band: a hole is a ring inside its outer ring.
    """
    gen = _generator(x, y, Z)
    lowers, uppers = np.asarray(lowers, dtype=float).ravel(), np.asarray(uppers, dtype=float).ravel()
    if lowers.shape != uppers.shape or np.any(lowers >= uppers):
        raise ValueError(f"each band needs lower < upper; got lowers {lowers.tolist()}, uppers {uppers.tolist()}.")
    out = []
    for lo, hi in zip(lowers, uppers, strict=True):
        points, codes = gen.filled(float(lo), float(hi))
        out.append([ring for p, c in zip(points, codes, strict=True) for ring in _rings(p, c)])
    return out


def loss_levels(Z, *, n: int, loss: str, reduction: str) -> np.ndarray:
    """The filled levels of a loss map (`LossSlice`'s) for the loss values `Z` of `n` examples: for the 0-1 loss
    one band per count of mistakes; else 0, 1e-12 (the first band is exactly the zero-loss set), then about 10
    round steps up to the loss's maximum.

    >>> loss_levels(np.array([0.0, 4.2]), n=8, loss="perceptron", reduction="mean")[:4].tolist()
    [0.0, 1e-12, 0.5, 1.0]
    """
    unit = 1.0 / n if reduction == "mean" else 1.0
    if loss == "zero_one":
        return (np.arange(n + 2) - 0.5) * unit
    top = float(np.max(Z))
    if top <= 0:
        return np.array([0.0, 1e-12, unit])
    raw = top / 10
    mag = 10.0 ** np.floor(np.log10(raw))
    step = mag * min(m for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return np.concatenate([[0.0, 1e-12], np.arange(1, 12) * step])
