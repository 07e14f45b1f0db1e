"""The point editor's edits as pure functions: an `EditState` in, a new `EditState` out.

An `EditState` holds the student's points, their labels, the lesson's points ("Start again" comes back
to them) and the undo and redo history. Each edit (`add`, `move`, `remove`, `clear`, `start_again`,
`load`, `load_text`) returns a new state whose undo history ends with the points before it and whose
redo history is empty; `undo` and `redo` walk that history. Nothing is changed in place: the points
are tuples, and the state is frozen. An edit the editor's rules refuse raises ValueError with a
sentence for the student, and the state given stays what it was.

The rules are the editor's (`perceptron_lib.player.BrowserEditor`, whose front end ``front/edits.js`` follows them
rule for rule):

* a clicked position is rounded to the view (`own_data.snap` with the view's span);
* a new or moved point may not land within ``ON_TOP`` of the view's span of another point;
* at most ``max_points`` points (`own_data.MAX_POINTS` unless told);
* never two points at one spot with opposite labels (`own_data.conflict`), which a load could bring;
* a load reads its points as "Copy points" writes them (`own_data.parse_points`).

The view and the step the player shows are not part of the state: the front end keeps them beside it.

Examples
--------
>>> s = add(start([[1, 2], [-1, 0]], [1, -1]), (0.504, 0.5), -1, span=4.0)   # rounded to 0.01
>>> s.X, undo(s).X, redo(undo(s)) == s
(((1.0, 2.0), (-1.0, 0.0), (0.5, 0.5)), ((1.0, 2.0), (-1.0, 0.0)), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .own_data import MAX_POINTS, conflict, parse_points, points_literal, snap

__all__ = ["ON_TOP", "EditState", "start", "add", "move", "remove", "clear", "start_again", "load", "load_text",
           "undo", "redo"]

#: A point within this fraction of the view's span of another is on top of it (the editor's rule too).
ON_TOP = 1 / 200

Points = tuple  # tuple of (x1, x2) pairs of floats
Labels = tuple  # tuple of +1 and -1 (ints)


@dataclass(frozen=True)
class EditState:
    """The editor's points and their history. Compare states with ``==``: every field is a tuple.

    Attributes
    ----------
    X : tuple of (float, float)
        The points now.
    y : tuple of int
        Their labels, +1 or -1.
    lesson : tuple
        ``(X, y)`` of the lesson's points, where `start_again` goes back to.
    undo_stack : tuple
        The ``(X, y)`` before each edit, the latest last.
    redo_stack : tuple
        The ``(X, y)`` of each edit undone, the latest undone last.
    max_points : int
        Most points kept.
    """

    X: Points
    y: Labels
    lesson: tuple
    undo_stack: tuple = ()
    redo_stack: tuple = ()
    max_points: int = MAX_POINTS

    @property
    def points(self) -> tuple:
        """``(X, y)`` now: what an undo brings back."""
        return self.X, self.y

    def arrays(self):
        """New arrays ``(X, y)``: X of shape (n, 2), y of shape (n,), floats (as `fit_perceptron` takes them)."""
        return np.array(self.X, dtype=float).reshape(-1, 2), np.array(self.y, dtype=float)


def _as_points(X, y) -> tuple:
    """Arrays (checked) as the state's tuples: floats (-0 written 0) and int labels."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    return (tuple((float(a) + 0.0, float(b) + 0.0) for a, b in X),
            tuple(1 if v > 0 else -1 for v in np.asarray(y, dtype=float).ravel()))


def _checked(X, y, max_points: int) -> tuple:
    """Points from outside (a load, the lesson's data) read as "Copy points" writes them, as tuples."""
    labels = np.asarray(y, dtype=float).ravel()
    if not np.isin(labels, (-1.0, 1.0)).all():
        raise ValueError(f"every label must be 1 or -1; got {sorted(set(labels.tolist()) - {1.0, -1.0})[:3]}.")
    X, y = parse_points(points_literal(X, y), max_points=max_points)
    return _as_points(X, y)


def start(X, y, *, max_points: int = MAX_POINTS) -> EditState:
    """The editor at the lesson's points (X of shape (n, 2), labels y in {-1, +1}), with no history.

    Raises ValueError if the points break a rule (more than `max_points`, a spot with two labels).
    """
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 1:
        raise ValueError(f"max_points must be a whole number >= 1; got {max_points!r}.")
    if np.size(y) > max_points:
        raise ValueError(f"the lesson's data have {np.size(y)} points but max_points is {max_points}: give "
                         f"max_points of at least {np.size(y)}.")
    X, y = ((), ()) if np.size(X) == 0 and np.size(y) == 0 else _checked(X, y, int(max_points))
    _refuse_conflict(X, y)
    return EditState(X=X, y=y, lesson=(X, y), max_points=int(max_points))


