"""`BrowserEditor`, the kernel's side: the points that come from the browser are fitted with the library and sent
back as ``run``; `load` goes the other way; the exercises read the points; bad input is refused with a message.

The browser's side (clicks, keys, the browser's own fit and words) is tests/test_browser_editor_front.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import traitlets

from perceptron_lib.core import data
from perceptron_lib.core.own_data import summarize, summary_lines
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.exercises import points_of
from perceptron_lib.player import BrowserEditor
from perceptron_lib.player.browser import RUN_VERSION
from perceptron_lib.player.browser_editor import EDIT_HINT
from perceptron_lib.player.library_run import unpacked
from perceptron_lib.player.readout import alt_text, state_lines

TEN = data.separable(10, margin=0.2, bias=True, seed=4)


def _editor(**kw):
    return BrowserEditor(fit_perceptron(*TEN), *TEN, **kw)


def _check_run(editor, X, y, **settings):
    """The editor's `run` trait is the library's run on (X, y) with these settings, words and all."""
    run = fit_perceptron(X, y, **settings)
    trait = editor.full_run()  # the whole trait (after an edit, `run` holds the library run alone)
    assert trait["version"] == RUN_VERSION and trait["K"] == len(run.history) - 1
    assert trait["X"] == X.tolist() and np.array_equal(trait["w"], run.history.w)
    notes = summary_lines(summarize(X, y, run))
    for k in (0, trait["K"]):
        assert trait["lines"][k] == state_lines(run, X, y, k) + notes
        assert trait["alt"][k] == f"{alt_text(run, X, y, k)} {EDIT_HINT}"
    assert json.loads(json.dumps(trait, allow_nan=False)) == trait


def test_points_from_the_browser_are_fitted_by_the_library():
    editor = _editor()
    _check_run(editor, *TEN, **editor.settings)
    X = np.vstack([TEN[0], [[0.62, 0.3]]])
    y = np.append(TEN[1], 1.0)
    editor.points = [X.tolist(), y.astype(int).tolist()]  # what the browser sends after a click
    _check_run(editor, X, y, **editor.settings)
    assert np.array_equal(editor.X, X) and np.array_equal(editor.y, y)
    assert editor.summary == summarize(X, y, editor.library_run)
    editor.points = [[], []]  # Clear
    assert editor.run["K"] == 0 and editor.run["lines"][0][0] == "No points: nothing for the perceptron to look at yet."


def test_points_that_break_the_editors_rules_are_refused():
    editor = _editor()
    for bad in ([[[0, 0], [0, 0]], [1, -1]], [[[0, 0]], [2]], [[[0, 0]], [1, 1]], "points", [[[0, 0, 0]], [1]]):
        with pytest.raises(traitlets.TraitError, match="points must be"):
            editor.points = bad
    assert editor.points == [TEN[0].tolist(), TEN[1].astype(int).tolist()]


def test_load_from_python_and_the_lesson():
    editor = _editor()
    editor.load([[1, 2], [3, -1]], [1, -1])
    assert editor.points == [[[1.0, 2.0], [3.0, -1.0]], [1, -1]]
    assert editor.lesson == [TEN[0].tolist(), TEN[1].astype(int).tolist()]
    editor.load([[0, 1], [1, 0], [-1, -1]], [1, 1, -1], lesson=True)
    assert editor.lesson == editor.points
    _check_run(editor, np.array([[0.0, 1], [1, 0], [-1, -1]]), np.array([1.0, 1, -1]), **editor.settings)
    with pytest.raises(ValueError, match="same spot with opposite labels"):
        editor.load([[0, 1], [0, 1]], [1, -1])
    assert editor.literal == "X = [[0, 1], [1, 0], [-1, -1]]\ny = [1, 1, -1]"


def test_settings_go_over_the_runs_and_refit():
    editor = _editor(settings={"update_on": "negative"}, max_epochs=20)
    assert editor.settings["update_on"] == "negative" and editor.settings["max_epochs"] == 20
    assert editor.run["settings"]["update_on"] == "negative" and editor.full_run()["crossed"] == "wrong side"
    editor.settings = {"eta": 0.5, "order": "random"}
    assert editor.settings["eta"] == 0.5 and editor.settings["rng"] == 0 and editor.settings["update_on"] == "negative"
    _check_run(editor, *TEN, **editor.settings)
    with pytest.raises(traitlets.TraitError, match="eta"):
        editor.settings = {"eta": -1}
    with pytest.raises(ValueError, match="got colour"):
        _editor(settings={"colour": 1})


def test_a_fit_of_the_lesson_is_what_python_sends():
    calls = []

    def fit(X, y):
        calls.append(len(y))
        return fit_perceptron(X, y, eta=2.0)

    editor = _editor(fit=fit)
    editor.points = [[[1.0, 1.0], [-1.0, -1.0]], [1, -1]]
    assert calls == [10, 2] and editor.run["w"][-1] == [2.0, 2.0]  # a fit with no port: the full trait
    editor.refit()
    assert calls == [10, 2, 2]


def test_the_exercises_read_the_points():
    editor = _editor()
    X, y = points_of(editor)
    assert np.array_equal(X, TEN[0]) and np.array_equal(y, TEN[1])


def test_bad_arguments_are_refused_with_a_clear_message():
    run = fit_perceptron(*TEN)
    with pytest.raises(ValueError, match="points in the plane"):
        BrowserEditor(run, np.ones((3, 3)), [1, -1, 1])
    with pytest.raises(TypeError, match="fit must be a function"):
        BrowserEditor(run, *TEN, fit="fit_perceptron")
    with pytest.raises(ValueError, match="max_points is 5"):
        BrowserEditor(run, *TEN, max_points=5)


def test_it_displays_a_still_with_its_alt_and_names_what_a_click_does():
    editor = _editor()
    bundle, meta = editor._repr_mimebundle_()
    assert bundle["text/plain"] == "<BrowserEditor: 10 points; 9 updates>"
    assert bundle["image/png"] and "application/vnd.jupyter.widget-view+json" in bundle
    assert meta["image/png"]["alt"].endswith(EDIT_HINT) and "Click or tap to add a point" in meta["image/png"]["alt"]
    assert editor.lines() == editor.full_run()["lines"][0] and editor.alt.endswith(EDIT_HINT)


def test_panels_come_with_every_run_of_the_library_and_say_what_the_browser_computes():
    from perceptron_lib.core.averaged import fit_averaged
    from perceptron_lib.draw import style as _style
    from perceptron_lib.player.browser_editor import KERNEL_NOTE
    from perceptron_lib.player.panels.averaged import AnswersFit, AnswersPanel
    from perceptron_lib.player.panels.claims import ClaimsPanel

    X4 = np.array([[1.0, 1.0], [1.5, -0.5], [-1.0, -1.0], [-0.5, 1.5]])
    y4 = np.array([1.0, 1.0, -1.0, -1.0])
    claims = ClaimsPanel()
    editor = BrowserEditor(fit_perceptron(X4, y4, fit_bias=False), X4, y4, panels=[claims])
    assert editor.options["panels"] == [claims.browser()] and editor.options["kernel_note"] == KERNEL_NOTE
    s = _style.get(None)
    assert editor.full_run()["panels"] == [claims.front(fit_perceptron(X4, y4, fit_bias=False), X4, y4, style=s)]
    X5, y5 = np.vstack([X4, [[-1.5, 0.25]]]), np.append(y4, -1.0)
    editor.points = [X5.tolist(), y5.tolist()]  # as the browser sends them: the library's run with its panel
    assert editor.library_run.mistakes == len(unpacked(editor.run)["w"]) - 1
    assert editor.full_run()["panels"] == [claims.front(editor.library_run, X5, y5, style=s)]
    assert "message" not in editor.full_run()["panels"][0]
    editor.points = [[], []]
    assert editor.full_run()["panels"][0]["message"].startswith("No margin: no points.")
    # a fit of the lesson's own (06): its panel and its readout, with the run it made
    fit = AnswersFit(epochs=3)
    X, y = TEN
    editor = BrowserEditor(fit(X, y), X, y, fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout, max_epochs=3,
                           kernel_note="needs Python")
    assert editor.options["panels"] == [AnswersPanel(fit).browser()] and editor.options["fit"] == fit.browser()
    ar = fit_averaged(X, y, epochs=3)
    assert np.allclose(editor.full_run()["panels"][0]["lines"][0]["w"], ar.averages()[0])
    K = editor.run["K"]
    assert editor.lines(K)[1].startswith(f"Training errors of the {len(y)} points after update {K}:")


def test_panels_and_readouts_that_do_not_fit_are_refused():
    class NoFront:
        pass

    class BadRecipe:
        def front(self, run, X, y, *, style):
            return {"kind": "claims"}

        def browser(self):
            return "claims"

    with pytest.raises(TypeError, match=r"panels\[0\] \(NoFront\) has no front"):
        _editor(panels=[NoFront()])
    with pytest.raises(TypeError, match=r"BadRecipe.browser\(\) must return a dict with a 'kind'"):
        _editor(panels=[BadRecipe()])
    with pytest.raises(TypeError, match="readout must be a function"):
        _editor(readout="words")


def test_the_two_lines_of_copy_points_hand_in_exercise_4_3_as_a_pair():
    """Lesson 04's Exercise 3 says: paste the two lines "Copy points" gives (X = [...], y = [...]) and give the check
    (X, y). The lines are `own_data.points_literal` (``front/own_data.js`` `pointsLiteral`, held equal to it)."""
    from perceptron_lib.core.own_data import points_literal
    from perceptron_lib.exercises import nb04

    X = np.array([[-0.7, 0.6], [-1.2, 1.1], [0.8, 1.3], [0.6, -1.3]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    editor = BrowserEditor(fit_perceptron(X, y, fit_bias=False), X, y)
    text = editor.literal
    assert text == points_literal(X, y) and text.splitlines()[0].startswith("X = [[") and text.splitlines()[1] == (
        "y = [1, 1, -1, -1]")
    pasted = {}
    exec(text, pasted)  # the cell the student pastes into
    assert nb04.check_half_bound((pasted["X"], pasted["y"])).status == "correct"
    assert nb04.check_half_bound(editor).status == "not handed in"  # right points; clicks are not saved
