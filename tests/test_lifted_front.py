"""Lesson 05's lifted view drawn in the browser (``front/lifted.js``, panel kind "lifted"), in Chromium.

The panel is built alone (``buildLifted(document, run, spec)``), from the spec `LiftedPanel.front` computes and
the run's numbers (`core.frames.step_numbers` and the preset's sizes, as `BrowserPlayer` sends them), on a blank
page that fetches nothing. Everything drawn is read back from the SVG and held to the numbers computed here in
Python: each lifted point where `core.lift_projection.project` puts it at the angles on show, the plane's polygon the
projection of `plane_polygon`'s vertices, every vertex of the bowl's wire the projection of a point of
`bowl_mesh`, where the plane meets the bowl the projection of `bowl_section`, the points drawn before the plane
exactly those the plane hides (a ray test done here), the ringed example the run's. Then: frame k is the same
markup whatever the path to it (steps forward, back, jumps, turns away and back); each way to turn (arrow keys on
the focused picture, a drag, the sliders) moves the points to the projection at the new angles; keys do nothing
without the focus, and Tab and Escape leave; axe-core finds nothing serious; the player hosts the panel.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from perceptron_lib.core import data, kernels
from perceptron_lib.core.frames import step_numbers
from perceptron_lib.core.lift_projection import ASPECT, project, view_axes
from perceptron_lib.core.lift_view import boundary_in_view, bowl_mesh, bowl_section
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.draw import style
from perceptron_lib.player import LiftedPanel, front
from perceptron_lib.player.browser import _style_trait

PX = 0.011  # the markup writes coordinates to 0.01 px
MODULES = ("geometry.js", "scene.js", "controls.js", "lift_geometry.js", "lifted.js")


def _runs():
    """Lesson 05's run on the lifted rings (24 updates, converges), the rings with one inner point far outside (no
    plane separates them: 8 epochs, the planes cut the box anywhere), and a student's five points."""
    X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)
    Z = kernels.lift(X)
    X2, y2 = np.vstack([X, [[3.0, 3.0]]]), np.append(y, 1.0)
    Z2 = kernels.lift(X2)
    X3 = np.array([[0.0, 0.0], [0.3, 0.1], [2.0, 0.0], [-2.0, 0.5], [0.0, -2.0]])
    y3 = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    Z3 = kernels.lift(X3)
    return {
        "05 rings": (fit_perceptron(Z, y), Z, y, "notebook"),
        "05 rings, lecture": (fit_perceptron(Z, y), Z, y, "lecture"),
        "no separating plane": (fit_perceptron(Z2, y2, max_epochs=8), Z2, y2, "notebook"),
        "five points": (fit_perceptron(Z3, y3), Z3, y3, "lecture"),
    }


RUNS = _runs()


def specs(name):
    """(run spec, panel spec) as the browser gets them."""
    run, Z, y, preset = RUNS[name]
    s = style.get(preset)
    return {**step_numbers(run, Z, y), "style": _style_trait(s)}, LiftedPanel().front(run, Z, y, style=s)


@pytest.fixture(scope="module")
def page(chromium):
    ctx = chromium.new_context(viewport={"width": 1440, "height": 900})
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:", "about:")) else r.abort())
    page = ctx.new_page()
    page.set_content('<!doctype html><html lang="en"><title>the lifted view</title><body><main></main>'
                     '<button id="after" type="button">a button after the panel</button></body></html>')
    page.evaluate("""async (src) => {
        const url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
        window.front = await import(url);
    }""", front.source(MODULES))
    yield page
    ctx.close()


def mount(page, name, k=0):
    run_spec, spec = specs(name)
    page.evaluate("""([run, spec, k]) => {
        window.panel = window.front.buildLifted(document, run, spec);
        document.querySelector('main').replaceChildren(window.panel.el);
        window.panel.draw(k);
    }""", [run_spec, spec, k])
    return run_spec, spec


