"""The run switch in the browser (`BrowserSwitch`, ``front/switch.js``), in Chromium with a stand-in for anywidget's
model.

As in tests/test_browser_player_front.py: a blank page with every request off the machine refused loads the
widget's module from a Blob URL and calls its ``render({model, el})`` with a model filled from the real widget's
state, which records each ``save_changes`` (the messages the kernel would get) and lets the test play Python
(``fromPython``).

The switch: the chosen run's frame at the same k (clamped to its last), its shapes against its numbers, the axes
the same markup for every run (no rescale), one message per choice, the radio group by keyboard, a choice made in
Python. tests/test_browser_controlled_front.py does the same for the controlled player.
"""

from __future__ import annotations

import numpy as np
import pytest
import traitlets
from test_browser_player_front import FAKE_MODEL, _check_frame, _frame

from perceptron_lib.core import loss_surfaces
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser import run_trait
from perceptron_lib.player.browser_switch import BrowserSwitch, shared_view
from perceptron_lib.player.panels.curves import LossPanel
from perceptron_lib.player.readout import alt_text, state_lines

#: The stand-in model, with Python's message of several traits at once (ipywidgets sets them all, then tells each).
MODEL = FAKE_MODEL.replace(
    "fromPython: (name, value) =>",
    "fromPythonMany: (values) => { Object.assign(state, values); for (const n of Object.keys(values)) model.emit(n); },"
    "\n      fromPython: (name, value) =>")
assert "fromPythonMany" in MODEL


def _trap():
    """Lesson 02's trap: three mistake tests on its eight points, and the sign test with the labels flipped
    (the `< 0` run has no update: K = 0)."""
    X8 = np.array([[-3, 1], [-1, -2], [-3, 3], [1, -3], [1, 3], [-3, -3], [-1, 2], [-1, 3]], dtype=float)
    y8 = np.array([-1, -1, 1, -1, 1, -1, 1, 1], dtype=float)
    runs = {rule: fit_perceptron(X8, y8, update_on=rule) for rule in ["nonpositive", "negative", "sign"]}
    return X8, y8, {
        "≤ 0 (θ = 1)": runs["nonpositive"],
        "< 0 (θ = 0)": runs["negative"],
        "sign, sgn(0) = −1": runs["sign"],
        "sign, labels flipped": (fit_perceptron(X8, -y8, update_on="sign"), X8, -y8),
    }


def _page(chromium, esm):
    ctx = chromium.new_context(viewport={"width": 1440, "height": 900})
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:", "about:")) else r.abort())
    page = ctx.new_page()
    page.set_content('<!doctype html><html lang="en"><title>a switch in the browser</title><body><main></main>'
                     '<button id="after" type="button">a button after the widget</button></body></html>')
    page.evaluate("""async (src) => {
        const url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
        window.front = await import(url);
    }""", esm)
    page.evaluate(MODEL)
    return ctx, page


@pytest.fixture(scope="module")
def switch_page(chromium):
    ctx, page = _page(chromium, BrowserSwitch._esm)
    yield page
    ctx.close()


def mount(page, widget, names):
    state = widget.get_state()
    page.evaluate("(state) => window.mount(state)", {name: state[name] for name in names})
    return state


SWITCH_STATE = ("runs", "labels", "description", "choice", "k", "interval_ms")


def _saves(page):
    return page.evaluate("() => window.model.saves")


def _clear_saves(page):
    page.evaluate("() => { window.model.saves = []; }")


def _axes(page):
    """The axes of every panel (the data panel's and each chart's): their place, ticks and labels, as markup."""
    return page.evaluate("""() => { const r = document.querySelector('#widget');
        return [...r.querySelectorAll('svg')].filter((s) => s.querySelector('.pp-axes')).map((s) =>
          [s.getAttribute('viewBox'), s.querySelector('.pp-plot').getAttribute('transform'),
           s.querySelector('.pp-axes').outerHTML]); }""")


