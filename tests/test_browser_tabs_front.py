"""The tab picker of the lecture player's column (``front/controls.js`` `buildTabs`, placed by ``player.js``), in
Chromium with the model stand-in of ``test_browser_player_front`` (no kernel, nothing fetched).

In the lecture preset a tall panel (lesson 05's lifted view, the loss maps of 01 and 02) does not fit under the
readout in a 1280x720 JupyterLab, nor beside the picture as a third column: the column beside the picture gets a
tab list, "readout" (the legend and the readout, as before) and one tab per panel; an editor's charts (04's claims)
go there too. A deck's slide is wider: there a plain player's tall panel is a third column (`panelPlaces`, checked
here with the rest of its rules). A plain player's chart that leaves its readout no room in the column (03's per-epoch
chart, 04's claims: the column ran below a 1280x720 view) goes under a tab too (`fitColumn`: `crowded`), and comes
out of it again when the widget's width changes so that it fits (a wider window, the file browser closed). Checked
here: the ARIA of a tab list (tabs, tabpanels, aria-selected, aria-controls, one Tab stop), that a panel's tab
shows the panel and of the readout only its headline (which still follows the step), the keys (← → Home End move
between the tabs and do not step the player), that a new run of the same panels keeps the tab shown, that the
notebook preset has no tabs, and that axe-core finds nothing serious under either tab.
"""

from __future__ import annotations

import pytest

from tests.test_lifted_front import _lifted_player_trait

pytestmark = pytest.mark.browser

JS_SEEN = """() => {
  const w = document.querySelector('#widget');
  const seen = (sel) => [...w.querySelectorAll(sel)].filter((e) => e.checkVisibility()).length;
  const tabs = [...w.querySelectorAll('[role=tab]')];
  return {
    tabs: tabs.map((t) => [t.textContent, t.getAttribute('aria-selected'), t.tabIndex]),
    controls: tabs.map((t) => !!document.getElementById(t.getAttribute('aria-controls'))),
    lifted: seen('.pl-lifted svg'), legend: seen('.pp-side > .pp-legend'),
    lines: seen('.pp-readout p'), headline: w.querySelector('.pp-readout p b')?.textContent,
    headlineSeen: seen('.pp-readout p:first-child'),
    panels: [...w.querySelectorAll('[role=tabpanel]')].map((p) => [p.hidden,
      document.getElementById(p.getAttribute('aria-labelledby'))?.textContent]),
  };
}"""


@pytest.fixture(scope="module")
def page(chromium):
    from test_browser_player_front import front_page

    yield from front_page(chromium, width=1280, height=720)


def _mount(page, name, k=0):
    trait = _lifted_player_trait(name)
    page.evaluate("([run, k]) => window.mount({run, k, interval_ms: 500})", [trait, k])
    return trait


def test_a_lecture_player_with_a_tall_panel_shows_it_under_a_tab_and_keeps_the_headline(page):
    trait = _mount(page, "five points")
    s = page.evaluate(JS_SEEN)
    assert s["tabs"] == [["readout", "true", 0], ["3-D view", "false", -1]] and all(s["controls"])
    assert s["panels"] == [[True, "3-D view"]]
    assert s["lifted"] == 0 and s["legend"] == 1 and s["lines"] == len(trait["lines"][0]) > 1
    page.click("#widget [role=tab]:text-is('3-D view')")
    s = page.evaluate(JS_SEEN)
    assert s["tabs"] == [["readout", "false", -1], ["3-D view", "true", 0]] and s["panels"] == [[False, "3-D view"]]
    assert s["lifted"] == 1 and s["legend"] == 0 and s["lines"] == 1 and s["headlineSeen"] == 1
    assert s["headline"] == trait["lines"][0][0]
    page.click("#widget button:text-is('Step')")  # the headline under the panel's tab follows the step
    s = page.evaluate(JS_SEEN)
    assert s["headline"] == trait["lines"][1][0] and s["lines"] == 1 and s["lifted"] == 1
    # the keys of a tab list: they move between the tabs and leave the player's step alone
    page.focus("#widget [role=tab][aria-selected=true]")
    for key, want in (("ArrowLeft", "readout"), ("ArrowLeft", "3-D view"), ("Home", "readout"), ("End", "3-D view"),
                      ("ArrowRight", "readout")):
        page.keyboard.press(key)
        picked = page.evaluate("() => document.activeElement.getAttribute('aria-selected') === 'true' "
                               "&& document.activeElement.textContent")
        assert picked == want, key
    assert page.evaluate("() => window.model.get('k')") == 1
    # a new run of the same panels (an edit, a run switch of one widget) keeps the tab shown
    page.click("#widget [role=tab]:text-is('3-D view')")
    page.evaluate("(run) => window.model.fromPython('run', {...run})", trait)
    s = page.evaluate(JS_SEEN)
    assert s["tabs"][1][1] == "true" and s["lifted"] == 1 and s["lines"] == 1


