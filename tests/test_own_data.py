"""perceptron_lib.core.own_data: the point editor's pure part (summary, the points as text and back, snapping)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data, own_data
from perceptron_lib.core.bounds import mistake_bound, offset_mistake_bound
from perceptron_lib.core.margins import radius
from perceptron_lib.core.own_data import (
    MAX_POINTS,
    empty_run,
    fit_settings,
    parse_points,
    points_literal,
    snap,
    summarize,
    summary_lines,
)

XOR_X = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
XOR_Y = np.array([1, 1, -1, -1], dtype=float)


# --------------------------------------------------------------------------- the points as text and back


def test_points_literal_as_documented():
    assert points_literal([[0.5, 1.0], [-2.25, 0.0]], [1, -1]) == "X = [[0.5, 1], [-2.25, 0]]\ny = [1, -1]"
    assert points_literal(np.empty((0, 2)), np.empty(0)) == "X = []\ny = []"
    assert points_literal([[1e20, -3e-7]], [-1.0]) == "X = [[1e+20, -3e-07]]\ny = [-1]"


def test_parse_points_accepts_what_a_student_pastes():
    want = ([[0.5, 1.0], [-2.0, 0.0]], [1.0, -1.0])
    for text in ("X = [[0.5, 1], [-2, 0]]\ny = [1, -1]",
                 "X = [[0.5, 1], [-2, 0]]; y = [1, -1]",
                 "  y = [1.0, -1.0]\n\nX = [[0.5, 1], [-2, 0]]\n",  # either order, blank lines
                 "X = np.array([[0.5, 1], [-2, 0]])\ny = numpy.asarray([1, -1]);",
                 "X = ((0.5, 1), (-2, 0))\ny = (1, -1)"):
        X, y = parse_points(text)
        assert (X.tolist(), y.tolist()) == want, text
        assert X.dtype == y.dtype == np.float64 and X.shape == (2, 2)


@pytest.mark.parametrize(("text", "problem"), [
    ("", "empty"),
    ("   \n ", "empty"),
    (None, "empty"),
    ("X = [[1, 2]]", "Missing y"),
    ("y = [1]", "Missing X"),
    ("hello", "I expected 'X = ...'"),
    ("X = [[1, 2]]\nprint(y)", "X is not a list of numbers I can read"),
    ("X = [[1, 2]]; y = [1,", "y is not a list of numbers I can read"),
    ("X = [[1, 2], [3, 4]]]\ny = [1, -1]", "X is not a list of numbers I can read"),
    ("X = __import__('os').getcwd()\ny = [1]", "X is not a list of numbers I can read"),
    ("X = [[nan, 1]]\ny = [1]", "X is not a list of numbers I can read"),
    ("X = [[float('inf'), 1]]\ny = [1]", "X is not a list of numbers I can read"),
    ("X = [[1e999, 1]]\ny = [1]", "finite"),
    ("X = [[1, 2]]\ny = [-1e999]", "finite"),
    ("X = [[1, 'a']]\ny = [1]", "numbers only"),
    ("X = [[1, 2], [3]]\ny = [1, -1]", "numbers only"),
    ("X = []\ny = []", "empty"),
    ("X = [1, 2]\ny = [1]", "pairs"),
    ("X = [[1, 2, 3]]\ny = [1]", "pairs"),
    ("X = [[[1, 2]]]\ny = [1]", "pairs"),
    ("X = [[1, 2], [3, 4]]\ny = [1]", "one label per point"),
    ("X = [[1, 2]]\ny = [[1]]", "one label per point"),
    ("X = [[1, 2], [3, 4]]\ny = [1, 0]", "1 or -1"),
    ("X = [[1, 2]]\ny = [2]", "1 or -1"),
    ("X = [[1, 2]]\ny = [True]", None),  # True is 1: accepted
    ("X = " + "[[1, 2]]" * 30_000 + "\ny = [1]", "too long"),
])
def test_parse_points_errors_name_the_problem(text, problem):
    if problem is None:
        X, y = parse_points(text)
        assert y.tolist() == [1.0]
        return
    with pytest.raises(ValueError) as err:
        parse_points(text)
    assert problem in str(err.value)


def test_parse_points_refuses_more_than_max_points():
    X = np.arange(12.0).reshape(6, 2)
    text = points_literal(X, [1, -1] * 3)
    assert parse_points(text, max_points=6)[0].shape == (6, 2)
    with pytest.raises(ValueError, match="6 points is more than the 5"):
        parse_points(text, max_points=5)
    assert MAX_POINTS == 500


def test_parse_points_never_runs_the_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError):
        parse_points("X = open('made', 'w').write('x')\ny = [1]")
    with pytest.raises(ValueError):
        parse_points("X = [[1, 2]]\ny = [open('made', 'w').write('x')]")
    assert not (tmp_path / "made").exists()


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(finite, finite, st.sampled_from([1.0, -1.0])), min_size=1, max_size=30))
def test_points_literal_and_parse_points_round_trip(rows):
    X = np.array([r[:2] for r in rows], dtype=float)
    y = np.array([r[2] for r in rows])
    text = points_literal(X, y)
    X2, y2 = parse_points(text)
    np.testing.assert_array_equal(X2, X)  # exact: repr of a float reads back as the same float
    np.testing.assert_array_equal(y2, y)
    assert not (np.signbit(X2) & (X2 == 0)).any() or (np.signbit(X) & (X == 0)).any()
    if not (np.signbit(X) & (X == 0)).any():  # -0.0 is written "-0", which reads back as 0.0
        assert points_literal(X2, y2) == text  # the text is a fixed point


# --------------------------------------------------------------------------- snapping a click


def test_snap_rounds_to_a_nice_step_of_the_view():
    np.testing.assert_array_equal(snap([0.123456, -1.98765], 4.0), [0.12, -1.99])  # step 0.01
    np.testing.assert_array_equal(snap([0.123456, -1.98765], 3.99), [0.123, -1.988])  # just under: 0.001
    np.testing.assert_array_equal(snap([3.4, 5.6], 400.0), [3.0, 6.0])  # step 1
    np.testing.assert_array_equal(snap([12.0, -18.0], 4000.0), [10.0, -20.0])  # step 10
    np.testing.assert_array_equal(snap([0.0, 0.0], 2.0), [0.0, 0.0])
    out = snap(np.array([0.5, 0.25]), 0.0)  # a degenerate view does not divide by zero
    assert np.isfinite(out).all()


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), st.floats(1e-3, 1e4))
def test_snap_moves_a_point_by_at_most_half_a_step(p, span):
    step = 10.0 ** math.floor(math.log10(span / 400))
    assert step <= span / 400 * (1 + 1e-12) and span / 400 < 10 * step * (1 + 1e-12)
    q = snap(p, span)
    assert q.shape == (2,)
    assert np.all(np.abs(q - np.asarray(p)) <= step / 2 + 1e-9 * max(1.0, abs(p[0]), abs(p[1])))
    np.testing.assert_allclose(snap(q, span), q, rtol=0, atol=1e-9 * max(1.0, *np.abs(q)))  # idempotent


# --------------------------------------------------------------------------- fit settings, the empty run


def test_fit_settings_fit_new_points_as_the_run_was_fitted():
    X, y = data.separable(20, margin=0.2, bias=True, seed=2)
    first = fit_perceptron(X, y, eta=0.5, update_on="negative", fit_bias=False, w0=[0.3, -0.1], max_epochs=50)
    s = fit_settings(first, max_epochs=50)
    assert s["eta"] == 0.5 and s["update_on"] == "negative" and s["fit_bias"] is False and s["max_epochs"] == 50
    again = fit_perceptron(X, y, **s)
    np.testing.assert_array_equal(again.history.w, first.history.w)
    np.testing.assert_array_equal(again.history.b, first.history.b)
    s["w0"][0] = 99.0  # a copy: changing it leaves the run alone
    assert first.history.w[0, 0] == 0.3
    shuffled = fit_perceptron(X, y, order="random", rng=0)
    s = fit_settings(shuffled)
    assert s["order"] == "random" and s["rng"] == 0 and s["max_epochs"] == 100
    np.testing.assert_array_equal(fit_perceptron(X, y, **s).history.w, shuffled.history.w)


def test_empty_run_is_a_start_state_on_no_points():
    r = empty_run(3, w0=[1.0, 2.0, 3.0], b0=0.5, eta=0.25, update_on="sign", fit_bias=False)
    assert len(r.history) == 1 and r.mistakes == 0 and r.converged and r.cycle is None and r.n_samples == 0
    np.testing.assert_array_equal(r.history.w, [[1.0, 2.0, 3.0]])
    assert r.history.b.tolist() == [0.5] and r.eta == 0.25 and r.update_on == "sign" and not r.fit_bias
    z = empty_run(2)
    assert z.history.w.tolist() == [[0.0, 0.0]] and z.b == 0.0 and z.fit_bias


# --------------------------------------------------------------------------- the summary in words


def test_summary_of_no_points():
    s = summarize(np.empty((0, 2)), np.empty(0), empty_run(2))
    assert (s.n, s.n_pos, s.n_neg, s.separable, s.mistakes) == (0, 0, 0, None, 0)
    assert summary_lines(s) == ["Your data: no points yet. Click or tap the picture to place one."]


@pytest.mark.parametrize(("y", "missing"), [([1.0, 1.0], "−1"), ([-1.0, -1.0], "+1")])
def test_summary_of_one_class(y, missing):
    X = np.array([[1.0, 1.0], [2.0, -1.0]])
    run = fit_perceptron(X, y)
    s = summarize(X, y, run)
    assert s.separable is None and math.isnan(s.gamma) and math.isnan(s.bound)
    lines = summary_lines(s)
    assert lines[0] == f"Your data: 2 points ({s.n_pos} of class +1, {s.n_neg} of class −1)."
    assert "One class only" in lines[1] and f"class {missing} (the {missing} button, or shift-click)" in lines[1]
    assert lines[2] == f"Mistakes made: {run.mistakes}."


def test_summary_of_separable_data_with_offset():
    X, y = data.separable(20, margin=0.2, bias=True, seed=1)
    run = fit_perceptron(X, y)
    s = summarize(X, y, run)
    mb = offset_mistake_bound(X, y)
    assert s.separable is True and s.fit_bias and s.n == 20 and s.n_pos + s.n_neg == 20
    assert s.R == pytest.approx(radius(X)) and s.gamma == pytest.approx(mb.gamma) and s.gamma >= 0.2 - 1e-6
    assert s.bound == pytest.approx(mb.bound) and s.bound_plain == pytest.approx((mb.R / mb.gamma) ** 2)
    assert s.mistakes == run.mistakes <= s.bound and s.converged
    lines = summary_lines(s)
    assert lines[1].startswith("A line separates them: R = ") and "through the origin" not in lines[1]
    assert lines[2].startswith("Bound with offset (b*²+1)(1+R²)/γ² = ") and "b* the offset of the best line" in lines[2]
    assert lines[3].startswith(f"Mistakes made: {run.mistakes}, within the bound")
    assert summary_lines(s, separator="circle")[1].startswith("A circle separates them")


def test_summary_of_separable_data_through_the_origin():
    X, y = data.separable(20, margin=0.2, bias=False, seed=3)
    run = fit_perceptron(X, y, fit_bias=False)
    s = summarize(X, y, run)
    mb = mistake_bound(X, y)
    assert s.separable is True and not s.fit_bias
    assert s.bound == pytest.approx(mb.bound) == pytest.approx(s.bound_plain)
    lines = summary_lines(s)
    assert "A line through the origin separates them" in lines[1]
    assert lines[2] == f"Bound (R/γ)² = {own_data.num(s.bound)}."
    assert s.mistakes <= s.bound and "within the bound" in lines[3]


def test_summary_of_a_cycle():
    run = fit_perceptron(XOR_X, XOR_Y)
    assert run.cycle is not None
    s = summarize(XOR_X, XOR_Y, run)
    c = run.cycle
    assert s.separable is False and s.cycle == (c.start, c.length, c.mistakes_per_cycle)
    assert math.isnan(s.gamma) and math.isnan(s.bound)
    lines = summary_lines(s)
    assert lines[1] == "No line separates them, so there is no margin and no bound."
    assert f"a cycle of {c.mistakes_per_cycle} updates, for ever" in lines[2]


def test_summary_of_a_run_that_stopped():
    run = fit_perceptron(XOR_X, XOR_Y, order="random", rng=0, max_epochs=3)
    assert run.cycle is None and not run.converged
    lines = summary_lines(summarize(XOR_X, XOR_Y, run))
    assert lines[2] == f"The run stopped after 3 epochs without converging ({run.mistakes} mistakes made)."


def test_summary_of_non_separable_data_that_converged_is_impossible_but_worded():
    """A run can converge on data no line separates only if its test differs ("negative" treats a point
    on the boundary as right): the summary still says what the data are."""
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0])
    run = fit_perceptron(X, y, update_on="negative")
    s = summarize(X, y, run)
    assert s.separable is False
    lines = summary_lines(s)
    assert lines[1].startswith("No line separates them")
    if run.converged:
        assert lines[2] == f"Mistakes made: {run.mistakes}."


#: The editors' default passes (`BrowserEditor(max_epochs=100)`): the summary's words when a run needs more.
EDITOR_EPOCHS = 100


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 25), margin=st.floats(0.05, 0.5), bias=st.booleans(), seed=st.integers(0, 10_000))
def test_novikoff_on_random_separable_points(n, margin, bias, seed):
    """The summary an editor shows for any separable set: the best margin at least the one the data were made
    with, the bound of `bounds`, and the run's mistakes within it (Novikoff), said in words."""
    X, y = data.separable(n, margin=margin, bias=bias, seed=seed)
    run = fit_perceptron(X, y, fit_bias=bias, max_epochs=EDITOR_EPOCHS)
    s = summarize(X, y, run)
    # separable data converge, unless the bound allows more mistakes than the editor's epochs hold
    assert s.separable is True and (run.converged or run.epochs == EDITOR_EPOCHS)
    assert s.gamma >= margin * (1 - 1e-4)
    mb = offset_mistake_bound(X, y) if bias else mistake_bound(X, y)
    assert s.bound == pytest.approx(mb.bound)
    assert run.mistakes <= s.bound
    lines = summary_lines(s)
    assert any("within the bound" in line for line in lines)
    assert run.converged or "before converging" in lines[-1]


def test_a_separable_set_that_needs_more_epochs_says_so():
    """Three points at margin 0.05: 203 mistakes in 100 epochs, and the bound allows more."""
    X, y = data.separable(3, margin=0.05078125, bias=True, seed=1428)
    run = fit_perceptron(X, y, max_epochs=EDITOR_EPOCHS)
    assert not run.converged and run.epochs == EDITOR_EPOCHS
    assert "stopped after 100 epochs, before converging" in summary_lines(summarize(X, y, run))[-1]
