"""Step and edit in the course's own pages: JupyterLab with a kernel, and the built site with none; idle and busy.

Issue #30 item 7, measured where a student meets the players (`browser_step.py` and `browser_edit.py` measure the
same front ends on a blank page with a stand-in model). In headless Chromium, in one run:

1. **JupyterLab, lessons 00 and 05** (``--lessons``; a copy without outputs, Run All, its kernel running): Step
   clicks on each lesson's first `BrowserPlayer`, each timed inside the page from ``click()`` to the next
   ``requestAnimationFrame`` (the frame that paints the new SVG is being made) and the one after it (painted); then
   as many real mouse clicks at a random phase of the frame (`benchmarks.click_phase`); every comm message of each
   step is
   counted from JupyterLab's kernel connection (``anyMessage``): those the page sends (the one allowed is the ``k``
   update) and those it receives (ipywidgets' echo of ``k``).
2. **JupyterLab, edits with the kernel**: a click on an empty spot of an editor's picture (the pointer events a
   click makes), timed to the browser's own run painted, then to the library's run drawn (``data-run`` becomes
   "library": its readout shows the library's numbers) and painted; then Undo (untimed) and its run. The kernel
   side is timed in the kernel (its ``time.time()``, the same clock as the page's ``timeOrigin + now()``): the
   comm message in, `fit` (``_fit_run``), the summary (`own_data.summarize`), the words (`readout.all_words`), the
   rest of the trait (`run_trait`), and the trait's send (serialising and sending ``run``); the page adds when the
   message left and when the run came in (after JSON parsing). Editors: each lesson's first (00: 10 points; 05:
   lifted points, whose run's circles and lifted view Python computes), and two made in a scratch notebook on 200
   points (separable; no line: a 4,000-update run and a 4 MB trait).
3. **The built site over file://** (`tools.build_site`, lesson 00, every request outside file: blocked and
   counted): Step clicks on the same player with no kernel, and edits on lesson 00's editor (its browser's run).

Every part runs idle, then with two ``python -c "while True: pass"`` keeping both cores busy (`busy_cores`); the
1-minute load average is printed beside each line. Medians; the maximum beside the next frame.

Run from the repository root: ``.venv/bin/python -m benchmarks.browser_course [--clicks 30] [--edits 15]``
(about four minutes). ``--before`` adds editors as they were before the last change measured
(`course_scripts.BEFORE_CELLS`), edited in turn with today's; ``--trace N`` splits N more edits of each editor by a
Chromium trace (`edit_trace.py`); ``--no-site`` skips the site. Needs
``/usr/bin/chromium`` (never ``playwright install``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks import edit_trace
from benchmarks.browser_edit import JS_SPOT
from benchmarks.browser_step import busy_cores
from benchmarks.click_phase import event_words, p95, random_phase_clicks, summary
from benchmarks.course_scripts import (
    BEFORE_CELLS,
    BEFORE_NAMES,
    BEFORE_ORDER,
    JS_EDIT,
    JS_EXECUTE,
    JS_STEPS,
    JS_WATCH,
    KERNEL_READ,
    KERNEL_WATCH,
    SCRATCH,
    SCRATCH_CELLS,
)
from tests.browser_support import (
    browser_missing_reason,
    course_lab,
    launch,
    offline_site,
    open_and_run_all,
    open_offline,
    wait_kernel_settled,
)

LESSON = "00_start_here.ipynb"
#: The lessons whose first player and first editor are timed in JupyterLab: 00's, and 05's editor of lifted points
#: (its run's circles and lifted view are computed by Python after each edit).
LESSONS = (LESSON, "05_kernel_lifting.ipynb")


def median(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def load_avg() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def under(load: str):
    """The context of a load: nothing for "idle", `busy_cores` for "busy"."""
    return busy_cores(2) if load == "busy" else _Nothing()


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def steps(page, locator, clicks: int, load: str, where: str) -> dict:
    locator.scroll_into_view_if_needed()
    handle = locator.element_handle()
    page.evaluate(JS_STEPS, [handle, 3])  # warm-up
    random_phase_clicks(page, handle, 3, seed=99)  # warm-up
    with under(load):
        la = load_avg()
        r = page.evaluate(JS_STEPS, [handle, clicks])
        phase = summary(random_phase_clicks(page, handle, clicks, seed=7))
    assert all(r["moved"]), f"{where}: a Step click did not move k on by one"
    return {"where": where, "load": load, "load_avg": la, "handler": median(r["handler"]),
            "first": median(r["first"]), "first_p95": p95(r["first"]), "first_max": max(r["first"]),
            "painted": median(r["painted"]), "painted_p95": p95(r["painted"]), "sent": statistics.mean(r["sent"]),
            "other": sum(r["other"]), "received": statistics.mean(r["received"]), "phase": phase}


def print_steps(rows: list) -> None:
    print("\nStep click to the next frame and to the frame after it (painted), ms, median (p95). Frame start: the "
          "click is made just after a frame starts (the worst phase: 16.7 at the next frame means no frame missed). "
          "Random phase: a real mouse click at a uniformly random moment of the frame (`click_phase`), from its "
          "event's timeStamp; Event Timing: the browser's own click -> next paint. Messages per step: sent by the "
          "page / other than the k update / received")
    print("| where | load | load avg | handler | frame start: next frame | frame start: painted | random phase: next "
          "frame | random phase: painted | Event Timing | phase quartiles | messages per step |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        msgs = "no kernel" if r["sent"] is None else f"{r['sent']:.1f} / {r['other']} / {r['received']:.1f}"
        ph = r["phase"]
        print(f"| {r['where']} | {r['load']} | {r['load_avg']} | {r['handler']:.2f} / {ph['handler']:.2f} | "
              f"{r['first']:.1f} ({r['first_p95']:.1f}) | {r['painted']:.1f} ({r['painted_p95']:.1f}) | "
              f"{ph['first']:.1f} ({ph['first_p95']:.1f}) | {ph['painted']:.1f} ({ph['painted_p95']:.1f}) | "
              f"{event_words(ph)} | {' / '.join(f'{q:.1f}' for q in ph['phase_q'])} | {msgs} |")


def edits(page, locator, n: int, load: str, where: str, *, kernel: bool, path: str | None = None) -> dict:
    locator.locator(".pp-picture").scroll_into_view_if_needed()
    handle = locator.element_handle()
    spot = page.evaluate(JS_SPOT, handle)
    out = []
    with under(load):
        la = load_avg()
        for j in range(n + 1):
            t = page.evaluate(JS_EDIT, [handle, spot, kernel])
            assert t["added"] and t["undone"], f"{where}: a click did not add a point, or Undo did not remove it"
            if kernel:
                wait_kernel_settled(page, path, quiet_ms=100)
            if j:  # the first is a warm-up
                out.append(t)
    kernel_log = json.loads(page.evaluate(JS_EXECUTE, KERNEL_READ) or "[]") if kernel else []
    return {"where": where, "load": load, "load_avg": la, "edits": out, "kernel": kernel_log}


def edits_alternating(page, locators: list, names: list, n: int, load: str, path: str) -> list:
    """`edits` on several editors in turn (one edit each, then the next round): their rows side by side at the same
    moments of the machine's load."""
    out = [[] for _ in locators]
    with under(load):
        la = load_avg()
        for j in range(n + 1):
            for e, locator in enumerate(locators):
                locator.locator(".pp-picture").scroll_into_view_if_needed()  # the spot where the editor is now
                handle = locator.element_handle()
                t = page.evaluate(JS_EDIT, [handle, page.evaluate(JS_SPOT, handle), True])
                assert t["added"] and t["undone"], f"{names[e]}: a click did not add a point, or Undo did not remove it"
                wait_kernel_settled(page, path, quiet_ms=100)
                if j:  # the first round is a warm-up
                    out[e].append(t)
    kernel_log = json.loads(page.evaluate(JS_EXECUTE, KERNEL_READ) or "[]")
    return [{"where": name, "load": load, "load_avg": la, "edits": o, "kernel": kernel_log}
            for name, o in zip(names, out, strict=True)]