READ = """() => {
  const root = document.querySelector('main .pl-lifted');
  const all = (sel, names) => [...root.querySelectorAll(sel)].map((e) => names.map((n) => e.getAttribute(n)));
  const plane = root.querySelector('polygon.pl-plane');
  return {
    plot: root.querySelector('.pl-plot').getAttribute('transform'),
    behind: all('.pl-behind path.pl-point', ['data-i', 'data-x', 'data-y', 'd']),
    front: all('.pl-front path.pl-point', ['data-i', 'data-x', 'data-y', 'd']),
    plane: plane ? plane.getAttribute('points') : null,
    bowl: all('path.pl-bowl', ['d']).map((d) => d[0]),
    section: all('path.pl-section', ['d']).map((d) => d[0]),
    ring: all('circle.pl-ring', ['data-i', 'cx', 'cy']),
    label: root.querySelector('.pl-picture').getAttribute('aria-label'),
    view: window.panel.view(),
  };
}"""


def _svg(page):
    return page.eval_on_selector("main .pl-lifted svg", "e => e.outerHTML")


def _coords(d):
    return np.array(re.findall(r"[ML](-?[\d.]+),(-?[\d.]+)", d), dtype=float).reshape(-1, 2)


def _hidden_by_plane(P, w, b, box, elev, azim):
    """Which points the plane stands in front of: the ray from each point toward the viewer crosses the plane.

    The ray runs along the viewing direction of the shaped box; in data units it is that direction divided by the
    shaping, and the plane <w, p> + b = 0 is met at the t > 0 where the score along the ray is 0."""
    box = np.asarray(box)
    toward = view_axes(elev, azim)[2] * (box[:, 1] - box[:, 0]) / np.asarray(ASPECT)
    score, rate = P @ w + b, toward @ w
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -score / rate
    return (rate != 0) & (t > 0)


