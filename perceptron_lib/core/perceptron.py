"""The perceptron's step rule: what counts as a mistake, and one update.

One test decides what a mistake is (`is_mistake`, with the one meaning of zero, `is_zero`); one
rule updates on it (`step`, and `batch_step` for the sum over a batch). The records of a fit
(`Run`, `History`, `Cycle`, `State`) live in `perceptron_lib.core.runs`; the fits, all built from these,
in `perceptron_lib.core.training` (online) and `perceptron_lib.core.batched` (mini-batch and batch).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "UPDATE_RULES",
    "ZERO_TOL",
    "batch_step",
    "is_mistake",
    "is_zero",
    "mistake_ceiling",
    "mistake_ceiling_float32",
    "scores",
    "snap_to_zero",
    "step",
    "step_sized",
]

UPDATE_RULES = ("nonpositive", "negative", "sign")

#: A score that is exactly 0 in exact arithmetic (a point on the line) comes out of a float dot
#: product a few ulps above or below 0, and which way depends on the CPU's summation order (FMA,
#: SIMD width, BLAS kernel). The mistake test at 0 would then differ between machines, and between
#: two loops on one machine. So a score within ZERO_TOL times the size of its terms,
#: ``|w| |x| + |b|``, is taken as exactly 0: far above rounding (about 1e-16 of that size per
#: term), far below any real score (the course's data are integers or have margins >= 1e-6).
ZERO_TOL = 1e-12
_EPS = float(np.finfo(float).eps)


def is_zero(values, size):
    """The one meaning of zero: which `values` lie within ``ZERO_TOL * size`` of 0.

    Works on arrays and on plain numbers alike (it is ``abs(values) <= ZERO_TOL * size``), so the
    vectorised loops and the one-example `step` read zero the same way. `size` is the size of the
    terms summed into each value, ``|w| |x| + |b|`` for a score.

    Examples
    --------
    >>> is_zero(np.array([1e-17, -3e-13, 0.5]), 1.0).tolist(), is_zero(2e-12, 1.0)
    ([True, True, False], False)
    """
    return abs(values) <= ZERO_TOL * size


def snap_to_zero(values, size) -> np.ndarray:
    """A new float array: `values` with every entry within ``ZERO_TOL * size`` of 0 set to 0.

    Examples
    --------
    >>> snap_to_zero([1e-17, -3e-13, 0.5], 1.0).tolist()
    [0.0, 0.0, 0.5]
    """
    out = np.array(values, dtype=float)
    out[is_zero(out, np.asarray(size, dtype=float))] = 0.0
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


def is_mistake(scores, y, update_on: str = "nonpositive", margin: float = 0.0, *, size=None):
    """The mistake test: which examples trigger an update. Every fit, loss and check asks this.

    Parameters
    ----------
    scores : ndarray of shape (n,) or a number
        The scores <w, x_i> + b: exact at 0 (as `scores` returns them), or raw with their `size`.
    y : ndarray of shape (n,) or a number
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
    size : ndarray of shape (n,) or a number, optional
        The size of the terms of each raw score, ``|w| |x_i| + |b|``: a score within
        ``ZERO_TOL * size`` of 0 is then 0 (`is_zero`). Leave it out for scores that are exact
        at 0 already.

    Returns
    -------
    ndarray of bool, shape (n,), or a bool for numbers

    Examples
    --------
    >>> is_mistake(np.array([0.0, 0.0]), np.array([1.0, -1.0]), "sign").tolist()
    [True, False]
    >>> is_mistake(np.array([0.5, 1.0, 2.0]), np.ones(3), margin=1.0).tolist()
    [True, True, False]
    >>> is_mistake(1e-17, 1.0, "negative"), is_mistake(-1e-17, 1.0, "negative", size=1.0)
    (False, False)
    """
    m = y * scores  # the functional margin; |y| = 1, so it is 0 exactly when the score is
    if size is not None:
        zero = is_zero(m, size)
        m = np.where(zero, 0.0, m) if isinstance(m, np.ndarray) else (0.0 if zero else m)
    if update_on == "nonpositive":
        return m <= margin
    if update_on == "negative":
        return m < margin
    if update_on != "sign":
        raise ValueError(f"update_on must be one of {', '.join(map(repr, UPDATE_RULES))}; got {update_on!r}.")
    if margin != 0:
        raise ValueError(f"update_on='sign' has no threshold; margin must be 0, got {margin!r}.")
    # sgn(0) = -1: a score of exactly 0 is a mistake only for y = +1.
    return (m < 0) | ((m == 0) & (y > 0))


def mistake_ceiling(margin: float, size: float, n_terms: int) -> float:
    """A bound for a vectorised pre-filter: no mistake has a computed margin above it.

    If `step` counts an example as a mistake under the threshold `margin` (any rule), and the
    terms of its score have size at most `size`, its margin y(<w,x>+b) computed by any summation
    of its `n_terms` terms is at most this value. Why: a mistake's margin, once rounding around 0
    is 0, is <= margin (>= 0), so `step`'s raw margin is <= margin + ZERO_TOL * size; and two
    summations of the same terms differ by at most about ``n_terms * eps * size`` (the classical
    bound on a rounded dot product). A loop may therefore skip every example whose margin is above
    the ceiling and ask `step` about the rest: it never skips a mistake.

    Examples
    --------
    >>> 1.0 < mistake_ceiling(1.0, 10.0, 3) < 1.0 + 1e-10
    True
    """
    return margin + (ZERO_TOL + 2 * (n_terms + 1) * _EPS) * size


#: float32's unit roundoff, half its smallest subnormal, and the largest size whose products and sums
#: stay far from float32's overflow (2**128).
_U32, _ETA32, FLOAT32_LIMIT = 2.0**-24, 2.0**-150, 2.0**100


def mistake_ceiling_float32(margin: float, norm_w: float, R: float, b: float, n_terms: int):
    """`mistake_ceiling` for a pre-filter that computes the margins in float32: X, w and b rounded to
    float32, products and sums in float32. Half the bytes of X to read, so a long run is faster.

    Returns the ceiling, raised by a float32 rounding step (a float32 margin is compared with it, and
    numpy rounds the ceiling to float32 for that, to nearest), or None when float32 could overflow (R,
    |w| or the size ``|w| R + |b|`` above 2**100): use float64 then. Why it holds: the float32 margin of
    an example with ``|x| <= R`` differs from the exact one by at most ``gamma(n_terms + 3) * size``
    (each term is a product of two rounded numbers, rounded, then summed: the classical bound with unit
    roundoff 2**-24 and three more roundings), plus what underflow can lose, at most half a subnormal
    per rounded number and product, ``n_terms * 2**-149 * (|w| + R + 1)``; `mistake_ceiling` bounds the
    rest. No mistake is skipped.

    Examples
    --------
    >>> c = mistake_ceiling_float32(1.0, 3.0, 2.0, 0.5, 3)
    >>> 1.0 < float(c) < 1.0 + 1e-5, mistake_ceiling_float32(0.0, 2.0**101, 1.0, 0.0, 3)
    (True, None)
    """
    size = norm_w * R + abs(b)
    if max(size, norm_w, R) > FLOAT32_LIMIT:
        return None
    ceiling = mistake_ceiling(margin, size, n_terms) + 2 * (n_terms + 3) * _U32 * size
    ceiling += n_terms * 2 * _ETA32 * (norm_w + R + 1.0)
    # rounded to nearest float32 it stays above: half an ulp is 2**-24 of it, or 2**-150 if subnormal
    return abs(ceiling) * 4 * _U32 + ceiling + 2.0**-126


def step(w, b, x, y, *, eta=1.0, update_on="nonpositive", fit_bias=True, margin=0.0):
    """The perceptron's update rule, once: example (x, y) at state (w, b).

    Returns ``(w_new, b_new, updated)``: if the example fails the test `update_on` (`is_mistake`
    with threshold `margin`, on the score ``<w,x> + b`` with its size ``|w| |x| + |b|``, so
    rounding around 0 counts as 0),
    ``w_new = w + eta * (y * x)`` and ``b_new = b + eta * y`` (b unchanged when ``fit_bias`` is
    False; a coordinate, or b, that cancels to within ``ZERO_TOL`` of its two terms is exactly 0,
    the one meaning of zero), else the state unchanged. Pure: new arrays, the inputs are not
    changed, no checks (callers check their arguments once, at their boundary).

    Every producer of a `Run` is this rule applied along its history: `reference_perceptron`,
    `averaged` and `proof.adversarial_run` call it, and `fit_perceptron` its body `step_sized` (with
    |w| and |x| it has computed the same way), about every example its pre-filters (`mistake_ceiling`)
    cannot rule out; the batched fits call
    `batch_step`, the sum of this rule's updates over a batch, all taken from one state.

    Examples
    --------
    >>> w, b, updated = step(np.zeros(2), 0.0, np.array([2.0, 1.0]), 1.0)
    >>> w.tolist(), b, updated
    ([2.0, 1.0], 1.0, True)
    """
    w, x, b, y = np.asarray(w, dtype=float), np.asarray(x, dtype=float), float(b), float(y)
    # ndarray.dot is matmul's dot product (the same BLAS ddot, the same bits) with less overhead per call.
    return step_sized(w, b, x, y, math.sqrt(w.dot(w)), math.sqrt(x.dot(x)), eta, update_on, fit_bias, margin)


def step_sized(w, b, x, y, norm_w, norm_x, eta, update_on, fit_bias, margin):
    """`step` itself, for a loop that has the sizes already: `w` and `x` float arrays, `b` and `y` floats,
    ``norm_w = math.sqrt(w.dot(w))`` and ``norm_x = math.sqrt(x.dot(x))`` (so computed: the same bits as `step`'s).

    `step` is this with the sizes computed; `fit_perceptron` computes |w| once per state (its pre-filter needs it
    too) and |x| once per example, and calls this. No checks, positional arguments: it runs once per update.
    """
    # One example: plain float arithmetic, no arrays of one.
    if not is_mistake(float(x.dot(w)) + b, y, update_on, margin, size=norm_w * norm_x + abs(b)):
        return w.copy(), b, False
    # (eta * y) * x is eta * (y * x) bit for bit (y = +-1 only flips signs), one array operation fewer.
    t = eta * y
    w_new = w + t * x
    # A coordinate that cancels to rounding is 0 (`is_zero` of its two terms), so a state that is 0 in
    # exact arithmetic (w back at 0 after eta = 0.1 steps) is 0, not a residue of 1e-17 whose scores
    # no size could tell from real ones. Checked against a bound of every coordinate's size first.
    if _any_within(w_new, ZERO_TOL * (norm_w + abs(t) * norm_x)):
        w_new[is_zero(w_new, np.abs(w) + abs(t) * np.abs(x))] = 0.0
    return w_new, _add(b, t) if fit_bias else b, True


def _any_within(v: np.ndarray, bound: float) -> bool:
    """``np.abs(v).min() <= bound`` (so False if an entry is NaN); in plain floats for a few entries, 5x faster.

    >>> _any_within(np.array([3.0, -0.5]), 0.5), _any_within(np.array([0.0, np.nan]), 1.0)
    (True, False)
    """
    if v.size > 8:
        return bool(np.abs(v).min() <= bound)
    values = v.tolist()
    # Python's min skips a NaN after the first entry, where numpy's min is NaN: look for one only if it matters
    return min(map(abs, values)) <= bound and not any(u != u for u in values)


def _add(b: float, t: float) -> float:
    """b + t, or 0 where it cancels to rounding (as `step` treats a coordinate of w)."""
    total = b + t
    return 0.0 if is_zero(total, abs(b) + abs(t)) else total


def batch_step(w, b, X, y, *, eta=1.0, update_on="nonpositive", fit_bias=True, margin=0.0):
    """`step` on every example of a batch from the same state (w, b), the updates summed.

    Returns ``(w_new, b_new, mistakes)``: `mistakes` holds the indices (rows of X) that fail the
    test (`is_mistake` on `scores`), ``w_new = w + eta * sum_M y_i x_i`` and
    ``b_new = b + eta * sum_M y_i`` (b unchanged when ``fit_bias`` is False; a coordinate that cancels
    to within ``ZERO_TOL`` of its terms is 0, as in `step`). The mini-batch and
    batch fits take this step with ``eta`` already divided by the batch size for a mean. Pure, no
    checks.

    Examples
    --------
    >>> w, b, M = batch_step(np.zeros(2), 0.0, np.array([[2.0, 1.0], [1.0, 0.0]]), np.array([1.0, -1.0]))
    >>> w.tolist(), b, M.tolist()
    ([1.0, 1.0], 0.0, [0, 1])
    """
    w, X, y = np.asarray(w, dtype=float), np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    M = np.flatnonzero(is_mistake(scores(w, b, X), y, update_on, margin))
    if M.size == 0:
        return w.copy(), float(b), M
    w_new = w + eta * (y[M] @ X[M])
    # as in `step`: a coordinate that cancels to rounding of its terms is 0
    w_new[is_zero(w_new, np.abs(w) + eta * np.abs(X[M]).sum(axis=0))] = 0.0
    b_new = float(b + eta * y[M].sum())
    if fit_bias and is_zero(b_new, abs(float(b)) + eta * M.size):
        b_new = 0.0
    return w_new, b_new if fit_bias else float(b), M