def traced_alternating(browser, page, locators: list, names: list, n: int, load: str, path: str) -> list:
    """n rounds of one edit of each editor in turn under a Chromium trace (`edit_trace`): per editor, the load
    average and the medians of the page's main thread from the click to the library's run on show, by part."""
    turn = iter(range(n * len(locators)))

    def edit():
        locator = locators[next(turn) % len(locators)]
        locator.locator(".pp-picture").scroll_into_view_if_needed()
        handle = locator.element_handle()
        t = page.evaluate(JS_EDIT, [handle, page.evaluate(JS_SPOT, handle), True])
        wait_kernel_settled(page, path, quiet_ms=100)
        return t

    with under(load):
        la = load_avg()
        results, rows = edit_trace.traced(browser, page, edit, n * len(locators))
    page.evaluate(JS_EXECUTE, KERNEL_READ)  # the kernel's log of these edits: not kept
    if len(rows) != len(results) or any(t.get("library") is None for t in results):
        print(f"trace: {len(rows)} edits split of {len(results)} (a library's run missing?): not reported")
        return []
    return [{"where": name, "load": load, "load_avg": la, **edit_trace.medians(rows[e::len(locators)])}
            for e, name in enumerate(names)]


def print_traced(rows: list) -> None:
    print("\nThe page's main thread from an edit's click to the library's run on show (Chromium trace, ms, medians): "
          "the edit's handler (of it style and layout forced), the frames' style, layout and paint, other script "
          "(the kernel's messages, the library's run read and drawn), garbage collection, idle (waiting)")
    print("| editor | load | load avg | click to library's run | handler (forced) | frames | script | gc | idle | "
          "CPU: handler (forced) / frames / script | forced by (ms, all edits) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['where']} | {r['load']} | {r['load_avg']} | {r['window']:.1f} | {r['handler']:.1f} "
              f"({r['forced']:.1f}) | {r['frame']:.1f} | {r['script']:.1f} | {r['gc']:.1f} | {r['idle']:.1f} | "
              f"{r['handler_cpu']:.1f} ({r['forced_cpu']:.1f}) / {r['frame_cpu']:.1f} / {r['script_cpu']:.1f} | "
              f"{r['by']} |")


