"""The panels a `BrowserPlayer` draws beside its data panel: the protocol (`FrontPanel`) and the spec's parts.

A kernel panel that can be drawn in the browser has a method ``front(run, X, y, *, style) -> dict``: the
panel's spec, computed once in Python and sent in the ``panels`` list of the player's ``run`` trait. The
browser (``front/panels.js``) looks its ``kind`` up in ``PANEL_KINDS`` and draws frame k from the spec and k
alone. The per-step numbers come from ``core/`` (a `ProofTrace`, `epoch_steps`, an averaged run's
`averages`) or from the numbers the panel was given; this module only writes them in the spec's format.

Two shapes of spec:

* a **chart** (kinds ``loss``, ``claims``, ``epochs``, ``curves``; `chart`): axes of its own beside the data
  panel, with lines, bars, vertical lines, a cursor at the current step, a title (fixed, or one per step) and a
  legend, in the kernel panel's words and colours;
* an **overlay** (kinds ``averaged``, ``max_margin``; `overlay`): lines drawn on the data panel itself, one per
  step or fixed, each with its legend entry, which joins the data panel's legend.

Sizes are in points, as matplotlib's (the browser draws 4/3 CSS px a point); colours are CSS colours; a dash is
a list of on/off lengths in points, already scaled by the line's width (matplotlib's ``lines.scale_dashes``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import matplotlib as mpl
import numpy as np

__all__ = ["FrontPanel", "chart", "line", "bars", "vline", "overlay", "overlay_line", "dash", "padded", "floats",
           "legend_entry"]


@runtime_checkable
class FrontPanel(Protocol):
    """A panel that a `BrowserPlayer` can draw in the browser.

    ``front(run, X, y, *, style)`` returns a JSON-able dict with at least ``"kind"`` (a key of the front end's
    ``PANEL_KINDS``, ``front/panels.js``) and the numbers of every step k = 0..K that the kind's ``draw(k)``
    reads: the browser computes nothing about the run. It is called once per run (`BrowserPlayer` and its
    ``set_run``), with the run the player shows, its data, and the `Style` of the player's preset (its colours
    and text sizes). It must raise a clear ``ValueError`` when the run does not fit the panel (numbers of
    another length), as the panel's ``draw`` does.

    The kernel panels that follow it: `LossPanel`, `ClaimsPanel`, `EpochPanel`, `CurvesPanel` (charts),
    `AveragedLinePanel` and `MaxMarginPanel` (overlays on the data panel). The same panel objects still draw
    the player's still PNG with matplotlib (``draw(ax, run, X, y)``, ``update(k)``).
    """

    def front(self, run, X, y, *, style) -> dict: ...


def floats(values) -> list:
    """A list of floats for JSON: NaN and infinities become None (a gap in a line)."""
    v = np.asarray(values, dtype=float).ravel()
    return [float(a) if np.isfinite(a) else None for a in v]


def dash(linestyle, width: float) -> list | None:
    """matplotlib's dash pattern of `linestyle` at line width `width`, in points (None: solid).

    >>> dash("--", 2.0), dash((0, (5, 3)), 1.0), dash("-", 3.0)
    ([7.4, 3.2], [5.0, 3.0], None)
    """
    if linestyle in ("-", "solid", None):
        return None
    named = {"--": "lines.dashed_pattern", "dashed": "lines.dashed_pattern", "-.": "lines.dashdot_pattern",
             "dashdot": "lines.dashdot_pattern", ":": "lines.dotted_pattern", "dotted": "lines.dotted_pattern"}
    if isinstance(linestyle, str):
        if linestyle not in named:
            raise ValueError(f"linestyle must be '-', '--', '-.', ':' or (offset, (on, off, ...)); got {linestyle!r}.")
        pattern = mpl.rcParams[named[linestyle]]
    else:
        pattern = linestyle[1]
    scale = width if mpl.rcParams["lines.scale_dashes"] else 1.0
    return [round(float(p) * scale, 4) for p in pattern]


def padded(lo: float, hi: float, margin: float = 0.05) -> list:
    """matplotlib's automatic limits of data lo..hi: `margin` of the span on each side (±0.5 of nothing)."""
    lo, hi = float(lo), float(hi)
    if hi > lo:
        pad = margin * (hi - lo)
        return [lo - pad, hi + pad]
    return [lo - 0.5, hi + 0.5]


def legend_entry(label: str, *, color: str, width: float = 0.0, dash_=None, marker=None, shape="line",
                 alpha: float = 1.0) -> dict:
    """One legend entry: a line (with a marker), a bar (``shape="bar"``) or a marker alone (width 0)."""
    return {"label": str(label), "color": color, "width": float(width), "dash": dash_, "marker": marker,
            "shape": shape, "alpha": float(alpha)}


