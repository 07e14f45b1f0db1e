"""What a player or live figure leaves in a notebook: the widget, its text, and a still picture with its alt text.

Display contract (`Shown._repr_mimebundle_`), shared by the browser widgets (`ShownWidget`) and `LiveFigure`:

* ``application/vnd.jupyter.widget-view+json``: the live widget (needs a kernel, or the widget state a page
  embeds: `tools/widget_embed.py`);
* ``text/plain``: a short repr with no memory address (stable under nbval);
* ``image/png``: the current picture, small (palette PNG at CSS size), with output metadata
  ``{"image/png": {"width": W, "height": H, "alt": "<one sentence>"}}`` in CSS pixels, so a
  notebook viewer without a kernel (GitHub, nbviewer, a page read with scripts off) shows the picture with its
  alt text. A browser widget's still is drawn by matplotlib (`scene_still` of a `render.Scene`); its alt text
  says what the data panel shows, then what each other panel of the still shows, in the words the browser names
  that panel with (`panel_words`).
"""

from __future__ import annotations

import math

__all__ = ["Shown", "ShownWidget", "scene_still", "panel_words", "still_alt"]


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


def _deg(v: float) -> str:
    """An angle as ``front/lifted.js`` `deg` writes it: whole degrees (JavaScript's Math.round), a true minus."""
    return f"{math.floor(v + 0.5) or 0}°".replace("-", "−")


def _wrap(a: float) -> float:
    """``front/lift_geometry.js`` `wrapAngle`: the angle in [-180, 180)."""
    return (a + 180) % 360 - 180


def panel_words(spec: dict, k: int) -> str:
    """What a panel beside the data panel shows at step k, in the words the browser names it with: a port of its
    accessible name (the ``aria-label`` of ``front/curves.js`` `buildChart`, ``front/contour.js`` `buildContour`,
    ``front/lifted.js`` `buildLifted` at its first view); an overlay (drawn on the browser's data panel, beside
    it in a still) by its name. `spec` is the panel's `front`."""
    kind, name = spec["kind"], spec.get("name")
    if spec.get("shape") == "overlay":
        return name
    if kind == "lifted":
        view = spec["view"]
        return f"{spec['alt'][k]} Seen from azimuth {_deg(_wrap(view['azim']))}, elevation {_deg(view['elev'])}."
    if kind == "contour":
        text = spec["titles"][k].replace("\n", " ")
        shown = ", ".join(str(kink["i"]) for kink in spec["layers"][spec["layer_of"][k]]["kinks"])
        kinks = (f"; dashed lines labelled i = {shown}: the kink lines ⟨w, xᵢ⟩ + b = 0 of those examples"
                 if " ".join(spec.get("note") or []) and shown else "")
        return f"{name}: {text}{kinks}; dots: w at steps 0 to {k}, w at step {k} starred"
    text = spec["titles"][k] if spec.get("titles") else (spec.get("title") or "")
    return f"{name}: {text.replace(chr(10), ' ')}" if text else name


def still_alt(alt: str, words) -> str:
    """The alt text of a still of several panels: the data panel's sentence `alt`, then what each other panel
    shows (`words`, `panel_words` of each), one sentence each."""
    words = [w if w.endswith(".") else f"{w}." for w in words]
    if not words:
        return alt
    return " ".join([alt, f"Beside it: {words[0]}", *(f"Then: {w}" for w in words[1:])])


def _panel_specs(scene) -> list:
    """The `front` of each panel of the scene but its data panel, made once per scene (a loss map's takes tens of
    ms) and kept on it."""
    specs = getattr(scene, "front_specs", None)
    if specs is None:
        from .panels.data import DataPanel

        specs = scene.front_specs = [p.front(scene.run, scene.X, scene.y, style=scene.style)
                                     for p in scene.panels if hasattr(p, "front") and not isinstance(p, DataPanel)]
    return specs


def scene_still(scene, style, alt: str) -> tuple:
    """(png, width, height, alt) of a `render.Scene` as it stands, small (palette PNG at its CSS size), for a
    stored notebook: what `Shown` puts in the ``image/png`` output. The alt text is `alt` (the data panel's) with
    what each other panel of the picture shows at the scene's step (`still_alt`)."""
    from .render import css_size, small_png

    w, h = css_size(scene.fig, style)
    rgba = scene.rgba()
    k = scene.k if scene.k is not None else 0
    words = [panel_words(spec, min(k, spec["K"])) for spec in _panel_specs(scene)]
    return small_png(rgba, scale=w / rgba.shape[1]), w, h, still_alt(alt, words)
