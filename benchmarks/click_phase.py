"""A Step click at a random moment of the frame, as a student's lands, and the layouts forced inside its handler.

The other step benchmarks click right after a frame starts (inside a ``requestAnimationFrame`` callback), so the
next frame always comes a whole frame later (16.7 ms at 60 Hz): the worst phase. A student's click lands anywhere
in the frame. Here each click is a real mouse click (playwright's ``page.mouse.click``: Chromium's
``Input.dispatchMouseEvent``, a trusted event), sent after a seeded random wait of 0 to 16.7 ms that starts when a
frame has just started, so its phase is uniform over the frame. It is timed from the click event's own
``timeStamp`` (when the browser took the input) to the next ``requestAnimationFrame`` (the frame that draws the
new step is being made) and to the one after it (that frame has been painted: the step benchmarks' definition).
The phase itself (click minus the start of the frame it landed in) is returned too, so its spread can be checked,
and so is the browser's own measure of click to next paint (the Event Timing API, what INP is made of: from the
event's timeStamp to the paint of the frame after its handlers, rounded to 8 ms), which is reported only when it is
16 ms or more after rounding: a click it leaves out was painted within 12 ms.

`forced_layouts` reads a Chromium trace (``devtools.timeline``) of such clicks: the style recalculations and
layouts that ran inside a click's dispatch are forced by the handler's script (a read of geometry after a write),
and the stack of each says which function forced it.
"""

from __future__ import annotations

import json
import random
import statistics
import time

#: Arms the page for one click on the Step button in `el`: listeners that time the click, then two frames (the
#: wait starts at the second's start). Returns the button's centre. `window.__phaseDone` resolves with the times.
JS_ARM = """async (el) => {
  const button = (name) => [...el.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const step = button('Step');
  if (step.disabled) { button('Reset').click(); await new Promise((r) => setTimeout(r, 300)); }
  const rec = {k: Number((el.querySelector('input[type=number]') || {}).value)};
  if (!window.__eventTiming) {  // the browser's own click -> next paint (Event Timing), kept when 16 ms or more
    window.__eventTiming = [];
    new PerformanceObserver((list) => window.__eventTiming.push(...list.getEntries().filter((e) => e.name === 'click')
      .map((e) => ({start: e.startTime, duration: e.duration})))).observe({type: 'event', durationThreshold: 16});
  }
  window.__phaseDone = new Promise((resolve) => {
    const onCapture = (e) => {
      if (!step.contains(e.target)) return;
      window.removeEventListener('click', onCapture, true);
      rec.ts = e.timeStamp;
      rec.start = performance.now();
      performance.mark('step-click-start');
      setTimeout(() => resolve(rec), 1000);  // in case the click does not reach `window` (the times stay null)
    };
    const onBubble = (e) => {
      if (!step.contains(e.target)) return;
      window.removeEventListener('click', onBubble);
      rec.end = performance.now();
      performance.mark('step-click-end');
      requestAnimationFrame(() => {
        rec.first = performance.now();
        requestAnimationFrame(() => { rec.painted = performance.now(); resolve(rec); });
      });
    };
    window.addEventListener('click', onCapture, true);
    window.addEventListener('click', onBubble);
  });
  await frame();
  rec.frame = await frame();
  const r = step.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
}"""

#: Waits for the armed click's times, and whether the step box moved on by one.
JS_DONE = """async (el) => {
  const rec = await window.__phaseDone;
  await new Promise((r) => setTimeout(r, 50));  // Event Timing reports after the paint
  const timing = window.__eventTiming.find((e) => Math.abs(e.start - rec.ts) < 0.5);
  rec.event_timing = timing ? timing.duration : null;
  const box = el.querySelector('input[type=number]');
  rec.moved = box ? Number(box.value) === rec.k + 1 : true;
  return rec;
}"""

FRAME_MS = 1000 / 60


def random_phase_clicks(page, el, n: int, *, seed: int = 0) -> dict:
    """`n` real mouse clicks on the Step button of the player in `el` (an element handle), each at a random phase.

    Returns lists (ms): ``handler`` (the click's dispatch, from the capture listener on ``window`` to the bubble
    one), ``first`` and ``painted`` (from the click's ``timeStamp`` to the next frame and the one after), ``phase``
    (from the start of the frame the click landed in, modulo 16.7 ms), ``moved`` (bools), and ``event_timing``: the
    browser's own measure of the click to the next paint (the Event Timing API's ``duration``, rounded to 8 ms),
    None where it was under 12 ms (rounded to 8: the API reports 16 ms or more only).
    """
    rng = random.Random(seed)
    out = {"handler": [], "first": [], "painted": [], "phase": [], "moved": [], "event_timing": []}
    for _ in range(n):
        x, y = page.evaluate(JS_ARM, el)
        time.sleep(rng.uniform(0.0, FRAME_MS / 1000))
        page.mouse.click(x, y)
        rec = page.evaluate(JS_DONE, el)
        if rec.get("first") is None:
            raise RuntimeError(f"a Step click was not timed (did it reach the page's window?): {rec}")
        out["handler"].append(rec["end"] - rec["start"])
        out["first"].append(rec["first"] - rec["ts"])
        out["painted"].append(rec["painted"] - rec["ts"])
        out["phase"].append((rec["ts"] - rec["frame"]) % FRAME_MS)
        out["moved"].append(rec["moved"])
        out["event_timing"].append(rec["event_timing"])
    return out


