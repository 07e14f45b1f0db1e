"""Each point editor of the lessons, whole, fits the screen in JupyterLab (issue #30 item 5), in headless Chromium.

A lesson that shows a `BrowserEditor` (00, 03, 04, 05) is run once per preset through the session's JupyterLab
(`course_lab_server`); then every editor, and every player with a lifted view (lesson 05: its turn and tilt
sliders are part of it), is scrolled to its top as a student scrolls to it and measured whole: its controls, its
picture, its readout and the folded parts (the keys, the points as text), from the widget's top to the lowest of
its visible parts (a part in a box that scrolls, the lecture readout, is seen through that box). It must fit the
notebook's view: in the notebook preset at 1440x900 with the file browser open (a 779 px view), in the lecture
preset at 1280x720 with it closed (599 px). The data panel's plot keeps its size: its longer side at least 420
CSS px (notebook) or 360 (lecture). Where the lecture column beside the picture holds a tab picker (a tall panel,
an editor's chart: `controls.js` buildTabs), the widget is measured whole under each of its tabs, and in the lecture
preset with each of its folded parts open (the player's key help opens over the picture).

`test_every_widget_fits_the_lecture_view_whole` measures every browser widget of lessons 00-06 (each player, run
switch, controlled player and editor, from its top: a run switch's choice, a controlled player's settings) whole in
the lecture preset at 1280x720 in the same way, under each of its column's tabs and with each folded part open;
`test_every_widget_fits_the_notebook_view_whole` does so in the notebook preset at 1440x900 (lesson 02's methods
switch was 842 px of 779: its loss map under the readout); every widget is measured at its start and at its run's
end (each run of a run switch), where the readout is longest (01's player: 759 px at its start, 799 at its end);
`test_every_widget_fits_the_lecture_app_whole` does so for every lesson in the app (``COURSE_STYLE=lecture make
app``, a 1280x720 window), one Voila server serving them all (about 90 s for the seven lessons, most of it Voila
running each lesson's cells).

`tests/browser_fit.py` measures every player's picture, Step button and readout headline; this test measures the
widgets' every part, which that one does not (an editor's edit row sits above its player). A screenshot of each
widget measured goes to ``tests/artifacts/editor/fit-<lesson>-<preset>-<i>.png`` (``whole-...`` for every widget).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import browser_checks as bc
from tests import browser_editor as ed
from tests import browser_fit as fit
from tests.browser_support import (  # noqa: F401 (course_lab_server: a fixture, used by name)
    course_lab_server,
    jupyter_server,
    kernel_name,
)

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
#: The lessons with an editor, and the window each preset is measured in (`browser_fit.VIEWS`).
LESSONS = ("00_start_here", "03_hyperplane_updates", "04_margin_bound", "05_kernel_lifting")
VIEW_OF = {"notebook": "lab-1440x900", "lecture": "projector-1280x720"}
#: The data panel's plot, its longer side, CSS px (issue #30 item 5).
LEAST_PANEL_PX = {"notebook": 420, "lecture": 360}
#: The widgets measured whole: the editors, and the players (not inside an editor) with a lifted view.
JS_WIDGETS = """() => [...document.querySelectorAll('.jp-Notebook .perceptron-browsereditor, .jp-Notebook '
  + '.perceptron-browserplayer')].filter((e) => e.matches('.perceptron-browsereditor')
  || (!e.closest('.perceptron-browsereditor') && !!e.querySelector('.pl-lifted')))"""

# The widget, whole: from its top to the lowest bottom of its visible parts; the notebook's view; the data panel.
JS_WHOLE = """(el) => {
  // JupyterLab: the notebook's scroll area; the app (Voila, no JupyterLab shell): the window
  const scroller = document.querySelector('.jp-LabShell')
    && (el.closest('.jp-WindowedPanel-outer') || el.closest('.jp-Notebook'));
  const view = scroller ? scroller.getBoundingClientRect() : {top: 0, bottom: window.innerHeight};
  const r = el.getBoundingClientRect();
  // a part inside a box that scrolls (the lecture readout) is seen through that box: the box counts, not the part
  const clipped = (e) => { for (let a = e.parentElement; a && a !== el; a = a.parentElement)
    if (getComputedStyle(a).overflowY !== 'visible') return true; return false; };
  let bottom = r.top, lowest = '';
  for (const e of el.querySelectorAll('*')) {
    if (!e.checkVisibility() || e.closest('style') || clipped(e)) continue;
    const b = e.getBoundingClientRect();
    if (b.height > 0 && b.bottom > bottom) { bottom = b.bottom; lowest = e.className?.baseVal ?? e.className; }
  }
  const plot = el.querySelector('svg.pp-scene .pp-plot > g.pp-axes rect').getBoundingClientRect();
  return {top: r.top, bottom, lowest: String(lowest), view: [view.top, view.bottom],
          plot: [plot.width, plot.height],
          kind: /perceptron-browser(editor|switch|controlled|player)/.exec(el.className)[1]};
}"""


def measure_whole(page, handle) -> dict:
    """Scroll the widget to the top of the notebook's view and measure it whole (`JS_WHOLE`)."""
    handle.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.evaluate(fit.JS_TWO_FRAMES)
    return handle.evaluate(JS_WHOLE)


