"""`StepThrough`: a step-through player for a perceptron `Run`, and the panels it shows.

    player = StepThrough(run, X, y, panels=[LossPanel(loss_values, "perceptron loss")])
    player            # as a cell's last value, or display(player)

The player only *replays* ``run.history``; it never re-runs the algorithm.

Render path
-----------
One matplotlib `Figure` with its own `FigureCanvasAgg` is built once per run (no pyplot, so no
figure manager, no pile-up of open figures and never the "more than 20 figures" warning). The
static artists (points, axes, legends, curves) are drawn once and the canvas is cached as a
background; each step restores the background, moves the animated artists (``set_data``),
draws only them (``draw_artist``), encodes the canvas as PNG and sets an ``ipywidgets.Image``.
Nothing is drawn into an ``ipywidgets.Output``, so a notebook showing a player passes strict
``pytest --nbval``. A full redraw happens only when needed: a new run, a changed axes limit,
or a panel that sets ``redraw = True``. The layout (constrained) is computed once per run, at the
last state, and then frozen, so the axes never shift between frames.

Measured on a 2-core machine (``benchmarks/step_latency.py``, 500x460 px, 200 points): a step
takes about 9 ms in the kernel against about 55 ms for clearing and replotting; the PNG encode
(about 3 ms, done here with zlib level 1 and no row filter) and the caption text (about 3 ms)
are most of it.

3-D panels are blitted too: before drawing an animated 3-D collection the player calls its
``do_3d_projection()`` with the axes' projection from the last full draw (the view angle never
changes in an Agg image). The price is that animated 3-D artists are drawn on top of the static
ones instead of being depth-sorted with them, which is why the lifted plane is translucent.

Controls
--------
Reset, Back, Step buttons; an ``ipywidgets.Play`` (play / pause / stop) with a speed slider; an
``IntSlider`` over every state k = 0..K. The slider value *is* the current step: the Play widget
is linked to it on the kernel side (``traitlets.link``), and the buttons and methods set it.
Rendering happens in the slider's observer, which never writes back to a control, so there are
no feedback loops.

Playing uses the Play widget's own front-end timer: no Python threads. In a kernel without a
front end (tests), `play` only sets ``playing = True`` and `tick` advances one step exactly as
the front end's timer would (at the end it pauses instead). Starting to play at the end
restarts from 0, as the front end does.

Panel protocol
--------------
A panel is any object with

* ``draw(ax, run, X, y) -> list of artists``: called once per run on a fresh axes; makes all its
  artists and returns the ones that move (the player marks them animated);
* ``update(k) -> list of artists``: moves its artists to state k (0..K) and returns the ones it
  changed (returning all moving artists is fine);

and, optionally,

* ``projection``: ``None`` (default) or ``"3d"``: the kind of axes it wants;
* ``redraw``: set it to True inside ``update`` when something static changed (a title, ticks);
  the player then does a full draw and resets it to False. Limit changes are detected without it.

While ``draw`` runs, `perceptron_lib.style.current()` is the player's style, so panels built
from `perceptron_lib.plotting` follow the player's preset. A panel gets the whole run, so it
can plot anything along the history, e.g. <u, w_t> and ||w_t||^2 against t for the margin proof.
Built in: `DataPanel` (always the first, main panel), `LossPanel`, `LiftedPanel`.
"""

from __future__ import annotations

import base64
import html as _html
import math
import numbers
import operator
import re
import struct
import tempfile
import zlib
from pathlib import Path

import ipywidgets as widgets
import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from . import plotting as _plot
from . import style as _style
from ._validation import check_X_y
from .perceptron import is_mistake

__all__ = [
    "StepThrough", "LiveFigure", "DataPanel", "LossPanel", "LiftedPanel", "AnimationHTML", "Folded", "fold",
    "NO_KERNEL_SUMMARY", "SPEEDS", "ShowsWidget",
]

#: Speed choices of the player: (label, interval between steps in ms).
SPEEDS = (("0.5/s", 2000), ("1/s", 1000), ("2/s", 500), ("4/s", 250), ("10/s", 100), ("20/s", 50))


# --------------------------------------------------------------------------- formatting


def _num(v) -> str:
    """A number as a person would write it: 2 not 2.0, 4 significant digits otherwise."""
    v = float(v)
    if not math.isfinite(v):
        return str(v)
    if v == int(v) and abs(v) < 1e12:
        return str(int(v))  # also turns -0.0 into 0
    return f"{v:.4g}"


def _vec(w, limit=6) -> str:
    w = np.asarray(w, dtype=float).ravel()
    parts = [_num(v) for v in w[:limit]]
    if len(w) > limit:
        parts.append("...")
    return "(" + ", ".join(parts) + ")"


def _nice_scale(x: float) -> float:
    """The largest 1/m <= x with m in 1, 2, 5, 10, 20, 50, ... (1 for x >= 1)."""
    m, i = 1.0, 0
    while 1.0 / m > x and m < 1e15:
        m *= (2.0, 2.5, 2.0)[i % 3]
        i += 1
    return 1.0 / m


def _fraction(scale: float) -> str:
    return _num(scale) if scale >= 1 else f"1/{_num(round(1 / scale))}"