# ---------------------------------------------------------------------------------------------- the switch
@pytest.mark.browser
def test_a_choice_shows_the_chosen_runs_frame_at_the_same_k_clamped_on_the_same_axes(switch_page):
    page = switch_page
    X8, y8, runs = _trap()
    switch = BrowserSwitch(runs, X8, y8, description="rule",
                           panels=[LossPanel(loss_surfaces.loss_along_run, "perceptron loss L")])
    state = mount(page, switch, SWITCH_STATE)
    data_of = [v if isinstance(v, tuple) else (v, X8, y8) for v in runs.values()]
    axes = _axes(page)
    assert len(axes) == 2, "the data panel and the loss chart"
    assert page.inner_text("#widget legend") == "rule"
    # from k = 2 of the first run, each run in turn: k stays 2 where the run has it, else its last step
    page.fill("#widget input[type=number]", "2")
    k = 2
    for j in [2, 3, 1, 0]:
        _clear_saves(page)
        page.click(f"#widget .perceptron-choice label:nth-of-type({j + 1})")
        run, X, y = data_of[j]
        want = min(k, len(run.history) - 1)
        assert page.evaluate("() => [window.model.get('choice'), window.model.get('k')]") == [j, want]
        assert _saves(page) == [["choice"] if want == k else ["choice", "k"]], (j, _saves(page))
        _check_frame(_frame(page), state["runs"][j], run, X, y, want)
        assert _axes(page) == axes, f"the axes changed with run {j}"
        assert page.is_checked(f"#widget .perceptron-choice label:nth-of-type({j + 1}) input")
        k = want
    # every run's trait has the one view that holds each run's own
    own = [run_trait(r, X, y)["view"] for r, X, y in data_of]
    assert all(t["view"] == shared_view(own) for t in state["runs"])


@pytest.mark.browser
def test_the_radio_group_works_from_the_keyboard_and_tab_leaves_it(switch_page):
    page = switch_page
    X8, y8, runs = _trap()
    mount(page, BrowserSwitch(runs, X8, y8, description="rule"), SWITCH_STATE)
    page.focus("#widget .perceptron-choice input:checked")
    for key, j in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("ArrowDown", 2)):
        page.keyboard.press(key)
        assert page.evaluate("() => window.model.get('choice')") == j, key
    assert page.evaluate("() => document.activeElement.closest('.perceptron-choice') !== null")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('.perceptron-choice')"), "Tab stayed in the group"
    # the player of the run chosen by keys steps by its keys
    page.focus("#widget .pp-picture")
    page.keyboard.press("End")
    run = list(runs.values())[2]
    K = len(run.history) - 1
    assert page.evaluate("() => window.model.get('k')") == K
    assert _frame(page)["readout"][0] == f"Update {K} of {K} (epoch {run.history.epoch[-1]})."


#: What Tab visits in the switch at k = 0 (Reset and Back disabled), as it is seen: the player's buttons, its picture,
#: the choice (one stop: the radio checked), then the column: in the lecture preset its tabs (the loss chart under
#: one) and its readout, which scrolls, so it takes the focus too.
_FIRST = ["Step", "End", "Play", "speed", "update k", "picture"]
TAB_ORDER = {"notebook": [*_FIRST, "choice"],
             "lecture": [*_FIRST[:5], "Keys", *_FIRST[5:], "choice", "tab readout", "readout"]}


def _tab_order(page) -> list:
    """The switch's focusable parts in the page's (Tab's) order, each named by its text or label; the radio group
    is one stop (its checked input)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#widget :is(button, input, select, summary, [tabindex])')]
      .filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length
        && !(e.type === 'radio' && !e.checked))
      .map((e) => e.classList.contains('pp-picture') ? 'picture' : e.classList.contains('pp-readout') ? 'readout'
        : e.type === 'radio' ? 'choice' : e.getAttribute('role') === 'tab' ? `tab ${e.textContent.trim()}`
        : e.tagName === 'BUTTON' || e.tagName === 'SUMMARY' ? e.textContent.trim()
        : e.closest('label').firstChild.textContent.trim().replace(/ \\(of \\d+\\)$/, ''))""")