def line(x, y, *, color: str, width: float, linestyle="-", label=None, alpha=1.0, marker=None, marker_size=0.0,
         upto=None, dot=None, dot_marker=None, dot_size=0.0, dot_face=None, dot_edge=None,
         dot_edge_width=0.0) -> dict:
    """A line of a chart.

    `upto` (K + 1 counts): at step k the line shows its first ``upto[k]`` points (None: all, whatever k).
    `dot` (K + 1 point indices, or None): a cursor marker on point ``dot[k]`` at step k (-1: none), of
    `dot_size` points across, shaped `dot_marker` ("o" or "s"; the line's marker, else "o"), filled `dot_face`
    (the line's colour by default), edged `dot_edge`.
    """
    x, y = floats(x), floats(y)
    if len(x) != len(y):
        raise ValueError(f"a line needs as many x as y; got {len(x)} and {len(y)}.")
    return {"x": x, "y": y, "color": color, "width": float(width), "dash": dash(linestyle, width),
            "label": label, "alpha": float(alpha), "marker": marker, "marker_size": float(marker_size),
            "upto": None if upto is None else [int(v) for v in upto],
            "dot": None if dot is None else [int(v) for v in dot], "dot_size": float(dot_size),
            "dot_marker": dot_marker or marker or "o",
            "dot_face": dot_face or color, "dot_edge": dot_edge or color, "dot_edge_width": float(dot_edge_width)}


def bars(x, heights, *, color: str, edge: str, edge_width: float, width: float = 0.7, label=None) -> dict:
    """Bars at `x`, `width` data units wide; ``heights[k]`` holds their heights at step k."""
    return {"x": floats(x), "heights": [[float(h) for h in row] for row in np.asarray(heights, dtype=float)],
            "color": color, "edge": edge, "edge_width": float(edge_width), "width": float(width), "label": label}


def vline(x: float, *, color: str, width: float, linestyle="-", label=None) -> dict:
    """A fixed vertical line across the axes at `x`."""
    return {"x": float(x), "color": color, "width": float(width), "dash": dash(linestyle, width), "label": label}


def chart(kind: str, *, K: int, title=None, titles=None, xlabel: str, ylabel: str, xlim, ylim, lines=(), bar_sets=(),
          vlines=(), cursor=None, cursor_color: str, cursor_width: float, legend=(), legend_at="below",
          yscale="linear", xinteger=True, yinteger=False, name: str, wide=False) -> dict:
    """A chart's spec: its axes, its shapes and the cursor's x at each step k = 0..K (None: no cursor).

    `titles` (K + 1 strings) is the title at each step, else `title` for all (None: no title). `legend` holds
    `legend_entry` dicts; `legend_at` is ``"below"`` (under the axes) or ``"right"`` (beside them). `name` says
    what the panel is, for its accessible name. `wide`: a curve along the run that reads best wide and short.
    """
    if titles is not None and len(titles) != K + 1:
        raise ValueError(f"titles must hold one title per step (K + 1 = {K + 1}); got {len(titles)}.")
    if cursor is not None and len(cursor) != K + 1:
        raise ValueError(f"cursor must hold one x per step (K + 1 = {K + 1}); got {len(cursor)}.")
    if yscale not in ("linear", "symlog"):
        raise ValueError(f"yscale must be 'linear' or 'symlog'; got {yscale!r}.")
    return {"kind": kind, "shape": "chart", "K": int(K), "title": title,
            "titles": None if titles is None else [str(t) for t in titles], "xlabel": xlabel, "ylabel": ylabel,
            "xlim": [float(v) for v in xlim], "ylim": [float(v) for v in ylim], "lines": list(lines),
            "bars": list(bar_sets), "vlines": list(vlines), "cursor": None if cursor is None else floats(cursor),
            "cursor_color": cursor_color, "cursor_width": float(cursor_width), "legend": list(legend),
            "legend_at": legend_at, "yscale": yscale, "xinteger": bool(xinteger), "yinteger": bool(yinteger),
            "name": name, "wide": bool(wide)}


def overlay_line(w, b, *, color: str, width: float, linestyle="-", cls: str) -> dict:
    """A line <w, x> + b = 0 on the data panel: `w` of shape (K + 1, 2) and `b` (K + 1,) move it with the step;
    `w` of shape (2,) and a float `b` fix it. `cls` is its SVG class (for tests and styles)."""
    w = np.asarray(w, dtype=float)
    moving = w.ndim == 2
    return {"w": [floats(row) for row in w] if moving else floats(w),
            "b": floats(b) if moving else float(b), "moving": moving, "color": color, "width": float(width),
            "dash": dash(linestyle, width), "cls": cls}


def overlay(kind: str, *, K: int, lines, legend, name: str) -> dict:
    """An overlay's spec: lines drawn on the data panel (under the points) and the entries they add to its legend."""
    for ln in lines:
        if ln["moving"] and len(ln["w"]) != K + 1:
            raise ValueError(f"a moving line needs one state per step (K + 1 = {K + 1}); got {len(ln['w'])}.")
    return {"kind": kind, "shape": "overlay", "K": int(K), "lines": list(lines), "legend": list(legend), "name": name}
