"""Checks of a player's or live figure's picture in display space, run inside a notebook's kernel.

`report(out_dir)` finds every displayed `LiveFigure` and browser widget (player, switch, editor) of the kernel
(through the garbage collector), saves each live figure's frame as it stands and the first and last frame of each
browser widget's still (the matplotlib drawing its saved output keeps for GitHub and nbviewer: `render.Scene`) to
`out_dir`, and returns, for each frame, what is wrong with it:

* ``leaves``: an artist drawn in an axes (a line, points, an arrow, a note) whose drawn extent goes past
  that axes' box: a point on the axes' edge, an arrowhead cut by the edge, a label running out;
* ``crosses``: a note (a text in an axes, or its legend) that a line, an arrow or a point runs through;
* ``cut``: a text of the figure (title, tick label, axis label, legend) that is not wholly inside it;
* ``smallest_px``: the smallest text of the picture, in CSS pixels at its own size;
* ``paths`` (stills): the steps whose frame depends on the way the drawing got there (#34). The frame at k
  must be the same bytes after 0 -> k (Step), after K -> k (Back), after a jump, and as first shown.

Everything is measured on the figure's own pixels (its artists' window extents, marker sizes included),
so the check is the picture the student sees.
"""

from __future__ import annotations

import gc
import hashlib
import json
from pathlib import Path

import numpy as np
from drawn import Stepped  # tests/ is on the path: pytest's rootdir, and the kernel's PYTHONPATH (test_frames)
from matplotlib.collections import Collection, LineCollection, PathCollection
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch
from matplotlib.text import Text
from matplotlib.transforms import Bbox


