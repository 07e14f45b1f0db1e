"""The point editor by touch (``front/editor_pointer.js``, ``editor_keys.js``), in Chromium on a phone's screen.

A page of 390x844 CSS px with touch events (device pixel ratio 3), as a phone: a finger's press is on a point within
`TOUCH_HIT_PX` (20) CSS px of its centre, the nearest point winning, while a mouse keeps the marker's radius and a
few pixels; a tap in empty space adds a point; a finger's wobble under `TOUCH_DRAG_PX` is still a tap; a drag moves
the point by the finger's way (the point keeps its offset from the finger); the button 'Remove point' removes the
point selected, by a tap or the keyboard, and the words say 'Remove point', not Delete, to a finger. Lesson 05's 60
points (their picture about 340 px wide on a phone) stay workable: the rule (nearest point within reach) holds at
every spot of a 4 px grid, and most of the picture still adds.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.core import data, kernels
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player import LiftedPanel
from perceptron_lib.player.browser_editor import BrowserEditor
from tests.test_browser_editor_front import JS_AT, MOUNT_EDITOR, TEN, _at, _is_the_librarys_run, _mount, _shown
from tests.test_browser_player_front import front_page

pytestmark = pytest.mark.browser

TOUCH_HIT_PX = 20  # editor_pointer.js


@pytest.fixture(scope="module")
def phone(chromium):
    for page in front_page(chromium, width=390, height=844, esm=BrowserEditor._esm, title="the editor on a phone",
                           check_errors=True, touch=True):
        page.evaluate(MOUNT_EDITOR)
        yield page


def _screen(page, X) -> np.ndarray:
    """The points' centres on the screen (client CSS px)."""
    return np.array([page.evaluate(JS_AT, [float(v) for v in p]) for p in X], dtype=float).reshape(-1, 2)


def _beside(page, X, i, dist):
    """A spot `dist` CSS px from point i's centre whose nearest point is i (the first of 16 directions)."""
    at = _screen(page, X)
    for angle in np.linspace(0, 2 * np.pi, 16, endpoint=False):
        spot = at[i] + dist * np.array([np.cos(angle), np.sin(angle)])
        if np.argmin(np.hypot(*(at - spot).T)) == i and np.sort(np.hypot(*(at - spot).T))[1] > dist + 6:
            return spot
    raise AssertionError(f"no spot {dist} px beside point {i} that is nearest it")


def _plot_box(page):
    """The plot's axes on the screen: [left, top, right, bottom] in client CSS px."""
    return page.evaluate("""() => { const e = window.editor.player(); const m = e.scene.svg.querySelector('.pp-plot')
      .getScreenCTM(); const tf = e.scene.tf; return [m.e, m.f, m.e + tf.width * m.a, m.f + tf.height * m.d]; }""")


def _empty(page, X, reach=2 * TOUCH_HIT_PX):
    """A spot of the plot at least `reach` CSS px from every point."""
    box = _plot_box(page)
    at = _screen(page, X)
    for fy in np.linspace(0.15, 0.85, 8):
        for fx in np.linspace(0.15, 0.85, 8):
            spot = np.array([box[0] + fx * (box[2] - box[0]), box[1] + fy * (box[3] - box[1])])
            if not len(at) or np.hypot(*(at - spot).T).min() >= reach:
                return spot
    raise AssertionError("no empty spot")