def p95(values) -> float:
    """The 95th percentile (linear between order statistics)."""
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def summary(times: dict) -> dict:
    """Medians and p95 of `random_phase_clicks`'s lists, the phases' spread (quartiles, as a check), and Event
    Timing's click -> next paint: its share under 12 ms (rounded to 8, so not reported), median and p95 (ms)."""
    q = statistics.quantiles(times["phase"], n=4, method="inclusive")
    timed = [8.0 if t is None else t for t in times["event_timing"]]  # 8: under 12, rounded down to 8 ms
    return {"handler": statistics.median(times["handler"]),
            "first": statistics.median(times["first"]), "first_p95": p95(times["first"]),
            "painted": statistics.median(times["painted"]), "painted_p95": p95(times["painted"]),
            "phase_q": (q[0], q[1], q[2]), "under12": sum(t is None for t in times["event_timing"]) / len(timed),
            "event": statistics.median_low(timed), "event_p95": sorted(timed)[int(0.95 * (len(timed) - 1))]}


def event_words(s: dict) -> str:
    """Event Timing's numbers in words: a value of 8 is "under 12" (the API reports 16 ms or more, in 8 ms steps)."""
    def ms(v):
        return "< 12" if v < 12 else f"{v:.0f}"
    return f"{s['under12']:.0%} under 12 ms, median {ms(s['event'])}, p95 {ms(s['event_p95'])}"


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline.stack", "blink.user_timing"]


def forced_layouts(trace: bytes) -> list[dict]:
    """Per click dispatched in a Chromium trace: its duration, and the style and layout work forced inside it.

    Returns one dict per ``EventDispatch`` of type "click": ``ms`` (the dispatch), ``style`` and ``layout``
    (counts of ``UpdateLayoutTree`` and ``Layout`` events inside it, on its thread), ``style_ms``, ``layout_ms``,
    and ``by`` (the function names atop the stacks that forced them, with counts).
    """
    events = json.loads(trace)
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    done = [e for e in events if e.get("ph") == "X" and "dur" in e]
    out = []
    for click in (e for e in done if e.get("name") == "EventDispatch"
                  and e.get("args", {}).get("data", {}).get("type") == "click"):
        lo, hi = click["ts"], click["ts"] + click["dur"]
        inner = [e for e in done if e["tid"] == click["tid"] and e["pid"] == click["pid"] and lo <= e["ts"] < hi
                 and e.get("name") in ("UpdateLayoutTree", "Layout")]
        by: dict[str, int] = {}
        for e in inner:
            stack = (e.get("args", {}).get("beginData", {}) or {}).get("stackTrace") or []
            name = stack[0].get("functionName") or "?" if stack else "?"
            by[name] = by.get(name, 0) + 1
        out.append({
            "ms": click["dur"] / 1e3,
            "style": sum(e["name"] == "UpdateLayoutTree" for e in inner),
            "layout": sum(e["name"] == "Layout" for e in inner),
            "style_ms": sum(e["dur"] for e in inner if e["name"] == "UpdateLayoutTree") / 1e3,
            "layout_ms": sum(e["dur"] for e in inner if e["name"] == "Layout") / 1e3,
            "by": by,
        })
    return out


def traced_clicks(browser, page, el, n: int, *, seed: int = 1) -> list[dict]:
    """`n` random-phase Step clicks under a Chromium trace; `forced_layouts` of each (untimed otherwise)."""
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    try:
        random_phase_clicks(page, el, n, seed=seed)
    finally:
        trace = browser.stop_tracing()
    return forced_layouts(trace)


def describe_forced(rows: list[dict]) -> str:
    """One line: medians of the clicks' forced style/layout counts and ms, and who forced them."""
    if not rows:
        return "no click dispatch in the trace"
    by: dict[str, int] = {}
    for r in rows:
        for k, v in r["by"].items():
            by[k] = by.get(k, 0) + v
    med = {k: statistics.median(r[k] for r in rows) for k in ("ms", "style", "layout", "style_ms", "layout_ms")}
    who = ", ".join(f"{k} {v}" for k, v in sorted(by.items(), key=lambda kv: -kv[1])) or "none"
    return (f"{len(rows)} clicks: dispatch {med['ms']:.2f} ms, forced style recalcs {med['style']:.0f} "
            f"({med['style_ms']:.2f} ms), forced layouts {med['layout']:.0f} ({med['layout_ms']:.2f} ms); "
            f"forced by (all clicks): {who}")