def misfits(m: dict, *, preset: str, where: str) -> list[str]:
    """What is wrong with a widget measured by `measure_whole`: an empty list when it fits."""
    out = []
    height, view = m["bottom"] - m["top"], m["view"][1] - m["view"][0]
    if m["top"] < m["view"][0] - 0.5 or m["bottom"] > m["view"][1] + 0.5:
        out.append(f"{where}: the {m['kind']}, whole, is {height:.0f} px tall (lowest part {m['lowest']!r}), "
                   f"from {m['top']:.0f} to {m['bottom']:.0f}: out of the view {view:.0f} px "
                   f"({m['view'][0]:.0f}..{m['view'][1]:.0f})")
    if max(m["plot"]) < LEAST_PANEL_PX[preset] - 0.5:
        out.append(f"{where}: the data panel's plot is {m['plot'][0]:.0f}x{m['plot'][1]:.0f} px, under "
                   f"{LEAST_PANEL_PX[preset]} px ({preset} preset)")
    return out


#: Still too tall: none. Lesson 04's editor (claims chart) and lesson 05's lifted editor in the lecture preset were
#: 685 and 1107 px of a 599 px view (2026-11-26) with the chart or the lifted view in the column or under it; a tab
#: picker of the column (`controls.js` buildTabs) makes them 577-582 px under every tab.
TOO_TALL: set[tuple[str, str]] = set()


def _runs():
    for lesson in LESSONS:
        for preset in VIEW_OF:
            marks = [pytest.mark.xfail(strict=True, reason="too tall yet: see TOO_TALL")] if (
                (lesson, preset) in TOO_TALL) else []
            yield pytest.param(lesson, preset, id=f"{lesson}-{preset}", marks=marks)


#: Every lesson with a browser widget; in the lecture preset each of them is measured whole (issue #30 item 5).
ALL_LESSONS = ("00_start_here", "01_loss_geometry", "02_subgradients", "03_hyperplane_updates", "04_margin_bound",
               "05_kernel_lifting", "06_beyond_separable")
#: Every browser widget of a notebook: an editor, a run switch, a controlled player, and a player in none of them.
JS_EVERY = """() => [...document.querySelectorAll('.jp-Notebook :is(.perceptron-browsereditor, '
  + '.perceptron-browserswitch, .perceptron-browsercontrolled, .perceptron-browserplayer)')].filter((e) =>
  !e.parentElement.closest('.perceptron-browsereditor, .perceptron-browserswitch, .perceptron-browsercontrolled'))"""
#: The lessons with a widget still too tall in the lecture preset at 1280x720: none. Before the lecture column's tabs
#: (2026-11-26) 01's player was 986 px, 02's switches 691 and 1054, 03's controlled 631, a player 607 and the editor
#: 641, 04's player 683, 06's editor 811 and player 732; with them 03's per-epoch player and 04's claims player were
#: still 607 and 612 (the chart, two legends and the readout's 5 lines over the column): a column so crowded puts its
#: chart under a tab (`side.js` fitColumn): 582 and 561 px.
TOO_TALL_LECTURE: set[str] = set()


#: Each run of a widget at its last step: a run switch's choices in turn (the first left last), End on each. The
#: readout is longest there (the run's end said: 01's player was 759 px at its start and 799 at its end, in a 779 px
#: view).
JS_CHOICES = "(e) => [...e.querySelectorAll('.perceptron-choice input')].length"
JS_CHOOSE_AND_END = """([e, j]) => { const inputs = e.querySelectorAll('.perceptron-choice input');
  if (inputs.length) inputs[j].click();
  const end = [...e.querySelectorAll('.pp-controls button')].find((b) => b.textContent.trim() === 'End');
  if (end && !end.disabled) end.click();
  return inputs.length ? inputs[j].closest('label').textContent : ''; }"""
JS_BACK_TO_START = """(e) => { e.querySelector('.perceptron-choice input')?.click();
  [...e.querySelectorAll('.pp-controls button')].find((b) => b.textContent.trim() === 'Reset')?.click(); }"""


