"""Lesson 06's four answers on the student's points (`AnswersPanel.front`, a `BrowserEditor` overlay), in Python and
in Chromium with no kernel.

The overlay's numbers: the averaged line is `AveragedRun.averages`, the pocket's line the state of `step_errors`'
pocket, and the vote's labels on a grid (`vote_regions.vote_labels`, one product) are `voted_predict` with
`vote_counts_at` at every step. In the page: the library's run draws the averaged and pocket lines and the vote's
dotted boundary at every step (clipped to the plot); an edit with no kernel draws the browser's own run with them
(``front/answers_fit.js``, held equal to the library in tests/test_browser_answers.py), and no kernel note.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.core import data
from perceptron_lib.core.averaged import vote_counts_at, voted_predict
from perceptron_lib.draw import style as _style
from perceptron_lib.player.browser_editor import KERNEL_NOTE, BrowserEditor
from perceptron_lib.player.panels.averaged import AnswersFit, AnswersPanel
from perceptron_lib.player.panels.vote_regions import vote_labels
from tests.test_browser_editor_claims import page  # noqa: F401 (a fixture, used by name)
from tests.test_browser_editor_front import wire


def _points(seed=3, n=30):
    X, y = data.blobs(n, separation=2.0, spread=1.0, seed=seed)
    return np.round(X * 16) / 16, y


def test_the_votes_on_a_grid_are_voted_predict_at_every_step():
    for seed in (3, 4, 5):
        X, y = _points(seed)
        fit = AnswersFit(epochs=4)
        run = fit(X, y)
        grid = np.random.default_rng(seed).normal(size=(400, 2)) * 3
        grid[:40] = X[:40] if len(X) >= 40 else np.resize(X, (40, 2))  # points of the data: scores of exactly 0 too
        votes = vote_labels(fit.latest[0], grid)
        for k in range(len(run.history)):
            want = voted_predict(run.history.w[: k + 1], run.history.b[: k + 1], vote_counts_at(fit.latest[0], k), grid)
            assert (votes[k] == want).all(), (seed, k)


def test_the_overlay_holds_the_averaged_pocket_and_vote_of_every_step():
    X, y = _points()
    fit = AnswersFit(epochs=10)
    run = fit(X, y)
    spec = AnswersPanel(fit).front(run, X, y, style=_style.get("notebook"))
    K = len(run.history) - 1
    ar, errors = fit.latest
    W, B = ar.averages()
    assert spec["kind"] == "answers" and spec["shape"] == "overlay" and spec["K"] == K
    avg, pocket = spec["lines"]
    assert np.allclose(avg["w"], W) and np.allclose(avg["b"], B)
    assert np.array_equal(pocket["w"], run.history.w[errors.pocket_k]) and pocket["cls"] == "pp-pocket"
    pieces = spec["paths"][0]["pieces"]
    assert len(pieces) == K + 1 and all(len(flat) % 2 == 0 for step in pieces for flat in step)
    assert sum(bool(step) for step in pieces) > K // 2  # the vote has a boundary in view at most steps
    assert [e["label"] for e in spec["legend"]] == ["averaged line", "pocket line", "vote"]


def test_no_points_no_answers():
    fit = AnswersFit(epochs=3)
    run = fit(*_points())
    editor = BrowserEditor(run, *_points(), fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout, max_epochs=3)
    editor.points = [[], []]
    assert editor.run["panels"] == [{"kind": "answers", "shape": "overlay", "K": 0, "lines": [], "legend": [],
                                     "name": "the four answers", "paths": []}]
    assert editor.options["panels"] == [AnswersPanel(fit).browser()] and editor.options["kernel_note"] == KERNEL_NOTE
    assert editor.options["fit"] == {"kind": "averaged", "epochs": 3} and editor.options["readout"] == "answers"


@pytest.mark.browser
def test_the_page_draws_the_answers_of_the_librarys_run_and_of_its_own(page):  # noqa: F811
    X, y = _points()
    fit = AnswersFit(epochs=10)
    run = fit(X, y)
    editor = BrowserEditor(run, X, y, fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout, max_epochs=10,
                           k=run.mistakes, kernel_note="The answers need a kernel.")
    state = editor.get_state()
    page.evaluate("(state) => window.mount(state)", wire({name: state[name] for name in
                                                         ("run", "k", "interval_ms", "points", "lesson", "settings",
                                                          "options")}))
    read = """() => ({run: document.querySelector('#widget .perceptron-browsereditor').dataset.run,
        vote: document.querySelectorAll('#widget path.pp-vote').length,
        lines: document.querySelectorAll('#widget line.pp-averaged, #widget line.pp-pocket').length,
        clipped: !!document.querySelector('#widget .pp-overlay-paths[clip-path]'),
        note: document.querySelector('#widget .pe-kernel-note').hidden ? null
              : document.querySelector('#widget .pe-kernel-note').textContent,
        readout: document.querySelector('#widget .pp-readout').textContent})"""
    got = page.evaluate(read)
    assert got["run"] == "library" and got["vote"] == 1 and got["lines"] == 2 and got["clipped"]
    assert got["note"] is None and "Training errors of the 30 points after update" in got["readout"]
    box = page.locator("#widget .pp-axes rect").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.95, box["y"] + box["height"] * 0.05)
    got = page.evaluate(read)
    assert got["run"] == "browser" and got["vote"] == 1 and got["lines"] == 2 and got["note"] is None
    assert "Training errors of the 31 points after update" in got["readout"]
    page.wait_for_timeout(1800)  # longer than the editor waits before a note on panels that need a kernel
    assert page.evaluate(read)["note"] is None
