"""Tests of the StepThrough player: every control, every edge, artists equal to the state at k."""

import io
import logging
import warnings

import ipywidgets as widgets
import matplotlib
import numpy as np
import pytest
from PIL import Image

from perceptron_lib import fit_batch, fit_minibatch, fit_perceptron
from perceptron_lib.core import data, kernels
from perceptron_lib.core.perceptron import is_mistake, scores
from perceptron_lib.draw import style as S
from perceptron_lib.draw import surfaces as SU
from perceptron_lib.player import DataPanel, LiftedPanel, LossPanel, StepThrough
from perceptron_lib.player.stepthrough import SPEEDS

TINY_X, TINY_Y = [[2, 1], [-1, -2]], [1, -1]


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    y = np.where(X @ [1.0, -2.0] + 0.4 > 0, 1, -1)
    run = fit_perceptron(X, y)
    assert run.converged and run.mistakes >= 10
    return run, X, y


@pytest.fixture(scope="module")
def lifted():
    Q, y = data.circles(60, r_inner=0.8, r_outer=1.6, noise=0.15, seed=1)
    Z = kernels.lift(Q)
    run = fit_perceptron(Z, y)
    assert run.converged and run.mistakes >= 3
    return run, Z, y


def perceptron_loss(run, X, y):
    """Caller-side values for a LossPanel: the mean perceptron loss at every state."""
    h = run.history
    return np.array([np.mean(np.maximum(0.0, -y * (X @ w + b))) for w, b in zip(h.w, h.b, strict=True)])


def check_data_panel(player):
    """The DataPanel's artists show exactly the state at player.k."""
    dp = player.panels[0]
    st, h, X, y = player.state, player.run.history, player.X, player.y
    k = player.k
    seg = dp.boundary.get_xydata()
    if np.any(st.w):
        assert len(seg) == 2
        assert np.allclose(seg @ st.w + st.b, 0, atol=1e-9)  # both ends on <w,x> + b = 0
        a = dp.w_arrow
        assert a.get_visible()
        assert abs(st.w @ a.start + st.b) < 1e-9  # starts on the boundary
        np.testing.assert_allclose(a.delta, dp.arrow_scale * st.w)  # along w: normal to the boundary
        assert abs(np.dot(seg[1] - seg[0], a.delta)) < 1e-9
    else:
        assert len(seg) == 0 and not dp.w_arrow.get_visible()
    if k == 0:
        assert len(dp.ring.get_xydata()) == 0
        assert not dp.update_arrow.get_visible() and len(dp.prev_line.get_xydata()) == 0
    else:
        np.testing.assert_array_equal(dp.ring.get_xydata(), [X[st.i]])  # the current example is ringed
        np.testing.assert_allclose(dp.update_arrow.delta, dp.arrow_scale * (h.w[k] - h.w[k - 1]))
        np.testing.assert_allclose(dp.update_arrow.delta / dp.arrow_scale, run_eta(player) * y[st.i] * X[st.i])
        np.testing.assert_allclose(dp.update_arrow.end, dp.w_arrow.end)  # tip to tail: w_before + update = w
        prev = dp.prev_line.get_xydata()
        if len(prev):
            assert np.allclose(prev @ h.w[k - 1] + h.b[k - 1], 0, atol=1e-9)
    mask = is_mistake(scores(st.w, st.b, X), y, player.run.update_on)
    np.testing.assert_array_equal(dp.mistakes.get_xydata(), X[mask].reshape(-1, 2))


def run_eta(player):
    return player.run.eta


