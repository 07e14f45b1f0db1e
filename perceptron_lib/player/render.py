"""The renderer: one matplotlib figure per scene, drawn once, then blitted and encoded as PNG.

Shared by the player (`perceptron_lib.player.StepThrough`) and `perceptron_lib.player.live.LiveFigure`.

A `Scene` is one run's picture: a `Figure` with its own `FigureCanvasAgg` (no pyplot, so no
figure manager and never the "more than 20 figures" warning), built under a `Style`, with one
*copy* of each panel drawn on its own axes. The copies hold the scene's artists, so two scenes
(two runs, or two players) never share a panel's state, and showing a scene again needs no
saving or restoring of anything.

Each step restores the cached background, moves the animated artists (the panels' ``update``),
draws only them and encodes the canvas (`png_rgb`). A full draw happens only when a panel asks
(``redraw``), an artist is new, or an axes limit changed. The layout (constrained) is computed once,
at the last state, and frozen, so the axes never shift between frames.

3-D panels are blitted too: before drawing an animated 3-D collection the renderer calls its
``do_3d_projection()`` with the projection of the last full draw (the view angle never changes
in an Agg image); animated 3-D artists are drawn on top of the static ones, which is why the
lifted plane is translucent.
"""

from __future__ import annotations

import copy
import struct
import zlib

import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..draw import style as _style

__all__ = ["Scene", "png_rgb", "css_size"]


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def png_rgb(rgba: np.ndarray, *, level: int = 1) -> bytes:
    """Encode an (h, w, 4) or (h, w, 3) uint8 canvas as an RGB PNG: no row filter, zlib `level`.

    About twice as fast as Pillow's adaptive filtering for plots (mostly flat colour), at a
    similar size; the step time is dominated by this encode.
    """
    h, w = rgba.shape[:2]
    rows = np.empty((h, 3 * w + 1), dtype=np.uint8)
    rows[:, 0] = 0  # filter type "none" for every row
    rows[:, 1:] = rgba[:, :, :3].reshape(h, 3 * w)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), level)) + _png_chunk(b"IEND", b""))


def small_png(rgba: np.ndarray, *, scale: float = 1.0) -> bytes:
    """A compact PNG of a canvas for stored outputs: scaled by `scale`, palette of 256 colours, optimised."""
    import io

    from PIL import Image

    img = Image.fromarray(np.ascontiguousarray(np.asarray(rgba)[:, :, :3]))
    if scale != 1.0:
        size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
        img = img.resize(size, Image.Resampling.LANCZOS)
    img = img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def css_size(fig, style) -> tuple:
    """(width, height) in CSS pixels at which a figure is shown: its inches at the style's dpi.

    A figure rendered at a higher dpi (for high-density screens) has more pixels than this and is
    shown at this size, never larger than its own pixels.
    """
    w, h = fig.get_size_inches()
    return int(round(w * style.dpi)), int(round(h * style.dpi))


def limits(axes) -> list:
    out = []
    for ax in axes:
        lim = tuple(ax.get_xlim()) + tuple(ax.get_ylim())
        if hasattr(ax, "get_zlim"):
            lim += tuple(ax.get_zlim())
        out.append(lim)
    return out


