"""Render the players' panels to PNG files in this folder, in both presets, to look at them.

Run: ``.venv/bin/python docs/render_frames.py``. The frames are the matplotlib drawing each browser player keeps
as the still of its saved output (`render.Scene` of a `DataPanel` and the player's panels, at 2x its CSS size).
"""

from pathlib import Path

import numpy as np

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, kernels
from perceptron_lib.draw import style as _style
from perceptron_lib.player import DataPanel, LiftedPanel, LossPanel
from perceptron_lib.player.render import DENSITY, Scene, png_frame

HERE = Path(__file__).resolve().parent


def perceptron_loss(run, X, y):
    h = run.history
    return np.array([np.mean(np.maximum(0.0, -y * (X @ w + b))) for w, b in zip(h.w, h.b, strict=True)])


def blobs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(X @ np.array([1.0, 2.0]) + 0.3 > 0, 1, -1)
    return fit_perceptron(X, y), X, y


def circle():
    Q, y = data.circles(80, r_inner=0.8, r_outer=1.6, noise=0.15, seed=1)
    Z = kernels.lift(Q)
    return fit_perceptron(Z, y), Z, y


def scene(run, X, y, panels, preset) -> Scene:
    s = _style.get(preset)
    return Scene([DataPanel(), *panels], run, np.asarray(X, float), np.asarray(y, float), style=s,
                 dpi=DENSITY * s.dpi)


def save(drawn, name, k):
    drawn.draw(k)
    (HERE / name).write_bytes(png_frame(drawn.rgba()))
    print(name, k)


def main():
    run, X, y = blobs()
    tiny = fit_perceptron([[2, 1], [-1, -2]], [1, -1])
    lrun, Z, yz = circle()
    for preset in ("notebook", "lecture"):
        p = scene(run, X, y, [LossPanel(perceptron_loss, "perceptron loss")], preset)
        for k in (0, 1, 5, run.mistakes):
            save(p, f"player_frame_{preset}_k{k}.png", k)
        t = scene(tiny, [[2, 1], [-1, -2]], [1, -1], [], preset)
        save(t, f"player_tiny_{preset}_k1.png", 1)
        q = scene(lrun, Z, yz, [LiftedPanel()], preset)
        save(q, f"player_lifted_{preset}_k3.png", 3)
        save(q, f"player_lifted_{preset}_end.png", lrun.mistakes)


if __name__ == "__main__":
    main()
