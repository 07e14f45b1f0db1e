"""The player after its rebuild: each defect of issue 12 has a test here that fails on the old code.

1. A run switch shows exactly the chosen run's data (labels, marks, readout) at every k, in every order.
2. The picture is never shown larger than its own pixels.
3. Everything drawn stays inside the data panel at every k of every player in the course (or the
   panel says what is outside).
4. The k slider's range is the range of the run on show (a new slider per run, so no front end
   keeps an old range).

Plus: every player and live figure of the course is at its start after Run All, and the display
bundle carries a still picture with alt text (and a recording when asked).
"""

import io
import itertools
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import pytest
from PIL import Image

from perceptron_lib import fit_perceptron
from perceptron_lib.core.perceptron import is_mistake, scores
from perceptron_lib.player import DataPanel, LiveFigure, StepThrough
from perceptron_lib.player.stepthrough import PLAYER_KEYS

RECORD_ENV = "PERCEPTRON_COURSE_RECORD"  # the recording contract (perceptron_lib.player.recording)

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("0[1-5]_*.ipynb"))

X8 = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
Y8 = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)


def _switch_cls():
    from perceptron_lib.player import RunSwitch

    return RunSwitch


def sign(v):
    return "+1" if v > 0 else "-1"


def check_shows(player, run, X, y):
    """The player's picture and words are those of `run` on (X, y) at its step k."""
    assert player.run is run
    np.testing.assert_array_equal(player.y, y)
    k, st = player.k, player.state
    dp = player.panels[0]
    mask = is_mistake(scores(st.w, st.b, X), y, run.update_on)
    np.testing.assert_array_equal(dp.mistakes.get_xydata(), X[mask].reshape(-1, 2))
    text = player.text
    now = "Wrong side now" if run.update_on == "negative" else "Mistakes now"  # one word per test
    assert f"{now}: {int(mask.sum())} of {len(y)}" in text
    if k > 0 and st.i >= 0:
        assert f"Example i = {st.i}: x = " in text and f"y = {sign(y[st.i])}." in text
        assert dp.ax.title.get_text().endswith(f"y = {sign(y[st.i])}")


# --------------------------------------------------------------------------- defect 1


def test_defect1_switch_to_a_run_without_data_drops_the_flipped_labels():
    runs = {rule: fit_perceptron(X8, Y8, update_on=rule) for rule in ["nonpositive", "negative", "sign"]}
    flipped = fit_perceptron(X8, -Y8, update_on="sign")
    trap = StepThrough(runs["nonpositive"], X8, Y8)
    switch = _switch_cls()(trap, {"≤ 0 (θ = 1)": runs["nonpositive"], "sign, labels flipped": (flipped, X8, -Y8)})
    switch.select("sign, labels flipped")
    switch.select("≤ 0 (θ = 1)")
    trap.seek(7)
    check_shows(trap, runs["nonpositive"], X8, Y8)
    assert "y = -1" in trap.text  # example 0 has label -1 (the bug said +1)


def test_defect1_every_order_every_k():
    """Every order of the runs of a switch (flipped data among them), checked at every k."""
    runs = {
        "a": (fit_perceptron(X8, Y8), X8, Y8),
        "flipped": (fit_perceptron(X8, -Y8, update_on="sign"), X8, -Y8),
        "negative": (fit_perceptron(X8, Y8, update_on="negative"), X8, Y8),
    }
    player = StepThrough(runs["a"][0], X8, Y8)
    switch = _switch_cls()(player, {"a": runs["a"][0], "flipped": runs["flipped"], "negative": runs["negative"][0]})
    for order in itertools.permutations(runs):
        for label in order:
            switch.select(label)
            run, X, y = runs[label]
            assert player.slider.max == player.K == len(run.history) - 1
            for k in range(player.K + 1):
                player.seek(k)
                check_shows(player, run, X, y)


# --------------------------------------------------------------------------- defect 2


@pytest.mark.parametrize("style", ["notebook", "lecture"])
def test_defect2_picture_never_wider_than_its_pixels(style):
    run = fit_perceptron(X8, Y8)
    for dpi in (None, 200):
        p = StepThrough(run, X8, Y8, style=style, dpi=dpi)
        width_px = Image.open(io.BytesIO(p.frame_png())).size[0]
        pic = p.picture  # the <img>'s caps (front/events.js); its width and height stay auto: aspect ratio kept
        assert pic.max_width.startswith("min(100%,"), "the picture must have a width cap (the old player stretched it)"
        cap = int(pic.max_width.split(",")[1].strip(" px)"))
        assert cap <= width_px
        assert "100vh" in pic.max_height  # and never taller than the view


# --------------------------------------------------------------------------- defect 4