class Scene:
    """One run's picture: figure, canvas, axes, the panels drawn on them, the cached background.

    Parameters
    ----------
    panels : sequence of panels
        Configured panels (the protocol of `perceptron_lib.player.stepthrough`); each is copied
        (``copy.copy``) before it draws, and the copies belong to this scene.
    run, X, y : the run and its data
    style : Style
    dpi : float
    title : str, optional
    """

    def __init__(self, panels, run, X, y, *, style, dpi, title=None):
        s = self.style = style
        self.run, self.X, self.y = run, X, y
        self.panels = [copy.copy(p) for p in panels]
        n = len(self.panels)
        with mpl.rc_context(s.rc()), _style.context(s):
            self.fig = Figure(figsize=s.figsize(ncols=n), dpi=dpi, layout="constrained")
            self.canvas = FigureCanvasAgg(self.fig)
            self.axes, self.animated = [], []
            for j, p in enumerate(self.panels):
                proj = getattr(p, "projection", None)
                ax = self.fig.add_subplot(1, n, j + 1, **({"projection": proj} if proj else {}))
                _style.style_axes(ax, s, grid=proj is None)
                self._animate(p.draw(ax, run, X, y))
                self.axes.append(ax)
            if title:
                self.fig.suptitle(title, fontsize=s.title_size)
            # Lay the figure out once, at the last state (its captions are the longest), then freeze the
            # layout: later full draws never shift the axes, and they skip the layout pass.
            K = len(run.history) - 1
            for p in self.panels:
                p.update(K)
            self.canvas.draw()
            self.fig.set_layout_engine("none")
        for p in self.panels:
            if getattr(p, "redraw", False):
                p.redraw = False
        # that draw skipped the animated artists: it is the background of state K
        self.bg = self._grab()
        self.limits = limits(self.axes)
        self.k = None
        self._stale = False

    def _animate(self, artists):
        for a in artists or []:
            a.set_animated(True)
            if a not in self.animated:
                self.animated.append(a)

    def rebind(self, run, X, y, *, view=None) -> None:
        """Show another run, on the same or other data, on this scene's figure and axes.

        The figure, its canvas and its frozen layout are kept. A panel with ``rebind(run, X, y, view=)``
        moves the artists it has (the data panel: the points are moving artists, so an edit that keeps
        the view, ``view="keep"``, costs a blit; ``(xlim, ylim)`` sets the view, None fits it); any
        other panel is cleared and drawn again on its axes. The next `draw` makes a full draw when a
        panel was drawn again or a limit changed.
        """
        s = self.style
        self.run, self.X, self.y = run, X, y
        self.animated = []
        with mpl.rc_context(s.rc()), _style.context(s):
            for p, ax in zip(self.panels, self.axes, strict=True):
                if hasattr(p, "rebind"):
                    self._animate(p.rebind(run, X, y, view=view))
                    continue
                ax.cla()
                _style.style_axes(ax, s, grid=getattr(p, "projection", None) is None)
                self._animate(p.draw(ax, run, X, y))
                self._stale = True  # the static parts changed: the next draw is a full one
        self.k = None

    def shows(self, run, X, y) -> bool:
        """True if this scene is the picture of `run` on (X, y)."""
        return self.run is run and np.array_equal(self.X, X) and np.array_equal(self.y, y)

    def _grab(self) -> np.ndarray:
        """A copy of every pixel of the canvas. Not `copy_from_bbox(fig.bbox)`: that region can
        miss the edge row, and an animated title that reaches it then leaves pixels behind at
        every step (lesson 00's player did), so Back would not give back the same picture."""
        return np.array(self.canvas.buffer_rgba())

    def _full_draw(self):
        with mpl.rc_context(self.style.rc()):
            self.canvas.draw()
        self.bg = self._grab()
        self.limits = limits(self.axes)
        self._draw_animated()

    def _draw_animated(self):
        from matplotlib.collections import Collection
        from matplotlib.patches import Patch

        for a in sorted(self.animated, key=lambda a: a.get_zorder()):
            ax = a.axes
            if ax is None or not a.get_visible():
                continue
            if hasattr(ax, "get_proj") and isinstance(a, (Collection, Patch)) and hasattr(a, "do_3d_projection"):
                a.do_3d_projection()
            ax.draw_artist(a)

    def _apply(self, k) -> bool:
        """Move every panel's artists to step k; True if a full redraw is needed."""
        full = False
        for p in self.panels:
            moved = p.update(k) or []
            for a in moved:
                if a not in self.animated:
                    a.set_animated(True)
                    self.animated.append(a)
                    full = True
            if getattr(p, "redraw", False):
                p.redraw = False
                full = True
        return full or limits(self.axes) != self.limits

    def draw(self, k, *, full=False) -> None:
        """Bring the canvas to step k: blit if possible, full draw when needed."""
        if self._apply(k) or full or self._stale:
            self._stale = False
            self._full_draw()
        else:
            np.asarray(self.canvas.buffer_rgba())[...] = self.bg
            self._draw_animated()
        self.k = k

    def to_data(self, px, py, *, panel=0):
        """Data coordinates of the pixel (px, py) of the picture (origin top left, the canvas's own pixels)
        in panel `panel`'s axes, or None when the pixel is outside those axes."""
        ax = self.axes[panel]
        disp = (float(px), self.fig.bbox.height - float(py))
        if not ax.bbox.contains(*disp):
            return None
        return ax.transData.inverted().transform(disp)

    def view(self, *, panel=0):
        """(xlim, ylim) of panel `panel`'s axes."""
        ax = self.axes[panel]
        return tuple(map(float, ax.get_xlim())), tuple(map(float, ax.get_ylim()))

    def to_pixels(self, P, *, panel=0) -> np.ndarray:
        """Pixels (origin top left) of the points P (n, 2) drawn in panel `panel`'s axes."""
        d = self.axes[panel].transData.transform(np.asarray(P, dtype=float).reshape(-1, 2))
        d[:, 1] = self.fig.bbox.height - d[:, 1]
        return d

    def rgba(self) -> np.ndarray:
        return np.asarray(self.canvas.buffer_rgba())

    def png(self) -> bytes:
        return png_rgb(self.rgba())
