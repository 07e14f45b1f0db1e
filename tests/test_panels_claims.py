"""The claims panel: its artists show exactly the proof's numbers at the player's step."""

import io

import numpy as np
import pytest
from PIL import Image

from perceptron_lib import fit_perceptron
from perceptron_lib.core.bounds import mistake_bound
from perceptron_lib.core.data import separable, small_2d
from perceptron_lib.core.proof import adversarial_run, trace
from perceptron_lib.draw import style as S
from perceptron_lib.player.panels.claims import (
    BOUND_COLOR,
    SEPARATOR_STYLES,
    ClaimsPanel,
    draw_bound_sweep,
    draw_separators,
    plot_claims,
)
from tests.drawn import Drawn
from tests.frame_checks import contrast


@pytest.fixture(scope="module")
def case():
    X, y = separable(40, margin=0.15, seed=0)
    run = fit_perceptron(X, y, fit_bias=False, eta=0.5, order="random", rng=0)
    u = mistake_bound(X, y).w
    assert run.mistakes >= 5
    return run, X, y, u


def bound_lines(ax):
    return [ln for ln in ax.lines if ln.get_linestyle() == ":" and ln.get_color() == BOUND_COLOR]


def check_panel(panel, k):
    """The revealed curves end at state k, the dots sit on the values at k, the cursor at t = k."""
    tr = panel.trace
    np.testing.assert_array_equal(panel.cursor.get_xdata(), [k, k])
    for line, dot, values in panel.curves:
        np.testing.assert_array_equal(line.get_xdata(), tr.t[: k + 1])
        np.testing.assert_allclose(line.get_ydata(), values[: k + 1])
        np.testing.assert_allclose(dot.get_xydata(), [[k, values[k]]])


def test_the_still_at_every_step_shows_the_claims(case):
    run, X, y, u = case
    player = Drawn(run, X, y, panels=[ClaimsPanel(u)])
    panel = player.panels[1]  # the scene's own copy
    tr = trace(run, X, y, u=u)
    assert len(player.panels) == 2 and isinstance(panel, ClaimsPanel)
    np.testing.assert_allclose(panel.trace.inner, tr.inner)
    assert [vals is panel.trace.inner or vals is panel.trace.sqnorm for _, _, vals in panel.curves] == [True, True]
    for k in [0, 1, 3, run.mistakes, 2, 0]:
        player.seek(k)
        check_panel(panel, k)
        assert panel.ax.get_title() == f"t = {k} mistake{'' if k == 1 else 's'}, bound (R/γ)² = {tr.bound:.3g}"
    for k in range(run.mistakes + 1):
        player.seek(k)
        check_panel(panel, k)


def test_views_and_their_curves(case):
    run, X, y, u = case
    tr = trace(run, X, y, u=u)
    expected = {"claims": [tr.inner, tr.sqnorm], "claim1": [tr.inner], "claim2": [tr.sqnorm],
                "chain": [tr.inner, tr.norm]}
    for show, values in expected.items():
        fig, ax = S.subplots()
        panel = plot_claims(ax, run, X, y, u=u, show=show)
        assert len(panel.curves) == len(values)
        for (_, _, v), want in zip(panel.curves, values, strict=True):
            np.testing.assert_allclose(v, want)
        check_panel(panel, run.mistakes)  # static: at the end
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert len(labels) == 2 * len(values) + (show == "chain")
        # the bound's vertical line is in view only for the chain here (the bound is far beyond the run)
        lines = bound_lines(ax)
        if show == "chain":
            assert len(lines) == 1 and lines[0].get_xdata()[0] == pytest.approx(tr.bound)
            assert ax.get_xlim()[1] >= tr.bound
        else:
            assert tr.bound > 2 * run.mistakes and not lines and ax.get_xlim()[1] < tr.bound


