"""Kernel-side latency of one step of the player, against clearing and replotting.

Scene: 200 random points, a boundary line and the w arrow, from a real `fit_perceptron` run
with at least 50 updates. Both ways produce PNG bytes for an ``ipywidgets.Image``:

(a) clear-and-replot: a new pyplot figure per step (scatter, line, arrow), ``savefig`` to PNG,
    close it, set the Image value;
(b) ``StepThrough.next()``: move the animated artists, blit, encode PNG, set the Image value
    (and the readout).

Prints the median of 50 steps of each and the ratio, then the PNG encode of one 2x frame on its own:
`render.png_frame` (ISA-L's deflate) against the same PNG deflated by the standard library's zlib at the
same level, side by side. Run: ``.venv/bin/python -m benchmarks.step_latency``.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
import zlib

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from perceptron_lib import fit_perceptron
from perceptron_lib.draw import arrows as A
from perceptron_lib.draw import plotting as P
from perceptron_lib.draw import style as S
from perceptron_lib.player import StepThrough, render

STEPS = 50


def make_run(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 2))
    y = np.where(X @ np.array([1.0, 2.0]) + 0.3 > 0, 1, -1)
    run = fit_perceptron(X, y)
    if run.mistakes < STEPS + 1:
        raise SystemExit(f"the run has only {run.mistakes} updates; pick another seed")
    return run, X, y


def clear_and_replot(run, X, y, image, k):
    """The slow way: a brand-new figure every step."""
    st = run.history[k]
    fig = plt.figure(figsize=S.NOTEBOOK.panel_size, dpi=S.NOTEBOOK.dpi)
    ax = fig.add_subplot()
    P.draw_points(ax, X, y)
    ax.set_aspect("equal", adjustable="box")
    P.draw_boundary(ax, st.w, st.b)
    A.draw_w_arrow(ax, st.w, st.b, scale=0.2)
    ax.set_title(f"update {k} of {len(run.history) - 1}")
    bio = io.BytesIO()
    fig.savefig(bio, format="png")
    plt.close(fig)
    image.value = bio.getvalue()


def median_ms(fn, n=STEPS):
    times = []
    for j in range(n):
        t0 = time.perf_counter()
        fn(j)
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main():
    run, X, y = make_run()
    image = widgets.Image(format="png")
    clear_and_replot(run, X, y, image, 1)  # warm up fonts and caches
    a = median_ms(lambda j: clear_and_replot(run, X, y, image, 1 + j))

    player = StepThrough(run, X, y)
    player.next()
    player.reset()
    b = median_ms(lambda j: player.next())
    w, h = player.figure.canvas.get_width_height()

    print(f"scene: {len(X)} points, line + arrow, {w}x{h} px; run with {run.mistakes} updates; median of {STEPS} steps")
    print(f"(a) clear-and-replot (pyplot figure, savefig PNG, Image.value): {a:7.2f} ms")
    print(f"(b) StepThrough.next() (blit, PNG encode, Image.value, readout): {b:7.2f} ms")
    print(f"ratio a/b: {a / b:.1f}x")

    # The encode alone: the frame's rows deflated by ISA-L (png_frame) and by zlib, alternating.
    rgba = np.array(player.figure.canvas.buffer_rgba())
    rows = np.zeros((h, 4 * w + 1), dtype=np.uint8)
    rows[:, 1:] = rgba.reshape(h, 4 * w)
    isal_ms = median_ms(lambda j: render.png_frame(rgba))
    zlib_ms = median_ms(lambda j: zlib.compress(memoryview(rows).cast("B"), 1))
    isal_kb, zlib_kb = len(render.png_frame(rgba)) / 1e3, len(zlib.compress(rows.tobytes(), 1)) / 1e3
    print(f"PNG of one frame ({rgba.nbytes / 1e6:.1f} MB of pixels): png_frame (ISA-L) {isal_ms:.2f} ms,"
          f" {isal_kb:.0f} KB; zlib level 1 (deflate only) {zlib_ms:.2f} ms, {zlib_kb:.0f} KB;"
          f" ratio {zlib_ms / isal_ms:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