#: The mistake test of each update rule, in words for the readout.
_TESTS = {
    "nonpositive": "y(<w,x>+b) ≤ 0",
    "negative": "y(<w,x>+b) < 0",
    "sign": "sign(<w,x>+b) ≠ y, sign(0) = -1",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _sign(v) -> str:
    return "+1" if v > 0 else "-1"


# --------------------------------------------------------------------------- panels


class DataPanel:
    """The main panel: the data in the plane with the state at step k.

    Shows the points (colour and marker by class), the boundary <w,x> + b = 0, the previous
    boundary (dashed), w as an arrow normal to the boundary with the update eta*y*x drawn tip to
    tail (grey: w before, purple: the update, green: w after), the current example ringed and
    the points that fail the run's mistake test (its `update_on`) crossed.

    Data of 3 features are shown in the plane too: ``mode="augmented"`` when the first column is
    all ones (bias absorbed, w = (b, w1, w2)) and ``mode="lifted"`` when the third column is
    x1^2 + x2^2 (the boundary is then a circle); ``mode=None`` detects these.

    Arrows are drawn at ``arrow_scale`` if given; by default at 1, or at 1/2, 1/5, 1/10, ... when
    w would not fit in 40% of the view (one scale for the three arrows of a step, so the triangle
    w_before + eta*y*x = w_after stays exact); the corner of the panel states it when it is not 1.
    """

    projection = None

    def __init__(self, *, show_mistakes=True, show_previous=True, show_arrows=True, legend=True,
                 arrow_scale=None, mode=None, pad=0.12):
        self.show_mistakes = show_mistakes
        self.show_previous = show_previous
        self.show_arrows = show_arrows
        self.legend = legend
        self.arrow_scale_arg = arrow_scale
        self.mode_arg = mode
        self.pad = pad
        self.redraw = False

    # -- geometry of the state in the plane
    @staticmethod
    def detect_mode(X) -> str:
        d = X.shape[1]
        if d == 2:
            return "plain"
        if d == 3:
            if np.all(X[:, 0] == 1.0):
                return "augmented"
            if np.allclose(X[:, 2], X[:, 0] ** 2 + X[:, 1] ** 2, rtol=1e-9, atol=1e-9):
                return "lifted"
        raise ValueError(
            f"DataPanel shows 2-D data; got {d} features. 3 features work when the first column is all 1 "
            "(bias absorbed) or the third is x1^2 + x2^2 (lifted); otherwise pass DataPanel(mode=...)."
        )

    def _plane(self, w, b):
        """(w2, b2) of the boundary in the plane of the two shown coordinates (w2 of length 3 when lifted)."""
        if self.mode == "augmented":
            return w[1:3], float(w[0] + b)
        return w, float(b)

    def draw(self, ax, run, X, y):
        self.run, self.X, self.y = run, X, y
        self.mode = self.mode_arg or self.detect_mode(X)
        P = X[:, 1:3] if self.mode == "augmented" else X[:, :2]
        self.P = P
        s = _style.current()
        self.caption_sep = " " if s.title_size <= 16 else "\n"  # big lecture titles: two short lines
        h = run.history
        # view: the data with padding, the origin too for a homogeneous run (its boundary passes through 0)
        lo, hi = P.min(axis=0), P.max(axis=0)
        if not run.fit_bias and self.mode == "plain" and h.b[0] == 0:
            lo, hi = np.minimum(lo, 0), np.maximum(hi, 0)
        span = np.where(hi > lo, hi - lo, 1.0)
        span = np.maximum(span, 0.25 * span.max())
        mid = (lo + hi) / 2
        half = span * (0.5 + self.pad)
        ax.set_xlim(mid[0] - half[0], mid[0] + half[0])
        ax.set_ylim(mid[1] - half[1], mid[1] + half[1])
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("x₁")
        ax.set_ylabel("x₂")
        for v, line in ((0, ax.axhline), (0, ax.axvline)):
            line(v, color="#BBBBBB", linewidth=s.thin_width * 0.7, zorder=1)
        pts = _plot.draw_points(ax, P, y, legend=False)
        arrows = self.show_arrows and self.mode != "lifted"
        self.room = 0.4 * float(min(2 * half[0], 2 * half[1]))  # longest arrow, in data units
        w0, b0 = self._plane(h.w[0], h.b[0])
        self.prev_line = _plot.draw_boundary(ax, w0, b0, color=_style.PREV_BOUNDARY_COLOR,
                                             linewidth=s.thin_width, linestyle=(0, (4, 3)), zorder=2.5)
        self.boundary = _plot.draw_boundary(ax, w0, b0)
        self.ghost = _plot.draw_arrow(ax, (0, 0), (0, 0), color=_style.PREV_BOUNDARY_COLOR, width=s.thin_width,
                                      zorder=4)
        self.w_arrow = _plot.draw_w_arrow(ax, np.zeros(2), 0.0)
        self.update_arrow = _plot.draw_update_arrow(ax, (0, 0), (0, 0))
        self.mistakes = _plot.mark_mistakes(ax, P, np.zeros(len(P), bool))
        self.ring = _plot.ring_point(ax, None)
        self.scale_text = ax.text(0.98, 0.02, "", transform=ax.transAxes, ha="right", va="bottom",
                                  fontsize=s.legend_size, color="#333333", zorder=8,
                                  bbox=dict(boxstyle="round,pad=0.2", facecolor="#FFFFFF", edgecolor="none",
                                            alpha=0.85))
        # The scale note moves with the run like the caption: blitted, so a change of scale (frequent
        # when the static animation jumps between sampled steps) costs a text draw, not a full redraw.
        self.moving = [self.prev_line, self.boundary, self.ghost.patch, self.w_arrow.patch, self.update_arrow.patch,
                       self.mistakes, self.ring, ax.title, self.scale_text]
        if not arrows:
            for a in (self.ghost, self.w_arrow, self.update_arrow):
                a.hide()
        self.arrows = arrows
        self.ax = ax
        if self.legend:
            self._legend(ax, pts, s)
        self.update(0)
        return self.moving

    def _legend(self, ax, pts, s):
        from matplotlib.lines import Line2D

        handles = [pts.pos, pts.neg,
                   Line2D([], [], color=_style.BOUNDARY_COLOR, linewidth=s.line_width, label="boundary"),
                   Line2D([], [], color=_style.PREV_BOUNDARY_COLOR, linewidth=s.thin_width, linestyle=(0, (4, 3)),
                          label="boundary before")]
        if self.arrows:
            handles += [
                Line2D([], [], color=_style.W_COLOR, linewidth=s.arrow_width, marker=">", markersize=s.arrow_head * 0.5,
                       label="w"),
                Line2D([], [], color=_style.UPDATE_COLOR, linewidth=s.arrow_width, marker=">",
                       markersize=s.arrow_head * 0.5, label="η·y·x"),
            ]
        handles += [
            Line2D([], [], linestyle="none", marker="o", markerfacecolor="none", markeredgecolor=_style.RING_COLOR,
                   markeredgewidth=s.ring_width, markersize=np.sqrt(s.ring_size) * 0.6, label="current"),
        ]
        if self.show_mistakes:
            handles.append(Line2D([], [], linestyle="none", marker="x", color=_style.MISTAKE_COLOR,
                                  markeredgewidth=s.mistake_width, markersize=np.sqrt(s.mistake_size),
                                  label="mistake"))
        ncol = 4 if s.legend_size <= 12 else 3  # big lecture text: fewer, taller columns so it fits one panel
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=ncol, fontsize=s.legend_size,
                  frameon=False, handlelength=1.6, columnspacing=1.0, handletextpad=0.5)

    def _scale(self, w2, wp):
        """Arrow scale for this step: `arrow_scale` if given, else 1 or 1/m (m = 2, 5, 10, 20, ...) so w fits."""
        if self.arrow_scale_arg is not None:
            return float(self.arrow_scale_arg)
        longest = max(float(np.linalg.norm(w2)), 0.0 if wp is None else float(np.linalg.norm(wp)))
        return _nice_scale(self.room / longest) if longest > self.room else 1.0

    def anchor(self, w2, b2):
        """Where the w arrow starts: the boundary's point nearest the origin; if that is off view, the middle
        of the boundary's visible part; if the boundary is off view too, the origin (or the view's centre)."""
        a = _plot.w_arrow_anchor(w2, b2)
        xl, yl = self.ax.get_xlim(), self.ax.get_ylim()

        def inside(p):
            return xl[0] <= p[0] <= xl[1] and yl[0] <= p[1] <= yl[1]

        if inside(a):
            return a
        seg = _plot.boundary_segment(w2, b2, xl, yl)
        if seg is not None:
            return seg.mean(axis=0)
        return np.zeros(2) if inside((0.0, 0.0)) else np.array([np.mean(xl), np.mean(yl)])

    def update(self, k):
        run, h = self.run, self.run.history
        st = h[k]
        w2, b2 = self._plane(st.w, st.b)
        _plot.update_boundary(self.boundary, w2, b2, self.ax)
        if k > 0 and self.show_previous:
            wp, bp = self._plane(h.w[k - 1], h.b[k - 1])
            _plot.update_boundary(self.prev_line, wp, bp, self.ax)
        else:
            self.prev_line.set_data([], [])
        self.arrow_scale = 1.0
        if self.arrows:
            wp = self._plane(h.w[k - 1], h.b[k - 1])[0] if k > 0 else None
            sc = self.arrow_scale = self._scale(w2, wp)
            a = self.anchor(w2, b2)
            _plot.update_w_arrow(self.w_arrow, w2, b2, scale=sc, anchor=a)
            if k > 0:
                self.ghost.set(a, a + sc * wp)
                _plot.update_arrow(self.update_arrow, a + sc * wp, sc * (w2 - wp))
            else:
                self.ghost.hide()
                self.update_arrow.hide()
        idx = [] if k == 0 else ([st.i] if st.i >= 0 else list(st.batch))
        _plot.update_ring(self.ring, self.P[idx])
        if self.show_mistakes:
            mask = is_mistake(self.X @ st.w + st.b, self.y, run.update_on)
            _plot.update_mistakes(self.mistakes, self.P, mask)
        else:
            self.mistakes.set_data([], [])
        K = len(h) - 1
        sep = self.caption_sep
        if k == 0:
            cap = f"start (k = 0 of {K})"
        elif st.i >= 0:
            cap = f"update {k} of {K}:{sep}example {st.i}, y = {_sign(self.y[st.i])}"
        else:
            cap = f"update {k} of {K}:{sep}{_plural(len(st.batch), 'example')}"
        self.ax.title.set_text(cap)  # not set_title: that would re-read rcParams outside the player's style
        self.scale_text.set_text("" if self.arrow_scale == 1 else f"arrows ×{_fraction(self.arrow_scale)}")
        return self.moving


