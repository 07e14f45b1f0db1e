"""Step click to painted frame of the browser's player (`BrowserPlayer`), idle and with both cores busy.

In headless Chromium, a blank local page (no network) loads the widget's front end (`BrowserPlayer._esm`)
and renders it with a stand-in for anywidget's model, filled from the real widget's traits, as
``tests/test_browser_player_front.py`` does. Each Step click is made and timed inside the page:
``performance.now()`` before ``click()``, then the next ``requestAnimationFrame`` (the frame that paints the
new SVG is being made) and the one after it (that frame has been painted). Runs: lesson 03's forty points,
and 200 points with a thin margin (more updates, more crosses per frame). Each is measured idle, then with
two ``python -c "while True: pass"`` processes keeping both cores busy for the duration. The model's
messages are counted too (`save_changes` calls, and those that carry anything but ``k``).

Run from the repository root: ``.venv/bin/python -m benchmarks.browser_step [--clicks 50]``.
Needs ``/usr/bin/chromium`` (never ``playwright install``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from contextlib import contextmanager, nullcontext

from benchmarks.click_phase import describe_forced, event_words, p95, random_phase_clicks, summary, traced_clicks
from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser import BrowserPlayer
from tests.browser_support import browser_missing_reason, launch
from tests.test_browser_player_front import FAKE_MODEL

#: Click Step `n` times (back to 0 at the end of the run, untimed); per click, ms to the next frame and to the one
#: after it.
JS_CLICKS = """async (n) => {
  const step = [...document.querySelectorAll('#widget button')].find((b) => b.textContent === 'Step');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const svg = () => document.querySelector('#widget svg');
  const script = [], layout = [], first = [], painted = [];
  for (let j = 0; j < n; j++) {
    if (step.disabled) window.model.fromPython('k', 0);
    await frame(); await frame();
    const t0 = performance.now();
    step.click();
    const t1 = performance.now();
    svg().getBoundingClientRect();  // style and layout of the new frame, forced now to time them
    const t2 = performance.now();
    script.push(t1 - t0);
    layout.push(t2 - t1);
    first.push(await frame() - t0);
    painted.push(await frame() - t0);
  }
  return {script, layout, first, painted};
}"""


@contextmanager
def busy_cores(n=2):
    """`n` processes spinning for the duration of the block (ended by their own pids)."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def _runs():
    forty = data.separable(40, margin=0.1, bias=True, seed=3)
    many = data.separable(200, margin=0.02, bias=True, seed=0)
    return {"03 forty points": (fit_perceptron(*forty), *forty), "200 points": (fit_perceptron(*many), *many)}


def measure(page, widget, clicks):
    state = widget.get_state()
    page.evaluate("(s) => window.mount(s)", {"run": state["run"], "k": 0, "interval_ms": 500})
    times = page.evaluate(JS_CLICKS, clicks)
    saves = page.evaluate("() => window.model.saves")
    med = {key: statistics.median(v) for key, v in times.items()}
    med.update(first_max=max(times["first"]), first_p95=p95(times["first"]), painted_p95=p95(times["painted"]))
    return med, len(saves), sum(s != ["k"] for s in saves)


def measure_phase(browser, page, widget, clicks, load):
    """Real mouse clicks at a random phase of the frame (`click_phase`); with the forced layouts, idle only."""
    state = widget.get_state()
    page.evaluate("(s) => window.mount(s)", {"run": state["run"], "k": 0, "interval_ms": 500})
    el = page.query_selector("#widget")
    random_phase_clicks(page, el, 3, seed=99)  # warm-up
    times = random_phase_clicks(page, el, clicks, seed=7)
    assert all(times["moved"]), "a real click did not move the player on by one"
    forced = describe_forced(traced_clicks(browser, page, el, 10)) if load == "idle" else ""
    return summary(times), forced


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=50)
    args = parser.parse_args(argv)
    missing = browser_missing_reason()
    if missing:
        sys.exit(missing)
    from playwright.sync_api import sync_playwright

    runs = _runs()
    with sync_playwright() as pw:
        browser = launch(pw)
        ctx = browser.new_context(viewport={"width": 1440, "height": 900})
        ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:", "about:"))
                  else r.abort())
        page = ctx.new_page()
        page.set_content('<!doctype html><html lang="en"><title>bench</title><body><main></main></body></html>')
        page.evaluate("""async (src) => {
            window.front = await import(URL.createObjectURL(new Blob([src], {type: "text/javascript"})));
        }""", BrowserPlayer._esm)
        page.evaluate(FAKE_MODEL)
        print(f"Step click, median of {args.clicks} clicks (ms). Frame start: the click is made just after a frame "
              "starts (the worst phase: 16.7 at the next rAF means no frame was missed); the click's script (draws "
              "the frame) + style and layout | the next rAF (p95, max) / the rAF after it (painted). Random phase: "
              "a real mouse click at a uniformly random moment of the frame, timed from its event's timeStamp")
        for name, (run, X, y) in runs.items():
            widget = BrowserPlayer(run, X, y)
            size = len(json.dumps(widget.get_state()["run"]))
            for load, ctxm in (("idle", None), ("2 cores busy", busy_cores)):
                with ctxm() if ctxm is not None else nullcontext():
                    med, saves, other = measure(page, widget, args.clicks)
                    phase, forced = measure_phase(browser, page, widget, args.clicks, load)
                print(f"  {name} (n = {len(y)}, K = {len(run.history) - 1}, run trait ~{size / 1e3:.0f} kB), "
                      f"{load} (load {os.getloadavg()[0]:.1f}): {med['script']:.2f} + {med['layout']:.2f} | "
                      f"{med['first']:.1f} (p95 {med['first_p95']:.1f}, max {med['first_max']:.1f}) / "
                      f"{med['painted']:.1f} (p95 {med['painted_p95']:.1f}); messages {saves}, other than k: {other}")
                print(f"    random phase (real mouse click, phase quartiles {phase['phase_q'][0]:.1f} / "
                      f"{phase['phase_q'][1]:.1f} / {phase['phase_q'][2]:.1f} ms): handler {phase['handler']:.2f} | "
                      f"{phase['first']:.1f} (p95 {phase['first_p95']:.1f}) / {phase['painted']:.1f} "
                      f"(p95 {phase['painted_p95']:.1f}); Event Timing (click to next paint): {event_words(phase)}")
                if forced:
                    print(f"    in the click's dispatch (a Chromium trace): {forced}")
        browser.close()


if __name__ == "__main__":
    main()
