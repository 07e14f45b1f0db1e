"""Lesson 06's four answers computed in the browser (``front/answers_fit.js``) against the library, in Chromium.

An editor with no kernel fits the student's points itself and must draw the answers a kernel would send: the run
of `fit_averaged` (the same updates, the same states), the overlay of `AnswersPanel.front` (the averaged and the
pocket lines at every step, the vote's boundary traced on the same grid) key for key with numbers within 1e-9 of
their size, and the readout line of `AnswersFit.readout` letter for letter. Random sets of every kind the editor
meets: integers and rationals (thirds, eighths), separable and not, points on a state's line, one class, one
point; every mistake test and both orders. Then the editor itself, mounted as lesson 06 mounts it, takes a click
with no kernel and shows the three answers with the library's words.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from contourpy import contour_generator

from perceptron_lib.core import data
from perceptron_lib.core.averaged import fit_averaged, step_errors
from perceptron_lib.core.own_data import summarize, summary_lines
from perceptron_lib.draw import style as _style
from perceptron_lib.player.browser import _style_trait
from perceptron_lib.player.browser_editor import BrowserEditor
from perceptron_lib.player.panels.averaged import AnswersFit, AnswersPanel
from perceptron_lib.player.panels.vote_regions import canonical_pieces, vote_labels
from perceptron_lib.player.readout import state_lines
from tests.test_browser_editor_claims import same
from tests.test_browser_editor_front import editor_page, wire

pytestmark = pytest.mark.browser

RULES = ("nonpositive", "negative", "sign")


@pytest.fixture(scope="module")
def page(chromium):
    yield from editor_page(chromium, title="answers in the browser", after=False)


def _sets(rng, n_sets):
    """(X, y) of every kind: noisy clouds, separable, integers with points on lines, thirds, eighths, one class."""
    out = []
    for j in range(n_sets):
        kind = j % 7
        n = int(rng.integers(1, 30))
        if kind == 0:  # two noisy clouds: not separable
            X = rng.normal(size=(n, 2)) + np.where(rng.random((n, 1)) < 0.5, 1.0, -1.0)
            y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        elif kind == 1:  # separable with an offset
            X, y = data.separable(max(n, 2), margin=float(rng.uniform(0.05, 0.4)), seed=int(rng.integers(1 << 30)))
            X = X + rng.normal(size=2)
        elif kind == 2:  # small integers: scores of exactly 0, points on a state's line, ties of the vote
            X = rng.integers(-3, 4, size=(n, 2)).astype(float)
            y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        elif kind == 3:  # thirds: rationals with no short binary form
            X = rng.integers(-6, 7, size=(n, 2)) / 3.0
            y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        elif kind == 4:  # eighths, the editor's snap, labelled by a line (separable) or by chance
            X = np.round(rng.uniform(-2, 2, size=(n, 2)) * 8) / 8
            y = np.where(X @ rng.normal(size=2) > 0, 1.0, -1.0) if j % 2 else np.where(rng.random(n) < 0.5, 1, -1.0)
        elif kind == 5:  # one class
            X = rng.normal(size=(n, 2))
            y = np.full(n, 1.0 if j % 2 else -1.0)
        else:  # points on one line, both classes
            t = rng.integers(-4, 5, size=n).astype(float)
            X = np.c_[t, 0.5 * t + 1]
            y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        out.append((X, y))
    return out


def _gap(have, want) -> float:
    """The largest difference between two numbers at the same place of `have` and `want` (of one structure), each
    relative to 1 + its size, as `same` measures it."""
    if isinstance(want, dict):
        return max((_gap(have[key], want[key]) for key in want), default=0.0)
    if isinstance(want, (list, tuple)):
        return max((_gap(a, b) for a, b in zip(have, want, strict=True)), default=0.0)
    if isinstance(want, (bool, str)) or want is None:
        return 0.0
    return abs(have - want) / (1 + max(abs(have), abs(want)))


def _fitted(X, y, *, epochs, update_on, order, rng, fit_bias):
    """`AnswersFit` holding the run of `fit_averaged` with these settings (the lesson's is the default)."""
    fit = AnswersFit(epochs=epochs)
    ar = fit_averaged(X, y, epochs=epochs, update_on=update_on, order=order, rng=rng, fit_bias=fit_bias)
    fit.latest = (ar, step_errors(ar, X, y))
    return fit, ar.run


def test_the_browsers_answers_are_the_librarys_on_random_sets(page):
    rng = np.random.default_rng(606)
    cases, wants = [], []
    for j, (X, y) in enumerate(_sets(rng, 168)):
        settings = {"epochs": int(rng.integers(1, 13)), "update_on": RULES[j % 3],
                    "order": "random" if j % 5 == 4 else "cyclic", "rng": int(rng.integers(1000)),
                    "fit_bias": j % 4 != 3}
        fit, run = _fitted(X, y, **settings)
        panel = AnswersPanel(fit)
        s = _style.get("lecture" if j % 3 == 0 else "notebook")
        errors = fit.latest[1]
        lines = [fit.readout(run, X, y, k)[1] for k in range(len(run.history))]
        wants.append({"w": run.history.w.tolist(), "b": run.history.b.tolist(), "i": run.history.i.tolist(),
                      "t": fit.latest[0].t.tolist(), "converged": run.converged, "epochs": run.epochs,
                      "spec": panel.front(run, X, y, style=s), "lines": lines,
                      "pocketK": errors.pocket_k.tolist()})
        cases.append({"X": X.tolist(), "y": y.tolist(), "recipe": panel.browser(), "style": _style_trait(s),
                      "epochs": settings["epochs"],
                      "options": {"updateOn": settings["update_on"], "order": settings["order"],
                                  "seed": settings["rng"], "fitBias": settings["fit_bias"]}})
    haves = json.loads(page.evaluate("""(cases) => JSON.stringify(cases.map((c) => {
        const run = front.fitAveraged(c.X, c.y, c.options, c.epochs);
        const spec = front.answersSpec(run, c.X, c.y, c.recipe, c.style,
                                       {lazySteps: front.lazySteps, viewFor: front.viewFor});
        const errors = front.answersErrors(run, c.X, c.y);
        return {w: run.history.w, b: run.history.b, i: run.history.i, t: run.averaged.t,
                converged: run.converged, epochs: run.epochs, spec,
                lines: run.history.w.map((_, k) => front.answersLine(c.y.length, k, errors)),
                pocketK: errors.pocketK};
    }))""", cases))
    met = {"pieces": 0, "closed": 0, "cut": 0, "K": 0, "gap": 0.0}
    for j, (have, want) in enumerate(zip(haves, wants, strict=True)):
        same(have, want, f"set {j}")
        met["gap"] = max(met["gap"], _gap(have, want))
        pieces = [p for step in want["spec"]["paths"][0]["pieces"] for p in step]
        met["pieces"] += len(pieces)
        met["closed"] += sum(p[:2] == p[-2:] for p in pieces)
        met["cut"] += any(len(step) > 1 for step in want["spec"]["paths"][0]["pieces"])
        met["K"] += len(want["w"]) - 1
    # every kind of boundary met often: many pieces, closed rings, votes cut in several pieces
    assert met["pieces"] > 2000 and met["closed"] > 50 and met["cut"] > 20, met
    print(f"answers: {len(wants)} sets, {met['K']} steps, {met['pieces']} pieces of the vote; largest gap "
          f"{met['gap']:.3g}")


def test_the_browsers_tracing_is_contourpys_on_hard_grids(page):
    """Saddles, rings, rings in rings, lines from edge to edge, one lone +1, all +1: the browser's pieces are
    contourpy's in canonical order, point for point (no rounding here)."""
    rng = np.random.default_rng(7)
    grids = []
    for j in range(80):
        nx, ny = int(rng.integers(2, 14)), int(rng.integers(2, 14))
        z = np.where(rng.random((ny, nx)) < [0.5, 0.1, 0.9, 0.3][j % 4], 1, -1)
        if j % 10 == 0:
            z = np.where((np.arange(nx)[None, :] + np.arange(ny)[:, None]) % 2 == 0, 1, -1)  # saddles everywhere
        gx = np.sort(rng.normal(size=nx)) * 3 + rng.normal()
        gy = np.sort(rng.normal(size=ny)) / 3
        grids.append((gx, gy, z))
    grids.append((np.arange(3.0), np.arange(3.0), np.ones((3, 3), dtype=int)))
    haves = json.loads(page.evaluate("""(grids) => JSON.stringify(grids.map((g) =>
        front.levelPieces(g.gx, g.gy, Int8Array.from(g.z.flat()))))""",
                                     [{"gx": gx.tolist(), "gy": gy.tolist(), "z": z.tolist()} for gx, gy, z in grids]))
    for j, ((gx, gy, z), have) in enumerate(zip(grids, haves, strict=True)):
        want = [p.tolist() for p in canonical_pieces(contour_generator(gx, gy, z.astype(float)).lines(0.0))]
        assert have == want, f"grid {j}"


def test_the_lessons_editor_with_no_kernel_shows_the_three_answers_of_its_own_points(page):
    X0 = np.array([[1.0, 1.0], [1.5, -0.5], [-1.0, -1.0], [-0.5, 1.5], [0.5, 0.25], [-1.5, 0.5]])
    y0 = np.array([1.0, 1.0, -1.0, -1.0, -1.0, 1.0])
    fit = AnswersFit(epochs=10)
    start = fit(X0, y0)
    editor = BrowserEditor(start, X0, y0, fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout, max_epochs=10)
    state = editor.get_state()
    assert state["options"]["fit"] == {"kind": "averaged", "epochs": 10}
    assert state["options"]["readout"] == "answers" and state["options"]["panels"][0]["kind"] == "answers"
    page.evaluate("(state) => window.mount(state)", wire({name: state[name] for name in
                                                         ("run", "k", "interval_ms", "points", "lesson", "settings",
                                                          "options")}))
    box = page.locator("#widget .pp-plot").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.2)
    page.wait_for_timeout(1800)  # longer than the editor waits before a kernel note
    got = json.loads(page.evaluate("""() => { const root = document.querySelector('#widget .perceptron-browsereditor');
        return JSON.stringify({run: root.dataset.run, panels: editor.spec().panels, X: editor.state().X,
            y: editor.state().y, k: editor.player().shown(),
            lines: [...root.querySelectorAll('.pp-readout p')].map((p) => p.textContent),
            note: root.querySelector('.pe-kernel-note').hidden,
            drawn: ['pp-averaged', 'pp-pocket', 'pp-vote'].map((c) => root.querySelectorAll('.' + c).length)}); }"""))
    assert got["run"] == "browser" and len(got["y"]) == 7 and got["note"] is True
    assert all(n >= 1 for n in got["drawn"]), got["drawn"]
    X, y = np.array(got["X"]), np.array(got["y"], dtype=float)
    fit2 = AnswersFit(epochs=10)
    run = fit2(X, y)
    same(got["panels"][0], AnswersPanel(fit2).front(run, X, y, style=_style.get(None)))
    k = got["k"]
    assert got["lines"] == fit2.readout(run, X, y, k) + summary_lines(summarize(X, y, run))
    assert got["lines"][1].startswith(f"Training errors of the 7 points after update {k}:")
    assert state_lines(run, X, y, k)[0] == got["lines"][0]