class LossPanel:
    """A curve of given values along the run (one per state k = 0..K) with a cursor at k.

    `values` is an array of length K + 1, or a callable ``values(run, X, y)`` returning one (use
    a callable so the panel follows `StepThrough.set_run`). The panel draws the numbers it is
    given; it computes nothing.
    """

    projection = None

    def __init__(self, values, label="perceptron loss", *, ylabel=None, logy=False):
        self.values = values
        self.label = label
        self.ylabel = ylabel
        self.logy = logy
        self.redraw = False

    def draw(self, ax, run, X, y):
        v = self.values(run, X, y) if callable(self.values) else self.values
        v = np.asarray(v, dtype=float).ravel()
        n = len(run.history)
        if len(v) != n:
            raise ValueError(
                f"LossPanel {self.label!r} got {len(v)} values but the run has {n} states (k = 0..{n - 1}); "
                "give one value per state, or a callable values(run, X, y)."
            )
        self.curve = _plot.draw_loss_curve(ax, v, ylabel=self.ylabel)
        if self.logy:
            ax.set_yscale("symlog")
        ax.set_title(self.label)
        return [self.curve.cursor, self.curve.dot]

    def update(self, k):
        return self.curve.set_cursor(k)


class LiftedPanel:
    """3-D view for a run on lifted data (x1, x2, x1^2 + x2^2): the lifted points and the current plane.

    X may have the three lifted columns, or two (then z = x1^2 + x2^2). The run's w has length 3.
    """

    projection = "3d"

    def __init__(self, *, elev=24, azim=-58, zoom=0.95, title="lifted: z = x₁² + x₂²"):
        self.elev, self.azim, self.zoom, self.title = elev, azim, zoom, title
        self.redraw = False

    def draw(self, ax, run, X, y):
        if run.history.w.shape[1] != 3:
            raise ValueError(f"LiftedPanel needs a run on 3 lifted features; this run has w of length "
                             f"{run.history.w.shape[1]}.")
        s = _style.current()
        self.run = run
        self.Z = np.column_stack([X[:, 0], X[:, 1], X[:, 2] if X.shape[1] >= 3 else _plot.lifted_z(X)])
        self.art = _plot.draw_lifted(ax, X, y, self.Z[:, 2], w=run.history.w[0], b=run.history.b[0])
        (self.ring,) = ax.plot([], [], [], linestyle="none", marker="o", markerfacecolor="none",
                               markeredgecolor=_style.RING_COLOR, markeredgewidth=s.ring_width,
                               markersize=np.sqrt(s.ring_size) * 0.8, zorder=10)
        ax.view_init(elev=self.elev, azim=self.azim)
        pad = s.tick_size * 0.35
        ax.set_xlabel("x₁", labelpad=pad)
        ax.set_ylabel("x₂", labelpad=pad)
        ax.set_zlabel("z", labelpad=pad * 0.6)
        ax.set_title(self.title)
        ax.tick_params(labelsize=s.tick_size * 0.8, pad=1)
        for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
            axis.set_major_locator(mpl.ticker.MaxNLocator(3))
        ax.set_box_aspect(None, zoom=self.zoom)
        self.update(0)
        return [self.art.plane, self.ring]

    def update(self, k):
        st = self.run.history[k]
        moved = self.art.set_plane(st.w, st.b)
        if k > 0 and st.i >= 0:
            p = self.Z[st.i]
            self.ring.set_data_3d([p[0]], [p[1]], [p[2]])
        else:
            self.ring.set_data_3d([], [], [])
        return moved + [self.ring]


