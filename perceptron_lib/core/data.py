"""Data sets for the course, all reproducible from a seed.

The fixed sets (XOR, collinear points, ``no_origin_separator``, ``small_2d``) and scikit-learn's digits are in
`data_fixed`, imported here: ``data.xor()`` and ``from perceptron_lib.core.data import digits`` work as before.

Every function returns ``(X, y)``: X a fresh float64 array of shape (n, d) and
y a float64 array of shape (n,) with labels in {-1, +1}. Random data sets draw
from ``numpy.random.default_rng(seed)`` and never touch numpy's global state.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_finite_scalar, check_positive_int, check_rng
from .data_fixed import collinear, digits, no_origin_separator, small_2d, xor  # noqa: F401 (data.xor() in lessons)

#: (The fixed sets are `data_fixed`'s, imported above: the lessons call ``data.xor()``, ``data.digits()``.)
__all__ = ["blobs", "circles", "separable"]


def _rng(seed) -> np.random.Generator:
    try:
        return check_rng(seed)
    except TypeError:
        raise TypeError(
            f"seed must be an int, a numpy.random.Generator or None; got {seed!r}. "
            f"Use seed=0 for reproducible data."
        ) from None


def _positive(value, *, name: str) -> float:
    v = check_finite_scalar(value, name=name)
    if v <= 0:
        raise ValueError(f"{name} must be > 0; got {value!r}.")
    return v


def _shuffled(X, y, rng):
    # Shuffled so that the classes interleave: the perceptron's path depends on the order.
    order = rng.permutation(len(y))
    return X[order], y[order]


def _balanced_labels(n: int) -> np.ndarray:
    return np.where(np.arange(n) < (n + 1) // 2, 1.0, -1.0)


def separable(
    n: int = 50,
    *,
    d: int = 2,
    margin: float = 0.2,
    radius: float = 1.0,
    bias: bool = False,
    seed=0,
    return_separator: bool = False,
):
    """Linearly separable data with a known separator, margin gamma and radius R.

    A random unit vector u (and with ``bias=True`` a random offset b) is drawn;
    every point satisfies ``||x_i|| <= radius`` and
    ``y_i (<u, x_i> + b) >= margin``, with equality for one point of each
    class (up to rounding), so the margin of the true separator is exactly
    `margin`. Since ``||u|| = 1``, `margin` is the distance from the
    hyperplane ``{x : <u, x> + b = 0}`` to the closest points. Without offset
    b = 0 and the hyperplane passes through the origin.

    Each point is built directly, without rejection, so any d is cheap: its
    component ``t = <u, x>`` is uniform on the allowed interval of its class
    (``[margin - b, radius]`` or ``[-radius, -margin - b]``), and its part
    orthogonal to u is uniform in the (d-1)-ball of radius
    ``sqrt(radius^2 - t^2)``.

    Parameters
    ----------
    n : int >= 2
        Number of points; labels are +1 or -1 with probability 1/2 each, and
        both classes occur.
    d : int >= 1
        Dimension.
    margin : float, 0 < margin < radius
        The margin gamma of the true separator.
    radius : float > 0
        The radius R of the ball holding the data.
    bias : bool
        Draw an offset b uniform in ``[-(radius - margin)/2, (radius - margin)/2]``.
    seed : int, numpy.random.Generator or None
    return_separator : bool
        Also return the true separator.

    Returns
    -------
    X : ndarray, shape (n, d)
    y : ndarray, shape (n,)
    u : ndarray, shape (d,)
        Only with ``return_separator=True``: the unit normal.
    b : float
        Only with ``return_separator=True``: the offset (0.0 without bias).

    Examples
    --------
    >>> X, y, u, b = separable(20, d=3, margin=0.25, seed=1, return_separator=True)
    >>> X.shape, bool(np.all(np.linalg.norm(X, axis=1) <= 1.0 + 1e-12))
    ((20, 3), True)
    >>> round(float(np.min(y * (X @ u + b))), 12)
    0.25
    """
    n = check_positive_int(n, name="n", minimum=2)
    d = check_positive_int(d, name="d")
    margin = _positive(margin, name="margin")
    radius = _positive(radius, name="radius")
    if margin >= radius:
        raise ValueError(
            "margin must be smaller than radius (no point of norm <= radius can be margin away "
            f"from the hyperplane otherwise); got margin={margin!r}, radius={radius!r}."
        )
    for flag, name in ((bias, "bias"), (return_separator, "return_separator")):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False; got {flag!r}.")
    rng = _rng(seed)

    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    half = (radius - margin) / 2
    b = float(rng.uniform(-half, half)) if bias else 0.0

    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    # t = <u, x>: the class +1 needs t >= margin - b, the class -1 needs t <= -margin - b.
    lo = np.where(y > 0, margin - b, -radius)
    hi = np.where(y > 0, radius, -margin - b)
    t = rng.uniform(lo, hi)
    t[:2] = (margin - b, -margin - b)  # one point of each class exactly at the margin

    if d > 1:
        G = rng.normal(size=(n, d))
        G -= np.outer(G @ u, u)
        G /= np.linalg.norm(G, axis=1, keepdims=True)
        room = np.sqrt(np.maximum(radius**2 - t**2, 0.0))
        s = room * rng.random(n) ** (1.0 / (d - 1))
        X = t[:, None] * u + s[:, None] * G
    else:
        X = t[:, None] * u
    X, y = _shuffled(X, y, rng)
    if return_separator:
        return X, y, u, b
    return X, y


def _check_center(center) -> np.ndarray:
    try:
        c = np.array(center, dtype=np.float64)
    except (TypeError, ValueError):
        c = None
    if c is None or c.shape != (2,) or not np.isfinite(c).all():
        raise ValueError(f"center must be a pair of finite numbers (x, y); got {center!r}.")
    return c


def circles(
    n: int = 100,
    *,
    r_inner: float = 0.5,
    r_outer: float = 1.0,
    noise: float = 0.0,
    seed=0,
    center=(0.0, 0.0),
):
    """Two concentric circles: the inner one labelled +1, the outer one -1.

    With ``noise = 0`` the points lie exactly on the circles, at random angles,
    and the lift ``(x, y) -> (x, y, x^2 + y^2)`` makes them separable when
    the circles are centred at the origin.

    Parameters
    ----------
    n : int >= 2
        Number of points; ``ceil(n / 2)`` on the inner circle.
    r_inner, r_outer : float, 0 < r_inner < r_outer
    noise : float >= 0
        Standard deviation of Gaussian noise added to each coordinate.
    seed : int, numpy.random.Generator or None
    center : pair of float
        Common centre; off the origin, the lift x^2 + y^2 about the origin no
        longer gives a horizontal separating plane.

    Returns
    -------
    X : ndarray, shape (n, 2)
    y : ndarray, shape (n,)

    Examples
    --------
    >>> X, y = circles(6, r_inner=1, r_outer=2, seed=0)
    >>> np.round(np.linalg.norm(X, axis=1), 9)[y > 0].tolist()
    [1.0, 1.0, 1.0]
    """
    n = check_positive_int(n, name="n", minimum=2)
    r_inner = _positive(r_inner, name="r_inner")
    r_outer = _positive(r_outer, name="r_outer")
    if r_inner >= r_outer:
        raise ValueError(
            f"r_inner must be smaller than r_outer; got r_inner={r_inner!r}, r_outer={r_outer!r}."
        )
    noise = check_finite_scalar(noise, name="noise")
    if noise < 0:
        raise ValueError(f"noise must be >= 0 (a standard deviation); got {noise!r}.")
    c = _check_center(center)
    rng = _rng(seed)
    y = _balanced_labels(n)
    r = np.where(y > 0, r_inner, r_outer)
    angle = rng.uniform(0.0, 2 * np.pi, size=n)
    X = c + r[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    if noise > 0:
        X = X + noise * rng.normal(size=X.shape)
    return _shuffled(X, y, rng)


def blobs(n: int = 100, *, separation: float = 1.0, spread: float = 1.0, seed=0, d: int = 2):
    """Two Gaussian blobs, usually overlapping.

    Class +1 is centred at ``(separation / 2) e_1``, class -1 at
    ``-(separation / 2) e_1``; both have standard deviation `spread` in every
    coordinate.

    Parameters
    ----------
    n : int >= 2
        Number of points; ``ceil(n / 2)`` labelled +1.
    separation : float >= 0
        Distance between the two centres.
    spread : float > 0
        Standard deviation of each blob.
    seed : int, numpy.random.Generator or None
    d : int >= 1
        Dimension.

    Returns
    -------
    X : ndarray, shape (n, d)
    y : ndarray, shape (n,)

    Examples
    --------
    >>> X, y = blobs(1000, separation=4.0, spread=0.5, seed=0)
    >>> round(float(X[y > 0, 0].mean()), 1), round(float(X[y < 0, 0].mean()), 1)
    (2.0, -2.0)
    """
    n = check_positive_int(n, name="n", minimum=2)
    d = check_positive_int(d, name="d")
    separation = check_finite_scalar(separation, name="separation")
    if separation < 0:
        raise ValueError(
            f"separation must be >= 0 (a distance between centres); got {separation!r}."
        )
    spread = _positive(spread, name="spread")
    rng = _rng(seed)
    y = _balanced_labels(n)
    X = spread * rng.normal(size=(n, d))
    X[:, 0] += y * (separation / 2)
    return _shuffled(X, y, rng)