def shown(widget):
    """Every widget of `widget`'s tree, as the front end shows them (each box's children, in order)."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from shown(child)


def control(player, label):
    """The one control of the player a student finds by its words: a button's label ("Step"), a
    description ("speed"), or "play" for the play/pause toggle (its label changes as it plays)."""
    if label == "play":
        found = [w for w in shown(player.widget) if isinstance(w, widgets.ToggleButton)]
    else:
        found = [w for w in shown(player.widget) if getattr(w, "description", None) == label]
    assert len(found) == 1, f"{len(found)} controls labelled {label!r} in the player"
    return found[0]


def shown_html(player) -> str:
    """The HTML the player shows (its readout and key help)."""
    return "".join(w.value for w in shown(player.widget) if isinstance(w, widgets.HTML))


def synced(player):
    """The slider, the buttons' enabled states and the Play button's words all agree with k and playing."""
    k, K = player.k, player.K
    play = control(player, "play")
    back, reset, step, end = (control(player, name) for name in ("Back", "Reset", "Step", "End"))
    return (k == player.slider.value and player.slider.max == K
            and back.disabled == reset.disabled == (k == 0)
            and step.disabled == end.disabled == (k >= K)
            and play.value == player.playing
            and (play.description, play.icon) == (("Pause", "pause") if player.playing else ("Play", "play")))


# --------------------------------------------------------------------------- readout on a hand-checkable run


def test_readout_tiny_run():
    run = fit_perceptron(TINY_X, TINY_Y)
    p = StepThrough(run, TINY_X, TINY_Y)
    assert p.K == 1 and p.k == 0
    t0 = p.text
    assert "Start state (update 0 of 1)" in t0 and "no example looked at yet" in t0
    assert "w = (0, 0), b = 0: no boundary yet." in t0 and "Mistakes so far: 0 of the run's 1, one update each." in t0
    assert "Mistakes now: 2 of 2, the points the current (w, b) gets wrong" in t0  # with w = 0, every y*0 = 0 <= 0
    assert "End" not in t0
    p.next()
    t1 = p.text
    assert "Update 1 of 1 (epoch 1)." in t1
    assert "Example i = 0: x = (2, 1), y = +1." in t1
    assert "before → after: 0 → 6." in t1  # 0 + (2^2 + 1^2 + 1)
    assert "w = (2, 1), b = 1." in t1
    assert "Mistakes so far: 1 of the run's 1" in t1 and "Mistakes now: 0 of 2" in t1
    assert "End: converged. Epoch 2 made no update" in t1
    html = shown_html(p)
    assert "Update 1 of 1" in html and "0 → 6" in html and "converged" in html
    assert p.lines(0)[0].startswith("Start state")
    check_data_panel(p)
    # the boundary 2*x1 + x2 + 1 = 0, the ring on example 0, the arrow from -b*w/||w||^2 = (-0.4, -0.2)
    np.testing.assert_allclose(p.panels[0].w_arrow.start, [-0.4, -0.2])
    np.testing.assert_array_equal(p.panels[0].ring.get_xydata(), [[2, 1]])


def test_readout_end_states():
    Xx, yx = [[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]
    p = StepThrough(fit_perceptron(Xx, yx), Xx, yx)
    p.seek(p.K)
    assert "End: cycle. The state after epoch 1 came back after epoch 2 (4 updates per cycle)" in p.text
    p.set_run(fit_perceptron(Xx, yx, max_epochs=3, order="random", rng=0))
    p.seek(p.K)
    assert "End: stopped at max_epochs after 3 epochs, not converged." in p.text
    Xb, yb = [[2, 1], [-1, -2], [0.5, 0.2]], [1, -1, -1]
    p.set_run(fit_batch(Xb, yb), Xb, yb)
    p.seek(1)
    assert "A step on the 3 mistakes in the data: i = 0, 1, 2." in p.text
    assert "Mistakes in the data before → after: 3 → 1 of 3." in p.text
    assert "w = (2.5, 2.8), b = -1." in p.text
    p.seek(2)
    assert "A step on the 1 mistake in the data: i = 2." in p.text
    assert "End: converged after 2 iterations" in p.text
    check_data_panel_batch(p)
    p.set_run(fit_batch(Xx, yx, max_iter=3), Xx, yx)
    p.seek(p.K)
    assert "End: stopped at max_iter after 3 iterations, not converged." in p.text
    mb = fit_minibatch(Xb, yb, batch_size=2, rng=0)
    p.set_run(mb, Xb, yb)
    p.seek(1)
    assert "in the batch" in p.text and f"Updates so far: 1 of the run's {p.K}." in p.text
    # update_on="negative" from 0 never moves: start and end at once
    p.set_run(fit_perceptron(TINY_X, TINY_Y, update_on="negative"), TINY_X, TINY_Y)
    assert p.K == 0
    assert "Start state (update 0 of 0)" in p.text and "End: converged" in p.text and "< 0" in p.text
    p.set_run(fit_perceptron(TINY_X, TINY_Y, update_on="sign"), TINY_X, TINY_Y)
    assert "sign(0) = -1" in p.text


def test_readout_says_what_each_count_counts_and_no_yet_after_updates():
    """The run's mistakes up to k and the current (w, b)'s wrong points are two lines, each naming its count;
    w = 0 reached again inside XOR's cycle is no start: no "yet", and the label every point gets instead."""
    Xx, yx = [[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]
    run = fit_perceptron(Xx, yx)
    p = StepThrough(run, Xx, yx)
    back_at_zero = [k for k in range(1, p.K + 1) if not np.any(run.history.w[k])]
    assert back_at_zero, "XOR's run passes through w = 0 after updates"
    k = back_at_zero[0]
    lines = p.lines(k)
    b = run.history.b[k]
    assert f"w = (0, 0), b = {b:g}: no boundary, every point gets {'+1' if b > 0 else '-1'}." in lines
    assert not any("yet" in line for line in lines), lines
    wrong = int(is_mistake(scores(run.history.w[k], b, np.asarray(Xx, float)), np.asarray(yx)).sum())
    assert f"Mistakes so far: {k} of the run's {p.K}, one update each." in lines
    assert f"Mistakes now: {wrong} of 4, the points the current (w, b) gets wrong (y(<w,x>+b) ≤ 0)." in lines
    p.seek(k)
    assert "yet" not in p.panels[0].scale_text.get_text() and "no boundary" in p.panels[0].scale_text.get_text()
    from perceptron_lib.player.readout import alt_text

    assert "yet" not in alt_text(run, Xx, yx, k) and "yet" in alt_text(run, Xx, yx, 0)
    p.seek(0)
    assert "no boundary yet" in p.panels[0].scale_text.get_text()
    strict = fit_perceptron(TINY_X, TINY_Y, update_on="negative")
    assert "Wrong side now: 0 of 2, the points on the wrong side of the current (w, b)" in " ".join(
        StepThrough(strict, TINY_X, TINY_Y).lines(0))
    margin_run = fit_perceptron(TINY_X, TINY_Y, margin=1.0)
    text = StepThrough(margin_run, TINY_X, TINY_Y).lines(1)
    assert f"Updates so far: 1 of the run's {len(margin_run.history) - 1}, one for each y(<w,x>+b) ≤ 1 met." in text


def check_data_panel_batch(p):
    dp, st = p.panels[0], p.state
    np.testing.assert_array_equal(dp.ring.get_xydata(), p.X[st.batch])  # the whole batch ringed
    assert np.allclose(dp.boundary.get_xydata() @ st.w + st.b, 0, atol=1e-9)


# --------------------------------------------------------------------------- driving every control


def test_next_through_whole_history_and_back(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y)
    seen = set()
    for k in range(p.K + 3):  # runs past the end
        assert p.k == min(k, p.K)
        st, ref = p.state, run.history[p.k]
        assert st.k == ref.k == p.k and st.i == ref.i and np.array_equal(st.w, ref.w) and st.b == ref.b
        check_data_panel(p)
        seen.add(p.frame_png())
        assert synced(p)
        p.next()
    assert p.k == p.K
    assert len(seen) == p.K + 1  # every step drew a different frame
    for k in range(p.K, -3, -1):
        assert p.k == max(k, 0)
        check_data_panel(p)
        p.prev()
    assert p.k == 0 and synced(p)


def test_buttons_slider_speed_play(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)])
    K = p.K
    reset, back, step, speed = (control(p, name) for name in ("Reset", "Back", "Step", "speed"))
    assert back.disabled and reset.disabled and not step.disabled
    for _ in range(K + 5):  # rapid repeated clicks, past the end
        step.click()
    assert p.k == K and synced(p) and step.disabled
    for _ in range(3):
        back.click()
    assert p.k == K - 3 and synced(p)
    reset.click()
    assert p.k == 0 and synced(p) and not p.playing
    back.click()  # back at 0
    assert p.k == 0
    for v in list(range(K + 1)) + list(range(K, -1, -3)):  # the slider over its whole range
        p.slider.value = v
        assert p.k == v and synced(p)
        check_data_panel(p)
        assert p.panels[1].curve.dot.get_xydata()[0, 0] == v
    for _label, ms in SPEEDS:  # every speed, from the speed slider as the front end sets it
        speed.value = ms
        assert p.interval_ms == ms
    p.set_speed(333)
    assert p.interval_ms == 333 and speed.value == 333 and (f"{1000 / 333:.3g}/s", 333) in speed.options
    p.set_speed(500)
    assert p.interval_ms == 500
    for bad in (0, -20):
        with pytest.raises(ValueError):
            p.set_speed(bad)
    assert p.interval_ms == 500  # a refused speed changes nothing
    # play toggling through the Play toggle button's own trait, as a click in the front end does
    p.seek(0)
    control(p, "play").value = True
    assert p.playing and synced(p)
    control(p, "play").value = False
    assert not p.playing and synced(p)
    p.toggle()
    assert p.playing and synced(p)
    p.toggle()
    assert not p.playing and synced(p)
    # while playing, each tick (the kernel's timer) drives the slider and the frame
    p.seek(3)
    p.play()
    assert p.tick() and p.k == 4 and p.slider.value == 4 and synced(p)
    check_data_panel(p)
    p.pause()
    assert not p.tick() and p.k == 4