@pytest.mark.browser
@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_the_choice_sits_beside_the_picture_or_under_it_and_tab_goes_as_seen(switch_page, preset):
    """Beside the picture, over the loss chart and the readout, at a notebook's width with its file browser open at
    1440x900 (1000 px); under the picture (with its legend), over the readout, where the widget is narrow (700 px,
    and a phone's 390). Tab goes as they are seen: the player's buttons, its picture, the choice, the readout."""
    page = switch_page
    X8, y8, runs = _trap()
    mount(page, BrowserSwitch(runs, X8, y8, panels=[LossPanel(loss_surfaces.loss_along_run, "loss")], style=preset),
          SWITCH_STATE)
    measure = """() => { const r = document.querySelector('#widget');
        const box = (s) => { const b = r.querySelector(s).getBoundingClientRect();
                             return [b.top, b.bottom, b.left, b.right]; };
        return {choice: box('.perceptron-choice'), picture: box('.pp-picture'), controls: box('.pp-controls'),
                figure: box('.pp-figure'), readout: box('.pp-readout'), widget: box('.perceptron-browserswitch')}; }"""
    try:
        page.set_viewport_size({"width": 1000, "height": 900})
        m = page.evaluate(measure)
        assert m["choice"][2] >= m["picture"][3] and abs(m["choice"][0] - m["picture"][0]) <= 40, m
        assert m["readout"][0] >= m["choice"][1]
        tall = m["widget"][1] - m["widget"][0]
        assert _tab_order(page) == TAB_ORDER[preset], str(_tab_order(page))
        for width in (700, 390):
            page.set_viewport_size({"width": width, "height": 900})
            m = page.evaluate(measure)
            gap = m["choice"][0] - m["figure"][1]
            assert 0 <= gap <= 40, f"{width} px: {gap:.0f} px between the picture (with its legend) and the choice"
            assert m["readout"][0] >= m["choice"][1], "the readout is under the choice"
            assert m["widget"][3] <= width + 1, f"{width} px: the widget runs off the page"
            assert _tab_order(page) == TAB_ORDER[preset]
    finally:
        page.set_viewport_size({"width": 1440, "height": 900})
    print(f"{preset}: {tall:.0f} px tall at 1000 px wide")


JS_COLUMN = """() => { const w = document.querySelector('#widget');
  const side = w.querySelector('.pp-side'), picture = w.querySelector('.pp-picture');
  const map = w.querySelector('.pp-panel-contour');
  const low = Math.max(...[...side.querySelectorAll('*')].filter((e) => e.checkVisibility())
    .map((e) => e.getBoundingClientRect().bottom));
  return {tabs: [...w.querySelectorAll('[role=tab]')].map((t) => t.textContent),
          mapAfterReadout: !!side.querySelector(':scope > .pp-readout ~ .pp-panel-contour'),
          mapSeen: map.checkVisibility(), chartSeen: w.querySelector('.pp-panel-loss').checkVisibility(),
          room: picture.getBoundingClientRect().top + window.innerHeight - window.front.VIEW_RESERVE - low}; }"""


