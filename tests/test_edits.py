"""The editor's edit model (`perceptron_lib.core.edits`): pure edits, the editor's rules, undo and redo."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perceptron_lib.core import edits
from perceptron_lib.core.own_data import MAX_POINTS, points_literal

SPAN = 4.0  # a view 4 wide: clicks round to 0.01, and points closer than 0.02 are on top of each other

coordinate = st.floats(-2.0, 2.0, allow_nan=False)
label = st.sampled_from([1, -1])
position = st.tuples(coordinate, coordinate)


def _lesson():
    return edits.start([[1.0, 1.0], [-1.0, -0.5], [0.25, -1.0]], [1, -1, -1], max_points=8)


# An edit: a name and a function of the state (which may raise ValueError, as a refused edit does).
EDITS = {
    "add": st.builds(lambda x, c: lambda s: edits.add(s, x, c, span=SPAN), position, label),
    "move": st.builds(lambda i, x: lambda s: edits.move(s, i, x, span=SPAN), st.integers(0, 9), position),
    "remove": st.builds(lambda i: lambda s: edits.remove(s, i), st.integers(0, 9)),
    "clear": st.just(edits.clear),
    "start_again": st.just(edits.start_again),
    "load_text": st.builds(lambda X, y: lambda s: edits.load_text(s, points_literal(X, y[: len(X)])),
                           st.lists(position, min_size=1, max_size=6), st.lists(label, min_size=6, max_size=6)),
}


EDITS["load"] = st.builds(lambda X, y, lesson: lambda s: edits.load(s, np.array(X), y[: len(X)], lesson=lesson),
                          st.lists(position, min_size=1, max_size=6), st.lists(label, min_size=6, max_size=6),
                          st.booleans())
edit = st.one_of(*EDITS.values())
step = st.one_of(edit, st.just(edits.undo), st.just(edits.redo))


def _apply(state, fn):
    """fn(state), or state if the edit is refused (as the editor keeps its points then)."""
    try:
        return fn(state)
    except ValueError:
        return state


@st.composite
def states(draw):
    """A state reached from the lesson's points by a few edits, undos and redos."""
    s = _lesson()
    for fn in draw(st.lists(step, max_size=12)):
        s = _apply(s, fn)
    return s


# ---------------------------------------------------------------------------------------------- undo, redo
@settings(max_examples=300, deadline=None)
@given(states(), edit)
def test_undo_after_an_edit_gives_the_points_and_history_before(s, fn):
    try:
        after = fn(s)
    except ValueError:
        return
    back = edits.undo(after)
    assert back.points == s.points
    assert back.undo_stack == s.undo_stack
    assert back.lesson == after.lesson  # the lesson's points are a setting, not an edit: they stay
    assert back.redo_stack == (after.points,)


@settings(max_examples=300, deadline=None)
@given(states(), edit)
def test_redo_after_undo_gives_the_edit_back(s, fn):
    try:
        after = fn(s)
    except ValueError:
        return
    assert edits.redo(edits.undo(after)) == after


@settings(max_examples=200, deadline=None)
@given(states())
def test_undo_then_redo_is_no_change_anywhere_in_the_history(s):
    assume(s.undo_stack)
    assert edits.redo(edits.undo(s)) == s


@settings(max_examples=300, deadline=None)
@given(states(), st.one_of(step, st.just(edits.clear)))
def test_nothing_changes_its_input(s, fn):
    copy = dataclasses.replace(s)
    _apply(s, fn)
    assert s == copy
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.X = ()


@settings(max_examples=300, deadline=None)
@given(st.lists(step, max_size=20))
def test_every_state_keeps_the_rules(fns):
    s = _lesson()
    for fn in fns:
        s = _apply(s, fn)
        X, y = s.arrays()
        assert len(y) <= s.max_points and X.shape == (len(y), 2) and set(y.tolist()) <= {1.0, -1.0}
        spots = {}
        for x, label in zip(map(tuple, X), y, strict=True):
            assert spots.setdefault(x, label) == label, "one spot, two labels"


def test_undo_and_redo_with_nothing_to_do_say_so():
    s = _lesson()
    with pytest.raises(ValueError, match="Nothing to undo"):
        edits.undo(s)
    with pytest.raises(ValueError, match="Nothing to redo"):
        edits.redo(s)