def test_play_tick_stops_at_end_and_restarts(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y)
    assert p.tick() is False  # not playing: nothing happens
    p.play()
    assert p.playing and p.k == 0
    steps = 0
    while p.playing:  # each tick is one step; it says whether another is to come
        before = p.k
        more = p.tick()
        steps += 1
        assert p.k == before + 1 and more == (p.k < p.K) == p.playing
        check_data_panel(p)
        assert synced(p)
    assert steps == p.K and p.k == p.K and not p.playing  # at the end it stops
    assert p.tick() is False and p.k == p.K
    p.play()  # play at the end starts over, as the front end does
    assert p.playing and p.k == 0
    p.tick()
    p.tick()
    p.pause()
    assert not p.playing and p.k == 2
    assert p.tick() is False and p.k == 2
    p.play()
    p.next()  # a click while playing
    p.reset()
    assert p.k == 0 and not p.playing


def test_play_is_timed_by_the_running_event_loop(blobs):
    """With a running loop (the kernel's), Play steps by itself at the chosen speed, stops at the end,
    and Pause stops the timer: no step comes after it. Each loop runs in a thread of its own: in the
    full suite, Playwright's sync API may already run a loop in the main thread."""
    import asyncio
    import concurrent.futures

    def run_loop(coro_fn):
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, coro_fn()).result(timeout=60)

    run, X, y = blobs
    p = StepThrough(run, X, y)
    p.set_speed(5)

    async def play_to_the_end():
        p.play()
        for _ in range(2000):
            if not p.playing:
                break
            await asyncio.sleep(0.005)
        return p.k, p.playing

    k, playing = run_loop(play_to_the_end)
    assert k == p.K and not playing and synced(p)

    async def play_then_pause():
        p.seek(0)
        p.play()
        while p.k < 3:
            await asyncio.sleep(0.005)
        p.pause()
        at = p.k
        await asyncio.sleep(0.1)  # twenty intervals: a timer left running would step
        return at, p.k

    at, later = run_loop(play_then_pause)
    assert 3 <= at < p.K and later == at and not p.playing and synced(p)


