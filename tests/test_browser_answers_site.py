"""Lesson 06's editor in the site with no kernel (issue #30 item 4), in Chromium: the four answers on a student's
points.

The lesson built as ``make site`` builds it, opened over file:// with every other request blocked. A click adds a
point; the browser fits the points itself (``front/answers_fit.js``: `fit_averaged` for 10 epochs) and draws the
three answers over its current line, the averaged line, the pocket's line and the vote's boundary, with the readout
a kernel would give: the library's words for the page's points, the four answers' training errors among them. No
note says that anything needs a kernel, and nothing is fetched. A screenshot goes to ``tests/artifacts/editor/``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_lib.core.own_data import summarize, summary_lines
from perceptron_lib.draw import style as _style
from perceptron_lib.player.panels.averaged import AnswersFit, AnswersPanel
from tests.browser_editor import ARTIFACTS, JS_SHOWN, _svg_spot
from tests.browser_support import offline_site, open_offline

pytestmark = pytest.mark.browser


def test_the_site_s_lesson_06_editor_shows_the_three_answers_with_no_kernel(chromium, tmp_path):
    page, out, remote, problems = offline_site(chromium, tmp_path, ("06_beyond_separable.ipynb",))
    assert open_offline(page, out / "06_beyond_separable.html") == "ready"
    editor = page.locator(".perceptron-browsereditor").first
    editor.locator(".pp-picture").scroll_into_view_if_needed()
    s0 = editor.evaluate(JS_SHOWN)
    assert s0["run"] == "library" and s0["count"] == 30
    page.mouse.click(*_svg_spot(s0))
    s1 = editor.evaluate(JS_SHOWN)
    assert s1["run"] == "browser" and s1["count"] == 31 and s1["message"].startswith("Added point 30")
    page.wait_for_timeout(2000)  # longer than an editor waits before it says that some panels need a kernel
    got = json.loads(editor.evaluate("""(el) => JSON.stringify({
        note: el.querySelector('.pe-kernel-note').hidden ? null : el.querySelector('.pe-kernel-note').textContent,
        drawn: ['line.pp-averaged', 'line.pp-pocket', 'path.pp-vote'].map((s) => el.querySelectorAll(s).length),
        legend: [...el.querySelectorAll('.pp-legend li')].map((li) => li.textContent.trim()),
        lines: [...el.querySelectorAll('.pp-readout p')].map((p) => p.textContent)})"""))
    assert got["note"] is None, got["note"]
    assert got["drawn"] == [1, 1, 1], got["drawn"]
    assert {"averaged line", "pocket line", "vote"} <= set(got["legend"]), got["legend"]
    assert not any("kernel" in line for line in got["lines"])
    # the points on the page: the lesson's 30 as the page stores them (Copy would round them to the snap) and the
    # one added, which a click puts on the snap (so Copy gives it exactly); the library's fit of them says what the
    # page says
    lesson = json.loads(page.evaluate("""() => {
        const tag = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
        const models = Object.values(JSON.parse(tag.textContent).state).map((m) => m.state);
        return JSON.stringify(models.find((m) => m.options && m.options.fit && m.lesson).lesson); }"""))
    editor.locator("details.pe-more summary").first.click()
    editor.get_by_role("button", name="Copy points").click()
    pasted = {}
    exec(editor.locator("textarea").input_value(), pasted)
    X = np.array([*lesson[0], pasted["X"][-1]], dtype=float)
    y = np.array([*lesson[1], pasted["y"][-1]], dtype=float)
    fit = AnswersFit(epochs=10)
    run = fit(X, y)
    K = len(run.history) - 1
    assert got["lines"] == fit.readout(run, X, y, K) + summary_lines(summarize(X, y, run))
    assert got["lines"][1].startswith(f"Training errors of the 31 points after update {K}: current line ")
    assert editor.evaluate("(el) => el.dataset.run") == "browser"  # still the browser's run: no kernel came
    want = AnswersPanel(fit).front(run, X, y, style=_style.get("notebook"))
    pocket = want["lines"][1]
    drawn = json.loads(editor.evaluate("""(el) => JSON.stringify([...el.querySelectorAll('line.pp-pocket')]
        .map((l) => l.getAttribute('stroke')))"""))
    assert drawn == [pocket["color"]] and len(want["paths"][0]["pieces"][K]) >= 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    editor.screenshot(path=str(ARTIFACTS / "site-06-answers.png"))
    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems)
