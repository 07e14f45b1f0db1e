"""The fast online fit is `step` applied to every example in turn, to the bit, whichever pre-filter it takes.

`fit_perceptron` asks the rule only about examples its pre-filters cannot rule out: a plain-float scan for rows of
d <= 3 while mistakes come often, float32 or float64 chunks otherwise, and it switches between them as the gaps
between mistakes change. Whatever it takes, its run must be the plain loop's: `step` on each example of each epoch
(in the epoch's permutation for ``order="random"``), every state, update, epoch, mistake count, stop and cycle the
same. The plain loop here is written out in full (epochs, permutations, the cycle test) so that the comparison
covers the whole `Run`, and `reference_perceptron` (the library's plain loop) is compared too.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib.core import training
from perceptron_lib.core.perceptron import step
from perceptron_lib.core.training import fit_perceptron, reference_perceptron


def plain_loop(X, y, *, eta=1.0, max_epochs=1000, order="cyclic", rng=None, w0=None, b0=0.0, fit_bias=True,
               update_on="nonpositive", margin=0.0):
    """Every example asked, in Python: (states w, states b, indices, epochs, epochs run, converged, cycle)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    n, d = X.shape
    w = np.zeros(d) if w0 is None else np.asarray(w0, dtype=float).copy()
    b = float(b0)
    gen = np.random.default_rng(rng) if order == "random" else None
    W, B, updated_on, E, seen = [w.copy()], [b], [], [], {}
    converged, cycle, epoch = False, None, 0
    while epoch < max_epochs:
        epoch += 1
        before = len(updated_on)
        for i in range(n) if gen is None else gen.permutation(n).tolist():
            w_new, b_new, updated = step(w, b, X[i], y[i], eta=eta, update_on=update_on, fit_bias=fit_bias,
                                         margin=margin)
            if updated:
                w, b = w_new, b_new
                W.append(w), B.append(b), updated_on.append(i), E.append(epoch)
        if len(updated_on) == before:
            converged = True
            break
        if gen is None:
            key = np.append(w, b).tobytes()
            if key in seen:
                start, then = seen[key]
                cycle = (start, epoch - start, len(updated_on) - then)
                break
            seen[key] = (epoch, len(updated_on))
    return np.array(W), np.array(B), updated_on, E, epoch, converged, cycle


def assert_same_run(X, y, **kw):
    run = fit_perceptron(X, y, **kw)
    W, B, updated_on, E, epochs, converged, cycle = plain_loop(X, y, **kw)
    h = run.history
    assert h.i.tolist() == updated_on and h.epoch.tolist() == E
    assert h.w.tobytes() == W.tobytes() and h.b.tobytes() == B.tobytes()  # every state, to the bit
    assert (run.mistakes, run.epochs, run.converged) == (len(updated_on), epochs, converged)
    got = None if run.cycle is None else (run.cycle.start, run.cycle.length, run.cycle.mistakes_per_cycle)
    assert got == cycle
    assert run.w.tobytes() == W[-1].tobytes() and run.b == B[-1]
    if kw.get("order", "cyclic") == "cyclic" and cycle is None:
        keep = ("eta", "max_epochs", "w0", "b0", "fit_bias", "update_on", "margin")
        w, b, updates = reference_perceptron(X, y, **{k: v for k, v in kw.items() if k in keep})
        assert updates == updated_on and w.tobytes() == W[-1].tobytes() and b == B[-1]
    return run


def sample(kind: str, n: int, d: int, seed: int):
    rng = np.random.default_rng(seed)
    if kind == "integers":  # integer points, some exactly on the line <u, x> + 1 = 0
        u = np.arange(1.0, d + 1)
        X = rng.integers(-4, 5, size=(n, d)).astype(float)
        on = rng.random(n) < 0.25
        X[on, 0] = -1.0 - X[on, 1:] @ u[1:]
        y = np.where(X @ u + 1 > 0, 1.0, -1.0)
    elif kind == "tenths":  # rational-ish: tenths, whose sums round
        X = rng.integers(-30, 31, size=(n, d)) / 10.0
        y = np.where(X[:, 0] + 0.3 > 0, 1.0, -1.0)
    elif kind == "no line":  # gaussian, labels noisy: no line separates, long runs
        X = rng.normal(size=(n, d))
        y = np.where(X[:, 0] + 0.4 * rng.normal(size=n) > 0, 1.0, -1.0)
    elif kind == "xor":  # small integers, XOR-like: the state cycles under cyclic order
        X = rng.integers(-2, 3, size=(n, d)).astype(float)
        y = np.where(X[:, 0] * X[:, -1] >= 0, 1.0, -1.0)
    else:  # "rare": separable with a margin, a few flipped labels: long gaps, then bursts (both pre-filters)
        X = rng.normal(size=(n, d))
        s = X @ np.linspace(1.0, 0.3, d) + 0.2
        keep = (np.abs(s) > 0.05) | (np.arange(n) == 0)  # never empty
        X, s = X[keep], s[keep]
        y = np.where(s > 0, 1.0, -1.0)
        y[rng.random(len(y)) < 0.01] *= -1
    if kind in ("tenths", "no line", "integers"):
        y[rng.random(len(y)) < 0.1] *= -1
    return X, y


RULES = [("nonpositive", 0.0), ("negative", 0.0), ("sign", 0.0), ("nonpositive", 1.0), ("negative", 1.0)]


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(["integers", "tenths", "no line", "xor", "rare"]), n=st.sampled_from([1, 7, 60, 300, 700]),
       d=st.integers(1, 5), seed=st.integers(0, 100_000), rule=st.sampled_from(RULES),
       eta=st.sampled_from([1.0, 0.1, 0.3, 2.5]), order=st.sampled_from(["cyclic", "random"]), fit_bias=st.booleans(),
       start=st.booleans(), max_epochs=st.sampled_from([1, 4, 25]), scale=st.sampled_from([1.0, 1.0, 1e-40, 1e150]))
def test_the_fast_fit_is_the_plain_loop(kind, n, d, seed, rule, eta, order, fit_bias, start, max_epochs, scale):
    X, y = sample(kind, n, d, seed)
    X = X * scale
    update_on, margin = rule
    kw = dict(eta=eta, order=order, rng=seed, fit_bias=fit_bias, update_on=update_on, margin=margin * scale**2,
              max_epochs=max_epochs)
    if start:
        kw.update(w0=np.linspace(-0.5, 0.7, d) * scale, b0=0.25 * scale)
    assert_same_run(X, y, **kw)


def test_a_cycle_is_found_at_the_same_epoch():
    """Integer XOR points under cyclic order: the state at an epoch boundary repeats; the fast fit stops there too."""
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    run = assert_same_run(X, np.array([1.0, 1.0, -1.0, -1.0]), max_epochs=50)
    assert run.cycle is not None and not run.converged


def test_each_pre_filter_is_taken_and_the_run_is_the_same(monkeypatch):
    """The same data through the scans alone, the chunks alone, and the switching between them: one run."""
    X, y = sample("rare", 3000, 2, 3)
    X2, y2 = sample("no line", 200, 3, 5)
    runs = {}
    for name, gap in (("switching", training._SCAN_GAP), ("chunks only", -1.0), ("scans only", float("inf"))):
        monkeypatch.setattr(training, "_SCAN_GAP", gap)
        runs[name] = [assert_same_run(X, y, max_epochs=20), assert_same_run(X2, y2, max_epochs=30, order="random",
                                                                              rng=2)]
    for a, b in zip(runs["switching"], runs["chunks only"], strict=True):
        assert a.history.w.tobytes() == b.history.w.tobytes()
