"""`ContourPathPanel.front` (kind "contour") against the kernel panel's own drawing.

The kernel panel is drawn with matplotlib and moved to each step k; its artists are the reference: the filled
bands (their paths and colours) and the contour lines of every layer (one per b the run takes), the hatched
zero-loss set, the kink lines, the path, the star and the title at k, and the colour bar's ticks and name. The
spec must hold the same numbers, to its rounding (1/1,000 of the view).
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from perceptron_lib import fit_perceptron
from perceptron_lib.core import data
from perceptron_lib.draw import style as S
from perceptron_lib.player.browser import BrowserPlayer
from perceptron_lib.player.panel_specs import FrontPanel
from perceptron_lib.player.panels.loss_slice import ContourPathPanel

X8 = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
y8 = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)


def _cases():
    Xo, yo = data.separable(14, margin=0.1, bias=True, seed=2)
    return {
        "lesson 01": (fit_perceptron(X8, y8), X8, y8, {}),
        "offset run, fixed b": (fit_perceptron(Xo, yo), Xo, yo, {"b": 0.5}),
        "no offset": (fit_perceptron(Xo, yo, fit_bias=False), Xo, yo, {}),
        "0-1 loss": (fit_perceptron(X8, y8), X8, y8, {"loss": "zero_one"}),
    }


CASES = _cases()


def _drawn(panel, run, X, y, preset):
    s = S.get(preset)
    with S.context(s):
        ax = Figure(figsize=s.panel_size).add_subplot()
        panel.draw(ax, run, X, y)
    return ax


def _same_paths(rings, paths, tol):
    """The spec's rings equal the artist's paths' vertices (split at their moves), to `tol`."""
    got = [np.asarray(r, float) for r in rings]
    want = [v for p in paths for v in _split(p)]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and np.abs(g - w).max() <= tol


