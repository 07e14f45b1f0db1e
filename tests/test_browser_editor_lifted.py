"""Lesson 05's editor of lifted points (`BrowserEditor(..., lift=kernels.lift)`), in Python and in Chromium.

The student's clicks are points (x1, x2); every run is fitted on their lift (x1, x2, x1² + x2²) and drawn as circles
on the data panel. The browser fits and draws its own run after an edit (and with no kernel) with the JS port of
`core.lift_view` (``front/lift_boundary.js``): held here equal to `bowl_section`, `boundary_in_view` and
`boundary_note` on random planes and views (vertices within 1e-9 of their size, notes letter for letter), and the
editor's own run to the library's (states, words, circles); Python's run then replaces it, cut to the editor's view.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_lib.core import kernels, lift_view
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import style as _style
from perceptron_lib.player import LiftedPanel
from perceptron_lib.player.browser import _lifted_boundaries
from perceptron_lib.player.browser_editor import BrowserEditor
from perceptron_lib.player.library_run import unpacked
from tests.test_browser_editor_claims import same
from tests.test_browser_editor_front import editor_page, wire

TOL = 1e-9
STATE = ("run", "k", "interval_ms", "points", "lesson", "settings", "options")


def _rings(seed=0, n=16):
    rng = np.random.default_rng(seed)
    X = np.round(rng.uniform(-1.5, 1.5, (n, 2)), 3)
    return X, np.where(np.sum(X**2, axis=1) < 1.0, 1.0, -1.0)


def _editor(**kw):
    X, y = _rings()
    return BrowserEditor(fit_perceptron(kernels.lift(X), y), X, y, lift=kernels.lift, panels=[LiftedPanel()],
                         separator="plane of the lift", **kw)


# ---------------------------------------------------------------------------------------------- Python only
def test_the_library_run_is_fitted_on_the_lift_and_drawn_as_circles():
    editor = _editor()
    X, y = editor.X, editor.y
    run = fit_perceptron(kernels.lift(X), y, max_epochs=100)
    full = editor.full_run()  # the lean `run` (the browser words it and draws its circles) made whole
    assert full["mode"] == "lifted" and editor.run["K"] == full["K"] == len(run.history) - 1
    np.testing.assert_array_equal(unpacked(editor.run)["w"], run.history.w)
    assert unpacked(editor.run)["X"].shape == (len(y), 3) and editor.options["lift"] == "bowl"
    assert full["panels"][0]["kind"] == "lifted" and editor.options["panels"][0]["kind"] == "lifted"
    assert editor.X.shape == (len(y), 2)  # what the exercises read: the clicks, not their lift
    editor.points = [[[0.1, 0.2], [1.2, 1.0]], [1, -1]]
    assert unpacked(editor.run)["X"][:, 2].tolist() == pytest.approx([0.05, 2.44])
    editor.points = [[], []]
    assert editor.run["mode"] == "lifted" and editor.run["curves"] == [[]] and editor.run["K"] == 0


def test_a_lift_other_than_kernels_lift_is_refused():
    X, y = _rings()
    with pytest.raises(ValueError, match="lift must be kernels.lift"):
        BrowserEditor(fit_perceptron(kernels.lift(X), y), X, y, lift=lambda X: X)


def test_the_still_of_a_lifted_editor_is_drawn():
    png, width, height, alt = _editor().snapshot()
    assert png[:4] == b"\x89PNG" and width > 0 and height > 0 and "Click or tap to add a point" in alt


# ---------------------------------------------------------------------------------------------- Chromium
@pytest.fixture(scope="module")
def page(chromium):
    yield from editor_page(chromium, title="lifted editor", after=False)


def _planes(rng, n):
    """(w, b, xlim, ylim): circles inside, across and outside the view, lines (w3 = 0), empty and tiny circles."""
    out = []
    for j in range(n):
        lo = rng.uniform(-3, 1, 2)
        xlim, ylim = [lo[0], lo[0] + rng.uniform(0.5, 4)], [lo[1], lo[1] + rng.uniform(0.5, 4)]
        w = rng.normal(size=3)
        if j % 5 == 0:
            w[2] = 0.0
        elif j % 5 == 1:
            w[:2] = 0.0
        b = float(rng.normal() * 3)
        out.append((w.tolist(), b, xlim, ylim))
    return out


def test_the_browsers_circles_and_notes_are_lift_view_on_random_planes(page):
    rng = np.random.default_rng(5)
    cases = _planes(rng, 300)
    got = json.loads(page.evaluate("""(cases) => JSON.stringify(cases.map(([w, b, xl, yl]) => ({
        curves: front.boundaryInView(w, b, xl, yl), note: front.boundaryNote(w, b, xl, yl, false),
        section: front.bowlSection(w, b, [xl, yl, [0, 4]], 64)})))""", cases))
    drawn = 0
    for (w, b, xlim, ylim), have in zip(cases, got, strict=True):
        want = [p.tolist() for p in lift_view.boundary_in_view(w, b, xlim, ylim)]
        same(have["curves"], want, f"boundary_in_view({w}, {b})")
        same(have["section"], [p.tolist() for p in lift_view.bowl_section(w, b, [xlim, ylim, (0, 4)])], "section")
        assert have["note"] == lift_view.boundary_note(w, b, xlim, ylim)
        drawn += bool(want)
    assert 60 < drawn < 290  # planes that miss the view and planes that cross it


def test_the_editor_with_no_kernel_fits_the_lift_and_draws_its_circles(page):
    editor = _editor()
    state = editor.get_state()
    page.evaluate("(state) => window.mount(state)", wire({name: state[name] for name in STATE}))
    assert page.evaluate("document.querySelectorAll('#widget .pl-box').length") == 1  # Python's lifted view
    box = page.locator("#widget .pp-plot").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    got = json.loads(page.evaluate("""() => { const s = editor.spec(); return JSON.stringify({
        run: document.querySelector('#widget .perceptron-browsereditor').dataset.run, X: editor.state().X,
        y: editor.state().y, w: s.w, b: s.b, K: s.K, view: s.view, mode: s.mode, lines: [...Array(s.K + 1).keys()]
        .map((k) => s.lines[k]), curves: [...Array(s.K + 1).keys()].map((k) => s.curves[k]),
        notes: [...Array(s.K + 1).keys()].map((k) => s.notes[k]), panels: s.panels,
        views: document.querySelectorAll('#widget .pl-box').length,
        drawn: document.querySelectorAll('#widget .pp-plot path, #widget .pp-plot polyline').length}); }"""))
    assert got["run"] == "browser" and got["mode"] == "lifted" and len(got["y"]) == 17 and got["views"] == 1
    X, y = np.array(got["X"]), np.array(got["y"], dtype=float)
    editor.points = [got["X"], got["y"]]  # the library's run of the same points
    run = editor.library_run
    same(got["w"], run.history.w.tolist(), "w")
    same(got["b"], run.history.b.tolist(), "b")
    assert got["lines"] == editor.full_run()["lines"]  # the library's words, letter for letter
    want = _lifted_boundaries(run, got["view"])
    same(got["curves"], want["curves"], "curves")
    assert got["notes"] == want["notes"]
    # the lifted view of its own run, computed in the browser: LiftedPanel.front's, drawn
    same(got["panels"], [LiftedPanel().front(run, kernels.lift(X), y, style=_style.get(None))], "panels")
    assert X.shape == (17, 2)
    # Python's run arrives: drawn in the editor's view, its circles cut to that view
    page.evaluate("(r) => window.model.fromPython('run', r)", wire(editor.run))
    after = json.loads(page.evaluate("""() => { const s = editor.spec(); return JSON.stringify({
        run: document.querySelector('#widget .perceptron-browsereditor').dataset.run, view: s.view,
        curves: [...Array(s.K + 1).keys()].map((k) => s.curves[k])}); }"""))
    assert after["run"] == "library" and after["view"] == got["view"]
    same(after["curves"], want["curves"], "library curves")


def _runs(rng, n_runs):
    """Runs on lifted points: rings, noisy rings (not separable), a few points, one class, moved off the origin."""
    out = []
    for j in range(n_runs):
        n = int(rng.integers(1, 30))
        X = rng.uniform(-2, 2, (n, 2)) + (rng.normal(size=2) if j % 3 == 2 else 0)
        r = float(rng.uniform(0.5, 1.5))
        y = np.where(np.hypot(X[:, 0], X[:, 1]) < r, 1.0, -1.0)
        if j % 4 == 1:
            y[rng.random(n) < 0.2] *= -1
        if j % 7 == 3:
            y[:] = 1.0
        out.append((X, y, {"eta": float(rng.choice([1.0, 0.5])), "max_epochs": 30}))
    return out


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_the_browsers_lifted_view_is_lifted_panel_front_on_random_runs(page, preset):
    rng = np.random.default_rng(11 if preset == "notebook" else 12)
    editor = _editor(style=preset)
    recipe, style = editor.options["panels"][0], editor.run["style"]
    cases, wants = [], []
    for X, y, settings in _runs(rng, 40):
        Z = kernels.lift(X)
        cases.append({"X": X.tolist(), "y": y.tolist(), "settings": {**editor.settings, **settings}})
        run = fit_perceptron(Z, y, **{**editor.settings, **settings})
        wants.append(LiftedPanel().front(run, Z, y, style=editor._style))
    got = json.loads(page.evaluate("""([cases, recipe, style]) => JSON.stringify(cases.map((c) => {
        const Z = front.lift(c.X);
        const run = front.editorFit(Z, c.y, c.settings);
        const spec = front.editorRunSpec(run, Z, c.y, {style, view: front.viewFor(c.X, front.fitOptions(c.settings)),
            separator: "plane of the lift", hint: "", recipes: [recipe], lift: "bowl"});
        return spec.panels[0]; }))""", [cases, recipe, style]))
    planes = 0
    for have, want in zip(got, wants, strict=True):
        same(have, want, "lifted")
        planes += sum(len(p) > 0 for p in want["planes"])
    assert planes > 100


def test_lifted_panel_browser_recipe_is_its_front_without_the_runs_numbers():
    recipe = LiftedPanel(elev=30, azim=-40).browser()
    assert recipe["kind"] == "lifted" and recipe["view"] == {"elev": 30.0, "azim": -40.0}
    X, y = _rings()
    spec = LiftedPanel(elev=30, azim=-40).front(fit_perceptron(kernels.lift(X), y), X, y, style=_style.get(None))
    for key in ("title", "view", "aspect", "colors", "plane_alpha"):
        assert recipe[key] == spec[key]
    assert spec["size_px"] in recipe["size_px"].values()


def test_the_two_lines_of_copy_points_hand_in_exercise_5_4_as_a_pair():
    """Lesson 05's Exercise 4 says: paste the two lines "Copy points" gives (X = [...], y = [...]) and give the check
    (X, y). An editor of lifted points copies the clicks (x1, x2), not their lift."""
    from perceptron_lib.core.own_data import points_literal
    from perceptron_lib.exercises import nb05

    X = np.array([[0.0, 0.0], [0.3, 0.0], [-0.2, 0.2], [2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0])
    editor = BrowserEditor(fit_perceptron(kernels.lift(X), y), X, y, lift=kernels.lift, panels=[LiftedPanel()],
                           separator="plane of the lift")
    text = editor.literal
    assert text == points_literal(X, y) and text.splitlines()[1] == "y = [-1, -1, -1, 1, 1, 1, 1]"
    pasted = {}
    exec(text, pasted)  # the cell the student pastes into
    assert np.array(pasted["X"]).shape == (7, 2)
    assert nb05.check_circle_needed((pasted["X"], pasted["y"])).status == "correct"
    assert nb05.check_circle_needed(editor).status == "not handed in"  # right points; clicks are not saved
