"""The kernel-drawn players' picture (`EventPicture`, ``perceptron_lib/player/front/events.js``), in Chromium.

One blank page (no network: every request but data:, blob: and about: is refused) loads the module that
`EventPicture._esm` holds, from a Blob URL as anywidget does, and calls its ``render({model, el})`` with a small
stand-in for anywidget's model (``get``, ``on``, ``off``, ``send``) filled from a real widget's traits. The model
records every ``send``: the messages the kernel would get.

Checked: the picture is an ``<img>`` of the PNG that Tab reaches, named by its alt sentence and described by its
keys; it takes only the keys in use, only while it has the focus or the pointer, never with Ctrl, Alt or Meta,
never from a field being typed in, never while hidden, and Tab and Escape always go on; presses reach the kernel
only in pointer mode, at the PNG's own pixels whatever size the picture is shown at, with their modifier keys;
a press that leaves the picture says so, once; a new PNG replaces the old one's URL; axe-core finds nothing serious.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from perceptron_lib.player.events import EventPicture
from perceptron_lib.player.stepthrough import PLAYER_KEYS

pytestmark = pytest.mark.browser

#: The PNG's own size and the CSS size it is shown at (a 2x picture, as the players' frames are).
NATURAL, CSS = (480, 360), (240, 180)

FAKE_MODEL = """() => {
  window.makeModel = (state) => {
    const listeners = {};
    const model = {
      sent: [],
      get: (name) => state[name],
      on: (event, cb) => { (listeners[event] ||= []).push(cb); },
      off: (event, cb) => { listeners[event] = (listeners[event] || []).filter((f) => f !== cb); },
      send: (content) => { model.sent.push(content); },
      fromPython: (name, value) => { state[name] = value; for (const cb of listeners[`change:${name}`] || []) cb(); },
    };
    return model;
  };
  window.bytes = (list) => new DataView(new Uint8Array(list).buffer);
  window.mount = (state) => {
    if (window.unmount) window.unmount();
    const el = document.createElement("div");
    el.id = "widget";
    document.querySelector("main").replaceChildren(el);
    window.model = window.makeModel({...state, value: window.bytes(state.value)});
    window.unmount = window.front.default.render({ model: window.model, el });
  };
}"""


def png(size=NATURAL, shade=255) -> bytes:
    """A plain PNG of `size` pixels."""
    buf = io.BytesIO()
    Image.fromarray(np.full((size[1], size[0], 3), shade, dtype=np.uint8)).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def page(chromium):
    ctx = chromium.new_context(viewport={"width": 1000, "height": 800})
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:", "about:")) else r.abort())
    page = ctx.new_page()
    page.set_content(
        '<!doctype html><html lang="en"><title>the picture</title><body>'
        '<button id="before" type="button">a button before</button><main></main>'
        '<input id="field" aria-label="a field"><button id="after" type="button">a button after</button>'
        "</body></html>"
    )
    page.evaluate(
        """async (src) => {
        const url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
        window.front = await import(url);
    }""",
        EventPicture._esm,
    )
    page.evaluate(FAKE_MODEL)
    page.evaluate("""() => { window.passed = [];
        window.addEventListener('keydown', (e) => window.passed.push([e.key, e.defaultPrevented])); }""")
    yield page
    ctx.close()


def mount(
    page, *, pointer=False, keys=PLAYER_KEYS, alt="The plane after update 3 of 9.", help="Keys: ← → step."
) -> EventPicture:
    """Render a real widget's state into the page; returns the widget."""
    widget = EventPicture(value=png(), alt=alt, help=help, taken_keys=list(keys), pointer=pointer)
    widget.fit(*CSS)
    state = {
        name: getattr(widget, name) for name in ("alt", "help", "max_width", "max_height", "taken_keys", "pointer")
    }
    page.evaluate("(state) => window.mount(state)", {**state, "value": list(widget.value)})
    page.wait_for_function("() => document.querySelector('#widget img').naturalWidth > 0")
    page.mouse.move(990, 790)  # the pointer away from the picture
    page.evaluate("() => { document.activeElement.blur(); window.model.sent = []; window.passed = []; }")
    return widget


def sent(page) -> list[dict]:
    return page.evaluate("() => window.model.sent")


def picture_box(page) -> dict:
    return page.locator("#widget img").bounding_box()


