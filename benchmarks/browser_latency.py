"""Click-to-picture latency of the step-through player in JupyterLab, against a bare label update.

In headless Chromium, with JupyterLab serving a copy of the notebooks:

(a) the main player (the first ``.perceptron-stepthrough``) of ``notebooks/03_hyperplane_updates.ipynb``
    (or ``--notebook``; without 03, the first notebook that has a player): click Step, until the
    ``<img>`` shows the new frame (src changed, image decoded, next animation frame);
(b) a bare ``ipywidgets`` Button + Label in a scratch notebook on the same server: click, until
    the label's text changed (next animation frame).

Each click is made and timed inside the page (``performance.now()``, a MutationObserver), so the
numbers are the page's, not playwright's round trips. Prints the medians and their ratio.

Run from the repository root:
``.venv/bin/python -m benchmarks.browser_latency [--clicks 20] [--notebook notebooks/NN_x.ipynb]``
Needs ``/usr/bin/chromium`` (``apt-get install chromium``; never ``playwright install``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.browser_support import browser_missing_reason, jupyter_server, launch, wait_kernel_settled
from tools import course_export

REPO = Path(__file__).resolve().parents[1]

LABEL_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": (
                "import ipywidgets as widgets\n\n"
                "button = widgets.Button(description='bump')\n"
                "label = widgets.Label('0')\n\n\n"
                "def bump(_):\n"
                "    label.value = str(int(label.value) + 1)\n\n\n"
                "button.on_click(bump)\n"
                "box = widgets.HBox([button, label])\n"
                "box.add_class('bench-label')\n"
                "box"
            ),
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}

JS_ALL_RAN = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const prompts = [...w.content.node.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
  return prompts.length > 0 && prompts.every((p) => /^\\[\\d+\\]/.test(p.textContent.trim()))
         && w.sessionContext.session.kernel.status === 'idle';
}"""

# One click on the player's Step button (Reset first, untimed, when at the end). Resolves with
# {dom: ms to the new src, paint: ms to the decoded image's next frame}.
JS_CLICK_PLAYER = """async (el) => {
  const buttons = [...el.querySelectorAll('button.widget-button')];
  const byName = (n) => buttons.find((b) => b.textContent.trim() === n);
  const img = el.querySelector(':scope > img.widget-image') || el.querySelector('img.widget-image');
  const srcChange = (before) => new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (img.src !== before) { obs.disconnect(); resolve(performance.now()); }
    });
    obs.observe(img, {attributes: true, attributeFilter: ['src']});
  });
  if (byName('Step').disabled) {
    const p = srcChange(img.src); byName('Reset').click(); await p;
    await new Promise((r) => setTimeout(r, 200));
  }
  const changed = srcChange(img.src);
  const t0 = performance.now();
  byName('Step').click();
  const tDom = await changed;
  try { await img.decode(); } catch (e) {}
  const tPaint = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  return {dom: tDom - t0, paint: tPaint - t0};
}"""

JS_CLICK_LABEL = """async (el) => {
  const button = el.querySelector('button.widget-button');
  const label = el.querySelector('.widget-label');
  const before = label.textContent;
  const changed = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (label.textContent !== before) { obs.disconnect(); resolve(performance.now()); }
    });
    obs.observe(label, {childList: true, characterData: true, subtree: true});
  });
  const t0 = performance.now();
  button.click();
  const tDom = await changed;
  const tPaint = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  return {dom: tDom - t0, paint: tPaint - t0};
}"""


def pick_notebook(arg: str | None) -> str:
    if arg:
        return Path(arg).resolve().relative_to(REPO).as_posix()
    main = REPO / "notebooks" / "03_hyperplane_updates.ipynb"
    if main.is_file():
        return "notebooks/03_hyperplane_updates.ipynb"
    for nb in course_export.lessons(REPO / "notebooks"):
        if "StepThrough(" in nb.read_text(encoding="utf-8"):
            return nb.relative_to(REPO).as_posix()
    raise SystemExit("no notebook with a StepThrough player found; pass --notebook")


def open_and_run(page, server, nb: str, selector: str) -> None:
    page.goto(server.lab_url(nb))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    wait_kernel_settled(page, nb)
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(JS_ALL_RAN, timeout=180_000, polling=100)
    page.wait_for_selector(selector, timeout=30_000)
    wait_kernel_settled(page, nb)  # the last widget messages of the run are in before the first click


def measure(page, nb: str, locator, js: str, clicks: int, warmup: int = 2) -> list[dict]:
    locator.scroll_into_view_if_needed()
    handle = locator.element_handle()
    out = []
    for i in range(warmup + clicks):
        r = page.evaluate(js, handle)
        if i >= warmup:
            out.append(r)
        # the click's other messages (the readout, ...) are in before the next click is timed
        wait_kernel_settled(page, nb, quiet_ms=100)
    return out


def summary(rs: list[dict], key: str) -> dict:
    v = sorted(r[key] for r in rs)
    return {"median": statistics.median(v), "min": v[0], "p90": v[int(0.9 * (len(v) - 1))]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--notebook", help="notebook with a player (default: notebooks/03_hyperplane_updates.ipynb)")
    ap.add_argument("--clicks", type=int, default=20, help="timed clicks of each kind (default 20, at least 15)")
    ap.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = ap.parse_args()
    reason = browser_missing_reason()
    if reason:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    nb = pick_notebook(args.notebook)
    clicks = max(15, args.clicks)
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        root = Path(tmp)
        shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        (root / "notebooks" / "zz_bench_label.ipynb").write_text(json.dumps(LABEL_NOTEBOOK))
        t0 = time.monotonic()
        with jupyter_server(root) as server, sync_playwright() as pw:
            browser = launch(pw)
            context = browser.new_context(viewport={"width": 1280, "height": 1000})
            page = context.new_page()
            open_and_run(page, server, nb, ".perceptron-stepthrough img.widget-image")
            player = measure(page, nb, page.locator(".perceptron-stepthrough").first, JS_CLICK_PLAYER, clicks)
            page.close()
            server.shutdown_kernels()
            page = context.new_page()
            open_and_run(page, server, "notebooks/zz_bench_label.ipynb", ".bench-label .widget-label")
            label = measure(page, "notebooks/zz_bench_label.ipynb", page.locator(".bench-label").first, JS_CLICK_LABEL,
                            clicks)
            page.close()
            server.shutdown_kernels()
            browser.close()
        wall = time.monotonic() - t0

    p, lab = summary(player, "paint"), summary(label, "paint")
    pd, ld = summary(player, "dom"), summary(label, "dom")
    print(f"Click -> changed picture in Chromium, median of {clicks} clicks each ({wall:.0f} s in all):")
    print(f"  player Step ({nb}): {p['median']:6.1f} ms  (to new src {pd['median']:.1f} ms; "
          f"min {p['min']:.1f}, p90 {p['p90']:.1f})")  # fmt: skip
    print(f"  bare Label update:  {lab['median']:6.1f} ms  (to new text {ld['median']:.1f} ms; "
          f"min {lab['min']:.1f}, p90 {lab['p90']:.1f})")  # fmt: skip
    print(f"  ratio player / label: {p['median'] / lab['median']:.2f}")
    if args.json:
        print(json.dumps({"notebook": nb, "clicks": clicks, "player": player, "label": label}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
