"""Showing a finished matplotlib figure in a notebook with its alt text (drawing layer only).

``show_figure(fig, alt="...")`` replaces a figure cell's final ``plt.show()``: it displays the figure as
a PNG whose output metadata carries ``{"image/png": {"width", "height", "alt"}}``, the same
contract the players' stills follow. The alt text is written with the figure, in the lesson,
and travels with the output: JupyterLab keeps it in the notebook, and the site and the decks
(tools/templates) put it on the ``<img>``. The PNG is written with an adaptive palette, which
keeps a lesson's stored pictures small (flat colours and anti-aliased lines lose nothing a
reader can see).
"""

from __future__ import annotations

import io

from .._validation import check_alt

__all__ = ["png_bundle", "show_figure"]


def png_bundle(fig, *, alt: str) -> tuple[dict, dict]:
    """(data, metadata) of `fig` as a PNG display bundle with its alt text.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(2, 1), dpi=50)
    >>> _ = fig.add_subplot().plot([0, 1], [1, 0])
    >>> data, meta = png_bundle(fig, alt="A line falling from 1 to 0.")
    >>> sorted(data), meta["image/png"]["alt"], data["image/png"][:4]
    (['image/png', 'text/plain'], 'A line falling from 1 to 0.', b'\\x89PNG')
    """
    from matplotlib.figure import Figure
    from PIL import Image

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure; got {type(fig).__name__} instead.")
    alt = check_alt(alt)
    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=fig.dpi, bbox_inches="tight", facecolor="white")
    with Image.open(io.BytesIO(raw.getvalue())) as img:
        width, height = img.size
        small = io.BytesIO()
        img.convert("RGB").quantize(colors=256).save(small, format="PNG", optimize=True)
    png = small.getvalue() if small.tell() < raw.tell() else raw.getvalue()
    # No pixel size in the text: bbox_inches="tight" gives a few pixels more or less with another
    # matplotlib, and nbval compares this text on every Python of the lock.
    data = {"image/png": png, "text/plain": f"<Figure: {alt}>"}
    return data, {"image/png": {"width": width, "height": height, "alt": alt}}


def show_figure(fig, *, alt: str) -> None:
    """Display `fig` as a PNG with its alt text, then close it (no second copy from the backend)."""
    from IPython.display import display
    from matplotlib import pyplot as plt

    data, metadata = png_bundle(fig, alt=alt)
    display(data, raw=True, metadata=metadata)
    plt.close(fig)