@pytest.mark.browser
def test_a_loss_map_that_runs_below_the_window_goes_under_a_tab_in_the_notebook_preset(switch_page):
    """Lesson 02's methods switch in the notebook preset: its loss map after the loss chart and the readout ran below
    the window (842 px in a 779 px view of a 1440x900 JupyterLab). Where the column runs lower than the picture's top
    plus the window's height less `VIEW_RESERVE`, the map goes under a tab ("loss map"; the chart and the readout stay
    under "readout"), and the column ends within that; in a window tall enough for it (1300 px) the map stands under
    the readout (`side.js` fitColumn, `panelPlaces`)."""
    page = switch_page
    X8, y8, methods, panels = _methods()
    settle = "() => new Promise((r) => { let n = 0; const f = () => (++n < 6 ? requestAnimationFrame(f) : r()); f(); })"
    try:
        page.set_viewport_size({"width": 1016, "height": 900})  # main: 1000 px, JupyterLab's output at 1440x900
        mount(page, BrowserSwitch(methods, X8, y8, panels=panels(), description="method"), SWITCH_STATE)
        page.evaluate(settle)
        short = page.evaluate(JS_COLUMN)
        assert short["tabs"] == ["readout", "loss map"] and not short["mapSeen"] and short["chartSeen"], short
        assert short["room"] >= 0, short
        page.click("#widget [role=tab]:text-is('loss map')")
        under = page.evaluate(JS_COLUMN)
        assert under["mapSeen"] and not under["chartSeen"] and under["room"] >= 0, under
        page.set_viewport_size({"width": 1016, "height": 1300})
        mount(page, BrowserSwitch(methods, X8, y8, panels=panels(), description="method"), SWITCH_STATE)
        page.evaluate(settle)
        tall = page.evaluate(JS_COLUMN)
        assert tall["tabs"] == [] and tall["mapAfterReadout"] and tall["mapSeen"] and tall["room"] >= 0, tall
    finally:
        page.set_viewport_size({"width": 1440, "height": 900})


@pytest.mark.browser
def test_a_choice_by_the_keyboard_keeps_the_focus_and_the_players_elements(switch_page):
    """A run chosen by the arrow keys is drawn in the same player (its picture and readout the same elements), the
    focus stays on the choice, and the next Tab goes on to what follows the choice as seen (the readout of the
    lecture preset, or out of the widget)."""
    page = switch_page
    X8, y8, runs = _trap()
    mount(page, BrowserSwitch(runs, X8, y8, description="rule", style="lecture"), SWITCH_STATE)
    page.evaluate("""() => { window.kept = [document.querySelector('#widget .pp-picture'),
                                          document.querySelector('#widget .pp-readout')]; }""")
    page.focus("#widget .perceptron-choice input:checked")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.model.get('choice')") == 2
    assert page.evaluate("""() => window.kept[0] === document.querySelector('#widget .pp-picture')
      && window.kept[1] === document.querySelector('#widget .pp-readout') && window.kept.every((e) => e.isConnected)""")
    assert page.evaluate("() => document.activeElement.value") == "2"
    assert page.evaluate("() => document.querySelectorAll('#widget .perceptron-browserplayer').length") == 1
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('pp-readout')")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('pp-picture')"), "the picture before it"


@pytest.mark.browser
def test_a_choice_made_in_python_is_shown_with_its_k(switch_page):
    page = switch_page
    X8, y8, runs = _trap()
    switch = BrowserSwitch(runs, X8, y8)
    state = mount(page, switch, SWITCH_STATE)
    switch.k = 3
    switch.select("sign, labels flipped")  # Python's side: choice and k
    assert (switch.choice, switch.k) == (3, 3)
    page.evaluate("([j, k]) => window.model.fromPythonMany({choice: j, k})", [3, 3])
    run, X, y = runs["sign, labels flipped"]
    _check_frame(_frame(page), state["runs"][3], run, X, y, 3)
    assert page.is_checked("#widget .perceptron-choice label:nth-of-type(4) input")
    assert _saves(page) == []


@pytest.mark.browser
def test_axe_finds_nothing_serious_in_the_switch(switch_page):
    from test_a11y import blocking_violations

    X8, y8, runs = _trap()
    mount(switch_page, BrowserSwitch(runs, X8, y8, description="rule", style="lecture"), SWITCH_STATE)
    switch_page.click("#widget .perceptron-choice label:nth-of-type(3)")
    found = blocking_violations(switch_page, "document.querySelector('#widget')")
    assert not found, "\n".join(found)


