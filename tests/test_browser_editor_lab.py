"""Lesson 00's drawing board (`BrowserEditor`) in JupyterLab, with its kernel, in headless Chromium.

Opened through the session's server (`course_lab_server`, the notebook preset), Run All, then as a student: a real
click on an empty spot of the picture draws the new run at once (the browser's fit: the editor's ``data-run`` is
"browser"), then the library's run arrives and is drawn (``data-run`` "library"), and the kernel holds the page's
step and words (``k``, ``lines()``, whose summary counts the points). The time from the click to the library's run
drawn is printed, median of 5 clicks (issue #30 item 7 asks at most 100 ms; measured here, not asserted). Undo goes
back the same way, and the keyboard cursor adds a point with no mouse. The notebook file is left as it was.
"""

from __future__ import annotations

import hashlib
import json
import statistics

import pytest

from tests import browser_checks as bc
from tests.browser_support import (  # noqa: F401 (course_lab_server: a fixture, used by name)
    course_lab_server,
    kernel_name,
)

pytestmark = pytest.mark.browser

NB = "notebooks/00_start_here.ipynb"
EDITOR = ".perceptron-browsereditor"

# What the page shows: the points (from the markers' centres, in page px), the plot's box, the words, whose run.
JS_SHOWN = """(el) => {
  const centre = (e) => { const r = e.getBoundingClientRect();
                          return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
  const plot = el.querySelector('.pp-axes rect').getBoundingClientRect();
  return {points: [...el.querySelectorAll('path.pp-point')].map(centre),
          plot: [plot.left, plot.top, plot.right, plot.bottom], run: el.dataset.run,
          lines: [...el.querySelectorAll('.pp-readout p')].map((p) => p.textContent),
          message: el.querySelector('.pe-message').textContent,
          k: Number(el.querySelector('.pp-controls input[type=number]').value)};
}"""

# Times an edit: from the release reaching the page (the edit is made on it) to the browser's run of n
# points in the page, and to the library's (both when the page's DOM holds them: a MutationObserver). Read from
# window.__timed.
JS_TIMER = """([el, n]) => {
  const t = window.__timed = {t0: null, browser: null, library: null};
  window.addEventListener('pointerup', () => { t.t0 = performance.now(); }, {capture: true, once: true});
  const observer = new MutationObserver(() => {
    if (t.t0 === null || el.querySelectorAll('path.pp-point').length !== n) return;
    if (t.browser === null && el.dataset.run === 'browser') t.browser = performance.now() - t.t0;
    if (el.dataset.run === 'library') { t.library = performance.now() - t.t0; observer.disconnect(); }
  });
  observer.observe(el, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-run']});
}"""


def _empty_spot(shown) -> tuple:
    """A spot in the plot at least 25 px from every marker."""
    x0, y0, x1, y1 = shown["plot"]
    for fy in (0.3, 0.7, 0.5, 0.2, 0.8):
        for fx in (0.7, 0.3, 0.5, 0.2, 0.8):
            x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
            if all((x - px) ** 2 + (y - py) ** 2 > 25**2 for px, py in shown["points"]):
                return x, y
    raise AssertionError("no empty spot in the plot")


def _kernel_editor(page, editor) -> dict:
    """What the kernel's editor of this cell holds: its k and its words at k (`browser_checks.JS_KERNEL_SAYS`)."""
    ids = editor.evaluate(bc.JS_MODEL_IDS)
    said = [p for p in json.loads(page.evaluate(bc.JS_KERNEL_SAYS).strip().splitlines()[-1]) if p["model"] in ids]
    assert len(said) == 1, f"the kernel has {len(said)} editors for this cell"
    return said[0]


