"""Two figure presets for the course, ``notebook`` and ``lecture``, and the colours used everywhere.

How a preset reaches a figure
-----------------------------
Nothing here writes to ``matplotlib.rcParams``: importing the package leaves matplotlib as it
was, and even ``use("lecture")`` only changes *this library's* figures, never the figures a
student draws with pyplot in the same notebook. A preset is a frozen `Style` record; the
drawing functions read their sizes, widths and colours from it as explicit arguments
(``style=None`` means `current()`), and the figures this library creates are built inside
``matplotlib.rc_context(style.rc())`` so that the few things that are only reachable through
rcParams (default text sizes of titles and tick labels, spine widths) are set for the artists
made in that block and restored right after. Explicit arguments are preferred because an
``rc_context`` only affects artists created inside it; an axes made elsewhere and passed in
gets the sizes through `style_axes`.

Selecting a preset
------------------
* ``use("lecture")`` sets the preset for the rest of the session (this library only); every
  notebook's first cell calls ``use("notebook")``, the one switch a reader edits;
* the environment variable ``COURSE_STYLE=lecture`` (or ``notebook``) switches a whole session
  with no edits: when set, it takes precedence over `use`, so an instructor who starts
  ``COURSE_STYLE=lecture make lab`` gets every notebook in the lecture preset. It is read when
  needed, not at import;
* ``with context("lecture"): ...`` sets it for a block (precedence over both);
* ``current()`` returns the active `Style`.

Colours
-------
The colours, markers and class labels live in `colors` and are re-exported here.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from .colors import (  # noqa: F401 (read as style.POS_COLOR; listed in colors.__all__, their home)
    BOUNDARY_COLOR,
    CMAP,
    CURSOR_COLOR,
    CURSOR_FACE_COLOR,
    CURSOR_MARK_COLOR,
    CURVE_COLOR,
    MISTAKE_COLOR,
    NEG_COLOR,
    NEG_LABEL,
    NEG_MARKER,
    OKABE_ITO,
    PLANE_COLOR,
    POS_COLOR,
    POS_LABEL,
    POS_MARKER,
    PREV_BOUNDARY_COLOR,
    RING_COLOR,
    UPDATE_COLOR,
    W_COLOR,
)

__all__ = [
    "Style",
    "PRESETS",
    "NOTEBOOK",
    "LECTURE",
    "ENV_VAR",
    "get",
    "use",
    "current",
    "context",
    "class_style",
    "style_axes",
    "subplots",
    "style_text",
]


ENV_VAR = "COURSE_STYLE"


@dataclass(frozen=True)
class Style:
    """Sizes for one preset. Font sizes in points, marker sizes in points squared (scatter ``s``).

    Use ``dataclasses.replace(NOTEBOOK, dpi=150)`` to derive a variant; any `Style` can be
    passed where a preset name is accepted.
    """

    name: str
    panel_size: tuple  # (width, height) in inches of one panel
    dpi: int
    font_size: float
    title_size: float
    label_size: float
    tick_size: float
    legend_size: float
    line_width: float  # boundary, curves
    thin_width: float  # previous boundary, grid, ghosts
    arrow_width: float
    arrow_head: float  # FancyArrowPatch mutation_scale (points)
    marker_size: float
    marker_edge: float
    ring_size: float
    ring_width: float
    mistake_size: float
    mistake_width: float
    spine_width: float

    def rc(self) -> dict:
        """rcParams for ``matplotlib.rc_context`` while this library builds a figure."""
        return {
            "font.size": self.font_size,
            "axes.titlesize": self.title_size,
            "axes.labelsize": self.label_size,
            "figure.titlesize": self.title_size,
            "xtick.labelsize": self.tick_size,
            "ytick.labelsize": self.tick_size,
            "legend.fontsize": self.legend_size,
            "axes.linewidth": self.spine_width,
            "xtick.major.width": self.spine_width,
            "ytick.major.width": self.spine_width,
            "xtick.major.size": 3 + 2 * self.spine_width,
            "ytick.major.size": 3 + 2 * self.spine_width,
            "lines.linewidth": self.line_width,
            "axes.edgecolor": "#000000",
            "text.color": "#000000",
            "axes.labelcolor": "#000000",
            "xtick.color": "#000000",
            "ytick.color": "#000000",
            "figure.facecolor": "#FFFFFF",
            "axes.facecolor": "#FFFFFF",
            "savefig.facecolor": "#FFFFFF",
            "image.cmap": CMAP,
        }

    def figsize(self, ncols: int = 1, nrows: int = 1) -> tuple:
        """Figure size in inches for a grid of panels."""
        w, h = self.panel_size
        return (w * ncols, h * nrows)


NOTEBOOK = Style(
    name="notebook",
    panel_size=(5.0, 4.6),
    dpi=100,
    font_size=11,
    title_size=13,
    label_size=12,
    tick_size=10,
    legend_size=10,
    line_width=2.0,
    thin_width=1.2,
    arrow_width=2.0,
    arrow_head=16,
    marker_size=40,
    marker_edge=0.6,
    ring_size=300,
    ring_width=2.0,
    mistake_size=100,
    mistake_width=1.3,
    spine_width=1.0,
)

LECTURE = Style(
    name="lecture",
    panel_size=(7.2, 7.6),
    dpi=100,
    font_size=20,
    title_size=24,
    label_size=22,
    tick_size=18,
    legend_size=18,
    line_width=4.0,
    thin_width=2.5,
    arrow_width=4.0,
    arrow_head=30,
    marker_size=130,
    marker_edge=1.2,
    ring_size=900,
    ring_width=4.0,
    mistake_size=320,
    mistake_width=2.6,
    spine_width=2.0,
)

PRESETS = {"notebook": NOTEBOOK, "lecture": LECTURE}

_active: Style | None = None  # set by use(): None means not chosen, i.e. notebook
_block: Style | None = None  # set by context() for the duration of a with-block


def get(style=None) -> Style:
    """Resolve ``None`` (the current preset), a preset name, or a `Style` to a `Style`."""
    if style is None:
        return current()
    if isinstance(style, Style):
        return style
    if isinstance(style, str):
        key = style.strip().lower()
        if key in PRESETS:
            return PRESETS[key]
        raise ValueError(f"unknown style {style!r}; choose one of {sorted(PRESETS)} or pass a Style.")
    raise TypeError(f"style must be None, a preset name or a Style; got {type(style).__name__}.")


def current() -> Style:
    """The active preset: an enclosing `context`, else ``$COURSE_STYLE``, else the last `use`, else notebook."""
    if _block is not None:
        return _block
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        try:
            return get(env)
        except ValueError:
            raise ValueError(
                f"environment variable {ENV_VAR}={env!r} names no preset; set it to one of {sorted(PRESETS)}."
            ) from None
    return _active if _active is not None else NOTEBOOK


def use(style) -> Style:
    """Make `style` (a name or a `Style`) the default for this library's figures; returns the active one.

    Only this library's figures change: no rcParams are written. ``use(None)`` goes back to
    notebook. When ``$COURSE_STYLE`` is set, it wins over `use` (see the module docstring), and
    the returned `Style` says which preset is in force.
    """
    global _active
    _active = None if style is None else get(style)
    return current()


@contextlib.contextmanager
def context(style):
    """``with context("lecture"):`` use a preset for a block, then restore the previous one."""
    global _block
    before = _block
    _block = get(style)
    try:
        yield _block
    finally:
        _block = before


def class_style(label: int, style=None) -> dict:
    """Scatter keyword arguments for one class (+1 or -1): colour, marker, size, label."""
    s = get(style)
    pos = label > 0
    return {
        "c": POS_COLOR if pos else NEG_COLOR,
        "marker": POS_MARKER if pos else NEG_MARKER,
        "s": s.marker_size * (1.25 if pos else 1.0),  # a triangle looks smaller than a circle of equal s
        "edgecolors": "#FFFFFF",
        "linewidths": s.marker_edge,
        "label": POS_LABEL if pos else NEG_LABEL,
    }


def style_axes(ax, style=None, *, grid: bool = True) -> None:
    """Apply a preset's text sizes and line widths to an existing axes (2-D or 3-D)."""
    s = get(style)
    ax.tick_params(labelsize=s.tick_size, width=s.spine_width, length=3 + 2 * s.spine_width)
    ax.xaxis.label.set_fontsize(s.label_size)
    ax.yaxis.label.set_fontsize(s.label_size)
    zaxis = getattr(ax, "zaxis", None)
    if zaxis is not None:
        zaxis.label.set_fontsize(s.label_size)
    ax.title.set_fontsize(s.title_size)
    for spine in getattr(ax, "spines", {}).values():
        spine.set_linewidth(s.spine_width)
    if grid and zaxis is None:
        ax.grid(True, color="#DDDDDD", linewidth=s.thin_width * 0.6, zorder=0)
        ax.set_axisbelow(True)


