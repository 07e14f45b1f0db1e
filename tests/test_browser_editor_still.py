"""The editor's picture stays put while its message line changes (``front/editor_ui.js`` keepPictureStill), in
Chromium.

On a phone (390x844 CSS px, touch events, device pixel ratio 3) a message of another length above the picture moved
it by a line (about 22 px) between two taps, so that a second tap aimed where the first landed hit another spot. On a
touch screen or a narrow editor the line now sits right under the picture: the picture's top is the same after every
message, short or long, and a tap aimed once lands on its point every time. A wide editor with a mouse keeps the line
above the player (the notebook preset's layout, measured by tests/test_editor_fit.py), and a resized editor puts the
line where its new width wants it, the same element (its words, its live region).
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser_editor import BrowserEditor
from tests.test_browser_editor_front import MOUNT_EDITOR, TEN, _mount, _shown
from tests.test_browser_editor_touch import _beside, _empty, _screen
from tests.test_browser_player_front import front_page

pytestmark = pytest.mark.browser

NARROW_PX = 720  # editor_ui.js

#: Where the line is: under the picture (right after it), or above the player; and the picture's top (client px).
JS_PLACE = """() => { const r = document.querySelector('#widget'), m = r.querySelector('.pe-message');
  return {under: m.previousElementSibling === r.querySelector('.pp-picture'),
          above: m.getBoundingClientRect().bottom <= r.querySelector('.pp-controls').getBoundingClientRect().top + 1,
          top: r.querySelector('.pp-picture').getBoundingClientRect().top + window.scrollY,
          lines: Math.round(m.getBoundingClientRect().height / parseFloat(getComputedStyle(m).lineHeight)),
          live: m.getAttribute('aria-live'), same: m === window.line}; }"""


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
    phone.evaluate("() => { window.line = document.querySelector('#widget .pe-message'); }")
    s0 = _shown(phone)
    start = _place(phone)
    assert start["under"] and start["same"] and start["live"] == "polite", start
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
    assert len(set(lines)) > 1, f"the messages were all {lines[0]} lines long: the test shows nothing"
    assert max(tops) - min(tops) < 0.5, f"the picture's top moved: {tops}"
    assert _screen(phone, [s0["X"][3]]).tolist() == _screen(phone, [_shown(phone)["X"][3]]).tolist()
    print(f"message lines {sorted(set(lines))}; the picture's top {min(tops):.1f}-{max(tops):.1f} px")


def test_the_line_goes_under_the_picture_on_a_narrow_editor_and_back_above_when_wide(desk):
    _mount(desk, BrowserEditor(fit_perceptron(*TEN), *TEN))
    desk.evaluate("() => { window.line = document.querySelector('#widget .pe-message'); }")
    wide = _place(desk)
    assert wide["above"] and not wide["under"], wide  # the notebook preset's layout, with a mouse
    desk.mouse.click(*_empty(desk, _shown(desk)["X"]))
    said = _shown(desk)["message"]
    assert said.startswith("Added point")
    try:
        desk.set_viewport_size({"width": NARROW_PX - 100, "height": 900})
        narrow = _place(desk)
        assert narrow["under"] and narrow["same"] and _shown(desk)["message"] == said, narrow
        top = narrow["top"]
        desk.click("#widget button:text-is('Undo')")
        desk.click("#widget button:text-is('Copy points')")  # a brief message, then emptied by the next click
        desk.click("#widget button:text-is('Redo')")
        assert _place(desk)["top"] == top
    finally:
        desk.set_viewport_size({"width": 1000, "height": 900})
    back = _place(desk)
    assert back["above"] and not back["under"] and back["same"], back


def test_a_lecture_editor_keeps_its_line_in_the_column_beside_the_picture(desk):
    _mount(desk, BrowserEditor(fit_perceptron(*TEN), *TEN, style="lecture"))
    got = desk.evaluate("""() => { const m = document.querySelector('#widget .pe-message');
      return [!!m.closest('.pp-side'), m.getBoundingClientRect().left
        >= document.querySelector('#widget .pp-picture').getBoundingClientRect().right - 1]; }""")
    assert got == [True, True]
    assert np.isfinite(_place(desk)["top"])
