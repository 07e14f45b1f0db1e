"""Lesson 03's Exercise 4 handed in as its words say: the two lines of "Copy points", pasted above the check, and the
pair (X, y) given to `nb03.check_many_updates` (clicks are not saved in the notebook)."""

from __future__ import annotations

import numpy as np

from perceptron_lib.core import data
from perceptron_lib.core.own_data import points_literal
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.exercises import nb03
from perceptron_lib.player import BrowserEditor

# two rows with a thin gap, far from the origin: 50 updates from w = 0, b = 0 (the solution's points)
ROWS = (np.array([[x, 2.5] for x in (-2, -1, 0, 1, 2)] + [[x, 1.5] for x in (-2, -1, 0, 1, 2)], dtype=float),
        np.array([1.0] * 5 + [-1.0] * 5))


def _pasted(text: str) -> tuple:
    cell = {}
    exec(text, cell)  # the cell the student pastes into
    return cell["X"], cell["y"]


def test_copy_points_pasted_hands_in_exercise_3_4_as_a_pair():
    editor = BrowserEditor(fit_perceptron(*data.small_2d()), *data.small_2d())  # the lesson's editor
    editor.load(*ROWS)  # the points the student placed
    text = editor.literal
    assert text == points_literal(*ROWS)
    assert text.splitlines()[1] == "y = [1, 1, 1, 1, 1, -1, -1, -1, -1, -1]"
    X, y = _pasted(text)
    result = nb03.check_many_updates((X, y))
    assert result.status == "correct", result
    assert nb03.check_many_updates(editor).status == "not handed in"  # right points; clicks are not saved


def test_the_lessons_starting_points_pasted_are_not_enough():
    """What a grader sees if the student hands in `own` itself: the editor rerun from the top holds its six
    starting points, too few updates; the same six pasted as text get the same hint."""
    editor = BrowserEditor(fit_perceptron(*data.small_2d()), *data.small_2d())
    X, y = _pasted(editor.literal)
    assert np.array_equal(np.asarray(X, float), data.small_2d()[0])
    for answer in (editor, (X, y)):
        result = nb03.check_many_updates(answer)
        assert result.status != "correct" and "update; you need 10" in str(result), result
