"""`LiveFigure`: a figure built once and shown as an image, with controls that move its artists.

Display contract: as every player (`perceptron_lib.player.recording`): the widget, a stable text form, and
a small still PNG with alt text (the readout's first line, or `alt` when given).
"""

from __future__ import annotations

import html as _html
import re

import ipywidgets as widgets
import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure

from ..draw import style as _style
from .layout import settle_layout
from .picture import Picture, text_for_preset
from .recording import Shown
from .render import DENSITY, Canvas, css_size, fit_figsize, png_frame, small_png

__all__ = ["LiveFigure"]


class LiveFigure(Shown):
    """A figure built once and shown as an image, with controls that move its artists.

    For the notebooks' interactive pictures that are not a replay of a run: a slider for a
    margin m, sliders for (w, b) with linked views, a view angle. Draw the static picture
    once on ``live.axes`` and keep the artists; then `bind` a function that moves them for the
    controls' current values. Each change redraws the Agg canvas into an ``ipywidgets.Image``
    (about 30-80 ms with the layout kept from the first draw; no ``Output`` capture, so strict
    nbval passes).

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes, each of the preset's panel size.
    style : None, str or Style
        Preset (None: `perceptron_lib.draw.style.current()`).
    projection : None or "3d", or a sequence with one entry per axes
    figsize : (float, float), optional

    Examples
    --------
    >>> import ipywidgets as widgets
    >>> live = LiveFigure()
    >>> (line,) = live.axes[0].plot([0, 1], [0, 0])
    >>> def show(slope):
    ...     line.set_ydata([0, slope])
    ...     return f"slope = {slope:.1f}"
    >>> live.bind(show, slope=widgets.FloatSlider(value=1.0, min=-2, max=2))
    >>> live.set(slope=2.0)
    >>> live.text
    'slope = 2.0'
    """

    def __init__(self, nrows=1, ncols=1, *, style=None, projection=None, figsize=None, dpi=None, alt=None):
        self._style = _style.get(style)
        n = nrows * ncols
        projections = list(projection) if isinstance(projection, (list, tuple)) else [projection] * n
        if len(projections) != n:
            raise ValueError(f"projection needs one entry per axes ({n}); got {len(projections)}.")
        with mpl.rc_context(self._style.rc()), _style.context(self._style):
            self.fig = Figure(figsize=fit_figsize(figsize or self._style.figsize(ncols, nrows), self._style),
                              dpi=dpi or DENSITY * self._style.dpi, layout="constrained")
            self.canvas = Canvas(self.fig)
            self.axes = [self.fig.add_subplot(nrows, ncols, j + 1, projection=p) for j, p in enumerate(projections)]
        for ax in self.axes:
            _style.style_axes(ax, self._style)
        self._image = Picture(*css_size(self.fig, self._style))
        self._alt = alt
        self._readout = widgets.HTML()
        self._controls: dict = {}
        self.initial_values: dict = {}
        self._fn = None
        self._settled = False
        self._holding = False
        self.text = ""
        words = widgets.VBox([self._readout],
                             layout=widgets.Layout(flex="1 1 18em", min_width="16em", margin="0 0 0 8px"))
        self._body = widgets.HBox([self._image, words],
                                  layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.widget = widgets.VBox([self._body])
        self.widget.add_class("perceptron-livefigure")
        text_for_preset(self.widget, self._style)

    @property
    def style(self):
        return self._style

    def bind(self, fn, **controls) -> None:
        """Call ``fn(**values)`` now and whenever a control changes, then redraw.

        `fn` moves artists; if it returns a string, that string is shown under the figure
        (HTML allowed) and kept in `text`.
        """
        self._fn = fn
        self._controls = dict(controls)
        self.initial_values = self.values  # where Run All should leave it (tests check)
        for c in self._controls.values():
            c.observe(self._changed, names="value")
        box = widgets.HBox(list(self._controls.values()), layout=widgets.Layout(flex_flow="row wrap"))
        self.widget.children = (box, self._body)
        text_for_preset(self.widget, self._style)
        self.update()

    def _changed(self, _change):
        if not self._holding:
            self.update()

    def set(self, **values) -> None:
        """Set controls by name, as a student would by dragging them (for scripts and tests).

        However many controls change, the figure is redrawn once, for the new values together.
        """
        for name in values:
            if name not in self._controls:
                raise KeyError(f"no control named {name!r}; the controls are {sorted(self._controls)}.")
        self._holding = True
        try:
            for name, v in values.items():
                self._controls[name].value = v
        finally:
            self._holding = False
        self.update()

    @property
    def values(self) -> dict:
        return {name: c.value for name, c in self._controls.items()}

    def update(self) -> None:
        """Apply the bound function to the current values and redraw."""
        if self._fn is not None:
            with mpl.rc_context(self._style.rc()), _style.context(self._style):
                out = self._fn(**self.values)
            if isinstance(out, str):
                self.text = out
                self._readout.value = out
        self.refresh()

    def refresh(self) -> None:
        """Redraw the whole canvas into the image.

        The layout is computed at the first draw and then kept: the axes never shift while a
        control is dragged (a rotating 3-D box would otherwise make them jump), and each redraw
        skips the layout pass, which is about half its cost.
        """
        if not self._settled:
            # Constrained layout needs passes to settle: three with a 3-D axes (the first clips
            # titles in the lecture preset); with flat axes a third pass moves them by less than
            # a pixel.
            settle_layout(self.fig, self.axes, passes=3 if any(hasattr(ax, "get_zlim") for ax in self.axes) else 2)
            self._settled = True
        self.canvas.draw()
        self._image.value = png_frame(np.asarray(self.canvas.buffer_rgba()))
        self._image.tooltip = self.alt  # the picture's alt sentence, as its title

    def frame_png(self) -> bytes:
        """The current picture as PNG bytes."""
        return bytes(self._image.value)

    picture = property(lambda self: self._image, doc="The picture (an ipywidgets Image; its tooltip is the alt text).")

    @property
    def alt(self) -> str:
        """The picture's alt text: `alt` if given, else the readout's first line."""
        if self._alt:
            return str(self._alt)
        plain = _html.unescape(re.sub(r"<[^>]*>", "\n", self.text))
        first = next((ln.strip() for ln in plain.splitlines() if ln.strip()), "")
        return f"Interactive figure at {first}." if first else "Interactive figure."

    def snapshot(self):
        w, h = css_size(self.fig, self._style)
        rgba = np.asarray(self.canvas.buffer_rgba())
        return small_png(rgba, scale=w / rgba.shape[1]), w, h, self.alt

    def __repr__(self):
        names = ", ".join(self._controls) or "no controls"
        return f"<LiveFigure: {names}>"