def test_the_notebook_preset_has_no_tabs(page):
    _mount(page, "05 rings")
    s = page.evaluate(JS_SEEN)
    assert s["tabs"] == [] and s["lifted"] == 1 and s["legend"] == 0  # the notebook legend is under the picture


@pytest.mark.parametrize("tab", ["readout", "3-D view"])
def test_axe_finds_nothing_serious_under_either_tab(page, tab):
    from test_a11y import blocking_violations

    _mount(page, "five points", k=2)
    page.click(f"#widget [role=tab]:text-is('{tab}')")
    found = blocking_violations(page, "document.querySelector('main')")
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("where", "want"), [
    ({"large": True, "inEditor": False, "inSwitch": False, "inDeck": False}, ["tabbed", "tabbed"]),
    ({"large": True, "inEditor": False, "inSwitch": False, "inDeck": True}, ["beside", "after"]),
    ({"large": True, "inEditor": False, "inSwitch": True, "inDeck": True}, ["tabbed", "tabbed"]),
    ({"large": True, "inEditor": True, "inSwitch": False, "inDeck": True}, ["tabbed", "tabbed"]),
    ({"large": False, "inEditor": True, "inSwitch": False, "inDeck": False}, ["beside", "under"]),
    ({"large": True, "inEditor": False, "inSwitch": False, "inDeck": True, "crowded": True}, ["tabbed", "tabbed"]),
    ({"large": False, "inEditor": False, "inSwitch": True, "inDeck": False}, ["beside", "under"]),
    ({"large": False, "inEditor": False, "inSwitch": True, "inDeck": False, "crowded": True}, ["beside", "tabbed"]),
], ids=["lecture", "lecture deck", "lecture deck switch", "lecture deck editor", "notebook editor",
        "lecture deck crowded", "notebook switch", "notebook crowded"])
def test_where_the_panels_go(page, where, want):
    """`panelPlaces`: a chart and a tall panel (the loss map); in a deck a plain player's tall panel is a third column
    (the deck's CSS), all in view; an editor's and a switch's go under tabs there too. In the notebook preset the map
    goes after the readout, and under a tab where that column runs below the window (`crowded`), the chart beside."""
    got = page.evaluate("""(where) => {
        const chart = {el: 'chart'}, map = {el: 'map', tall: true, underReadout: true};
        const p = window.front.panelPlaces([chart, map], where);
        return [chart, map].map((x) => p.tabbed.includes(x) ? 'tabbed' : ['under', 'after', 'beside']
            .find((k) => p[k].includes(x.el)));
    }""", where)
    assert got == want


def test_an_editors_chart_goes_under_a_tab_but_a_lecture_players_chart_stays_beside(page):
    where = {"large": True, "inSwitch": False, "inDeck": False}
    got = [page.evaluate("(where) => window.front.panelPlaces([{el: 'chart'}], where).tabbed.length", {**where,
                                                                                                   "inEditor": e})
           for e in (True, False)]
    assert got == [1, 0]


def _epoch_player_trait(style):
    """Lesson 03's player of the run without offset on its six points, with the per-epoch chart."""
    from perceptron_lib.core import data
    from perceptron_lib.core.training import fit_perceptron
    from perceptron_lib.player.browser import BrowserPlayer
    from perceptron_lib.player.panels.updates import EpochPanel

    X, y = data.no_origin_separator()
    run = fit_perceptron(X, y, fit_bias=False)
    return BrowserPlayer(run, X, y, panels=[EpochPanel()], style=style).get_state()["run"]


