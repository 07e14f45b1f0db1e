"""The perceptron's step rule: what counts as a mistake, and one update.

The records of a fit (`Run`, `History`, `Cycle`, `State`) live in `perceptron_lib.core.runs`; the
online, mini-batch and batch fits, all built from `step`, in `perceptron_lib.core.training`.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "UPDATE_RULES",
    "is_mistake",
    "step",
    "scores",
    "snap_to_zero",
    "ZERO_TOL",
]

UPDATE_RULES = ("nonpositive", "negative", "sign")

#: A score that is exactly 0 in exact arithmetic (a point on the line) comes out of a float dot
#: product a few ulps above or below 0, and which way depends on the CPU's summation order (FMA,
#: SIMD width, BLAS kernel). The mistake test at 0 would then differ between machines, and between
#: two loops on one machine. So a score within ZERO_TOL times the size of its terms,
#: ``|w| |x| + |b|``, is taken as exactly 0: far above rounding (about 1e-16 of that size per
#: term), far below any real score (the course's data are integers or have margins >= 1e-6).
ZERO_TOL = 1e-12


def snap_to_zero(values, size) -> np.ndarray:
    """A new float array: `values` with every entry within ``ZERO_TOL * size`` of 0 set to 0.

    Examples
    --------
    >>> snap_to_zero([1e-17, -3e-13, 0.5], 1.0).tolist()
    [0.0, 0.0, 0.5]
    """
    out = np.array(values, dtype=float)
    out[np.abs(out) <= ZERO_TOL * np.asarray(size, dtype=float)] = 0.0
    return out


def scores(w, b, X) -> np.ndarray:
    """The scores ``<w, x_i> + b`` of the rows of X, with rounding around 0 set to exactly 0.

    `w` of shape (d,) and a number `b` give shape (n,); a stack of states, `w` of shape (K, d) and
    `b` of shape (K,), gives shape (K, n). See `ZERO_TOL` for why a score near 0 is snapped.

    Examples
    --------
    >>> X = np.array([[1.0, 3.0], [3.0, -1.0]])
    >>> float((X @ [0.1, 0.1])[0] - (X @ [0.1, 0.1])[1]) != 0.0  # 0.4 - 0.2 ... is not exact
    True
    >>> scores([0.1, 0.3], -1.0, X).tolist()  # 0.1 + 0.9 - 1 is 0: on the line
    [0.0, -1.0]
    """
    w, b, X = np.asarray(w, dtype=float), np.asarray(b, dtype=float), np.asarray(X, dtype=float)
    size_x = np.linalg.norm(X, axis=-1)
    if w.ndim == 1:
        return snap_to_zero(X @ w + b, np.linalg.norm(w) * size_x + np.abs(b))
    return snap_to_zero(w @ X.T + b[:, None], np.linalg.norm(w, axis=1)[:, None] * size_x + np.abs(b)[:, None])


def is_mistake(scores: np.ndarray, y: np.ndarray, update_on: str = "nonpositive", margin: float = 0.0) -> np.ndarray:
    """Which examples trigger an update, given raw scores <w,x>+b.

    Parameters
    ----------
    scores : ndarray, shape (n,)
        The values <w, x_i> + b.
    y : ndarray, shape (n,)
        Labels in {-1, +1}.
    update_on : {"nonpositive", "negative", "sign"}
        "nonpositive": y*score <= 0 (the loss-minimisation slides);
        "negative": y*score < 0 (subgradient 0 at the kink);
        "sign": sgn(score) != y with sgn(0) = -1 (the lecture notes).
    margin : float >= 0
        The threshold of the test: "nonpositive" updates when y*score <= margin, "negative" when
        y*score < margin. The default 0 is the perceptron; ``margin=1`` with "nonpositive" is the
        margin perceptron, a subgradient step on the hinge loss max(0, 1 - y*score) (lesson 06).
        "sign" has no threshold (margin must be 0).

    Returns
    -------
    ndarray of bool, shape (n,)

    Examples
    --------
    >>> is_mistake(np.array([0.0, 0.0]), np.array([1.0, -1.0]), "sign").tolist()
    [True, False]
    >>> is_mistake(np.array([0.5, 1.0, 2.0]), np.ones(3), margin=1.0).tolist()
    [True, True, False]
    """
    m = y * scores
    if update_on == "nonpositive":
        return m <= margin
    if update_on == "negative":
        return m < margin
    if margin != 0:
        raise ValueError(f"update_on='sign' has no threshold; margin must be 0, got {margin!r}.")
    # sgn(0) = -1: a score of exactly 0 is a mistake only for y = +1.
    return (m < 0) | ((scores == 0) & (y > 0))


def step(w, b, x, y, *, eta=1.0, update_on="nonpositive", fit_bias=True, margin=0.0):
    """The perceptron's update rule, once: example (x, y) at state (w, b).

    Returns ``(w_new, b_new, updated)``: if the example fails the test `update_on` (see
    `is_mistake`, with threshold `margin`; its score comes from `scores`, so rounding around 0
    counts as 0),
    ``w_new = w + eta * (y * x)`` and ``b_new = b + eta * y`` (b unchanged when ``fit_bias`` is
    False), else the state unchanged. Pure: new arrays, the inputs are not
    changed, no checks (callers check their arguments once, at their boundary).

    Every producer of a `Run` is this rule applied along its history: `reference_perceptron` and
    `proof.adversarial_run` call it; the vectorised `fit_perceptron` and the batched fits (whose
    step is the sum of this rule's updates over the batch's mistakes, taken from one state) are
    tested equal to it (tests/test_step.py).

    Examples
    --------
    >>> w, b, updated = step(np.zeros(2), 0.0, np.array([2.0, 1.0]), 1.0)
    >>> w.tolist(), b, updated
    ([2.0, 1.0], 1.0, True)
    """
    w = np.asarray(w, dtype=float)
    score = float(scores(w, b, np.asarray(x, dtype=float)[None, :])[0])
    if not is_mistake(np.array([score]), np.array([y], dtype=float), update_on, margin)[0]:
        return w.copy(), float(b), False
    return w + eta * (y * x), float(b + eta * y) if fit_bias else float(b), True
