"""A browser widget keeps no matplotlib drawing once it is displayed (the kernel's memory per student).

Each browser widget's saved output has a still picture drawn by matplotlib (`recording.Shown`). The drawing (a
figure, its canvas and the copy of its pixels a `render.Scene` keeps) was kept for the widget's life: 7-18 MB a
widget, 15-54 MB of a lesson's kernel after Run All. Now it goes once the still is made; a second display draws it
again, the same picture.
"""

from __future__ import annotations

import gc

from matplotlib.figure import Figure

from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player import BrowserEditor, BrowserPlayer, BrowserSwitch
from perceptron_lib.player.panels.claims import ClaimsPanel


def _figures() -> int:
    gc.collect()
    return sum(isinstance(o, Figure) for o in gc.get_objects())


def test_a_displayed_widget_keeps_no_figure_and_draws_the_same_still_again():
    X, y = data.separable(12, margin=0.2, bias=True, seed=5)
    run = fit_perceptron(X, y)
    widgets = [BrowserPlayer(run, X, y), BrowserEditor(run, X, y),
               BrowserEditor(fit_perceptron(X, y, fit_bias=False), X, y, panels=[ClaimsPanel()]),
               BrowserSwitch({"eta 1": run, "eta 0.1": fit_perceptron(X, y, eta=0.1)}, X, y)]
    before = _figures()
    for widget in widgets:
        first = widget._repr_mimebundle_()
        assert _figures() == before, f"{type(widget).__name__} kept its still's figure"
        again = widget._repr_mimebundle_()
        assert again[0]["image/png"] == first[0]["image/png"] and again[1] == first[1]
    assert run.mistakes >= 2
    widgets[0].k = 2  # a display at another step draws that step
    assert f"after update 2 of {run.mistakes}" in widgets[0]._repr_mimebundle_()[1]["image/png"]["alt"]
    assert _figures() == before
