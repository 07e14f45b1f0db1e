"""Where the page's time goes between an edit and the library's run on show: a Chromium trace of edits, split.

`browser_course.py --trace N` makes N more edits of each scratch editor (in turn, as `edits_alternating`) under
a Chromium trace (``devtools.timeline``) and reads, for each, the page's main thread from the click
(``bench-click``, a user-timing mark `course_scripts.JS_EDIT` makes) to the library's run on show
(``bench-library``): each task (``RunTask``) in that window by what it did:

- ``handler``: the edit's pointer events (``EventDispatch``): the page sends the points, fits them and draws its
  own run; ``forced``: the style and layout forced inside it (a text measured: ``UpdateLayoutTree``, ``Layout``);
- ``frame``: the animation frames' style, layout, paint and layers (no event dispatched);
- ``script``: other script (the kernel's messages in, the library's run read and drawn, timers);
- ``gc``: garbage collection outside those; ``idle``: the window less the tasks (the page waits for the kernel).

The click is made in an animation frame's callback (after two awaited frames), so the handler's task also holds
that frame's own style, layout and paint. Wall time counts the time the thread waited for a core (on a loaded
machine, most of it); ``*_cpu`` is the thread's CPU time (``tdur``), the number to compare across loads.

The kernel's side (to the kernel, the fit, the send, back) is the stopwatch `course_scripts.KERNEL_WATCH` keeps.
"""

from __future__ import annotations

import json
import statistics

TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline",
                    "disabled-by-default-devtools.timeline.stack", "blink.user_timing"]
PARTS = ("window", "handler", "forced", "frame", "script", "gc", "idle", "handler_cpu", "forced_cpu", "frame_cpu",
         "script_cpu")
_FRAME = {"UpdateLayoutTree", "Layout", "Paint", "PrePaint", "Layerize", "Commit", "FireAnimationFrame",
          "UpdateLayer", "CompositeLayers", "ScrollLayer", "IntersectionObserverController::computeIntersections"}
_GC = {"MajorGC", "MinorGC", "V8.GC_SCAVENGER", "V8.GC_MARK_COMPACTOR", "BlinkGC.AtomicPhase"}


def traced(browser, page, edit, n: int) -> tuple[list, list[dict]]:
    """`edit()` n times under a trace: its results, and `split` of each edit (in order)."""
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    try:
        results = [edit() for _ in range(n)]
    finally:
        trace = browser.stop_tracing()
    return results, split(trace)


def split(trace: bytes) -> list[dict]:
    """Per edit in the trace (a ``bench-click`` mark, up to the next ``bench-library``): ms of each of `PARTS`."""
    events = json.loads(trace)
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    marks = sorted((e["ts"], e["name"], e["pid"], e["tid"]) for e in events
                   if e.get("name") in ("bench-click", "bench-library") and e.get("ph") in ("R", "I", "i", "n"))
    out = []
    for j, (ts, name, pid, tid) in enumerate(marks):
        end = next((m for m in marks[j + 1:] if m[1] == "bench-library"), None)
        if name != "bench-click" or end is None or any(m[1] == "bench-click" for m in marks[j + 1:]
                                                      if m[0] < end[0]):
            continue
        out.append(_window(events, pid, tid, ts, end[0]))
    return out


def _window(events, pid, tid, lo, hi) -> dict:
    """The main thread's tasks between lo and hi (trace us), by `PARTS` (ms)."""
    mine = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and "dur" in e
            and e["ts"] < hi and e["ts"] + e["dur"] > lo]
    tasks = [e for e in mine if e["name"] == "RunTask"]
    got = dict.fromkeys(PARTS, 0.0)
    got["window"] = (hi - lo) / 1e3
    got["by"] = {}
    for task in tasks:
        a, b = max(task["ts"], lo), min(task["ts"] + task["dur"], hi)
        inside = [e for e in mine if task["ts"] <= e["ts"] < task["ts"] + task["dur"] and e is not task]
        ms = (b - a) / 1e3
        cpu = ms * task.get("tdur", task["dur"]) / max(task["dur"], 1)  # the thread's CPU time, pro rata
        names = {e["name"] for e in inside}
        dispatch = [e for e in inside if e["name"] == "EventDispatch"
                    and e.get("args", {}).get("data", {}).get("type", "").startswith("pointer")]
        if dispatch:
            part = "handler"
            forced = [e for e in inside if e["name"] in ("UpdateLayoutTree", "Layout")
                      and any(d["ts"] <= e["ts"] < d["ts"] + d["dur"] for d in dispatch)]
            got["forced"] += sum(e["dur"] for e in forced) / 1e3
            got["forced_cpu"] += sum(e.get("tdur", e["dur"]) for e in forced) / 1e3
            for e in forced:
                stack = (e.get("args", {}).get("beginData", {}) or {}).get("stackTrace") or []
                who = stack[0].get("functionName") or "?" if stack else "?"
                got["by"][who] = got["by"].get(who, 0.0) + e["dur"] / 1e3
        elif names & {"FunctionCall", "TimerFire", "EvaluateScript", "v8.callFunction", "RunMicrotasks"} and not (
                names & {"FireAnimationFrame"}):
            part = "script"
        elif names & _FRAME:
            part = "frame"
        elif names & _GC:
            part = "gc"
        else:
            part = "script"
        got[part] += ms
        if f"{part}_cpu" in got:
            got[f"{part}_cpu"] += cpu
    got["idle"] = got["window"] - got["handler"] - got["frame"] - got["script"] - got["gc"]
    return got


def medians(rows: list[dict]) -> dict:
    """Medians of `split`'s rows, per part (``*_cpu``: the main thread's CPU time, from the trace's ``tdur``), and
    ``by``: the functions that forced style or layout in the handlers, with their ms over all the rows."""
    out = {p: statistics.median(r[p] for r in rows) if rows else float("nan") for p in PARTS}
    by: dict[str, float] = {}
    for r in rows:
        for who, ms in r["by"].items():
            by[who] = by.get(who, 0.0) + ms
    out["by"] = ", ".join(f"{who} {ms:.1f}" for who, ms in sorted(by.items(), key=lambda kv: -kv[1])[:4]) or "-"
    return out
