"""The picture a live figure shows, an ipywidgets ``Image`` with an accessible name, and every picture's size.

`Picture(width, height)` is an ``Image`` shown never wider than `width` nor taller than `height` CSS
pixels (nor than one view), whose ``tooltip`` holds the picture's alt sentence. ipywidgets writes the
tooltip into the ``<img title>``, which is the picture's accessible name, but only when the model's
``description`` is empty, and ``Image`` has no ``description``: this one carries an empty one.
"""

from __future__ import annotations

import ipywidgets as widgets
from traitlets import Unicode

__all__ = ["Picture", "picture_css", "picture_layout", "VIEW_RESERVE", "text_for_preset"]

#: Room kept under the picture's top edge for the rest of one view (CSS): a run switch's buttons and the
#: controls above it, the readout's first line below it, plus the notebook's own bars. At 900 px of
#: window the largest picture (`render.MAX_CSS`, 600 px tall) still shows at its own size.
VIEW_RESERVE = "290px"


def picture_css(width, height) -> tuple[str, str]:
    """(max-width, max-height) of a picture of `width` x `height` CSS pixels: never wider than that (nor than
    its box), never taller than that nor than the view allows."""
    return f"min(100%, {width}px)", f"min({height}px, calc(100vh - {VIEW_RESERVE}))"


def picture_layout(width, height) -> widgets.Layout:
    """The picture's layout: never wider than its CSS size, never taller than the view allows."""
    max_width, max_height = picture_css(width, height)
    return widgets.Layout(width="auto", height="auto", max_width=max_width, max_height=max_height,
                          object_fit="contain", flex="0 1 auto")


class Picture(widgets.Image):
    """A PNG ``Image`` whose ``tooltip`` (the alt sentence) becomes its ``title``."""

    description = Unicode("").tag(sync=True)

    def __init__(self, width=None, height=None, **kwargs):
        if width is not None and height is not None:
            kwargs.setdefault("layout", picture_layout(width, height))
        super().__init__(format="png", **kwargs)


#: The smallest text (CSS px) of a widget in the lecture preset, read from the back of a room.
LECTURE_TEXT_PX = 20


def text_for_preset(box, style) -> None:
    """In the lecture preset, make every text of `box` (buttons, labels, readout, key help) at least
    `LECTURE_TEXT_PX`: a class on the box and a ``<style>`` for that class, in a hidden child. The
    notebook preset keeps JupyterLab's own sizes (13 px; the key help 11 px)."""
    if style.name != "lecture":
        return
    box.add_class("perceptron-lecture")
    css = (f".perceptron-lecture, .perceptron-lecture *:not(i) {{font-size: {LECTURE_TEXT_PX}px !important;"
           " line-height: 1.35 !important}} .perceptron-lecture .widget-button {{height: auto}}")
    box.children = (*box.children, widgets.HTML(f"<style>{css}</style>", layout=widgets.Layout(display="none")))