def test_seek_clamps_and_types(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y)
    assert p.seek(-5) == 0
    assert p.seek(10 ** 9) == p.K
    assert p.seek(np.int64(3)) == 3
    assert p.seek(2.6) == 3
    assert p.seek(-1e300) == 0
    assert p.seek(1e300) == p.K
    with pytest.raises(ValueError):
        p.seek(float("nan"))
    with pytest.raises(TypeError):
        p.seek("3")
    assert p.k == p.K


def test_new_run_while_playing(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)])
    p.play()
    for _ in range(5):
        p.tick()
    tiny = fit_perceptron(TINY_X, TINY_Y)
    p.set_run(tiny, TINY_X, TINY_Y)
    assert not p.playing and p.k == 0 and p.K == 1 and synced(p)
    assert p.slider.max == 1
    assert len(p.panels[1].curve.values) == 2  # a callable LossPanel follows the new run
    check_data_panel(p)
    p.seek(50)
    assert p.k == 1
    check_data_panel(p)
    with pytest.raises(ValueError, match="2 rows"):
        p.run = run  # X is still the tiny one
    p.set_run(run, X, y)
    p.play()
    p.tick()
    p.run = run
    assert p.K == run.mistakes and p.k == 0 and not p.playing
    # a bad swap changes nothing
    before = (p.run, p.k, p.frame_png())
    with pytest.raises(ValueError):
        p.set_run(run, X[:, :1], y)
    with pytest.raises(TypeError):
        p.set_run("not a run", X, y)
    with pytest.raises(ValueError, match="LossPanel"):
        StepThrough(run, X, y, panels=[LossPanel(np.zeros(3))])
    assert (p.run, p.k, p.frame_png()) == before
    fixed = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss(run, X, y))])
    fixed.seek(3)
    with pytest.raises(ValueError, match="one value per state"):
        fixed.set_run(tiny, TINY_X, TINY_Y)  # the array belongs to the old run: refused, old run kept
    assert fixed.run is run and fixed.k == 3
    fixed.next()
    check_data_panel(fixed)  # the panels still draw on the player's figure
    assert fixed.panels[1].curve.dot.get_xydata()[0, 0] == 4


def test_switching_runs_keeps_one_figure(blobs):
    """One scene per player: every run (and every data set) is drawn on the same figure, and switching
    back to a run gives back its pictures exactly."""
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)])
    p.seek(3)
    fig, frame3 = p.figure, p.frame_png()
    tiny = fit_perceptron(TINY_X, TINY_Y)
    p.set_run(tiny, TINY_X, TINY_Y)
    assert p.figure is fig and len(p.panels[1].curve.values) == 2 and synced(p)
    check_data_panel(p)
    p.set_run(run, X, y)
    assert p.figure is fig and p.k == 0 and p.K == run.mistakes and synced(p)
    assert len(p.panels[1].curve.values) == run.mistakes + 1  # the panels follow the run back
    check_data_panel(p)
    p.seek(3)
    assert p.frame_png() == frame3
    # the same run drawn over other data: the same figure, the points where the new data are
    p.set_run(run, X + 0.5, y)
    assert p.figure is fig
    np.testing.assert_array_equal(p.X, X + 0.5)
    pos, neg = (np.asarray(a.get_offsets()) for a in _points(p))
    np.testing.assert_array_equal(pos, (X + 0.5)[y > 0])
    np.testing.assert_array_equal(neg, (X + 0.5)[y <= 0])
    check_data_panel(p)
    # many switches: still one figure with its two axes, and every run shown as itself
    others = [fit_perceptron(X, y, order="random", rng=seed) for seed in range(6)]
    for r in others:
        p.set_run(r, X, y)
        assert p.figure is fig and len(fig.axes) == 2 and p.run is r and p.K == len(r.history) - 1
        p.seek(p.K)
        check_data_panel(p)
    p.set_run(run, X, y)
    p.seek(3)
    assert p.figure is fig and p.frame_png() == frame3
    p.close()
    assert p.widget.comm is None and p.slider.comm is None


def _points(player):
    """The main panel's two point artists (class +1, class -1)."""
    dp = player.panels[0]
    return dp.points.pos, dp.points.neg


