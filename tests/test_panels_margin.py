"""Lesson 06's margin perceptron beside the maximum-margin line: the panel draws the separator, its band and the
current line; the readout prints the margins it is given and the run's own test."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from perceptron_lib import fit_perceptron
from perceptron_lib.core.data import separable
from perceptron_lib.core.margins import geometric_margin, max_margin_separator
from perceptron_lib.draw.plotting import boundary_points
from perceptron_lib.player.panels.margin import MarginReadout, MaxMarginPanel
from perceptron_lib.player.readout import end_text


@pytest.fixture(scope="module")
def case():
    X, y = separable(40, margin=0.15, seed=0)
    run = fit_perceptron(X, y, margin=1.0, eta=0.3, max_epochs=2000)
    return run, X, y, max_margin_separator(X, y)


def test_panel_draws_the_band_and_the_current_line(case):
    run, X, y, best = case
    fig, ax = plt.subplots()
    panel = MaxMarginPanel(best)
    (current,) = panel.draw(ax, run, X, y)
    xl, yl = ax.get_xlim(), ax.get_ylim()
    drawn = [np.c_[line.get_xdata(), line.get_ydata()] for line in ax.lines if line is not current]
    # the separator and the two edges of its band, at signed distance -γ*, 0, γ* from it (w of unit length)
    offsets = sorted(float(np.mean(p @ best.w + best.b)) for p in drawn if len(p))
    np.testing.assert_allclose(offsets, [-best.gamma, 0.0, best.gamma], atol=1e-12)
    # the band's edges pass through the separator's nearest points: no point is inside it
    assert np.min(y * (X @ best.w + best.b)) == pytest.approx(best.gamma, abs=1e-9)
    for k in (1, run.mistakes):
        panel.update(k)
        np.testing.assert_allclose(np.c_[current.get_xdata(), current.get_ydata()],
                                   boundary_points(run.history.w[k], run.history.b[k], xl, yl))
    plt.close(fig)
    with pytest.raises(ValueError, match="unit w"):
        MaxMarginPanel(type(best)(w=2 * best.w, b=best.b, gamma=best.gamma, support=best.support, fit_bias=True))


def test_readout_prints_the_margin_at_k(case):
    run, X, y, best = case
    h = run.history
    m = [math.nan] + [geometric_margin(w, b, X, y) for w, b in zip(h.w[1:], h.b[1:], strict=True)]
    read = MarginReadout(m, gamma_star=best.gamma, guarantee=0.05, eta=0.3)
    assert "no line yet (w = 0)" in read(run, X, y, 0)[1]
    wrong = [k for k in range(1, len(m)) if m[k] <= 0]  # a line that separates nothing yet: no share of γ*
    assert wrong and all("% of the maximum" not in read(run, X, y, k)[1] for k in wrong)
    assert read(run, X, y, wrong[0])[1].startswith(f"Margin now: {m[wrong[0]]:.4f}, the line does not separate yet")
    last = read(run, X, y, run.mistakes)
    assert last[1].startswith(f"Margin now: {m[-1]:.4f}, {100 * m[-1] / best.gamma:.1f} % of the "
                              f"maximum γ* = {best.gamma:.4f}")
    assert "at least 0.0500 (η = 0.3)" in last[1]
    assert last[-1].endswith("no point had y(<w,x>+b) ≤ 1.")  # the margin run's own test, not ≤ 0
    with pytest.raises(ValueError, match="margins but the run has"):
        MarginReadout(m[:-1], gamma_star=best.gamma, guarantee=0.05, eta=0.3)(run, X, y, 0)
    with pytest.raises(ValueError, match="gamma_star"):
        MarginReadout(m, gamma_star=0.0, guarantee=0.05, eta=0.3)


def test_end_text_names_the_test_of_the_run(case):
    run, X, y, _ = case
    assert end_text(fit_perceptron(X, y)).endswith("y(<w,x>+b) ≤ 0.")
    assert end_text(fit_perceptron(X, y, margin=1.0, update_on="negative", max_epochs=2000)).endswith(
        "y(<w,x>+b) < 1.")
