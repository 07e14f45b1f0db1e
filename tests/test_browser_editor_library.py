"""The library's run sent lean (`library_run.library_trait`) and drawn by the browser, in Python and in Chromium.

After an edit, an editor whose words and panels all have a browser port sends the library's run alone (states,
updates, settings, the summary's numbers); the browser words it and computes its panels (``front/runspec.js``
`libraryRunSpec`). For random edits of each kind of editor (lesson 00's plain one, separable and not with cycles;
04's claims; 05's lifted points; 06's answers), the page draws the lean trait and the full one (`run_trait`, every
word and panel computed in Python) at several steps: the same markup (the SVG of every panel and the readout) and
the same picture's name.
"""

from __future__ import annotations

import json
import re
import zlib

import numpy as np
import pytest
from ipywidgets.widgets.widget import _remove_buffers

from perceptron_lib.core import kernels
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player import LiftedPanel
from perceptron_lib.player.browser_editor import BrowserEditor
from perceptron_lib.player.library_run import ARRAYS, FORM, packed, unpacked
from perceptron_lib.player.panels.averaged import AnswersFit, AnswersPanel
from perceptron_lib.player.panels.claims import ClaimsPanel
from tests.test_browser_editor_claims import page  # noqa: F401 (a fixture, used by name)
from tests.test_browser_editor_front import wire


def _points(rng, n, *, kind):
    """n points on a 1/16 grid: separable by a line ("line"), labelled at random ("noise"), or a ring ("ring"); or
    at most 25 whole points labelled at random ("whole": the runs come back to a state, a cycle)."""
    X = np.round(rng.uniform(-2, 2, (n, 2)) * 16) / 16
    if kind == "whole":
        X = np.array([(a, b) for a in range(-2, 3) for b in range(-2, 3)], dtype=float)
        X = X[rng.choice(25, size=min(n, 25), replace=False)]
    if kind == "line":
        w, b = rng.normal(size=2), rng.normal(scale=0.3)
        y = np.where(X @ w + b > 0, 1.0, -1.0)
    elif kind == "ring":
        y = np.where(np.sum(X**2, axis=1) < 1.5, 1.0, -1.0)
    else:
        y = rng.choice([-1.0, 1.0], n)
    y[:2] = [1.0, -1.0]  # both classes
    return X, y


def _plain(X, y):
    return BrowserEditor(fit_perceptron(X, y), X, y, max_epochs=30)


def _claims(X, y):
    return BrowserEditor(fit_perceptron(X, y, fit_bias=False), X, y, panels=[ClaimsPanel()], max_epochs=30)


def _lifted(X, y):
    return BrowserEditor(fit_perceptron(kernels.lift(X), y), X, y, lift=kernels.lift, panels=[LiftedPanel()],
                         separator="plane of the lift", max_epochs=20)


def _answers(X, y):
    fit = AnswersFit(epochs=3)
    return BrowserEditor(fit(X, y), X, y, fit=fit, panels=[AnswersPanel(fit)], readout=fit.readout)


#: (name, editor, kind of points after the edit, how many edits)
CASES = [("00 separable", _plain, "line", 4), ("00 not separable (cycles)", _plain, "whole", 4),
         ("04 claims", _claims, "line", 3), ("05 lifted", _lifted, "ring", 2),
         ("05 lifted, noise", _lifted, "noise", 2), ("06 answers", _answers, "noise", 3)]

#: The editor drawn at step k: the player's markup (every panel's SVG, the readout) and the picture's name.
JS_DRAWN = """(k) => { const p = window.editor.player(); p.go(k);
  const slot = document.querySelector('#widget .pe-player');
  return JSON.stringify({k: p.shown(), html: slot.innerHTML, run: document.querySelector('#widget > *').dataset.run,
    label: p.picture.getAttribute('aria-label'),
    readout: [...slot.querySelectorAll('.pp-readout p')].map((e) => e.textContent)}); }"""


#: The ids a panel numbers afresh for each spec (a chart's clip path, the overlay's, the lifted view's help): named
#: alike to compare the markup.
FRESH_ID = re.compile(r"(pp-clip|pp-overlay-clip|pl-help)-[0-9a-z]+")