def _under_each_tab(page, handle, *, preset: str, where: str, shot: str | None) -> tuple[list[str], list[str]]:
    """Measure the widget whole (`measure_whole`) under each tab of its column's tab picker (a tall panel, an
    editor's chart, a crowded column: `controls.js` buildTabs), the first tab shown again at the end; with `shot`,
    a screenshot under each tab but the first, ``<shot>-tab<t>.png``. Returns (what does not fit, what was
    measured)."""
    problems, shown = [], []
    tabs = handle.query_selector_all(":scope .pp-tabs [role=tab]")
    for t, tab in enumerate(tabs):
        tab.click()
        m = measure_whole(page, handle)
        shown.append(f"tab {tab.text_content()!r}: {m['bottom'] - m['top']:.0f} px")
        problems += misfits(m, preset=preset, where=f"{where}, tab {tab.text_content()!r}")
        if t and shot:
            page.screenshot(path=str(ed.ARTIFACTS / f"{shot}-tab{t}.png"))
    if tabs:
        tabs[0].click()
    return problems, shown


def _measure_widgets(page, widgets_js: str, *, preset: str, label: str, shot: str) -> tuple[list[str], list[str]]:
    """Measure every widget `widgets_js` finds on `page`, whole (`measure_whole`), under each tab of its column and,
    in the lecture preset, with each of its folded parts open in turn (the player's key help opens over the picture;
    an editor's keys and points as text in the column beside it); then each of its runs at its last step (a run
    switch's every choice), under each tab, and back to its first run's start. Returns (what does not fit, what was
    measured); screenshots ``<shot>-<i>[-tab<t>].png`` and ``<shot>-<i>-end[-tab<t>].png`` (the last run's end)."""
    widgets = page.evaluate_handle(widgets_js)
    n = page.evaluate("(ws) => ws.length", widgets)
    assert n, f"{label}: no widget"
    problems, shown = [], []
    ed.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        handle = page.evaluate_handle("([ws, i]) => ws[i]", [widgets, i]).as_element()
        m = measure_whole(page, handle)
        where = f"{label} {m['kind']} {i}"
        shown.append(f"{m['kind']} {i}: {m['bottom'] - m['top']:.0f} of {m['view'][1] - m['view'][0]:.0f} px, "
                     f"plot {max(m['plot']):.0f} px")
        problems += misfits(m, preset=preset, where=where)
        page.screenshot(path=str(ed.ARTIFACTS / f"{shot}-{i}.png"))
        found, said = _under_each_tab(page, handle, preset=preset, where=where, shot=f"{shot}-{i}")
        problems, shown = problems + found, shown + said
        for fold in handle.query_selector_all(":scope details > summary") if preset == "lecture" else []:
            fold.click()
            m = measure_whole(page, handle)
            shown.append(f"{fold.text_content()!r} open: {m['bottom'] - m['top']:.0f} px")
            problems += misfits(m, preset=preset, where=f"{where}, {fold.text_content()!r} open")
            fold.click()
        choices = handle.evaluate(JS_CHOICES)
        for j in [*range(1, choices), 0] if choices else [None]:
            run = page.evaluate(JS_CHOOSE_AND_END, [handle, j or 0])
            named = f"run {run!r} " if run else ""
            end = f"{where}, {named}at its end"
            m = measure_whole(page, handle)
            shown.append(f"{named}at its end: {m['bottom'] - m['top']:.0f} px")
            problems += misfits(m, preset=preset, where=end)
            last = j in (0, None)
            if last:
                page.screenshot(path=str(ed.ARTIFACTS / f"{shot}-{i}-end.png"))
            found, said = _under_each_tab(page, handle, preset=preset, where=end,
                                          shot=f"{shot}-{i}-end" if last else None)
            problems, shown = problems + found, shown + said
        handle.evaluate(JS_BACK_TO_START)
    return problems, shown


#: What does not fit yet, measured: (lesson, preset) -> the kind of widget that runs out of the view at its run's end
#: (only there; the test fails on any other misfit, and when these fit, so that they are taken out). Empty since
#: lesson 05's two editors of lifted points fit in the notebook preset (762 px at their start and 843 px at their end
#: of a 779 px view, 2026-11-27: the readout now keeps its tallest step's height, and the 3-D view under it draws as
#: much smaller as the view asks, to 0.75 of its size: `side.shrinkUnder`).
KNOWN_GAPS: dict = {}