def test_defect4_slider_range_follows_the_run():
    long = fit_perceptron(X8, Y8)
    short = fit_perceptron(X8[:2], Y8[:2])
    p = StepThrough(short, X8[:2], Y8[:2])
    first = p.slider
    p.set_run(long, X8, Y8)
    assert p.slider is not first, "a run change must give the front end a new slider (the old one kept its range)"
    assert p.slider.max == p.K == long.mistakes and p.slider.value == 0
    p.slider.value = p.slider.max  # what the End key does
    assert p.k == long.mistakes and long.mistakes > short.mistakes and p.state.i == long.history.i[-1]


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
    """The lesson's players of either kind: the kernel's (StepThrough) and the browser's."""
    found, seen = {}, set()
    for name, p in ns.items():
        if isinstance(p, (StepThrough, *_browser_kinds())) and id(p) not in seen:
            found[name], _ = p, seen.add(id(p))
    return found


class _StillView:
    """A browser player's still as `check_inside_at_every_k` reads a player: the kernel's drawing of the run on
    show (its DataPanel is the one a StepThrough draws), the still's step and the run."""

    def __init__(self, player):
        drawn = player._drawn()
        scene = drawn[0] if isinstance(drawn, tuple) else drawn.scene
        self.panels, self.k = scene.panels, player.k
        self.run = player._shown_run()[0] if hasattr(player, "_shown_run") else drawn.run
        self.K = len(self.run.history) - 1


def test_every_player_is_at_its_start_after_run_all(course):
    RunSwitch = _switch_cls()
    seen = 0
    for lesson, ns in course.items():
        for name, v in ns.items():
            where = f"{lesson}: {name}"
            if isinstance(v, StepThrough):
                assert v.k == 0 and not v.playing, where
                seen += 1
            elif isinstance(v, _browser_kinds()):
                assert v.k == 0, where  # the browser plays; the kernel holds the step shown
                if hasattr(v, "choice"):
                    assert v.choice == 0, where
                seen += 1
            elif isinstance(v, RunSwitch):
                assert v.value == next(iter(v.runs)), where
                run, X, y = v.runs[v.value]
                assert v.player.run is run and np.array_equal(v.player.y, y), where
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
    RunSwitch = _switch_cls()
    n = 0
    for lesson, ns in course.items():
        for name, p in players(ns).items():
            check_inside_at_every_k(p if isinstance(p, StepThrough) else _StillView(p), f"{lesson} {name}")
            n += 1
        for name, sw in ns.items():
            if isinstance(sw, RunSwitch):
                first = sw.value
                for label in sw.runs:
                    sw.select(label)
                    check_inside_at_every_k(sw.player, f"{lesson} {name}[{label}]")
                sw.select(first)
    assert n >= 10


def test_defect3_xor_and_six_points_named_in_the_issue():
    from perceptron_lib.core import data

    X, y = data.xor()
    check_inside_at_every_k(StepThrough(fit_perceptron(X, y), X, y), "XOR")
    X6, y6 = data.no_origin_separator()
    check_inside_at_every_k(StepThrough(fit_perceptron(X6, y6, fit_bias=False), X6, y6,
                                        data_panel=DataPanel(arrow_scale=0.2)), "6 points")


def test_switches_of_the_course_every_order_every_k(course):
    RunSwitch = _switch_cls()
    for ns in course.values():
        for sw in ns.values():
            if not isinstance(sw, RunSwitch):
                continue
            first = sw.value
            for order in itertools.permutations(sw.runs, 2):
                for label in order:
                    sw.select(label)
                    run, X, y = sw.runs[label]
                    for k in range(sw.player.K + 1):
                        sw.player.seek(k)
                        check_shows(sw.player, run, X, y)
            sw.select(first)


# --------------------------------------------------------------------------- display contract


def test_display_bundle_has_a_small_still_with_alt_text(monkeypatch):
    run = fit_perceptron(X8, Y8)
    p = StepThrough(run, X8, Y8)
    p.seek(3)
    monkeypatch.delenv(RECORD_ENV, raising=False)
    data, meta = p._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data and "text/html" not in data
    assert data["text/plain"] == repr(p) and "0x" not in repr(p)
    img = Image.open(io.BytesIO(data["image/png"]))
    m = meta["image/png"]
    assert img.size == (m["width"], m["height"]) == (500, 460)
    assert len(data["image/png"]) < 60_000
    assert m["alt"] == p.alt and "after update 3 of" in m["alt"] and m["alt"].endswith(".")
    monkeypatch.setenv(RECORD_ENV, "1")
    data, _ = p._repr_mimebundle_()
    html = data["text/html"]
    assert 'class="perceptron-recording"' in html and len(html.encode()) <= 2_000_000
    assert "http://" not in html and "https://" not in html and p.k == 3