def _drawn(page, trait, ks):  # noqa: F811 (page: the fixture)
    page.evaluate("(r) => window.model.fromPython('run', r)", trait)
    out = [json.loads(page.evaluate(JS_DRAWN, k)) for k in ks]
    return [{**d, "html": FRESH_ID.sub(r"\1-ID", d["html"])} for d in out]


# ---------------------------------------------------------------------------------------------- Python only
def test_a_refit_sends_the_librarys_run_without_its_words():
    X = np.array([[0, 1], [1, 0], [-1, -1], [2, 2], [0.5, 0.5]])
    y = np.array([1.0, 1.0, -1.0, -1.0, 1.0])  # no line separates them: the run cycles
    editor = _plain(X[:4], y[:4])
    first = editor.run  # lean from the start: the page, the site and the decks word and draw it
    assert first["form"] == FORM and "lines" not in first and first["K"] == len(editor.library_run.history) - 1
    assert [editor.lines(k) for k in range(first["K"] + 1)] == editor.full_run()["lines"]
    editor.points = [X.tolist(), y.astype(int).tolist()]
    lean, full = editor.run, editor.full_run()
    assert lean["form"] == FORM and "lines" not in lean and "panels" not in lean and "alt" not in lean
    assert lean["mistakes"] == editor.library_run.mistakes  # a count, not the crosses of every step
    run = editor.library_run
    np.testing.assert_array_equal(unpacked(lean)["w"], run.history.w)
    assert unpacked(lean)["i"].tolist() == run.history.i.tolist() and lean["K"] == full["K"] == len(run.history) - 1
    assert lean["cycle"] == {"start": run.cycle.start, "length": run.cycle.length,
                             "mistakesPerCycle": run.cycle.mistakes_per_cycle}
    assert lean["summary"]["separable"] is False and lean["summary"]["gamma"] is None  # NaN goes as null
    assert [editor.lines(k) for k in range(lean["K"] + 1)] == full["lines"]
    assert editor.alt == full["alt"][min(editor.k, full["K"])]
    state, _, buffers = _remove_buffers(lean)
    assert len(json.dumps(state)) + sum(b.nbytes for b in buffers) < len(json.dumps(full)) / 4


def _sent(editor):
    """What ipywidgets sends of the editor's `run`: its JSON part, and {path: bytes} of its binary buffers."""
    state, paths, buffers = _remove_buffers(editor.get_state(["run"]))
    return state["run"], {tuple(p[1:]): bytes(b) for p, b in zip(paths, buffers, strict=True)}


def test_the_lean_traits_numbers_go_as_binary_buffers_of_the_librarys_bits():
    rng = np.random.default_rng(11)
    for make, kind in ((_plain, "whole"), (_lifted, "noise"), (_answers, "noise")):
        X, y = _points(rng, 14, kind=kind)
        editor = make(X, y)
        for _ in range(3):
            Xe, ye = _points(rng, int(rng.integers(3, 30)), kind=kind)
            editor.points = [Xe.tolist(), ye.astype(int).tolist()]
            text, buffers = _sent(editor)
            run, Xf = editor.library_run, np.asarray(editor._data[0])
            keys = [(key, "data") for key in ARRAYS] + ([("averaged", "t", "data")] if text["averaged"] else [])
            assert sorted(buffers) == sorted(keys), "every array of the run goes as a buffer, nothing else"
            assert all(text[k].keys() == {"shape", "dtype"} for k in ARRAYS)  # no number of these as text
            want = {"X": Xf, "y": np.where(ye > 0, 1.0, -1.0), **{k: getattr(run.history, k) for k in ARRAYS
                                                                    if k not in ("X", "y")}}
            for key, dtype in ARRAYS.items():  # the same bits, little-endian, in the shape the trait says
                assert text[key]["dtype"] == dtype and text[key]["shape"] == list(np.shape(want[key])), key
                assert buffers[(key, "data")] == np.asarray(want[key], dtype=dtype).tobytes(), key
                got = unpacked(editor.run)[key]
                assert got.dtype == np.dtype(dtype) and np.array_equal(got, want[key]), key
            if text["averaged"]:
                t = np.asarray(editor._fit.answers(run)[0].t)
                assert buffers[("averaged", "t", "data")] == t.astype("<i4").tobytes()
            assert unpacked(editor.run)["K"] == len(run.history) - 1


