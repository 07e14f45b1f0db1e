"""Time to convergence of fit_perceptron against scikit-learn's Cython Perceptron.

Both run the same epochs on the same separable data and reach the same weights; each set is
timed side by side in one run, the two fits alternating (best of several repeats each), and the
ratio ours / sklearn is printed. Below 1 means ours is faster. The first line names the BLAS
that numpy's matrix-vector products run on (its kernel and threads, from threadpoolctl) and the
load average: on a busy machine both times grow, and the ratio with them. On a shared machine,
``--cpu`` times the CPU seconds of the fitting thread instead, with one BLAS thread (both fits
then run on that thread alone), which waiting for a core does not count.

    python -m benchmarks.train_vs_sklearn [--cpu]
"""

import argparse
import os
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron
from threadpoolctl import threadpool_info, threadpool_limits

from perceptron_lib import fit_perceptron

SETS = [  # (name, n, d, margin)
    ("1e5 x 20, wide margin", 100_000, 20, 0.5),
    ("1e5 x 20, narrow margin", 100_000, 20, 0.05),
    ("4e5 x 10", 400_000, 10, 0.1),
    ("2e4 x 100", 20_000, 100, 0.1),
]


def separable(n, d, margin, seed=0):
    """Gaussian points with a gap of 2*margin around a random unit normal."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    s = X @ u
    keep = np.abs(s) > margin
    return X[keep], np.where(s[keep] > 0, 1.0, -1.0)


def best_side_by_side(fns, repeats, clock=time.perf_counter):
    """The best time of each function, the functions taking turns in every round."""
    best = [np.inf] * len(fns)
    outs = [None] * len(fns)
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            t0 = clock()
            outs[k] = fn()
            best[k] = min(best[k], clock() - t0)
    return best, outs


def blas_line():
    blas = [f"{p['internal_api']} {p.get('architecture', '?')} kernel, {p['num_threads']} threads"
            for p in threadpool_info() if p["user_api"] == "blas" and "numpy" in p["filepath"]]
    core = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    env = f" {core}" if core else ""
    return f"numpy BLAS: {'; '.join(blas) or 'unknown'}{env}; load average {os.getloadavg()[0]:.2f}"


def main(repeats=7, cpu=False):
    warnings.simplefilter("ignore", ConvergenceWarning)
    if cpu:
        with threadpool_limits(limits=1, user_api="blas"):
            return _run(repeats, time.thread_time, "CPU ms of the fitting thread, one BLAS thread")
    return _run(repeats, time.perf_counter, "wall ms")


def _run(repeats, clock, unit):
    print(blas_line() + f"; {unit}")
    print(f"{'data set':26s} {'epochs':>6s} {'updates':>8s} {'ours ms':>9s} {'sklearn ms':>10s} {'ratio':>6s}  same w")
    for name, n, d, margin in SETS:
        X, y = separable(n, d, margin)
        run = fit_perceptron(X, y, max_epochs=1000)
        sk_model = Perceptron(shuffle=False, eta0=1, tol=None, penalty=None, max_iter=run.epochs)
        (t_ours, t_sk), (ours, sk) = best_side_by_side(
            [lambda X=X, y=y: fit_perceptron(X, y, max_epochs=1000), lambda m=sk_model, X=X, y=y: m.fit(X, y)],
            repeats, clock)
        same = np.array_equal(ours.w, sk.coef_[0]) and ours.b == sk.intercept_[0] and np.array_equal(ours.w, run.w)
        print(f"{name:26s} {run.epochs:6d} {run.mistakes:8d} {1e3 * t_ours:9.1f} {1e3 * t_sk:10.1f} "
              f"{t_ours / t_sk:6.2f}  {same}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help="CPU time of the fitting thread, one BLAS thread")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    main(args.repeats, args.cpu)