# --------------------------------------------------------------------------- display


class ShowsWidget:
    """Display as the ipywidgets box in ``self.widget``, with a stable text form.

    The text/plain part of the output is ``repr(self)`` instead of the box's repr, so a stored
    notebook compares equal under nbval from run to run.
    """

    def _repr_mimebundle_(self, **kwargs):
        data = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):  # (data, metadata)
            data = data[0]
        data = dict(data or {})
        data["text/plain"] = repr(self)
        return data


# --------------------------------------------------------------------------- static fallback


class AnimationHTML:
    """A JavaScript animation (matplotlib's ``HTMLWriter`` page) that a notebook displays as HTML."""

    def __init__(self, html: str, frames: list, dpi: float):
        self.data = html
        self.frames = list(frames)
        self.dpi = dpi
        self.nbytes = len(html.encode("utf-8"))

    def _repr_html_(self):
        return self.data

    def __repr__(self):
        return f"<AnimationHTML: {len(self.frames)} frames, {self.nbytes / 1e6:.2f} MB>"


NO_KERNEL_SUMMARY = "No kernel? Step through the recorded run"


class Folded:
    """Static animations folded into a closed ``<details>`` block.

    The notebooks place one after each live player: a reader without a kernel (an exported
    page, a notebook viewer, the slides) opens it and steps through the recorded run, while a
    student with a kernel, who has the live player, is not shown the same thing twice.
    """

    def __init__(self, summary: str, parts):
        self.summary = str(summary)
        self.parts = [p if isinstance(p, tuple) else ("", p) for p in parts]
        for _title, anim in self.parts:
            if not hasattr(anim, "_repr_html_"):
                raise TypeError(f"fold needs animations from StepThrough.to_html(); got {type(anim).__name__}.")

    @property
    def nbytes(self) -> int:
        return len(self._repr_html_().encode("utf-8"))

    def _repr_html_(self):
        body = "".join((f"<h4>{_html.escape(t)}</h4>" if t else "") + a._repr_html_() for t, a in self.parts)
        return f'<details class="perceptron-fallback"><summary>{_html.escape(self.summary)}</summary>{body}</details>'

    def __repr__(self):
        return f"<Folded: {len(self.parts)} animation(s) under {self.summary!r}>"


def fold(summary: str, *parts) -> Folded:
    """Fold animations (``player.to_html()``, or ``(title, animation)`` pairs) under `summary`.

    Examples
    --------
    >>> anim = AnimationHTML("<div>frames</div>", [0, 1], 72)
    >>> fold("No kernel?", ("run A", anim))._repr_html_()
    '<details class="perceptron-fallback"><summary>No kernel?</summary><h4>run A</h4><div>frames</div></details>'
    """
    return Folded(summary, parts)


# --------------------------------------------------------------------------- the player


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def _png_rgb(rgba: np.ndarray) -> bytes:
    """Encode an (h, w, 4) or (h, w, 3) uint8 canvas as an RGB PNG: no row filter, zlib level 1.

    About twice as fast as Pillow's adaptive filtering for plots (mostly flat colour), at a
    similar size; the step time is dominated by this encode.
    """
    h, w = rgba.shape[:2]
    rows = np.empty((h, 3 * w + 1), dtype=np.uint8)
    rows[:, 0] = 0  # filter type "none" for every row
    rows[:, 1:] = rgba[:, :, :3].reshape(h, 3 * w)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + _png_chunk(b"IEND", b""))


def _animation_page(frames_b64: list, interval_ms: int) -> str:
    """matplotlib's JavaScript animation page (``HTMLWriter``) around already encoded PNG frames.

    The writer saves each frame of its figure with ``savefig``, which costs a full draw and a
    PNG encode per frame; here it saves a blank 4-pixel figure, and the frames it wrote are swapped
    for ours. The swap is checked: if the page does not hold exactly one frame per input, a
    newer matplotlib changed its format, and this raises rather than show the wrong frames.
    """
    from matplotlib.animation import HTMLWriter

    fig = Figure(figsize=(1, 1), dpi=4)  # a 4x4 blank: the cheapest frame savefig makes
    FigureCanvasAgg(fig)
    writer = HTMLWriter(fps=1000 / max(1, int(interval_ms)), embed_frames=True, default_mode="once")
    with tempfile.TemporaryDirectory(prefix="perceptron-anim-") as tmp:
        path = Path(tmp, "animation.html")
        with writer.saving(fig, path, dpi=4):
            for _ in frames_b64:
                writer.grab_frame()
        page = path.read_text(encoding="utf-8")
    slots = iter(frames_b64)
    page, n = _FRAME_SLOT.subn(lambda m: f'{m.group(1)}"data:image/png;base64,{next(slots)}"', page)
    if n != len(frames_b64):
        raise RuntimeError(f"matplotlib's HTMLWriter page held {n} frame slots for {len(frames_b64)} frames; "
                           "its format changed: update perceptron_lib.widgets._animation_page.")
    return page