def _check(f, run_spec, spec, k, elev, azim):
    """Every shape of the panel at (k, elev, azim) against the numbers computed here."""
    assert f["view"] == {"k": k, "elev": elev, "azim": azim}
    left, top = map(float, re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", f["plot"]).groups())
    size = spec["size_px"]
    at = lambda P: project(P, box=spec["box"], elev=elev, azim=azim, size=size)  # noqa: E731
    Z = np.array(spec["points"])
    want = at(Z)
    drawn = {int(i): (float(x), float(y)) for i, x, y, _ in f["behind"] + f["front"]}
    assert sorted(drawn) == list(range(len(Z)))
    for i, (x, y) in drawn.items():
        assert abs(x - want[i, 0]) <= PX and abs(y - want[i, 1]) <= PX, (i, (x, y), want[i])
    for i, _, _, d in f["behind"] + f["front"]:  # the marker is drawn where its data says
        first = _coords(d)[0] if d.startswith("M") else None
        assert first is not None and np.hypot(*(first - want[int(i), :2])) <= 20
    # each side of the plane nearest last: the order of the markup is the order of depth
    for side in ("behind", "front"):
        depth = [want[int(i), 2] for i, *_ in f[side]]
        assert depth == sorted(depth)
    poly = np.array(spec["planes"][k]).reshape(-1, 3)
    if len(poly) >= 3:
        got = np.array([p.split(",") for p in f["plane"].split(" ")], dtype=float)
        assert np.allclose(got, at(poly)[:, :2], atol=PX)
        hidden = _hidden_by_plane(Z, np.array(run_spec["w"][k]), run_spec["b"][k], spec["box"], elev, azim)
    else:
        assert f["plane"] is None
        hidden = np.zeros(len(Z), bool)
    assert sorted(int(r[0]) for r in f["behind"]) == np.flatnonzero(hidden).tolist()
    # the bowl: every vertex drawn is a projected point of the mesh, and every point of the mesh is drawn
    mesh = at(np.vstack(bowl_mesh(spec["box"])))[:, :2]
    got = np.vstack([_coords(d) for d in f["bowl"] if d])
    gap = np.abs(got[:, None, :] - mesh[None, :, :]).max(axis=2)
    assert gap.min(axis=1).max() <= PX and gap.min(axis=0).max() <= PX
    # where the plane meets the bowl: each piece of `bowl_section` projected, vertex for vertex
    w, b = np.array(run_spec["w"][k]), run_spec["b"][k]
    pieces = bowl_section(w, b, spec["box"]) if np.any(w) else []
    if pieces:
        (d,) = f["section"]
        assert d.count("M") == len(pieces)
        assert np.allclose(_coords(d), at(np.vstack(pieces))[:, :2], atol=PX)
    else:
        assert f["section"] == []
    assert [int(r[0]) for r in f["ring"]] == run_spec["ring"][k]
    for i, cx, cy in f["ring"]:
        assert np.allclose([float(cx), float(cy)], want[int(i), :2], atol=PX)
    minus = lambda v: str(int(np.floor(v + 0.5))).replace("-", "−")  # noqa: E731  (whole degrees, as JS rounds)
    assert f["label"] == f"{spec['alt'][k]} Seen from azimuth {minus(azim)}°, elevation {minus(elev)}°."


# ---------------------------------------------------------------------------------------------- the tests
@pytest.mark.browser
@pytest.mark.parametrize("name", RUNS)
def test_the_points_the_plane_and_the_bowl_are_pythons_numbers_projected(page, name):
    run_spec, spec = mount(page, name)
    K = run_spec["K"]
    angles = [(24.0, -58.0), (90.0, -90.0), (0.0, 0.0), (-35.0, 125.0), (62.5, 172.25)]
    for j, k in enumerate(sorted({0, 1, K // 3, K // 2, K} | set(range(0, K + 1, max(1, K // 8))))):
        elev, azim = angles[j % len(angles)]
        page.evaluate("([k, e, a]) => { window.panel.draw(k); window.panel.turn(e, a); }", [k, elev, azim])
        _check(page.evaluate(READ), run_spec, spec, k, elev, azim)


@pytest.mark.browser
def test_the_plane_of_a_run_with_no_separating_plane_stays_in_the_box(page):
    """#31: where no plane separates the lifted points, each plane is drawn as its part inside the view's box."""
    run_spec, spec = mount(page, "no separating plane")
    size = spec["size_px"]
    corners = np.array(np.meshgrid(*spec["box"])).T.reshape(-1, 3)
    drawn = 0
    for k in range(run_spec["K"] + 1):
        page.evaluate("(k) => window.panel.draw(k)", k)
        f = page.evaluate(READ)
        if f["plane"] is None:
            continue
        drawn += 1
        got = np.array([p.split(",") for p in f["plane"].split(" ")], dtype=float)
        hull = project(corners, box=spec["box"], elev=24, azim=-58, size=size)[:, :2]
        assert np.all(got >= hull.min(axis=0) - PX) and np.all(got <= hull.max(axis=0) + PX)
    assert drawn >= 90


@pytest.mark.browser
@pytest.mark.parametrize("name", ["05 rings", "no separating plane"])
def test_frame_k_is_the_same_markup_whatever_the_path(page, name):
    run_spec, _ = mount(page, name)
    K = run_spec["K"]
    forward = []
    for k in range(K + 1):
        page.evaluate("(k) => window.panel.draw(k)", k)
        forward.append(_svg(page))
    for k in range(K, -1, -1):
        page.evaluate("(k) => window.panel.draw(k)", k)
        assert _svg(page) == forward[k], f"frame {k} after K -> k differs from 0 -> k"
    for k in np.random.default_rng(3).permutation(K + 1)[:12].tolist():
        page.evaluate("(k) => window.panel.draw(k)", k)
        assert _svg(page) == forward[k], f"frame {k} after a jump differs"
    # turned away (by keys, by a slider) and back: the same picture
    k = K // 2
    page.evaluate("(k) => window.panel.draw(k)", k)
    page.focus("main .pl-picture")
    for key in ["ArrowLeft"] * 7 + ["ArrowUp"] * 3 + ["ArrowRight"] * 7 + ["ArrowDown"] * 3:
        page.keyboard.press(key)
    assert page.evaluate("() => window.panel.view()") == {"k": k, "elev": 24, "azim": -58}
    assert _svg(page) == forward[k]
    assert len(set(forward)) == K + 1


@pytest.mark.browser
def test_a_new_panel_is_drawn_once_at_the_step_the_player_shows(page):
    run_spec, spec = specs("05 rings")
    got = page.evaluate("""async ([run, spec]) => {
        const p = window.front.buildLifted(document, run, spec);
        const plot = p.el.querySelector('.pl-plot');
        const before = plot.childElementCount;  // nothing drawn yet: the player's draw(k) comes in this task
        const watch = new MutationObserver(() => {});
        watch.observe(plot, {childList: true});
        p.draw(3);
        const added = watch.takeRecords().reduce((sum, m) => sum + m.addedNodes.length, 0);
        const drawings = added / plot.childElementCount;  // each drawing adds the plot's elements once
        const alone = window.front.buildLifted(document, run, spec);  // no draw(k): the start, by the task's end
        await Promise.resolve();
        return {before, drawings, label: p.el.querySelector('.pl-picture').getAttribute('aria-label'),
                start: alone.el.querySelector('.pl-picture').getAttribute('aria-label'),
                drawn: alone.el.querySelector('.pl-plot').childElementCount};
    }""", [run_spec, spec])
    assert got["before"] == 0 and got["drawings"] == 1, got
    assert got["label"].startswith(spec["alt"][3]) and got["start"].startswith(spec["alt"][0]) and got["drawn"] > 0


@pytest.mark.browser
def test_each_way_to_turn_keeps_the_points_on_the_projection(page):
    run_spec, spec = mount(page, "05 rings", k=4)
    check = lambda e, a: _check(page.evaluate(READ), run_spec, spec, 4, e, a)  # noqa: E731
    page.focus("main .pl-picture")
    page.keyboard.press("ArrowLeft")  # turns like a drag to the left: the azimuth up
    check(24, -53)
    page.keyboard.press("ArrowUp")  # looks from higher
    check(29, -53)
    for _ in range(20):
        page.keyboard.press("ArrowUp")
    check(90, -53)  # the elevation stops at 90
    page.evaluate("() => window.panel.turn(24, 178)")
    page.keyboard.press("ArrowLeft")
    check(24, -177)  # the azimuth goes round
    # a drag: the width of the picture is half a turn
    page.evaluate("() => window.panel.turn(24, -58)")
    box = page.eval_on_selector("main .pl-picture", "e => { const r = e.getBoundingClientRect(); "
                                "return [r.x, r.y, r.width, r.height]; }")
    x0, y0 = box[0] + box[2] / 2, box[1] + box[3] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 40, y0 + 20, steps=4)
    page.mouse.up()
    per = 180 / box[2]
    view = page.evaluate("() => window.panel.view()")
    assert view["azim"] == pytest.approx(-58 - 40 * per, abs=1e-9)
    assert view["elev"] == pytest.approx(24 + 20 * per, abs=1e-9)
    check(view["elev"], view["azim"])
    # the labelled sliders, by keyboard, in whole degrees from the view's own angles (the start, −58° and 24°, is
    # no multiple of the picture's 5° turns): each thumb stands at the angle its words say
    sliders = """() => [...document.querySelectorAll('main input[type=range]')]
      .map((e) => [e.value, e.labels[0].textContent, e.getAttribute('aria-valuetext')])"""
    page.evaluate("() => window.panel.turn(24, -58)")
    assert page.evaluate(sliders) == [["-58", "turn (azimuth)−58°", "azimuth −58°"],
                                      ["24", "tilt (elevation)24°", "elevation 24°"]]
    page.focus("main .pl-picture")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check(24, -68)
    assert page.evaluate(sliders)[0] == ["-68", "turn (azimuth)−68°", "azimuth −68°"]  # the thumb showed −70
    page.focus("main input[type=range] >> nth=0")
    page.keyboard.press("ArrowRight")
    check(24, -67)
    page.focus("main input[type=range] >> nth=1")
    page.keyboard.press("ArrowLeft")
    check(23, -67)
    page.keyboard.press("PageDown")
    assert page.evaluate("() => window.panel.view().elev") < 23 - 1  # Page Down turns by more than a degree
    page.keyboard.press("Home")
    check(-90, -67)
    assert page.evaluate(sliders) == [["-67", "turn (azimuth)−67°", "azimuth −67°"],
                                      ["-90", "tilt (elevation)−90°", "elevation −90°"]]
    # a page's shortcuts (JupyterLab's command mode, listening on the document) never get a slider's own keys: they
    # took ArrowRight to the next cell, the slider unmoved
    page.evaluate("""() => { window.__pageKeys = [];
      document.addEventListener('keydown', (e) => window.__pageKeys.push(e.key)); }""")
    page.focus("main input[type=range] >> nth=0")
    for key in ("ArrowRight", "PageUp", "End", "Control"):
        page.keyboard.press(key)
    assert page.evaluate("() => window.__pageKeys") == ["Control"]  # a modifier's key goes on (Ctrl+S saves)
    assert page.evaluate("() => window.panel.view().azim") == -180  # End: 180°, the same turn as −180°
    # a drag's fraction of a degree: the thumb and the words round it alike
    page.evaluate("() => window.panel.turn(23.6, -57.4)")
    assert page.evaluate(sliders) == [["-57", "turn (azimuth)−57°", "azimuth −57°"],
                                      ["24", "tilt (elevation)24°", "elevation 24°"]]


@pytest.mark.browser
def test_keys_turn_only_with_the_focus_and_tab_and_escape_leave(page):
    mount(page, "05 rings", k=2)
    before = page.evaluate("() => window.panel.view()")
    page.focus("#after")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => window.panel.view()") == before
    page.focus("main .pl-picture")
    prevented = page.evaluate("""() => {
        const pic = document.querySelector('main .pl-picture');
        return ['Escape', 'Tab', 'ArrowLeft'].map((key) => {
          const e = new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true});
          pic.dispatchEvent(e);
          return e.defaultPrevented;
        });
    }""")
    assert prevented == [False, False, True]
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.getAttribute('type')") == "range"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('pl-picture')")


@pytest.mark.browser
@pytest.mark.parametrize("name", ["05 rings", "five points"])
def test_axe_finds_nothing_serious_in_the_panel(page, name):
    from test_a11y import blocking_violations

    mount(page, name, k=1)
    found = blocking_violations(page, "document.querySelector('main')")
    assert not found, "\n".join(found)


# ---------------------------------------------------------------------------------------------- in the player
def _lifted_player_trait(name):
    """The `run` trait of `BrowserPlayer(run, Z, y, panels=[LiftedPanel()])` on lifted points."""
    from perceptron_lib.player.browser import BrowserPlayer

    run, Z, y, preset = RUNS[name]
    return BrowserPlayer(run, Z, y, panels=[LiftedPanel()], style=preset).get_state()["run"]


@pytest.fixture(scope="module")
def player_page(chromium):
    from test_browser_player_front import front_page

    yield from front_page(chromium)


def _pieces(d):
    """The polylines of an SVG path of M and L commands, as arrays of (x, y) pixels."""
    return [np.array(re.findall(r"(-?[\d.]+),(-?[\d.]+)", part), dtype=float) for part in d.split("M")[1:]]


@pytest.mark.browser
@pytest.mark.parametrize("name", ["05 rings", "no separating plane", "five points"])
def test_the_data_panel_of_lifted_points_draws_pythons_circles_and_notes_and_no_arrows(player_page, name):
    """Each step's boundary (and the one before) is Python's `boundary_in_view` through the view's map, to 0.01 px;
    the note is Python's `boundary_note`; no arrow is drawn and the legend names none."""
    page = player_page
    trait = _lifted_player_trait(name)
    run, Z, y, _ = RUNS[name]
    assert trait["mode"] == "lifted" and len(trait["curves"]) == len(trait["notes"]) == trait["K"] + 1
    page.evaluate("(run) => window.mount({run, k: 0, interval_ms: 500})", trait)
    (x0, x1), (y0, y1) = trait["view"]["xlim"], trait["view"]["ylim"]
    unit = trait["style"]["panel_px"] / max(x1 - x0, y1 - y0)
    legend = page.eval_on_selector_all("#widget .pp-legend li", "items => items.map((li) => li.textContent)")
    assert "boundary" in legend and not {"w", "w before", "η·y·x"} & set(legend)
    for k in range(min(trait["K"], 12) + 1):
        page.evaluate("(k) => window.model.fromPython('k', k)", k)
        got = page.evaluate("""() => {
            const d = (sel) => [...document.querySelectorAll(`#widget svg.pp-scene ${sel}`)]
                .map((e) => e.getAttribute('d'));
            return {now: d('path.pp-boundary'), before: d('path.pp-boundary-before'),
                    arrows: document.querySelectorAll('#widget .pp-arrow').length,
                    note: document.querySelector('#widget .pp-note').textContent};
        }""")
        assert got["arrows"] == 0 and got["note"] == trait["notes"][k]
        for key, j in (("now", k), ("before", k - 1)):
            want = [] if j < 0 else boundary_in_view(run.history.w[j], run.history.b[j], (x0, x1), (y0, y1))
            want = [np.column_stack([(P[:, 0] - x0) * unit, (y1 - P[:, 1]) * unit]) for P in want]
            drawn = _pieces(got[key][0]) if got[key] else []
            assert len(got[key]) == (1 if want else 0) and len(drawn) == len(want), (k, key)
            for a, b in zip(drawn, want, strict=True):
                assert a.shape == b.shape and np.abs(a - b).max() <= PX


@pytest.mark.browser
def test_the_player_hosts_the_lifted_panel_and_steps_it(player_page):
    page = player_page
    trait = _lifted_player_trait("05 rings")
    page.evaluate("(run) => window.mount({run, k: 0, interval_ms: 500})", trait)
    alone = """(k) => {
        const p = window.front.buildLifted(document, window.model.get('run'), window.model.get('run').panels[0]);
        p.draw(k);
        return p.el.querySelector('svg').outerHTML;
    }"""
    shown = "() => document.querySelector('#widget .pl-lifted svg').outerHTML"
    assert page.evaluate(shown) == page.evaluate(alone, 0)
    for k in (1, 2, 3):
        page.click("#widget button:text-is('Step')")
        assert page.evaluate(shown) == page.evaluate(alone, k)
    assert page.evaluate("() => window.model.get('k')") == 3
    # the panel's keys turn it and leave the player's step alone, also with the pointer over the data panel (whose
    # picture then listens for the player's keys: the lifted picture's data-own-keys keep its arrows its own)
    page.hover("#widget .pp-picture")
    page.focus("#widget .pl-picture")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => window.model.get('k')") == 3
    label = page.get_attribute("#widget .pl-picture", "aria-label")
    assert label.endswith("Seen from azimuth −53°, elevation 24°.")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.model.get('k')") == 3
    assert page.get_attribute("#widget .pl-picture", "aria-label").endswith("Seen from azimuth −58°, elevation 24°.")
    # the player's own keys still step it from the data panel
    page.focus("#widget .pp-picture")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.model.get('k')") == 4


@pytest.mark.browser
@pytest.mark.parametrize("name", ["05 rings", "five points"])
def test_axe_finds_nothing_serious_in_the_player_of_lifted_points(player_page, name):
    """The whole player (data panel of lifted points, lifted view, legend, readout), in each preset."""
    from test_a11y import blocking_violations

    player_page.evaluate("(run) => window.mount({run, k: 2, interval_ms: 500})", _lifted_player_trait(name))
    found = blocking_violations(player_page, "document.querySelector('main')")
    assert not found, "\n".join(found)
