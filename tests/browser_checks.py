"""The checks of a notebook run in JupyterLab that every notebook gets (tests/test_browser.py runs them).

* `open_and_run`: open the notebook in a kernel of a given kernelspec, clear the outputs, Run All;
* `check_outputs`: every code cell ran, in order, and none has an error or stderr output;
* `check_widgets_rendered`: no "Error displaying widget", no "Loading widget" left, no empty widget output;
* `check_browser_player`: a ``.perceptron-browserplayer`` (the picture drawn in the browser, in SVG) answers
  Step, Back (the same SVG markup and words as before), Play and Pause; the steps send the kernel one message each,
  the widget's ``k`` and nothing else (counted on the kernel connection: `JS_COUNT_SENT`); afterwards the kernel's
  ``k`` is the browser's and its readout (the library's ``state_lines``) is the words shown;
* `check_livefigure`: ArrowRight on a ``.perceptron-livefigure``'s first slider changes the picture;
* `screenshot`: the whole notebook in one picture, to ``tests/artifacts/browser/`` (git-ignored).

Every wait is on a condition (a new picture ``src``, changed words, an idle kernel), never a fixed time.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser_support import JupyterServer, wait_kernel_settled

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "browser"

KERNEL_TIMEOUT_MS = 60_000  # kernel start, from opening the tab
RUN_TIMEOUT_MS = 180_000  # run all cells
WIDGET_TIMEOUT_MS = 20_000  # a widget renders, a click shows its effect
PLAY_TIMEOUT_MS = 10_000  # one tick of the slowest speed (2 s) plus slack


def artifact_stem(nb: str, preset: str) -> str:
    """The file-name stem of a notebook's artifacts: ``solutions__03_..._solutions``, ``-lecture`` added in
    the lecture preset."""
    return nb.replace("/", "__").removesuffix(".ipynb") + ("" if preset == "notebook" else f"-{preset}")


# ----------------------------------------------------------------------------- in-page JS


# Cells of the current notebook: type, prompt text, outputs (as saved JSON).
JS_CELLS = """() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return nb.widgets.map((c) => ({
    type: c.model.type,
    count: c.model.type === 'code' ? c.model.executionCount : null,
    prompt: c.model.type === 'code' ? (c.node.querySelector('.jp-InputArea-prompt') || {}).textContent || '' : '',
    outputs: c.model.type === 'code' ? c.model.outputs.toJSON() : [],
  }));
}"""

# A live figure's visible state: its first slider, the readout, the image src and a hash of its bytes.
JS_STATE = """async (el) => {
  const q = (direct, any) => el.querySelector(':scope > ' + direct) || el.querySelector(any);
  const img = q('img.widget-image', 'img.widget-image');
  const kbox = el.querySelector('.perceptron-k input');  // a player's "update k" box
  const handle = kbox ? null : q('.widget-slider .noUi-handle', '.widget-slider .noUi-handle');
  const html = q('.widget-html .widget-html-content', '.widget-html-content');
  let hash = null, png = null;
  for (let attempt = 0; attempt < 5 && img && img.src; attempt++) {
    try {  // the src is a blob URL, revoked when the next frame arrives: retry then
      const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
      let h = 2166136261;
      for (let i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 16777619) >>> 0; }
      hash = h.toString(16) + ':' + bytes.length;
      let bin = '';  // the bytes themselves (base64), to save both pictures when two that should match differ
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      png = btoa(bin);
      break;
    } catch (e) { await new Promise((r) => setTimeout(r, 50)); }
  }
  return {
    src: img ? img.src : null,
    hash,
    png,
    readout: html ? html.innerText : null,
    k: kbox ? Number(kbox.value) : handle ? Number(handle.getAttribute('aria-valuenow')) : null,
    kmin: kbox ? Number(kbox.min) : handle ? Number(handle.getAttribute('aria-valuemin')) : null,
    kmax: kbox ? Number(kbox.max) : handle ? Number(handle.getAttribute('aria-valuemax')) : null,
  };
}"""

# The picture's src is not `src` any more, and, unless `readout` is null, the readout's words are not
# `readout` any more (they come in a widget message of their own, after the picture's).
JS_SRC_CHANGED = """([el, src, readout]) => {
  const img = el.querySelector(':scope > img.widget-image') || el.querySelector('img.widget-image');
  const html = el.querySelector(':scope > .widget-html .widget-html-content')
               || el.querySelector('.widget-html-content');
  return !!img && !!img.src && img.src !== src && (readout === null || (!!html && html.innerText !== readout));
}"""

# The notebook's view is `height` px high (to a pixel): JupyterLab has laid its panels out for the window.
JS_VIEW_HEIGHT = """(height) => {
  const nb = window.jupyterapp.shell.currentWidget.content.node;
  const el = nb.querySelector('.jp-WindowedPanel-outer') || nb;
  return Math.abs(el.clientHeight - height) <= 1;
}"""



# Count what the page sends the kernel on the shell channel from now on (a comm message is one): the kernel
# connection's sendShellMessage is wrapped once, and the list is emptied at each call.
JS_COUNT_SENT = """() => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  if (!kernel.courseSent) {
    kernel.courseSent = [];
    const send = kernel.sendShellMessage.bind(kernel);
    kernel.sendShellMessage = (msg, ...rest) => {
      const data = (msg.content && msg.content.data) || {};
      kernel.courseSent.push({type: msg.header.msg_type, method: data.method || null,
                              keys: data.state ? Object.keys(data.state).sort() : null});
      return send(msg, ...rest);
    };
  }
  kernel.courseSent.length = 0;
}"""
JS_SENT = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.courseSent.slice()"

# A browser player's visible state: the SVG's markup, the readout's words, the k box, the picture's name.
JS_DRAWN = """(el) => {
  const box = el.querySelector('.pp-controls input[type=number]');
  return {svg: el.querySelector('.pp-picture svg').outerHTML, readout: el.querySelector('.pp-readout').innerText,
          lines: [...el.querySelectorAll('.pp-readout p')].map((p) => p.textContent),
          k: Number(box.value), kmax: Number(box.max),
          name: el.querySelector('.pp-picture').getAttribute('aria-label'),
          playing: [...el.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Pause')};
}"""

# Ask the kernel for its browser players (a switch and a controlled player are players too): each one's model
# id, k and readout lines.
JS_KERNEL_SAYS = """async () => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const code = ['import gc as _gc, json as _json',
    'from perceptron_lib.player import BrowserControlled as _BC, BrowserEditor as _BE, BrowserPlayer as _BP',
    'from perceptron_lib.player import BrowserSwitch as _BS',
    '_ps = [o for o in _gc.get_objects() if isinstance(o, (_BP, _BE, _BS, _BC)) and o.comm is not None]',
    'print(_json.dumps([{"model": p.model_id, "k": p.k, "lines": p.lines()} for p in _ps]))'].join('\\n');
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  let out = '';
  future.onIOPub = (m) => { if (m.header.msg_type === 'stream') out += m.content.text; };
  await future.done;
  return out;
}"""

# The model ids of the widgets that the cell holding `el` shows.
JS_MODEL_IDS = """(el) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets.find((c) => c.node.contains(el));
  return cell ? cell.model.outputs.toJSON().map((o) => (o.data || {})['application/vnd.jupyter.widget-view+json'])
    .filter(Boolean).map((d) => d.model_id) : [];
}"""


# ----------------------------------------------------------------------------- helpers


def open_and_run(page, lab: JupyterServer, nb: str, timings: dict, *, kernel: str) -> None:
    """Open `nb` (relative to the server's root) in a kernel of the kernelspec `kernel`, wait until the kernel
    has settled, clear the outputs and Run All; return when every cell has run or one has raised.
    The seconds to the page, to the kernel and to the end go into `timings`."""
    t0 = time.monotonic()
    lab.start_session(nb, kernel=kernel)
    page.goto(lab.lab_url(nb))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=KERNEL_TIMEOUT_MS)
    timings["page_s"] = round(time.monotonic() - t0, 2)
    # Kernel up, idle, and its start-up chatter with JupyterLab over (it passes through idle while starting).
    wait_kernel_settled(page, nb, timeout_ms=KERNEL_TIMEOUT_MS)
    timings["kernel_s"] = round(time.monotonic() - t0, 2)
    # Saved outputs (and their stale widget views) go; execution counts are cleared with them.
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    cells = page.evaluate(JS_CELLS)
    assert all(c["count"] is None for c in cells if c["type"] == "code"), f"{nb}: outputs not cleared"
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    n_code = sum(c["type"] == "code" for c in cells)
    page.wait_for_function(
        """([path, n]) => {
          const w = window.jupyterapp.shell.currentWidget;
          const prompts = [...w.content.node.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
          const k = w.sessionContext.session.kernel;
          if (k.status !== 'idle' || prompts.some((p) => p.textContent.includes('*'))) return false;
          if (prompts.length === n && prompts.every((p) => /^\\[\\d+\\]/.test(p.textContent.trim()))) return true;
          // Run-all stops at a cell that raises: done too, the checks below report the error.
          return w.content.widgets.some((c) => c.model.type === 'code'
                 && c.model.outputs.toJSON().some((o) => o.output_type === 'error'));
        }""",
        arg=[nb, n_code],
        timeout=RUN_TIMEOUT_MS,
        polling=100,
    )


def check_outputs(page, nb: str) -> None:
    problems = []
    cells = page.evaluate(JS_CELLS)
    code = [c for c in cells if c["type"] == "code"]
    counts = [c["count"] for c in code]
    if counts != list(range(1, len(code) + 1)):
        problems.append(f"execution counts {counts}, expected 1..{len(code)} (cells ran out of order or not at all)")
    for i, c in enumerate(cells):
        for out in c["outputs"]:
            if out.get("output_type") == "error":
                problems.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
            elif out.get("output_type") == "stream" and out.get("name") == "stderr":
                text = "".join(out.get("text", ""))
                problems.append(f"cell {i}: stderr: {text[:500]}")
    for text in page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
    ).all_inner_texts():
        if "Traceback" in text or "Error" in text:
            problems.append(f"error shown on the page: {text[:500]}")
    assert not problems, f"{nb}:\n" + "\n".join(problems)


def check_widgets_rendered(page, nb: str) -> None:
    try:
        page.wait_for_function(
            "() => !document.body.innerText.includes('Loading widget')", timeout=WIDGET_TIMEOUT_MS, polling=100
        )
    except PlaywrightTimeoutError as exc:
        body = page.locator("body").inner_text()
        raise AssertionError(f"{nb}: a widget never loaded: " + _around(body, "Loading widget")) from exc
    body = page.locator("body").inner_text()
    assert "Error displaying widget" not in body, f"{nb}: " + _around(body, "Error displaying widget")
    # Every widget-view output holds a rendered widget.
    empty = page.evaluate(
        """() => [...document.querySelectorAll(
              '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.widget-view+json"]')]
            .filter((o) => !o.querySelector('.jupyter-widgets')).length"""
    )
    assert empty == 0, f"{nb}: {empty} widget output(s) rendered nothing"


def _around(text: str, needle: str, width: int = 200) -> str:
    i = text.find(needle)
    return text[max(0, i - width) : i + width]


def _state(el) -> dict:
    return el.evaluate(JS_STATE)


def _wait_src_change(page, el, src: str, what: str, readout: str | None = None) -> None:
    """Wait until the picture changed (and the readout too, when `readout`, the words before, is given)."""
    try:
        page.wait_for_function(
            JS_SRC_CHANGED, arg=[el.element_handle(), src, readout], timeout=WIDGET_TIMEOUT_MS, polling=20
        )
    except PlaywrightTimeoutError as exc:
        words = "" if readout is None else " and its readout"
        raise AssertionError(f"{what}: the picture{words} did not change within {WIDGET_TIMEOUT_MS} ms") from exc


def _step_sends_only_k(page, player, click, what: str, ledger: dict) -> dict:
    """Click (a function), wait for the new frame, and check what went to the kernel since `ledger` began
    (`JS_COUNT_SENT`): comm updates of ``k`` alone, at most one a step so far. Counted over the steps, not one by
    one: while the kernel is busy ipywidgets holds a step's message back and sends it during the next step (in CI a
    Step's window held Reset's k and its own). Returns the state after."""
    before = player.evaluate(JS_DRAWN)
    ledger["steps"] += 1
    click()
    page.wait_for_function(f"([el, k]) => ({JS_DRAWN})(el).k !== k", arg=[player.element_handle(), before["k"]],
                           timeout=WIDGET_TIMEOUT_MS, polling=10)
    page.wait_for_timeout(150)  # what a step would send after its frame has had time to go
    sent = page.evaluate(JS_SENT)
    other = [m for m in sent if not (m["type"] == "comm_msg" and m["method"] == "update" and m["keys"] == ["k"])]
    assert not other and len(sent) <= ledger["steps"], (
        f"{what}: {ledger['steps']} steps sent the kernel {sent}, not one update of k a step")
    return player.evaluate(JS_DRAWN)


def check_browser_player(page, nb: str, i: int, player) -> list[str]:
    """Step, Back, Play and Pause on the `i`-th browser player, counting the messages to the kernel; then the
    kernel's k and words against the page's. The notes to keep."""
    import json

    where = f"{nb}: browser player {i}"
    player.scroll_into_view_if_needed()
    s0 = player.evaluate(JS_DRAWN)
    assert s0["kmax"] > 0, f"{where}: the run has no update to step through (K = 0)"
    assert s0["name"] and len(s0["name"]) > 15, f"{where}: the picture has no accessible name"
    ledger = {"steps": 0}
    page.evaluate(JS_COUNT_SENT)
    if s0["k"] > 0:
        s0 = _step_sends_only_k(page, player, _button_any(player, "Reset").click, f"{where}: Reset", ledger)
    s1 = _step_sends_only_k(page, player, _button_any(player, "Step").click, f"{where}: Step", ledger)
    assert s1["k"] == s0["k"] + 1 and s1["svg"] != s0["svg"] and s1["readout"] != s0["readout"], (
        f"{where}: Step moved k from {s0['k']} to {s1['k']} (picture changed: {s1['svg'] != s0['svg']}, "
        f"words changed: {s1['readout'] != s0['readout']})"
    )
    assert s1["name"] != s0["name"], f"{where}: the picture's name did not follow the step"
    s2 = _step_sends_only_k(page, player, _button_any(player, "Back").click, f"{where}: Back", ledger)
    assert s2["k"] == s0["k"], f"{where}: Back went to k = {s2['k']}, not {s0['k']}"
    assert s2["svg"] == s0["svg"], f"{where}: Back did not restore the same SVG"
    assert s2["readout"] == s0["readout"] and s2["name"] == s0["name"], f"{where}: Back did not restore the words"
    player.locator(".pp-picture").focus()
    for key, want in (("ArrowRight", s0["k"] + 1), ("ArrowLeft", s0["k"])):
        s = _step_sends_only_k(page, player, lambda k=key: page.keyboard.press(k), f"{where}: {key}", ledger)
        assert s["k"] == want, f"{where}: {key} with the focus on the picture went to k = {s['k']}, not {want}"
    # Play: the browser's timer steps; every message it sends is an update of k.
    page.evaluate(JS_COUNT_SENT)
    _button_any(player, "Play").click()
    # two steps, or to the end of a shorter run (an editor may start with one update)
    page.wait_for_function(f"([el, k]) => ({JS_DRAWN})(el).k >= k", arg=[player.element_handle(),
                           min(s0["k"] + 2, s0["kmax"])], timeout=PLAY_TIMEOUT_MS, polling=20)
    if player.evaluate(JS_DRAWN)["playing"]:
        _button_any(player, "Pause").click()
    played = player.evaluate(JS_DRAWN)
    page.wait_for_timeout(1200)  # two ticks at the default speed: nothing may happen after Pause
    assert player.evaluate(JS_DRAWN)["k"] == played["k"], f"{where}: the picture kept stepping after Pause"
    sent = page.evaluate(JS_SENT)
    steps = played["k"] - s0["k"]
    bad = [m for m in sent if not (m["type"] == "comm_msg" and m["keys"] == ["k"])]
    assert not bad and len(sent) <= steps, f"{where}: playing {steps} steps sent the kernel {sent}"
    # The kernel followed: its k is the page's, and its readout (the library's words) is the one shown.
    ids = player.evaluate(JS_MODEL_IDS)
    said = json.loads(page.evaluate(JS_KERNEL_SAYS).strip().splitlines()[-1])
    mine = [p for p in said if p["model"] in ids]
    assert len(mine) == 1, f"{where}: the kernel has {len(said)} browser players, {len(mine)} of them this one"
    shown = player.evaluate(JS_DRAWN)
    assert mine[0]["k"] == shown["k"], f"{where}: the kernel's k is {mine[0]['k']}, the page shows {shown['k']}"
    assert shown["lines"] == mine[0]["lines"], (
        f"{where}: the page shows {shown['lines']!r}, the library says {mine[0]['lines']!r}"
    )
    return [f"browser player {i}: k {s0['k']} -> {s1['k']} -> {s2['k']}, keys, played {steps} steps with "
            f"{len(sent)} messages (all k), kernel at k = {mine[0]['k']}"]


def _button_any(player, name: str):
    return player.locator("button").filter(has_text=re.compile(rf"^\s*{name}\s*$")).first


def check_livefigure(page, nb: str, i: int, live) -> list[str]:
    """ArrowRight (ArrowLeft at the end) on the `i`-th live figure's first slider changes its picture."""
    where = f"{nb}: live figure {i}"
    live.scroll_into_view_if_needed()
    s0 = _state(live)
    assert s0["src"] and s0["hash"], f"{where}: no picture"
    handle = live.locator(".widget-slider .noUi-handle").first
    if handle.count() == 0:
        return [f"live figure {i}: no slider to nudge (not checked)"]
    at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
    handle.focus()
    handle.press("ArrowLeft" if at_max else "ArrowRight")
    _wait_src_change(page, live, s0["src"], f"{where}: slider nudge")
    s1 = _state(live)
    assert s1["hash"] != s0["hash"], f"{where}: nudging the slider gave the same picture bytes"
    return [f"live figure {i}: slider nudged, picture changed"]


MAX_SHOT_HEIGHT = 12_000  # px per browser screenshot; taller notebooks are shot in parts and stitched


def screenshot(page, stem: str) -> Path:
    """The whole notebook in one picture: side areas collapsed, the window as tall as the notebook.

    Past MAX_SHOT_HEIGHT the notebook is scrolled and shot in parts, which are stitched.
    """
    page.evaluate("window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight()")
    js_scroll = """(top) => {
      const nb = window.jupyterapp.shell.currentWidget.content.node;
      const el = nb.querySelector('.jp-WindowedPanel-outer') || nb;
      el.scrollTop = top;
      const r = el.getBoundingClientRect();
      return {top: el.scrollTop, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight,
              x: r.left, y: r.top, width: r.width, height: r.height};
    }"""
    m = page.evaluate(js_scroll, 0)
    old = page.viewport_size["height"]
    new = int(min(old + max(0, m["scrollHeight"] - m["clientHeight"]), MAX_SHOT_HEIGHT))
    page.set_viewport_size({"width": 1280, "height": new})
    # the bars around the notebook keep their heights: its view grows by as much as the window
    page.wait_for_function(JS_VIEW_HEIGHT, arg=m["clientHeight"] + new - old)
    m = page.evaluate(js_scroll, 0)
    out = ARTIFACTS / f"{stem}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    if m["scrollHeight"] <= m["clientHeight"] + 1:
        page.screenshot(path=str(out), full_page=True)
        return out

    import io

    from PIL import Image

    clip = {"x": m["x"], "y": m["y"], "width": m["width"], "height": m["height"]}
    parts = [Image.open(io.BytesIO(page.screenshot(clip={**clip, "x": 0, "width": 1280, "y": 0,
                                                          "height": m["y"] + m["height"]})))]  # fmt: skip
    shown = m["clientHeight"]  # notebook pixels already in the picture
    while shown < m["scrollHeight"]:
        m = page.evaluate(js_scroll, shown)  # a screenshot waits for the next frame: the scrolled one
        img = Image.open(io.BytesIO(page.screenshot(clip=clip)))
        new = m["top"] + m["clientHeight"] - shown  # the rows not shown before, at the bottom
        if new <= 0:
            break
        scale = img.height / m["height"]
        img = img.crop((0, img.height - round(new * scale), img.width, img.height))
        full = Image.new("RGB", (1280, img.height), "white")
        full.paste(img, (round(m["x"]), 0))
        parts.append(full)
        shown += new
    total = Image.new("RGB", (1280, sum(p.height for p in parts)), "white")
    y = 0
    for part in parts:
        total.paste(part, (0, y))
        y += part.height
    total.save(out)
    return out
