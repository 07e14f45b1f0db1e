"""The editor's picture stays put while its message line changes (``front/editor_ui.js`` keptHeight), in Chromium.

On a phone (390x844 CSS px, touch events, device pixel ratio 3) a message of another length above the picture moved
it by a line (about 22 px) between two taps, so that a second tap aimed where the first landed hit another spot (it
added a point instead of unselecting one). On a touch screen or a narrow editor the line now keeps the height of its
tallest message (the hint's three lines on a phone): the picture's top is the same after every message, short or
long, and a tap aimed once lands on its point every time. So does a wide editor with a mouse (the notebook preset's
layout, measured by tests/test_editor_fit.py: its messages take one line or two as the coordinates' digits go, and
the picture moved 18 px between two clicks, tester 6); the lecture's column beside the picture keeps no such height
(but in a deck, whose slide reveal.js centres by its height), and a resized editor measures again from the message
shown.
"""

from __future__ import annotations

import pytest

from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser_editor import BrowserEditor
from tests.test_browser_editor_front import MOUNT_EDITOR, TEN, _mount, _shown
from tests.test_browser_editor_touch import _beside, _empty, _screen
from tests.test_browser_player_front import front_page

pytestmark = pytest.mark.browser

NARROW_PX = 720  # a phone-like width: the editor's messages wrap to more lines under it

#: The line above the player, the height it keeps, the lines its message takes; the picture's top (page px).
JS_PLACE = """() => { const r = document.querySelector('#widget'), m = r.querySelector('.pe-message');
  const words = document.createRange();
  words.selectNodeContents(m);
  return {above: m.getBoundingClientRect().bottom <= r.querySelector('.pp-controls').getBoundingClientRect().top + 1,
          kept: m.style.minHeight, top: r.querySelector('.pp-picture').getBoundingClientRect().top + window.scrollY,
          lines: m.textContent ? new Set([...words.getClientRects()].map((q) => Math.round(q.top))).size : 0}; }"""


@pytest.fixture(scope="module")
def phone(chromium):
    for page in front_page(chromium, width=390, height=844, esm=BrowserEditor._esm, title="the editor on a phone",
                           check_errors=True, touch=True):
        page.evaluate(MOUNT_EDITOR)
        yield page


@pytest.fixture(scope="module")
def desk(chromium):
    for page in front_page(chromium, width=1000, height=900, esm=BrowserEditor._esm, title="the editor on a desk",
                           check_errors=True):
        page.evaluate(MOUNT_EDITOR)
        yield page


def _place(page) -> dict:
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate(JS_PLACE)


def test_on_a_phone_taps_with_messages_of_other_lengths_between_land_where_aimed(phone):
    _mount(phone, BrowserEditor(fit_perceptron(*TEN), *TEN))
    s0 = _shown(phone)
    start = _place(phone)
    assert start["above"] and start["kept"].endswith("px") and start["lines"] == 3, start  # the hint
    spot = _beside(phone, s0["X"], 3, 10)  # aimed once, at point 3 as the picture is now
    tops, lines = [start["top"]], []
    for i in range(3):
        phone.touchscreen.tap(*spot)  # selects point 3: a long message
        s = _shown(phone)
        assert s["message"].startswith("Point 3 selected"), (i, s["message"])
        lines.append(_place(phone)["lines"])
        tops.append(_place(phone)["top"])
        phone.touchscreen.tap(*spot)  # the same spot: unselects it, a short message
        assert _shown(phone)["message"] == "Point 3 no longer selected.", i
        lines.append(_place(phone)["lines"])
        tops.append(_place(phone)["top"])
        phone.touchscreen.tap(*_empty(phone, _shown(phone)["X"]))  # adds a point: a message of its own length
        assert _shown(phone)["message"].startswith("Added point"), i
        lines.append(_place(phone)["lines"])
        tops.append(_place(phone)["top"])
        phone.tap("#widget button:text-is('Undo')")  # back to the ten points ('Undone. ...')
        tops.append(_place(phone)["top"])
    assert set(lines) >= {1, 2}, f"the messages took {lines} lines: the test shows nothing"
    assert max(tops) - min(tops) < 0.5, f"the picture's top moved: {tops}"
    assert _screen(phone, [s0["X"][3]]).tolist() == _screen(phone, [_shown(phone)["X"][3]]).tolist()
    print(f"message lines {sorted(set(lines))}; the picture's top {min(tops):.1f}-{max(tops):.1f} px")


def test_an_editor_keeps_its_tallest_messages_height_narrow_or_wide(desk):
    _mount(desk, BrowserEditor(fit_perceptron(*TEN), *TEN))
    wide = _place(desk)
    assert wide["above"] and wide["kept"].endswith("px"), wide  # the notebook preset's layout, with a mouse
    for button in ("Clear", "Undo", "Redo", "Start again"):  # messages of other lengths
        desk.click(f"#widget button:text-is('{button}')")
        assert abs(_place(desk)["top"] - wide["top"]) < 0.5, button
    try:
        desk.set_viewport_size({"width": NARROW_PX - 100, "height": 900})
        narrow = _place(desk)
        assert narrow["kept"].endswith("px") and narrow["lines"] >= 2, narrow  # the hint's height, kept
        for button in ("Clear", "Undo", "Redo", "Start again"):  # shorter messages
            desk.click(f"#widget button:text-is('{button}')")
            assert abs(_place(desk)["top"] - narrow["top"]) < 0.5, button  # (layout's 1/64 px)
        # a message longer than any before (Copy's, without a clipboard here) moves the picture, once
        desk.click("#widget button:text-is('Copy points')")
        copied = _place(desk)
        assert copied["lines"] > narrow["lines"] and copied["top"] > narrow["top"] + 10, copied
        for button in ("Clear", "Undo", "Redo", "Start again"):  # Copy's message goes at the first
            desk.click(f"#widget button:text-is('{button}')")
            assert abs(_place(desk)["top"] - copied["top"]) < 0.5, button
    finally:
        desk.set_viewport_size({"width": 1000, "height": 900})
    desk.click("#widget button:text-is('Undo')")
    back = _place(desk)
    assert back["above"] and back["kept"].endswith("px"), back  # measured again at the new width


def test_a_lecture_editor_keeps_its_line_in_the_column_beside_the_picture_at_its_own_height(desk):
    _mount(desk, BrowserEditor(fit_perceptron(*TEN), *TEN, style="lecture"))
    try:
        desk.set_viewport_size({"width": NARROW_PX + 200, "height": 900})
        desk.click("#widget button:text-is('Clear')")
        got = desk.evaluate("""() => { const m = document.querySelector('#widget .pe-message');
          return [!!m.closest('.pp-side'), m.style.minHeight, m.getBoundingClientRect().left
            >= document.querySelector('#widget .pp-picture').getBoundingClientRect().right - 1]; }""")
    finally:
        desk.set_viewport_size({"width": 1000, "height": 900})
    assert got == [True, "", True]
