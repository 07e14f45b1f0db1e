"""Time to convergence of fit_perceptron against scikit-learn's Cython Perceptron.

Both run the same epochs on the same separable data and reach the same weights;
each set is timed side by side in one run (best of several repeats), and the
ratio ours / sklearn is printed. Below 1 means ours is faster.

    python benchmarks/train_vs_sklearn.py
"""

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron

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


def best_of(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main(repeats=5):
    warnings.simplefilter("ignore", ConvergenceWarning)
    print(f"{'data set':26s} {'epochs':>6s} {'updates':>8s} {'ours ms':>9s} {'sklearn ms':>10s} {'ratio':>6s}  same w")
    for name, n, d, margin in SETS:
        X, y = separable(n, d, margin)
        run = fit_perceptron(X, y, max_epochs=1000)
        sk_model = Perceptron(shuffle=False, eta0=1, tol=None, penalty=None, max_iter=run.epochs)
        t_ours, _ = best_of(lambda X=X, y=y: fit_perceptron(X, y, max_epochs=1000), repeats)
        t_sk, sk = best_of(lambda m=sk_model, X=X, y=y: m.fit(X, y), repeats)
        same = np.array_equal(run.w, sk.coef_[0]) and run.b == sk.intercept_[0]
        print(f"{name:26s} {run.epochs:6d} {run.mistakes:8d} {1e3 * t_ours:9.1f} {1e3 * t_sk:10.1f} "
              f"{t_ours / t_sk:6.2f}  {same}")


if __name__ == "__main__":
    main()
