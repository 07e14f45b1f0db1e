"""Lesson 04's editor in Chromium: the claims chart's title writes the bound as the readout beside it does.

The title ("t = ... mistakes, bound (R/γ)² = ...") and the editor's readout ("Bound (R/γ)² = ...") show one number;
they must write it one way (`own_data.num`: 3 significant digits, a whole number bare), whether the kernel sent the
chart (`ClaimsPanel.front`) or the browser made it for a run of its own after an edit (``front/claims.js``).
Both are read from the page as the student sees them.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser_editor import BrowserEditor
from perceptron_lib.player.panels.claims import ClaimsPanel
from tests.test_browser_editor_front import editor_page, wire

pytestmark = pytest.mark.browser

BOUND = re.compile(r"\(R/γ\)² = (\d+(?:\.\d+)?)")

JS_SHOWN = """() => ({
  title: [...document.querySelectorAll('#widget svg.pp-chart-claims text tspan')].map((t) => t.textContent)
    .join(' '),
  readout: [...document.querySelectorAll('#widget .pp-readout p')].map((p) => p.textContent).join('\\n'),
  run: document.querySelector('#widget .perceptron-browsereditor').dataset.run,
})"""


@pytest.fixture(scope="module")
def page(chromium):
    yield from editor_page(chromium, title="claims title and readout", after=False)


def _bounds(page) -> tuple:
    shown = page.evaluate(JS_SHOWN)
    title, readout = BOUND.findall(shown["title"]), BOUND.findall(shown["readout"])
    assert len(title) == 1 and len(readout) == 1, shown
    return title[0], readout[0], shown["run"]


def _lesson_sets():
    X, y = data.separable(40, margin=0.15, seed=0)  # the lesson's data: bound 44.04
    X4 = np.array([[1.0, 1.0], [1.5, -0.5], [-1.0, -1.0], [-0.5, 1.5]])  # "your own points": bound 4.0625
    return [(X, y), (X4, np.array([1.0, 1.0, -1.0, -1.0]))]


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
@pytest.mark.parametrize("which", [0, 1])
def test_the_claims_title_writes_the_bound_as_the_readout_does(page, which, preset):
    X, y = _lesson_sets()[which]
    editor = BrowserEditor(fit_perceptron(X, y, fit_bias=False), X, y, panels=[ClaimsPanel()], style=preset)
    state = editor.get_state()
    page.evaluate("(state) => window.mount(state)", wire({name: state[name] for name in
                                                         ("run", "k", "interval_ms", "points", "lesson", "settings",
                                                          "options")}))
    title, readout, run = _bounds(page)
    assert run != "browser"  # the kernel's chart (`ClaimsPanel.front`)
    assert title == readout, (title, readout)
    assert title == {0: "44", 1: "4.06"}[which]  # not "44.0" and "4.1"
    # an edit with no kernel: the browser's run, its chart made by claims.js, its readout by words.js. A click (a
    # point of class +1) half-way between the two +1 points farthest apart keeps the points separable
    pos = page.evaluate("""() => [...document.querySelectorAll('#widget .pp-point.pp-pos')].map((e) => {
      const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })""")
    far = max(((a, b) for a in pos for b in pos), key=lambda ab: np.hypot(*np.subtract(*ab)))
    page.mouse.click(*np.mean(far, axis=0))
    title, readout, run = _bounds(page)
    assert run == "browser"
    assert title == readout, (title, readout)
