"""An edit of the student's points to the new run painted, in the browser with no kernel (`BrowserEditor`).

Issue #30 item 7: an edit of 200 points to the new run painted at most 16 ms (median) idle, 33 ms with both cores
busy. In headless Chromium, a blank local page (no network) loads the editor's front end (`BrowserEditor._esm`)
and mounts it with a stand-in for anywidget's model filled from the real widget's traits, as
``tests/test_browser_editor_front.py`` does: there is no kernel, so every picture is the browser's own fit.

Each edit is made and timed inside the page: a click on an empty spot of the plot, dispatched as the pointer
events a click makes (``pointerdown``, ``pointerup``) with ``performance.now()`` before them; the handler checks
the edit, fits the 201 points (`fitPerceptron`), makes the run's spec and draws the new player; then the next
``requestAnimationFrame`` (the frame that paints it is being made) and the one after it (painted). An Undo puts
the 200 points back (timed too), so every click is the same edit. Sets: 200 separable points with a margin of
0.05 (lesson-like: the run converges in a few epochs) and 200 points no line separates (100 epochs of updates,
the run's end a cycle or max_epochs). Each is measured idle, then with two ``python -c "while True: pass"``
processes keeping both cores busy.

Run from the repository root: ``.venv/bin/python -m benchmarks.browser_edit [--edits 40]``.
Needs ``/usr/bin/chromium`` (never ``playwright install``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

import numpy as np

from benchmarks.browser_step import busy_cores
from benchmarks.click_phase import FRAME_MS
from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser_editor import BrowserEditor
from tests.browser_support import browser_missing_reason, launch
from tests.test_browser_editor_front import editor_page, wire

#: `n` timed clicks on an empty spot (found once, in page px), each followed by a timed Undo. Per edit: ms of the
#: handler (check, fit, spec, new player) and of the style and layout it leaves (forced), then to the next frame
#: and to the one after it (painted). The click is made just after a frame starts: 16.7 ms at the next frame means
#: the new run is in the next frame painted, no frame missed.
JS_EDITS = """async ([n, spot, delays]) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const root = document.querySelector('#widget');
  const undo = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Undo');
  const click = (target) => {
    const at = {clientX: spot[0], clientY: spot[1], bubbles: true, button: 0, pointerId: 1, isPrimary: true};
    target.dispatchEvent(new PointerEvent('pointerdown', at));
    target.dispatchEvent(new PointerEvent('pointerup', at));
  };
  const out = {script: [], layout: [], first: [], painted: [], undo: [], points: []};
  for (let j = 0; j < n; j++) {
    await frame(); await frame();
    if (delays[j] > 0) await new Promise((resolve) => setTimeout(resolve, delays[j]));  // a moment of the frame
    const target = document.elementFromPoint(spot[0], spot[1]);
    const t0 = performance.now();
    click(target);
    const t1 = performance.now();
    root.getBoundingClientRect();  // style and layout of the new picture, forced now to time them
    out.script.push(t1 - t0);
    out.layout.push(performance.now() - t1);
    out.first.push(await frame() - t0);
    out.painted.push(await frame() - t0);
    out.points.push(root.querySelectorAll('path.pp-point').length);
    await frame();
    const t2 = performance.now();
    undo.click();
    await frame();
    out.undo.push(await frame() - t2);
  }
  return out;
}"""

#: An empty spot of the editor's plot in `el` (page px): of a grid over the plot, the one furthest from every marker.
JS_SPOT = """(el) => {
  const plot = el.querySelector('.pp-axes rect').getBoundingClientRect();
  const centres = [...el.querySelectorAll('path.pp-point')].map((e) => { const r = e.getBoundingClientRect();
    return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; });
  let best = null;
  for (let fx = 0.1; fx < 0.95; fx += 0.05) for (let fy = 0.1; fy < 0.95; fy += 0.05) {
    const p = [plot.left + fx * plot.width, plot.top + fy * plot.height];
    const d = Math.min(...centres.map((c) => Math.hypot(c[0] - p[0], c[1] - p[1])));
    if (best === null || d > best[0]) best = [d, p];
  }
  return best[1];
}"""


def _sets():
    separable = data.separable(200, margin=0.05, bias=True, seed=1)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 2))
    noisy = X, np.where(X[:, 0] + 0.4 * rng.normal(size=200) > 0, 1.0, -1.0)
    return {"200 separable points": separable, "200 points, no line": noisy}


def measure(page, X, y, edits, *, phase=False):
    """Medians of `edits` timed edits; `phase`: each made a seeded random 0-16.7 ms after a frame starts (where a
    student's click lands: `click_phase`), not right at its start (the worst moment, a whole frame to the next)."""
    editor = BrowserEditor(fit_perceptron(X, y), X, y)
    state = editor.get_state()
    page.evaluate("(s) => window.mount(s)", wire({name: state[name] for name in
                                                  ("run", "points", "lesson", "settings", "options", "k",
                                                   "interval_ms")}))
    page.locator("#widget .pp-picture").scroll_into_view_if_needed()
    spot = page.evaluate(JS_SPOT, page.query_selector("#widget"))
    rng = random.Random(7)
    delays = [rng.uniform(0.0, FRAME_MS) if phase else 0.0 for _ in range(edits)]
    times = page.evaluate(JS_EDITS, [edits, spot, delays])
    assert set(times.pop("points")) == {len(y) + 1}, "a click did not add one point"
    K = page.evaluate("() => window.editor.spec().K")
    return {key: statistics.median(v) for key, v in times.items()} | {"first_max": max(times["first"]), "K": K}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=40, help="timed edits per set and load (default 40)")
    args = parser.parse_args(argv)
    missing = browser_missing_reason()
    if missing:
        print(f"skipped: {missing}")
        return 1
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        pages = editor_page(browser, title="edit benchmark", after=False)
        page = next(pages)
        print(f"An edit of the points to the new run painted, median of {args.edits} edits (ms); 16.7 at the next "
              "frame: the edit is in the first frame painted after it")
        print("| set | load, click at | updates K | handler | style + layout | to the next frame (max) | "
              "to the frame after | Undo, to the frame after |")
        print("|---|---|---|---|---|---|---|---|")
        for name, (X, y) in _sets().items():
            for load in ("idle", "both cores busy"):
                for phase in (False, True):
                    if load == "idle":
                        r = measure(page, X, y, args.edits, phase=phase)
                    else:
                        with busy_cores(2):
                            r = measure(page, X, y, args.edits, phase=phase)
                    when = "random moment" if phase else "frame start"
                    print(f"| {name} | {load}, {when} | {r['K']} | {r['script']:.1f} | {r['layout']:.1f} | "
                          f"{r['first']:.1f} ({r['first_max']:.1f}) | {r['painted']:.1f} | {r['undo']:.1f} |",
                          flush=True)
        next(pages, None)  # the page's teardown: no page error, its context closed
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
