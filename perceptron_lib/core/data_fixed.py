"""The course's fixed data sets: hand-made small sets and scikit-learn's handwritten digits.

No seed: each function returns the same ``(X, y)`` every time, X a fresh float64 array of shape (n, d) and y a
float64 array of shape (n,) with labels in {-1, +1}. `data` imports them all (``data.xor()``), beside its random
sets.
"""

from __future__ import annotations

import numbers
from functools import lru_cache

import numpy as np

__all__ = ["collinear", "digits", "no_origin_separator", "small_2d", "xor"]


def xor():
    """The XOR data set: four corners of the unit square, no line separates them.

    Label +1 where exactly one coordinate is 1.

    Returns
    -------
    X : ndarray, shape (4, 2)
        (0, 0), (1, 1), (0, 1), (1, 0).
    y : ndarray, shape (4,)
        -1, -1, +1, +1.

    Examples
    --------
    >>> X, y = xor()
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [-1.0, -1.0, 1.0, 1.0])
    """
    return np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float), np.array([-1, -1, 1, 1.0])


def collinear():
    """Three points on a line labelled +, -, +: no line (with or without offset) separates them.

    Along the line a linear score is an affine function of the position, so it
    cannot be positive at both ends and negative in the middle.

    Returns
    -------
    X : ndarray, shape (3, 2)
        (1, 1), (2, 2), (3, 3).
    y : ndarray, shape (3,)
        +1, -1, +1.

    Examples
    --------
    >>> X, y = collinear()
    >>> y.tolist()
    [1.0, -1.0, 1.0]
    """
    return np.array([[1, 1], [2, 2], [3, 3]], dtype=float), np.array([1, -1, 1.0])


def no_origin_separator():
    """Integer points a line with offset separates but no line through the origin can.

    Every negative point is a positive multiple of a positive point
    ((3, 3) = 3 (1, 1), (4, 2) = 2 (2, 1), (2, 4) = 2 (1, 2)), so any w
    scores them with the same sign. The line ``x_1 + x_2 = 4.5`` separates
    them; the perceptron without offset cycles for ever.

    Returns
    -------
    X : ndarray, shape (6, 2)
    y : ndarray, shape (6,)
        +1 for (1, 1), (2, 1), (1, 2); -1 for (3, 3), (4, 2), (2, 4).

    Examples
    --------
    >>> X, y = no_origin_separator()
    >>> bool(np.all(y * (4.5 - X.sum(axis=1)) > 0))
    True
    """
    X = np.array([[1, 1], [3, 3], [2, 1], [4, 2], [1, 2], [2, 4]], dtype=float)
    y = np.array([1, -1, 1, -1, 1, -1], dtype=float)
    return X, y


@lru_cache(maxsize=1)
def _digits_table():
    from sklearn.datasets import load_digits  # shipped with scikit-learn: no download

    bunch = load_digits()
    data, target = bunch.data.astype(np.float64), bunch.target.astype(int)
    data.setflags(write=False)
    target.setflags(write=False)
    return data, target


def digits(pair=(0, 1)):
    """Two classes of scikit-learn's 8x8 handwritten digits.

    Parameters
    ----------
    pair : pair of distinct int in 0..9
        ``pair[0]`` is labelled -1, ``pair[1]`` is labelled +1.

    Returns
    -------
    X : ndarray, shape (n, 64)
        Pixel intensities scaled from 0..16 to [0, 1], row-major 8x8 images.
    y : ndarray, shape (n,)

    Examples
    --------
    >>> X, y = digits((3, 8))
    >>> X.shape[1], float(X.max()) <= 1.0, sorted(set(y.tolist()))
    (64, True, [-1.0, 1.0])
    """
    ok = (
        isinstance(pair, (tuple, list))
        and len(pair) == 2
        and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in pair)
    )
    if not ok or not all(0 <= v <= 9 for v in pair) or pair[0] == pair[1]:
        raise ValueError(
            f"pair must be two different digits from 0 to 9, such as (3, 8); got {pair!r}."
        )
    data, target = _digits_table()
    keep = np.isin(target, pair)
    X = data[keep] / 16.0
    y = np.where(target[keep] == pair[1], 1.0, -1.0)
    return X, y


def small_2d():
    """A tiny hand-made integer data set, separable by a line through the origin.

    Small enough to follow every number: three points per class, separated by
    w = (1, 1), b = 0 (and by many lines with offset).

    Returns
    -------
    X : ndarray, shape (6, 2)
        +1: (2, 1), (1, 3), (3, 2); -1: (-1, -2), (-2, 0), (0, -2).
    y : ndarray, shape (6,)

    Examples
    --------
    >>> X, y = small_2d()
    >>> (y * (X @ np.array([1.0, 1.0]))).tolist()
    [3.0, 3.0, 4.0, 2.0, 5.0, 2.0]
    """
    X = np.array([[2, 1], [-1, -2], [1, 3], [-2, 0], [3, 2], [0, -2]], dtype=float)
    y = np.array([1, -1, 1, -1, 1, -1], dtype=float)
    return X, y