def from_browser(picture, content):
    """One message arriving from the picture's front end (``front/events.js``) on the widget's comm."""
    picture.comm.handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def keydown(player, key, **mods):
    """A key pressed on the picture (focused, or with the pointer on it), as its front end sends it to the kernel."""
    event = {"type": "keydown", "key": key, "shiftKey": False, "ctrlKey": False, "altKey": False, "metaKey": False,
             **mods}
    from_browser(player.picture, event)


def test_keys_on_the_picture_step_the_player_and_the_picture_carries_the_alt_text():
    run = fit_perceptron(X8, Y8)
    p = StepThrough(run, X8, Y8)
    assert p.picture.alt == p.alt and "at the start" in p.alt
    keydown(p, "ArrowRight")
    assert p.k == 1 and p.picture.alt == p.alt and "after update 1 of" in p.alt
    keydown(p, "ArrowRight")
    keydown(p, "ArrowLeft")
    assert p.k == 1
    keydown(p, "End")
    assert p.k == p.K and p.picture.alt == p.alt and f"after update {p.K} of {p.K}" in p.alt
    keydown(p, "Home")
    assert p.k == 0 and not p.playing
    keydown(p, " ")
    assert p.playing and p.tick() and p.k == 1
    keydown(p, " ")
    assert not p.playing and p.k == 1
    # a key with a modifier belongs to the browser (ctrl+→ and the like), and other keys do nothing
    keydown(p, "ArrowRight", ctrlKey=True)
    keydown(p, "ArrowRight", altKey=True)
    keydown(p, "ArrowRight", metaKey=True)
    keydown(p, "a")
    assert p.k == 1 and not p.playing
    # only key presses: a key release does not step
    from_browser(p.picture, {"type": "keyup", "key": "ArrowRight"})
    assert p.k == 1


def test_a_key_handler_takes_keys_first():
    run = fit_perceptron(X8, Y8)
    p = StepThrough(run, X8, Y8)
    seen = []
    p.on_key(lambda event: seen.append(event["key"]) or event["key"] == "ArrowRight")
    keydown(p, "ArrowRight")  # taken by the handler: the player does not step
    assert seen == ["ArrowRight"] and p.k == 0
    keydown(p, "End")  # not taken: the player goes to the end
    assert seen == ["ArrowRight", "End"] and p.k == p.K


def test_the_picture_takes_only_the_keys_in_use():
    """The front end takes the keys of `taken_keys` and hands every other key on to the page: Tab and Escape too,
    unless a handler declares it uses them (an editor's cursor takes Escape to hide itself)."""
    run = fit_perceptron(X8, Y8)
    p = StepThrough(run, X8, Y8)
    assert sorted(p.picture.taken_keys) == sorted(PLAYER_KEYS) and "Tab" not in p.picture.taken_keys
    using = []
    p.on_key(lambda event: False, keys=lambda: using)
    assert sorted(p.picture.taken_keys) == sorted(PLAYER_KEYS)
    using[:] = ["Escape", "Enter"]
    assert p.use_keys() == tuple(sorted({*PLAYER_KEYS, "Escape", "Enter"}))
    assert sorted(p.picture.taken_keys) == sorted({*PLAYER_KEYS, "Escape", "Enter"})
    using.clear()
    p.use_keys()
    assert "Escape" not in p.picture.taken_keys and "Enter" not in p.picture.taken_keys


def test_back_gives_back_the_same_picture_bytes():
    """Lesson 00's player: its title reaches the canvas's top row, which a background copied with
    copy_from_bbox(fig.bbox) missed, so every step left pixels behind (stray dots above the title)."""
    from perceptron_lib.core import data

    X, y = data.separable(10, margin=0.2, bias=True, seed=4)
    player = StepThrough(fit_perceptron(X, y), X, y)
    start = player.frame_png()
    pictures = set()
    for _ in range(3):
        player.next()
        pictures.add(player.frame_png())
        player.prev()
        assert player.frame_png() == start
    assert len(pictures) == 1


def test_switch_recording_shows_one_run_at_a_time():
    """A switch's recording is one run on show behind labelled buttons, not every run stacked (which
    made 02's slides five times too tall to fit 1280x720)."""
    from perceptron_lib.core import data
    from perceptron_lib.player import RunSwitch

    X, y = data.separable(10, margin=0.2, bias=True, seed=4)
    player = StepThrough(fit_perceptron(X, y), X, y)
    switch = RunSwitch(player, {"eta 1": fit_perceptron(X, y), "eta 0.5": fit_perceptron(X, y, eta=0.5)})
    html = switch.recording()
    assert html.count("data-run-panel=") == 2 and html.count(" hidden>") == 1
    assert '>eta 1</button>' in html and '>eta 0.5</button>' in html and 'aria-pressed="true"' in html
