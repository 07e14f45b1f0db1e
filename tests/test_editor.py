"""PointEditor, kernel side: the student's points placed, dragged and removed on a player's picture.

Every edit is driven as the browser drives it: the picture's messages (``front/events.js``: presses, keys)
and the editor's own buttons and text box. Each edit must give the run of the one fit function on
the editor's points; undo and redo must give back the exact points, picture and words; every bad
input gets a message ("Not done: ...") and leaves the points as they were; nothing raises.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, kernels, own_data
from perceptron_lib.core.bounds import mistake_bound, offset_mistake_bound
from perceptron_lib.core.own_data import parse_points, points_literal
from perceptron_lib.player import PointEditor, StepThrough

MAX_EPOCHS = 100  # PointEditor's default

MODS = {"shiftKey": False, "altKey": False, "ctrlKey": False, "metaKey": False}


def from_browser(picture, content):
    """One message arriving from the picture's front end (``front/events.js``) on the widget's comm."""
    picture.comm.handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


# --------------------------------------------------------------------------- building and driving


def lesson(n=20, seed=1, bias=True):
    return data.separable(n, margin=0.2, bias=bias, seed=seed)


def make(X=None, y=None, *, dpi=None, **editor_kw):
    """(player, editor, first run) on the lesson's data (X, y), default 20 separable points."""
    if X is None:
        X, y = lesson()
    first = fit_perceptron(X, y)
    player = StepThrough(first, X, y, dpi=dpi)
    return player, PointEditor(player, **editor_kw), first


def pointer(editor, kind, px, py, pointer_type="mouse", **mods):
    """One press, release or leave as the picture's front end sends it: positions in the picture's own pixels."""
    event = {"type": kind, "pointerType": pointer_type, "dataX": px, "dataY": py, **MODS, **mods}
    from_browser(editor.player.picture, event)


def click(editor, pixel, **mods):
    pointer(editor, "pointerdown", *pixel, **mods)
    pointer(editor, "pointerup", *pixel, **mods)


def drag(editor, start, end, **mods):
    pointer(editor, "pointerdown", *start, **mods)
    pointer(editor, "pointerup", *end, **mods)


def key(player, name, **mods):
    """A key pressed on the picture (the player's key handlers, the editor's first)."""
    from_browser(player.picture, {"type": "keydown", "key": name, **MODS, **mods})


def pixel_of(player, x):
    """The picture's pixel (whole numbers) of the data point x."""
    return tuple(int(v) for v in np.round(player.to_pixels(np.asarray(x, dtype=float).reshape(1, 2))[0]))