def test_panels_with_slots_are_remembered_in_their_own_copy(blobs):
    run, X, y = blobs

    class SlotPanel:
        __slots__ = ("line", "values")

        def draw(self, ax, run, X, y):
            self.values = np.arange(len(run.history), dtype=float)
            (self.line,) = ax.plot([0], [0])
            return [self.line]

        def update(self, k):
            self.line.set_data([k], [self.values[k]])
            return [self.line]

    p = StepThrough(run, X, y, panels=[SlotPanel()])
    fig = p.figure
    tiny = fit_perceptron(TINY_X, TINY_Y)
    p.set_run(tiny, TINY_X, TINY_Y)
    assert len(p.panels[1].values) == 2
    p.set_run(run, X, y)
    # the scene draws its own copy of the panel again on each run, so even a panel with __slots__
    # (and no `redraw` slot: the protocol makes `redraw` optional) follows the run
    assert p.figure is fig and len(p.panels[1].values) == run.mistakes + 1
    p.seek(2)
    assert p.panels[1].line.get_xdata()[0] == 2


# --------------------------------------------------------------------------- frames, blitting, no leaks


def test_frame_png_valid_and_changes(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y)
    f0 = p.frame_png()
    im = Image.open(io.BytesIO(f0))
    im.load()
    assert im.format == "PNG" and im.size == (1000, 920)  # render.DENSITY (2) pixels per CSS pixel of 500x460
    assert p.picture.value == f0 and p.picture.format == "png"
    p.next()
    assert p.frame_png() != f0
    p.prev()
    assert p.frame_png() == f0  # back to the same pixels: the blit leaves no trace


def test_blit_equals_full_redraw(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)])
    for k in (3, 7, p.K):
        p.seek(k)
        blitted = p.frame_png()
        p.redraw()
        assert p.frame_png() == blitted


def test_steps_blit_without_full_draws(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)])
    calls = []  # a full draw of the figure fires matplotlib's draw_event; a blit does not
    p.figure.canvas.mpl_connect("draw_event", lambda _e: calls.append(p.panels[0].scale_text.get_text()))
    notes = [p.panels[0].scale_text.get_text()]
    for _ in range(p.K):
        p.next()
        notes.append(p.panels[0].scale_text.get_text())
    changes = sum(a != b for a, b in zip(notes, notes[1:], strict=False))
    assert changes > 0  # the arrow-scale note changes along this run...
    assert calls == []  # ...and is blitted like the caption: stepping never redraws the whole figure
    p2 = StepThrough(run, X, y, data_panel=DataPanel(arrow_scale=0.5))
    p2.figure.canvas.mpl_connect("draw_event", lambda _e: calls.append("p2"))
    for _ in range(p2.K):
        p2.next()
    assert "p2" not in calls  # a fixed scale: stepping never redraws the whole figure


def test_limit_change_and_redraw_flag_cause_full_draw(blobs):
    run, X, y = blobs

    class Zooming:
        """A panel that changes its axes limits at k = 2 and asks for a redraw at k = 3."""

        def draw(self, ax, run, X, y):
            ax.set_xlim(0, 1)
            self.ax = ax
            (self.dot,) = ax.plot([0.5], [0.5], "o")
            return [self.dot]

        def update(self, k):
            if k == 2:
                self.ax.set_xlim(0, 2)
            if k == 3:
                self.redraw = True
            return [self.dot]

    p = StepThrough(run, X, y, panels=[Zooming()], data_panel=DataPanel(arrow_scale=1))
    calls = []  # a full draw of the figure fires matplotlib's draw_event; a blit does not
    p.figure.canvas.mpl_connect("draw_event", lambda _e: calls.append(p.k))
    p.next()
    assert calls == []
    p.next()
    assert len(calls) == 1
    p.next()
    assert len(calls) == 2 and p.panels[1].redraw is False
    p.next()
    assert len(calls) == 2


def test_margin_claims_panel_through_the_protocol(blobs):
    """The protocol is enough for a notebook author's claim panel: <u, w_t> and ||w_t||^2 against t."""
    run, X, y = blobs

    class Claims:
        def __init__(self, u):
            self.u = np.asarray(u, float) / np.linalg.norm(u)

        def draw(self, ax, run, X, y):
            W = np.column_stack([run.history.w, run.history.b])  # augmented (w, b)
            self.inner = W @ self.u
            self.sq = (W ** 2).sum(1)
            self.a = SU.draw_loss_curve(ax, self.inner, label="<u, w_t>")
            self.b = SU.draw_loss_curve(ax, self.sq, label="||w_t||^2")
            return [self.a.cursor, self.a.dot, self.b.dot]

        def update(self, k):
            return self.a.set_cursor(k) + self.b.set_cursor(k)[1:]

    p = StepThrough(run, X, y, panels=[Claims([1.0, -2.0, 0.4])])
    panel = p.panels[1]  # the scene's own copy of the panel
    p.seek(5)
    assert panel.a.dot.get_xydata()[0, 1] == pytest.approx(panel.inner[5])
    assert panel.b.dot.get_xydata()[0, 1] == pytest.approx(np.sum(run.history.w[5] ** 2) + run.history.b[5] ** 2)