def style_text(fig, style=None) -> None:
    """Give every title, axis label and legend of `fig` the preset's text size.

    Titles and legends made after the axes (``ax.set_title``, ``ax.legend``) take matplotlib's
    defaults, outside any ``rc_context``; the figures of `subplots` call this just before they
    draw, so the one `use("lecture")` switch reaches them too.
    """
    s = get(style)
    for ax in fig.axes:
        for t in (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None)):
            if t is not None and t.get_text():
                t.set_fontsize(s.title_size)
        for axis in (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)):
            if axis is not None:
                axis.label.set_fontsize(s.label_size)
        legends = [ax.get_legend()]
        for leg in legends + [c for c in ax.get_children() if type(c).__name__ == "Legend" and c not in legends]:
            if leg is not None:
                for t in leg.get_texts():
                    t.set_fontsize(s.legend_size)
                leg.get_title().set_fontsize(s.legend_size)
    for leg in getattr(fig, "legends", []):
        for t in leg.get_texts():
            t.set_fontsize(s.legend_size)
    if getattr(fig, "_suptitle", None) is not None:
        fig._suptitle.set_fontsize(s.title_size)


_styled_figure_class = None


def _figure_class():
    """A Figure subclass that applies `style_text` with its preset before each draw (made once, lazily)."""
    global _styled_figure_class
    if _styled_figure_class is None:
        from matplotlib.figure import Figure

        class StyledFigure(Figure):
            course_style = None

            def draw(self, renderer):
                if self.course_style is not None:
                    style_text(self, self.course_style)
                return super().draw(renderer)

        _styled_figure_class = StyledFigure
    return _styled_figure_class