def empty_spot(player, points, *, avoid=()):
    """A pixel inside the axes as far as possible from every point (and from `avoid` pixels)."""
    (x0, x1), (y0, y1) = player.view
    gx, gy = np.meshgrid(np.linspace(x0, x1, 25)[2:-2], np.linspace(y0, y1, 25)[2:-2])
    cand = np.round(player.to_pixels(np.c_[gx.ravel(), gy.ravel()]))
    taken = [player.to_pixels(points)] if len(points) else []
    taken += [np.asarray(avoid, dtype=float).reshape(-1, 2)] if len(avoid) else []
    if not taken:
        return tuple(int(v) for v in cand[len(cand) // 2])
    taken = np.vstack(taken)
    d = np.min(np.hypot(cand[:, None, 0] - taken[None, :, 0], cand[:, None, 1] - taken[None, :, 1]), axis=1)
    best = cand[int(np.argmax(d))]
    assert d.max() > 20, "no empty spot in the view"
    return tuple(int(v) for v in best)


def span(player):
    (x0, x1), (y0, y1) = player.view
    return max(x1 - x0, y1 - y0)


def placed_at(player, pixel):
    """Where a click at `pixel` puts a point: the data under it, snapped to the view's resolution."""
    return own_data.snap(player.to_data(*pixel), span(player))


def refused(editor):
    return editor.last_message.startswith("Not done")


def state(player, editor):
    """Everything a student sees and the editor keeps: points, picture bytes, readout, notes, k."""
    X, y = editor.points
    return X, y, player.frame_png(), player.text, player.notes, player.k


def assert_same_state(a, b):
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert a[2] == b[2], "the picture differs"
    assert a[3:] == b[3:]


def assert_shows_the_fit(player, editor, first, lift=None, separator="line"):
    """The player shows the editor's points and the run of the one fit function on them."""
    X, y = editor.points
    shown = lift(X) if lift is not None else X
    np.testing.assert_array_equal(player.X, shown.reshape(-1, player.X.shape[1]))
    np.testing.assert_array_equal(player.y, y)
    run = player.run
    if len(y):
        want = fit_perceptron(shown, y, **own_data.fit_settings(first))
        np.testing.assert_array_equal(run.history.w, want.history.w)
        np.testing.assert_array_equal(run.history.b, want.history.b)
        assert (run.mistakes, run.converged) == (want.mistakes, want.converged)
    else:
        assert player.K == 0 and run.mistakes == 0
    s = editor.summary
    assert (s.n, s.n_pos, s.n_neg, s.mistakes) == (len(y), int(np.sum(y > 0)), int(np.sum(y < 0)), run.mistakes)
    assert player.notes == own_data.summary_lines(s, separator=separator)


# --------------------------------------------------------------------------- the mouse


def test_a_click_adds_a_point_of_the_chosen_class_and_shift_the_other():
    player, editor, first = make()
    X0, y0 = editor.points
    assert len(y0) == 20 and "Click on the picture" in player.picture.alt
    spot = empty_spot(player, X0)
    click(editor, spot)
    X, y = editor.points
    assert len(y) == 21 and y[-1] == 1 and not refused(editor)
    np.testing.assert_array_equal(X[:20], X0)
    np.testing.assert_array_equal(X[-1], placed_at(player, spot))
    assert np.hypot(*(player.to_pixels(X[-1:])[0] - spot)) < 2  # where the pointer was
    assert editor.last_message.startswith("Added point 20 at")
    assert player.k == player.K  # after an edit the player shows the end of the new run
    assert_shows_the_fit(player, editor, first)
    # shift: the other class
    spot2 = empty_spot(player, X)
    click(editor, spot2, shiftKey=True)
    assert editor.points[1][-1] == -1 and len(editor.points[1]) == 22
    # with class -1 chosen beside the picture, a click adds -1 and a shift-click +1
    editor.label_choice.value = -1
    click(editor, empty_spot(player, editor.points[0]))
    click(editor, empty_spot(player, editor.points[0]), shiftKey=True)
    assert editor.points[1][-2:].tolist() == [-1.0, 1.0]
    assert_shows_the_fit(player, editor, first)


def test_a_tap_adds_a_point_too():
    player, editor, first = make()
    spot = empty_spot(player, editor.points[0])
    for kind in ("pointerdown", "pointerup"):
        pointer(editor, kind, *spot, pointer_type="touch")
    assert len(editor.points[1]) == 21
    np.testing.assert_array_equal(editor.points[0][-1], placed_at(player, spot))
    # a press with no position does nothing
    from_browser(player.picture, {"type": "pointerdown", "pointerType": "touch", **MODS})
    assert len(editor.points[1]) == 21


def test_a_press_on_a_point_and_a_release_elsewhere_moves_it():
    player, editor, first = make()
    X0, y0 = editor.points
    i = 7
    to = empty_spot(player, X0)
    drag(editor, pixel_of(player, X0[i]), to)
    X, y = editor.points
    assert not refused(editor) and editor.last_message.startswith(f"Moved point {i} to")
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(np.delete(X, i, axis=0), np.delete(X0, i, axis=0))
    np.testing.assert_array_equal(X[i], placed_at(player, to))
    assert_shows_the_fit(player, editor, first)
    # a press a few pixels off the centre still takes the point (the marker's size)
    start = pixel_of(player, X[3])
    drag(editor, (start[0] + 3, start[1] - 2), empty_spot(player, X))
    assert not np.array_equal(editor.points[0][3], X[3]) and len(editor.points[1]) == 20


def test_alt_or_ctrl_click_removes_a_point():
    player, editor, first = make()
    X0, y0 = editor.points
    click(editor, pixel_of(player, X0[4]), altKey=True)
    X, y = editor.points
    np.testing.assert_array_equal(X, np.delete(X0, 4, axis=0))
    np.testing.assert_array_equal(y, np.delete(y0, 4))
    assert editor.last_message.startswith("Removed point 4")
    assert_shows_the_fit(player, editor, first)
    click(editor, pixel_of(player, X[0]), ctrlKey=True)
    np.testing.assert_array_equal(editor.points[0], X[1:])


def test_a_click_on_a_point_selects_it_and_delete_removes_it():
    player, editor, first = make()
    X0, y0 = editor.points
    before = player.frame_png()
    click(editor, pixel_of(player, X0[5]))
    assert len(editor.points[1]) == 20 and editor.last_message.startswith("Point 5 selected")
    np.testing.assert_array_equal(player.panels[0].selected.get_xydata(), X0[5:6])  # the selection is marked
    assert player.frame_png() != before
    key(player, "Delete")
    np.testing.assert_array_equal(editor.points[0], np.delete(X0, 5, axis=0))
    assert editor.last_message.startswith("Removed point 5") and len(player.panels[0].selected.get_xydata()) == 0
    assert_shows_the_fit(player, editor, first)
    # a second click on a selected point unselects it; Delete then removes nothing
    X1 = editor.points[0]
    click(editor, pixel_of(player, X1[2]))
    click(editor, pixel_of(player, X1[2]))
    assert "no longer selected" in editor.last_message and len(player.panels[0].selected.get_xydata()) == 0
    key(player, "Delete")
    assert len(editor.points[1]) == 19
    # the arrow keys still step the player while a point is selected, and Backspace works as Delete
    click(editor, pixel_of(player, X1[2]))
    player.seek(0)
    key(player, "ArrowRight")
    assert player.k == 1 and len(editor.points[1]) == 19
    key(player, "Backspace")
    np.testing.assert_array_equal(editor.points[0], np.delete(X1, 2, axis=0))


def test_stay_keeps_the_step_after_an_edit():
    player, editor, first = make()
    editor.stay.value = True
    player.seek(3)
    click(editor, empty_spot(player, editor.points[0]))
    assert player.k == min(3, player.K)
    editor.stay.value = False
    player.seek(2)
    click(editor, empty_spot(player, editor.points[0]))
    assert player.k == player.K


# ------------------------------------------------------------- every bad input: a message, the points kept


def check_refused(player, editor, before, *words):
    assert refused(editor), editor.last_message
    for w in words:
        assert w in editor.last_message, editor.last_message
    assert_same_state(state(player, editor), before)  # the points, and the picture and words too
    np.testing.assert_array_equal(player.X, before[0])


def test_clicks_and_drops_outside_the_axes_are_refused():
    player, editor, first = make()
    X0 = editor.points[0]
    before = state(player, editor)
    click(editor, (2, 2))  # the picture's corner: outside the axes
    check_refused(player, editor, before, "outside the plot")
    (x0, x1), (y0, y1) = player.view
    right = pixel_of(player, [x1, (y0 + y1) / 2])
    click(editor, (right[0] + 5, right[1]))  # just right of the axes
    check_refused(player, editor, before, "outside the plot")
    drag(editor, pixel_of(player, X0[2]), (2, 2))  # a drop outside the axes
    check_refused(player, editor, before, "drop is outside the plot")
    drag(editor, pixel_of(player, X0[2]), (10_000, -50))  # off the picture altogether
    check_refused(player, editor, before, "drop is outside the plot")


def test_leaving_the_picture_during_a_drag_keeps_the_point():
    player, editor, first = make()
    X0 = editor.points[0]
    before = state(player, editor)
    pointer(editor, "pointerdown", *pixel_of(player, X0[6]))
    pointer(editor, "pointerleave", 0, 0)
    check_refused(player, editor, before, "left the picture")
    pointer(editor, "pointerup", *empty_spot(player, X0))  # the release after coming back is no drop and no click
    check_refused(player, editor, before, "left the picture")
    # a press the browser cancels (a touch taken for a scroll) is no drop either
    pointer(editor, "pointerdown", *pixel_of(player, X0[6]), pointer_type="touch")
    pointer(editor, "pointercancel", 0, 0, pointer_type="touch")
    pointer(editor, "pointerup", *empty_spot(player, X0), pointer_type="touch")
    check_refused(player, editor, before, "left the picture")
    # leaving with nothing pressed says nothing
    editor.label_choice.value = 1
    click(editor, empty_spot(player, X0))
    msg = editor.last_message
    pointer(editor, "pointerleave", 0, 0)
    assert editor.last_message == msg and len(editor.points[1]) == 21
    # a release with no press before it (it was pressed outside the picture) adds nothing
    pointer(editor, "pointerup", *empty_spot(player, editor.points[0]))
    assert len(editor.points[1]) == 21


def test_a_point_on_top_of_another_is_refused():
    player, editor, first = make()
    X0, y0 = editor.points
    # a drop on another point: of either class
    j = int(np.flatnonzero(y0 != y0[0])[0])
    for target in (j, int(np.flatnonzero(y0 == y0[0])[1])):
        before = state(player, editor)
        drag(editor, pixel_of(player, X0[0]), pixel_of(player, X0[target]))
        check_refused(player, editor, before, "would land on point")
    # the keyboard cursor: Enter twice at one spot, then the other class at that spot
    editor.cursor_btn.value = True
    key(player, "Enter")
    assert not refused(editor) and len(editor.points[1]) == 21
    before = state(player, editor)
    key(player, "Enter")
    check_refused(player, editor, before, "There is already a point there")
    editor.label_choice.value = -1
    key(player, "Enter")
    check_refused(player, editor, before, "of the other class")
    editor.add_here.click()
    check_refused(player, editor, before, "of the other class")


def test_more_than_max_points_is_refused():
    X, y = lesson(4, seed=5)
    player, editor, first = make(X, y, max_points=5)
    click(editor, empty_spot(player, X))
    assert len(editor.points[1]) == 5 and not refused(editor)
    before = state(player, editor)
    click(editor, empty_spot(player, editor.points[0]))
    check_refused(player, editor, before, "at most 5 points")
    editor.cursor_btn.value = True
    key(player, "Enter")
    assert refused(editor) and "at most 5" in editor.last_message and len(editor.points[1]) == 5
    six = points_literal(np.arange(12.0).reshape(6, 2) / 10, [1, -1] * 3)
    editor.text.value = six
    editor.load_btn.click()
    assert refused(editor) and "6 points is more than the 5" in editor.last_message
    assert len(editor.points[1]) == 5
    # moving and removing still work at the limit
    click(editor, pixel_of(player, editor.points[0][0]), altKey=True)
    assert len(editor.points[1]) == 4 and not refused(editor)


def test_one_class_only_is_shown_with_a_note_not_refused():
    player, editor, first = make()
    editor.clear_btn.click()
    click(editor, empty_spot(player, np.empty((0, 2))))
    assert not refused(editor) and editor.points[1].tolist() == [1.0]
    assert any("One class only" in line for line in player.notes) and editor.summary.separable is None
    click(editor, empty_spot(player, editor.points[0]))
    assert editor.points[1].tolist() == [1.0, 1.0] and any("One class only" in n for n in player.notes)
    assert_shows_the_fit(player, editor, first)
    click(editor, empty_spot(player, editor.points[0]), shiftKey=True)
    assert editor.summary.separable is not None and not any("One class only" in n for n in player.notes)
    assert_shows_the_fit(player, editor, first)


def test_clear_shows_no_points_and_undo_brings_them_back():
    player, editor, first = make()
    before = state(player, editor)
    view = player.view
    editor.clear_btn.click()
    X, y = editor.points
    assert X.shape == (0, 2) and y.shape == (0,) and not refused(editor)
    assert player.text.startswith("No points") and player.K == 0 and player.X.shape == (0, 2)
    assert player.picture.alt.startswith("An empty plane")
    assert player.notes == ["Your data: no points yet. Click on the picture to place one."]
    assert player.view == view  # the view stays, to place new points where they were
    key(player, "ArrowRight")  # nothing to step
    assert player.k == 0
    editor.remove_near.click()
    assert refused(editor) and "no points to remove" in editor.last_message
    editor.copy_btn.click()
    assert editor.text.value == "X = []\ny = []"
    editor.undo_btn.click()
    assert_same_state(state(player, editor), before)


BAD_TEXT = [
    ("", "empty"),
    ("X = [[0.1, 0.2]]", "Missing y"),
    ("import os", "I expected"),
    ("X = [[0.1, 0.2]\ny = [1]", "not a list of numbers"),
    ("X = [[nan, 0.2]]\ny = [1]", "not a list of numbers"),
    ("X = [[1e999, 0.2]]\ny = [1]", "finite"),
    ("X = [[0.1, 0.2, 0.3]]\ny = [1]", "pairs"),
    ("X = [0.1, 0.2]\ny = [1]", "pairs"),
    ("X = [[0.1, 0.2]]\ny = [1, -1]", "one label per point"),
    ("X = [[0.1, 0.2]]\ny = [0]", "1 or -1"),
    ("X = [[0.1, 'a']]\ny = [1]", "numbers only"),
    ("X = []\ny = []", "empty"),
    ("X = __import__('os').system('true')\ny = [1]", "not a list of numbers"),
]


def test_bad_text_in_the_load_box_is_refused_with_its_reason():
    player, editor, first = make()
    before = state(player, editor)
    for text, reason in BAD_TEXT:
        editor.text.value = text
        editor.load_btn.click()
        check_refused(player, editor, before, reason, "Your points are as they were")
        assert editor.undo_btn.disabled  # a refused load is no edit: nothing to undo
    # a good text after the bad ones loads, and undo gives back the lesson's points
    editor.text.value = "X = [[0.5, 1], [-1, -0.5], [1, -1]]\ny = [1, -1, -1]"
    editor.load_btn.click()
    assert not refused(editor) and editor.last_message.startswith("Loaded 3 points from the box")
    np.testing.assert_array_equal(editor.points[0], [[0.5, 1], [-1, -0.5], [1, -1]])
    assert_shows_the_fit(player, editor, first)
    editor.undo_btn.click()
    np.testing.assert_array_equal(editor.points[0], before[0])


def test_opposite_labels_at_one_spot_from_the_box_never_break_the_editor():
    """The box may hold two points of opposite classes at one spot: refused with a message, or shown
    as data that no line separates, never an error."""
    player, editor, first = make()
    before = state(player, editor)
    editor.text.value = "X = [[0.2, 0.2], [0.2, 0.2], [0.9, -0.3]]\ny = [1, -1, 1]"
    editor.load_btn.click()
    if refused(editor):
        check_refused(player, editor, before)
    else:
        assert editor.summary.separable is False and player.notes[1].startswith("No line separates them")
        assert_shows_the_fit(player, editor, first)


def test_copy_points_round_trips_exactly():
    player, editor, first = make()
    click(editor, empty_spot(player, editor.points[0]), shiftKey=True)  # a snapped click: short numbers
    editor.copy_btn.click()
    text = editor.text.value
    assert text == editor.literal == points_literal(*editor.points) and editor.more.selected_index == 0
    X, y = parse_points(text)
    np.testing.assert_array_equal(X, editor.points[0])
    np.testing.assert_array_equal(y, editor.points[1])
    # Load reads the box back: the same points
    pts = editor.points
    editor.clear_btn.click()
    editor.load_btn.click()
    np.testing.assert_array_equal(editor.points[0], pts[0])
    np.testing.assert_array_equal(editor.points[1], pts[1])
    assert_shows_the_fit(player, editor, first)


def test_nothing_to_undo_or_redo_is_a_message():
    player, editor, first = make()
    assert editor.undo_btn.disabled and editor.redo_btn.disabled
    editor.undo_btn.click()
    assert refused(editor) and "Nothing to undo" in editor.last_message
    editor.redo_btn.click()
    assert refused(editor) and "Nothing to redo" in editor.last_message
    assert len(editor.points[1]) == 20


def test_a_fit_that_fails_leaves_everything_as_it_was():
    """The editor takes any fit function; when it raises, the student gets its words and the points,
    the undo history and the picture stay as they were."""
    X, y = lesson()

    def fit(Xs, ys):
        if len(ys) > 20:
            raise ValueError("This lesson's fit takes at most 20 points.")
        return fit_perceptron(Xs, ys, eta=0.25)

    first = fit_perceptron(X, y)
    player = StepThrough(first, X, y)
    editor = PointEditor(player, fit=fit)
    want = fit_perceptron(X, y, eta=0.25)  # the editor's fit is used from the start
    np.testing.assert_array_equal(player.run.history.w, want.history.w)
    before = state(player, editor)
    click(editor, empty_spot(player, X))
    check_refused(player, editor, before, "at most 20 points", "Your points are as they were")
    editor.undo_btn.click()
    assert "Nothing to undo" in editor.last_message
    click(editor, pixel_of(player, X[0]), altKey=True)  # 19 points: the fit takes them
    assert not refused(editor) and len(editor.points[1]) == 19
    want = fit_perceptron(*editor.points, eta=0.25)
    np.testing.assert_array_equal(player.run.history.w, want.history.w)


# --------------------------------------------------------------------------- undo and redo


def test_undo_and_redo_give_back_the_exact_points_picture_and_words():
    player, editor, first = make()
    states = [state(player, editor)]
    X0 = editor.points[0]

    def edit(action):
        action()
        assert not refused(editor), editor.last_message
        states.append(state(player, editor))

    edit(lambda: click(editor, empty_spot(player, editor.points[0])))
    edit(lambda: click(editor, empty_spot(player, editor.points[0]), shiftKey=True))
    edit(lambda: drag(editor, pixel_of(player, X0[3]), empty_spot(player, editor.points[0])))
    player.seek(2)  # the student steps back, then edits: undo comes back to k = 2
    states[-1] = state(player, editor)
    edit(lambda: click(editor, pixel_of(player, X0[8]), altKey=True))
    click(editor, pixel_of(player, editor.points[0][0]))  # select (no edit)...
    edit(lambda: key(player, "Delete"))  # ...and delete it
    edit(lambda: editor.clear_btn.click())
    editor.text.value = "X = [[0.5, 1], [-1, -0.5], [1, -1], [-0.25, 0.75]]\ny = [1, -1, -1, 1]"
    edit(lambda: editor.load_btn.click())
    edit(lambda: editor.lesson_btn.click())
    n = len(states) - 1
    assert not editor.undo_btn.disabled and editor.redo_btn.disabled
    for j in range(n, 0, -1):
        editor.undo_btn.click()
        assert editor.last_message.startswith("Undone")
        assert_same_state(state(player, editor), states[j - 1])
    assert editor.undo_btn.disabled and not editor.redo_btn.disabled
    assert states[3][5] == 2
    for j in range(1, n + 1):
        editor.redo_btn.click()
        assert editor.last_message.startswith("Redone")
        assert_same_state(state(player, editor), states[j])
    assert editor.redo_btn.disabled
    # a new edit after an undo drops the redo
    editor.undo_btn.click()
    click(editor, empty_spot(player, editor.points[0]))
    assert editor.redo_btn.disabled
    editor.redo_btn.click()
    assert refused(editor)


def test_undo_comes_back_to_the_step_the_student_was_at():
    player, editor, first = make()
    player.seek(2)
    at2 = state(player, editor)
    click(editor, empty_spot(player, editor.points[0]))
    assert player.k == player.K
    editor.undo_btn.click()
    assert player.k == 2
    assert_same_state(state(player, editor), at2)


# --------------------------------------------------------------------------- the keyboard cursor


def test_the_keyboard_cursor_adds_and_removes_points():
    player, editor, first = make()
    (x0, x1), (y0, y1) = player.view
    sp = span(player)
    k = player.k
    taken = set(player.picture.taken_keys)  # the player's keys, and Delete for a selected point: no Escape, no Tab
    assert {"Delete", "ArrowLeft"} <= taken and not taken & {"Escape", "Tab", "Enter", "ArrowUp"}
    editor.cursor_btn.value = True
    assert editor.cursor_row.layout.display == "flex" and editor.last_message.startswith("Keyboard cursor at")
    # with the cursor shown the picture takes its keys too (Escape hides it), and still hands Tab on
    assert set(player.picture.taken_keys) == taken | {"Escape", "Enter", "ArrowUp", "ArrowDown"}
    centre = own_data.snap([(x0 + x1) / 2, (y0 + y1) / 2], sp)  # short numbers in the boxes
    assert (editor.cx.value, editor.cy.value) == pytest.approx(tuple(centre))
    np.testing.assert_allclose(player.panels[0].cursor.get_xydata(), [centre])  # the cursor is drawn
    key(player, "ArrowUp")
    key(player, "ArrowUp")
    key(player, "ArrowRight")
    want = own_data.snap(own_data.snap(own_data.snap(centre + [0, sp / 40], sp) + [0, sp / 40], sp) + [sp / 40, 0], sp)
    assert (editor.cx.value, editor.cy.value) == pytest.approx(tuple(want))
    assert player.k == k  # the arrows move the cursor, not the player
    key(player, "ArrowLeft", shiftKey=True)  # shift: a big step
    want = own_data.snap(want - [sp / 8, 0], sp)
    assert editor.cx.value == pytest.approx(want[0])
    np.testing.assert_allclose(player.panels[0].cursor.get_xydata(), [want])
    key(player, "Enter")
    X, y = editor.points
    assert len(y) == 21 and y[-1] == editor.label_choice.value == 1 and not refused(editor)
    np.testing.assert_array_equal(X[-1], own_data.snap(want, sp))
    assert_shows_the_fit(player, editor, first)
    # the sliders move the cursor too, and "Add here" adds there with the chosen class
    editor.label_choice.value = -1
    editor.cx.value, editor.cy.value = x0 + 0.1 * (x1 - x0), y0 + 0.1 * (y1 - y0)
    editor.add_here.click()
    assert len(editor.points[1]) == 22 and editor.points[1][-1] == -1
    np.testing.assert_array_equal(editor.points[0][-1], own_data.snap([editor.cx.value, editor.cy.value], sp))
    # Delete removes the point nearest the cursor (the one just added)
    key(player, "Delete")
    np.testing.assert_array_equal(editor.points[0], X)
    editor.remove_near.click()
    nearest = int(np.argmin(np.hypot(*(X - [editor.cx.value, editor.cy.value]).T)))
    np.testing.assert_array_equal(editor.points[0], np.delete(X, nearest, axis=0))
    # the cursor stays inside the view however far it is pushed
    for _ in range(60):
        key(player, "ArrowDown", shiftKey=True)
    assert editor.cy.value == pytest.approx(y0)
    # Escape hides the cursor: the arrows step the player again
    key(player, "Escape")
    assert editor.cursor_btn.value is False and editor.cursor_row.layout.display == "none"
    assert set(player.picture.taken_keys) == taken  # the next Escape leaves the picture
    assert len(player.panels[0].cursor.get_xydata()) == 0 and "hidden" in editor.last_message
    player.seek(0)
    key(player, "ArrowRight")
    assert player.k == 1
    # without the cursor, Enter and Add here do nothing to the points (a message)
    n = len(editor.points[1])
    key(player, "Enter")
    editor.add_here.click()
    assert refused(editor) and "cursor first" in editor.last_message and len(editor.points[1]) == n


# --------------------------------------------------------------------------- a lifted editor


def test_a_lifted_editor_keeps_the_players_data_the_lift_of_its_points():
    Q, y = data.circles(24, r_inner=0.6, r_outer=1.5, noise=0.1, seed=2)
    Z = kernels.lift(Q)
    first = fit_perceptron(Z, y)
    player = StepThrough(first, Z, y)
    editor = PointEditor(player, lift=kernels.lift, separator="circle")
    np.testing.assert_array_equal(editor.points[0], Q)
    assert_shows_the_fit(player, editor, first, lift=kernels.lift, separator="circle")
    click(editor, empty_spot(player, Q))
    assert len(editor.points[1]) == 25 and player.X.shape == (25, 3)
    assert_shows_the_fit(player, editor, first, lift=kernels.lift, separator="circle")
    drag(editor, pixel_of(player, Q[0]), empty_spot(player, editor.points[0]))
    assert_shows_the_fit(player, editor, first, lift=kernels.lift, separator="circle")
    click(editor, pixel_of(player, editor.points[0][3]), altKey=True)
    assert_shows_the_fit(player, editor, first, lift=kernels.lift, separator="circle")
    assert editor.summary.separable is not None
    assert any("circle" in line for line in player.notes)
    editor.clear_btn.click()
    assert player.X.shape == (0, 3) and player.text.startswith("No points")
    click(editor, empty_spot(player, np.empty((0, 2))))
    assert_shows_the_fit(player, editor, first, lift=kernels.lift, separator="circle")
    editor.lesson_btn.click()
    np.testing.assert_array_equal(editor.points[0], Q)
    assert_shows_the_fit(player, editor, first, lift=kernels.lift, separator="circle")


def test_a_lifted_editor_with_the_3d_view_clears_and_takes_new_points():
    """Lesson 05's editors show the lifted points in a 3-D panel too: Clear once failed there (an empty
    box has no minimum) and the student's points stayed."""
    from perceptron_lib.player import LiftedPanel

    Q, y = data.circles(24, r_inner=0.6, r_outer=1.5, noise=0.1, seed=2)
    Z = kernels.lift(Q)
    player = StepThrough(fit_perceptron(Z, y), Z, y, panels=[LiftedPanel()])
    editor = PointEditor(player, lift=kernels.lift, separator="plane of the lift")
    editor.clear_btn.click()
    assert not refused(editor) and editor.last_message.startswith("Cleared.")
    assert editor.last_message.count("Click on the picture") == 1  # said once, not twice
    assert player.X.shape == (0, 3) and player.text.startswith("No points") and player.K == 0
    assert player.notes == ["Your data: no points yet. Click on the picture to place one."]
    for spot, label in (((0.2, 0.1), 1), ((1.4, 1.2), -1), ((-1.3, 0.4), -1)):
        editor.label_choice.value = label
        click(editor, pixel_of(player, np.array(spot)))
        assert not refused(editor), editor.last_message
    assert player.X.shape == (3, 3) and editor.summary.separable
    player.seek(player.K)  # the 3-D view steps through the new run
    editor.undo_btn.click()
    assert player.X.shape == (2, 3)


# --------------------------------------------------------------------------- the summary and the bound


def test_the_summary_says_separable_or_not():
    player, editor, first = make()
    s = editor.summary
    assert s.separable is True and s.mistakes == player.run.mistakes <= s.bound
    assert s.bound == pytest.approx(offset_mistake_bound(*editor.points).bound)
    assert any(line.startswith("A line separates them") for line in player.notes)
    # a point of class +1 deep among the -1 ones: no line separates them
    X, y = editor.points
    neg = X[y < 0]
    inside = neg.mean(axis=0)
    editor.text.value = points_literal(np.vstack([X, inside]), np.append(y, 1.0))
    editor.load_btn.click()
    assert not refused(editor), editor.last_message
    assert editor.summary.separable is False
    assert any(line.startswith("No line separates them") for line in player.notes)
    assert np.isnan(editor.summary.bound)


@pytest.fixture(scope="module")
def editors():
    """One editor with offset, one through the origin, reused by the property below."""
    X, y = lesson(12, seed=7)
    _, with_offset, _ = make(X, y, dpi=50)
    X, y = lesson(12, seed=7, bias=False)
    first = fit_perceptron(X, y, fit_bias=False)
    homogeneous = PointEditor(StepThrough(first, X, y, dpi=50))
    return with_offset, homogeneous


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 25), margin=st.floats(0.05, 0.5), bias=st.booleans(), seed=st.integers(0, 10_000))
def test_novikoff_on_random_separable_points(editors, n, margin, bias, seed):
    X, y = data.separable(n, margin=margin, bias=bias, seed=seed)
    editor = editors[0] if bias else editors[1]
    editor.load(X, y)
    s, run = editor.summary, editor.run
    # separable data converge, unless the bound allows more mistakes than the editor's epochs hold
    assert s.separable is True and (run.converged or run.epochs == MAX_EPOCHS)
    assert s.gamma >= margin * (1 - 1e-4)  # the best margin is at least the one the data were made with
    mb = offset_mistake_bound(X, y) if bias else mistake_bound(X, y)
    assert s.bound == pytest.approx(mb.bound)
    assert run.mistakes <= s.bound  # Novikoff
    notes = editor.player.notes
    assert any("within the bound" in line for line in notes)
    assert run.converged or "before converging" in notes[-1]