def _touch(page, path):
    """A finger pressed at path[0], moved along it and lifted at its end (Chromium's own touch events)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": path[0][0], "y": path[0][1]}]})
    for x, y in path[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def _remove_button(page) -> dict:
    return page.evaluate("""() => { const b = [...document.querySelectorAll('#widget button')]
      .find((e) => e.textContent === 'Remove point');
      return {disabled: b.disabled, tag: b.tagName, title: b.title}; }""")


def test_a_tap_beside_a_point_selects_it_a_tap_in_space_adds_and_remove_point_removes(phone):
    editor = _mount(phone, BrowserEditor(fit_perceptron(*TEN), *TEN))
    settings = dict(editor.settings)
    s0 = _shown(phone)
    assert phone.evaluate("() => window.editor.player().scene.svg.getBoundingClientRect().width") <= 390
    assert _remove_button(phone)["disabled"]  # nothing selected yet
    phone.touchscreen.tap(*_beside(phone, s0["X"], 3, 10))  # 10 px beside point 3: on it, for a finger
    s1 = _shown(phone)
    assert len(s1["y"]) == 10 and s1["selected"] == 1 and s1["message"].startswith("Point 3 selected: (")
    assert "'Remove point' removes it" in s1["message"] and "Delete" not in s1["message"]
    assert not _remove_button(phone)["disabled"]
    phone.tap("#widget button:text-is('Remove point')")
    s2 = _is_the_librarys_run(phone, settings)
    assert s2["X"] == s0["X"][:3] + s0["X"][4:] and s2["message"].startswith("Removed point 3;")
    assert s2["focus"] == "pp-picture" and s2["selected"] == 0 and _remove_button(phone)["disabled"]
    # a mouse on the same screen keeps its few pixels: 10 px beside a point adds one
    phone.mouse.click(*_beside(phone, s2["X"], 0, 10))
    s3 = _shown(phone)
    assert len(s3["y"]) == 10 and s3["message"].startswith("Added point 9")
    phone.tap("#widget button:text-is('Undo')")
    # a tap in empty space adds a point of the class the switch sets: +1, then −1
    phone.touchscreen.tap(*_empty(phone, s2["X"]))
    s4 = _is_the_librarys_run(phone, settings)
    assert len(s4["y"]) == 10 and s4["y"][-1] == 1 and s4["message"].startswith("Added point 9")
    phone.tap("#widget button[aria-label='class −1']")
    phone.touchscreen.tap(*_empty(phone, s4["X"]))
    s5 = _is_the_librarys_run(phone, settings)
    assert len(s5["y"]) == 11 and s5["y"][-1] == -1 and "class −1." in s5["message"]
    # outside the axes: said for a finger
    box = phone.evaluate("() => { const r = window.editor.player().scene.svg.getBoundingClientRect(); "
                         "return [r.left, r.top]; }")
    phone.touchscreen.tap(box[0] + 2, box[1] + 2)
    assert _shown(phone)["message"].startswith("Not done: That tap is outside the plot; tap inside the axes")


def test_a_fingers_wobble_is_a_tap_and_its_drag_moves_the_point_by_the_fingers_way(phone):
    _mount(phone, BrowserEditor(fit_perceptron(*TEN), *TEN))
    s0 = _shown(phone)
    start = _beside(phone, s0["X"], 0, 12)
    offset = start - _screen(phone, [s0["X"][0]])[0]  # the finger 12 px off the point's centre
    _touch(phone, [start, start + [4, 3], start + [6, 5]])  # 7.8 px of wobble: a tap
    s1 = _shown(phone)
    assert s1["X"] == s0["X"] and s1["selected"] == 1 and s1["message"].startswith("Point 0 selected")
    start = _screen(phone, [s0["X"][0]])[0] + offset  # where that is now (the message above may have grown a line)
    target = _empty(phone, s0["X"]) - _screen(phone, [s0["X"][1]])[0]  # measured from point 1, which stays
    _touch(phone, [start, *np.linspace(start, target + _screen(phone, [s0["X"][1]])[0] + offset, 6)[1:]])
    s2 = _shown(phone)
    assert s2["message"].startswith("Moved point 0 to (") and len(s2["y"]) == 10
    landed = _screen(phone, [s2["X"][0]])[0] - _screen(phone, [s2["X"][1]])[0]
    assert np.hypot(*(landed - target)) < 2.5  # where the finger took it (the view's grid rounds it), not under it


def test_lesson_05s_sixty_points_on_a_phone_nearest_within_reach_wins_and_empty_space_adds(phone):
    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)  # lesson 05's editor
    run = fit_perceptron(kernels.lift(X), y)
    _mount(phone, BrowserEditor(run, X, y, lift=kernels.lift, panels=[LiftedPanel()], separator="plane of the lift"))
    width = phone.evaluate("() => window.editor.player().scene.svg.getBoundingClientRect().width")
    assert 300 <= width <= 390
    at = _screen(phone, X.tolist())
    box = _plot_box(phone)
    grid = np.array([(gx, gy) for gx in np.arange(box[0] + 1, box[2], 4.0)
                     for gy in np.arange(box[1] + 1, box[3], 4.0)])
    hits = phone.evaluate("""([spots, kind]) => { const e = window.editor;
      return spots.map(([x, y]) => window.front.locate(e.player().scene, e.spec(), e.state().X,
        {clientX: x, clientY: y, pointerType: kind}).hit); }""", [grid.tolist(), "touch"])
    dist = np.hypot(grid[:, None, 0] - at[None, :, 0], grid[:, None, 1] - at[None, :, 1])
    nearest = np.argmin(dist, axis=1)
    within = dist.min(axis=1) <= TOUCH_HIT_PX
    clear = np.abs(dist.min(axis=1) - TOUCH_HIT_PX) > 0.01  # not on the circle's edge, where rounding decides
    expected = np.where(within, nearest, -1)
    got = np.array([-1 if h is None else h for h in hits])
    assert np.array_equal(got[clear], expected[clear])
    adds = float(np.mean(got == -1))
    assert adds >= 0.5, f"only {adds:.0%} of the picture adds a point"
    mouse = phone.evaluate("""([spots, kind]) => { const e = window.editor;
      return spots.map(([x, y]) => window.front.locate(e.player().scene, e.spec(), e.state().X,
        {clientX: x, clientY: y, pointerType: kind}).hit); }""", [grid.tolist(), "mouse"])
    assert np.mean([h is None for h in mouse]) > adds  # the mouse's reach is smaller
    # real taps 10 px beside five points each select that point (a message of another length above the picture
    # moves it: each tap is aimed anew)
    for i in (0, 13, 27, 41, 59):
        try:
            spot = _beside(phone, X.tolist(), i, 10)
        except AssertionError:
            continue  # a point with a neighbour closer than 16 px: its nearest spots are on its other side
        phone.touchscreen.tap(*spot)
        s = _shown(phone)
        assert len(s["y"]) == 60 and s["message"].startswith(f"Point {i} selected"), s["message"]
        phone.touchscreen.tap(*_beside(phone, X.tolist(), i, 10))  # again (the message may have moved it): unselected
        assert _shown(phone)["message"] == f"Point {i} no longer selected."


def test_remove_point_is_a_labelled_button_the_keyboard_reaches(phone):
    _mount(phone, BrowserEditor(fit_perceptron(*TEN), *TEN))
    s0 = _shown(phone)
    phone.mouse.click(*_at(phone, s0["X"][5]))
    s1 = _shown(phone)
    assert "'Remove point' or Delete removes it" in s1["message"]  # to a mouse, the key too
    role = phone.evaluate("""() => { const b = [...document.querySelectorAll('#widget button')]
      .find((e) => e.textContent === 'Remove point'); b.focus(); return [document.activeElement === b, b.title]; }""")
    assert role == [True, "remove the point selected (Delete; or alt-click a point)"]
    phone.keyboard.press("Enter")
    s2 = _shown(phone)
    assert s2["X"] == s0["X"][:5] + s0["X"][6:] and s2["message"].startswith("Removed point 5;")
    assert s2["focus"] == "pp-picture"  # not lost with the button, disabled now