def contrast(colour, background="#FFFFFF") -> float:
    """WCAG 2 contrast ratio of two colours (their relative luminance in sRGB)."""
    from matplotlib.colors import to_rgb

    def lum(c):
        r = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in to_rgb(c)]
        return 0.2126 * r[0] + 0.7152 * r[1] + 0.0722 * r[2]

    hi, lo = sorted((lum(colour), lum(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)

TOL = 1.0  # CSS pixels of slack on every box


def _visible(a) -> bool:
    return a.get_visible() and (not isinstance(a, Text) or bool(a.get_text().strip()))


def _polylines(a, r):
    """The drawn polylines of an artist in display space (lines and arrows), or []."""
    if isinstance(a, Line2D):
        if a.get_linestyle() in ("None", "none", "", " ") or len(a.get_xdata()) < 2:
            return []
        return [a.get_transform().transform(np.column_stack([a.get_xdata(), a.get_ydata()]))]
    if isinstance(a, FancyArrowPatch):
        return [np.asarray(p) for p in a.get_path().to_polygons(closed_only=False)]
    if isinstance(a, LineCollection):
        t = a.get_transform()
        return [t.transform(p.vertices) for p in a.get_paths() if len(p.vertices) > 1]
    return []


def _markers(a, r):
    """Boxes (display space) of the markers of a line or a scatter."""
    out = []
    if isinstance(a, Line2D) and a.get_marker() not in (None, "None", "none", "", " "):
        xy = a.get_transform().transform(np.column_stack([a.get_xdata(), a.get_ydata()]))
        half = 0.5 * a.get_markersize() * r.points_to_pixels(1.0) + a.get_markeredgewidth() * r.points_to_pixels(0.5)
        out = [Bbox.from_extents(x - half, y - half, x + half, y + half) for x, y in xy if np.all(np.isfinite((x, y)))]
    elif isinstance(a, PathCollection) and len(a.get_offsets()):
        xy = a.get_offset_transform().transform(a.get_offsets())
        sizes = a.get_sizes()
        for j, (x, y) in enumerate(xy):
            if not np.all(np.isfinite((x, y))):
                continue
            s = sizes[j % len(sizes)] if len(sizes) else 36.0
            half = 0.5 * np.sqrt(s) * r.points_to_pixels(1.0)
            out.append(Bbox.from_extents(x - half, y - half, x + half, y + half))
    return out


def _segment_hits_box(p, q, box: Bbox) -> bool:
    """True if the segment p-q meets the box (Liang-Barsky); a segment with a gap (nan) meets nothing."""
    if not (np.all(np.isfinite(p)) and np.all(np.isfinite(q))):
        return False
    t0, t1 = 0.0, 1.0
    d = q - p
    for pk, qk in ((-d[0], p[0] - box.x0), (d[0], box.x1 - p[0]), (-d[1], p[1] - box.y0), (d[1], box.y1 - p[1])):
        if pk == 0:
            if qk < 0:
                return False
        else:
            t = qk / pk
            if pk < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _boxed_above(note, a) -> bool:
    """A label (of a point or a line) on an opaque box, drawn over the artist `a`."""
    patch = note.get_bbox_patch() if isinstance(note, Text) else None
    return (patch is not None and patch.get_facecolor()[3] >= 0.7  # the patch's alpha is in its colour
            and note.get_zorder() > a.get_zorder())


def _drawn_texts(fig):
    """The texts the figure draws: tick labels only of the ticks in view, no empty or hidden text."""
    from matplotlib.axis import Tick

    ticks = set()
    for ax in fig.axes:
        for axis in ax._axis_map.values():
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                ticks.update((id(tick.label1), id(tick.label2)))
            if hasattr(ax, "get_zlim"):
                continue  # a 3-D axis places its tick labels as it draws: they are not checked here
            for tick in axis._update_ticks():
                ticks.discard(id(tick.label1))
                ticks.discard(id(tick.label2))
    out = []
    for t in fig.findobj(Text):
        if not _visible(t) or id(t) in ticks or isinstance(t, Tick):
            continue
        out.append(t)
    return out


def _inside(inner: Bbox, outer: Bbox, tol: float) -> bool:
    return (inner.x0 >= outer.x0 - tol and inner.x1 <= outer.x1 + tol
            and inner.y0 >= outer.y0 - tol and inner.y1 <= outer.y1 + tol)


def _label(a) -> str:
    if isinstance(a, Text):
        return f"text {a.get_text()!r}"
    return a.get_label() if a.get_label() and not a.get_label().startswith("_") else type(a).__name__


def check_figure(fig, css_per_px: float) -> dict:
    """What is wrong with the figure as it is drawn now (see the module's docstring)."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    tol = TOL / css_per_px
    leaves, crosses, cut, sizes = [], [], [], []
    for n, ax in enumerate(fig.axes):
        is3d = hasattr(ax, "get_zlim")
        box = ax.bbox
        legend = ax.get_legend()
        notes = [t for t in ax.texts if _visible(t)]
        note_boxes = [(t, t.get_window_extent(r)) for t in notes]
        if legend is not None and legend.get_visible():
            note_boxes.append((legend, legend.get_window_extent(r)))
        drawn = [a for a in list(ax.lines) + list(ax.collections) + list(ax.patches) if _visible(a)]
        if not is3d:
            for a in drawn + notes:
                if isinstance(a, (Line2D, Collection)) and not isinstance(a, (PathCollection, LineCollection)):
                    continue  # fills and surfaces: clipped to the axes by design
                if isinstance(a, Patch) and not isinstance(a, FancyArrowPatch):
                    continue
                if isinstance(a, Text) or isinstance(a, FancyArrowPatch):
                    ext = a.get_window_extent(r)
                    if isinstance(a, Text) and not ext.overlaps(box):
                        continue  # a note set outside the axes
                    if not _inside(ext, box, tol):
                        leaves.append(f"axes {n}: {_label(a)} leaves the axes")
                for m in _markers(a, r):
                    if not _inside(m, box, tol):
                        leaves.append(f"axes {n}: a marker of {_label(a)} at ({m.x0:.0f}, {m.y0:.0f}) leaves the axes")
                        break
        for note, nb in note_boxes:
            inner = Bbox.from_extents(nb.x0 + tol, nb.y0 + tol, nb.x1 - tol, nb.y1 - tol)
            for a in drawn:
                if isinstance(note, Legend) and a in getattr(note, "legend_handles", []):
                    continue
                if _boxed_above(note, a):
                    continue  # a label on an opaque box drawn over the line: it stays readable
                seen = Bbox.intersection(inner, box) if a.get_clip_on() else inner  # what the axes let show
                if seen is None:
                    continue
                hit = any(_segment_hits_box(p, q, seen)
                          for line in _polylines(a, r) for p, q in zip(line[:-1], line[1:], strict=True))
                hit = hit or any(m.overlaps(seen) for m in _markers(a, r))
                if hit:
                    crosses.append(f"axes {n}: {_label(a)} (zorder {a.get_zorder():g}) crosses the note {_label(note)}")
    fig_box = fig.bbox
    for t in _drawn_texts(fig):
        ext = t.get_window_extent(r)
        if ext.width == 0:
            continue
        sizes.append(t.get_fontsize())
        if not _inside(ext, fig_box, tol):
            cut.append(f"{_label(t)} is cut by the picture's edge")
    smallest = min(sizes) if sizes else None
    return {"leaves": sorted(set(leaves)), "crosses": sorted(set(crosses)), "cut": sorted(set(cut)),
            "smallest_pt": smallest}


def _digest(player) -> str:
    return hashlib.sha1(player.frame_png()).hexdigest()


def path_differences(player) -> list[str]:
    """Where a player's frame at k is not the same bytes whatever the path to k (empty when none).

    The frame as first shown (at the step the notebook left it) is the reference for that step; then every
    step forward from 0 (Step), every step back from K (Back), and jumps across the run (the "update k" box,
    Reset, End). Leaves the player where it found it.
    """
    K, k0, first = player.K, player.k, _digest(player)
    player.seek(0)
    ahead = [_digest(player)]
    for _ in range(K):
        player.next()
        ahead.append(_digest(player))
    wrong = []
    if first != ahead[k0]:
        wrong.append(f"k = {k0}: the frame as first shown differs from the frame after steps from 0")
    for k in range(K - 1, -1, -1):
        player.prev()
        if _digest(player) != ahead[k]:
            wrong.append(f"k = {k}: Back from {k + 1} gives another frame than Step from {k - 1 if k else 'the start'}")
    jumps = [K, 0, K // 2, K, 1, K // 3, K - 1, 0] if K > 1 else [K, 0, K]
    for k in jumps:
        player.seek(k)
        if _digest(player) != ahead[k]:
            wrong.append(f"k = {k}: a jump to {k} gives another frame than steps from 0")
    player.seek(k0)
    return wrong


class Still(Stepped):
    """A browser widget's still, the matplotlib drawing (`render.Scene`) its saved output keeps, stepped as the
    checks step a picture (`drawn.Stepped`); `restore` draws the widget's own step."""

    def __init__(self, widget):
        drawn = widget._drawn()
        self.scene = drawn[0] if isinstance(drawn, tuple) else drawn.scene
        run = widget._shown_run()[0] if hasattr(widget, "_shown_run") else drawn.run
        self.figure, self.style, self.K = self.scene.fig, self.scene.style, len(run.history) - 1
        self.alt, self.repr = widget.snapshot()[3], repr(widget)
        self.shown = self.k = min(int(widget.k), self.K)
        self.panel_names = [_panel_name(p.front(run, *self._data(widget, drawn), style=self.style), self.shown)
                            for p in self.scene.panels[1:]]
        self.scene.draw(self.k)

    @staticmethod
    def _data(widget, drawn):
        return widget._shown_run()[1:] if hasattr(widget, "_shown_run") else (drawn.X, drawn.y)

    def restore(self) -> None:
        self.seek(self.shown)


def _panel_name(spec, k) -> str:
    """What names a panel beside the data panel (its spec's ``name``; a lifted view, its sentence of step k): its
    still's alt text must say it."""
    return spec["alt"][k] if spec["kind"] == "lifted" else spec["name"]


def _browser_widgets():
    """The displayed browser widgets of the kernel (anywidget classes of perceptron_lib.player.browser*)."""
    from anywidget import AnyWidget

    return [o for o in gc.get_objects() if isinstance(o, AnyWidget)
            and type(o).__module__.startswith("perceptron_lib.player.browser") and getattr(o, "comm", None) is not None]


def report(out_dir) -> str:
    """Save and check every live figure's frame and the first and last frame of every browser widget's still; JSON
    of the findings (``frames``) and the names of the browser widgets on show (``browser``)."""
    from perceptron_lib.player.live import LiveFigure

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    found = []
    widgets = _browser_widgets()
    objs = [o for o in gc.get_objects() if isinstance(o, LiveFigure) and getattr(o._image, "comm", None) is not None]
    objs += [Still(w) for w in widgets]
    for i, o in enumerate(objs):
        still = isinstance(o, Still)
        if still:
            paths = path_differences(o)  # first: the frame as the notebook left it is one of the references
            fig, ks, style = o.figure, (0, o.K), o.style
        else:
            fig, ks, style = o.fig, (None,), o._style
        css_per_px = style.dpi / fig.dpi
        for k in ks:
            if k is not None:
                o.seek(k)
            name = f"{i:02d}-{'Still' if still else type(o).__name__}" + (f"-k{k}" if k is not None else "")
            facts = check_figure(fig, css_per_px) if k is None else _check_scene(o, css_per_px)
            (out / f"{name}.png").write_bytes(o.frame_png())
            w, h = fig.get_size_inches() * style.dpi
            facts.update(name=name, css=[round(w), round(h)], px_per_pt=style.dpi / 72.0,
                         alt=o.alt, repr=o.repr if still else repr(o), panels=o.panel_names if still else [])
            found.append(facts)
        if still:
            o.restore()
            found[-1]["paths"] = paths
    browser = sorted({type(o).__name__ for o in widgets})
    return json.dumps({"frames": found, "browser": browser})


def _check_scene(player, css_per_px):
    """A still's frame: the scene draws its animated artists itself, so check after its own draw."""
    facts = check_figure(player.figure, css_per_px)
    player.redraw()  # check_figure's plain draw left out the animated artists: the scene's full draw puts them back
    return facts
