"""On a phone, lesson 05's lifted view sits right under the picture and its Step button (``front/side.js``
`fitColumn`'s ``wrapped``, ``player.js``), in Chromium with the model stand-in of ``test_browser_player_front``.

In the notebook preset the lifted view goes after the readout in the column beside the picture (`panelPlaces`:
``underReadout``), so that the readout's headline stays in view beside the picture on a desktop. On a phone
(390x844, touch, device pixel ratio 3) that column wraps under the picture, and the readout (7-8 lines) stood
between the picture, with Step at its top, and the 3-D view: a student could not press Step and watch the plane move
in the bowl (tester 3, item 11). There the player now puts the lifted view first in the column, right under the
picture and its legend, the readout after it: the whole bowl within one screen of Step. At 1440x900 the column
stands beside the picture and keeps its order (readout, then the lifted view). The column follows the widget's
width both ways, keeps the focus of a control it moves, and its page order is the order seen (Tab goes down the
page). Checked on the plain player and on lesson 05's editor of lifted points; a screenshot of each layout goes to
``tests/artifacts/phone/lifted-<widget>-<width>.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from perceptron_lib.player.browser_editor import BrowserEditor
from tests.test_browser_editor_front import MOUNT_EDITOR, wire
from tests.test_browser_editor_lifted import _editor
from tests.test_browser_player_front import front_page
from tests.test_lifted_front import _lifted_player_trait

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
GAP = 16  # CSS px between the figure and the column (`.pp-body`'s gap)
SHOTS = Path(__file__).parent / "artifacts" / "phone"  # a screenshot of each layout measured, to look at

JS_BOXES = """() => {
  const w = document.querySelector('#widget');
  const box = (e) => { const b = e.getBoundingClientRect(); return {left: b.left, top: b.top, right: b.right,
    bottom: b.bottom}; };
  const one = (sel) => box(w.querySelector(sel));
  const step = [...w.querySelectorAll('.pp-controls button')].find((b) => b.textContent === 'Step');
  const focusable = 'button, input, select, textarea, [href], [tabindex]:not([tabindex="-1"])';
  return {
    step: box(step), picture: one('.pp-picture'), figure: one('.pp-figure'), readout: one('.pp-readout'),
    lifted: one('.pl-lifted'), bowl: one('.pl-lifted .pl-bowl-front'), plane: one('.pl-lifted .pl-plane'),
    column: [...w.querySelector('.pp-side').children].map((c) => c.className),
    readoutMin: w.querySelector('.pp-readout').style.minHeight,
    stops: [...w.querySelectorAll(focusable)].filter((e) => e.checkVisibility() && !e.disabled)
      .map((e) => ({name: e.getAttribute('aria-label') ?? e.textContent, ...box(e)})),
  };
}"""


def _settle(page):
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _boxes(page):
    _settle(page)
    return page.evaluate(JS_BOXES)


def _mount_player(page):
    page.evaluate("(run) => window.mount({run, k: 2, interval_ms: 500})", _lifted_player_trait("05 rings"))


def _mount_editor(page):
    state = {**_editor().get_state(), "k": 2}  # a step with a plane in the bowl
    page.evaluate(MOUNT_EDITOR)
    page.evaluate("(s) => window.mount(s)", {name: wire(state[name]) for name in (
        "run", "k", "interval_ms", "points", "lesson", "settings", "options")})


WIDGETS = {"player": (None, _mount_player), "editor": (BrowserEditor._esm, _mount_editor)}


def _page(chromium, widget, viewport, touch):
    esm, mount = WIDGETS[widget]
    pages = front_page(chromium, esm=esm, touch=touch, check_errors=True, **viewport)
    page = next(pages)
    mount(page)
    return page, pages


def _close(pages):
    next(pages, None)  # front_page's end: no page error, then its context closed


def _tab_order_is_the_order_seen(m):
    """Each Tab stop after the first is on the same row as the one before or lower (none comes back up the page)."""
    stops = m["stops"]
    for a, b in zip(stops, stops[1:], strict=False):
        assert b["bottom"] > a["top"] + 1, f"Tab goes from {a['name']!r} up to {b['name']!r}: {stops}"


@pytest.mark.parametrize("widget", list(WIDGETS))
def test_on_a_phone_the_lifted_view_is_right_under_the_picture_and_step(chromium, widget):
    page, pages = _page(chromium, widget, PHONE, touch=True)
    try:
        m = _boxes(page)
    finally:
        page.screenshot(path=str(SHOTS / f"lifted-{widget}-390.png"), full_page=True)
        _close(pages)
    assert m["lifted"]["top"] >= m["picture"]["bottom"], f"the column stands beside the picture on a phone: {m}"
    # nothing between the picture's legend (and an editor's folded parts) and the lifted view
    assert m["lifted"]["top"] <= m["figure"]["bottom"] + GAP + 1, m
    assert m["column"][0] == "pl-lifted" and m["readout"]["top"] >= m["lifted"]["bottom"], m
    # the screen that shows Step at its top shows the view's title and 200 px of the view under it (before: the
    # readout between, 151 px lower in the player, 272 in the editor); in the plain player the whole bowl and plane
    # (an editor has its message, its legend and its folded parts under the picture as well: the plane's lower part
    # is under that screen)
    assert m["lifted"]["top"] - m["step"]["top"] <= PHONE["height"] - 200, m
    if widget == "player":
        assert max(m["bowl"]["bottom"], m["plane"]["bottom"]) - m["step"]["top"] <= PHONE["height"], m
    assert m["readoutMin"] == "", "the readout's kept height is for a panel under it; here nothing is"
    _tab_order_is_the_order_seen(m)


@pytest.mark.parametrize("widget", list(WIDGETS))
def test_on_a_desktop_the_lifted_view_stays_beside_the_picture_under_the_readout(chromium, widget):
    page, pages = _page(chromium, widget, DESKTOP, touch=False)
    try:
        m = _boxes(page)
        tops = [m["lifted"]["top"]]
        for name in ("End", "Reset", "Step"):  # the run's end (its longest readout), its start, update 1
            page.get_by_role("button", name=name, exact=True).first.click()
            _settle(page)
            tops.append(page.evaluate("() => document.querySelector('#widget .pl-lifted').getBoundingClientRect().top"))
    finally:
        page.screenshot(path=str(SHOTS / f"lifted-{widget}-1440.png"), full_page=True)
        _close(pages)
    assert m["lifted"]["left"] >= m["picture"]["right"], m
    assert m["column"][-2:] == ["pp-readout", "pl-lifted"] and m["lifted"]["top"] >= m["readout"]["bottom"], m
    assert m["readout"]["top"] < m["picture"]["top"] + 60, "the readout's headline beside the picture's top"
    assert m["readoutMin"].endswith("px"), "the readout keeps its tallest step's height: the view under it stays"
    assert max(tops) - min(tops) < 1, f"the lifted view moved as k did: {tops}"


def test_the_column_follows_the_widths_both_ways_and_keeps_the_focus(chromium):
    """A window narrowed to a phone's width and widened again (a tablet turned, a split screen): the lifted view goes
    first in the column and back after the readout, and its focused slider keeps the focus through both moves."""
    page, pages = _page(chromium, "player", DESKTOP, touch=False)
    try:
        before = _boxes(page)
        page.focus("#widget .pl-lifted input[type=range]")
        page.set_viewport_size(PHONE)
        narrow = _boxes(page)
        focused_narrow = page.evaluate("() => document.activeElement.matches('.pl-lifted input[type=range]')")
        page.set_viewport_size(DESKTOP)
        wide = _boxes(page)
        focused_wide = page.evaluate("() => document.activeElement.matches('.pl-lifted input[type=range]')")
    finally:
        _close(pages)
    assert before["column"][-1] == "pl-lifted" and narrow["column"][0] == "pl-lifted", (before, narrow)
    assert narrow["lifted"]["top"] <= narrow["figure"]["bottom"] + GAP + 1, narrow
    assert {k: v for k, v in wide.items() if k != "stops"} == {k: v for k, v in before.items() if k != "stops"}
    assert focused_narrow and focused_wide


# the text of a player as shown: its buttons, readout, legend, the least SVG text of its pictures (CSS px, at the
# scale each picture is shown), and whether its keys' help shows
JS_TEXT = """() => {
  const w = document.querySelector('#widget .perceptron-browserplayer');
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const svgText = [...w.querySelectorAll('svg[width]')].flatMap((svg) => {
    const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
    return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && t.checkVisibility())
      .map((t) => px(t) * scale);
  });
  const help = w.querySelector('.pp-keyhelp');
  const editKeys = document.querySelector('#widget .pe-keys');
  const edits = [...document.querySelectorAll('#widget .pe-row button')];  // an editor's own rows (none in a player)
  const turn = document.querySelector('#widget .pl-help');  // the lifted view's help (lesson 05's editor)
  return {narrow: w.classList.contains('pp-narrow'), buttons: Math.min(...[...w.querySelectorAll('.pp-controls button')]
    .map(px), ...edits.map(px)), readout: px(w.querySelector('.pp-readout')), legend: px(w.querySelector('.pp-legend')),
    svgText: Math.min(...svgText),
    keyHelp: (!!help && help.checkVisibility()) || (!!editKeys && editKeys.checkVisibility())
      || (!!turn && turn.innerText.includes('press')),
    turnHelp: turn ? [turn.innerText, px(turn)] : null,
    resized: [...w.querySelectorAll('svg text')].filter((t) => t.style.fontSize).length};
}"""


@pytest.mark.parametrize("widget", list(WIDGETS))
def test_on_a_phone_the_players_text_is_readable_and_says_no_keys(chromium, widget):
    """At 390x844 with touch (tester 3, items 12 and 23): the pictures' ticks were 7-8 CSS px (a 560 px scene shown at
    344), the buttons 12.35 px and the keys' help 11 px under a 16 px body. A narrow player (`scene.PHONE_PX`) shows
    every SVG text at 11 px or more, its buttons and readout at 16 px and its legend at 14; a touch-only screen (no
    hover, a coarse pointer) leaves out the keys' help. At 1440x900 nothing of that applies."""
    page, pages = _page(chromium, widget, PHONE, touch=True)
    try:
        _settle(page)
        phone = page.evaluate(JS_TEXT)
        page.screenshot(path=str(SHOTS / f"text-{widget}-390.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        _settle(page)
        wide = page.evaluate(JS_TEXT)
    finally:
        _close(pages)
    print(f"{widget}: phone {phone}, 1440 {wide}")
    assert phone["narrow"] and phone["svgText"] >= 11 - 0.05, phone
    assert min(phone["buttons"], phone["readout"]) >= 16 and phone["legend"] >= 14, phone
    assert not phone["keyHelp"], "the keys' help shows on a touch-only screen"
    if phone["turnHelp"]:  # the lifted view says how to turn it by touch, at a phone's size
        assert phone["turnHelp"][0] == "Turn the view: drag it." and phone["turnHelp"][1] >= 14, phone
    assert not wide["narrow"] and wide["buttons"] < 16 and wide["resized"] == 0, wide  # the page's own sizes there