def _refuse_conflict(X: Points, y: Labels) -> None:
    pair = conflict(np.array(X, dtype=float).reshape(-1, 2), np.array(y, dtype=float)) if y else None
    if pair is not None:
        raise ValueError(f"Points {pair[0]} and {pair[1]} are at the same spot with opposite labels: no line "
                         "(and no perceptron) can get both right. Move one of them.")


def _edit(state: EditState, X: Points, y: Labels, **changes) -> EditState:
    """The state with points (X, y): the points before go on the undo history, the redo history empties."""
    if len(y) > state.max_points:
        raise ValueError(f"The editor keeps at most {state.max_points} points; got {len(y)}.")
    _refuse_conflict(X, y)
    return replace(state, X=X, y=y, undo_stack=(*state.undo_stack, state.points), redo_stack=(), **changes)


def _spot(x, span) -> tuple:
    """A position from a click: two finite numbers, rounded to the view (`own_data.snap`)."""
    span = float(span)
    if not (math.isfinite(span) and span > 0):
        raise ValueError(f"span (the view's width) must be a number > 0; got {span!r}.")
    x = np.asarray(x, dtype=float).reshape(-1)
    if x.shape != (2,) or not np.isfinite(x).all():
        raise ValueError(f"a point needs two finite numbers; got {x.tolist()}.")
    a, b = snap(x, span)
    return float(a) + 0.0, float(b) + 0.0


def _on_top(X: Points, x: tuple, span: float, skip=None):
    """The first point within ON_TOP * span of x (other than `skip`), or None."""
    for j, p in enumerate(X):
        if j != skip and math.hypot(p[0] - x[0], p[1] - x[1]) <= ON_TOP * span:
            return j
    return None


def _index(state: EditState, i) -> int:
    n = len(state.y)
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= int(i) < n:
        where = "there are no points" if n == 0 else f"the points are numbered 0 to {n - 1}"
        raise ValueError(f"There is no point {i!r}; {where}.")
    return int(i)


def add(state: EditState, x, label, *, span: float) -> EditState:
    """Add a point at x = (x1, x2) (rounded to the view of width `span`) of class `label` (> 0: +1, else -1)."""
    x = _spot(x, span)
    label = 1 if label > 0 else -1
    j = _on_top(state.X, x, float(span))
    if j is not None:
        other = "of the other class " if state.y[j] != label else ""
        raise ValueError(f"There is already a point {other}there (point {j}); a point on top of another "
                         "tells the perceptron nothing new. Click a little further away.")
    if len(state.y) >= state.max_points:
        raise ValueError(f"The editor keeps at most {state.max_points} points; remove some first.")
    return _edit(state, (*state.X, x), (*state.y, label))


def move(state: EditState, i, x, *, span: float) -> EditState:
    """Move point i to x (rounded to the view of width `span`)."""
    i = _index(state, i)
    x = _spot(x, span)
    j = _on_top(state.X, x, float(span), skip=i)
    if j is not None:
        raise ValueError(f"Point {i} would land on point {j}; drop it a little further away.")
    return _edit(state, (*state.X[:i], x, *state.X[i + 1:]), state.y)


def remove(state: EditState, i) -> EditState:
    """Remove point i (the points after it are numbered one less)."""
    i = _index(state, i)
    return _edit(state, state.X[:i] + state.X[i + 1:], state.y[:i] + state.y[i + 1:])


def clear(state: EditState) -> EditState:
    """Remove every point."""
    return _edit(state, (), ())


def start_again(state: EditState) -> EditState:
    """Back to the lesson's points."""
    return _edit(state, *state.lesson)


def load(state: EditState, X, y, *, lesson: bool = False) -> EditState:
    """Replace every point by X (shape (n, 2)) with labels y in {-1, +1}; with ``lesson=True`` they become
    the lesson's points too (where `start_again` goes back to; an undo brings the points back, not the lesson)."""
    X, y = _checked(X, y, state.max_points)
    return _edit(state, X, y, **({"lesson": (X, y)} if lesson else {}))


def load_text(state: EditState, text: str) -> EditState:
    """Replace every point by those in `text`, written as "Copy points" writes them (``X = [...]``, ``y = [...]``)."""
    return _edit(state, *_as_points(*parse_points(text, max_points=state.max_points)))


def undo(state: EditState) -> EditState:
    """Back to the points before the last edit; the edit goes on the redo history."""
    if not state.undo_stack:
        raise ValueError("Nothing to undo.")
    X, y = state.undo_stack[-1]
    return replace(state, X=X, y=y, undo_stack=state.undo_stack[:-1], redo_stack=(*state.redo_stack, state.points))


def redo(state: EditState) -> EditState:
    """Do the edit undone last again."""
    if not state.redo_stack:
        raise ValueError("Nothing to redo.")
    X, y = state.redo_stack[-1]
    return replace(state, X=X, y=y, undo_stack=(*state.undo_stack, state.points), redo_stack=state.redo_stack[:-1])