def test_thirty_players_no_figure_warning():
    import matplotlib.pyplot as plt

    run = fit_perceptron(TINY_X, TINY_Y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        players = [StepThrough(run, TINY_X, TINY_Y) for _ in range(30)]
        for p in players:
            p.next()
    assert plt.get_fignums() == []
    for p in players:
        p.close()


def test_display_bundle_is_the_widget_with_stable_text(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y)
    bundle, meta = p._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == p.widget.model_id
    assert bundle["text/plain"] == f"<StepThrough: online run, {run.mistakes} updates>"
    assert "perceptron-stepthrough" in p.widget.get_state()["_dom_classes"]  # the state the front end gets


# --------------------------------------------------------------------------- panels


def test_loss_panel_cursor_and_validation(blobs):
    run, X, y = blobs
    vals = perceptron_loss(run, X, y)
    p = StepThrough(run, X, y, panels=[LossPanel(vals, "perceptron loss", ylabel="L")])
    panel = p.panels[1]
    for k in (0, 4, p.K):
        p.seek(k)
        np.testing.assert_array_equal(panel.curve.dot.get_xydata(), [[k, vals[k]]])
        np.testing.assert_array_equal(panel.curve.cursor.get_xdata(), [k, k])
    with pytest.raises(ValueError, match="one value per state"):
        StepThrough(run, X, y, panels=[LossPanel(vals[:-1])])
    p2 = StepThrough(run, X, y, panels=[LossPanel(np.arange(run.mistakes + 1) + 1.0, "mistakes", logy=True)])
    p2.seek(2)


def test_lifted_panel_plane_and_ring(lifted):
    run, Z, y = lifted
    p = StepThrough(run, Z, y, panels=[LiftedPanel()])
    dp, panel = p.panels
    assert dp.mode == "lifted" and not dp.w_arrow.get_visible()
    frames = set()
    for k in range(p.K + 1):
        p.seek(k)
        st = p.state
        poly = panel.art.polygon
        if panel.art.plane.get_visible():
            assert np.allclose(poly @ st.w + st.b, 0, atol=1e-9)  # the plane drawn is the state's plane
        if k:
            xs, ys, zs = panel.ring.get_data_3d()
            np.testing.assert_allclose([xs[0], ys[0], zs[0]], Z[st.i])
            np.testing.assert_array_equal(dp.ring.get_xydata(), [Z[st.i, :2]])
        circle = dp.boundary.get_xydata()  # in the plane: the circle w3 (x^2+y^2) + w1 x + w2 y + b = 0
        if len(circle):
            q = np.column_stack([circle, (circle ** 2).sum(1)])
            assert np.allclose(q @ st.w + st.b, 0, atol=1e-7)
        frames.add(p.frame_png())
    assert len(frames) == p.K + 1
    blitted = p.frame_png()
    p.redraw()
    assert p.frame_png() == blitted  # the 3-D blit equals a full draw
    with pytest.raises(ValueError, match="LiftedPanel"):
        run2 = fit_perceptron(TINY_X, TINY_Y)
        StepThrough(run2, TINY_X, TINY_Y, panels=[LiftedPanel()])


def test_data_panel_augmented_and_bad_dims():
    Xa = np.array([[1, 2, 1], [1, -1, -2]], float)  # bias absorbed as a leading 1
    run = fit_perceptron(Xa, TINY_Y, fit_bias=False)
    p = StepThrough(run, Xa, TINY_Y)
    dp = p.panels[0]
    assert dp.mode == "augmented"
    p.next()
    w = run.history.w[1]
    seg = dp.boundary.get_xydata()
    assert np.allclose(seg @ w[1:] + w[0], 0)
    np.testing.assert_array_equal(dp.ring.get_xydata(), [[2, 1]])
    with pytest.raises(ValueError, match="2-D data"):
        X4 = np.random.default_rng(0).normal(size=(5, 4))
        StepThrough(fit_perceptron(X4, [1, -1, 1, -1, 1]), X4, [1, -1, 1, -1, 1])


def test_homogeneous_run_arrows_from_origin():
    X = np.array([[1.0, 2.0], [2.0, -1.0], [-1.5, -1.0]])
    yy = np.array([1, 1, -1])
    run = fit_perceptron(X, yy, fit_bias=False)
    p = StepThrough(run, X, yy, data_panel=DataPanel(arrow_scale=1.0))
    for k in range(1, p.K + 1):
        p.seek(k)
        np.testing.assert_allclose(p.panels[0].w_arrow.start, [0, 0])
        check_data_panel(p)
    xl, yl = p.panels[0].ax.get_xlim(), p.panels[0].ax.get_ylim()
    assert xl[0] < 0 < xl[1] and yl[0] < 0 < yl[1]  # the origin is in view
    # with room around it, where every w arrow starts: not in a corner of the view
    for lo, hi in (xl, yl):
        assert min(-lo, hi) >= 0.2 * (hi - lo)


def test_arrows_stay_visible_when_the_boundary_only_cuts_a_corner_of_the_view():
    """Lesson 03's six points with an offset, update 14: the boundary crosses only the view's bottom-left
    corner and w points out of the view, so no anchor on the boundary keeps the arrows in view. They start
    from a point of the view instead, at a readable scale (they were drawn at 1e-14, "arrows ×1/1e+14")."""
    from perceptron_lib.core import data
    from perceptron_lib.draw import plotting

    X, yy = data.no_origin_separator()
    p = StepThrough(fit_perceptron(X, yy), X, yy)
    dp = p.panels[0]
    (x0, x1), (y0, y1) = dp.ax.get_xlim(), dp.ax.get_ylim()
    h = p.run.history
    seg = plotting.boundary_segment(h.w[14], h.b[14], (x0, x1), (y0, y1))
    assert seg is not None and np.hypot(*(seg[1] - seg[0])) < 0.1  # the corner case itself
    for k in range(1, p.K + 1):
        p.seek(k)
        a = dp.w_arrow
        assert dp.arrow_scale >= 1 / 50, (k, dp.arrow_scale)
        np.testing.assert_allclose(a.delta, dp.arrow_scale * h.w[k])  # along w: normal to the boundary
        for tip in (a.start + a.delta, a.start + dp.arrow_scale * h.w[k - 1]):  # w's tip, w before's tip
            assert x0 < tip[0] < x1 and y0 < tip[1] < y1, (k, tip)
    p.seek(14)
    assert dp.arrow_scale == 1 / 5 and np.hypot(*dp.w_arrow.delta) >= 0.2 * (x1 - x0)


def test_the_legend_names_every_kind_of_mark(blobs):
    """The grey arrow (w before the update) is drawn at every update: the legend names it, as the prose does."""
    run, X, y = blobs
    p = StepThrough(run, X, y)
    labels = [t.get_text() for t in p.panels[0].ax.get_legend().get_texts()]
    assert labels == ["y = +1", "y = -1", "boundary", "boundary before", "w", "w before", "η·y·x", "current",
                      "mistake"]
    p.seek(3)
    dp = p.panels[0]
    assert dp.ghost.patch.get_visible() and dp.w_arrow.patch.get_visible()
    p2 = StepThrough(run, X, y, data_panel=DataPanel(show_arrows=False))
    assert "w before" not in [t.get_text() for t in p2.panels[0].ax.get_legend().get_texts()]


def test_options_hide_parts(blobs):
    run, X, y = blobs
    p = StepThrough(run, X, y, data_panel=DataPanel(show_mistakes=False, show_previous=False, show_arrows=False,
                                                     legend=False))
    p.seek(3)
    dp = p.panels[0]
    assert len(dp.mistakes.get_xydata()) == 0 and len(dp.prev_line.get_xydata()) == 0
    assert not dp.w_arrow.get_visible() and dp.ax.get_legend() is None


# --------------------------------------------------------------------------- style and static fallback


def test_player_uses_style(blobs, no_style_chosen):
    run, X, y = blobs
    nb = StepThrough(run, X, y)
    lec = StepThrough(run, X, y, style="lecture")
    assert nb.style is S.NOTEBOOK and lec.style is S.LECTURE
    w_nb, _ = Image.open(io.BytesIO(nb.frame_png())).size
    w_lec, _ = Image.open(io.BytesIO(lec.frame_png())).size
    assert w_lec > w_nb
    ax_nb, ax_lec = nb.panels[0].ax, lec.panels[0].ax
    assert ax_lec.title.get_fontsize() > ax_nb.title.get_fontsize()
    assert ax_lec.xaxis.get_major_ticks()[0].label1.get_fontsize() >= 18
    assert nb.panels[0].boundary.get_linewidth() < lec.panels[0].boundary.get_linewidth()
    with S.context("lecture"):
        assert StepThrough(run, X, y).style is S.LECTURE  # default: the current preset
    rc_before = dict(matplotlib.rcParams)
    lec.seek(4)
    assert dict(matplotlib.rcParams) == rc_before


def test_to_html_small_and_quiet(blobs, capfd, caplog):
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)], style="lecture")
    p.seek(5)
    before = p.frame_png()
    with warnings.catch_warnings(), caplog.at_level(logging.WARNING, logger="matplotlib"):
        warnings.simplefilter("error")
        anim = p.to_html(max_frames=30, dpi=60)
    out, err = capfd.readouterr()
    assert err == "" and out == "" and caplog.records == []
    assert anim.nbytes < 2_000_000 and anim.nbytes == len(anim._repr_html_().encode())
    html = anim._repr_html_()
    assert "<script" in html and "perceptron-recording" in html and html.count('"iVBOR') == len(anim.frames)
    assert anim.frames[0] == 0 and anim.frames[-1] == p.K and len(anim.frames) <= 30
    assert p.k == 5 and p.frame_png() == before  # the player is as it was
    p.next()
    check_data_panel(p)
    assert "frames" in repr(anim)