def test_the_picture_is_a_named_focusable_img_of_the_png_at_its_css_size(page):
    mount(page, alt="The plane after update 3 of 9. Click on the picture to add a point.")
    img = page.evaluate("""() => { const i = document.querySelector('#widget img');
        const d = document.getElementById(i.getAttribute('aria-describedby'));
        return {alt: i.alt, title: i.title, tab: i.tabIndex, help: d ? d.textContent : null, src: i.src,
                natural: [i.naturalWidth, i.naturalHeight], cls: i.className, maxWidth: i.style.maxWidth}; }""")
    assert img["alt"] == img["title"] == "The plane after update 3 of 9. Click on the picture to add a point."
    assert img["tab"] == 0 and img["help"] == "Keys: ← → step." and img["src"].startswith("blob:")
    assert img["natural"] == list(NATURAL) and "widget-image" in img["cls"].split()
    assert img["maxWidth"] == f"min(100%, {CSS[0]}px)"
    box = picture_box(page)
    assert abs(box["width"] - CSS[0]) < 0.5 and abs(box["height"] - CSS[1]) < 0.5  # its CSS size, not stretched
    page.focus("#before")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement === document.querySelector('#widget img')"), "Tab skips it"
    # axe-core on the picture: nothing serious
    import axe_playwright_python

    page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate("() => axe.run('#widget', {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})")
    serious = [(v["id"], v["help"]) for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []


def test_keys_in_use_are_taken_while_focused_and_every_other_key_goes_on(page):
    mount(page)
    page.focus("#widget img")
    for key in ("ArrowRight", "ArrowLeft", "Home", "End", " "):
        page.keyboard.press(key)
    assert [m["key"] for m in sent(page)] == ["ArrowRight", "ArrowLeft", "Home", "End", " "]
    assert all(m["type"] == "keydown" and not m["shiftKey"] for m in sent(page))
    assert page.evaluate("() => window.passed") == []  # taken: the page's own listeners never see them
    page.evaluate("() => { window.model.sent = []; }")
    for key in ("a", "ArrowUp", "Enter", "Control+ArrowRight", "Alt+ArrowRight", "Meta+ArrowLeft", "Escape"):
        page.keyboard.press(key)
    assert sent(page) == []
    passed = page.evaluate("() => window.passed")
    assert ["Escape", False] in passed and ["a", False] in passed and all(not p[1] for p in passed)
    page.keyboard.press("Tab")  # no keyboard trap
    assert page.evaluate("() => document.activeElement.id") == "field"
    page.keyboard.press("ArrowRight")  # focus gone, pointer away: not the picture's
    assert sent(page) == []


def test_the_keys_follow_the_model_and_shift_goes_with_them(page):
    widget = mount(page, keys=PLAYER_KEYS)
    page.focus("#widget img")
    page.keyboard.press("Delete")
    assert sent(page) == []
    page.evaluate("(keys) => window.model.fromPython('taken_keys', keys)", [*widget.taken_keys, "Delete", "ArrowUp"])
    page.keyboard.press("Delete")
    page.keyboard.press("Shift+ArrowUp")
    assert [(m["key"], m["shiftKey"]) for m in sent(page)] == [("Delete", False), ("ArrowUp", True)]


def test_with_the_pointer_on_it_the_picture_takes_its_keys_but_not_a_fields(page):
    mount(page)
    page.hover("#widget img")
    page.keyboard.press("ArrowRight")
    assert [m["key"] for m in sent(page)] == ["ArrowRight"]
    page.focus("#field")  # typing in a field: its arrows are its own, even with the pointer on the picture
    page.hover("#widget img")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("ab ")
    assert len(sent(page)) == 1 and page.input_value("#field") == "ab "
    page.focus("#after")  # space on a button presses the button
    page.keyboard.press(" ")
    assert len(sent(page)) == 1
    page.mouse.move(990, 790)
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    assert len(sent(page)) == 1


def test_a_hidden_picture_takes_no_key(page):
    """A slide not on show hides its pictures; one the pointer was on when it went (Chromium moves the focus off
    a hidden element, other browsers may not) must not take keys. The pointer's arrival and the key are
    dispatched in the page, so that no pointer move in between tells the picture the pointer left."""
    mount(page)
    press = """(hide) => { const img = document.querySelector('#widget img');
        img.dispatchEvent(new PointerEvent('pointerenter', {pointerId: 1, pointerType: 'mouse'}));
        document.querySelector('main').style.visibility = hide ? 'hidden' : '';
        document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
        img.dispatchEvent(new PointerEvent('pointerleave', {pointerId: 1, pointerType: 'mouse'})); }"""
    try:
        page.evaluate(press, True)
        assert sent(page) == []
    finally:
        page.evaluate("() => { document.querySelector('main').style.visibility = ''; }")
    page.evaluate(press, False)  # the same, shown: taken
    assert [m["key"] for m in sent(page)] == ["ArrowRight"]


def test_presses_reach_the_kernel_only_in_pointer_mode_at_the_pngs_own_pixels(page):
    mount(page, pointer=False)
    box = picture_box(page)
    page.mouse.click(box["x"] + 30, box["y"] + 40)
    assert sent(page) == []
    assert page.evaluate("() => document.activeElement === document.querySelector('#widget img')"), (
        "a click does not focus the picture"
    )
    page.evaluate("() => window.model.fromPython('pointer', true)")
    page.mouse.click(box["x"] + 30, box["y"] + 40)
    page.keyboard.down("Shift")
    page.mouse.click(box["x"] + 120.5, box["y"] + 90.25)
    page.keyboard.up("Shift")
    msgs = sent(page)
    assert [m["type"] for m in msgs] == ["pointerdown", "pointerup"] * 2
    scale = NATURAL[0] / box["width"]
    for m, (x, y) in zip(msgs, [(30, 40), (30, 40), (120.5, 90.25), (120.5, 90.25)], strict=True):
        assert m["pointerType"] == "mouse"
        assert abs(m["dataX"] - scale * x) <= 0.02 and abs(m["dataY"] - scale * y) <= 0.02, (m, x, y)
    assert [m["shiftKey"] for m in msgs] == [False, False, True, True]
    assert not any(m["altKey"] or m["ctrlKey"] or m["metaKey"] for m in msgs)
    page.evaluate("() => { window.model.sent = []; }")
    page.keyboard.down("Alt")
    page.mouse.click(box["x"] + 50, box["y"] + 50)
    page.keyboard.up("Alt")
    page.mouse.click(box["x"] + 50, box["y"] + 50, button="right")  # not the primary button: nothing
    assert [(m["type"], m["altKey"]) for m in sent(page)] == [("pointerdown", True), ("pointerup", True)]


def test_a_drag_is_a_press_and_a_release_and_one_that_leaves_says_so_once(page):
    mount(page, pointer=True)
    box = picture_box(page)
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 100, box["y"] + 120, steps=5)
    page.mouse.up()
    assert [m["type"] for m in sent(page)] == ["pointerdown", "pointerup"]  # no message per move
    assert abs(sent(page)[1]["dataX"] - 200) <= 2 and abs(sent(page)[1]["dataY"] - 240) <= 2
    page.evaluate("() => { window.model.sent = []; }")
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] + 50, box["y"] + 20, steps=5)
    page.mouse.up()
    page.mouse.move(box["x"] + 30, box["y"] + 30)
    page.mouse.move(990, 790)
    assert [m["type"] for m in sent(page)] == ["pointerdown", "pointerleave"]


def test_a_new_png_replaces_the_old_and_the_view_cleans_up(page):
    mount(page)
    first = page.get_attribute("#widget img", "src")
    page.evaluate("(b) => window.model.fromPython('value', window.bytes(b))", list(png(shade=200)))
    page.wait_for_function("(src) => document.querySelector('#widget img').src !== src", arg=first)
    page.evaluate("(t) => window.model.fromPython('alt', t)", "The plane after update 4 of 9.")
    assert page.get_attribute("#widget img", "alt") == "The plane after update 4 of 9."
    gone = page.evaluate("async (src) => { try { await fetch(src); return false; } catch (e) { return true; } }", first)
    assert gone, "the old picture's URL was not revoked"
    page.focus("#widget img")
    page.evaluate("() => { window.unmount(); window.unmount = null; }")
    assert page.evaluate("() => document.querySelector('#widget').children.length") == 0
    page.keyboard.press("ArrowRight")
    assert sent(page) == []
