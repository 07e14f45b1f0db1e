"""The perceptron's online fit (`fit_perceptron`) and a plain reference (`reference_perceptron`).

Every fit returns a `Run` (see `perceptron_lib.core.runs`). The batched fits, `fit_minibatch` and `fit_batch`, are
in `perceptron_lib.core.batched`.

Every fit is built on the one rule of `perceptron_lib.core.perceptron`: the online fits call `step` (this one its
body, `step_sized`, with the sizes it has already), the batched ones `batch_step`. The online fit produces exactly
the trajectory of `step` applied to each example in turn, but it does not ask `step` about every example: a
pre-filter skips those that provably pass the test (their margin above a ceiling that bounds rounding), and the
rule is asked about the first one left. Two pre-filters, either exact: where mistakes come often and the rows are
short (d <= 3), a plain-float loop over the next examples (`_scan1`..`_scan3`, a tenth of a microsecond each);
else the margins of a chunk of upcoming examples at once, in float32 (half the bytes of X to read, its rounding in
`mistake_ceiling_float32`). The cost is O(updates x gap) plain floats or O(updates x chunk x d) numpy work, plus
O(updates x d) history, never O(n x epochs) calls of `step`.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import (
    check_choice,
    check_eta,
    check_finite_scalar,
    check_positive_int,
    check_rng,
    check_start,
    check_X_y,
)
from .perceptron import (
    FLOAT32_LIMIT,
    UPDATE_RULES,
    mistake_ceiling,
    mistake_ceiling_float32,
    snap_to_zero,
    step,
    step_sized,
)
from .recorder import Recorder
from .runs import Cycle, History, Run

__all__ = ["fit_perceptron", "reference_perceptron"]

ORDERS = ("cyclic", "random")


#: A chunk holds at most _MAX_CHUNK_VALUES numbers of X (256 KB of float32), so that the tail of a chunk,
#: recomputed after an update inside it, is still in the core's cache.
_MIN_CHUNK, _MAX_CHUNK_VALUES = 16, 65_536
#: The fixed cost of one chunk (a handful of numpy calls, about 4 us) in multiply-adds of its
#: matrix-vector product (about 0.25 ns each): the speed of the run, never its result, depends on it.
_CHUNK_OVERHEAD = 16_000


def _max_chunk(d: int) -> int:
    return max(_MIN_CHUNK, _MAX_CHUNK_VALUES // d)


def _chunk_after_update(gap: float, d: int) -> int:
    """The next chunk's length, given the expected gap between mistakes (in examples).

    Only the speed depends on it, never the run. With mistakes arriving at random at rate
    1/gap, a chunk of L examples costs ``overhead + L (d + 1)`` and finds the next mistake with
    probability ``1 - exp(-L / gap)``; the cost per mistake is least where
    ``exp(x) = 1 + a + x`` for ``x = L / gap`` and ``a = overhead / (gap (d + 1))``, and
    ``x = log1p(a + sqrt(2 a))`` solves that within 10%. Short chunks for wide rows and long gaps
    (recomputing a wasted tail is dear), long ones for narrow rows and bursts (calls are dear).

    >>> _chunk_after_update(20.0, 100), _chunk_after_update(2000.0, 100), _chunk_after_update(2000.0, 10)
    (51, 655, 2152)
    """
    a = _CHUNK_OVERHEAD / (gap * (d + 1))
    return int(min(max(_MIN_CHUNK, gap * math.log1p(a + math.sqrt(2.0 * a))), _max_chunk(d)))


def fit_perceptron(
    X,
    y,
    *,
    eta: float = 1.0,
    max_epochs: int = 1000,
    order: str = "cyclic",
    rng=None,
    w0=None,
    b0: float = 0.0,
    fit_bias: bool = True,
    update_on: str = "nonpositive",
    margin: float = 0.0,
) -> Run:
    """Run the online perceptron: on each mistake, w <- w + eta*y_i*x_i, b <- b + eta*y_i.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
        Labels in {-1, +1}.
    eta : float > 0
        Step size.
    max_epochs : int >= 1
        Upper limit on passes over the data.
    order : {"cyclic", "random"}
        "cyclic" visits examples 0..n-1 every epoch; "random" draws a fresh
        permutation each epoch from `rng`.
    rng : None, int or numpy.random.Generator
        Source of the permutations for ``order="random"``.
    w0 : array-like, shape (d,), optional
        Start weights (default zeros).
    b0 : float
        Start offset.
    fit_bias : bool
        If False, b stays at b0 (the homogeneous perceptron when b0 = 0).
    update_on : {"nonpositive", "negative", "sign"}
        The mistake test; see `is_mistake`.
    margin : float >= 0
        The test's threshold (see `is_mistake`): 0 is the perceptron; ``margin=1`` updates when
        ``y_i(<w,x_i>+b) <= 1``, the margin perceptron, a subgradient step of size eta on the
        hinge loss. Unlike the perceptron it is not scale-invariant: eta changes its lines.

    Returns
    -------
    Run
        Stops when an epoch makes no update (``converged``), when the state
        at an epoch boundary repeats under cyclic order (``cycle``), or after
        `max_epochs`.

    Examples
    --------
    >>> run = fit_perceptron([[2, 1], [-1, -2]], [1, -1])
    >>> run.w.tolist(), run.b, run.mistakes, run.converged
    ([2.0, 1.0], 1.0, 1, True)
    """
    X, y = check_X_y(X, y, copy=False)  # only read
    eta = check_eta(eta)
    max_epochs = check_positive_int(max_epochs, name="max_epochs")
    order = check_choice(order, name="order", choices=ORDERS)
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    margin = check_margin(margin, update_on)
    if not isinstance(fit_bias, (bool, np.bool_)):
        raise TypeError(f"fit_bias must be True or False; got {fit_bias!r}.")
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    b = float(b)
    gen = check_rng(rng) if order == "random" else None
    rec = Recorder(w, b)
    add_w, add_b, add_i, add_epoch = rec.w.append, rec.b.append, rec.i.append, rec.epoch.append  # the hot loop's
    # The pre-filters bound each example's size |w| |x_i| + |b| by |w| R + |b|, R the longest x_i. The chunks read
    # a float32 copy of X (half the bytes to stream, its rounding in its ceiling); the scans rows of plain floats.
    R = math.sqrt(float(np.einsum("ij,ij->i", X, X).max()))
    X32 = X.astype(np.float32) if R <= FLOAT32_LIMIT else None
    y32 = y.astype(np.float32)
    scan, blocks = _SCANS.get(d), {}  # blocks: rows (x_1, .., x_d, y) of floats, _SCAN_BLOCK at a time, as scanned
    norms_x: dict[int, float] = {}  # |x_i| as `step` computes it, once per example updated on
    norm_w = math.sqrt(w.dot(w))
    ceiling, w_list, scan_ok = _scan_state(w, b, norm_w, R, margin, d)  # the scans' (float64)
    pre = None  # the chunks' pre-filter at this state (`_pre_filter`), made when a chunk needs it
    seen: dict[bytes, tuple[int, int]] = {}
    converged, cycle = False, None
    chunk, gap, max_chunk = _MIN_CHUNK, float(_MIN_CHUNK), _max_chunk(d)  # gap: a mean of the gaps between mistakes
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        idx = None if gen is None else gen.permutation(n)
        Xo32, yo32 = (X32, y32) if idx is None else (None if X32 is None else X32[idx], y32[idx])
        Xo, yo = (X, y) if idx is None else (None, y[idx])  # float64 rows only if a state outgrows float32
        if idx is not None:
            blocks = {}  # a new order: new blocks
        before = len(rec.i)
        pos = 0
        while pos < n:
            if scan_ok and gap <= _SCAN_GAP and scan is not None:  # mistakes come often: ask them one by one
                lo = pos - pos % _SCAN_BLOCK
                rows = blocks.get(lo)
                if rows is None:
                    rows = blocks[lo] = _plain_rows(X, y, idx, lo, min(lo + _SCAN_BLOCK, n))
                stop = min(pos + _SCAN_WINDOW, lo + len(rows))
                j = scan(rows, pos - lo, stop - lo, w_list, b, ceiling) - (pos - lo)
                if j < 0:  # none in the window: mistakes are rarer now, so chunks from here
                    gap, pos, chunk = 0.5 * (gap + (stop - pos)), stop, 0
                    continue
            else:
                if pre is None:
                    pre = _pre_filter(w, b, norm_w, R, margin, d, X32 is not None)
                chunk_ceiling, w_pre, b_pre, single = pre
                if not single and Xo is None:
                    Xo = X[idx]
                chunk = chunk or _chunk_after_update(gap, d)
                rows_pre, labels_pre = (Xo32, yo32) if single else (Xo, yo)
                stop = min(pos + chunk, n)
                m = rows_pre[pos:stop].dot(w_pre)  # the chunk's margins y (<w, x> + b); .dot costs less than @
                m += b_pre
                m *= labels_pre[pos:stop]
                j = int((m <= chunk_ceiling).argmax())
                if m[j] > chunk_ceiling:  # no example of the chunk can be a mistake: skip it whole
                    pos = stop
                    chunk = min(chunk * 2, max_chunk)
                    continue
            i = pos + j if idx is None else int(idx[pos + j])
            pos += j + 1
            x = X[i]
            norm_x = norms_x.get(i)
            if norm_x is None:
                norm_x = norms_x[i] = math.sqrt(x.dot(x))
            w_new, b_new, updated = step_sized(w, b, x, float(y[i]), norm_w, norm_x, eta, update_on, fit_bias,
                                               margin)  # the one rule decides
            if not updated:  # within rounding of the threshold, and not a mistake after all
                continue
            w, b = w_new, b_new
            add_w(w)
            add_b(b)
            add_i(i)
            add_epoch(epoch)
            norm_w, pre, chunk = math.sqrt(w.dot(w)), None, 0
            if scan is not None:
                ceiling, w_list, scan_ok = _scan_state(w, b, norm_w, R, margin, d)
            gap = 0.5 * (gap + (j + 1))  # a running mean of the distance to the next mistake (speed only)
        if len(rec.i) == before:
            converged = True
            break
        if gen is None:
            key = np.append(w, b).tobytes()
            if key in seen:
                start, mistakes_then = seen[key]
                cycle = Cycle(start=start, length=epoch - start, mistakes_per_cycle=rec.n - mistakes_then)
                break
            seen[key] = (epoch, rec.n)
    return Run(
        w=w.copy(), b=float(b), mistakes=rec.n, epochs=epoch, converged=converged, cycle=cycle,
        history=_online_history(rec, X, y), method="online", eta=eta, update_on=update_on, order=order,
        fit_bias=bool(fit_bias), n_samples=n, margin=margin,
    )


def _pre_filter(w, b, norm_w: float, R: float, margin: float, d: int, single: bool):
    """What the chunks compare at state (w, b): ``(ceiling, w, b, single)``, in float32 (`single`) when
    the data have a float32 copy and the state cannot overflow it, else in float64."""
    ceiling = mistake_ceiling_float32(margin, norm_w, R, b, d + 1) if single else None
    if ceiling is None:
        return mistake_ceiling(margin, norm_w * R + abs(b), d + 1), w, b, False
    return ceiling, w.astype(np.float32), b, True  # a float b: numpy adds it in float32, with less overhead


#: Below this mean gap between mistakes (in examples), rows of d <= 3 are asked one by one in plain floats (about
#: 0.1 us an example) rather than in chunks (about 4 us a chunk); at most _SCAN_WINDOW at a time. Speed only.
_SCAN_GAP, _SCAN_WINDOW, _SCAN_LIMIT = 24.0, 96, 2.0**500
#: The scans read rows of plain floats made _SCAN_BLOCK at a time, when first scanned (so a long set whose
#: mistakes are rare is never converted whole); under cyclic order they stay for the later epochs.
_SCAN_BLOCK = 256


def _plain_rows(X, y, idx, lo: int, hi: int) -> list:
    """Positions lo..hi-1 of the epoch's order (`idx`, None for cyclic) as tuples (x_1, .., x_d, y) of floats."""
    rows = X[lo:hi] if idx is None else X[idx[lo:hi]]
    labels = y[lo:hi] if idx is None else y[idx[lo:hi]]
    return list(zip(*rows.T.tolist(), labels.tolist(), strict=True))


