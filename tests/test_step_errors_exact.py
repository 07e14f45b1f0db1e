"""`step_errors`' count for the averaged line against exact arithmetic, on data with no short binary form.

On thirds the weighted sum of a point's scores is often exactly 0 in exact arithmetic and a few units of rounding
in floats, of either sign depending on how a machine multiplies (numpy's matrix product may fuse a multiply and an
add; the browser's port does not). `step_errors` reads such a sum as 0, as a score is read (within ``ZERO_TOL`` of
the weighted sum of its terms' sizes), so its count is the exact one: here the run is replayed with fractions and
every weighted sum counted exactly.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from perceptron_lib.core.averaged import fit_averaged, step_errors


def _exact_averaged_errors(Q, y, epochs):
    """The run on the points Q / 3 in fractions (w = 0, b = 0, cyclic, y <w, x> + b <= 0), and the averaged line's
    errors just after each update: y (sum_j c_j s_j(x)) <= 0, with the weights of `vote_counts_at`."""
    X = [[Fraction(int(a), 3), Fraction(int(b), 3)] for a, b in Q]
    w, b, states, t, seen = [Fraction(0)] * 2, Fraction(0), [], [], 0
    states.append((w, b))
    for _ in range(epochs):
        for x, label in zip(X, y, strict=True):
            seen += 1
            if label * (x[0] * w[0] + x[1] * w[1] + b) <= 0:
                w, b = [w[0] + label * x[0], w[1] + label * x[1]], b + label
                states.append((w, b))
                t.append(seen)
    weights = [t[j] - (t[j - 1] if j else 1) for j in range(len(t))]
    score = [[x[0] * sw[0] + x[1] * sw[1] + sb for x in X] for sw, sb in states]
    errors = []
    for k in range(len(states)):
        sums = [sum(weights[j] * score[j][i] for j in range(k)) + score[k][i] for i in range(len(X))]
        errors.append(sum(label * s <= 0 for label, s in zip(y, sums, strict=True)))
    return errors, len(t)


def test_the_averaged_lines_errors_are_the_exact_ones_on_thirds():
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(60):
        n = int(rng.integers(2, 12))
        Q = rng.integers(-6, 7, size=(n, 2))
        y = np.where(rng.random(n) < 0.5, 1, -1)
        ar = fit_averaged(Q / 3.0, y.astype(float), epochs=4)
        want, K = _exact_averaged_errors(Q, [int(v) for v in y], 4)
        assert K == len(ar.t)  # the float run makes the exact run's updates
        assert step_errors(ar, Q / 3.0, y.astype(float)).averaged.tolist() == want
        checked += 1
    assert checked == 60