def _measure_lesson(request, lesson: str, preset: str, widgets_js: str, name: str) -> None:
    """Run `lesson` in `preset`, measure every widget `widgets_js` finds whole (under each of its column's tabs),
    and fail with what does not fit; screenshots ``<name>-<lesson>-<preset>-<i>[-tab<t>].png``."""
    lab = request.getfixturevalue("course_lab_server")
    chromium = request.getfixturevalue("chromium")
    nb = f"notebooks/{lesson}.ipynb"
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(bc.WIDGET_TIMEOUT_MS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        bc.open_and_run(page, lab, nb, {}, kernel=kernel_name(preset))
        page.wait_for_function(f"() => {{ const ws = ({widgets_js})(); return ws.length > 0 "
                               "&& ws.every((e) => !!e.querySelector('svg.pp-scene')); }")
        fit.set_view(page, VIEW_OF[preset])
        problems, shown = _measure_widgets(page, widgets_js, preset=preset, shot=f"{name}-{lesson[:2]}-{preset}",
                                           label=f"{nb} [{preset}, {VIEW_OF[preset]}]")
        print(f"{nb} [{preset}]: " + "; ".join(shown))
        kind = KNOWN_GAPS.get((lesson, preset))
        known = [p for p in problems if kind and f"] {kind} " in p and ", at its end:" in p]
        assert not [p for p in problems if p not in known], "\n".join(problems)
        assert known or not kind, f"{nb} [{preset}]: the {kind}s fit at their end now: take them out of KNOWN_GAPS"
        assert not errors, errors
    finally:
        context.close()
        lab.shutdown_kernels()


@pytest.mark.parametrize(("lesson", "preset"), list(_runs()))
def test_each_editor_fits_the_view_whole(lesson, preset, request):
    _measure_lesson(request, lesson, preset, JS_WIDGETS, "fit")


@pytest.mark.parametrize("lesson", [
    pytest.param(lesson, marks=[pytest.mark.xfail(strict=True, reason="too tall yet: see TOO_TALL_LECTURE")]
                 if lesson in TOO_TALL_LECTURE else []) for lesson in ALL_LESSONS])
def test_every_widget_fits_the_lecture_view_whole(lesson, request):
    """Every browser widget of the lesson (player, run switch, controlled player, editor), whole, in the lecture
    preset at 1280x720 with the file browser closed (a 599 px view)."""
    _measure_lesson(request, lesson, "lecture", JS_EVERY, "whole")


@pytest.mark.parametrize("lesson", ALL_LESSONS)
def test_every_widget_fits_the_notebook_view_whole(lesson, request):
    """Every browser widget of the lesson, whole, in the notebook preset at 1440x900 with the file browser open (a
    779 px view), its data panel's plot at least 420 px. Lesson 02's methods switch was 842 px (2026-11-27): its
    contour map stood under the readout, out of view."""
    _measure_lesson(request, lesson, "notebook", JS_EVERY, "whole")


#: The widgets of each lesson in the app (as in the notebook: its players, switches, controlled players and editors).
APP_WIDGETS = {"00_start_here": 2, "01_loss_geometry": 1, "02_subgradients": 2, "03_hyperplane_updates": 4,
               "04_margin_bound": 3, "05_kernel_lifting": 3, "06_beyond_separable": 3}


@pytest.fixture(scope="module")
def lecture_app():
    """One app server for every lesson: Voila as ``COURSE_STYLE=lecture make app`` starts it (the
    ``course_app_lecture`` template, the course's Voila configuration), serving notebooks/."""
    env = {"JUPYTER_PATH": str(REPO / "tools" / "jupyter"),
           "JUPYTER_CONFIG_PATH": str(REPO / "tools" / "jupyter" / "config"), "COURSE_STYLE": "lecture"}
    with jupyter_server(REPO / "notebooks", app="voila", env=env, extra_args=["--template=course_app_lecture"],
                        timeout=90) as srv:
        yield srv


@pytest.mark.parametrize("lesson", ALL_LESSONS)
def test_every_widget_fits_the_lecture_app_whole(lesson, lecture_app, chromium):
    """The lesson in the app as ``COURSE_STYLE=lecture make app NB=..`` serves it (Voila, the ``course_app_lecture``
    template) in a 1280x720 window: every widget, whole, in the window, under each tab of its column and with each
    folded part open (`_measure_widgets`, as in JupyterLab). One Voila server serves every lesson (`lecture_app`)."""
    every = JS_EVERY.replace(".jp-Notebook ", "")
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(lecture_app.voila_url(f"{lesson}.ipynb"), timeout=240_000)
        # Voila draws the widgets one by one as their outputs come: wait for all the lesson has, each drawn (the
        # count taken once the first was drawn said 1 of 04's 3 in a busy CI)
        page.wait_for_function(f"() => {{ const ws = ({every})(); return ws.length >= {APP_WIDGETS[lesson]} "
                               "&& ws.every((e) => !!e.querySelector('svg.pp-scene')); }", timeout=240_000)
        n = page.evaluate(f"() => ({every})().length")
        problems, shown = _measure_widgets(page, every, preset="lecture", label=f"app {lesson}",
                                           shot=f"app-{lesson[:2]}-lecture")
        print(f"app {lesson} [lecture]: " + "; ".join(shown))
        assert n == APP_WIDGETS[lesson], f"app {lesson}: {n} widgets, not {APP_WIDGETS[lesson]}"
        assert not problems, "\n".join(problems)
        assert not errors, errors
    finally:
        context.close()
