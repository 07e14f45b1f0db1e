"""Lesson 05's editors of lifted points in the site with no kernel (issue #30 item 4), in Chromium.

Lesson 05 built as ``make site`` builds it, opened over file:// with every other request blocked: a click on the
'Your own data' editor adds a point, and the browser's own run on the lifted points is drawn with its circle and
its lifted view (no note that a kernel is needed: the browser computes the view itself); the readout is the
library's words for `fit_perceptron` on the lift of the page's points (the lesson's and the one placed), and the
lifted view's sentence is `LiftedPanel.front`'s. Nothing is fetched. A screenshot goes to ``tests/artifacts/editor/``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_lib.core import data, kernels
from perceptron_lib.core.own_data import summarize, summary_lines
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import style as _style
from perceptron_lib.player import LiftedPanel
from perceptron_lib.player.readout import state_lines
from tests.browser_editor import ARTIFACTS, JS_SHOWN, _svg_spot
from tests.browser_support import offline_site, open_offline

pytestmark = pytest.mark.browser


def test_lesson_05_s_editor_takes_points_and_draws_the_lifted_view_with_no_kernel(chromium, tmp_path):
    page, out, remote, problems = offline_site(chromium, tmp_path, ("05_kernel_lifting.ipynb",))
    assert open_offline(page, out / "05_kernel_lifting.html") == "ready"
    editors = page.locator(".perceptron-browsereditor")
    assert editors.count() == 2
    editor = editors.nth(1)  # 'Your own data'
    editor.locator(".pp-picture").scroll_into_view_if_needed()
    s0 = editor.evaluate(JS_SHOWN)
    assert s0["run"] == "library" and s0["count"] == 60 and editor.locator(".pl-box").count() == 1
    page.mouse.click(*_svg_spot(s0))
    s1 = editor.evaluate(JS_SHOWN)
    assert s1["run"] == "browser" and s1["count"] == 61 and s1["message"].startswith("Added point 60")
    got = json.loads(editor.evaluate("""(el) => JSON.stringify({lines: [...el.querySelectorAll('.pp-readout p')]
        .map((p) => p.textContent), views: el.querySelectorAll('.pl-box').length,
        view: (el.querySelector('[aria-label^="The 61 lifted points"]') || {}).ariaLabel || null})"""))
    assert got["views"] == 1 and got["view"] is not None, "the lifted view is missing from the browser's run"
    editor.locator("details.pe-more summary").first.click()
    editor.get_by_role("button", name="Copy points").click()
    pasted = {}
    exec(editor.locator("textarea").input_value(), pasted)  # the points as Copy gives them (rounded to the snap)
    assert np.array(pasted["X"]).shape == (61, 2)
    # the page's points: the lesson's (Copy rounds them to the view's grid) and the one placed (on the grid)
    X0, y0 = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    X, y = np.vstack([X0, pasted["X"][-1]]), np.append(y0, pasted["y"][-1]).astype(float)
    Z = kernels.lift(X)
    run = fit_perceptron(Z, y, max_epochs=100)
    K = len(run.history) - 1
    assert got["lines"] == state_lines(run, Z, y, K) + summary_lines(summarize(Z, y, run),
                                                                      separator="plane of the lift")
    spec = LiftedPanel().front(run, Z, y, style=_style.get("notebook"))
    assert got["view"].startswith(spec["alt"][K])
    page.wait_for_timeout(2000)  # past the editor's wait for Python's run: no kernel note, the view is the browser's
    assert editor.locator(".pe-kernel-note").is_hidden()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    editor.screenshot(path=str(ARTIFACTS / "site-05-editor.png"))
    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems)