def _scan1(rows, start: int, stop: int, w, b: float, ceiling: float) -> int:
    """The first k in [start, stop) whose margin ``y_k (<w, x_k> + b)``, in plain floats, is at most `ceiling`
    (`mistake_ceiling` bounds any summation's rounding: nothing above it is a mistake); start - 1 if none.
    `rows` holds tuples (x_1, .., x_d, y) of floats. One function per d: the sum written out."""
    (w1,) = w
    for k in range(start, stop):
        x1, yk = rows[k]
        if (x1 * w1 + b) * yk <= ceiling:
            return k
    return start - 1


def _scan2(rows, start: int, stop: int, w, b: float, ceiling: float) -> int:
    """`_scan1` for d = 2."""
    w1, w2 = w
    for k in range(start, stop):
        x1, x2, yk = rows[k]
        if (x1 * w1 + x2 * w2 + b) * yk <= ceiling:
            return k
    return start - 1


def _scan3(rows, start: int, stop: int, w, b: float, ceiling: float) -> int:
    """`_scan1` for d = 3 (lesson 05's lifted points)."""
    w1, w2, w3 = w
    for k in range(start, stop):
        x1, x2, x3, yk = rows[k]
        if (x1 * w1 + x2 * w2 + x3 * w3 + b) * yk <= ceiling:
            return k
    return start - 1


