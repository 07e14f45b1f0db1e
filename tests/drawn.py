"""A run drawn by matplotlib at step k: the still picture a browser widget keeps in a notebook, read by the tests.

Every browser player, switch and editor keeps, in its saved output, a still PNG of the step it shows with its alt
sentence (`recording.scene_still`), drawn by `render.Scene` from a `DataPanel` and the widget's panels (see
`browser._Still`). `Drawn` is that drawing at any step, with the words of the step, for the tests of the panels'
matplotlib side: `panels` (the scene's own copies), `seek(k)`, `frame_png()`, `lines(k)`, `alt`.
"""

from __future__ import annotations

from perceptron_lib._validation import check_X_y
from perceptron_lib.draw import style as _style
from perceptron_lib.player.panels.data import DataPanel
from perceptron_lib.player.readout import alt_text, state_lines
from perceptron_lib.player.recording import scene_still
from perceptron_lib.player.render import DENSITY, Scene, png_frame


class Stepped:
    """A `render.Scene` stepped as the checks step a picture (``scene``, ``K`` and the step on show ``k``)."""

    def seek(self, k) -> int:
        self.k = min(max(int(k), 0), self.K)
        self.scene.draw(self.k)
        return self.k

    def next(self) -> int:
        return self.seek(self.k + 1)

    def prev(self) -> int:
        return self.seek(self.k - 1)

    def redraw(self) -> None:
        """Draw step k in full, not over the background of step K: the picture must not change."""
        self.scene.draw(self.k, full=True)

    def frame_png(self) -> bytes:
        return png_frame(self.scene.rgba())


class Drawn(Stepped):
    """`render.Scene` of a run, drawn at step `k` (clamped to 0..K), with the readout's words of that step.

    Parameters as `BrowserPlayer`'s still: a `DataPanel` first (``data_panel``: a configured one, None for the
    default, False for none), then `panels`; the style's preset; `DENSITY` pixels per CSS pixel.
    """

    def __init__(self, run, X, y, *, panels=(), data_panel=None, style=None, dpi=None, title=None,
                 readout=state_lines, alt=alt_text):
        self.style = _style.get(style)
        self.dpi = float(dpi or DENSITY * self.style.dpi)
        main = [] if data_panel is False else [data_panel if data_panel is not None else DataPanel()]
        self.run, (self.X, self.y) = run, check_X_y(X, y)
        self._readout, self._alt = readout, alt
        self.scene = Scene([*main, *panels], run, self.X, self.y, style=self.style, dpi=self.dpi, title=title)
        self.k = 0
        self.scene.draw(0)

    K = property(lambda self: len(self.run.history) - 1)
    state = property(lambda self: self.run.history[self.k])
    panels = property(lambda self: list(self.scene.panels))
    figure = property(lambda self: self.scene.fig)

    def still(self) -> tuple:
        """(png, width, height, alt): what a browser widget's saved output keeps at this step."""
        return scene_still(self.scene, self.style, self.alt)

    def lines(self, k=None) -> list:
        return list(self._readout(self.run, self.X, self.y, self.k if k is None else k))

    @property
    def text(self) -> str:
        return "\n".join(self.lines())

    @property
    def alt(self) -> str:
        return self._alt(self.run, self.X, self.y, self.k)
