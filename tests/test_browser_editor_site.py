"""Lesson 04's editors in the site with no kernel (issue #30 item 4), in Chromium.

The lesson built as ``make site`` builds it, opened over file:// with every other request blocked: in 04 a
click on the claims editor adds a point and the browser's own run is drawn with its claims panel, the same chart
title `ClaimsPanel.front` gives for `fit_perceptron` on the page's points, and the readout is the library's words
for that run (the spec itself is held equal to `ClaimsPanel.front` in tests/test_browser_editor_claims.py). Nothing
is fetched (lesson 06's editor: tests/test_browser_answers_site.py). Screenshots go to ``tests/artifacts/editor/``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_lib.core.own_data import summarize, summary_lines
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import style as _style
from perceptron_lib.player.panels.claims import ClaimsPanel
from perceptron_lib.player.readout import state_lines
from tests.browser_editor import ARTIFACTS, JS_SHOWN, _svg_spot
from tests.browser_support import offline_site, open_offline

pytestmark = pytest.mark.browser


@pytest.mark.browser
def test_the_site_s_editors_take_points_with_no_kernel(chromium, tmp_path):
    page, out, remote, problems = offline_site(
        chromium, tmp_path, ("04_margin_bound.ipynb",))
    assert open_offline(page, out / "04_margin_bound.html") == "ready"
    editors = page.locator(".perceptron-browsereditor")
    assert editors.count() == 2
    editor = editors.nth(1)  # 'Your own data': four points
    editor.locator(".pp-picture").scroll_into_view_if_needed()
    s0 = editor.evaluate(JS_SHOWN)
    assert s0["run"] == "library" and s0["count"] == 4  # the saved state: the library's run
    page.mouse.click(*_svg_spot(s0))
    s1 = editor.evaluate(JS_SHOWN)
    assert s1["run"] == "browser" and s1["count"] == 5 and s1["message"].startswith("Added point 4")
    got = json.loads(editor.evaluate("""(el) => { const c = el.querySelector('.pp-chart-claims');
        return JSON.stringify({title: c ? c.textContent : null, lines: [...el.querySelectorAll('.pp-readout p')]
                               .map((p) => p.textContent)}); }"""))
    assert got["title"] is not None, "the claims panel is missing from the browser's run"
    # the points on the page, as Copy gives them: fitted here, their words and claims are the page's
    editor.locator("details.pe-more summary").first.click()
    editor.get_by_role("button", name="Copy points").click()
    pasted = {}
    exec(editor.locator("textarea").input_value(), pasted)  # the points as Copy gives them (rounded to the snap)
    X, y = np.array(pasted["X"], dtype=float), np.array(pasted["y"], dtype=float)
    run = fit_perceptron(X, y, fit_bias=False, max_epochs=100)
    K = len(run.history) - 1
    want = state_lines(run, X, y, K) + summary_lines(summarize(X, y, run))
    assert got["lines"] == want
    claims = ClaimsPanel().front(run, X, y, style=_style.get("notebook"))
    assert claims["titles"][K] in got["title"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    editor.screenshot(path=str(ARTIFACTS / "site-04-editor.png"))

    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems)
