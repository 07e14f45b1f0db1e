"""The players of the course, kernel side: the defects of issue 12 that still concern what the kernel draws.

2. A live figure's picture is never shown larger than its own pixels.
3. Everything drawn stays inside the data panel at every k of every player in the course (or the
   panel says what is outside): the matplotlib drawing each player keeps as its still.

Plus: every player and live figure of the course is at its start after Run All, and the display
bundle carries a still picture with alt text.
"""

import io
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import pytest
from PIL import Image

from perceptron_lib import fit_perceptron
from perceptron_lib.player import BrowserPlayer, DataPanel, LiveFigure
from tests.drawn import Drawn

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("0[1-5]_*.ipynb"))

X8 = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
Y8 = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)


# --------------------------------------------------------------------------- defect 2


@pytest.mark.parametrize("style", ["notebook", "lecture"])
def test_defect2_picture_never_wider_than_its_pixels(style):
    for dpi in (None, 200):
        p = LiveFigure(1, 2, style=style, dpi=dpi)
        p.refresh()
        width_px = Image.open(io.BytesIO(p.frame_png())).size[0]
        pic = p.picture.layout  # the <img>'s caps; its width and height stay auto: aspect ratio kept
        assert pic.max_width.startswith("min(100%,"), "the picture must have a width cap (the old player stretched it)"
        cap = int(pic.max_width.split(",")[1].strip(" px)"))
        assert cap <= width_px
        assert "100vh" in pic.max_height  # and never taller than the view


# --------------------------------------------------------------------------- the course


def _run_notebook(path):
    """Execute a lesson's code cells in this process (Agg backend, display collects); return its namespace."""
    from IPython.core.interactiveshell import InteractiveShell

    matplotlib.use("Agg")
    shell = InteractiveShell.instance()
    ns = {"__name__": "__main__"}
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            src = shell.transform_cell(cell.source).replace("from IPython.display import display\n", "")
            ns["display"] = lambda *args, **kwargs: None
            exec(compile(src, f"{path.name}:{cell.id}", "exec"), ns)  # noqa: S102 - the course's own notebooks
    return ns


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    import os

    old = os.getcwd()
    os.chdir(NOTEBOOKS)
    try:
        return {name: _run_notebook(NOTEBOOKS / name) for name in LESSONS}
    finally:
        os.chdir(old)
        import matplotlib.pyplot as plt

        plt.close("all")


def _browser_kinds():
    from perceptron_lib.player.browser import BrowserPlayer
    from perceptron_lib.player.browser_controlled import BrowserControlled
    from perceptron_lib.player.browser_editor import BrowserEditor
    from perceptron_lib.player.browser_switch import BrowserSwitch

    return BrowserPlayer, BrowserEditor, BrowserSwitch, BrowserControlled


def players(ns):
    """The lesson's players, switches and editors (each a browser widget)."""
    found, seen = {}, set()
    for name, p in ns.items():
        if isinstance(p, _browser_kinds()) and id(p) not in seen:
            found[name], _ = p, seen.add(id(p))
    return found


class _StillView:
    """A browser player's still as `check_inside_at_every_k` reads a player: the kernel's drawing of the run on
    show (`render.Scene`, its DataPanel first), the still's step and the run."""

    def __init__(self, player):
        drawn = player._drawn()
        scene = drawn[0] if isinstance(drawn, tuple) else drawn.scene
        self.panels, self.k = scene.panels, player.k
        self.run = player._shown_run()[0] if hasattr(player, "_shown_run") else drawn.run
        self.K = len(self.run.history) - 1


def test_every_player_is_at_its_start_after_run_all(course):
    seen = 0
    for lesson, ns in course.items():
        for name, v in ns.items():
            where = f"{lesson}: {name}"
            if isinstance(v, _browser_kinds()):
                assert v.k == 0, where  # the browser plays; the kernel holds the step shown
                if hasattr(v, "choice"):
                    assert v.choice == 0, where
                seen += 1
            elif isinstance(v, LiveFigure):
                assert v.values == v.initial_values, where
    assert seen >= 10


def _inside(ax, pts, tol=1e-9):
    pts = np.asarray(pts, float).reshape(-1, 2)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    return bool(np.all((pts[:, 0] >= x0 - tol) & (pts[:, 0] <= x1 + tol) & (pts[:, 1] >= y0 - tol)
                       & (pts[:, 1] <= y1 + tol)))


def check_inside_at_every_k(player, where):
    dp = player.panels[0]
    ax = dp.ax
    for k in range(player.K + 1):
        dp.update(k)
        assert _inside(ax, dp.P), f"{where}, k = {k}: a point outside the view"
        for arrow in (dp.w_arrow, dp.update_arrow, dp.ghost):
            if arrow.get_visible():
                assert _inside(ax, [arrow.start, arrow.end]), f"{where}, k = {k}: an arrow leaves the panel"
        seg = dp.boundary.get_xydata()
        if len(seg) and not _inside(ax, seg, tol=1e-6):  # only a lifted circle can: clipped, and said
            assert dp.boundary.get_clip_on() and "boundary partly outside" in dp.scale_text.get_text(), \
                f"{where}, k = {k}: the boundary leaves the panel without a note"
        if not len(seg) and dp.mode != "lifted" and np.any(player.run.history.w[k]):
            assert "boundary outside the view" in dp.scale_text.get_text(), f"{where}, k = {k}: no note"
    dp.update(player.k)


def test_defect3_everything_drawn_stays_inside_at_every_k(course):
    n = 0
    for lesson, ns in course.items():
        for name, p in players(ns).items():
            check_inside_at_every_k(_StillView(p), f"{lesson} {name}")
            n += 1
    assert n >= 10


def test_defect3_xor_and_six_points_named_in_the_issue():
    from perceptron_lib.core import data

    X, y = data.xor()
    check_inside_at_every_k(Drawn(fit_perceptron(X, y), X, y), "XOR")
    X6, y6 = data.no_origin_separator()
    check_inside_at_every_k(Drawn(fit_perceptron(X6, y6, fit_bias=False), X6, y6,
                                  data_panel=DataPanel(arrow_scale=0.2)), "6 points")


# --------------------------------------------------------------------------- display contract


def test_display_bundle_has_a_small_still_with_alt_text():
    run = fit_perceptron(X8, Y8)
    p = BrowserPlayer(run, X8, Y8, k=3)
    data, meta = p._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data and "text/html" not in data
    assert data["text/plain"] == repr(p) and "0x" not in repr(p)
    img = Image.open(io.BytesIO(data["image/png"]))
    m = meta["image/png"]
    assert img.size == (m["width"], m["height"]) == (500, 460)
    assert len(data["image/png"]) < 60_000
    assert m["alt"] == p.alt and "after update 3 of" in m["alt"] and m["alt"].endswith(".")


def test_back_gives_back_the_same_picture_bytes():
    """Lesson 00's player: its title reaches the canvas's top row, which a background copied with
    copy_from_bbox(fig.bbox) missed, so every step left pixels behind (stray dots above the title)."""
    from perceptron_lib.core import data

    X, y = data.separable(10, margin=0.2, bias=True, seed=4)
    player = Drawn(fit_perceptron(X, y), X, y)
    start = player.frame_png()
    pictures = set()
    for _ in range(3):
        player.next()
        pictures.add(player.frame_png())
        player.prev()
        assert player.frame_png() == start
    assert len(pictures) == 1


