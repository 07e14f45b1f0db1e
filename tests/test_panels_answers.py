"""Lesson 06's editor on noisy points: the four answers' training errors (core.averaged.step_errors, the readout)
equal a plain replay of the perceptron, and the panel draws the lines of those numbers."""

import re

import numpy as np
import pytest

from perceptron_lib.core.averaged import fit_averaged, step_errors, vote_counts_at, voted_predict
from perceptron_lib.core.data import blobs
from perceptron_lib.draw import style as _style
from perceptron_lib.draw.plotting import boundary_points
from perceptron_lib.player import BrowserEditor, DataPanel
from perceptron_lib.player.panels.averaged import AnswersFit, AnswersPanel
from perceptron_lib.player.render import Scene


def _noisy(n, seed):
    X, y = blobs(n, separation=2.0, spread=1.0, seed=seed)
    return np.round(X * 16) / 16, y


def _plain_answers(X, y, epochs):
    """The four answers' training errors just after each update, from a plain replay of the perceptron: the
    state after every example, the averaged line as the mean of those states, the vote as their signs' sum."""
    w, b, after, updates = np.zeros(2), 0.0, [], [0]
    for _ in range(epochs):
        for x_i, y_i in zip(X, y, strict=True):
            if y_i * (x_i @ w + b) <= 0:
                w, b = w + y_i * x_i, b + y_i
                updates.append(len(after) + 1)  # the example number t of this update (1-based)
            after.append((w.copy(), b))
    states = [(np.zeros(2), 0.0)] + [after[t - 1] for t in updates[1:]]
    rows = []
    for k, t in enumerate(updates):
        seen = after[:t] if k else [states[0]]
        wrong = [int(sum(y_i * (x_i @ w_ + b_) <= 0 for x_i, y_i in zip(X, y, strict=True)))
                 for w_, b_ in states[: k + 1]]
        avg_w = sum(s[0] for s in seen) / len(seen)
        avg_b = sum(s[1] for s in seen) / len(seen)
        vote = [sum(1 if x_i @ s[0] + s[1] > 0 else -1 for s in seen) for x_i in X]
        rows.append({"current": wrong[k],
                     "averaged": int(sum(y_i * (x_i @ avg_w + avg_b) <= 0 for x_i, y_i in zip(X, y, strict=True))),
                     "pocket": min(wrong), "pocket_k": int(np.argmin(wrong)),
                     "vote": int(sum((1 if v > 0 else -1) != y_i for v, y_i in zip(vote, y, strict=True)))})
    return rows


@pytest.mark.parametrize("seed", [3, 11, 27])
def test_step_errors_equal_a_plain_replay(seed):
    X, y = _noisy(20, seed)
    ar = fit_averaged(X, y, epochs=4)
    se = step_errors(ar, X, y)
    plain = _plain_answers(X, y, 4)
    assert len(plain) == ar.run.mistakes + 1
    for k, row in enumerate(plain):
        assert se.at(k) == {name: row[name] for name in ("current", "averaged", "pocket", "vote")}, k
        assert se.pocket_k[k] == row["pocket_k"]
    assert np.all(se.pocket <= se.current)  # the pocket chooses among states that include the current one


def test_vote_counts_at_add_up_to_the_examples_seen():
    X, y = _noisy(20, 3)
    ar = fit_averaged(X, y, epochs=3)
    assert vote_counts_at(ar, 0).tolist() == [1]
    for k in range(1, ar.run.mistakes + 1):
        assert vote_counts_at(ar, k).sum() == ar.t[k - 1]
    # at the last update the weights are the survival counts, the last state's cut to its first example
    assert vote_counts_at(ar, ar.run.mistakes)[:-1].tolist() == ar.survival[:-1].tolist()
    for bad in (-1, ar.run.mistakes + 1, 1.5):
        with pytest.raises(ValueError, match="k must be a whole number"):
            vote_counts_at(ar, bad)


def _numbers(line):
    found = re.search(r"current line (\d+), averaged line (\d+), pocket \(state (\d+)\) (\d+), vote (\d+)", line)
    assert found, line
    c, a, pk, p, v = map(int, found.groups())
    return {"current": c, "averaged": a, "pocket": p, "vote": v, "pocket_k": pk}


def test_answers_readout_and_panel_on_the_editors_points():
    X, y = _noisy(24, 3)
    fit = AnswersFit(epochs=3)
    editor = BrowserEditor(fit(X, y), X, y, fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout, max_epochs=3)
    # a point on the wrong side, and one more
    editor.load(np.vstack([X, [[2.5, 2.5], [-2.5, -2.0]]]), np.append(y, [-1.0, 1.0]))
    Xe, ye = editor.X, editor.y
    plain = _plain_answers(Xe, ye, 3)
    run = editor.library_run
    K = len(run.history) - 1
    assert K == editor.run["K"] == len(plain) - 1
    for k in (0, 1, K // 2, K):
        assert _numbers(editor.lines(k)[1]) == plain[k]
        assert f"the {len(ye)} points" in editor.lines(k)[1]
    # the panel draws the lines of those numbers (the still a notebook keeps: render.Scene)
    scene = Scene([DataPanel(), AnswersPanel(fit)], run, Xe, ye, style=_style.get("notebook"), dpi=72)
    panel = scene.panels[1]
    h = run.history
    Wa, Ba = fit.latest[0].averages()
    for k in (1, K):
        current, avg, pocket_line, vote = panel.update(k)
        xl, yl = current.axes.get_xlim(), current.axes.get_ylim()
        np.testing.assert_allclose(np.c_[current.get_xdata(), current.get_ydata()],
                                   boundary_points(h.w[k], h.b[k], xl, yl))
        np.testing.assert_allclose(np.c_[avg.get_xdata(), avg.get_ydata()], boundary_points(Wa[k], Ba[k], xl, yl))
        j = plain[k]["pocket_k"]
        np.testing.assert_allclose(np.c_[pocket_line.get_xdata(), pocket_line.get_ydata()],
                                   boundary_points(h.w[j], h.b[j], xl, yl))
        # every traced point of the vote's boundary has both labels of the vote within one grid cell of it
        pts = np.c_[vote.get_xdata(), vote.get_ydata()]
        pts = pts[np.isfinite(pts).all(axis=1)]
        assert len(pts)
        cell = np.array([np.diff(xl)[0], np.diff(yl)[0]]) / (len(panel.gx) - 1)
        around = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]) * cell
        counts = vote_counts_at(fit.latest[0], k)
        for p in pts[:: max(1, len(pts) // 25)]:
            labels = voted_predict(h.w[: k + 1], h.b[: k + 1], counts, p + around)
            assert {-1, 1} <= set(labels.tolist()), p
    # no points (Clear in the browser): no answers, the readout still works; Undo's points give them back
    editor.points = [[], []]
    assert editor.lines()[0].startswith("No points")
    editor.load(Xe, ye)
    assert _numbers(editor.lines(editor.run["K"])[1]) == plain[-1]


def test_answers_fit_knows_only_its_latest_run():
    X, y = _noisy(12, 5)
    fit = AnswersFit(epochs=2)
    first = fit(X, y)
    assert fit.answers(first) is not None
    fit(X[:8], y[:8])
    assert fit.answers(first) is None
    assert not any("Training errors" in line for line in fit.readout(first, X, y, 0))