def recorded(anim):
    """(png bytes, alt, readout) of each frame of a recording."""
    import base64
    import json
    import re

    payload = re.search(r'<script type="application/json">(.*?)</script>', anim._repr_html_(), re.S).group(1)
    return [(base64.b64decode(png), alt, text) for png, alt, text in json.loads(payload.replace("<\\/", "</"))]


def test_to_html_frames_are_the_players_frames(blobs):
    """At the player's own resolution each recorded frame is the player's picture (up to the palette),
    with the player's alt text and readout for that step."""
    run, X, y = blobs
    p = StepThrough(run, X, y, panels=[LossPanel(perceptron_loss)])
    anim = p.to_html(max_frames=5, dpi=p.dpi)  # the player's own resolution (2x its CSS size)
    frames = recorded(anim)
    assert len(frames) == len(anim.frames) == 5
    for k, (png, alt, text) in zip(anim.frames, frames, strict=True):
        p.seek(k)
        a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), float)
        b = np.asarray(Image.open(io.BytesIO(p.frame_png())).convert("RGB"), float)
        assert a.shape == b.shape and np.abs(a - b).mean() < 3, f"frame of step {k}"
        assert alt == p.alt and text == p.text


def test_recording_page_controls_are_labelled():
    from perceptron_lib.player.recording import recording_page

    page = recording_page([("AAAA", "first picture", "k = 0"), ("BBBB", "second <picture>", "k = 1")])
    for act in ("Start", "Back", "Step", "End", "Play"):
        assert f'aria-label="{act}">{act}</button>' in page
    assert 'aria-label="frame of the recorded run"' in page and 'alt="first picture"' in page
    assert "second &lt;picture&gt;" not in page and "http" not in page  # data stays in JSON; no network
    assert page == recording_page([("AAAA", "first picture", "k = 0"), ("BBBB", "second <picture>", "k = 1")])


