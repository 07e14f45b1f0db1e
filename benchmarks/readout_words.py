"""The words of a whole run, as a browser player is sent them: step by step against one pass.

A `BrowserPlayer` (and the editor, after each edit with a kernel) sends the readout lines and the alt sentence
of every step k = 0..K with the run. Side by side in one run, the two ways to compute them, on the same runs:

* per step: ``[state_lines(run, X, y, k) for k]`` and ``[alt_text(run, X, y, k) for k]``, one product of the
  data with state k for each count ("Mistakes now"), and each number formatted anew;
* one pass: ``all_words(run, X, y)`` (``all_state_lines`` and ``all_alt_texts`` together): the counts of every
  state from one chunked product (`core.step_counts.mistake_counts`), each number formatted once.

The two give the same strings (checked here on every run before timing). The crosses of every step, which
`step_numbers` sends with the run, are timed the same way: the stacked product of every state with the data and a
``flatnonzero`` per row (`core.frames.mistakes_at_each_step` until 2026-11-26, `stacked_crosses` here) against
`core.frames.mistakes_at_each_step` now (`core.step_counts.mistakes_at_each_state`: chunked, exactly the one-state
test, the indices cut into rows in one pass); the same lists (checked).

Runs: 200 points that a line separates (``data.separable(200, margin=0.1, seed=1)``),
the same with 10 labels flipped (cyclic order, 100 epochs), with 20 flipped in random order (the editor's
worst case measured: about 4,400 updates), with 10 flipped by the batch method (1,000 iterations), and 40
points, separable and with 4 labels flipped. Each way runs ``--repeats`` times (default 9), the two ways
alternating; the tables give medians and the ratio of the medians, in wall time and in this process's CPU
time (steadier on a shared machine, where other processes stretch wall time several-fold).

Run from the repository's root: ``.venv/bin/python -m benchmarks.readout_words [--repeats 9]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from perceptron_lib import fit_batch, fit_perceptron
from perceptron_lib.core import data
from perceptron_lib.core.frames import mistakes_at_each_step
from perceptron_lib.core.perceptron import is_mistake, scores
from perceptron_lib.player.readout import all_words, alt_text, state_lines


def stacked_crosses(run, X, y) -> list:
    """The crosses as `frames.mistakes_at_each_step` made them before: one stacked product, a numpy call per row."""
    h = run.history
    wrong = is_mistake(scores(h.w, h.b, X), np.asarray(y, dtype=float), run.update_on)
    return [np.flatnonzero(row).tolist() for row in np.atleast_2d(wrong)]


def flipped(n: int, flips: int):
    X, y = data.separable(n, margin=0.1, seed=1)
    y = y.copy()
    y[:flips] *= -1
    return X, y


def cases():
    """(name, run, X, y) of each run timed."""
    X, y = data.separable(200, margin=0.1, seed=1)
    yield "200 separable", fit_perceptron(X, y), X, y
    X, y = flipped(200, 10)
    yield "200 not sep., cyclic", fit_perceptron(X, y, max_epochs=100), X, y
    X, y = flipped(200, 20)
    yield "200 not sep., random", fit_perceptron(X, y, max_epochs=100, order="random", rng=0), X, y
    X, y = flipped(200, 10)
    yield "200 not sep., batch", fit_batch(X, y, max_iter=1000), X, y
    X, y = data.separable(40, margin=0.1, seed=1)
    yield "40 separable", fit_perceptron(X, y), X, y
    X, y = flipped(40, 4)
    yield "40 not sep., cyclic", fit_perceptron(X, y, max_epochs=100), X, y


def per_step(run, X, y):
    steps = range(len(run.history))
    return [state_lines(run, X, y, k) for k in steps], [alt_text(run, X, y, k) for k in steps]


def one_pass(run, X, y):
    return all_words(run, X, y)


def side_by_side(a, b, repeats: int, clock) -> tuple[float, float]:
    """Median ms of a() and of b() by `clock`, called alternately `repeats` times each."""
    ta, tb = [], []
    for _ in range(repeats):
        for f, t in ((a, ta), (b, tb)):
            t0 = clock()
            f()
            t.append(1e3 * (clock() - t0))
    return statistics.median(ta), statistics.median(tb)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    runs = list(cases())
    for name, run, X, y in runs:
        assert per_step(run, X, y) == one_pass(run, X, y), name
        assert stacked_crosses(run, X, y) == mistakes_at_each_step(run, X, y), name
    for clock, what in ((time.perf_counter, "wall time"), (time.process_time, "CPU time of this process")):
        print(f"\n{what}: medians of {args.repeats}, the two ways alternating; load average {os.getloadavg()[0]:.1f}")
        print(f"{'run':22} {'K':>5} | {'words per step':>14} {'one pass':>9} {'ratio':>6} | "
              f"{'crosses: stacked':>16} {'frames now':>10} {'ratio':>6}")
        for name, run, X, y in runs:
            a_ = (run, X, y)
            w_old, w_new = side_by_side(lambda a=a_: per_step(*a), lambda a=a_: one_pass(*a), args.repeats, clock)
            c_old, c_new = side_by_side(lambda a=a_: stacked_crosses(*a),
                                        lambda a=a_: mistakes_at_each_step(*a), args.repeats, clock)
            print(f"{name:22} {len(run.history) - 1:5d} | {w_old:11.1f} ms {w_new:6.1f} ms {w_old / w_new:6.1f} | "
                  f"{c_old:12.1f} ms {c_new:8.1f} ms {c_old / c_new:6.1f}")


if __name__ == "__main__":
    main()