JS_COLUMN = """() => { const w = document.querySelector('#widget');
  const side = w.querySelector('.pp-side'), fig = w.querySelector('.pp-figure');
  const low = Math.max(...[...side.children].filter((e) => e.checkVisibility())
    .map((e) => e.getBoundingClientRect().bottom));
  return {tabs: [...w.querySelectorAll('[role=tab]')].map((t) => t.textContent),
          over: low - Math.max(fig.getBoundingClientRect().bottom, side.getBoundingClientRect().top + 540),
          readout: [side.querySelector('.pp-readout').getAttribute('role'),
                    side.querySelector('.pp-readout').tabIndex]}; }"""


def test_a_lecture_players_chart_that_crowds_its_column_goes_under_a_tab(page):
    """Lesson 03's per-epoch chart, its legend, the data legend and the readout (at least 5 lines) do not fit beside
    the 360 px data panel: the chart gets a tab, and the column ends where the picture does (or 540 px under its top);
    the readout is a focusable named region. Keys and axe under the chart's tab as under the readout's."""
    from test_a11y import blocking_violations

    # an output 1050 px wide, its text 13 px as in JupyterLab: a column of 518 px, where the chart (drawn 520 px wide)
    # and the two legends, each of three lines, leave the readout less than its 5em (1100 px, JupyterLab's at 1280x720,
    # leaves it room: test_the_chart_follows_the_widgets_width)
    page.evaluate("() => { const m = document.querySelector('main'); m.style.width = '1050px'; "
                  "m.style.fontSize = '13px'; }")
    page.evaluate("(run) => window.mount({run, k: 0, interval_ms: 500})", _epoch_player_trait("lecture"))
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    c = page.evaluate(JS_COLUMN)
    assert c["tabs"] == ["readout", "chart"] and c["over"] <= 0.5 and c["readout"] == ["region", 0], c
    page.click("#widget [role=tab]:text-is('chart')")
    c = page.evaluate(JS_COLUMN)
    assert c["over"] <= 0.5, c
    assert page.evaluate("() => document.querySelector('#widget .pp-panel').checkVisibility()")
    page.focus("#widget [role=tab][aria-selected=true]")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.textContent") == "readout"
    assert page.evaluate("() => window.model.get('k')") == 0
    found = blocking_violations(page, "document.querySelector('main')")
    page.evaluate("() => { const m = document.querySelector('main'); m.style.width = m.style.fontSize = ''; }")
    assert not found, "\n".join(found)


JS_PLACED = """() => { const w = document.querySelector('#widget'), a = document.activeElement;
  return {tabs: [...w.querySelectorAll('[role=tab]')].map((t) => t.textContent
            + (t.getAttribute('aria-selected') === 'true' ? '*' : '')),
          beside: !!w.querySelector('.pp-side > .pp-panel') && w.querySelector('.pp-panel').checkVisibility(),
          focus: a.getAttribute('role') === 'tab' ? `tab ${a.textContent}` : a.className || a.tagName}; }"""
# how many times the column's children were placed again since `count` was set: a layout loop would keep placing them
JS_COUNT_MOVES = """() => { window.moves = 0; const side = document.querySelector('#widget .pp-side');
  window.counter?.disconnect(); window.counter = new MutationObserver((m) => { window.moves += m.length; });
  window.counter.observe(side, {childList: true}); }"""
JS_SETTLE = "() => new Promise((r) => { let n = 0; const f = () => (++n < 10 ? requestAnimationFrame(f) : r()); f(); })"


