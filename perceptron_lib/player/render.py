"""The renderer: a run's panels drawn by matplotlib (`Scene`), and the canvas and PNG of the live figures.

A browser widget (`BrowserPlayer`, `BrowserSwitch`, `BrowserControlled`, `BrowserEditor`) keeps, in its saved
output, a still PNG of the step it shows, drawn by a `Scene` (`recording.scene_still`); `LiveFigure` redraws its
figure on a `Canvas` and sends it as `png_frame` at each change of a slider.

A `Scene` is one run's picture: a `Figure` with its own Agg `Canvas` (no pyplot, so no
figure manager and never the "more than 20 figures" warning), built under a `Style`, with one
*copy* of each panel drawn on its own axes. The copies hold the scene's artists, so two scenes
never share a panel's state.

The panel protocol: ``draw(ax, run, X, y) -> moving artists`` once per scene, ``update(k) -> changed artists``
for step k; optional ``projection`` ("3d"), ``wide`` (a curve along the run: a full-width row under three or more
panels) and ``redraw`` (set by ``update`` when the static parts changed: the next draw is a full one).

The layout (constrained: `layout.lay_out_once`, which leaves room for every step's moving texts) is computed
once, at the last state, and frozen; the figure drawn then, without the moving artists, is the background. Step k
restores it, moves the moving artists (the panels' ``update``) and draws only them; a full draw happens only when
a panel asks (``redraw``), an artist is new, or an axes limit changed, and gives the same pixels (tested).

3-D panels are blitted too: before drawing an animated 3-D collection the renderer calls its
``do_3d_projection()`` with the projection of the last full draw (the view angle never changes
in an Agg image); animated 3-D artists are drawn on top of the static ones, which is why the
lifted plane is translucent.
"""

from __future__ import annotations

import copy
import math
import struct
import zlib

import matplotlib as mpl
import numpy as np
from isal import isal_zlib
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.figure import Figure

try:  # matplotlib >= 3.11 rasterises text glyph by glyph in Python, which the cache below speeds up
    from matplotlib.ft2font import RenderMode
except ImportError:  # older matplotlib draws text in C++ (Python 3.10's pins): no cache, the plain renderer
    RenderMode = None

from ..draw import style as _style
from .layout import lay_out_once, limits

__all__ = ["Scene", "Canvas", "png_frame", "small_png", "css_size", "fit_figsize", "grid", "panels_at_once", "DENSITY",
           "MAX_CSS"]

#: Frame pixels per CSS pixel: pictures are rendered at twice the style's dpi and shown at the style's
#: size (`css_size`), so they are sharp on a high-density (2x) screen and the same on a 1x one.
DENSITY = 2

#: The largest picture a player's still or a live figure makes, (width, height) in CSS pixels. A 1440x900
#: JupyterLab with its file browser open gives a notebook's outputs about 1008 px of width and one view
#: about 780 px of height, of which the controls and the readout's first line take about 180: a picture of
#: at most this size is shown at its own size there, with all of those in view.
MAX_CSS = (1000, 600)


def grid(panels, style) -> tuple:
    """The layout of a scene: (figsize in inches, [(row, col_slice) of each panel], rows, cols).

    Panels side by side in one row, except that when three or more panels include curves along the
    run (a panel with ``wide = True``: a loss, an error), the curves go in a full-width row of half a
    panel's height under the others: a curve reads best wide and short, and the pictures above keep
    room (three panels in a row of 1000 CSS px leave each about 300).
    """
    n = len(panels)
    wide = [bool(getattr(p, "wide", False)) for p in panels]
    pw, ph = style.panel_size
    if n >= 3 and any(wide) and not all(wide):
        top = [j for j in range(n) if not wide[j]]
        bottom = [j for j in range(n) if wide[j]]
        cols = len(top)
        where = {j: (0, slice(c, c + 1)) for c, j in enumerate(top)}
        for r, j in enumerate(bottom, start=1):
            where[j] = (r, slice(0, cols))
        size = (pw * cols, ph * (1 + 0.5 * len(bottom)))
        return fit_figsize(size, style), [where[j] for j in range(n)], 1 + len(bottom), cols
    return fit_figsize((pw * n, ph), style), [(0, slice(j, j + 1)) for j in range(n)], 1, n


def panels_at_once(style) -> int:
    """How many panels a player's still shows in a preset: three where three fit `MAX_CSS`'s width with the
    preset's text (a panel needs about 20 legend lines' height of width), else two: the main panel and the
    first other (the lecture preset; the browser draws them all)."""
    return 3 if MAX_CSS[0] / 3 >= 20 * style.legend_size * style.dpi / 72 else 2


def fit_figsize(size, style) -> tuple:
    """A figure size (inches) no larger than `MAX_CSS` at the style's dpi. The text keeps its size in
    points: a figure of many panels gets narrower panels, never smaller text."""
    w, h = size
    return min(float(w), MAX_CSS[0] / style.dpi), min(float(h), MAX_CSS[1] / style.dpi)