def test_to_html_subsamples_long_runs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(X @ [1.0, 2.0] + 0.3 > 0, 1, -1)
    run = fit_perceptron(X, y)
    assert run.mistakes > 100
    p = StepThrough(run, X, y)
    anim = p.to_html(max_frames=500, dpi=100, max_bytes=1_000_000)
    assert anim.nbytes <= 1_000_000
    assert 2 <= len(anim.frames) < 60 and anim.frames[-1] == run.mistakes


def test_fallback_is_folded_and_fold_rejects_non_animations():
    from perceptron_lib import fit_perceptron
    from perceptron_lib.player import StepThrough
    from perceptron_lib.player.recording import NO_KERNEL_SUMMARY, fold

    p = StepThrough(fit_perceptron([[2, 1], [-1, -2], [1, 3]], [1, -1, 1]), [[2, 1], [-1, -2], [1, 3]], [1, -1, 1])
    folded = p.fallback(max_frames=2, dpi=30)
    html = folded._repr_html_()
    assert html.startswith(f'<details class="perceptron-fallback"><summary>{NO_KERNEL_SUMMARY}</summary>')
    assert "<script" in html
    assert html.endswith("</details>") and folded.nbytes < 2_000_000
    with pytest.raises(TypeError, match="StepThrough.to_html"):
        fold("x", "not an animation")


def test_a_lifted_plane_that_misses_the_bowl_says_so():
    """A lifted state whose circle has no real point (w1 x + w2 y + w3 (x² + y²) + b is never 0) draws no
    boundary: the note says why, and which label every point gets, not "boundary outside the view"."""
    X2 = np.array([[-2.17, 0.69], [-1.8, -1.3]])  # two points of class +1, as a student may place them
    y2 = np.array([1, 1])
    Z = kernels.lift(X2)
    run = fit_perceptron(Z, y2)
    p = StepThrough(run, Z, y2)
    p.seek(1)
    dp = p.panels[0]
    assert kernels.circle_from_plane(run.history.w[1], run.history.b[1]).kind == "empty"
    assert len(dp.boundary.get_xydata()) == 0
    assert dp.scale_text.get_text() == "no circle: every point gets +1"
    assert np.all(scores(run.history.w[1], run.history.b[1], Z) > 0)  # as the note says


@pytest.mark.browser
def test_two_recordings_of_the_same_run_on_one_page_each_step_their_own_picture(chromium, tmp_path):
    """Lesson 05's site page showed the same run twice: both recordings had one id, and the second's buttons
    drove the first. Each script now drives the recording it stands in."""
    from perceptron_lib.player.recording import recording_page

    frames = [("AAAA", "first picture", "k = 0"), ("BBBB", "second picture", "k = 1")]
    one = recording_page(frames)
    page_file = tmp_path / "two.html"
    page_file.write_text(f"<!doctype html><html lang='en'><body>{one}<p>between</p>{one}</body></html>")
    page = chromium.new_page()
    try:
        page.goto(page_file.as_uri())
        recs = page.locator(".perceptron-recording")
        assert recs.count() == 2
        recs.nth(1).locator("button[data-act=step]").click()
        assert recs.nth(1).locator(".rec-readout").inner_text() == "k = 1"
        assert recs.nth(0).locator(".rec-readout").inner_text() == "k = 0"
        recs.nth(0).locator("button[data-act=step]").click()
        assert recs.nth(0).locator(".rec-readout").inner_text() == "k = 1"
    finally:
        page.close()
