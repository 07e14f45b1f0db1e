"""What a player or live figure leaves in a notebook: the widget, its text, and a still picture with its alt text.

Display contract (`Shown._repr_mimebundle_`), shared by the browser widgets (`ShownWidget`) and `LiveFigure`:

* ``application/vnd.jupyter.widget-view+json``: the live widget (needs a kernel, or the widget state a page
  embeds: `tools/widget_embed.py`);
* ``text/plain``: a short repr with no memory address (stable under nbval);
* ``image/png``: the current picture, small (palette PNG at CSS size), with output metadata
  ``{"image/png": {"width": W, "height": H, "alt": "<one sentence>"}}`` in CSS pixels, so a
  notebook viewer without a kernel (GitHub, nbviewer, a page read with scripts off) shows the picture with its
  alt text. A browser widget's still is drawn by matplotlib (`scene_still` of a `render.Scene`).
"""

from __future__ import annotations

__all__ = ["Shown", "ShownWidget", "scene_still"]


class Shown:
    """Display as ``self.widget`` plus a still picture with its alt text.

    Subclasses define ``widget``, ``__repr__`` and ``snapshot() -> (png, width, height, alt)``.
    """

    def _repr_mimebundle_(self, **kwargs):
        data = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):  # (data, metadata)
            data = data[0]
        data = dict(data or {})
        data["text/plain"] = repr(self)
        png, width, height, alt = self.snapshot()
        data["image/png"] = png
        meta = {"image/png": {"width": int(width), "height": int(height), "alt": alt}}
        return data, meta


class ShownWidget(Shown):
    """`Shown` for a widget that is its own view (the anywidget players): put it first in the bases, before the
    widget class, whose own ``_repr_mimebundle_`` then gives the widget view of the bundle."""

    @property
    def widget(self):
        return _OwnView(self)


class _OwnView:
    """The widget view of a `ShownWidget`: the bundle of the class after `Shown` in the widget's bases."""

    def __init__(self, widget):
        self._widget = widget

    def _repr_mimebundle_(self, **kwargs):
        return super(Shown, self._widget)._repr_mimebundle_(**kwargs)


def scene_still(scene, style, alt: str) -> tuple:
    """(png, width, height, alt) of a `render.Scene` as it stands, small (palette PNG at its CSS size), for a
    stored notebook: what `Shown` puts in the ``image/png`` output."""
    from .render import css_size, small_png

    w, h = css_size(scene.fig, style)
    rgba = scene.rgba()
    return small_png(rgba, scale=w / rgba.shape[1]), w, h, alt
