"""The exercises checked on the student's own points: 3.4, 4.3 and 5.4.

Each check takes a `BrowserEditor` (its points now) or a pair (X, y); it never raises, a placeholder
reads "not attempted yet", and its verdict agrees with an independent computation.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, kernels
from perceptron_lib.core.bounds import mistake_bound
from perceptron_lib.core.margins import is_separable
from perceptron_lib.core.own_data import points_literal
from perceptron_lib.exercises import nb03, nb04, nb05
from perceptron_lib.player import BrowserEditor

ROWS = (np.r_[np.c_[np.arange(-2.0, 3.0), np.full(5, 2.5)], np.c_[np.arange(-2.0, 3.0), np.full(5, 1.5)]],
        np.r_[np.ones(5), -np.ones(5)])
FOUR = (np.array([[-0.7, 0.6], [-1.2, 1.1], [0.8, 1.3], [0.6, -1.3]]), np.array([1.0, 1.0, -1.0, -1.0]))
DISC = (np.array([[0.0, 0.0], [0.3, 0.0], [-0.2, 0.2], [2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]]),
        np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0]))
CHECKS = [nb03.check_many_updates, nb04.check_half_bound, nb05.check_circle_needed]
GARBAGE = [None, 3, "points", ([1, 2], [1]), ([[1, 2], [3]], [1, -1]),
           ([[np.nan, 0]], [1]), ([[0, 0, 0]], [1]), ([[0, 0]], [2]), object()]


def editor_with(X, y):
    X0, y0 = data.small_2d()
    ed = BrowserEditor(fit_perceptron(X0, y0), X0, y0)
    ed.load(X, y)
    return ed


@pytest.mark.parametrize("check", CHECKS)
def test_placeholder_and_garbage_never_raise(check):
    assert check(...).status == "not attempted"
    for answer in GARBAGE:
        v = check(answer)
        assert v.status in ("wrong", "not attempted"), (answer, v)


def test_many_updates_agrees_with_a_run():
    X, y = ROWS
    run = fit_perceptron(X, y, max_epochs=1000)
    assert run.converged and run.mistakes == 50
    assert nb03.check_many_updates((X, y)).correct
    # two far-apart points: converges at once; too many points; no separator (XOR)
    assert not nb03.check_many_updates(([[0, 0], [3, 3]], [1, -1])).correct
    assert "at most 12" in nb03.check_many_updates(data.separable(13, margin=0.1, seed=0)).message
    assert "did not converge" in nb03.check_many_updates(data.xor()).message


def test_half_bound_agrees_with_the_bound():
    X, y = FOUR
    bound = mistake_bound(X, y).bound
    made = fit_perceptron(X, y, fit_bias=False, max_epochs=10_000).mistakes
    assert bound >= 4 and made >= 0.5 * bound
    assert nb04.check_half_bound((X, y)).correct
    # a bound below 4 is refused even when the ratio is high; five points; no line through 0
    small = ([[1, 0.1], [1, -0.1], [-1, 0.1], [-1, -0.1]], [1, 1, -1, -1])
    assert mistake_bound(*small).bound < 4 and not nb04.check_half_bound(small).correct
    assert not nb04.check_half_bound(data.separable(5, margin=0.1, seed=0)).correct
    assert "no line through the origin" in nb04.check_half_bound(([[1, 1], [2, 2], [-1, 0], [0, -1]],
                                                                   [1, -1, 1, -1])).message


def test_circle_needed_agrees_with_the_lift():
    X, y = DISC
    assert not is_separable(X, y) and is_separable(kernels.lift(X), y)
    assert nb05.check_circle_needed((X, y)).correct
    assert "a line separates" in nb05.check_circle_needed(data.separable(8, margin=0.2, seed=0)).message
    assert "at least 6" in nb05.check_circle_needed((X[:5], y[:5])).message
    # XOR: no line, and no circle centred at the origin either
    Xx, yx = data.xor()
    Xx = np.r_[Xx, Xx + 3.0]
    yx = np.r_[yx, yx]
    assert not nb05.check_circle_needed((Xx, yx)).correct


# --------------------------------------------------------------------------- the lesson's own editor and hand-in

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
OWN_CELL = {"03_hyperplane_updates.ipynb": nb03.check_many_updates, "04_margin_bound.ipynb": nb04.check_half_bound,
            "05_kernel_lifting.ipynb": nb05.check_circle_needed}


def lesson_start(lesson: str):
    """The points the lesson's editor `own = BrowserEditor(run, X, y, ...)` starts from, read from the lesson itself:
    the last assignments to its X and y names before that cell, evaluated (they are made from `data` and `np`)."""
    nb = json.loads((NOTEBOOKS / lesson).read_text(encoding="utf-8"))
    values, env = {}, {"np": np, "data": data}
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                call = node.value
                if getattr(node.targets[0], "id", None) == "own" and getattr(call.func, "id", "") == "BrowserEditor":
                    X, y = (values[arg.id] for arg in call.args[1:3])
                    return np.asarray(X, float), np.asarray(y, float)
            if isinstance(node, ast.Assign):
                target = node.targets[0]
                names = [t.id for t in getattr(target, "elts", [target]) if isinstance(t, ast.Name)]
                if set(names) & {"X", "y", "X_own", "y_own", "X4", "y4"}:
                    value = eval(compile(ast.Expression(node.value), lesson, "eval"), env)  # noqa: S307
                    values.update(zip(names, value, strict=True) if len(names) > 1 else [(names[0], value)])
    raise AssertionError(f"{lesson} has no editor own = BrowserEditor(...)")


def test_the_editors_starting_points_pass_no_check():
    """Each lesson's editor, untouched (or its Copy points pasted), fails its exercise: 05's because they are the
    lesson's own points, 03's and 04's on their merits (too few updates; under half the bound)."""
    X5, y5 = lesson_start("05_kernel_lifting.ipynb")
    X0, y0 = nb05.own_start()
    assert np.array_equal(X5, X0) and np.array_equal(y5, y0)
    for lesson, check in OWN_CELL.items():
        X, y = lesson_start(lesson)
        pasted = {}
        exec(points_literal(X, y), pasted)  # noqa: S102  the cell the student pastes into
        order = np.random.default_rng(3).permutation(len(y))
        for answer in (editor_with(X, y), (X, y), (pasted["X"], pasted["y"]), (X[order], y[order])):
            assert check(answer).status == "wrong", (lesson, check(answer))
    for answer in (editor_with(X0, y0), (X0[::-1], y0[::-1])):
        assert "these are the lesson's 60 points: press Clear, then place your own" in nb05.check_circle_needed(
            answer).message
    # 59 of them, or them moved a little, are not the student's own either: at most 20 points
    assert "at most 20" in nb05.check_circle_needed((X0[1:], y0[1:])).message
    assert "at most 20" in nb05.check_circle_needed((X0 + 0.1, y0)).message
    assert nb05.check_circle_needed((X0[1:], y0[1:])).status == "wrong"