def test_bounding_lines_have_the_right_slopes(case):
    run, X, y, u = case
    tr = trace(run, X, y, u=u)
    fig, ax = S.subplots()
    plot_claims(ax, run, X, y, u=u, xmax="bound")
    assert ax.get_xlim()[1] >= tr.bound and len(bound_lines(ax)) == 1
    dashed = {ln.get_label(): ln for ln in ax.lines if ln.get_label().startswith("$t")}
    floor = next(v for k, v in dashed.items() if "Claim 1" in k)
    ceiling = next(v for k, v in dashed.items() if "Claim 2" in k)
    t = floor.get_xdata()
    np.testing.assert_allclose(floor.get_ydata(), t * tr.eta * tr.gamma)
    np.testing.assert_allclose(ceiling.get_ydata(), ceiling.get_xdata() * tr.eta**2 * tr.R**2)


def test_bound_in_view_when_close_and_fixed_title():
    X, y = [[1.0, 0.0], [0.0, 1.0]], [1, -1]  # 2 mistakes, bound 2
    run = fit_perceptron(X, y, fit_bias=False)
    fig, ax = S.subplots()
    panel = plot_claims(ax, run, X, y, title="two points", k=1)
    assert ax.get_title() == "two points" and ax.title not in panel.moving
    check_panel(panel, 1)
    assert len(bound_lines(ax)) == 1
    fig, ax = S.subplots()
    plot_claims(ax, run, X, y, xmax=10)
    assert ax.get_xlim()[1] == pytest.approx(10.3)


def test_offset_run_is_shown_augmented():
    X, y, w, b = separable(30, margin=0.15, bias=True, seed=2, return_separator=True)
    run = fit_perceptron(X, y)
    fig, ax = S.subplots()
    panel = plot_claims(ax, run, X, y, u=w, b=b)
    assert panel.trace.form == "offset"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(r"\tilde w" in lab for lab in labels)


def test_the_adversarys_run_drawn(case):
    run, X, y, u = case
    adv = adversarial_run(X, y, u, eta=0.5)
    player = Drawn(adv, X, y, panels=[ClaimsPanel(u)])
    panel = player.panels[1]
    assert panel.trace.mistakes == adv.mistakes and player.k == 0
    player.seek(adv.mistakes)
    check_panel(panel, adv.mistakes)
    np.testing.assert_allclose(panel.trace.inner, panel.trace.floor)  # the adversary makes Claim 1 tight here
    img = Image.open(io.BytesIO(player.frame_png()))
    assert img.size[0] >= 900 and np.unique(np.asarray(img.convert("L"))).size > 20


def test_lecture_style_splits_the_title(case):
    run, X, y, u = case
    player = Drawn(run, X, y, panels=[ClaimsPanel(u)], style="lecture")
    panel = player.panels[1]
    player.seek(2)
    assert "\n" in panel.ax.get_title() and panel.ax.title.get_fontsize() == S.LECTURE.title_size


def test_bad_arguments():
    with pytest.raises(ValueError, match="show"):
        ClaimsPanel(show="both")
    with pytest.raises(ValueError, match="xmax"):
        ClaimsPanel(xmax=-1)
    X, y = small_2d()
    run = fit_perceptron(X, y, fit_bias=False)
    with pytest.raises(ValueError, match="does not separate"):
        Drawn(run, X, y, panels=[ClaimsPanel([-1, -1])])


