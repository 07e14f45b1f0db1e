"""The players' still pictures, drawn by matplotlib (`render.Scene`, as every browser widget's saved output keeps
it): the data panel's and the other panels' artists equal to the state at k, at every k and every edge; the readout's
words of hand-checkable runs."""

import io
import warnings

import matplotlib
import numpy as np
import pytest
from PIL import Image

from perceptron_lib import fit_batch, fit_minibatch, fit_perceptron
from perceptron_lib.core import data, kernels
from perceptron_lib.core.perceptron import is_mistake, scores
from perceptron_lib.draw import style as S
from perceptron_lib.draw import surfaces as SU
from perceptron_lib.player import DataPanel, LiftedPanel, LossPanel
from tests.drawn import Drawn

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


# --------------------------------------------------------------------------- readout on a hand-checkable run


def test_readout_tiny_run():
    run = fit_perceptron(TINY_X, TINY_Y)
    p = Drawn(run, TINY_X, TINY_Y)
    assert p.K == 1 and p.k == 0
    t0 = p.text
    assert "Start state (update 0 of 1)" in t0 and "no example looked at yet" in t0
    assert "w = (0, 0), b = 0: no boundary yet." in t0 and "Mistakes so far: 0 of the run's 1, one update each." in t0
    assert "Mistakes now: 2 of 2 points have y(<w,x>+b) ≤ 0." in t0  # with w = 0, every y*0 = 0 <= 0
    assert "End" not in t0
    p.next()
    t1 = p.text
    assert "Update 1 of 1 (epoch 1)." in t1
    assert "Example i = 0: x = (2, 1), y = +1." in t1
    assert "before → after: 0 → 6." in t1  # 0 + (2^2 + 1^2 + 1)
    assert "w = (2, 1), b = 1." in t1
    assert "Mistakes so far: 1 of the run's 1" in t1 and "Mistakes now: 0 of 2" in t1
    assert "End: converged: in epoch 2 no point had y(<w,x>+b) ≤ 0." in t1
    assert p.lines(0)[0].startswith("Start state")
    check_data_panel(p)
    # the boundary 2*x1 + x2 + 1 = 0, the ring on example 0, the arrow from -b*w/||w||^2 = (-0.4, -0.2)
    np.testing.assert_allclose(p.panels[0].w_arrow.start, [-0.4, -0.2])
    np.testing.assert_array_equal(p.panels[0].ring.get_xydata(), [[2, 1]])


