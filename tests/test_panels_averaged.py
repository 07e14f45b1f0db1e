"""Lesson 06's panels: the averaged line and the curves show exactly the run's numbers at step k."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from perceptron_lib import fit_perceptron
from perceptron_lib.core.averaged import fit_averaged
from perceptron_lib.core.data import blobs
from perceptron_lib.draw.plotting import boundary_points
from perceptron_lib.player.panels.averaged import AveragedLinePanel, CurvesPanel


@pytest.fixture(scope="module")
def case():
    X, y = blobs(60, separation=2.0, spread=1.0, seed=3)
    return fit_averaged(X, y, epochs=3), X, y


def test_averaged_panel_draws_the_averaged_and_the_last_line(case):
    ar, X, y = case
    fig, ax = plt.subplots()
    panel = AveragedLinePanel(ar)
    moving = panel.draw(ax, ar.run, X, y)
    assert len(moving) == 2
    Wa, Ba = ar.averages()
    for k in (1, ar.run.mistakes // 2, ar.run.mistakes):
        last, avg = panel.update(k)
        xl, yl = ax.get_xlim(), ax.get_ylim()
        np.testing.assert_allclose(np.c_[avg.get_xdata(), avg.get_ydata()], boundary_points(Wa[k], Ba[k], xl, yl))
        h = ar.run.history
        np.testing.assert_allclose(np.c_[last.get_xdata(), last.get_ydata()], boundary_points(h.w[k], h.b[k], xl, yl))
    plt.close(fig)


def test_averaged_panel_needs_the_same_run(case):
    ar, X, y = case
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="pass averaged.run"):
        AveragedLinePanel(ar).draw(ax, fit_perceptron(X, y, max_epochs=1), X, y)
    plt.close(fig)


def test_curves_panel_cursor_and_dots(case):
    ar, X, y = case
    n = ar.run.mistakes + 1
    a, b = np.linspace(0, 1, n), np.linspace(1, 0, n)
    fig, ax = plt.subplots()
    panel = CurvesPanel({"a": a, "b": b})
    panel.draw(ax, ar.run, X, y)
    moved = panel.update(3)
    assert list(moved[0].get_xdata()) == [3, 3]
    assert [d.get_ydata()[0] for d in moved[1:]] == [a[3], b[3]]
    with pytest.raises(ValueError, match="states"):
        CurvesPanel({"short": a[:-1]}).draw(ax, ar.run, X, y)
    with pytest.raises(ValueError, match="at least one"):
        CurvesPanel({})
    plt.close(fig)


def test_the_panel_and_the_strip_call_the_line_at_step_k_the_current_line(case):
    """Lesson 06's prose calls the line at step k the current line: the legend, the title and the strip's
    curve of that name (drawn as the panel draws the line) say the same."""
    ar, X, y = case
    fig, (ax, ax2) = plt.subplots(1, 2)
    panel = AveragedLinePanel(ar)
    last, avg = panel.draw(ax, ar.run, X, y)
    assert last.get_label() == "current line" and avg.get_label() == "averaged line"
    assert "current line" in ax.title.get_text() and "last" not in ax.title.get_text()
    n = ar.run.mistakes + 1
    CurvesPanel({"current line": np.zeros(n), "averaged line": np.ones(n)}).draw(ax2, ar.run, X, y)
    curve = next(line for line in ax2.get_lines() if line.get_label() == "current line")
    assert curve.get_color() == last.get_color() and curve.get_linestyle() == last.get_linestyle()
    plt.close(fig)


def test_curves_panel_ylim(case):
    ar, X, y = case
    fig, ax = plt.subplots()
    n = ar.run.mistakes + 1
    CurvesPanel({"a": np.linspace(-5, 1, n)}, ylim=(-0.1, 0.2)).draw(ax, ar.run, X, y)
    assert ax.get_ylim() == (-0.1, 0.2)
    with pytest.raises(ValueError, match="ylim"):
        CurvesPanel({"a": np.zeros(n)}, ylim=(1, 0))
    plt.close(fig)