def test_a_separable_set_that_needs_more_epochs_says_so(editors):
    editor = editors[0]  # three points, margin 0.05: 203 mistakes in 100 epochs, the bound allows more
    editor.load(*data.separable(3, margin=0.05078125, bias=True, seed=1428))
    assert not editor.run.converged and editor.run.epochs == MAX_EPOCHS
    assert "stopped after 100 epochs, before converging" in editor.player.notes[-1]


# --------------------------------------------------------------------------- random sequences of clicks

def assert_points(editor, points):
    np.testing.assert_array_equal(editor.points[0], points[0])
    np.testing.assert_array_equal(editor.points[1], points[1])


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["click", "shift", "drag", "alt", "select_delete", "undo", "redo", "leave", "clear",
                         "cursor_enter"]),
        st.floats(0, 1, exclude_max=True),  # which point (a fraction of the count)
        st.integers(-30, 280),  # a pixel, inside and outside the axes and the picture (dpi 50: 250 x 230)
        st.integers(-30, 260),
    ),
    max_size=8,
)


@settings(max_examples=20, deadline=None)
@given(ACTIONS)
def test_random_clicks_never_break_the_editor(actions):
    X, y = lesson(10, seed=3)
    player, editor, first = make(X, y, dpi=50, max_points=12)
    model, pos = [(X, y)], 0  # the points after each edit, and where undo/redo stand among them
    for kind, f, px, py in actions:
        pts, labels = editor.points
        run_before = player.run
        on = pixel_of(player, pts[int(f * len(pts))]) if len(pts) else (px, py)
        if kind == "click":
            click(editor, (px, py))
        elif kind == "shift":
            click(editor, (px, py), shiftKey=True)
        elif kind == "drag":
            drag(editor, on, (px, py))
        elif kind == "alt":
            click(editor, on, altKey=True)
        elif kind == "select_delete":
            click(editor, on)
            key(player, "Delete")
        elif kind == "undo":
            editor.undo_btn.click()
        elif kind == "redo":
            editor.redo_btn.click()
        elif kind == "leave":
            pointer(editor, "pointerdown", *on)
            pointer(editor, "pointerleave", px, py)
        elif kind == "clear":
            editor.clear_btn.click()
        else:
            editor.cursor_btn.value = True
            editor.cx.value, editor.cy.value = player.to_data(*on) if player.to_data(*on) is not None else (0, 0)
            key(player, "Enter")
            key(player, "Escape")
        # the model of the history: an edit drops what could be redone; undo and redo walk along it
        if player.run is run_before:  # no new run: no edit (a refusal, a selection, a drag that left)
            assert_points(editor, model[pos])
        elif editor.last_message.startswith("Undone"):
            pos -= 1
            assert_points(editor, model[pos])
        elif editor.last_message.startswith("Redone"):
            pos += 1
            assert_points(editor, model[pos])
        else:
            assert not refused(editor), editor.last_message
            model, pos = model[:pos + 1] + [editor.points], pos + 1
        assert len(editor.points[1]) <= 12
        assert_shows_the_fit(player, editor, first)
        assert editor.undo_btn.disabled == (pos == 0) and editor.redo_btn.disabled == (pos == len(model) - 1)
    for _ in range(pos):
        editor.undo_btn.click()
    assert editor.undo_btn.disabled
    assert_points(editor, (X, y))  # back to the lesson's points
    assert_shows_the_fit(player, editor, first)
    for _ in range(len(model) - 1):
        editor.redo_btn.click()
    assert editor.redo_btn.disabled
    assert_points(editor, model[-1])


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_a_click_on_a_drawn_point_selects_it_in_both_presets(preset):
    """In the lecture preset the markers are bigger and the picture is another size: a click on a point's
    centre still selects that point, and a click just beside an empty spot still adds one."""
    X, y = lesson()
    player = StepThrough(fit_perceptron(X, y), X, y, style=preset)
    editor = PointEditor(player)
    for i in (0, 7, len(y) - 1):
        click(editor, player.to_pixels(X[i : i + 1])[0])
        assert editor.last_message.startswith(f"Point {i} selected"), (preset, i, editor.last_message)
        click(editor, player.to_pixels(X[i : i + 1])[0])  # a second click lets go of it
    n = len(editor.points[1])
    click(editor, empty_spot(player, X))
    assert len(editor.points[1]) == n + 1 and not refused(editor)


def test_without_a_kernel_the_recording_says_that_editing_needs_one():
    player, editor, _first = make()
    page = editor.recording()
    assert "needs a kernel" in page and "make lab" in page and "perceptron-recording" in page
    bundle, meta = editor._repr_mimebundle_()
    assert bundle["text/plain"].startswith("<PointEditor: 20 points")
    assert "click" not in meta["image/png"]["alt"].lower()  # the still picture cannot be edited: no such promise