def test_python_follows_the_choice_and_refuses_a_k_past_the_chosen_run():
    X8, y8, runs = _trap()
    switch = BrowserSwitch(runs, X8, y8, value="sign, sgn(0) = −1", k=2)
    assert switch.value == "sign, sgn(0) = −1" and switch.lines() == state_lines(runs["sign, sgn(0) = −1"], X8, y8, 2)
    switch.select("< 0 (θ = 0)")  # no update: k clamped to 0
    assert (switch.k, switch.K) == (0, 0) and switch.alt == alt_text(runs["< 0 (θ = 0)"], X8, y8, 0)
    with pytest.raises(traitlets.TraitError, match=r"0\.\.0; got 1"):
        switch.k = 1
    with pytest.raises(KeyError, match="no run named 'x'"):
        switch.select("x")
    with pytest.raises(ValueError, match="has no data"):
        BrowserSwitch({"a": runs["≤ 0 (θ = 1)"]})
    assert repr(switch) == "<BrowserSwitch: ≤ 0 (θ = 1) | < 0 (θ = 0) | sign, sgn(0) = −1 | sign, labels flipped; " \
                           "showing < 0 (θ = 0)>"
    png, width, height, alt = switch.snapshot()
    assert png[:4] == b"\x89PNG" and alt == switch.alt and width > 300
    assert switch.value == "< 0 (θ = 0)"


def test_shared_panels_share_a_charts_axes_but_leave_a_map_its_own_box():
    """A chart keeps its axes across runs; a loss map or lifted view keeps the box its numbers were computed over."""
    from perceptron_lib.player.browser_switch import shared_panels

    a = {"panels": [{"kind": "loss", "xlim": [0, 3], "ylim": [0, 1]},
                    {"kind": "contour", "xlim": [-1, 1], "ylim": [-2, 2]}]}
    b = {"panels": [{"kind": "loss", "xlim": [0, 9], "ylim": [-1, 0.5]},
                    {"kind": "contour", "xlim": [-5, 5], "ylim": [0, 1]}]}
    sa, sb = shared_panels([a, b])
    assert sa["panels"][0]["xlim"] == sb["panels"][0]["xlim"] == [0, 9] and sa["panels"][0]["ylim"] == [-1, 1]
    assert sa["panels"][1] == a["panels"][1] and sb["panels"][1] == b["panels"][1]
    assert a["panels"][0]["xlim"] == [0, 3]  # the caller's specs are left as they were


def _methods():
    """Lesson 02's methods switch: batch descent, the online perceptron and mini-batches of B = 2 on its eight
    points, with the contour map of L and the loss chart."""
    from perceptron_lib.core.batched import fit_batch, fit_minibatch
    from perceptron_lib.player.panels.loss_slice import ContourPathPanel

    X8, y8, trap = _trap()
    runs = {"batch, η = 1 (mean)": fit_batch(X8, y8, eta=1.0, reduction="mean"),
            "online, η = 1": trap["≤ 0 (θ = 1)"],
            "mini-batch B = 2, τ = 1": fit_minibatch(X8, y8, batch_size=2, eta=1.0, rng=0)}
    return X8, y8, runs, lambda: [ContourPathPanel(), LossPanel(loss_surfaces.loss_along_run, "perceptron loss L")]