#: one frame in HTMLWriter's page: ``frames[i] = "data:image/png;base64,..."`` (newlines escaped)
_FRAME_SLOT = re.compile(r'(frames\[\d+\]\s*=\s*)"data:image/png;base64,(?:[^"\\]|\\[\s\S])*"')


class _Scene:
    """One built figure: canvas, axes, panels' moving artists, cached background."""

    def __init__(self, fig, canvas, axes, animated):
        self.fig, self.canvas, self.axes, self.animated = fig, canvas, axes, animated
        self.bg = None
        self.limits = None


def _limits(axes):
    out = []
    for ax in axes:
        lim = tuple(ax.get_xlim()) + tuple(ax.get_ylim())
        if hasattr(ax, "get_zlim"):
            lim += tuple(ax.get_zlim())
        out.append(lim)
    return out


class StepThrough(ShowsWidget):
    """Step through a perceptron run: controls, a readout in words, and a figure of the state at step k.

    Parameters
    ----------
    run : Run
        From `fit_perceptron`, `fit_minibatch` or `fit_batch`.
    X, y : array-like
        The data the run was fitted on.
    panels : sequence of panels
        Extra panels to the right of the main `DataPanel` (see the module docstring).
    title : str, optional
        A title over the figure.
    interval_ms : int
        Time between steps while playing (a value from `SPEEDS` or any other).
    style : None, "notebook", "lecture" or Style
        Figure preset; None is `perceptron_lib.style.current()` at construction.
    data_panel : DataPanel, optional
        A configured main panel (e.g. ``DataPanel(show_mistakes=False)``).
    dpi : float, optional
        Resolution of the frames (default: the style's).

    Methods `next`, `prev`, `seek`, `reset`, `play`, `pause`, `tick` drive it from code; `k`, `state`,
    `playing`, `text` and `frame_png()` read it. Display it as a cell's last value or with
    ``display(player)``; ``player.widget`` is the underlying box.
    """

    def __init__(self, run, X, y, *, panels=(), title=None, interval_ms=500, style=None, data_panel=None, dpi=None):
        self._style = _style.get(style)
        self._dpi = float(dpi or self._style.dpi)
        self._title = title
        self._main = data_panel if data_panel is not None else DataPanel()
        self._extra = list(panels)
        self._quiet = False
        self._png = b""
        self._scene = None
        self._run = None
        self._memory = []  # (run, X, y, scene, panels' states) of runs shown before, oldest first

        K = 0
        self._image = widgets.Image(format="png")
        self._readout = widgets.HTML()
        self._play = widgets.Play(value=0, min=0, max=K, step=1, interval=int(interval_ms), show_repeat=False,
                                  tooltip="play / pause / stop (stop goes back to the start)")
        self._slider = widgets.IntSlider(value=0, min=0, max=K, step=1, description="update k",
                                         continuous_update=True, layout=widgets.Layout(width="100%", max_width="640px"))
        self._link = widgets.link((self._play, "value"), (self._slider, "value"))
        self._reset_btn = widgets.Button(description="Reset", icon="fast-backward", tooltip="back to the start (k = 0)",
                                         layout=widgets.Layout(width="auto"))
        self._back_btn = widgets.Button(description="Back", icon="step-backward", tooltip="one update back",
                                        layout=widgets.Layout(width="auto"))
        self._step_btn = widgets.Button(description="Step", icon="step-forward", tooltip="one update forward",
                                        layout=widgets.Layout(width="auto"))
        self._speed = widgets.SelectionSlider(options=self._speed_options(int(interval_ms)), value=int(interval_ms),
                                              description="speed", continuous_update=True,
                                              layout=widgets.Layout(width="260px"))
        self._reset_btn.on_click(lambda _b: self.reset())
        self._back_btn.on_click(lambda _b: self.prev())
        self._step_btn.on_click(lambda _b: self.next())
        self._speed.observe(self._on_speed, names="value")
        self._slider.observe(self._on_k, names="value")
        self._play.observe(self._on_playing, names="playing")
        controls = widgets.HBox([self._reset_btn, self._back_btn, self._step_btn, self._play, self._speed],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = widgets.VBox([self._image, controls, self._slider, self._readout])
        self.widget.add_class("perceptron-stepthrough")
        self.set_run(run, X, y)

    # ------------------------------------------------------------------ display
    def __repr__(self):
        K = len(self._run.history) - 1 if self._run is not None else 0
        return f"<StepThrough: {self._run.method if self._run else '?'} run, {_plural(K, 'update')}>"

    def close(self):
        """Close the widgets (the figure goes with the player, and so do the remembered ones)."""
        self._memory.clear()
        self._link.unlink()
        for w in (self._image, self._readout, self._play, self._slider, self._reset_btn, self._back_btn,
                  self._step_btn, self._speed, self.widget):
            w.close()

    # ------------------------------------------------------------------ state
    @property
    def run(self):
        """The run shown; assigning a run (fitted on the same X, y) swaps it in like `set_run`."""
        return self._run

    @run.setter
    def run(self, run):
        self.set_run(run)

    @property
    def X(self):
        return self._X

    @property
    def y(self):
        return self._y

    @property
    def K(self) -> int:
        """Number of updates; the states are k = 0..K."""
        return len(self._run.history) - 1

    @property
    def k(self) -> int:
        """The current step (0 is the start)."""
        return int(self._slider.value)

    @property
    def state(self):
        """The current `State` (``run.history[k]``)."""
        return self._run.history[self.k]

    @property
    def playing(self) -> bool:
        return bool(self._play.playing)

    @property
    def interval_ms(self) -> int:
        return int(self._play.interval)

    @property
    def style(self):
        return self._style

    @property
    def panels(self) -> list:
        """All panels, the main `DataPanel` first."""
        return [self._main] + self._extra

    @property
    def figure(self):
        return self._scene.fig

    # ------------------------------------------------------------------ controls
    def seek(self, k) -> int:
        """Go to step k, clamped to 0..K; returns the step shown."""
        try:
            k = operator.index(k)
        except TypeError:
            if not isinstance(k, numbers.Real):
                raise TypeError(f"seek needs a step number; got {type(k).__name__} {k!r}.") from None
            k = float(k)
            if not math.isfinite(k):
                raise ValueError(f"seek needs a finite step; got {k!r}.") from None
            k = int(round(k))
        k = min(max(k, 0), self.K)
        self._slider.value = k  # the observer renders
        return self.k

    def next(self) -> int:
        """One update forward (stays at K at the end)."""
        return self.seek(self.k + 1)

    def prev(self) -> int:
        """One update back (stays at 0 at the start)."""
        return self.seek(self.k - 1)

    def reset(self) -> int:
        """Pause and go back to the start."""
        self.pause()
        return self.seek(0)

    def play(self):
        """Start playing (the front end's timer steps); at the end it restarts from 0."""
        self._play.playing = True

    def pause(self):
        self._play.playing = False

    def toggle(self):
        self._play.playing = not self._play.playing

    def tick(self) -> bool:
        """Do what the front end's Play timer does once: step if playing; past the end, pause.

        Returns True if it moved. Use it to drive playing without a browser (tests, scripts).
        """
        if not self._play.playing:
            return False
        nxt = self.k + int(self._play.step)
        if nxt <= self.K:
            self._play.value = nxt  # linked to the slider, as the front end does
            return True
        self._play.playing = False
        return False

    def set_speed(self, interval_ms) -> None:
        """Set the time between steps while playing (adds a choice to the speed slider if new)."""
        ms = int(interval_ms)
        if ms <= 0:
            raise ValueError(f"interval_ms must be positive; got {interval_ms!r}.")
        opts = self._speed_options(ms)
        if tuple(self._speed.options) != opts:
            self._speed.options = opts
        self._speed.value = ms

    @staticmethod
    def _speed_options(ms):
        opts = dict((v, lab) for lab, v in SPEEDS)
        opts.setdefault(ms, f"{1000 / ms:.3g}/s")
        return tuple((opts[v], v) for v in sorted(opts, reverse=True))

    def _on_speed(self, change):
        self._play.interval = int(change["new"])

    def _on_k(self, change):
        if not self._quiet:
            self._render(int(change["new"]))

    def _on_playing(self, change):
        if change["new"] and self.K > 0 and self.k >= self.K:
            self.seek(0)  # like the front end: play at the end starts over

    # ------------------------------------------------------------------ run swap and figure
    #: figures of earlier runs kept, so that switching back to one of them is instant
    REMEMBER = 6

    def set_run(self, run, X=None, y=None) -> None:
        """Show another run (of the same or new data). Pauses, builds a new figure, goes to k = 0.

        The figures of the last `REMEMBER` runs shown are kept: showing one of them again (the
        same run object on the same data) reuses its figure instead of building it anew.

        Raises ValueError, before changing anything, if the run does not fit the data or a panel.
        """
        X = self._X if X is None else X
        y = self._y if y is None else y
        X, y = check_X_y(X, y)
        hw = getattr(getattr(run, "history", None), "w", None)
        if hw is None:
            raise TypeError(f"run must be a Run from fit_perceptron/fit_minibatch/fit_batch; got {type(run).__name__}.")
        if hw.shape[1] != X.shape[1]:
            raise ValueError(f"the run's w has length {hw.shape[1]} but X has {X.shape[1]} features.")
        if getattr(run, "n_samples", 0) and run.n_samples != len(X):
            raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(X)} rows.")
        if self._scene is not None:
            self._remember()
        scene = self._recall(run, X, y)
        if scene is None:
            try:
                scene = self._build(run, X, y, self._dpi)
            except Exception:
                if self._scene is not None:  # a panel failed half-way: put the panels back on the current run
                    self._recall(self._run, self._X, self._y)
                    self._render(self.k, full=True)
                raise
        self._play.playing = False
        self._run, self._X, self._y, self._scene = run, X, y, scene
        K = len(run.history) - 1
        self._quiet = True
        try:
            self._slider.value = 0
            self._play.value = 0
            self._slider.max = K
            self._play.max = K
        finally:
            self._quiet = False
        self._render(0)

    def _remember(self):
        """Keep the figure on show, with its panels' state, for when its run is shown again."""
        self._forget(self._run, self._X, self._y)
        if not all(hasattr(p, "__dict__") for p in self.panels):
            return  # a panel with __slots__: its state cannot be set aside, so its figures are rebuilt
        states = [dict(vars(p)) for p in self.panels]
        self._memory.append((self._run, self._X, self._y, self._scene, states))
        del self._memory[:-self.REMEMBER]

    def _recall(self, run, X, y):
        """The remembered figure of (run, X, y), its panels' state restored; None if there is none."""
        entry = self._forget(run, X, y)
        if entry is None:
            return None
        for p, state in zip(self.panels, entry[4], strict=True):
            vars(p).clear()
            vars(p).update(state)
        return entry[3]

    def _forget(self, run, X, y):
        for j, (r, X0, y0, _scene, _states) in enumerate(self._memory):
            if r is run and np.array_equal(X0, X) and np.array_equal(y0, y):
                return self._memory.pop(j)
        return None

    def _build(self, run, X, y, dpi):
        s = self._style
        panels = self.panels
        n = len(panels)
        with mpl.rc_context(s.rc()), _style.context(s):
            fig = Figure(figsize=s.figsize(ncols=n), dpi=dpi, layout="constrained")
            canvas = FigureCanvasAgg(fig)
            axes, animated = [], []
            for j, p in enumerate(panels):
                proj = getattr(p, "projection", None)
                ax = fig.add_subplot(1, n, j + 1, **({"projection": proj} if proj else {}))
                _style.style_axes(ax, s, grid=proj is None)
                arts = p.draw(ax, run, X, y) or []
                for a in arts:
                    a.set_animated(True)
                    if a not in animated:
                        animated.append(a)
                axes.append(ax)
            if self._title:
                fig.suptitle(self._title, fontsize=s.title_size)
            # Lay the figure out once, at the last state (its captions are the longest), then freeze the
            # layout: later full draws (new limits, a panel's redraw) then never shift the axes, and they
            # skip the layout pass.
            K = len(run.history) - 1
            for p in panels:
                p.update(K)
            canvas.draw()
            fig.set_layout_engine("none")
        scene = _Scene(fig, canvas, axes, animated)
        # that draw skipped the animated artists: it is the background of state K, reused when nothing
        # static changes on the way to the first frame shown
        for p in panels:
            if getattr(p, "redraw", False):
                p.redraw = False
        scene.bg = canvas.copy_from_bbox(fig.bbox)
        scene.limits = _limits(axes)
        return scene

    def _full_draw(self, sc):
        with mpl.rc_context(self._style.rc()):
            sc.canvas.draw()
        sc.bg = sc.canvas.copy_from_bbox(sc.fig.bbox)
        sc.limits = _limits(sc.axes)
        self._draw_animated(sc)

    @staticmethod
    def _draw_animated(sc):
        from matplotlib.collections import Collection
        from matplotlib.patches import Patch

        for a in sorted(sc.animated, key=lambda a: a.get_zorder()):
            ax = a.axes if a.axes is not None else None
            if ax is None or not a.get_visible():
                continue
            if hasattr(ax, "get_proj") and isinstance(a, (Collection, Patch)) and hasattr(a, "do_3d_projection"):
                a.do_3d_projection()
            ax.draw_artist(a)

    def _apply(self, sc, k):
        """Move every panel's artists to step k; True if a full redraw of `sc` is needed."""
        full = False
        for p in self.panels:
            for a in p.update(k) or []:
                if a not in sc.animated:
                    a.set_animated(True)
                    sc.animated.append(a)
                    full = True
            if getattr(p, "redraw", False):
                p.redraw = False
                full = True
        return full or sc.bg is None or _limits(sc.axes) != sc.limits

    def _draw_step(self, sc, k, full=False):
        """Bring the canvas of `sc` to step k: blit if possible, full draw when needed."""
        if self._apply(sc, k) or full:
            self._full_draw(sc)
        else:
            sc.canvas.restore_region(sc.bg)
            self._draw_animated(sc)

    def _render(self, k, full=False):
        k = min(max(int(k), 0), self.K)
        self._draw_step(self._scene, k, full)
        self._png = self._encode(self._scene.canvas)
        self._image.value = self._png
        self._readout.value = self._html(k)
        self._back_btn.disabled = self._reset_btn.disabled = k == 0
        self._step_btn.disabled = k >= self.K

    @staticmethod
    def _encode(canvas) -> bytes:
        return _png_rgb(np.asarray(canvas.buffer_rgba()))

    def frame_png(self) -> bytes:
        """PNG bytes of the current frame (what the Image widget shows)."""
        return self._png

    # ------------------------------------------------------------------ readout
    def lines(self, k=None) -> list:
        """The readout for step k (default: current) as plain-text lines."""
        run, h = self._run, self._run.history
        K = len(h) - 1
        k = self.k if k is None else min(max(int(k), 0), K)
        st = h[k]
        n = len(self._y)
        wrong = int(is_mistake(self._X @ st.w + st.b, self._y, run.update_on).sum())
        unit = "epoch" if run.method == "online" else "iteration"
        out = []
        test = _TESTS.get(run.update_on, "the update test")
        if k == 0:
            out.append(f"Start state (update 0 of {K}): no example looked at yet.")
        else:
            out.append(f"Update {k} of {K} ({unit} {st.epoch}).")
            if st.i >= 0:
                xi, yi = self._X[st.i], self._y[st.i]
                out.append(f"Example i = {st.i}: x = {_vec(xi)}, y = {_sign(yi)}.")
                out.append(f"y(<w,x>+b) before → after: {_num(st.margin_before)} → {_num(st.margin_after)}.")
            else:
                idx = ", ".join(str(int(i)) for i in st.batch[:12]) + (", ..." if len(st.batch) > 12 else "")
                where = "the data" if run.method == "batch" else "the batch"
                out.append(f"A step on the {_plural(len(st.batch), 'mistake')} in {where}: i = {idx}.")
                wp, bp = h.w[k - 1], h.b[k - 1]
                before = int(is_mistake(self._X @ wp + bp, self._y, run.update_on).sum())
                out.append(f"Mistakes in the data before → after: {before} → {wrong} of {n}.")
        out.append(f"w = {_vec(st.w)}, b = {_num(st.b)}.")
        if run.method == "online":
            out.append(f"Mistakes so far: {k} (one update each). Mistakes now: {wrong} of {n} ({test}).")
        else:
            out.append(f"Updates so far: {k}. Mistakes now: {wrong} of {n} ({test}).")
        if k == K:
            out.append(self._end_text())
        return out

    @property
    def text(self) -> str:
        """The current readout as plain text."""
        return "\n".join(self.lines())

    def _end_text(self) -> str:
        run = self._run
        test = _TESTS.get(run.update_on, "the update test")
        if run.converged:
            if run.method == "online":
                return f"End: converged. Epoch {run.epochs} made no update: no example fails the test {test}."
            return f"End: converged after {run.epochs} iterations: no example fails the test {test}."
        if run.cycle is not None:
            c = run.cycle
            return (f"End: cycle. The state after epoch {c.start} came back after epoch {c.start + c.length} "
                    f"({c.mistakes_per_cycle} updates per cycle), so the run would repeat for ever: "
                    "no separator of this form exists.")
        limit = "max_epochs" if run.method == "online" else "max_iter"
        unit = "epochs" if run.method == "online" else "iterations"
        return f"End: stopped at {limit} after {run.epochs} {unit}, not converged."

    def _html(self, k) -> str:
        lines = self.lines(k)
        head, rest = lines[0], lines[1:]
        body = "<br>".join(_html.escape(s) for s in rest)
        return (f'<div style="font-size:1.05em;line-height:1.45"><b>{_html.escape(head)}</b><br>'
                f'<span style="font-variant-numeric:tabular-nums">{body}</span></div>')

    # ------------------------------------------------------------------ static fallback
    def to_html(self, max_frames=40, dpi=72, *, max_bytes=2_000_000, interval_ms=None) -> AnimationHTML:
        """The same frames as a self-contained JavaScript animation (works offline, no kernel needed).

        At most `max_frames` frames, evenly subsampled over 0..K (both ends included), drawn by
        the player's own figure and blit path and scaled down to `dpi` (no second figure is
        built, so the cost is the frames themselves); fewer frames are used if needed to keep the
        HTML at most `max_bytes` (2 MB). The page is matplotlib's ``HTMLWriter`` animation (its
        buttons, slider and loop modes); each frame is encoded once, as the player encodes its
        steps, instead of being drawn again and saved through ``savefig``. Returns an
        `AnimationHTML` (``_repr_html_``, ``nbytes``, ``frames``). The HTML holds random ids: in
        an nbval-checked notebook mark that cell ``# NBVAL_IGNORE_OUTPUT`` or sanitize the ids.
        Scripts in stored HTML run only in trusted notebooks.
        """
        from PIL import Image as _PILImage  # Pillow comes with matplotlib

        K = self.K
        dpi = float(dpi)
        max_frames = max(2, int(max_frames))
        interval = int(interval_ms or self.interval_ms)
        scene = self._scene
        scale = dpi / self._dpi
        data = {}  # k -> the frame as base64 PNG

        def frame(k):
            if k not in data:
                self._draw_step(scene, k)
                rgb = np.asarray(scene.canvas.buffer_rgba())[:, :, :3]  # opaque: alpha carries nothing
                if scale != 1.0:
                    h0, w0 = rgb.shape[:2]
                    size = (max(1, round(w0 * scale)), max(1, round(h0 * scale)))
                    small = _PILImage.fromarray(np.ascontiguousarray(rgb)).resize(size, _PILImage.Resampling.LANCZOS)
                    rgb = np.asarray(small)
                data[k] = base64.b64encode(_png_rgb(rgb)).decode("ascii")
            return data[k]

        def subsample(ks, m):
            picks = np.linspace(0, len(ks) - 1, num=max(2, min(m, len(ks)))).round().astype(int)
            return [ks[j] for j in sorted(set(picks.tolist()))]

        overhead = 20_000  # matplotlib's script, style and controls
        try:
            # the two ends bound a frame's size (the last state has the most drawn on it)
            per_frame = max(len(frame(0)), len(frame(K))) + 40
            frames = subsample(list(range(K + 1)), min(max_frames, int(0.95 * (max_bytes - overhead) / per_frame)))
            for k in frames:
                frame(k)
            while len(frames) > 2 and overhead + sum(len(data[k]) + 40 for k in frames) > max_bytes:
                frames = subsample(frames, len(frames) - 1)
        finally:
            self._draw_step(scene, self.k)  # the canvas shows the current step again (its PNG never changed)
        return AnimationHTML(_animation_page([data[k] for k in frames], interval), frames, dpi)

    def fallback(self, summary: str = NO_KERNEL_SUMMARY, **to_html) -> Folded:
        """This player's static animation (`to_html`), folded under `summary`: the cell after a player."""
        return fold(summary, self.to_html(**to_html))