def _split(path):
    codes = path.codes if path.codes is not None else np.r_[1, np.full(len(path.vertices) - 1, 2)]
    starts = np.flatnonzero(codes == 1)
    return np.split(np.asarray(path.vertices, float), starts[1:])


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
@pytest.mark.parametrize("name", list(CASES))
def test_spec_holds_the_kernel_panels_contours_path_and_titles(name, preset):
    run, X, y, kw = CASES[name]
    panel = ContourPathPanel(**kw)
    assert isinstance(panel, FrontPanel)
    spec = panel.front(run, X, y, style=S.get(preset))
    json.dumps(spec)  # JSON-able
    kernel = ContourPathPanel(**kw)
    ax = _drawn(kernel, run, X, y, preset)
    sl = kernel.slice
    K = len(run.history) - 1
    assert spec["K"] == K and len(spec["titles"]) == len(spec["layer_of"]) == len(spec["W"]) == K + 1
    assert spec["xlim"] == pytest.approx(list(ax.get_xlim())) and spec["ylim"] == pytest.approx(list(ax.get_ylim()))
    tol = 10 ** -np.ceil(-np.log10((spec["xlim"][1] - spec["xlim"][0]) / 1_000)) / 2 + 1e-12
    for k in range(K + 1):
        kernel.update(k)
        assert spec["titles"][k] == ax.get_title(), k
        assert np.abs(np.asarray(spec["W"][: k + 1]) - sl.path.get_xydata()).max() <= tol
        assert np.asarray(spec["W"][k]) == pytest.approx(sl.point.get_xydata()[0], abs=tol)
        layer = spec["layers"][spec["layer_of"][k]]
        assert layer["b"] == sl.b
        sets = sl._layer(sl.b)["sets"]
        filled, lines = sets[0], sets[1]
        colours = [to_hex(c) for c in filled.get_facecolor()]
        drawn_bands = [(c, p) for c, p in zip(colours, filled.get_paths(), strict=True) if len(p.vertices)]
        assert [b["color"] for b in layer["bands"]] == [c for c, _ in drawn_bands]
        for band, (_, p) in zip(layer["bands"], drawn_bands, strict=True):
            _same_paths(band["rings"], [p], tol)
        _same_paths(layer["lines"], [p for p in lines.get_paths() if len(p.vertices)], tol)
        if len(sets) > 2:
            _same_paths(layer["zero"], [p for p in sets[2].get_paths() if len(p.vertices)], tol)
        else:
            assert layer["zero"] == []
        segs = sl.kink_segments()
        assert [m["i"] for m in layer["kinks"]] == list(segs)
        for m in layer["kinks"]:
            assert np.abs(np.asarray(m["seg"]) - segs[m["i"]]).max() <= tol
            # the label on its kink line, inside the view
            (p, q), at = np.asarray(m["seg"]), np.asarray(m["at"])
            cross = (q - p)[0] * (at - p)[1] - (q - p)[1] * (at - p)[0]
            assert abs(cross) / np.hypot(*(q - p)) <= 2 * tol
            assert spec["xlim"][0] < at[0] < spec["xlim"][1] and spec["ylim"][0] < at[1] < spec["ylim"][1]
    bar = sl.colorbar
    assert spec["colorbar"]["label"] == bar.ax.get_ylabel()
    assert spec["colorbar"]["labels"] == [t.get_text() for t in bar.ax.get_yticklabels()]
    assert spec["colorbar"]["colors"] == [to_hex(c) for c in sl._layer(sl.b)["sets"][0].get_facecolor()]
    assert spec["colorbar"]["extend"] == (kw.get("loss", "perceptron") != "zero_one")


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_the_note_says_the_numbers_are_example_indices_in_the_still_and_the_spec_alike(preset):
    """The numbers on the map are example indices i (the readout's "i = 3"), not steps k: a note under the axes
    says so, the same lines in the kernel's still as in the browser's spec; none without kink lines."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Annotation

    from perceptron_lib.player.panels.loss_slice import KINK_NOTE

    run = fit_perceptron(X8, y8)
    for kinks in (True, False):
        spec = ContourPathPanel(kinks=kinks).front(run, X8, y8, style=S.get(preset))
        ax = _drawn(ContourPathPanel(kinks=kinks), run, X8, y8, preset)
        notes = [t.get_text() for t in ax.texts if isinstance(t, Annotation)]
        assert spec["note"] == (list(KINK_NOTE) if kinks else [])
        assert notes == (["\n".join(spec["note"])] if kinks else [])
    words = " ".join(KINK_NOTE).replace("\u00a0", " ")
    assert "example i" in words and "⟨w, xᵢ⟩ + b = 0" in words  # lesson 01's kink line
    ax = _drawn(ContourPathPanel(), run, X8, y8, preset)
    r = FigureCanvasAgg(ax.figure).get_renderer()
    ax.figure.draw(r)
    note = next(t for t in ax.texts if isinstance(t, Annotation)).get_window_extent(r)
    label = ax.xaxis.label.get_window_extent(r)
    assert note.y1 <= label.y0 and note.x0 < label.x1 and label.x0 < note.x1  # under the axis name w₁


@pytest.mark.parametrize("preset, least", [("notebook", 2.0), ("lecture", 1.1)])
def test_the_labels_keep_clear_of_the_runs_states_in_the_browser_and_the_still(preset, least):
    """No kink label sits on a state w_k of the run (a dot of the path, or its star): lesson 01's run and lesson 02's
    three methods on their shared map, every layer; `least` in label radii (a label's centre came 0.27 radii from
    w = 0, where every kink line meets at b = 0). The kernel's still keeps its labels clear the same way."""
    from perceptron_lib import fit_batch, fit_minibatch

    st = S.get(preset)
    methods = [fit_batch(X8, y8, eta=1.0, reduction="mean"), fit_perceptron(X8, y8),
               fit_minibatch(X8, y8, batch_size=2, eta=1.0, rng=0)]
    shared = ContourPathPanel().shared(methods)
    for panel, run in [(ContourPathPanel(), methods[1])] + [(shared, r) for r in methods]:
        spec = panel.front(run, X8, y8, style=st)
        W = np.asarray(spec["W"])
        radius = 0.9 * st.legend_size * 0.85 * 4 / 3 / spec["size_px"] * (spec["xlim"][1] - spec["xlim"][0])
        for layer in spec["layers"]:
            for m in layer["kinks"]:
                gap = np.min(np.hypot(*(W - np.asarray(m["at"])).T)) / radius
                assert gap >= least, f"label {m['i']} at b = {layer['b']}: {gap:.2f} label radii from a state"
        kernel = copy.copy(panel)
        ax = _drawn(kernel, run, X8, y8, preset)
        texts = kernel.slice._layer(kernel.slice.b)["texts"]
        scale = np.array([np.ptp(ax.get_xlim()), np.ptp(ax.get_ylim())])
        for t in texts:  # the still's own clearance (`LossSlice._label_radius`), as a share of the view
            gap = np.min(np.hypot(*((W - np.asarray(t.get_position())) / scale).T))
            assert gap >= kernel.slice._label_radius() * 0.999, f"still: label {t.get_text()} on a state"