def test_draw_separators_labels_margins_and_bounds():
    X, y = small_2d()  # u = (1, 1) has margin sqrt2, R^2 = 13: bound 6.5
    fig, ax = S.subplots()
    out = draw_separators(ax, X, y, {"diagonal": [1, 1], "wrong": [-1, -1], "axis": [1, 0]}, title="three lines")
    assert out["diagonal"][0] == pytest.approx(np.sqrt(2)) and out["diagonal"][1] == pytest.approx(6.5)
    assert out["wrong"][1] is None and out["wrong"][0] < 0
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "diagonal: γ = 1.414, bound 6.5" in labels and any(lab.startswith("wrong") and "no bound" in lab
                                                            for lab in labels)
    assert ax.get_title() == "three lines" and ax.title.get_fontsize() == S.current().title_size
    boundaries = [ln for ln in ax.lines if ln.get_label().startswith(("diagonal", "wrong", "axis"))]
    for ln, u in zip(boundaries, ([1, 1], [-1, -1], [1, 0]), strict=True):
        assert np.allclose(ln.get_xydata() @ np.asarray(u, float), 0, atol=1e-9)  # the line <u, x> = 0
    with pytest.raises(ValueError, match="at most"):
        draw_separators(ax, X, y, {str(i): [1, i] for i in range(9)})


def test_draw_bound_sweep():
    fig, ax = S.subplots(style="lecture")
    draw_bound_sweep(ax, [4, 10, 100], {"cyclic": [1, 2, 5], "adversary": [2, 4, 9]}, style="lecture")
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    diag = ax.lines[0]
    np.testing.assert_allclose(diag.get_xdata(), diag.get_ydata())
    np.testing.assert_allclose(ax.lines[2].get_ydata(), [2, 4, 9])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mistakes = (R/γ)²", "cyclic", "adversary"]
    assert ax.title.get_fontsize() == S.LECTURE.title_size


def test_separators_and_sweep_use_no_class_colour_and_3_to_1():
    """A line or marker that tells runs apart has 3:1 on white (WCAG 1.4.11) and no class colour: the
    vermillion and blue mean y = +1 and y = -1, and Okabe-Ito's orange reads as the vermillion."""
    from matplotlib.colors import to_hex

    taken = {to_hex(c) for c in (S.POS_COLOR, S.NEG_COLOR, S.OKABE_ITO["orange"])}
    for colour, _dash in SEPARATOR_STYLES:
        assert contrast(colour) >= 3.0 and to_hex(colour) not in taken
    X, y = small_2d()
    fig, ax = S.subplots()
    draw_separators(ax, X, y, {f"line {j}": [1, j] for j in range(len(SEPARATOR_STYLES))})
    drawn = [ln for ln in ax.lines if ln.get_label().startswith("line ")]
    assert len(drawn) == len(SEPARATOR_STYLES)
    assert all(contrast(ln.get_color()) >= 3.0 and to_hex(ln.get_color()) not in taken for ln in drawn)
    fig, ax = S.subplots()
    draw_bound_sweep(ax, [4, 10, 100], {"a": [1, 2, 5], "b": [2, 4, 9], "c": [3, 3, 3]})
    for ln in ax.lines[1:]:
        assert contrast(ln.get_markerfacecolor()) >= 3.0 and to_hex(ln.get_markerfacecolor()) not in taken


def test_lecture_player_has_one_legend_under_the_picture(case):
    """In the lecture preset the data panel's and the claims panel's entries are one legend under the picture
    (not two bands, nor a legend wider than its panel), whatever the run."""
    run, X, y, u = case
    with S.context("lecture"):
        p = Drawn(run, X, y, panels=[ClaimsPanel(u)])
    fig = p.figure
    assert all(ax.get_legend() is None for ax in fig.axes) and len(fig.legends) == 1
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[0] == "y = +1" and "$\\langle u, w_t\\rangle$" in labels
    assert fig.legends[0].get_window_extent(fig.canvas.get_renderer()).width <= fig.bbox.width
    other = fit_perceptron(X, y, fit_bias=False, eta=0.5, order="random", rng=1)
    with S.context("lecture"):
        p = Drawn(other, X, y, panels=[ClaimsPanel(u)])
    p.seek(p.K)
    fig = p.figure
    assert all(ax.get_legend() is None for ax in fig.axes) and len(fig.legends) == 1
    assert [t.get_text() for t in fig.legends[0].get_texts()] == labels
