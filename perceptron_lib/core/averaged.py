"""Answers for data no line separates: the averaged, voted and pocket perceptrons.

`fit_averaged` runs the online perceptron (the one step rule, `perceptron.step`) for a fixed
number of passes and keeps, besides the usual `Run`, how long each intermediate state survived.
From that record come the three predictors of Freund and Schapire (1999): the last line, the
averaged line (the mean of the states after each example, kept as a running sum at no extra cost
per pass) and the vote of all the states weighted by their survival. `pocket` is the course's
variant of Gallant's third answer: the state of the run with the fewest training errors, at the
price of one pass over the data per state (module `pocket`, imported here).

Convention (the same as scikit-learn's ``SGDClassifier(average=True)`` and Freund and Schapire's
``c_k``): after each of the T examples seen, the current state is the state after that example's
update (or the unchanged state). State k *survives* ``c_k`` examples: the number of examples
after which it was the current state. The averaged weights are ``sum_k c_k w_k / T``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import (
    check_choice,
    check_eta,
    check_positive_int,
    check_rng,
    check_start,
    check_X,
    check_X_y,
    read_only,
)
from .perceptron import UPDATE_RULES, is_mistake, scores, step
from .pocket import Pocket, pocket  # noqa: F401 (lesson 06 imports pocket from here)
from .runs import History, Run
from .training import ORDERS, check_margin

#: (`Pocket` and `pocket` are imported from `pocket`, their home, so that lesson 06's
#: ``from perceptron_lib.core.averaged import pocket`` still works.)
__all__ = ["AveragedRun", "StepErrors", "fit_averaged", "step_errors", "vote_counts_at", "voted_predict"]


@dataclass(frozen=True, eq=False)
class AveragedRun:
    """An online run of a fixed number of passes, with its averaged and voted predictors.

    Attributes
    ----------
    run : Run
        The ordinary record (last state, history of updates); ``run.epochs`` is the number of passes.
    t : ndarray of int, shape (K,)
        For update k (1..K), the number of examples seen when it was made (1..T).
    seen : int
        T, the number of examples seen: passes x n.
    w, b : ndarray (d,), float
        The averaged line, ``sum_k c_k (w_k, b_k) / T``, from the running sum.
    epoch_w, epoch_b : ndarray (passes, d), (passes,)
        The averaged line at the end of each pass (the mean over the examples seen so far).
    epoch_last_w, epoch_last_b : ndarray (passes, d), (passes,)
        The last line at the end of each pass.
    """

    run: Run = field(repr=False)
    t: np.ndarray = field(repr=False)
    seen: int
    w: np.ndarray
    b: float
    epoch_w: np.ndarray = field(repr=False)
    epoch_b: np.ndarray = field(repr=False)
    epoch_last_w: np.ndarray = field(repr=False)
    epoch_last_b: np.ndarray = field(repr=False)

    def __post_init__(self):
        for name in ("t", "w", "epoch_w", "epoch_b", "epoch_last_w", "epoch_last_b"):
            read_only(getattr(self, name))

    @property
    def survival(self) -> np.ndarray:
        """``c_k`` for the states 0..K: examples after which state k was current; they sum to T."""
        edges = np.concatenate([[1], self.t, [self.seen + 1]])
        return np.diff(edges)

    def averages(self) -> tuple[np.ndarray, np.ndarray]:
        """The averaged line as it stood just after each update: ``(W, B)`` of shapes (K + 1, d), (K + 1,).

        Row k (k >= 1) is the mean of the states after examples 1..t_k, update k's example included;
        row 0 is the start (no example seen yet). For a player that draws the averaged line beside
        the current one.
        """
        h = self.run.history
        K = len(h) - 1
        W, B = np.array(h.w, dtype=float), np.array(h.b, dtype=float)
        if K == 0:
            return W, B
        t = self.t.astype(float)
        d = np.diff(np.concatenate([[1.0], t]))  # state j's examples before update j + 1
        cw = np.cumsum(d[:, None] * W[:-1], axis=0)  # sum_{j<k} d_j w_j for k = 1..K
        cb = np.cumsum(d * B[:-1])
        Wa = np.vstack([W[:1], (cw + W[1:]) / t[:, None]])
        Ba = np.concatenate([B[:1], (cb + B[1:]) / t])
        return Wa, Ba

    def decision_function(self, X) -> np.ndarray:
        """Scores of the averaged line, ``<w_avg, x> + b_avg``."""
        return scores(self.w, self.b, _check_features(X, self.w.shape[0]))

    def predict(self, X) -> np.ndarray:
        """Labels of the averaged line, sgn(0) = -1."""
        return np.where(self.decision_function(X) > 0, 1, -1)

    def predict_last(self, X) -> np.ndarray:
        """Labels of the last line, sgn(0) = -1."""
        return np.where(scores(self.run.w, self.run.b, _check_features(X, self.w.shape[0])) > 0, 1, -1)

    def predict_voted(self, X) -> np.ndarray:
        """Labels of the vote of all states weighted by survival; see `voted_predict`."""
        h = self.run.history
        return voted_predict(h.w, h.b, self.survival, X)


def _check_features(X, d: int) -> np.ndarray:
    X = check_X(X)
    if X.shape[1] != d:
        raise ValueError(f"X must have {d} features like the training data; got {X.shape[1]}.")
    return X


def voted_predict(W, B, counts, X) -> np.ndarray:
    """The voted perceptron: ``sgn(sum_k c_k sgn(<w_k, x> + b_k))``, every sgn with sgn(0) = -1.

    Each state votes with its label, weighted by its survival count ``c_k`` (integers, so the
    total is exact); a tied vote (total exactly 0) gives -1, as a score of 0 does.

    Examples
    --------
    >>> W = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> voted_predict(W, np.zeros(3), [1, 2, 2], [[1.0, -1.0], [1.0, 1.0]]).tolist()
    [-1, 1]
    """
    W, B = np.asarray(W, dtype=float), np.asarray(B, dtype=float)
    counts = np.asarray(counts)
    X = _check_features(X, W.shape[1])
    votes = np.zeros(X.shape[0], dtype=np.int64)
    for lo in range(0, len(B), 256):  # blocks of states: memory (256 x n), not (K x n)
        s = scores(W[lo : lo + 256], B[lo : lo + 256], X)
        votes += counts[lo : lo + 256].astype(np.int64) @ np.where(s > 0, 1, -1)
    return np.where(votes > 0, 1, -1)


def fit_averaged(
    X,
    y,
    *,
    epochs: int = 10,
    eta: float = 1.0,
    order: str = "cyclic",
    rng=None,
    w0=None,
    b0: float = 0.0,
    fit_bias: bool = True,
    update_on: str = "nonpositive",
    margin: float = 0.0,
) -> AveragedRun:
    """The online perceptron for exactly `epochs` passes, with the averaged line as a running sum.

    Each example goes through `perceptron.step` once per pass (no early stop: the averaged line
    keeps moving after the last update). The average of the states after each example is kept
    without touching it on every example: with ``u = sum_k t_k * Delta_k`` over the updates
    ``Delta_k`` made at example ``t_k``, the sum of the T states is
    ``T w0 + (T + 1)(w_T - w0) - u``, so the extra cost is O(d) per update, none per example.

    Parameters
    ----------
    X, y, eta, order, rng, w0, b0, fit_bias, update_on, margin
        As in `training.fit_perceptron`.
    epochs : int >= 1
        Passes over the data.

    Returns
    -------
    AveragedRun

    Examples
    --------
    >>> ar = fit_averaged([[2, 1], [-1, -2]], [1, -1], epochs=2)
    >>> ar.run.mistakes, ar.survival.tolist(), ar.w.tolist(), ar.b
    (1, [0, 4], [2.0, 1.0], 1.0)
    """
    X, y = check_X_y(X, y)
    eta = check_eta(eta)
    epochs = check_positive_int(epochs, name="epochs")
    order = check_choice(order, name="order", choices=ORDERS)
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    margin = check_margin(margin, update_on)
    n, d = X.shape
    w, b = check_start(w0, b0, d)
    w_start, b_start = w.copy(), b
    gen = check_rng(rng) if order == "random" else None
    rows_w, rows_b, rows_i, rows_e, rows_t, m_before = [], [], [], [], [], []
    u_w, u_b = np.zeros(d), 0.0  # running sums of t_k * Delta_k
    ew, eb, lw, lb = np.empty((epochs, d)), np.empty(epochs), np.empty((epochs, d)), np.empty(epochs)
    t = 0
    last_epoch_updates = 0
    for epoch in range(1, epochs + 1):
        before = len(rows_t)
        for i in range(n) if gen is None else gen.permutation(n):
            t += 1
            w_new, b_new, updated = step(
                w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias, margin=margin
            )
            if updated:
                m_before.append(float(y[i] * scores(w, b, X[i][None, :])[0]))
                u_w += t * (w_new - w)
                u_b += t * (b_new - b)
                w, b = w_new, b_new
                rows_w.append(w)
                rows_b.append(b)
                rows_i.append(int(i))
                rows_e.append(epoch)
                rows_t.append(t)
        # The mean of the states after examples 1..t, from the running sums (see above).
        ew[epoch - 1] = w_start + ((t + 1) * (w - w_start) - u_w) / t
        eb[epoch - 1] = b_start + ((t + 1) * (b - b_start) - u_b) / t
        lw[epoch - 1], lb[epoch - 1] = w, b
        last_epoch_updates = len(rows_t) - before
    K = len(rows_t)
    W = np.vstack([w_start[None, :]] + [r[None, :] for r in rows_w])
    B = np.array([b_start] + rows_b, dtype=float)
    idx = np.array(rows_i, dtype=np.intp)
    hist_margin_after = y[idx] * (np.einsum("ij,ij->i", X[idx], W[1:]) + B[1:]) if K else np.empty(0)
    batches = tuple(read_only(np.array([i], dtype=np.intp)) for i in rows_i)
    hist = History(W, B, idx, np.array(rows_e, dtype=np.intp), np.array(m_before), hist_margin_after, batches)
    run = Run(
        w=w.copy(), b=float(b), mistakes=K, epochs=epochs, converged=last_epoch_updates == 0, cycle=None,
        history=hist, method="online", eta=eta, update_on=update_on, order=order, fit_bias=bool(fit_bias),
        n_samples=n, margin=margin,
    )
    return AveragedRun(
        run=run, t=np.array(rows_t, dtype=np.int64), seen=t, w=ew[-1].copy(), b=float(eb[-1]),
        epoch_w=ew, epoch_b=eb, epoch_last_w=lw, epoch_last_b=lb,
    )


def vote_counts_at(averaged: AveragedRun, k: int) -> np.ndarray:
    """The vote's weights just after update k: how many of the examples 1..t_k each state 0..k was current after.

    States before k have their full survival; state k counts once (the example of its own update). So the
    weights add up to t_k, and the vote of states 0..k with them is the voted perceptron as it stood just after
    update k, as `AveragedRun.averages` row k is the averaged line then. At k = 0 (no example seen) the start
    votes alone, with weight 1.

    Examples
    --------
    >>> ar = fit_averaged([[2, 1], [-1, -2], [1, -2]], [1, -1, -1], epochs=2)
    >>> ar.t.tolist(), [vote_counts_at(ar, k).tolist() for k in range(ar.run.mistakes + 1)]
    ([1, 3], [[1], [0, 1], [0, 2, 1]])
    """
    K = len(averaged.t)
    if not isinstance(k, (int, np.integer)) or not 0 <= int(k) <= K:
        raise ValueError(f"k must be a whole number from 0 to {K} (the run's updates); got {k!r}.")
    k = int(k)
    if k == 0:
        return np.ones(1, dtype=np.int64)
    full = np.diff(np.concatenate([[1], averaged.t[:k]]))  # states 0..k-1: examples before the next update
    return np.append(full, 1).astype(np.int64)


@dataclass(frozen=True, eq=False)
class StepErrors:
    """The training errors of the four answers of lesson 06 as they stood just after each update k = 0..K.

    Attributes
    ----------
    current, averaged, pocket, vote : ndarray of int, shape (K + 1,)
        Training errors of the current line (state k), the averaged line (`AveragedRun.averages` row k),
        the pocket among states 0..k, and the vote of states 0..k weighted by `vote_counts_at`.
    pocket_k : ndarray of int, shape (K + 1,)
        The state in the pocket just after update k (the first of the fewest errors among 0..k).
    n : int
        The number of points counted on.
    """

    current: np.ndarray = field(repr=False)
    averaged: np.ndarray = field(repr=False)
    pocket: np.ndarray = field(repr=False)
    vote: np.ndarray = field(repr=False)
    pocket_k: np.ndarray = field(repr=False)
    n: int

    def __post_init__(self):
        for name in ("current", "averaged", "pocket", "vote", "pocket_k"):
            read_only(getattr(self, name))

    def at(self, k: int) -> dict:
        """``{"current": .., "averaged": .., "pocket": .., "vote": ..}`` just after update k, as ints."""
        return {name: int(getattr(self, name)[k]) for name in ("current", "averaged", "pocket", "vote")}


def step_errors(averaged: AveragedRun, X, y) -> StepErrors:
    """Training errors of the current, averaged, pocket and voted answers just after each update, exact counts.

    One rule decides an error for all four: the run's own mistake test at threshold 0
    (`perceptron.is_mistake` with its `update_on`, as `pocket` counts), applied to each answer's score.
    The averaged line's score after update k is ``(sum_j c_j s_j(x)) / t_k`` with the weights of
    `vote_counts_at` and ``s_j`` the score of state j; its sign is that of the weighted sum, which is
    counted instead (no division: on data with short binary coordinates, such as multiples of 1/16,
    every term and sum is exact). The sum is exact at 0 as a score is: within ``ZERO_TOL`` of the
    weighted sum of its scores' sizes it is 0, so a sum that is 0 in exact arithmetic counts the same
    whatever rounding a machine's products take (thirds, tenths). The vote is the exception: it is a
    predictor of labels, not a score, so its error is a label of `voted_predict` (each sgn(0) = -1, a
    tied vote -1) other than y. A point with a score of exactly 0 is thus an error of a line of either
    class but only a +1 point's error for a one-state vote. Cost: the scores of every state on every point, (K + 1) x n.

    Examples
    --------
    >>> X, y = [[1.0], [2.0], [-1.0], [1.5]], [1, 1, -1, -1]
    >>> se = step_errors(fit_averaged(X, y, epochs=2), X, y)
    >>> se.current.tolist(), se.averaged.tolist(), se.pocket_k.tolist(), se.vote.tolist()
    ([4, 2, 1, 2, 1, 2], [4, 2, 1, 1, 1, 1], [0, 1, 2, 2, 2, 2], [2, 1, 1, 1, 1, 1])
    """
    X, y = check_X_y(X, y)
    run = averaged.run
    h = run.history
    if X.shape[1] != h.w.shape[1]:
        raise ValueError(f"X must have {h.w.shape[1]} features like the run's data; got {X.shape[1]}.")
    if run.n_samples and run.n_samples != len(y):
        raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(y)} rows: pass its data.")
    S = scores(h.w, h.b, X)  # (K + 1, n), exact at 0
    sizes = np.linalg.norm(h.w, axis=1)[:, None] * np.linalg.norm(X, axis=1) + np.abs(h.b)[:, None]
    current = is_mistake(S, y, run.update_on).sum(axis=1)
    K = len(h) - 1
    full = np.diff(np.concatenate([[1], averaged.t])).astype(float)  # state j's weight once j + 1 exists
    signs = np.where(S > 0, 1.0, -1.0)
    # weighted sums over states 0..k-1 (full weights) plus state k once: row k of an exclusive cumulative sum
    before_s = np.vstack([np.zeros((1, S.shape[1])), np.cumsum(full[:, None] * S[:-1], axis=0)])
    before_v = np.vstack([np.zeros((1, S.shape[1])), np.cumsum(full[:, None] * signs[:-1], axis=0)])
    before_z = np.vstack([np.zeros((1, S.shape[1])), np.cumsum(full[:, None] * sizes[:-1], axis=0)])
    averaged_err = is_mistake(before_s + S, y, run.update_on, size=before_z + sizes).sum(axis=1)
    vote_err = (np.where(before_v + signs > 0, 1.0, -1.0) != y).sum(axis=1)  # whole numbers: exact
    best = np.zeros(K + 1, dtype=np.int64)  # the first of the fewest errors among states 0..k
    for k in range(1, K + 1):
        best[k] = k if current[k] < current[best[k - 1]] else best[k - 1]
    return StepErrors(current=current.astype(np.int64), averaged=averaged_err.astype(np.int64),
                      pocket=current[best].astype(np.int64), vote=vote_err.astype(np.int64), pocket_k=best,
                      n=len(y))