def _split(r: dict) -> dict:
    """Medians (ms) of each part of an edit: page times (epoch ms) matched to the kernel's records (epoch s)."""
    parts = {name: [] for name in ("handler", "browser_painted", "library", "library_painted", "to_kernel", "fit",
                                   "summary", "words", "trait", "fitted", "send", "to_page", "front", "K")}
    recs = [k for k in r["kernel"] if "points" in k["keys"]]
    for t in r["edits"]:
        c = t["click"]
        parts["handler"].append(t["handler"] - c)
        parts["browser_painted"].append(t["browser_painted"] - c)
        if t.get("library") is None:
            continue
        parts["library"].append(t["library"] - c)
        parts["library_painted"].append(t["library_painted"] - c)
        rec = min(recs, key=lambda k: abs(k["recv"] * 1e3 - (t["sent"] or c)), default=None)
        if rec is None or t["sent"] is None or t["received"] is None:
            continue
        ms = {name: (rec[name][1] - rec[name][0]) * 1e3 for name in ("fit", "summarize", "all_words", "run_trait",
                                                                     "library_trait", "fitted") if name in rec}
        parts["K"].append(rec.get("K"))
        parts["to_kernel"].append(rec["recv"] * 1e3 - t["sent"])
        parts["fit"].append(ms.get("fit"))
        parts["summary"].append(ms.get("summarize"))
        parts["words"].append(ms.get("all_words"))
        parts["trait"].append(ms.get("run_trait", ms.get("library_trait")))  # the full trait, or the lean one
        parts["fitted"].append(ms.get("fitted"))
        parts["send"].append(rec["done"] * 1e3 - rec["fitted"][1] * 1e3)
        parts["to_page"].append(t["received"] - rec["done"] * 1e3)
        parts["front"].append(t["library"] - t["received"])
    return {name: median(v) for name, v in parts.items()}


