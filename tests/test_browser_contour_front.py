"""Lesson 01's contour map in the browser (panel kind "contour", ``front/contour.js``), in Chromium.

The player's front end is loaded as in ``test_browser_player_front.py`` (a blank page, no network, a stand-in for
anywidget's model filled from a real widget's state). At every step k the drawn SVG is read back and checked
against `ContourPathPanel.front`'s numbers through the plot's map from (w1, w2) to pixels: the bands and contour
lines of b_k's layer (the only one shown), the kink lines, the path's vertices w_0..w_k, the star at w_k, the
title, the note on the numbers (example indices) and the picture's name; then frame k is the same markup after
0 -> k, K -> k and a jump; and the panel draws the kernel's colours.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_browser_panels_front import mount
from test_browser_player_front import front_page, same_whatever_the_path

from perceptron_lib import fit_perceptron
from perceptron_lib.core import loss_surfaces
from perceptron_lib.player.browser import BrowserPlayer
from perceptron_lib.player.panels.curves import LossPanel
from perceptron_lib.player.panels.loss_slice import ContourPathPanel

PX = 0.02  # the markup writes coordinates to 0.01 px
X8 = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
y8 = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)

READ = """() => {
  const svg = document.querySelector('#widget svg.pp-contour');
  const clip = svg.querySelector('clipPath rect');
  const shown = [...svg.querySelectorAll('g.pc-layer')].filter((g) => g.getAttribute('display') !== 'none');
  const labels = [...svg.querySelectorAll('g.pc-labels')].filter((g) => g.getAttribute('display') !== 'none');
  const layer = shown[0];
  return {
    layers: shown.map((g) => Number(g.getAttribute('data-b'))),
    labelGroups: labels.length,
    size: [Number(clip.getAttribute('width')), Number(clip.getAttribute('height'))],
    bands: [...layer.querySelectorAll('path.pc-band')].map((p) => [p.getAttribute('fill'), p.getAttribute('d')]),
    lines: layer.querySelector('path.pc-lines')?.getAttribute('d') ?? '',
    zero: layer.querySelector('path.pc-zero')?.getAttribute('d') ?? '',
    kinks: [...layer.querySelectorAll('path.pc-kink')].map((p) => [Number(p.getAttribute('data-i')),
      p.getAttribute('d')]),
    labels: [...labels[0].querySelectorAll('g.pc-kink-label')].map((g) => [g.querySelector('text').textContent,
      Number(g.querySelector('circle').getAttribute('cx')), Number(g.querySelector('circle').getAttribute('cy'))]),
    path: svg.querySelector('path.pc-path-line').getAttribute('d'),
    vertices: [...svg.querySelectorAll('circle.pc-vertex')].map((c) => [Number(c.getAttribute('cx')),
      Number(c.getAttribute('cy'))]),
    star: svg.querySelector('path.pc-point').getAttribute('d'),
    title: svg.querySelector('.pp-chart-title').textContent,
    ticks: [...svg.querySelectorAll('.pc-tick')].map((t) => t.textContent),
    barLabel: svg.querySelector('.pc-bar-label').textContent,
    barColors: [...svg.querySelectorAll('.pc-colorbar rect.pc-bar-band')].map((r) => r.getAttribute('fill')),
    note: [...svg.querySelectorAll('.pc-note tspan')].map((t) => t.textContent),
    label: svg.getAttribute('aria-label'),
  };
}"""


def _cases():
    run = fit_perceptron(X8, y8)
    L = loss_surfaces.loss_along_run(run, X8, y8)
    return {
        "lesson 01": (run, {}, [ContourPathPanel(), LossPanel(L, "perceptron loss L")]),
        "lesson 01, lecture": (run, {"style": "lecture"}, [ContourPathPanel(), LossPanel(L, "perceptron loss L")]),
        "0-1 loss, fixed b": (run, {}, [ContourPathPanel(loss="zero_one", b=-0.5)]),
    }


CASES = _cases()


@pytest.fixture(scope="module")
def page(chromium):
    yield from front_page(chromium)


def _vertices(d: str) -> np.ndarray:
    return np.array([[float(a), float(b)] for a, b in re.findall(r"[ML]([-\d.]+),([-\d.]+)", d)]).reshape(-1, 2)


def _px(spec, size, P):
    (x0, x1), (y0, y1) = spec["xlim"], spec["ylim"]
    P = np.asarray(P, float).reshape(-1, 2)
    return np.column_stack([(P[:, 0] - x0) / (x1 - x0) * size[0], size[1] - (P[:, 1] - y0) / (y1 - y0) * size[1]])


def _check_frame(got, spec, k):
    size = got["size"]
    assert size == [spec["size_px"], spec["size_px"]]
    layer = spec["layers"][spec["layer_of"][k]]
    assert got["layers"] == [layer["b"]] and got["labelGroups"] == 1, k
    assert [c for c, _ in got["bands"]] == [b["color"] for b in layer["bands"]]
    for (_, d), band in zip(got["bands"], layer["bands"], strict=True):
        assert np.abs(_vertices(d) - _px(spec, size, np.concatenate(band["rings"]))).max() <= PX
    if layer["lines"]:
        assert np.abs(_vertices(got["lines"]) - _px(spec, size, np.concatenate(layer["lines"]))).max() <= PX
    if layer["zero"]:
        assert np.abs(_vertices(got["zero"]) - _px(spec, size, np.concatenate(layer["zero"]))).max() <= PX
    assert [i for i, _ in got["kinks"]] == [m["i"] for m in layer["kinks"]]
    for (_, d), m in zip(got["kinks"], layer["kinks"], strict=True):
        assert np.abs(_vertices(d) - _px(spec, size, m["seg"])).max() <= PX
    assert [t for t, _, _ in got["labels"]] == [str(m["i"]) for m in layer["kinks"]]
    for (_, cx, cy), m in zip(got["labels"], layer["kinks"], strict=True):
        assert np.abs(np.array([cx, cy]) - _px(spec, size, m["at"])[0]).max() <= PX
    W = np.asarray(spec["W"][: k + 1])
    assert np.abs(_vertices(got["path"]) - _px(spec, size, W)).max() <= PX  # the path w_0..w_k, no further
    assert np.abs(np.asarray(got["vertices"]) - _px(spec, size, W)).max() <= PX
    star = _vertices(got["star"])
    assert len(star) == 10 and np.abs(star.mean(axis=0) - _px(spec, size, W[-1])[0]).max() <= 0.05
    assert got["title"] == spec["titles"][k].replace("\n", "")
    assert got["ticks"] == [t.replace("-", "−") for t in spec["colorbar"]["labels"]]
    assert got["barLabel"] == spec["colorbar"]["label"]
    n = len(spec["colorbar"]["colors"]) - spec["colorbar"]["extend"]
    assert got["barColors"] == spec["colorbar"]["colors"][:n]
    # what the numbers are: example indices i (a note under the map, and the picture's name), not steps k
    assert " ".join(got["note"]) == " ".join(spec["note"])  # its lines broken to the room beside or under the map
    shown = ", ".join(str(m["i"]) for m in layer["kinks"])
    kinks = f"; dashed lines labelled i = {shown}: the kink lines ⟨w, xᵢ⟩ + b = 0 of those examples" if shown else ""
    title = spec["titles"][k].replace("\n", " ")
    assert got["label"] == f"{spec['name']}: {title}{kinks}; dots: w at steps 0 to {k}, w at step {k} starred"


@pytest.mark.browser
@pytest.mark.parametrize("name", list(CASES))
def test_frame_k_draws_the_layer_of_b_k_the_path_to_k_and_the_star_at_k(page, name):
    run, kw, panels = CASES[name]
    player = BrowserPlayer(run, X8, y8, panels=panels, **kw)
    state = mount(page, player)
    spec = state["panels"][0]
    assert spec["kind"] == "contour"
    K = spec["K"]
    frames = same_whatever_the_path(page, READ, K)
    for k in range(K + 1):
        _check_frame(frames[k], spec, k)
    assert len({tuple(f["layers"]) for f in frames}) == len(spec["layers"])  # every layer is shown at some k


@pytest.mark.browser
@pytest.mark.parametrize("name", ["lesson 01", "lesson 01, lecture"])
def test_the_note_on_the_numbers_lies_beside_or_under_the_map_inside_the_picture(page, name):
    """The note saying what the numbers are stands beside the colour bar (notebook: the column has room there, not
    under the map) or under the axis name w₁ (lecture, as in the kernel's still), within the SVG's box, its lines
    one under the other and clear of the rest of the picture; the formula is never broken."""
    run, kw, panels = CASES[name]
    mount(page, BrowserPlayer(run, X8, y8, panels=panels, **kw))
    box = page.evaluate("""() => {
      const svg = document.querySelector('#widget svg.pp-contour');
      const r = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
      const xName = [...svg.querySelectorAll('.pp-axes text')].find((t) => t.textContent === 'w₁');
      return {svg: r(svg), xName: r(xName), bar: r(svg.querySelector('.pc-colorbar')),
              plot: r(svg.querySelector('clipPath').parentNode.parentNode.querySelector('.pc-layer').parentNode),
              lines: [...svg.querySelectorAll('.pc-note tspan')].map((t) => [...r(t), t.textContent])};
    }""")
    lines = box["lines"]
    assert len(lines) >= 2 and any("⟨w,\u00a0xᵢ⟩\u00a0+\u00a0b\u00a0=\u00a00" in t for *_, t in lines)
    for a, b in zip(lines, lines[1:], strict=False):
        assert a[3] <= b[1] + 1, "its lines one under the other"
    for left, top, right, bottom, _ in lines:
        assert box["svg"][0] <= left and right <= box["svg"][2] + 0.5 and bottom <= box["svg"][3], "in the picture"
        if kw:
            assert top >= box["xName"][3] - 1, "under the axis name"
        else:
            assert left >= box["bar"][2], "beside the colour bar"
            assert box["plot"][1] <= top and bottom <= box["plot"][3], "level with the map"


@pytest.mark.browser
def test_the_panel_sits_beside_the_data_panel_in_a_notebooks_room(page):
    run, kw, panels = CASES["lesson 01"]
    mount(page, BrowserPlayer(run, X8, y8, panels=panels, **kw))
    box = page.evaluate("""() => {
      const r = (sel) => document.querySelector(sel).getBoundingClientRect();
      return {scene: r('#widget svg.pp-scene'), contour: r('#widget svg.pp-contour'), root: r('#widget > *')};
    }""")
    assert box["contour"]["left"] >= box["scene"]["right"]  # beside it, not under it, at 1440 px
    assert box["root"]["height"] <= 779  # the view JupyterLab gives a notebook at 1440x900, file browser open


@pytest.mark.browser
@pytest.mark.parametrize("name", ["lesson 01", "lesson 01, lecture"])
def test_axe_finds_nothing_serious_in_the_player_with_its_map(page, name):
    from test_a11y import blocking_violations

    run, kw, panels = CASES[name]
    mount(page, BrowserPlayer(run, X8, y8, panels=panels, **kw))
    page.click("#widget button:text-is('Step')")
    found = blocking_violations(page, "document.querySelector('#widget')")
    assert not found, "\n".join(found)