class _GlyphCachingRenderer(RendererAgg):
    """Agg's renderer with a cache of rasterised glyphs.

    matplotlib 3.11 rasterises text one glyph at a time in Python (about 0.1 ms a glyph), so the
    texts of a live figure cost much of each redraw (1.03-1.32x faster with the cache: lessons 01 and 02's
    live figures, both presets). A glyph's bitmap depends
    only on the font, size, dpi, angle and the position's fraction of a pixel (FreeType's 1/64): the
    cache keeps it for each of those and moves it by whole pixels, which gives the same pixels
    (tested against the plain renderer). Used only by this module's canvases.
    """

    _glyphs: dict = {}
    MAX_GLYPHS = 50_000

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        if boxes:  # mathtext rules: the plain path
            return super()._draw_text_glyphs_and_boxes(gc, x, y, angle, glyphs, boxes)
        cache = self._glyphs
        if len(cache) > self.MAX_GLYPHS:
            cache.clear()
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        flags = get_hinting_flag()
        aa = bool(gc.get_antialiased())
        mode = RenderMode.NORMAL if aa else RenderMode.MONO
        height = self.height
        for font, size, index, slant, extend, dx, dy in glyphs:
            tx = round(0x40 * (x + dx * cos - dy * sin))
            ty = round(0x40 * (height - y + dx * sin + dy * cos))
            key = (font.fname, size, self.dpi, index, slant, extend, angle, flags, aa, tx & 63, ty & 63)
            hit = cache.get(key)
            if hit is None:
                font.set_size(size, self.dpi)
                font._set_transform((0x10000 * np.array([[cos, -sin], [sin, cos]])
                                     @ [[extend, extend * slant], [0, 1]]).round().astype(int), [tx & 63, ty & 63])
                bitmap = font._render_glyph(index, flags, mode)
                buf = np.array(bitmap.buffer)
                if not aa:
                    buf *= 0xFF
                hit = cache[key] = (buf, bitmap.left, bitmap.top)
            buf, left, top = hit
            self._renderer.draw_text_image(buf, left + (tx >> 6), int(height) - (top + (ty >> 6)) + buf.shape[0], 0, gc)


class Canvas(FigureCanvasAgg):
    """An Agg canvas whose renderer caches glyphs (`_GlyphCachingRenderer`)."""

    def get_renderer(self):
        if RenderMode is None or not hasattr(RendererAgg, "_draw_text_glyphs_and_boxes"):
            return super().get_renderer()
        w, h = self.get_width_height(physical=True)
        key = w, h, self.figure.dpi
        if self._lastKey != key:
            self.renderer = _GlyphCachingRenderer(w, h, self.figure.dpi)
            self._lastKey = key
        return self.renderer


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def png_frame(rgba: np.ndarray, *, level: int = 1) -> bytes:
    """Encode an (h, w, 4) uint8 canvas as an RGBA PNG: no row filter, deflate `level` (0 to 3).

    The canvas's rows are copied as they are (an RGB PNG would first gather three bytes of four,
    which costs more than the smaller deflate saves) and deflated by ISA-L (`isal`), which gives a
    valid zlib stream of about zlib's size at level 1 many times faster: a live figure's 2x frame in
    1-9 ms, where zlib took 38-107 ms (lessons 01 and 05, a busy machine), at each change of a slider.
    """
    rgba = np.asarray(rgba)
    h, w = rgba.shape[:2]
    rows = np.empty((h, 4 * w + 1), dtype=np.uint8)
    rows[:, 0] = 0  # filter type "none" for every row
    rows[:, 1:] = rgba.reshape(h, 4 * w)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", isal_zlib.compress(memoryview(rows).cast("B"), level)) + _png_chunk(b"IEND", b""))


def small_png(rgba: np.ndarray, *, scale: float = 1.0) -> bytes:
    """A compact PNG of a canvas for stored outputs: scaled by `scale`, palette of 256 colours, optimised."""
    import io

    from PIL import Image

    img = Image.fromarray(np.ascontiguousarray(np.asarray(rgba)[:, :, :3]))
    if scale != 1.0:
        size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
        # area averaging: from a 2x frame it gives the 1x picture's own few colours (Lanczos rings, and the
        # palette PNG comes out half as large again)
        img = img.resize(size, Image.Resampling.BOX)
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


class Scene:
    """One run's picture: figure, canvas, axes, the panels drawn on them, the cached background.

    Parameters
    ----------
    panels : sequence of panels
        Configured panels (the protocol above); each is copied
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
        with mpl.rc_context(s.rc()), _style.context(s):
            figsize, where, rows, cols = grid(self.panels, s)
            self.fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
            self.canvas = Canvas(self.fig)
            gs = self.fig.add_gridspec(rows, cols, height_ratios=[2] + [1] * (rows - 1))
            self.axes, self.animated = [], []
            for j, p in enumerate(self.panels):
                proj = getattr(p, "projection", None)
                r, c = where[j]
                ax = self.fig.add_subplot(gs[r, c], **({"projection": proj} if proj else {}))
                _style.style_axes(ax, s, grid=proj is None)
                self._animate(p.draw(ax, run, X, y))
                self.axes.append(ax)
            if title:
                self.fig.suptitle(title, fontsize=s.title_size)
            lay_out_once(self.fig, self.axes, self.panels, len(run.history) - 1)
        for p in self.panels:
            if getattr(p, "redraw", False):
                p.redraw = False
        # that draw skipped the animated artists: it is the background of state K
        self.bg = self._grab()
        self.limits = limits(self.axes)
        self.k = None

    def _animate(self, artists):
        for a in artists or []:
            a.set_animated(True)
            if a not in self.animated:
                self.animated.append(a)

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
        if self._apply(k) or full:
            self._full_draw()
        else:
            np.asarray(self.canvas.buffer_rgba())[...] = self.bg
            self._draw_animated()
        self.k = k

    def rgba(self) -> np.ndarray:
        return np.asarray(self.canvas.buffer_rgba())