def test_lesson_01_player_takes_the_panel_and_stays_small():
    from perceptron_lib.core import loss_surfaces
    from perceptron_lib.player.panels.curves import LossPanel

    run = fit_perceptron(X8, y8)
    L = loss_surfaces.loss_along_run(run, X8, y8)
    player = BrowserPlayer(run, X8, y8, panels=[ContourPathPanel(), LossPanel(L, "perceptron loss L")])
    spec = player.run["panels"][0]
    assert spec["kind"] == "contour" and spec["layer_of"] == [sorted({0.0, -1.0}).index(b) for b in run.history.b]
    assert len(json.dumps(player.run)) < 150_000  # two layers of contours: the run trait's size


def test_a_run_without_two_features_is_refused():
    Xo, yo = data.separable(10, margin=0.1, seed=1)
    X3 = np.column_stack([Xo, Xo[:, :1]])
    run = fit_perceptron(X3, yo)
    with pytest.raises(ValueError, match="2 features"):
        ContourPathPanel().front(run, X3, yo, style=S.get("notebook"))


def test_shared_gives_runs_compared_one_box_that_holds_every_path_and_leaves_the_panel_as_it_was():
    """`ContourPathPanel.shared`: lesson 02's three methods on one map (a `BrowserSwitch` keeps its axes), each
    path and the origin inside the box, the box of the longest path alone; the panel given keeps its own box."""
    from perceptron_lib import fit_batch, fit_minibatch

    runs = [fit_batch(X8, y8, eta=1.0, reduction="mean"), fit_perceptron(X8, y8),
            fit_minibatch(X8, y8, batch_size=2, eta=1.0, rng=0)]
    panel = ContourPathPanel()
    shared = panel.shared(runs)
    specs = [shared.front(r, X8, y8, style=S.get("notebook")) for r in runs]
    assert all(s["xlim"] == specs[0]["xlim"] and s["ylim"] == specs[0]["ylim"] for s in specs)
    (x0, x1), (y0, y1) = specs[0]["xlim"], specs[0]["ylim"]
    for r in runs:
        W = np.asarray(r.history.w, float)
        assert (x0 < min(W[:, 0].min(), 0) and max(W[:, 0].max(), 0) < x1
                and y0 < min(W[:, 1].min(), 0) and max(W[:, 1].max(), 0) < y1)
    own = [panel.front(r, X8, y8, style=S.get("notebook")) for r in runs]
    assert panel.center is None and panel.span is None, "the panel given is left as it was"
    assert own[0]["xlim"] != own[1]["xlim"] and own[1]["xlim"] == specs[0]["xlim"], "the online path is the widest"
