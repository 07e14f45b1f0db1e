"""The student's own points, in Chromium: a real click on the picture adds a point, Undo gives back the
same picture and words, the keyboard route adds one too, and axe-core finds nothing serious in an editor.

For lessons 03, 04 and 05 in JupyterLab (their first editor: the main player of the lesson), and for
lesson 03 in the app view (Voila with the course template, as `make app NB=03` serves it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser_support import jupyter_server, open_and_run_all, require_browser, served_copy

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "editor"
LESSONS = ["03_hyperplane_updates.ipynb", "04_margin_bound.ipynb", "05_kernel_lifting.ipynb"]
TIMEOUT_MS = 180_000

JS_HASH = """async (el) => { const img = el.querySelector('img.widget-image');
  const buf = await (await fetch(img.src)).arrayBuffer();
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
  return Array.from(d).map((b) => b.toString(16).padStart(2, '0')).join(''); }"""

JS_STATE = """(el) => {
  const img = el.querySelector('img.widget-image');
  const ro = el.querySelector('.perceptron-readout');
  const msg = el.querySelector('.perceptron-edit-message');
  const m = ro ? /Your data: (\\d+) point/.exec(ro.innerText) : null;
  return {count: m ? Number(m[1]) : -1, readout: ro ? ro.innerText : '', src: img ? img.src : '',
          title: img ? img.title : '', message: msg ? msg.innerText : ''};
}"""




@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = served_copy(tmp_path_factory.mktemp("served-editor"))
    with jupyter_server(root) as server:
        yield server




def _wait(page, editor, condition: str, where: str, timeout=15_000):
    try:
        page.wait_for_function(f"(el) => {{ const s = ({JS_STATE})(el); return {condition}; }}",
                               arg=editor.element_handle(), timeout=timeout, polling=30)
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"{where}: waited for {condition}; state {editor.evaluate(JS_STATE)}") from exc


#: The search for an empty spot runs in the page: the picture's pixels (millions of numbers at 2x)
#: never cross to Python. The candidates are fractions of the main (left) panel, centre first.
JS_EMPTY_SPOT = """(img) => {
  const w = img.naturalWidth, h = img.naturalHeight;
  const c = document.createElement('canvas'); c.width = w; c.height = h;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  const px = g.getImageData(0, 0, w, h).data;
  const css = img.getBoundingClientRect().width;
  const panelW = css < 700 ? w : w / 2;  // one panel or two side by side
  const r = Math.round(6 * w / css);  // 6 CSS px around the spot, at any pixel density
  const white = (x, y) => {
    for (let dy = -r; dy <= r; dy += Math.max(1, r >> 1))
      for (let dx = -r; dx <= r; dx += Math.max(1, r >> 1)) {
        const i = 4 * ((y + dy) * w + (x + dx));
        if (Math.min(px[i], px[i + 1], px[i + 2]) < 235) return false;
      }
    return true;
  };
  for (const fy of [0.45, 0.35, 0.55, 0.3, 0.6, 0.25, 0.65])
    for (const fx of [0.5, 0.4, 0.6, 0.3, 0.7, 0.35, 0.65]) {
      const x = Math.floor(fx * panelW), y = Math.floor(fy * h);
      if (white(x, y)) return {fx: x / w, fy: y / h};
    }
  return null;
}"""


def _empty_spot(editor):
    """A point of the picture (page coordinates) inside the main axes and away from every data point:
    the first spot of a coarse grid over the left panel whose pixels around it are plain background."""
    img = editor.locator("img.widget-image").first
    box = img.bounding_box()
    spot = img.evaluate(JS_EMPTY_SPOT)
    if spot is None:
        raise AssertionError("no empty spot found in the main panel")
    return box["x"] + spot["fx"] * box["width"], box["y"] + spot["fy"] * box["height"]


def _click_adds_and_undo_restores(page, editor, where: str) -> dict:
    editor.scroll_into_view_if_needed()
    s0 = editor.evaluate(JS_STATE)
    h0 = editor.evaluate(JS_HASH)
    assert s0["count"] > 0, f"{where}: the readout does not count the points: {s0['readout']!r}"
    assert "click" in s0["title"].lower(), f"{where}: the picture's alt/title does not say a click adds a point"
    x, y = _empty_spot(editor)
    page.mouse.click(x, y)
    _wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Added point')", f"{where}: click")
    h1 = editor.evaluate(JS_HASH)
    assert h1 != h0, f"{where}: the picture did not change after a click"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    _wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo")
    s2 = editor.evaluate(JS_STATE)
    assert s2["readout"] == s0["readout"], f"{where}: Undo did not give back the words"
    assert editor.evaluate(JS_HASH) == h0, f"{where}: Undo did not give back the same picture bytes"
    editor.locator("button", has_text=re.compile(r"^\s*Redo\s*$")).click()
    _wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Redone')", f"{where}: Redo")
    assert editor.evaluate(JS_HASH) == h1, f"{where}: Redo did not give back the same picture bytes"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    _wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo again")
    return s0


def _drag_moves_and_alt_click_removes(page, editor, where: str) -> None:
    """A real drag moves a point (pressed on its centre, released on another empty spot); alt-click on it
    removes it. The point is one placed here first, so its centre is known."""
    n = editor.evaluate(JS_STATE)["count"]
    x, y = _empty_spot(editor)
    page.mouse.click(x, y)
    _wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Added point')", f"{where}: add to drag")
    x2, y2 = _empty_spot(editor)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + x2) / 2, (y + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    _wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Moved point')", f"{where}: drag")
    page.keyboard.down("Alt")
    page.mouse.click(x2, y2)
    page.keyboard.up("Alt")
    _wait(page, editor, f"s.count === {n} && s.message.startsWith('Removed point')", f"{where}: alt-click")


def _keyboard_adds(page, editor, where: str) -> None:
    n = editor.evaluate(JS_STATE)["count"]
    toggle = editor.locator("button", has_text="Keyboard cursor")
    page.mouse.move(1, 1)  # the pointer off the picture: while it is on it, the picture takes every key
    toggle.focus()
    page.keyboard.press("Space")  # a button's own key (JupyterLab keeps Enter for its command mode)
    add = editor.locator("button", has_text="Add here")
    add.wait_for(state="visible", timeout=10_000)
    # keyboard only: Tab from the cursor's sliders to "Add here", Space
    add.focus()
    page.keyboard.press("Space")
    _wait(page, editor, f"s.count === {n + 1} || s.message.startsWith('Not done')", f"{where}: Add here")
    state = editor.evaluate(JS_STATE)
    if state["count"] == n:  # the centre was taken: move the cursor from the keyboard, then add
        slider = editor.locator(".widget-slider .noUi-handle").first
        slider.focus()
        for _ in range(8):
            page.keyboard.press("ArrowRight")
        add.focus()
        page.keyboard.press("Space")
        _wait(page, editor, f"s.count === {n + 1}", f"{where}: Add here after moving the cursor")
    # with the pointer on the picture, the arrow keys move the cursor and Delete removes the nearest point
    editor.locator("img.widget-image").first.hover()
    page.keyboard.press("Delete")
    _wait(page, editor, f"s.count === {n}", f"{where}: Delete on the picture")


def _axe(page, editor) -> list[str]:
    import axe_playwright_python

    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate("""(el) => axe.run(el, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})""",
                           editor.element_handle())
    return [f"{v['id']} ({v['impact']}): {n['target']} - {v['help']}" for v in result["violations"]
            if v["impact"] in ("serious", "critical") for n in v["nodes"]]


@pytest.mark.parametrize("nb", LESSONS)
def test_editor_in_jupyterlab(lab, chromium, nb):
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        open_and_run_all(page, lab, f"notebooks/{nb}", timeout_ms=TIMEOUT_MS)
        editor = page.locator(".perceptron-editor").first
        editor.wait_for(timeout=30_000)
        _click_adds_and_undo_restores(page, editor, nb)
        _drag_moves_and_alt_click_removes(page, editor, nb)
        _keyboard_adds(page, editor, nb)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        editor.screenshot(path=str(ARTIFACTS / f"{nb[:2]}-editor.png"))
        found = _axe(page, editor)
        assert not found, f"{nb}: axe-core found serious problems in the editor:\n" + "\n".join(found)
    finally:
        context.close()
        lab.shutdown_kernels()  # through the server's REST API: done when it returns


def test_editor_in_the_app_view(chromium, tmp_path):
    root = served_copy(tmp_path)
    env = {"JUPYTER_PATH": str(REPO / "tools" / "jupyter")}
    with jupyter_server(root / "notebooks", app="voila", env=env, extra_args=["--template=course_app"],
                        timeout=90) as srv:
        page = chromium.new_page(viewport={"width": 1280, "height": 720})
        try:
            page.goto(srv.voila_url(LESSONS[0]), timeout=240_000)
            editor = page.locator(".perceptron-editor").first
            editor.wait_for(timeout=240_000)
            page.wait_for_function(f"(el) => ({JS_STATE})(el).count > 0", arg=editor.element_handle(),
                                   timeout=60_000)
            _click_adds_and_undo_restores(page, editor, "app 03")
        finally:
            page.close()