@pytest.mark.browser
@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_lesson_02s_methods_switch_keeps_its_headline_in_a_1280x720_view(switch_page, preset):
    """At a 1280x720 JupyterLab's width (about 1060 px for an output) the choice, the picture, Step and the
    readout's headline lie within the 599 px of the notebook's view: the contour map comes under a tab of the column
    beside the picture (lecture; and notebook, where under the readout it ran below the 720 px window), with the
    headline above it, all in the view; the next run keeps the tab; and every run draws the map on the same axes
    (one box for all their paths)."""
    page = switch_page
    X8, y8, runs, panels = _methods()
    switch = BrowserSwitch(runs, X8, y8, panels=panels(), description="method", style=preset)
    measure = """() => { const r = document.querySelector('#widget');
        const box = (s) => { const b = r.querySelector(s).getBoundingClientRect();
                             return [b.top, b.bottom, b.left, b.right]; };
        const step = [...r.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Step');
        const s = step.getBoundingClientRect();
        return {choice: box('.perceptron-choice'), picture: box('.pp-picture'), step: [s.top, s.bottom],
                head: box('.pp-readout b'), readout: box('.pp-readout'), map: box('.pp-panel-contour'),
                chart: box('.pp-chart-loss')}; }"""
    try:
        page.set_viewport_size({"width": 1280, "height": 720})
        page.evaluate("() => { document.querySelector('main').style.width = '1060px'; }")
        mount(page, switch, SWITCH_STATE)
        m = page.evaluate(measure)
        parts = [m["choice"], m["picture"], m["step"], m["head"]]
        tall = max(p[1] for p in parts) - min(p[0] for p in parts)
        assert tall <= 599, f"{preset}: choice + picture + Step + headline {tall:.0f} px > 599"
        assert m["choice"][2] >= m["picture"][3], "the choice sits beside the picture"
        page.click("#widget [role=tab]:text-is('loss map')")
        m = page.evaluate(measure)
        assert m["map"][2] >= m["picture"][3] and m["map"][0] >= m["head"][1], "the map beside, under the headline"
        parts = [m["choice"], m["picture"], m["step"], m["head"], m["map"]]
        tall = max(p[1] for p in parts) - min(p[0] for p in parts)
        assert tall <= 599, f"{preset}: choice + picture + Step + headline + map {tall:.0f} px > 599"
        maps = set()
        for j in range(len(runs)):
            page.click(f"#widget .perceptron-choice label:nth-of-type({j + 1})")
            maps.add(page.eval_on_selector("#widget .pp-contour .pp-axes", "e => e.outerHTML"))
            assert page.is_visible("#widget .pp-contour"), "the next run keeps the map's tab"
        assert len(maps) == 1, "the map's axes changed with the run"
    finally:
        page.evaluate("() => { document.querySelector('main').style.width = ''; }")
        page.set_viewport_size({"width": 1440, "height": 900})
    print(f"{preset}: choice + picture + Step + headline {tall:.0f} px of 599; map top {m['map'][0]:.0f} px")


@pytest.mark.browser
def test_lesson_02s_methods_switch_steps_in_the_site_with_no_kernel(chromium, tmp_path):
    """Lesson 02 built as ``make site`` builds it, over file:// with every other request blocked: the methods switch
    (the page's second) is live; each method from its start, then End, shows that run's last update (the library's
    words), its map's star at the run's last w, on the same axes for every method. Nothing is fetched."""
    from browser_support import offline_site, open_offline

    X8, y8, runs, _panels = _methods()
    page, out, remote, problems = offline_site(chromium, tmp_path, ("02_subgradients.ipynb",))
    assert open_offline(page, out / "02_subgradients.html") == "ready"
    sw = page.locator(".perceptron-browserswitch").nth(1)
    sw.scroll_into_view_if_needed()
    assert sw.locator(".perceptron-choice legend").inner_text() == "method"
    maps = set()
    for j, (label, run) in enumerate(runs.items()):
        sw.locator(f".perceptron-choice label:nth-of-type({j + 1})").click()
        sw.locator(".pp-picture").focus()
        page.keyboard.press("Home")
        K = len(run.history) - 1
        assert sw.locator(".pp-readout b").inner_text().startswith(f"Start state (update 0 of {K})"), label
        page.keyboard.press("End")
        assert [p.inner_text() for p in sw.locator(".pp-readout p").all()] == state_lines(run, X8, y8, K), label
        assert sw.locator(".pp-contour").get_attribute("aria-label").endswith(f"w at step {K} starred"), label
        maps.add(sw.locator(".pp-contour .pp-axes").evaluate("(e) => e.outerHTML"))
    assert len(maps) == 1, "the map's axes changed with the method"
    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems)