def test_lesson_00s_drawing_board_edits_in_the_browser_and_the_kernel_follows(request):
    lab = request.getfixturevalue("course_lab_server")  # here: a missing browser is a skip or a failure
    chromium = request.getfixturevalue("chromium")
    path = lab.root_dir / NB
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        bc.open_and_run(page, lab, NB, {}, kernel=kernel_name("notebook"))
        editor = page.locator(EDITOR).first
        editor.wait_for(timeout=60_000)
        editor.locator(".pp-picture").scroll_into_view_if_needed()
        s0 = editor.evaluate(JS_SHOWN)
        assert s0["run"] == "library" and len(s0["points"]) == 10
        assert s0["lines"] == _kernel_editor(page, editor)["lines"]
        times = []
        for j in range(5):  # a click, timed; Undo between two (the same edit each time)
            if j:
                editor.locator("button", has_text="Undo").click()
                page.wait_for_function(f"(el) => ({JS_SHOWN})(el).points.length === 10 && el.dataset.run === "
                                       "'library'", arg=editor.element_handle(), timeout=10_000)
            page.evaluate(JS_TIMER, [editor.element_handle(), 11])
            page.mouse.click(*_empty_spot(editor.evaluate(JS_SHOWN)))  # read again: the page may have scrolled
            page.wait_for_function("() => window.__timed.library !== null", timeout=10_000)
            timed = page.evaluate("() => window.__timed")
            times.append((timed["browser"], timed["library"]))
        to_browser, to_library = (statistics.median(t) for t in zip(*times, strict=True))
        s1 = editor.evaluate(JS_SHOWN)
        assert s1["message"].startswith("Added point 10 at") and s1["run"] == "library"
        kernel = _kernel_editor(page, editor)
        assert kernel["k"] == s1["k"] and kernel["lines"] == s1["lines"]
        assert "Your data: 11 points (6 of class +1, 5 of class −1)." in kernel["lines"]
        print(f"lesson 00 editor in JupyterLab, median of 5 clicks: the release to the browser's run in the page "
              f"{to_browser:.1f} ms, to the library's {to_library:.1f} ms; all {times}")
        editor.locator("button", has_text="Undo").click()
        page.wait_for_function(f"(el) => ({JS_SHOWN})(el).points.length === 10 && el.dataset.run === 'library'",
                               arg=editor.element_handle(), timeout=10_000)
        assert editor.evaluate(JS_SHOWN)["lines"] == s0["lines"]
        # the keyboard alone: the cursor, an arrow, Enter; the kernel follows
        editor.locator("button", has_text="Keyboard cursor").focus()
        page.keyboard.press("Space")
        editor.locator(".pp-picture").focus()
        for key in ("ArrowUp", "ArrowUp", "ArrowRight", "Enter"):
            page.keyboard.press(key)
        page.wait_for_function(f"(el) => ({JS_SHOWN})(el).points.length === 11 && el.dataset.run === 'library'",
                               arg=editor.element_handle(), timeout=10_000)
        shown = editor.evaluate(JS_SHOWN)
        assert shown["message"].startswith("Added point 10") or shown["message"].startswith("Not done")
        assert _kernel_editor(page, editor)["lines"] == shown["lines"]
        # the notebook's one-key shortcuts (command mode: b adds a cell, d d deletes one) stay off while the picture
        # has the focus: they once deleted the editor's own cell
        cells = "() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell').length"
        n_cells = page.evaluate(cells)
        editor.locator(".pp-picture").focus()
        assert page.evaluate("() => !!document.querySelector('.jp-Notebook.jp-mod-commandMode')"), "not command mode"
        for keys in (("b", "a"), ("d", "d"), ("x",)):  # each would change the count in command mode
            for key in keys:
                page.keyboard.press(key)
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            assert page.evaluate(cells) == n_cells, f"the notebook's shortcut {' '.join(keys)} acted on the picture"
        assert editor.evaluate("(el) => el.isConnected") and editor.evaluate(JS_SHOWN)["points"] == shown["points"]
        assert not errors, errors
    finally:
        context.close()
        lab.shutdown_kernels()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, "the browser run modified the notebook file"