def subplots(nrows: int = 1, ncols: int = 1, *, style=None, figsize=None, projection=None, **kwargs):
    """A pyplot figure and axes sized and styled by a preset; shown inline like any pyplot figure.

    The notebooks' static figures come from here, so one `use("lecture")` at the top of a
    notebook enlarges them too. Text sizes are set inside ``rc_context`` while the axes are
    made, then `style_axes` is applied; rcParams are restored on return. Titles, labels and
    legends added later get the preset's sizes when the figure draws (`style_text`).

    Parameters
    ----------
    nrows, ncols : int
        The grid of panels; each panel gets the preset's ``panel_size``.
    style : None, str or Style
        None is `current()`.
    figsize : (float, float), optional
        Overrides the preset's size.
    projection : None or "3d"
        For every axes.
    **kwargs
        Passed to ``pyplot.subplots``.

    Returns
    -------
    fig, axes
        As ``pyplot.subplots`` returns them (one Axes, or an array).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig, (ax1, ax2) = subplots(1, 2, style="lecture")
    >>> ax1.xaxis.label.get_fontsize() == LECTURE.label_size
    True
    """
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    s = get(style)
    kwargs.setdefault("layout", "constrained")
    if projection is not None:
        kwargs["subplot_kw"] = {**kwargs.get("subplot_kw", {}), "projection": projection}
    with mpl.rc_context(s.rc()):
        fig, axes = plt.subplots(nrows, ncols, figsize=figsize or s.figsize(ncols, nrows), dpi=s.dpi,
                                 FigureClass=_figure_class(), **kwargs)
    fig.course_style = s
    for ax in fig.axes:
        style_axes(ax, s)
    return fig, axes