def test_the_browsers_vote_on_a_lattice_is_the_librarys_at_every_step(page):
    """Integer and third points and a grid of halves: many grid points lie on a state's line, exactly (integers) or
    to rounding (thirds), where the vote's labels rest on the meaning of zero; the browser's labels (`voteLabels`,
    a row at a time) are `vote_regions.vote_labels` at every step."""
    rng = np.random.default_rng(12)
    gx = np.arange(-6.0, 6.5, 0.5)
    gy = np.arange(-5.0, 5.5, 0.5)
    mx, my = np.meshgrid(gx, gy)
    grid = np.c_[mx.ravel(), my.ravel()]
    cases, wants, exact_zeros = [], [], 0
    for j in range(24):
        n = int(rng.integers(3, 14))
        X = rng.integers(-3, 4, size=(n, 2)) / (3.0 if j % 2 else 1.0)
        y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        fit, run = _fitted(X, y, epochs=int(rng.integers(1, 6)), update_on=RULES[j % 3], order="cyclic", rng=0,
                           fit_bias=j % 4 != 3)
        wants.append(vote_labels(fit.latest[0], grid).tolist())
        h = run.history
        exact_zeros += int(np.sum(h.w @ grid.T + h.b[:, None] == 0))
        cases.append({"w": h.w.tolist(), "b": h.b.tolist(), "t": fit.latest[0].t.tolist()})
    haves = json.loads(page.evaluate("""([cases, gx, gy]) => JSON.stringify(cases.map((c) => {
        const labels = front.voteLabels({w: c.w, b: c.b}, c.t, front.gridOf(gx, gy));
        const order = [...c.w.keys()].reverse();  // backwards first: from the checkpoints, then forwards
        const out = [];
        for (const k of order) out[k] = [...labels(k)];
        return out; }))""", [cases, gx.tolist(), gy.tolist()]))
    for j, (have, want) in enumerate(zip(haves, wants, strict=True)):
        assert have == want, f"set {j}"
    assert exact_zeros > 100, exact_zeros  # scores of exactly 0 on the grid were met