def test_a_new_edit_forgets_what_was_undone():
    s = edits.undo(edits.clear(_lesson()))
    assert s.redo_stack
    assert edits.remove(s, 0).redo_stack == ()


# ---------------------------------------------------------------------------------------------- the rules
def test_a_click_is_rounded_to_the_view():
    s = edits.add(_lesson(), (0.123456, -0.98765), -1, span=4.0)
    assert s.X[-1] == (0.12, -0.99) and s.y[-1] == -1
    s = edits.move(s, 3, (1.23456, 0.5), span=40.0)
    assert s.X[3] == (1.2, 0.5)


def test_a_point_on_top_of_another_is_refused():
    s = _lesson()
    with pytest.raises(ValueError, match=r"already a point of the other class there \(point 0\)"):
        edits.add(s, (1.01, 1.0), -1, span=4.0)  # 0.01 away: within 4/200
    with pytest.raises(ValueError, match=r"already a point there \(point 0\)"):
        edits.add(s, (0.99, 1.01), 1, span=4.0)
    assert len(edits.add(s, (1.0, 1.03), 1, span=4.0).y) == 4
    with pytest.raises(ValueError, match="Point 1 would land on point 0"):
        edits.move(s, 1, (1.0, 1.0), span=4.0)
    assert edits.move(s, 0, (1.0, 1.01), span=4.0).X[0] == (1.0, 1.01)  # near its own old spot: fine


def test_at_most_max_points():
    s = edits.start([[0, 0]], [1], max_points=2)
    s = edits.add(s, (1, 1), 1, span=4.0)
    with pytest.raises(ValueError, match="at most 2 points; remove some first"):
        edits.add(s, (-1, 1), 1, span=4.0)
    with pytest.raises(ValueError, match="3 points is more than the 2"):
        edits.load(s, [[0, 0], [1, 0], [2, 0]], [1, 1, 1])
    assert edits.start([[0, 0]], [1]).max_points == MAX_POINTS


def test_two_labels_at_one_spot_are_refused():
    with pytest.raises(ValueError, match="Points 0 and 1 are at the same spot with opposite labels"):
        edits.load(_lesson(), [[0, 0], [0, 0]], [1, -1])
    assert edits.load(_lesson(), [[0, 0], [0, 0]], [1, 1]).y == (1, 1)  # a repeated point of one class: allowed


def test_bad_input_is_named():
    s = _lesson()
    with pytest.raises(ValueError, match="There is no point 3; the points are numbered 0 to 2"):
        edits.remove(s, 3)
    with pytest.raises(ValueError, match="There is no point 0; there are no points"):
        edits.move(edits.clear(s), 0, (0, 0), span=4.0)
    with pytest.raises(ValueError, match="two finite numbers"):
        edits.add(s, (np.nan, 0), 1, span=4.0)
    with pytest.raises(ValueError, match="span .* must be a number > 0"):
        edits.add(s, (0, 0), 1, span=0)
    with pytest.raises(ValueError, match="every label must be 1 or -1"):
        edits.load(s, [[0, 0]], [2])
    with pytest.raises(ValueError, match="max_points must be a whole number"):
        edits.start([[0, 0]], [1], max_points=0)
    with pytest.raises(ValueError, match="X and y are empty"):
        edits.load(s, [], [])


def test_clear_start_again_and_load():
    s = edits.clear(_lesson())
    assert s.X == () and s.y == ()
    back = edits.start_again(s)
    assert back.points == _lesson().points and len(back.undo_stack) == 2
    new = edits.load(s, [[0.5, 0.5]], [-1], lesson=True)
    assert edits.start_again(edits.clear(new)).points == (((0.5, 0.5),), (-1,))
    text = edits.load_text(s, "X = [[1, 2], [3, -4.5]]\ny = [1, -1]")
    assert text.points == (((1.0, 2.0), (3.0, -4.5)), (1, -1))


def test_load_leaves_the_callers_arrays_alone():
    X, y = np.array([[0.5, -0.0], [1.0, 2.0]]), np.array([1.0, -1.0])
    s = edits.load(_lesson(), X, y)
    assert X.tolist() == [[0.5, -0.0], [1.0, 2.0]] and y.tolist() == [1.0, -1.0]
    assert s.X == ((0.5, 0.0), (1.0, 2.0))
    Xa, ya = s.arrays()
    Xa[0, 0] = 9.0
    assert s.X[0] == (0.5, 0.0)