def test_readout_end_states():
    Xx, yx = [[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]
    p = Drawn(fit_perceptron(Xx, yx), Xx, yx)
    p.seek(p.K)
    assert "End: cycle. Epoch 2 (4 updates) repeats for ever: no (w, b) separates these points." in p.text
    # lesson 03's six points through the origin: epoch 1 takes 5 updates, epochs 2 to 7 take 4, 5, 4, 4, 5, 4 and end
    # in the state epoch 1 ended in (the per-epoch chart of the lesson)
    X6, y6 = [[1, 1], [3, 3], [2, 1], [4, 2], [1, 2], [2, 4]], [1, -1, 1, -1, 1, -1]
    p = Drawn(fit_perceptron(X6, y6, fit_bias=False), X6, y6)
    p.seek(p.K)
    assert p.K == 31 and "End: cycle. Epochs 2 to 7 (26 updates) repeat for ever: no w with b = 0 separates" in p.text
    p = Drawn(fit_perceptron(Xx, yx, max_epochs=3, order="random", rng=0), Xx, yx)
    p.seek(p.K)
    assert "End: stopped after 3 epochs (the max_epochs limit), not converged." in p.text
    Xb, yb = [[2, 1], [-1, -2], [0.5, 0.2]], [1, -1, -1]
    p = Drawn(fit_batch(Xb, yb), Xb, yb)
    p.seek(1)
    assert "A step on the 3 mistakes in the data: i = 0, 1, 2." in p.text
    assert "Mistakes in the data before → after: 3 → 1 of 3." in p.text
    assert "w = (2.5, 2.8), b = -1." in p.text
    p.seek(2)
    assert "A step on the 1 mistake in the data: i = 2." in p.text
    assert "End: converged after 2 iterations" in p.text
    check_data_panel_batch(p)
    p = Drawn(fit_batch(Xx, yx, max_iter=3), Xx, yx)
    p.seek(p.K)
    assert "End: stopped after 3 iterations (the max_iter limit), not converged." in p.text
    mb = fit_minibatch(Xb, yb, batch_size=2, rng=0)
    p = Drawn(mb, Xb, yb)
    p.seek(1)
    assert "in the batch" in p.text and f"Updates so far: 1 of the run's {p.K}." in p.text
    # update_on="negative" from 0 never moves: start and end at once
    p = Drawn(fit_perceptron(TINY_X, TINY_Y, update_on="negative"), TINY_X, TINY_Y)
    assert p.K == 0
    assert "Start state (update 0 of 0)" in p.text and "End: converged" in p.text and "< 0" in p.text
    p = Drawn(fit_perceptron(TINY_X, TINY_Y, update_on="sign"), TINY_X, TINY_Y)
    assert "sign(0) = -1" in p.text


def test_readout_says_what_each_count_counts_and_no_yet_after_updates():
    """The run's mistakes up to k and the current (w, b)'s wrong points are two lines, each naming its count;
    w = 0 reached again inside XOR's cycle is no start: no "yet", and the label every point gets instead."""
    Xx, yx = [[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]
    run = fit_perceptron(Xx, yx)
    p = Drawn(run, Xx, yx)
    back_at_zero = [k for k in range(1, p.K + 1) if not np.any(run.history.w[k])]
    assert back_at_zero, "XOR's run passes through w = 0 after updates"
    k = back_at_zero[0]
    lines = p.lines(k)
    b = run.history.b[k]
    assert f"w = (0, 0), b = {b:g}: no boundary, every point gets {'+1' if b > 0 else '-1'}." in lines
    assert not any("yet" in line for line in lines), lines
    wrong = int(is_mistake(scores(run.history.w[k], b, np.asarray(Xx, float)), np.asarray(yx)).sum())
    assert f"Mistakes so far: {k} of the run's {p.K}, one update each." in lines
    assert f"Mistakes now: {wrong} of 4 points have y(<w,x>+b) ≤ 0." in lines
    p.seek(k)
    assert "yet" not in p.panels[0].scale_text.get_text() and "no boundary" in p.panels[0].scale_text.get_text()
    from perceptron_lib.player.readout import alt_text

    assert "yet" not in alt_text(run, Xx, yx, k) and "yet" in alt_text(run, Xx, yx, 0)
    p.seek(0)
    assert "no boundary yet" in p.panels[0].scale_text.get_text()
    strict = fit_perceptron(TINY_X, TINY_Y, update_on="negative")
    assert "Wrong side now: 0 of 2 points have y(<w,x>+b) < 0." in " ".join(
        Drawn(strict, TINY_X, TINY_Y).lines(0))
    margin_run = fit_perceptron(TINY_X, TINY_Y, margin=1.0)
    text = Drawn(margin_run, TINY_X, TINY_Y).lines(1)
    assert f"Updates so far: 1 of the run's {len(margin_run.history) - 1}, one at each y(<w,x>+b) ≤ 1." in text


def check_data_panel_batch(p):
    dp, st = p.panels[0], p.state
    np.testing.assert_array_equal(dp.ring.get_xydata(), p.X[st.batch])  # the whole batch ringed
    assert np.allclose(dp.boundary.get_xydata() @ st.w + st.b, 0, atol=1e-9)


# --------------------------------------------------------------------------- every step


def test_next_through_whole_history_and_back(blobs):
    run, X, y = blobs
    p = Drawn(run, X, y)
    seen = set()
    for k in range(p.K + 3):  # runs past the end
        assert p.k == min(k, p.K)
        st, ref = p.state, run.history[p.k]
        assert st.k == ref.k == p.k and st.i == ref.i and np.array_equal(st.w, ref.w) and st.b == ref.b
        check_data_panel(p)
        seen.add(p.frame_png())
        p.next()
    assert p.k == p.K
    assert len(seen) == p.K + 1  # every step drew a different frame
    for k in range(p.K, -3, -1):
        assert p.k == max(k, 0)
        check_data_panel(p)
        p.prev()
    assert p.k == 0


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

    configured = SlotPanel()
    tiny = Drawn(fit_perceptron(TINY_X, TINY_Y), TINY_X, TINY_Y, panels=[configured])
    p = Drawn(run, X, y, panels=[configured])
    # each scene draws its own copy of the panel, so even a panel with __slots__ (and no `redraw` slot: the
    # protocol makes `redraw` optional) follows its own run, and the configured one is left as it was
    assert len(tiny.panels[1].values) == 2 and len(p.panels[1].values) == run.mistakes + 1
    assert not hasattr(configured, "values")
    p.seek(2)
    assert p.panels[1].line.get_xdata()[0] == 2


# --------------------------------------------------------------------------- frames, blitting, no leaks


def test_frame_png_valid_and_changes(blobs):
    run, X, y = blobs
    p = Drawn(run, X, y)
    f0 = p.frame_png()
    im = Image.open(io.BytesIO(f0))
    im.load()
    assert im.format == "PNG" and im.size == (1000, 920)  # render.DENSITY (2) pixels per CSS pixel of 500x460
    p.next()
    assert p.frame_png() != f0
    p.prev()
    assert p.frame_png() == f0  # back to the same pixels: the blit leaves no trace


def test_blit_equals_full_redraw(blobs):
    run, X, y = blobs
    p = Drawn(run, X, y, panels=[LossPanel(perceptron_loss)])
    for k in (3, 7, p.K):
        p.seek(k)
        blitted = p.frame_png()
        p.redraw()
        assert p.frame_png() == blitted


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

    p = Drawn(run, X, y, panels=[Zooming()], data_panel=DataPanel(arrow_scale=1))
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

    p = Drawn(run, X, y, panels=[Claims([1.0, -2.0, 0.4])])
    panel = p.panels[1]  # the scene's own copy of the panel
    p.seek(5)
    assert panel.a.dot.get_xydata()[0, 1] == pytest.approx(panel.inner[5])
    assert panel.b.dot.get_xydata()[0, 1] == pytest.approx(np.sum(run.history.w[5] ** 2) + run.history.b[5] ** 2)


def test_thirty_players_no_figure_warning():
    import matplotlib.pyplot as plt

    run = fit_perceptron(TINY_X, TINY_Y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        players = [Drawn(run, TINY_X, TINY_Y) for _ in range(30)]
        for p in players:
            p.next()
    assert plt.get_fignums() == []


# --------------------------------------------------------------------------- panels


def test_loss_panel_cursor_and_validation(blobs):
    run, X, y = blobs
    vals = perceptron_loss(run, X, y)
    p = Drawn(run, X, y, panels=[LossPanel(vals, "perceptron loss", ylabel="L")])
    panel = p.panels[1]
    for k in (0, 4, p.K):
        p.seek(k)
        np.testing.assert_array_equal(panel.curve.dot.get_xydata(), [[k, vals[k]]])
        np.testing.assert_array_equal(panel.curve.cursor.get_xdata(), [k, k])
    with pytest.raises(ValueError, match="one value per state"):
        Drawn(run, X, y, panels=[LossPanel(vals[:-1])])
    p2 = Drawn(run, X, y, panels=[LossPanel(np.arange(run.mistakes + 1) + 1.0, "mistakes", logy=True)])
    p2.seek(2)


def test_lifted_panel_plane_and_ring(lifted):
    run, Z, y = lifted
    p = Drawn(run, Z, y, panels=[LiftedPanel()])
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
        Drawn(run2, TINY_X, TINY_Y, panels=[LiftedPanel()])


def test_data_panel_augmented_and_bad_dims():
    Xa = np.array([[1, 2, 1], [1, -1, -2]], float)  # bias absorbed as a leading 1
    run = fit_perceptron(Xa, TINY_Y, fit_bias=False)
    p = Drawn(run, Xa, TINY_Y)
    dp = p.panels[0]
    assert dp.mode == "augmented"
    p.next()
    w = run.history.w[1]
    seg = dp.boundary.get_xydata()
    assert np.allclose(seg @ w[1:] + w[0], 0)
    np.testing.assert_array_equal(dp.ring.get_xydata(), [[2, 1]])
    with pytest.raises(ValueError, match="2-D data"):
        X4 = np.random.default_rng(0).normal(size=(5, 4))
        Drawn(fit_perceptron(X4, [1, -1, 1, -1, 1]), X4, [1, -1, 1, -1, 1])


def test_homogeneous_run_arrows_from_origin():
    X = np.array([[1.0, 2.0], [2.0, -1.0], [-1.5, -1.0]])
    yy = np.array([1, 1, -1])
    run = fit_perceptron(X, yy, fit_bias=False)
    p = Drawn(run, X, yy, data_panel=DataPanel(arrow_scale=1.0))
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
    p = Drawn(fit_perceptron(X, yy), X, yy)
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
    p = Drawn(run, X, y)
    labels = [t.get_text() for t in p.panels[0].ax.get_legend().get_texts()]
    assert labels == ["y = +1", "y = -1", "boundary", "boundary before", "w", "w before", "η·y·x", "current",
                      "mistake"]
    p.seek(3)
    dp = p.panels[0]
    assert dp.ghost.patch.get_visible() and dp.w_arrow.patch.get_visible()
    p2 = Drawn(run, X, y, data_panel=DataPanel(show_arrows=False))
    assert "w before" not in [t.get_text() for t in p2.panels[0].ax.get_legend().get_texts()]


def test_options_hide_parts(blobs):
    run, X, y = blobs
    p = Drawn(run, X, y, data_panel=DataPanel(show_mistakes=False, show_previous=False, show_arrows=False,
                                                     legend=False))
    p.seek(3)
    dp = p.panels[0]
    assert len(dp.mistakes.get_xydata()) == 0 and len(dp.prev_line.get_xydata()) == 0
    assert not dp.w_arrow.get_visible() and dp.ax.get_legend() is None


# --------------------------------------------------------------------------- style


def test_player_uses_style(blobs, no_style_chosen):
    run, X, y = blobs
    nb = Drawn(run, X, y)
    lec = Drawn(run, X, y, style="lecture")
    assert nb.style is S.NOTEBOOK and lec.style is S.LECTURE
    w_nb, _ = Image.open(io.BytesIO(nb.frame_png())).size
    w_lec, _ = Image.open(io.BytesIO(lec.frame_png())).size
    assert w_lec > w_nb
    ax_nb, ax_lec = nb.panels[0].ax, lec.panels[0].ax
    assert ax_lec.title.get_fontsize() > ax_nb.title.get_fontsize()
    assert ax_lec.xaxis.get_major_ticks()[0].label1.get_fontsize() >= 18
    assert nb.panels[0].boundary.get_linewidth() < lec.panels[0].boundary.get_linewidth()
    with S.context("lecture"):
        assert Drawn(run, X, y).style is S.LECTURE  # default: the current preset
    rc_before = dict(matplotlib.rcParams)
    lec.seek(4)
    assert dict(matplotlib.rcParams) == rc_before


def test_a_lifted_plane_that_misses_the_bowl_says_so():
    """A lifted state whose circle has no real point (w1 x + w2 y + w3 (x² + y²) + b is never 0) draws no
    boundary: the note says why, and which label every point gets, not "boundary outside the view"."""
    X2 = np.array([[-2.17, 0.69], [-1.8, -1.3]])  # two points of class +1, as a student may place them
    y2 = np.array([1, 1])
    Z = kernels.lift(X2)
    run = fit_perceptron(Z, y2)
    p = Drawn(run, Z, y2)
    p.seek(1)
    dp = p.panels[0]
    assert kernels.circle_from_plane(run.history.w[1], run.history.b[1]).kind == "empty"
    assert len(dp.boundary.get_xydata()) == 0
    assert dp.scale_text.get_text() == "no circle: every point gets +1"
    assert np.all(scores(run.history.w[1], run.history.b[1], Z) > 0)  # as the note says