# --------------------------------------------------------------------------- live figures


class LiveFigure(ShowsWidget):
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
        Preset (None: `perceptron_lib.style.current()`).
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

    def __init__(self, nrows=1, ncols=1, *, style=None, projection=None, figsize=None, dpi=None):
        self._style = _style.get(style)
        n = nrows * ncols
        projections = list(projection) if isinstance(projection, (list, tuple)) else [projection] * n
        if len(projections) != n:
            raise ValueError(f"projection needs one entry per axes ({n}); got {len(projections)}.")
        with mpl.rc_context(self._style.rc()), _style.context(self._style):
            self.fig = Figure(figsize=figsize or self._style.figsize(ncols, nrows), dpi=dpi or self._style.dpi,
                              layout="constrained")
            self.canvas = FigureCanvasAgg(self.fig)
            self.axes = [self.fig.add_subplot(nrows, ncols, j + 1, projection=p) for j, p in enumerate(projections)]
        for ax in self.axes:
            _style.style_axes(ax, self._style)
        self._image = widgets.Image(format="png")
        self._readout = widgets.HTML()
        self._controls: dict = {}
        self._fn = None
        self._settled = False
        self._holding = False
        self.text = ""
        self.widget = widgets.VBox([self._image, self._readout])
        self.widget.add_class("perceptron-livefigure")

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
        for c in self._controls.values():
            c.observe(self._changed, names="value")
        box = widgets.HBox(list(self._controls.values()), layout=widgets.Layout(flex_flow="row wrap"))
        self.widget.children = (box, self._image, self._readout)
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
            passes = 3 if any(hasattr(ax, "get_zlim") for ax in self.axes) else 2
            for _ in range(passes):
                self.fig.draw_without_rendering()
            self.fig.set_layout_engine("none")
            self._settled = True
        self.canvas.draw()
        self._image.value = _png_rgb(np.asarray(self.canvas.buffer_rgba()))

    def frame_png(self) -> bytes:
        """The current picture as PNG bytes."""
        return bytes(self._image.value)

    def __repr__(self):
        names = ", ".join(self._controls) or "no controls"
        return f"<LiveFigure: {names}>"