_SCANS = {1: _scan1, 2: _scan2, 3: _scan3}


def _scan_state(w, b: float, norm_w: float, R: float, margin: float, d: int):
    """What the scans compare at state (w, b): ``(ceiling, w as floats, ok)``; not `ok` where a margin's terms
    could overflow (size above 2**500, or NaN), so that the scans' and `step`'s sums never meet inf."""
    size = norm_w * R + abs(b)
    return mistake_ceiling(margin, size, d + 1), w.tolist(), size <= _SCAN_LIMIT


def _online_history(rec: Recorder, X: np.ndarray, y: np.ndarray) -> History:
    """The history with each update's margins y_i(<w,x_i>+b) before and after, computed from the states.

    Before: rounding around 0 is 0, as in the test that chose the update. After: the plain value,
    measured from the stored state, not filled in from the identity m_after = m_before +
    eta(|x|^2 + 1), so that tests of the identity are not circular.
    """
    if not rec.n:
        return rec.history(np.empty(0), np.empty(0))
    i = np.array(rec.i, dtype=np.intp)
    W, B = rec.states()
    Xi, yi = X[i], y[i]
    before = np.einsum("ij,ij->i", Xi, W[:-1]) + B[:-1]
    size = np.sqrt(np.einsum("ij,ij->i", W[:-1], W[:-1])) * np.sqrt(np.einsum("ij,ij->i", Xi, Xi)) + np.abs(B[:-1])
    after = np.einsum("ij,ij->i", Xi, W[1:]) + B[1:]
    return rec.history(yi * snap_to_zero(before, size), yi * after)


