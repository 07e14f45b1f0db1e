"""Lesson 04's claims panel computed in the browser (``front/claims.js``) against `ClaimsPanel.front`, in Chromium.

An editor with no kernel fits the student's points itself and must draw the claims panel a kernel would send: the
same chart spec, key for key, numbers within 1e-9 of their size, words letter for letter. Random sets of every kind
the editor meets (separable through the origin and with an offset, not separable, one class, no points), every
view (claims, claim1, claim2, chain, an axis to the bound or to a number), both presets; then the editor itself,
mounted with `ClaimsPanel` and driven by a click with no kernel, draws the panel of its own run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import style as _style
from perceptron_lib.player.browser import _style_trait
from perceptron_lib.player.browser_editor import BrowserEditor
from perceptron_lib.player.panels.claims import ClaimsPanel
from tests.test_browser_editor_front import editor_page, wire

pytestmark = pytest.mark.browser

TOL = 1e-9


@pytest.fixture(scope="module")
def page(chromium):
    yield from editor_page(chromium, title="claims in the browser", after=False)


def same(have, want, where="spec") -> None:
    """`have` equals `want`: the same keys and strings, numbers within TOL of their size."""
    if isinstance(want, dict):
        assert isinstance(have, dict), f"{where}: {have!r} is not a dict"
        assert sorted(have) == sorted(want), f"{where}: keys {sorted(have)} != {sorted(want)}"
        for key in want:
            same(have[key], want[key], f"{where}.{key}")
    elif isinstance(want, (list, tuple)):
        assert isinstance(have, list) and len(have) == len(want), f"{where}: length {len(have)} != {len(want)}"
        for j, (a, b) in enumerate(zip(have, want, strict=True)):
            same(a, b, f"{where}[{j}]")
    elif isinstance(want, bool) or want is None or isinstance(want, str):
        assert have == want, f"{where}: {have!r} != {want!r}"
    else:
        assert isinstance(have, (int, float)) and not isinstance(have, bool), f"{where}: {have!r} is not a number"
        assert abs(have - want) <= TOL * (1 + max(abs(have), abs(want))), f"{where}: {have!r} != {want!r}"


def _sets(rng, n_sets):
    """(X, y, fit_bias) of every kind: separable through 0 / with an offset, noisy, one class, integers."""
    out = []
    for j in range(n_sets):
        kind = j % 6
        n = int(rng.integers(2, 40))
        if kind == 0:  # separable through the origin, with a margin
            X, y = data.separable(n, margin=float(rng.uniform(0.05, 0.4)), seed=int(rng.integers(1 << 30)))
            out.append((X, y, False))
        elif kind == 1:  # separable with an offset, moved off the origin
            X, y = data.separable(n, margin=float(rng.uniform(0.05, 0.4)), seed=int(rng.integers(1 << 30)))
            out.append((X + rng.normal(size=2) * 2, y, True))
        elif kind == 2:  # noise: usually not separable
            X = rng.normal(size=(n, 2))
            out.append((X, np.where(rng.random(n) < 0.5, 1.0, -1.0), bool(rng.integers(2))))
        elif kind == 3:  # small integers, few points (ties of the separator)
            m = int(rng.integers(2, 7))
            X = rng.integers(-4, 5, size=(m, 2)).astype(float)
            X[np.all(X == 0, axis=1)] = [1.0, 2.0]
            out.append((X, np.sign(X @ rng.normal(size=2) + 1e-3), bool(rng.integers(2))))
        elif kind == 4:  # one class
            X = rng.normal(size=(n, 2))
            out.append((X, np.ones(n), bool(rng.integers(2))))
        else:  # a student's four points, rounded to the snap
            X = np.round(rng.uniform(-2, 2, size=(4, 2)) * 8) / 8
            out.append((X, np.array([1.0, 1.0, -1.0, -1.0]), False))
    return out


def _claims_in_browser(page, cases):
    return json.loads(page.evaluate("""(cases) => JSON.stringify(cases.map((c) =>
        front.claimsSpec({history: {w: c.w, b: c.b}, settings: {eta: c.eta, fitBias: c.fit_bias}}, c.X, c.y,
                         c.recipe, c.style)))""", cases))


def test_the_browsers_claims_are_claims_panel_front_on_random_sets(page):
    rng = np.random.default_rng(404)
    cases, wants = [], []
    shows = [("claims", None), ("claim1", None), ("claim2", None), ("chain", None), ("claims", "bound"),
             ("claims", 12.5)]
    for j, (X, y, fit_bias) in enumerate(_sets(rng, 150)):
        eta = float(rng.choice([1.0, 0.5, 0.1, 3.0]))
        run = fit_perceptron(X, y, fit_bias=fit_bias, eta=eta, max_epochs=int(rng.integers(1, 30)))
        show, xmax = shows[j % len(shows)]
        panel = ClaimsPanel(show=show, xmax=xmax, title="fixed" if j % 17 == 0 else None)
        s = _style.get("lecture" if j % 3 == 0 else "notebook")
        wants.append(panel.front(run, X, y, style=s))
        cases.append({"w": run.history.w.tolist(), "b": run.history.b.tolist(), "eta": eta, "fit_bias": fit_bias,
                      "X": X.tolist(), "y": y.tolist(), "recipe": panel.browser(), "style": _style_trait(s)})
    haves = _claims_in_browser(page, cases)
    kinds = {"message": 0, "chart": 0}
    for j, (have, want) in enumerate(zip(haves, wants, strict=True)):
        same(have, want, f"set {j}")
        kinds["message" if "message" in want else "chart"] += 1
    assert kinds["message"] >= 30 and kinds["chart"] >= 60, kinds  # both cases met often


def test_a_given_separator_is_for_the_kernel_only():
    assert ClaimsPanel([1.0, 0.0]).browser() is None
    assert ClaimsPanel().browser()["kind"] == "claims"


def test_the_editor_with_no_kernel_draws_the_claims_of_its_own_run(page):
    X4 = np.array([[1.0, 1.0], [1.5, -0.5], [-1.0, -1.0], [-0.5, 1.5]])
    y4 = np.array([1.0, 1.0, -1.0, -1.0])
    editor = BrowserEditor(fit_perceptron(X4, y4, fit_bias=False), X4, y4, panels=[ClaimsPanel()])
    state = editor.get_state()
    page.evaluate("(state) => window.mount(state)", wire({name: state[name] for name in
                                                         ("run", "k", "interval_ms", "points", "lesson", "settings",
                                                          "options")}))
    assert page.evaluate("document.querySelectorAll('#widget .pp-chart').length") == 1
    # an edit with no kernel: the browser's run, with its claims panel, at once
    box = page.locator("#widget .pp-plot").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.15)
    got = json.loads(page.evaluate("""() => JSON.stringify({
        run: document.querySelector('#widget .perceptron-browsereditor').dataset.run,
        panels: editor.spec().panels, X: editor.state().X, y: editor.state().y,
        charts: document.querySelectorAll('#widget .pp-chart').length})"""))
    assert got["run"] == "browser" and got["charts"] == 1 and len(got["y"]) == 5
    X, y = np.array(got["X"]), np.array(got["y"], dtype=float)
    run = fit_perceptron(X, y, fit_bias=False)
    same(got["panels"][0], ClaimsPanel().front(run, X, y, style=_style.get(None)))