def test_the_chart_follows_the_widgets_width(page):
    """The lecture column's panels follow the widget's width (`side.js` fitColumn, a ResizeObserver on the widget's
    element): lesson 03's per-epoch chart crowds a 518 px column (an output 1050 px wide, text 13 px) and goes under a
    tab; the viewport made wider (the file browser closed, the page zoomed out: the column 748 px) brings it beside the
    picture again, the readout keeping its 5em; narrower again puts it back under its tab. The focus on the chart's
    tab, when the tab goes, moves to the readout; the tab chosen is chosen again when the tabs come back. A width
    within `RETRY_PX` of the last change places nothing again, and nothing is placed again once settled (no loop)."""
    page.evaluate("() => { document.querySelector('main').style.fontSize = '13px'; }")
    try:
        page.set_viewport_size({"width": 1066, "height": 720})  # main: 1050 px (the body's 8 px margins)
        page.evaluate("(run) => window.mount({run, k: 0, interval_ms: 500})", _epoch_player_trait("lecture"))
        page.evaluate(JS_SETTLE)
        assert page.evaluate(JS_PLACED) == {"tabs": ["readout*", "chart"], "beside": False, "focus": "BODY"}
        page.click("#widget [role=tab]:text-is('chart')")
        page.focus("#widget [role=tab][aria-selected=true]")
        page.evaluate(JS_COUNT_MOVES)
        page.set_viewport_size({"width": 1296, "height": 720})
        page.evaluate(JS_SETTLE)
        assert page.evaluate(JS_PLACED) == {"tabs": [], "beside": True, "focus": "pp-readout"}
        c = page.evaluate(JS_COLUMN)
        assert c["over"] <= 0.5, c
        assert page.evaluate("() => document.querySelector('#widget .pp-readout').clientHeight") >= 5 * 19.2 - 0.5
        moved = page.evaluate("() => window.moves")
        page.evaluate(JS_SETTLE)
        assert page.evaluate("() => window.moves") == moved  # settled: nothing placed again
        page.set_viewport_size({"width": 1066, "height": 720})
        page.evaluate(JS_SETTLE)
        assert page.evaluate(JS_PLACED) == {"tabs": ["readout", "chart*"], "beside": False, "focus": "pp-readout"}
        assert page.evaluate(JS_COLUMN)["over"] <= 0.5
        page.focus("#widget [role=tab][aria-selected=true]")
        page.evaluate(JS_COUNT_MOVES)
        page.set_viewport_size({"width": 1096, "height": 720})  # 30 px wider: under RETRY_PX, nothing is tried
        page.evaluate(JS_SETTLE)
        assert page.evaluate("() => window.moves") == 0
        assert page.evaluate(JS_PLACED) == {"tabs": ["readout", "chart*"], "beside": False, "focus": "tab chart"}
        assert page.evaluate("() => window.model.get('k')") == 0
    finally:
        page.evaluate("() => { window.counter?.disconnect(); document.querySelector('main').style.fontSize = ''; }")
        page.set_viewport_size({"width": 1280, "height": 720})


JS_KEEPING_FOCUS = """() => {
  const {buildTabs, keepingFocus} = window.front;
  const main = document.querySelector('main');
  const root = document.createElement('div'), side = document.createElement('div');
  root.className = 'perceptron-browserplayer';
  const readout = document.createElement('div');
  readout.className = 'pp-readout';
  readout.tabIndex = 0;
  side.append(readout);
  root.append(side);
  main.replaceChildren(root);
  const chart = () => { const el = document.createElement('div'); el.className = 'pp-panel'; return el; };
  const keep = document.createElement('div');
  let tabs = null;
  const place = (tabbed) => {
    for (const part of tabs?.parts ?? []) part.remove();
    side.querySelectorAll(':scope > .pp-panel').forEach((e) => e.remove());
    const names = {id: 't', first: 'readout', keep};
    tabs = tabbed ? buildTabs(document, side, readout, [{el: chart(), name: 'chart'}], names) : null;
    if (!tabbed) side.prepend(chart());
  };
  const focused = () => { const a = document.activeElement;
    return a.getAttribute('role') === 'tab' ? `tab ${a.textContent}` : a.className || a.tagName; };
  const out = [];
  place(true);
  side.querySelector("[role='tab']:nth-child(2)").click();
  side.querySelector("[role='tab']:nth-child(2)").focus();
  keepingFocus(root, () => { place(false); place(true); }); // tried beside, back under the tabs: the same tab again
  out.push(focused());
  keepingFocus(root, () => place(false)); // the tabs gone: the chart the tab showed has nothing focusable
  out.push(focused());
  keepingFocus(root, () => place(true)); // the readout is not moved: it keeps the focus
  out.push(focused());
  main.replaceChildren();
  return out;
}"""


def test_keeping_focus_across_a_relayout(page):
    """`side.js` keepingFocus: a focused tab made again (the panels tried beside the picture and put back under their
    tabs) takes the focus back; a tab that is gone hands it to what it showed (a chart with nothing focusable: the
    readout); an element that was not moved keeps it."""
    assert page.evaluate(JS_KEEPING_FOCUS) == ["tab chart", "pp-readout", "pp-readout"]


def test_the_notebook_preset_keeps_the_chart_in_the_column(page):
    page.evaluate("(run) => window.mount({run, k: 0, interval_ms: 500})", _epoch_player_trait("notebook"))
    assert page.evaluate("() => document.querySelectorAll('#widget [role=tab]').length") == 0
    assert page.evaluate("() => document.querySelector('#widget .pp-side > .pp-panel').checkVisibility()")