def check_margin(margin, update_on: str) -> float:
    """The mistake test's threshold: a finite number >= 0, and 0 for the "sign" rule."""
    margin = check_finite_scalar(margin, name="margin")
    if margin < 0:
        raise ValueError(f"margin must be >= 0 (0 is the perceptron, 1 the margin perceptron); got {margin!r}.")
    if update_on == "sign" and margin != 0:
        raise ValueError("update_on='sign' has no threshold: use margin=0, or update_on='nonpositive'.")
    return margin


def reference_perceptron(
    X, y, *, eta=1.0, max_epochs=1000, w0=None, b0=0.0, fit_bias=True, update_on="nonpositive", margin=0.0
):
    """The online perceptron as a plain Python loop, cyclic order.

    The slow, obviously-correct version the fast `fit_perceptron` is tested
    against: `step` on each example in turn. Returns (w, b, updates) with updates the list of
    example indices.
    """
    X, y = check_X_y(X, y, copy=False)  # only read
    w, b = check_start(w0, b0, X.shape[1])
    updates = []
    for _ in range(max_epochs):
        changed = False
        for i in range(len(X)):
            w, b, updated = step(w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias, margin=margin)
            if updated:
                updates.append(i)
                changed = True
        if not changed:
            break
    return np.array(w), float(b), updates
