"""The margin bound's proof, as numbers along a run.

The theorem (homogeneous form): if a unit vector u has ``y_i <u, x_i> >= gamma > 0`` for all i
and ``||x_i|| <= R``, the perceptron without offset, from w = 0, with any step eta > 0 and in
any order, makes at most ``(R / gamma)^2`` mistakes. The proof tracks two numbers after t
mistakes (t updates):

* Claim 1: ``<u, w_t> >= t * eta * gamma`` (each update adds ``eta * y_i <u, x_i> >= eta * gamma``);
* Claim 2: ``||w_t||^2 <= t * eta^2 * R^2`` (each update adds
  ``2 eta y_i <w, x_i> + eta^2 ||x_i||^2``, and the cross term is <= 0 on a mistake);

and joins them with Cauchy-Schwarz, ``<u, w_t> <= ||w_t||``, into
``t eta gamma <= <u, w_t> <= ||w_t|| <= eta R sqrt(t)``, so ``t <= (R / gamma)^2``.

`trace` computes these quantities at every state of a `~perceptron_lib.core.runs.Run` and says
whether each claim holds there. A run with offset is traced in the augmented space
``x~ = (1, x)``, ``w~ = (b, w)``, where it is a homogeneous run; the bound there is the offset
bound ``(b*^2 + 1)(1 + R^2) / gamma^2``. `adversarial_run` replays the perceptron with a rule
that picks, among the current mistakes, the one that helps least, and returns a `Run` for the
player.

This module computes only; `perceptron_lib.player.panels.claims` draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_eta, check_positive_int, check_w, check_w_b, check_X_y, read_only
from .margins import max_margin_separator, radius
from .perceptron import UPDATE_RULES, is_mistake, scores, step
from .runs import History, Run

__all__ = ["ProofTrace", "trace", "adversarial_run", "augment"]

# Relative slack for comparing computed quantities with their bounds (floating-point rounding only).
_RTOL = 1e-9

#: Gains ``y_i <u, x_i>`` closer than TIE_TOL * R are equal for the adversary: far above rounding
#: (about 1e-16 * R per term) and far below any gap that real data put between two points.
TIE_TOL = 1e-9


def augment(X) -> np.ndarray:
    """The points with a 1 put in front, ``(1, x_i)``: the offset becomes the first weight.

    Examples
    --------
    >>> augment([[2.0, 3.0]]).tolist()
    [[1.0, 2.0, 3.0]]
    """
    from .._validation import check_X

    X = check_X(X)
    return np.hstack([np.ones((X.shape[0], 1)), X])



@dataclass(frozen=True, eq=False)
class ProofTrace:
    """The proof's quantities at every state t = 0..K of a run (t = number of mistakes so far).

    For a run with offset every vector is augmented: ``w_t`` means ``(b_t, w_t)``, ``x_i`` means
    ``(1, x_i)`` and ``u`` is the unit vector along ``(b*, w*)``.

    Attributes
    ----------
    t : ndarray of int, shape (K + 1,)
        0, 1, ..., K.
    inner : ndarray, shape (K + 1,)
        ``<u, w_t>``.
    sqnorm : ndarray, shape (K + 1,)
        ``||w_t||^2``.
    floor : ndarray, shape (K + 1,)
        Claim 1's lower bound ``t * eta * gamma``.
    ceiling : ndarray, shape (K + 1,)
        Claim 2's upper bound ``t * eta^2 * R^2``.
    cross : ndarray, shape (K,)
        The cross term ``2 eta y_i <w_{t-1}, x_i>`` of update t (<= 0 on a mistake).
    u : ndarray
        The unit separator used (augmented for an offset run).
    gamma : float
        Its margin ``min_i y_i <u, x_i>`` (augmented for an offset run).
    R : float
        ``max_i ||x_i||`` (augmented: ``sqrt(1 + R^2)``).
    eta : float
        The run's step size.
    bound : float
        ``(R / gamma)^2``.
    form : {"homogeneous", "offset"}
    """

    t: np.ndarray
    inner: np.ndarray
    sqnorm: np.ndarray
    floor: np.ndarray
    ceiling: np.ndarray
    cross: np.ndarray
    u: np.ndarray
    gamma: float
    R: float
    eta: float
    bound: float
    form: str

    def __post_init__(self):
        for name in ("t", "inner", "sqnorm", "floor", "ceiling", "cross", "u"):
            read_only(getattr(self, name))

    @property
    def mistakes(self) -> int:
        """K, the number of updates of the run."""
        return int(self.t[-1])

    @property
    def norm(self) -> np.ndarray:
        """``||w_t||``."""
        return np.sqrt(self.sqnorm)

    @property
    def gains(self) -> np.ndarray:
        """What update t added to ``<u, w>``: ``eta * y_i <u, x_i>``, shape (K,); each is >= eta * gamma."""
        return np.diff(self.inner)

    @property
    def growths(self) -> np.ndarray:
        """What update t added to ``||w||^2``, shape (K,); each is <= eta^2 * R^2."""
        return np.diff(self.sqnorm)

    def _tol(self, a, b) -> np.ndarray:
        return _RTOL * (1.0 + np.abs(a) + np.abs(b))

    @property
    def claim1(self) -> np.ndarray:
        """Claim 1 at each state: ``<u, w_t> >= t eta gamma`` (bool, shape (K + 1,))."""
        return self.inner >= self.floor - self._tol(self.inner, self.floor)

    @property
    def claim2(self) -> np.ndarray:
        """Claim 2 at each state: ``||w_t||^2 <= t eta^2 R^2`` (bool, shape (K + 1,))."""
        return self.sqnorm <= self.ceiling + self._tol(self.sqnorm, self.ceiling)

    @property
    def cauchy_schwarz(self) -> np.ndarray:
        """``<u, w_t> <= ||w_t||`` at each state (bool, shape (K + 1,))."""
        return self.inner <= self.norm + self._tol(self.inner, self.norm)

    @property
    def holds(self) -> bool:
        """Both claims and Cauchy-Schwarz at every state, each cross term <= 0, and K <= bound."""
        cross_ok = bool(np.all(self.cross <= self._tol(self.cross, 0.0)))
        return bool(self.claim1.all() and self.claim2.all() and self.cauchy_schwarz.all() and cross_ok
                    and self.mistakes <= self.bound * (1 + _RTOL))


def _unit_separator(X, y, u, b, fit_bias):
    """(u~, gamma, R, Xa): the unit separator and the data in the space where the run is homogeneous."""
    d = X.shape[1]
    if fit_bias:
        if (u is None) != (b is None):
            raise ValueError("for a run with offset give both u and b (a separator (u, b)), or neither "
                             "(to use the maximum-margin separator with offset).")
        if u is None:
            sep = max_margin_separator(X, y, fit_bias=True)
            u, b = sep.w, sep.b
        u, b = check_w_b(u, b, d)
        v = np.append(b, u)
        Xa = augment(X)
    else:
        if b is not None and b != 0:
            raise ValueError(f"this run has no offset, so the separator must pass through the origin; got b = {b!r}. "
                             "Leave b out.")
        if u is None:
            u = max_margin_separator(X, y, fit_bias=False).w
        v = check_w(u, d, name="u")
        Xa = X
    norm = float(np.linalg.norm(v))
    if norm == 0:
        raise ValueError("u must not be the zero vector; give the normal of a separating hyperplane.")
    v = v / norm
    gamma = float(np.min(y * (Xa @ v)))
    if gamma <= 0:
        what = "(u, b)" if fit_bias else "u"
        raise ValueError(f"{what} does not separate the data: its margin min_i y_i<u, x_i> is {gamma:.6g} <= 0, so "
                         "it proves nothing. Leave it out to use the maximum-margin separator.")
    return v, gamma, radius(Xa), Xa


def trace(run, X, y, *, u=None, b=None) -> ProofTrace:
    """The proof's quantities along an online run from w = 0: both claims at every update.

    Parameters
    ----------
    run : Run
        An online run (`fit_perceptron` or `adversarial_run`) that started at w = 0, b = 0.
    X, y : array-like
        The data it was fitted on.
    u : array-like, shape (d,), optional
        A separator; it is scaled to unit length. Default: the maximum-margin separator
        (through the origin for a run without offset, with offset otherwise).
    b : float, optional
        Its offset, for a run with offset only (give u and b together).

    Returns
    -------
    ProofTrace

    Raises
    ------
    ValueError
        If the run is not online, did not start at 0, does not fit X, or if u does not separate.

    Examples
    --------
    >>> from perceptron_lib import fit_perceptron
    >>> X, y = [[1.0, 0.0], [0.0, 1.0]], [1, -1]
    >>> run = fit_perceptron(X, y, fit_bias=False)
    >>> tr = trace(run, X, y, u=[1, -1])
    >>> tr.t.tolist(), tr.inner.round(4).tolist(), tr.floor.round(4).tolist()
    ([0, 1, 2], [0.0, 0.7071, 1.4142], [0.0, 0.7071, 1.4142])
    >>> tr.sqnorm.tolist(), tr.ceiling.tolist(), tr.bound.__round__(6), tr.holds
    ([0.0, 1.0, 2.0], [0.0, 1.0, 2.0], 2.0, True)
    """
    X, y = check_X_y(X, y)
    h = getattr(run, "history", None)
    if h is None or not hasattr(h, "w"):
        raise TypeError(f"run must be a Run from fit_perceptron or adversarial_run; got {type(run).__name__}.")
    if run.method != "online":
        raise ValueError(f"the proof counts one example per update: it needs an online run, not a {run.method!r} "
                         "run (a batch step adds several examples at once).")
    if h.w.shape[1] != X.shape[1] or (run.n_samples and run.n_samples != len(X)):
        raise ValueError(f"the run does not fit X: its w has length {h.w.shape[1]} and it saw {run.n_samples} "
                         f"examples; X has shape {X.shape}.")
    if np.any(h.w[0] != 0) or h.b[0] != 0:
        raise ValueError("the theorem starts from w = 0 (and b = 0); this run started elsewhere. "
                         "Fit it with the default w0=None, b0=0.")
    v, gamma, R, Xa = _unit_separator(X, y, u, b, bool(run.fit_bias))
    W = np.column_stack([h.b, h.w]) if run.fit_bias else np.asarray(h.w)
    K = len(h) - 1
    t = np.arange(K + 1)
    eta = float(run.eta)
    inner = W @ v
    sqnorm = np.einsum("ij,ij->i", W, W)
    idx = np.asarray(h.i, dtype=int)
    cross = 2 * eta * y[idx] * np.einsum("ij,ij->i", W[:-1], Xa[idx]) if K else np.empty(0)
    return ProofTrace(
        t=t, inner=inner, sqnorm=sqnorm, floor=t * eta * gamma, ceiling=t * eta**2 * R**2, cross=cross,
        u=v, gamma=gamma, R=R, eta=eta, bound=(R / gamma) ** 2, form="offset" if run.fit_bias else "homogeneous",
    )


def adversarial_run(X, y, u=None, *, eta: float = 1.0, update_on: str = "nonpositive", max_updates=None) -> Run:
    """The homogeneous perceptron from w = 0, always updating on the mistake that helps least.

    The rule, in full: at each round, find every example that fails the test `update_on` for the
    current w (by default ``y_i <w, x_i> <= 0``); among them, update on the one with the smallest
    ``y_i <u, x_i>``, the smallest gain ``eta * y_i <u, x_i>`` in ``<u, w>`` that any mistake
    could give. Stop when no example fails the test. Claim 1 is
    then as tight as this data set allows at every step; the run is still bounded by
    ``(R / gamma)^2``.

    Ties are the rule, not the exception: with the maximum-margin u every support vector has
    the same gain gamma, and which of them a solver's last bits put lowest differs between
    machines. So gains within `TIE_TOL` * R of the smallest count as equal, and the smallest
    index among them is taken; the run is then the same on every CPU and BLAS.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    u : array-like, shape (d,), optional
        The separator whose gain is minimised (scaled to unit length). Default: the
        maximum-margin separator through the origin.
    eta : float > 0
    update_on : {"nonpositive", "negative", "sign"}
        The mistake test, as in `fit_perceptron`.
    max_updates : int, optional
        Safety limit; default ``floor((R / gamma)^2) + 2``, which the theorem says is never reached.

    Returns
    -------
    Run
        ``method="online"``, ``order="adversarial"``, ``fit_bias=False``. Each round makes one
        update, so ``history.epoch`` is 1, 2, ..., K and ``epochs`` counts the rounds (K + 1
        when the last round found no mistake: ``converged``).

    Raises
    ------
    ValueError
        If u does not separate the data through the origin (or, with u omitted, if nothing does).

    Examples
    --------
    >>> X, y = [[1.0, 0.0], [0.0, 1.0], [3.0, 1.0]], [1, -1, 1]
    >>> run = adversarial_run(X, y, u=[1, -1])
    >>> run.history.i.tolist(), run.w.tolist(), run.converged
    ([0, 1], [1.0, -1.0], True)
    """
    X, y = check_X_y(X, y)
    eta = check_eta(eta)
    update_on = check_choice(update_on, name="update_on", choices=UPDATE_RULES)
    v, gamma, R, _ = _unit_separator(X, y, u, None, False)
    n, d = X.shape
    cap = int(np.floor((R / gamma) ** 2)) + 2 if max_updates is None else check_positive_int(max_updates,
                                                                                             name="max_updates")
    gain = y * (X @ v)
    tie = TIE_TOL * R
    w = np.zeros(d)
    rows, chosen, before, after = [w.copy()], [], [], []
    converged = False
    while len(chosen) < cap:
        s = scores(w, 0.0, X)
        wrong = np.flatnonzero(is_mistake(s, y, update_on))
        if wrong.size == 0:
            converged = True
            break
        g = gain[wrong]
        i = int(wrong[np.flatnonzero(g <= g.min() + tie)[0]])  # near-ties: the smallest index
        before.append(float(y[i] * s[i]))
        w, _, _ = step(w, 0.0, X[i], y[i], eta=eta, update_on=update_on, fit_bias=False)  # the one update rule
        after.append(float(y[i] * (X[i] @ w)))
        rows.append(w.copy())
        chosen.append(i)
    if not converged and not is_mistake(scores(w, 0.0, X), y, update_on).any():
        converged = True
    K = len(chosen)
    hist = History(
        w=np.array(rows), b=np.zeros(K + 1), i=np.array(chosen, dtype=np.intp), epoch=np.arange(1, K + 1),
        margin_before=np.array(before), margin_after=np.array(after),
        batches=tuple(read_only(np.array([i], dtype=np.intp)) for i in chosen),
    )
    return Run(
        w=w.copy(), b=0.0, mistakes=K, epochs=K + 1 if converged else K, converged=converged, cycle=None,
        history=hist, method="online", eta=eta, update_on=update_on, order="adversarial", fit_bias=False,
        n_samples=n,
    )
