"""A still's alt text says what every panel of the picture shows, in the words the browser names each panel with.

A browser widget's saved output keeps a still PNG (`recording.scene_still`) for GitHub, nbviewer and pages read
with scripts off. Its alt text is the data panel's sentence, then, for each other panel of the still, the accessible
name the browser gives that panel (`recording.panel_words`, a port of the ``aria-label`` of ``front/curves.js``,
``front/contour.js`` and ``front/lifted.js``). Here: the port equals the browser's label in Chromium at every step,
for every kind of panel; the still's alt says each panel of the picture (both presets: the lecture still shows
two panels); a player with no other panel keeps its sentence alone.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_browser_panels_front import CASES as PANEL_CASES
from test_browser_panels_front import go, mount
from test_browser_player_front import front_page

from perceptron_lib import fit_perceptron
from perceptron_lib.core import loss_surfaces
from perceptron_lib.draw import style as _style
from perceptron_lib.player.browser import BrowserPlayer
from perceptron_lib.player.browser_switch import BrowserSwitch
from perceptron_lib.player.panels.curves import LiftedPanel, LossPanel
from perceptron_lib.player.panels.loss_slice import ContourPathPanel
from perceptron_lib.player.readout import alt_text
from perceptron_lib.player.recording import panel_words, still_alt
from perceptron_lib.player.render import panels_at_once
from tests.test_lifted_front import RUNS as LIFTED_RUNS

X8 = np.array([[-3.0, 1.0], [-1.0, -2.0], [-3.0, 3.0], [1.0, -3.0], [1.0, 3.0], [-3.0, -3.0], [-1.0, 2.0],
               [-1.0, 3.0]])
Y8 = np.array([-1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0])


def _players():
    """(run, X, y, panels, style) of every kind of panel: charts, a loss map, a lifted view, overlays."""
    run8 = fit_perceptron(X8, Y8)
    L = loss_surfaces.loss_along_run(run8, X8, Y8)
    out = {name: (run, X, y, panels, kw.get("style")) for name, (run, X, y, panels, kw) in PANEL_CASES.items()}
    out["loss map and loss"] = (run8, X8, Y8, [ContourPathPanel(), LossPanel(L, "perceptron loss L")], None)
    out["loss map, lecture"] = (run8, X8, Y8, [ContourPathPanel(), LossPanel(L, "perceptron loss L")], "lecture")
    for name in ("05 rings", "five points"):
        run, Z, y, preset = LIFTED_RUNS[name]
        out[f"lifted, {name}"] = (run, Z, y, [LiftedPanel()], preset)
    return out


PLAYERS = _players()

JS_LABELS = """() => [...document.querySelectorAll('#widget svg.pp-chart, #widget .pl-picture')].map((e) =>
  [e.matches('.pl-picture') ? 'lifted' : e.matches('.pp-contour') ? 'contour' : e.getAttribute('class'),
   e.getAttribute('aria-label')])"""


@pytest.fixture(scope="module")
def page(chromium):
    yield from front_page(chromium)


def _element_key(spec) -> str:
    return spec["kind"] if spec["kind"] in ("lifted", "contour") else f"pp-chart pp-chart-{spec['kind']}"


@pytest.mark.browser
@pytest.mark.parametrize("name", list(PLAYERS))
def test_panel_words_are_the_browsers_names_of_the_panels(page, name):
    run, X, y, panels, style = PLAYERS[name]
    trait = mount(page, BrowserPlayer(run, X, y, panels=panels, style=style))
    specs = [s for s in trait["panels"] if s.get("shape") != "overlay"]
    K = trait["K"]
    for k in sorted({0, 1, K // 2, K}):
        go(page, k)
        labels = page.evaluate(JS_LABELS)
        by_kind = {}
        for key, label in labels:
            by_kind.setdefault(key, []).append(label)
        for spec in specs:
            assert by_kind[_element_key(spec)].pop(0) == panel_words(spec, k), (name, k)
        assert not any(by_kind.values()), (name, k, by_kind)  # every labelled panel was one of the specs


@pytest.mark.parametrize("name", list(PLAYERS))
def test_a_stills_alt_says_each_panel_it_shows(name):
    run, X, y, panels, style = PLAYERS[name]
    s = _style.get(style)
    K = len(run.history) - 1
    player = BrowserPlayer(run, X, y, panels=panels, style=style, k=min(2, K))
    alt = player.snapshot()[3]
    k = player.k
    shown = panels[: panels_at_once(s) - 1]  # the still: the data panel and as many others as the preset fits
    words = [panel_words(p.front(run, X, y, style=s), k) for p in shown]
    assert alt == still_alt(alt_text(run, X, y, k), words)
    assert alt.startswith(player.alt)  # the data panel's sentence, the browser's picture's name, comes first
    for p, w in zip(shown, words, strict=True):
        spec = p.front(run, X, y, style=s)
        assert (spec["alt"][k] if spec["kind"] == "lifted" else spec["name"]) in w and w in alt


def test_the_still_alt_of_a_switch_and_of_a_lone_data_panel():
    run8 = fit_perceptron(X8, Y8)
    L = loss_surfaces.loss_along_run(run8, X8, Y8)
    switch = BrowserSwitch({"a": run8, "b": fit_perceptron(X8, Y8, eta=0.5)}, X8, Y8,
                           panels=[ContourPathPanel(), LossPanel(L, "perceptron loss L")])
    alt = switch.snapshot()[3]
    assert alt.startswith(switch.alt + " Beside it: the perceptron loss over (w₁, w₂): ")
    assert "Then: perceptron loss L along the run: perceptron loss L." in alt
    lone = BrowserPlayer(run8, X8, Y8, k=1)
    assert lone.snapshot()[3] == lone.alt == alt_text(run8, X8, Y8, 1)


def test_still_alt_joins_sentences():
    assert still_alt("The data.", []) == "The data."
    assert still_alt("The data.", ["a chart: t = 1", "a map."]) == "The data. Beside it: a chart: t = 1. Then: a map."