def test_the_same_points_in_any_order():
    X, y = DISC
    assert nb05.same_points(X[::-1], y[::-1], X, y) and nb05.same_points(X + 1e-3, y, X, y)
    assert not nb05.same_points(X, -y, X, y) and not nb05.same_points(X[:-1], y[:-1], X, y)
    assert not nb05.same_points(np.r_[X[:-1], X[:1]], np.r_[y[:-1], y[:1]], X, y)  # a point twice, one missing


def test_no_points_gets_the_students_words():
    cleared = editor_with(*DISC)
    cleared.points = [[], []]  # what the browser sends after Clear
    expected = {nb03.check_many_updates: "no points yet: place at least 2 points (click on the picture).",
                nb04.check_half_bound: "no points yet: place 4 points (click on the picture).",
                nb05.check_circle_needed: "no points yet: place at least 6 points (click on the picture)."}
    for check, words in expected.items():
        for answer in (cleared, ([], []), (np.empty((0, 2)), np.empty(0))):
            v = check(answer)
            assert v.status == "wrong" and v.message == words and "Error" not in str(v), v
    assert nb03.check_never_stops([], []).message == ("no points yet: place at least 3 points (write them into X and "
                                                      "their labels into y).")
    assert nb04.check_tight(([], [])).message.startswith("no points yet: place at least 2 points")
    # a ragged X is not "no points": it is wrong, with what is wrong with it, and never raises
    assert nb03.check_never_stops([[1, 2], [3]], [1, -1]).message.startswith("not quite: your answer could not be")


@pytest.mark.parametrize(("check", "points"), [(nb03.check_many_updates, ROWS), (nb04.check_half_bound, FOUR),
                                               (nb05.check_circle_needed, DISC)])
def test_right_points_on_an_editor_are_not_handed_in_yet(check, points):
    """The editor's points are right, but clicks are not saved: the verdict says how to hand them in, and only the
    pasted pair (X, y) is correct."""
    ed = editor_with(*points)
    v = check(ed)
    assert v.status == "not handed in" and not v.correct, v
    assert v.message.startswith("right points, not handed in yet: press Copy points, paste its two lines"), v
    assert "(X, y)" in v.message
    pasted = {}
    exec(ed.literal, pasted)  # noqa: S102
    assert check((pasted["X"], pasted["y"])).status == "correct"
