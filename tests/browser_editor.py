"""The student's own points, in Chromium (tests/test_browser.py runs these checks on every lesson that shows a
``BrowserEditor``, on its first editor, and on lesson 03 in the app view). The editor is drawn in SVG by the
browser and read through `JS_SHOWN`: each edit is followed until the library's run is drawn (``data-run``
"library"), and "the same picture" is the same SVG.

`check_click_undo`: a real click on the picture adds a point, Undo gives back the same picture and words, Redo the
picture after the click. `check_drag_alt_click`: a real drag moves a point, alt-click removes it.
`check_keyboard_add`: the keyboard route ("Keyboard cursor", Enter at the cursor) adds one, Delete removes it.
`axe_serious`: axe-core finds nothing serious in an editor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "editor"
#: A `BrowserEditor`'s root.
SELECTOR = ".perceptron-browsereditor"


def check_click_undo(page, editor, where: str) -> dict:
    """A click on an empty spot adds a point; Undo gives back the words and the same picture, Redo the picture
    after the click, Undo again the start. Returns the state at the start."""
    return _svg_click_undo(page, editor, where)


def check_drag_alt_click(page, editor, where: str) -> None:
    """A real drag moves a point (pressed on its centre, released on another empty spot); alt-click on it
    removes it. The point is one placed here first, so its centre is known."""
    _svg_drag_alt_click(page, editor, where)


def check_keyboard_add(page, editor, where: str) -> None:
    """Keyboard only: "Keyboard cursor", then Enter on the picture adds a point at the cursor; Delete removes it."""
    _svg_keyboard_add(page, editor, where)


def axe_serious(page, editor) -> list[str]:
    """The serious and critical axe-core (WCAG 2 A, AA) violations inside `editor`, one line per element."""
    import axe_playwright_python

    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate(
        """(el) => axe.run(el, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})""", editor.element_handle()
    )
    return [
        f"{v['id']} ({v['impact']}): {n['target']} - {v['help']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for n in v["nodes"]
    ]


def shows_editor(path: Path) -> bool:
    """Whether the notebook at `path` makes a ``BrowserEditor`` (then the page must show a `SELECTOR`)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return any(c["cell_type"] == "code" and re.search(r"\bBrowserEditor\(", "".join(c["source"]))
               for c in nb["cells"])


def screenshot(editor, stem: str) -> None:
    """The editor's picture and controls, to ``ARTIFACTS/stem-editor.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    editor.screenshot(path=str(ARTIFACTS / f"{stem}-editor.png"))


#: What a `BrowserEditor` shows: its points (the markers' centres, page px), the data panel's plot box, the readout,
#: the message, whose run is drawn, the step, and the data panel's SVG with its per-page ids made plain.
JS_SHOWN = """(el) => {
  const centre = (e) => { const r = e.getBoundingClientRect();
                          return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
  const plot = el.querySelector('.pp-axes rect').getBoundingClientRect();
  const svg = el.querySelector('svg');
  const points = [...el.querySelectorAll('path.pp-point')].map(centre);
  return {points, count: points.length,
          plot: [plot.left, plot.top, plot.right, plot.bottom], run: el.dataset.run,
          readout: [...el.querySelectorAll('.pp-readout p')].map((p) => p.textContent).join('\\n'),
          message: el.querySelector('.pe-message').textContent,
          svg: svg ? svg.outerHTML.replace(/(clip|editor)-\\d+/g, '$1-N') : '',
          title: el.querySelector('.pp-picture').getAttribute('aria-label') || ''};
}"""


def _shown_wait(page, editor, condition: str, where: str, timeout=15_000) -> dict:
    """Wait until `condition` (JavaScript over ``s``, `JS_SHOWN`) holds with the library's run drawn; returns s."""
    try:
        page.wait_for_function(
            f"(el) => {{ const s = ({JS_SHOWN})(el); return s.run === 'library' && ({condition}); }}",
            arg=editor.element_handle(), timeout=timeout, polling=30)
    except PlaywrightTimeoutError as exc:
        state = {k: v for k, v in editor.evaluate(JS_SHOWN).items() if k != "svg"}
        raise AssertionError(f"{where}: waited for {condition} and the library's run; state {state}") from exc
    return editor.evaluate(JS_SHOWN)


def _svg_spot(shown, away=25.0) -> tuple:
    """A spot in the data panel's plot at least `away` px from every marker."""
    x0, y0, x1, y1 = shown["plot"]
    for fy in (0.45, 0.3, 0.7, 0.55, 0.2, 0.8, 0.35, 0.65):
        for fx in (0.5, 0.7, 0.3, 0.6, 0.2, 0.8, 0.4):
            x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
            if all((x - px) ** 2 + (y - py) ** 2 > away**2 for px, py in shown["points"]):
                return x, y
    raise AssertionError("no empty spot in the data panel")


def _svg_click_undo(page, editor, where: str) -> dict:
    editor.locator(".pp-picture").scroll_into_view_if_needed()
    s0 = _shown_wait(page, editor, "true", f"{where}: the editor's first run")
    assert s0["count"] > 0, f"{where}: the editor shows no points"
    assert "click" in s0["title"].lower(), f"{where}: the picture's name does not say what a click does"
    page.mouse.click(*_svg_spot(s0))
    s1 = _shown_wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Added point')",
                     f"{where}: click")
    assert s1["svg"] != s0["svg"], f"{where}: the picture did not change after a click"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    s2 = _shown_wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo")
    assert s2["readout"] == s0["readout"], f"{where}: Undo did not give back the words"
    assert s2["svg"] == s0["svg"], f"{where}: Undo did not give back the same picture"
    editor.locator("button", has_text=re.compile(r"^\s*Redo\s*$")).click()
    s3 = _shown_wait(page, editor, f"s.count === {s0['count'] + 1} && s.message.startsWith('Redone')",
                     f"{where}: Redo")
    assert s3["svg"] == s1["svg"] and s3["readout"] == s1["readout"], f"{where}: Redo did not give back the picture"
    editor.locator("button", has_text=re.compile(r"^\s*Undo\s*$")).click()
    _shown_wait(page, editor, f"s.count === {s0['count']} && s.message.startsWith('Undone')", f"{where}: Undo again")
    return s0