def test_packed_says_what_it_cannot_pack():
    with pytest.raises(ValueError, match="dtype must be one of"):
        packed([1.0], "<f4")
    with pytest.raises(ValueError, match="fit in 32 bits"):
        packed([2**40], "<i4")
    assert unpacked({"w": [[1.0, 2.0]], "K": 0}) == {"w": [[1.0, 2.0]], "K": 0}  # a full trait as it is


def test_a_panel_or_readout_with_no_browser_port_keeps_the_full_trait():
    rng = np.random.default_rng(2)
    X, y = _points(rng, 12, kind="line")
    editor = BrowserEditor(fit_perceptron(X, y), X, y, readout=lambda run, X, y, k: [f"step {k}"])
    assert "form" not in editor.run and editor.run["lines"][0][0] == "step 0"  # the first trait too
    editor.points = [X[:8].tolist(), y[:8].astype(int).tolist()]
    assert "form" not in editor.run and editor.run["lines"][0][0] == "step 0"


# ---------------------------------------------------------------------------------------------- in Chromium
@pytest.mark.browser
@pytest.mark.parametrize("name, make, kind, edits", CASES, ids=[c[0] for c in CASES])
def test_the_lean_trait_draws_what_the_full_trait_draws(page, name, make, kind, edits):  # noqa: F811
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    X, y = _points(rng, 12, kind=kind)
    editor = make(X, y)
    state = editor.get_state()
    page.evaluate("(s) => window.mount(s)", wire({key: state[key] for key in
                                                  ("run", "points", "lesson", "settings", "options", "k",
                                                   "interval_ms")}))
    cycles = 0
    for _ in range(edits):
        n = int(rng.integers(3, 40))
        Xe, ye = _points(rng, n, kind=kind)
        page.evaluate("(p) => window.model.fromPython('points', p)", [Xe.tolist(), ye.astype(int).tolist()])
        editor.points = [Xe.tolist(), ye.astype(int).tolist()]  # the kernel's side: the library's run, lean
        lean, full = wire(editor.run), json.loads(json.dumps(editor.full_run()))
        assert lean["form"] == FORM and "form" not in full
        K, cycles = lean["K"], cycles + (lean["cycle"] is not None)
        ks = sorted({0, 1 % (K + 1), K // 2, K})
        got, want = _drawn(page, lean, ks), _drawn(page, full, ks)
        for g, w in zip(got, want, strict=True):
            assert g["run"] == w["run"] == "library"
            assert g["readout"] == w["readout"], f"{name}, step {w['k']} of {K}"
            assert g["label"] == w["label"], f"{name}, step {w['k']} of {K}"
            assert g["html"] == w["html"], f"{name}, step {w['k']} of {K}: the markup differs"
    assert cycles or "cycles" not in name, "no run of these edits cycled: the case tests no cycle"


@pytest.mark.browser
def test_the_page_reads_the_buffers_to_the_bit(page):  # noqa: F811
    rng = np.random.default_rng(5)
    X, y = _points(rng, 40, kind="noise")
    editor = _plain(X, y)
    run = editor.library_run
    got = page.evaluate("(t) => { const n = front.libraryNumbers(fromWire(t)); return {X: n.X, y: n.y, w: n.w, b: n.b, "
                        "i: n.i, epoch: n.epoch, mb: n.margin_before, ma: n.margin_after, K: n.K}; }", wire(editor.run))
    assert got["K"] == len(run.history) - 1 and got["X"] == X.tolist() and got["y"] == y.tolist()
    odd = [-0.0, 5e-324, 1.7976931348623157e308, float("inf"), float("-inf"), float("nan"), 0.1 + 0.2]
    back = page.evaluate("(p) => front.unpack(fromWire(p))", wire(packed(odd)))
    assert np.array_equal(back, odd, equal_nan=True) and np.signbit(back[0]) and not np.signbit(back[1])
    assert page.evaluate("(p) => front.unpack(fromWire(p))", wire(packed([[3, -2**31], [0, 2**31 - 1]], "<i4"))) == \
        [[3, -2**31], [0, 2**31 - 1]]
    assert got["w"] == run.history.w.tolist() and got["b"] == run.history.b.tolist()  # floats: equal, not close
    assert got["i"] == run.history.i.tolist() and got["epoch"] == run.history.epoch.tolist()
    assert got["mb"] == run.history.margin_before.tolist() and got["ma"] == run.history.margin_after.tolist()
    bad = wire(editor.run)
    bad["w"]["shape"] = [len(run.history) + 1, 2]
    with pytest.raises(Exception, match="the run's w is not a packed array of its shape"):
        page.evaluate("(t) => front.libraryNumbers(fromWire(t))", bad)


#: The library's run `r` sent to the page: how many changes it made to the player's markup, and whose run it shows.
JS_SENT = """(r) => { const slot = document.querySelector('#widget .pe-player'); let changes = 0;
  const watch = new MutationObserver((l) => { changes += l.length; });
  watch.observe(slot, {subtree: true, childList: true, attributes: true, characterData: true});
  window.model.fromPython('run', r); changes += watch.takeRecords().length; watch.disconnect();
  return {changes, run: document.querySelector('#widget > *').dataset.run, form: window.editor.spec().form}; }"""


@pytest.mark.browser
@pytest.mark.parametrize("make", [_plain, _lifted, _answers], ids=["00", "05 lifted", "06 answers"])
def test_the_librarys_run_equal_to_the_pages_is_not_drawn_again(page, make):  # noqa: F811
    """After an edit the page draws its own run; the library's, the same number for number (its margins and
    summary the same as written), is on show without a second drawing; one that differs is drawn."""
    rng = np.random.default_rng(8)
    X, y = _points(rng, 14, kind="ring")
    editor = make(X, y)
    state = editor.get_state()
    page.evaluate("(s) => window.mount(s)", wire({key: state[key] for key in
                                                  ("run", "points", "lesson", "settings", "options", "k",
                                                   "interval_ms")}))
    Xe, ye = _points(rng, 20, kind="ring")
    page.evaluate("(p) => window.model.fromPython('points', p)", [Xe.tolist(), ye.astype(int).tolist()])
    editor.points = [Xe.tolist(), ye.astype(int).tolist()]
    before = _drawn(page, json.loads(json.dumps(editor.full_run())), [editor.run["K"]])  # drawn whole, then ...
    page.evaluate("(p) => window.model.fromPython('points', p)", [Xe[:-1].tolist(), ye[:-1].astype(int).tolist()])
    page.evaluate("(p) => window.model.fromPython('points', p)", [Xe.tolist(), ye.astype(int).tolist()])
    assert json.loads(page.evaluate(JS_DRAWN, editor.run["K"]))["run"] == "browser"  # ... the page's own again
    got = page.evaluate(JS_SENT, wire(editor.run))
    assert got == {"changes": 0, "run": "library", "form": "library"}, "the same run was drawn again"
    shown = json.loads(page.evaluate(JS_DRAWN, editor.run["K"]))
    assert [{**shown, "html": FRESH_ID.sub(r"\1-ID", shown["html"])}] == before  # it reads as the library's
    # a library's run that differs from the page's (its last state moved) is drawn, with the library's numbers
    page.evaluate("(p) => window.model.fromPython('points', p)", [Xe[:-1].tolist(), ye[:-1].astype(int).tolist()])
    page.evaluate("(p) => window.model.fromPython('points', p)", [Xe.tolist(), ye.astype(int).tolist()])
    other = unpacked(editor.run)
    w = np.array(other["w"])
    w[-1, 0] += 2.0**-20
    moved = {**editor.run, "w": packed(w)}
    got = page.evaluate(JS_SENT, wire(moved))
    assert got["changes"] > 0 and got["run"] == "library"
    assert page.evaluate("() => window.editor.spec().w.at(-1)[0]") == w[-1, 0]