def print_edits(rows: list) -> None:
    print("\nAn edit (a click adding a point) to the new run painted (ms, medians). With a kernel: to the library's "
          "run drawn (its readout) and painted, and where the time went: page -> kernel (from the points' message "
          "sent), in the kernel the fit, the summary, the words (all_words), the trait (run_trait, or the lean "
          "library_trait), _fitted in all, "
          "the trait's send, kernel -> page (until the run is parsed), the front end drawing it")
    print("| editor | load | load avg | K after the edit | browser's run painted (handler) | library's run drawn / "
          "painted | to kernel | fit | summary | words | trait | _fitted | send | to page | front |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        s = _split(r)
        lib = f"{s['library']:.1f} / {s['library_painted']:.1f}" if s["library"] == s["library"] else "no kernel"
        rest = " | ".join(f"{s[k]:.1f}" if s[k] == s[k] else "-" for k in
                          ("to_kernel", "fit", "summary", "words", "trait", "fitted", "send", "to_page", "front"))
        K = f"{s['K']:.0f}" if s["K"] == s["K"] else "-"
        print(f"| {r['where']} | {r['load']} | {r['load_avg']} | {K} | {s['browser_painted']:.1f} "
              f"({s['handler']:.1f}) | {lib} | {rest} |")


def in_lab(browser, tmp: Path, clicks: int, n_edits: int, step_rows: list, edit_rows: list, lessons,
           before: bool = False, trace: int = 0, trace_rows: list | None = None) -> None:
    cells = SCRATCH_CELLS + (BEFORE_CELLS if before else [])
    with course_lab(tmp / "lab") as server:
        (server.root_dir / SCRATCH).write_text(json.dumps({
            "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
                      for s in cells],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                        "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}))
        for lesson in lessons:
            page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
            path = f"notebooks/{lesson}"
            open_and_run_all(page, server, path)
            wait_kernel_settled(page, path)
            page.evaluate(JS_WATCH)
            page.evaluate(JS_EXECUTE, KERNEL_WATCH)
            player = page.locator(".perceptron-browserplayer").first
            editor = page.locator(".perceptron-browsereditor").first
            n = page.evaluate(JS_EXECUTE, "print(len(_bench_editors[0].points[1]))").strip()
            for load in ("idle", "busy"):
                step_rows.append(steps(page, player, clicks, load, f"JupyterLab, lesson {lesson[:2]}, kernel running"))
                edit_rows.append(edits(page, editor, n_edits, load, f"JupyterLab, lesson {lesson[:2]} ({n} points)",
                                       kernel=True, path=path))
                if trace:
                    trace_rows.extend(traced_alternating(browser, page, [editor], [f"JupyterLab, lesson {lesson[:2]}"],
                                                         trace, load, path))
            page.close()
            server.shutdown_kernels()
        page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        open_and_run_all(page, server, SCRATCH)
        wait_kernel_settled(page, SCRATCH)
        page.evaluate(JS_WATCH)
        page.evaluate(JS_EXECUTE, KERNEL_WATCH)
        names = BEFORE_NAMES if before else ["200 separable points", "200 points, no line"]
        Ks = [page.evaluate(JS_EXECUTE, f"print(_bench_editors[{j}].run['K'])").strip() for j in range(len(names))]
        names = [f"JupyterLab, {name} (K = {K})" for name, K in zip(names, Ks, strict=True)]
        locators = [page.locator(".perceptron-browsereditor").nth(j) for j in range(len(names))]
        for load in ("idle", "busy"):
            if before:  # now and before, one edit each in turn
                order = BEFORE_ORDER
                rows = edits_alternating(page, [locators[j] for j in order], [names[j] for j in order], n_edits,
                                         load, SCRATCH)
                edit_rows.extend(rows)
            else:
                for locator, name in zip(locators, names, strict=True):
                    edit_rows.append(edits(page, locator, n_edits, load, name, kernel=True, path=SCRATCH))
            if trace:
                order = BEFORE_ORDER if before else range(len(names))
                trace_rows.extend(traced_alternating(browser, page, [locators[j] for j in order],
                                                     [names[j] for j in order], trace, load, SCRATCH))
        page.close()
        server.shutdown_kernels()


def in_site(browser, tmp: Path, clicks: int, n_edits: int, step_rows: list, edit_rows: list) -> None:
    page, out, remote, problems = offline_site(browser, tmp / "site", (LESSON,))
    assert open_offline(page, out / LESSON.replace(".ipynb", ".html")) == "ready"
    for load in ("idle", "busy"):
        row = steps(page, page.locator(".perceptron-browserplayer").first, clicks, load, "site over file://, lesson 00")
        row["sent"] = None
        step_rows.append(row)
        edit_rows.append(edits(page, page.locator(".perceptron-browsereditor").first, n_edits, load,
                               "site over file://, lesson 00 (10 points)", kernel=False))
    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems[:3])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=30, help="timed Step clicks per place and load (default 30)")
    parser.add_argument("--edits", type=int, default=15, help="timed edits per editor and load (default 15)")
    parser.add_argument("--lessons", nargs="*", default=list(LESSONS), help="lessons stepped and edited in "
                        f"JupyterLab: their first player and first editor (default {' '.join(LESSONS)})")
    parser.add_argument("--before", action="store_true", help="also editors as they were before the last change "
                        "measured (`course_scripts.BEFORE_CELLS`), their edits alternating with today's")
    parser.add_argument("--trace", type=int, default=0, help="also N edits of each JupyterLab editor per load "
                        "under a Chromium trace: the page's main thread from the click to the library's run, by part "
                        "(`edit_trace`)")
    parser.add_argument("--no-site", action="store_true", help="skip the built site (JupyterLab only)")
    args = parser.parse_args(argv)
    missing = browser_missing_reason()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    step_rows, edit_rows, trace_rows = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-course-") as tmp, sync_playwright() as pw:
        browser = launch(pw)
        (Path(tmp) / "site").mkdir()
        if not args.no_site:
            in_site(browser, Path(tmp), args.clicks, args.edits, step_rows, edit_rows)
        in_lab(browser, Path(tmp), args.clicks, args.edits, step_rows, edit_rows, args.lessons, args.before,
               args.trace, trace_rows)
        browser.close()
    print_steps(step_rows)
    print_edits(edit_rows)
    if trace_rows:
        print_traced(trace_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