def _svg_drag_alt_click(page, editor, where: str) -> None:
    s0 = _shown_wait(page, editor, "true", f"{where}: before the drag")
    n = s0["count"]
    x, y = _svg_spot(s0)
    page.mouse.click(x, y)
    s1 = _shown_wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Added point')",
                     f"{where}: add to drag")
    x, y = s1["points"][n]  # the new point as the page lays it out now (the words beside it may have moved it)
    x2, y2 = _svg_spot(s1)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + x2) / 2, (y + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    s2 = _shown_wait(page, editor, f"s.count === {n + 1} && s.message.startsWith('Moved point')", f"{where}: drag")
    moved = s2["points"][n]  # the point where it was dropped, as the page lays it out now
    page.keyboard.down("Alt")
    page.mouse.click(*moved)
    page.keyboard.up("Alt")
    s3 = _shown_wait(page, editor, f"s.count === {n} && s.message.startsWith('Removed point')", f"{where}: alt-click")
    assert s3["readout"].partition("Your data")[2] == s0["readout"].partition("Your data")[2], (
        f"{where}: the drag moved another point than the one placed to drag: {s0['readout']!r} then {s3['readout']!r}")


def _svg_keyboard_add(page, editor, where: str) -> None:
    s0 = _shown_wait(page, editor, "true", f"{where}: before the keyboard")
    n = s0["count"]
    page.mouse.move(1, 1)  # the pointer off the picture
    editor.locator("button", has_text="Keyboard cursor").focus()
    page.keyboard.press("Space")
    add = editor.locator("button", has_text="Add here")
    add.wait_for(state="visible", timeout=10_000)
    editor.locator(".pp-picture").focus()
    page.keyboard.press("Enter")
    for _ in range(6):  # the centre was taken: move the cursor from the keyboard, and add again
        if editor.evaluate(JS_SHOWN)["count"] == n + 1:
            break
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Enter")
    _shown_wait(page, editor, f"s.count === {n + 1}", f"{where}: Enter at the cursor")
    page.keyboard.press("Delete")
    s2 = _shown_wait(page, editor, f"s.count === {n}", f"{where}: Delete at the cursor")
    page.keyboard.press("Escape")
    assert s2["readout"].partition("Your data")[2] == s0["readout"].partition("Your data")[2], (
        f"{where}: Delete removed another point than the one the cursor added")
