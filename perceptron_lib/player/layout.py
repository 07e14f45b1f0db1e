"""The layout of a player's still (`render.Scene`) and of a live figure: constrained layout, run until the panels
stand clear of each other and no moving text reaches past the figure's edge at any step, then frozen.
"""

from __future__ import annotations

import numpy as np
from matplotlib.text import Text

__all__ = ["settle_layout", "lay_out_once", "measured_steps", "text_overflow", "limits", "TEXT_STEPS"]


def _crowding(boxes, air: float) -> float:
    """How many pixels two boxes side by side lack to stand `air` pixels apart (0 when none is closer)."""
    worst = 0.0
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if min(a.y1, b.y1) - max(a.y0, b.y0) <= 0:  # one above the other: no row to share
                continue
            gap = max(b.x0 - a.x1, a.x0 - b.x1)  # negative where they overlap
            worst = max(worst, air - gap)
    return worst


def settle_layout(fig, axes, *, passes: int = 2, rounds: int = 3, freeze: bool = True) -> None:
    """Run the figure's constrained layout `passes` times, the last as a full draw, then freeze it (unless not
    `freeze`): later draws skip the layout, and the canvas holds the figure drawn in its final layout.

    Constrained layout places an axes by its box before mplot3d places the 3-D axis names by the view, so
    a 3-D axes' z name could end on the next panel's axis name (lesson 05's lifted view in the lecture
    preset: 1 px apart): while two panels' drawn extents (labels included) stand closer than 4 points, the
    space between panels grows by what they lack and the layout runs again (at most `rounds` times).
    """
    engine = fig.get_layout_engine()
    air = 4 * fig.dpi / 72
    for _ in range(rounds):
        for _ in range(passes - 1):
            fig.draw_without_rendering()
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        lack = _crowding([ax.get_tightbbox(renderer) for ax in axes if ax.get_visible()], air)
        if lack <= 0 or engine is None or not hasattr(engine, "set"):
            break
        engine.set(w_pad=engine.get()["w_pad"] + lack / fig.dpi)  # pixels to inches
    if freeze:
        fig.set_layout_engine("none")


#: How many steps of a run `Scene` measures its moving texts at (every step of a shorter run): each costs every
#: panel's ``update`` (a data panel of 300 points: about 3 ms).
TEXT_STEPS = 60


def measured_steps(K: int) -> list:
    """The steps at which a scene's moving texts are measured, the last K: every step of a run of fewer than
    `TEXT_STEPS`, else the first ten (the notes of the start: "w = 0: no boundary yet", the arrows' scale) and
    the rest spread over the run (its numbers' longest digits at the end)."""
    if K < TEXT_STEPS:
        return list(range(K + 1))
    spread = np.linspace(0, K, TEXT_STEPS - 10).round().astype(int).tolist()
    return sorted(set(range(10)) | set(spread))


def text_overflow(fig, texts) -> np.ndarray:
    """How far the drawn extents of `texts` reach past the figure's edges, pixels (left, bottom, right, top; 0
    where none does). Empty and hidden texts are skipped."""
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    out = np.zeros(4)
    for t in texts:
        if not t.get_visible() or not t.get_text().strip():
            continue
        ext = t.get_window_extent(renderer)
        if ext.width == 0:
            continue
        out = np.maximum(out, [box.x0 - ext.x0, box.y0 - ext.y0, ext.x1 - box.x1, ext.y1 - box.y1])
    return out


def limits(axes) -> list:
    out = []
    for ax in axes:
        lim = tuple(ax.get_xlim()) + tuple(ax.get_ylim())
        if hasattr(ax, "get_zlim"):
            lim += tuple(ax.get_zlim())
        out.append(lim)
    return out


def lay_out_once(fig, axes, panels, K) -> None:
    """Lay a scene's figure out once, at the last state K, and freeze the layout: later full draws never shift
    the axes, and they skip the layout pass. A moving text (a caption, a note) can be longer at another step
    than at the last (lesson 02's "w = 0: no boundary yet" at the start, on a narrow lecture panel): the
    moving texts (what the panels' ``update`` returns) are measured along the run (`measured_steps`), and while
    one of them reaches past the figure's edge the layout is run again inside a rectangle smaller by that much
    (at most 3 times). The panels end at state K, as the canvas was drawn."""
    engine = fig.get_layout_engine()
    rect = np.array([0.0, 0.0, 1.0, 1.0])  # (left, bottom, width, height), figure fraction
    air = 2 * fig.dpi / 72  # 2 points clear of the edge
    for _ in range(3):
        for p in panels:
            p.update(K)
        settle_layout(fig, axes, freeze=False)  # two passes: a spanning row's labels settle in the second
        drawn, over = limits(axes), np.zeros(4)
        for k in measured_steps(K):  # the last is K: the panels end at the state the canvas was drawn in
            texts = [a for p in panels for a in (p.update(k) or []) if isinstance(a, Text)]
            over = np.maximum(over, text_overflow(fig, texts))
        for ax, lim, now in zip(axes, drawn, limits(axes), strict=True):
            if now != lim:  # a panel that zooms at one step only: its limits as drawn
                ax.set_xlim(lim[:2])
                ax.set_ylim(lim[2:4])
                if len(lim) > 4:
                    ax.set_zlim(lim[4:])
        if not np.any(over > 0) or engine is None or not hasattr(engine, "set"):
            break
        w, h = fig.bbox.width, fig.bbox.height
        cut = np.where(over > 0, over + air, 0.0) / [w, h, w, h]
        rect = np.array([rect[0] + cut[0], rect[1] + cut[1], rect[2] - cut[0] - cut[2], rect[3] - cut[1] - cut[3]])
        if rect[2] < 0.5 or rect[3] < 0.5:  # a text as wide as the picture: no room to give it
            break
        engine.set(rect=tuple(rect.tolist()))
    fig.set_layout_engine("none")
