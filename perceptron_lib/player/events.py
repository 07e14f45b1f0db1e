"""`EventPicture`: a kernel-drawn player's picture that takes the student's clicks, drags and keys.

    picture = EventPicture(value=png, alt="The plane after update 3 of 9.", taken_keys=["ArrowLeft", "ArrowRight"])
    picture.on_key(lambda event: print(event["key"]))
    picture.pointer = True                       # presses and releases go to the kernel too
    picture.on_pointer(lambda event: print(event["type"], event["dataX"], event["dataY"]))

An anywidget widget whose front end is ``front/events.js`` (shipped in the package as an ES module): the PNG
shown at most `max_width` wide and `max_height` tall, never stretched, as an ``<img>`` that the keyboard reaches
(Tab), whose name is its `alt` (the alt sentence and what a click does; its ``title`` too) and whose description is
``help``. anywidget's front end is on npm, so the picture takes clicks and keys wherever a notebook loads widget
front ends from npm (JupyterLab, Notebook 7, Voila, Colab, VS Code). The course uses no event library of its own
whose front end is not on npm (`tests/test_widget_modules.py`).

What the browser sends, one message per event that the kernel uses:

* ``{"type": "keydown", "key", "shiftKey", "altKey", "ctrlKey", "metaKey"}`` for a key of `taken_keys` pressed while
  the picture has the focus or the pointer; Tab, Escape and every other key go on to the page, and so does a
  key with Ctrl, Alt or Meta;
* with `pointer` on, ``{"type": "pointerdown" | "pointerup" | "pointerleave" | "pointercancel", "pointerType",
  "dataX", "dataY", and the four modifier keys}``: a press of the primary button (or a touch, or a pen), then its
  release, or the pointer leaving the picture while pressed; ``dataX``, ``dataY`` are the PNG's own pixels
  (origin top left), whatever size it is shown at.
"""

from __future__ import annotations

import anywidget
import ipywidgets as widgets
import traitlets

from . import front
from .picture import picture_css

__all__ = ["EventPicture", "EVENT_MODULES"]

#: The picture's front end (``front/events.js``): one module, small, since anywidget stores it in every widget.
EVENT_MODULES = ("events.js",)
#: The kinds of message, each the start of its messages' ``type`` ("keydown", "pointerdown", ...).
_KINDS = ("key", "pointer")


class EventPicture(anywidget.AnyWidget):
    """A PNG picture, focusable and named, that sends the kernel the keys and presses it takes (see the module).

    Parameters
    ----------
    value : bytes
        The PNG.
    alt : str
        The picture's accessible name (the ``<img>``'s ``alt``, and its ``title``).
    help : str
        A sentence read after the name (what the keys do).
    taken_keys : list of str
        The ``KeyboardEvent.key`` names the picture takes; every other key goes on to the page.
    pointer : bool
        Whether presses on the picture go to the kernel.
    """

    _esm = front.source(EVENT_MODULES)
    #: The picture's format, as ipywidgets' ``Image`` names it (the bytes are always a PNG).
    format = "png"
    value = traitlets.Bytes(b"").tag(sync=True)
    # not ipywidgets' `tooltip`: its view would read a `description` that this widget has no use for
    alt = traitlets.Unicode("").tag(sync=True)
    help = traitlets.Unicode("").tag(sync=True)
    max_width = traitlets.Unicode("100%").tag(sync=True)
    max_height = traitlets.Unicode("none").tag(sync=True)
    taken_keys = traitlets.List(traitlets.Unicode()).tag(sync=True)
    pointer = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._handlers = {kind: [] for kind in _KINDS}
        self.on_msg(self._from_browser)

    def __repr__(self):
        presses = "on" if self.pointer else "off"
        return f"<EventPicture: {len(self.value)} bytes, keys {list(self.taken_keys)}, presses {presses}>"

    def fit(self, width, height) -> None:
        """Show the picture at most `width` x `height` CSS pixels (and never taller than the view allows).

        The caps are the ``<img>``'s own; the widget's box only wraps it (a box capped in height would leave a
        picture that a page's style lets grow, as the live deck's does, spilling out of it).
        """
        self.max_width, self.max_height = picture_css(width, height)
        self.layout = widgets.Layout(flex="0 1 auto", max_width=self.max_width)

    def on_key(self, handler) -> None:
        """Call ``handler(event)`` for each key message (``event["type"]`` is ``"keydown"``)."""
        self._handlers["key"].append(handler)

    def on_pointer(self, handler) -> None:
        """Call ``handler(event)`` for each press, release or leave (turn `pointer` on to get them)."""
        self._handlers["pointer"].append(handler)

    def _from_browser(self, _widget, content, _buffers) -> None:
        kind = content.get("type", "") if isinstance(content, dict) else ""
        for name in _KINDS:
            if kind.startswith(name):
                for handler in list(self._handlers[name]):
                    handler(content)
