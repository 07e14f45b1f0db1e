"""The live deck (jupyterlab-slideshow) in the lecture session, as `make lecture` starts it (issue 22, items 12-15).

One real `make lecture NB=03` session (the same as `COURSE_STYLE=lecture make lab`) in Chromium at 1280x720:
lesson 03 is run, the deck started, and then

* the player's slide fits the screen: picture, Step button and readout within 720 px, no code shown, the
  buttons and the readout at 18 px or more (item 12), the readout's box ending on a whole line (tester 3, item 15);
* the picture keeps only the keys the player uses: with the pointer on it, the right arrow steps the player
  and leaves the slide where it is, Ctrl-Shift-C opens JupyterLab's palette, Tab moves focus out, and Escape
  stops the deck; on the editor's slide, with its keyboard cursor shown, the arrows move the cursor and Escape
  hides it first (item 13);
* the session's deck and saves touch neither the user's JupyterLab settings (the next session opens out of
  deck mode) nor the course's notebooks, which stay byte-identical (items 14 and 15);
* and `make lab` itself, on user settings where a deck was left on (``"active": true``), starts out of deck
  mode and keeps the user's other deck settings (item 14).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from pathlib import Path

import pytest
from browser_support import JS_ALL_CELLS_RAN, JS_KERNEL_IDLE, jupyter_server

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts"
LESSON = next(p.name for p in sorted((REPO / "notebooks").glob("03_*.ipynb")))
ON_SLIDE = ".jp-deck-mod-visible .perceptron-browsercontrolled"  # the lesson's main player (settings beside it)
# 'Your own data': the editor (drawn in SVG) on the slide shown, its picture in the 1280x720 screen
JS_EDITOR_SHOWN = """() => { const e = document.querySelector('.perceptron-browsereditor .pp-picture');
  const r = e && e.checkVisibility({visibilityProperty: true}) ? e.getBoundingClientRect() : null;
  return !!r && r.width > 0 && r.top >= 0 && r.top < 720; }"""
IN_DECK = "() => document.body.dataset.jpDeckMode === 'presenting'"

# the player on the deck's visible slide: bottoms of its picture, Step button and readout (its box: it scrolls in
# the column beside the picture), their font sizes, and the code inputs shown on the slide
JS_SLIDE = """() => {
  const p = document.querySelector('.jp-deck-mod-visible .perceptron-browsercontrolled');
  const step = [...p.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Step');
  const readout = p.querySelector('.pp-readout');
  const inputs = [...document.querySelectorAll('.jp-deck-mod-visible.jp-CodeCell .jp-InputArea')]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().height > 0);
  const img = p.querySelector('.pp-picture').getBoundingClientRect();
  const plot = p.querySelector('svg.pp-scene .pp-plot > g.pp-axes rect').getBoundingClientRect();
  return {picture: img.bottom, pictureHeight: img.height, plot: Math.max(plot.width, plot.height),
          step: step.getBoundingClientRect().bottom,
          readout: readout.getBoundingClientRect().bottom, stepFont: parseFloat(getComputedStyle(step).fontSize),
          readoutFont: parseFloat(getComputedStyle(readout).fontSize), codeShown: inputs.length,
          readoutBox: readout.clientHeight, scrolls: readout.scrollHeight > readout.clientHeight + 1,
          line: parseFloat(getComputedStyle(readout.querySelector('p')).lineHeight)};
}"""

# the first line of each code input on the deck's visible slide (a cell tagged slide-show-code shows its code: its
# jupyterlab-fonts style wins over overrides.json's rule that hides every input while presenting)
JS_CODE_SHOWN = """() => [...document.querySelectorAll('.jp-deck-mod-visible.jp-CodeCell .jp-InputArea')]
  .filter((e) => e.getClientRects().length && e.getBoundingClientRect().height > 0)
  .map((e) => e.querySelector('.cm-content')?.innerText.trim().split('\\n')[0] ?? '')"""

# the notebook's view in the session, before the deck: the height of its scroll area, and whether the status bar shows
JS_NOTEBOOK_VIEW = """() => {
  const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  const scroller = nb.closest('.jp-WindowedPanel-outer') || nb;
  const bar = document.getElementById('jp-main-statusbar');
  return {height: scroller.getBoundingClientRect().height, statusBar: !!bar && bar.checkVisibility()};
}"""


def _digests() -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((REPO / "notebooks").glob("*.ipynb"))}


def _point_at(page, picture) -> None:
    """Move the pointer off the picture, then onto it, and give it the focus (as Tab would): the picture takes its
    keys while it has the pointer or the focus (and never takes the focus by itself)."""
    page.mouse.move(2, 2)
    picture.hover()
    picture.focus()
    page.wait_for_function("(el) => document.activeElement === el", arg=picture.element_handle(), timeout=5_000)


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def _slideshow_settings(settings_dir: Path) -> list[dict]:
    return [json.loads(re.sub(r"^\s*//.*$", "", f.read_text(), flags=re.MULTILINE) or "{}")
            for f in settings_dir.glob("jupyterlab-slideshow/*.jupyterlab-settings")]


@pytest.fixture(scope="module")
def lecture(tmp_path_factory, chromium):
    """`make lecture NB=03` (the venv is not rebuilt), with the user's JupyterLab settings in a folder of the test;
    lesson 03 run, the deck started on its first player's slide. Yields (page, server, user settings, digests)."""
    user_settings = tmp_path_factory.mktemp("user-settings")
    before = _digests()
    args = "--no-browser --port={port} --port-retries=0 --ServerApp.token={token} --expose-app-in-browser"
    argv = ["make", "-s", "-o", ".venv/.installed", "lecture", "NB=03", f"PYTHON={sys.executable}", f"ARGS={args}"]
    env = {"JUPYTERLAB_SETTINGS_DIR": str(user_settings)}
    # the session's one Playwright (conftest): a second sync Playwright in one process cannot start
    with jupyter_server(REPO, argv=argv, env=env, timeout=120) as srv:
        context = chromium.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        path = f"notebooks/{LESSON}"
        page.goto(srv.lab_url(path))
        page.wait_for_function(JS_KERNEL_IDLE, arg=path, timeout=120_000, polling=200)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(JS_ALL_CELLS_RAN, timeout=240_000, polling=500)
        page.locator(".jp-Notebook .jp-Cell").first.click()
        view = page.evaluate(JS_NOTEBOOK_VIEW)
        page.evaluate("() => window.jupyterapp.commands.execute('deck:start')")
        page.wait_for_function(IN_DECK, timeout=10_000)
        code = []  # the first line of each code input shown on a slide, on the way to the player
        for _ in range(200):
            code += [line for line in page.evaluate(JS_CODE_SHOWN) if line not in code]
            if page.locator(ON_SLIDE).count():
                break
            page.evaluate("() => window.jupyterapp.commands.execute('deck:forward')")
            page.wait_for_function("() => document.querySelector('.jp-deck-mod-visible') !== null", timeout=5_000)
        assert page.locator(ON_SLIDE).count(), "no slide of the deck shows a player"
        page.locator(f"{ON_SLIDE} .pp-picture svg").first.wait_for(state="visible", timeout=10_000)
        yield {"page": page, "server": srv, "user_settings": user_settings, "before": before, "errors": errors,
               "view": view, "code": code}
        context.close()


def test_the_players_slide_fits_1280x720_without_code_and_with_large_controls(lecture):
    page = lecture["page"]
    # the slide is laid out once the deck's styles and the widgets' sizes have settled
    page.wait_for_function(f"() => ({JS_SLIDE})().picture <= 720", timeout=10_000)
    fit = page.evaluate(JS_SLIDE)
    _shot(page, "live_deck_lecture_player_slide.png")
    assert fit["codeShown"] == 0, fit
    assert max(fit["picture"], fit["step"], fit["readout"]) <= 720, fit
    assert fit["pictureHeight"] >= 250, fit  # scaled to fit, still a picture one reads from the back of the room
    assert fit["stepFont"] >= 18 and fit["readoutFont"] >= 18, fit
    # the readout scrolls in its box, which ends on a whole line: a line cut in half at the slide's foot looked broken
    # from the room (tester 3, item 15: "Mistakes now: 40 of 40, the points the current" cut mid-line)
    lines = fit["readoutBox"] / fit["line"]
    assert not fit["scrolls"] or abs(lines - round(lines)) * fit["line"] <= 1, fit
    assert fit["plot"] >= 360 - 0.5, fit  # the data panel at the lecture preset's 360 CSS px (issue #30 item 5)


def test_the_deck_shows_the_code_of_the_cells_tagged_slide_show_code_only(lecture):
    """Code stays off the live deck's slides, as off the exported decks, but the code of a cell tagged
    slide-show-code (lesson 03's perceptron in plain Python, on a slide before the player's): it carries the
    jupyterlab-fonts style that shows its input (tests/test_deck_prose.py checks every tagged cell has it)."""
    nb = json.loads((REPO / "notebooks" / LESSON).read_text(encoding="utf-8"))
    tagged = [c["source"][0].strip() for c in nb["cells"] if "slide-show-code" in c["metadata"].get("tags", [])]
    assert tagged and lecture["code"] == tagged, lecture["code"]


def test_the_lecture_session_gives_the_notebook_the_room_of_the_status_bar(lecture):
    """`make lecture` hides JupyterLab's status bar (tools/jupyter/lab/lecture.json): at 1280x720 the notebook's view
    is 623 px, not 599 (test_editor_fit measures every lecture widget in the 599 px view: 528-592 px)."""
    view = lecture["view"]
    print(f"make lecture at 1280x720: the notebook's view {view['height']:.0f} px, "
          f"status bar shown: {view['statusBar']}")
    assert not view["statusBar"] and view["height"] >= 620, view


def test_a_remotes_page_keys_turn_the_slide_even_with_the_picture_focused(lecture):
    """A presenter's remote sends Page Down and Page Up: the deck goes on and back (overrides.json binds them to
    deck:forward and deck:back while presenting), also after a click left the focus on the player's picture."""
    page = lecture["page"]
    picture = page.locator(ON_SLIDE).first.locator(".pp-picture").first
    _point_at(page, picture)
    page.mouse.move(2, 2)
    page.keyboard.press("PageDown")
    page.wait_for_function(f"() => !document.querySelector('{ON_SLIDE}')", timeout=5_000)
    assert page.evaluate(IN_DECK)
    page.keyboard.press("PageUp")
    page.wait_for_function(f"() => !!document.querySelector('{ON_SLIDE}')", timeout=5_000)
    assert page.evaluate(IN_DECK)


def test_the_picture_keeps_only_its_keys_and_escape_stops_the_deck(lecture):
    page = lecture["page"]
    player = page.locator(ON_SLIDE).first
    picture = player.locator(".pp-picture").first
    readout = player.locator(".pp-readout").first
    _point_at(page, picture)
    before = readout.inner_text()
    page.keyboard.press("ArrowRight")  # the player's key: one step, and the deck stays on this slide
    page.wait_for_function("([el, b]) => el.innerText !== b", arg=[readout.element_handle(), before], timeout=10_000)
    assert page.evaluate(IN_DECK) and page.locator(ON_SLIDE).count()

    page.keyboard.press("Control+Shift+C")  # not the player's: JupyterLab's command palette opens
    page.wait_for_selector("#modal-command-palette .lm-CommandPalette-input", state="visible", timeout=5_000)
    page.keyboard.press("Escape")
    page.wait_for_selector("#modal-command-palette", state="hidden", timeout=5_000)

    _point_at(page, picture)
    page.keyboard.press("Tab")  # Tab moves focus on, out of the picture
    page.wait_for_function("(el) => document.activeElement !== el", arg=picture.element_handle(), timeout=5_000)

    # on to the editor's slide ('Your own data'), as the lecturer goes on
    page.mouse.move(2, 2)
    for _ in range(100):
        if page.evaluate(JS_EDITOR_SHOWN):
            break
        page.evaluate("() => window.jupyterapp.commands.execute('deck:forward')")
        page.wait_for_function("() => document.querySelector('.jp-deck-mod-visible') !== null", timeout=5_000)
    editor = page.locator(".perceptron-browsereditor").first
    where = page.evaluate("""() => ({
      cell: document.querySelector('.perceptron-browsereditor')?.closest('.jp-Cell')?.className,
      shown: [...document.querySelectorAll('.jp-deck-mod-visible')].map((e) => e.innerText.slice(0, 80))})""")
    assert page.evaluate(JS_EDITOR_SHOWN), f"no slide of the deck shows the editor: {where}"
    # the editor's keyboard cursor (a cross drawn in its SVG picture) takes Escape: it hides the cursor; then
    # Escape is JupyterLab's again
    editor.locator("button", has_text="Keyboard cursor").click()
    message = editor.locator(".pe-message")
    page.wait_for_function("(el) => el.innerText.includes('Keyboard cursor at the centre')",
                           arg=message.element_handle(), timeout=10_000)  # fmt: skip
    picture = editor.locator(".pp-picture").first
    _point_at(page, picture)
    cx = editor.locator(".pe-cursor-row input").first  # the cursor's x₁ box
    at = cx.input_value()
    page.keyboard.press("ArrowRight")  # the cursor's key: the cross moves right, the deck stays
    page.wait_for_function("([el, v]) => el.value !== v", arg=[cx.element_handle(), at], timeout=5_000)
    assert page.evaluate(IN_DECK) and page.evaluate(JS_EDITOR_SHOWN)
    page.keyboard.press("Escape")
    page.wait_for_function("(el) => el.innerText.includes('Keyboard cursor hidden')",
                           arg=message.element_handle(), timeout=10_000)  # fmt: skip
    assert page.evaluate(IN_DECK), "Escape hid the editor's cursor and also stopped the deck"
    _shot(page, "live_deck_lecture_before_escape.png")
    page.keyboard.press("Escape")  # the pointer is still on the picture: the deck stops from the keyboard
    page.wait_for_function("() => document.body.dataset.jpDeckMode === undefined", timeout=5_000)
    _shot(page, "live_deck_lecture_after_escape.png")
    assert not lecture["errors"], lecture["errors"]


def test_a_lecture_session_leaves_the_course_files_and_the_users_settings_as_they_were(lecture, tmp_path):
    page, srv = lecture["page"], lecture["server"]
    copy = Path(re.search(r"a copy of the lessons in (\S+)", srv.log()).group(1))
    assert copy.is_dir() and not copy.resolve().is_relative_to(REPO.resolve()), copy
    stamp = (copy / "notebooks" / LESSON).stat().st_mtime_ns
    page.evaluate("() => window.jupyterapp.commands.execute('deck:start')")  # deck mode on while saving
    page.wait_for_function(IN_DECK, timeout=10_000)
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    deadline = time.monotonic() + 30
    while (copy / "notebooks" / LESSON).stat().st_mtime_ns == stamp and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert (copy / "notebooks" / LESSON).stat().st_mtime_ns != stamp, "the save did not reach the session's copy"
    assert _digests() == lecture["before"], "the lecture session changed the course's notebooks"
    assert all(s.get("active") is not True for s in _slideshow_settings(lecture["user_settings"]))

    # the next session, started as `make lab` starts it on the same user settings, opens out of deck mode
    with jupyter_server(REPO / "notebooks", app="lab", timeout=90,
                        extra_args=[f"--LabApp.user_settings_dir={lecture['user_settings']}"]) as nxt:  # fmt: skip
        page2 = page.context.browser.new_page(viewport={"width": 1280, "height": 720})
        page2.goto(nxt.lab_url("00_start_here.ipynb"))
        page2.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        # what jupyterlab-slideshow reads at start: its user settings, as this session's server gives them
        assert nxt.api("GET", "lab/api/settings/jupyterlab-slideshow:plugin")["settings"].get("active") is not True
        assert page2.evaluate("() => document.body.dataset.jpDeckMode === undefined")
        page2.close()


def test_make_lab_starts_out_of_deck_mode_after_a_deck_was_left_on(tmp_path, chromium):
    """A deck left on in the last session (jupyterlab-slideshow's "active" in the user settings, which wins
    over any override): `make lab` starts out of deck mode, and the user's other deck setting stays."""
    user_settings = tmp_path / "user-settings"
    (user_settings / "jupyterlab-slideshow").mkdir(parents=True)
    left_on = {"active": True, "showCodeCellPrompt": True}
    (user_settings / "jupyterlab-slideshow" / "plugin.jupyterlab-settings").write_text(json.dumps(left_on))
    args = "--no-browser --port={port} --port-retries=0 --ServerApp.token={token} --expose-app-in-browser"
    copy = tmp_path / "my-course"  # the student's own copy of the lessons, which `make lab` serves
    argv = ["make", "-s", "-o", ".venv/.installed", "lab", f"PYTHON={sys.executable}", f"COPY={copy}", f"ARGS={args}"]
    env = {"JUPYTERLAB_SETTINGS_DIR": str(user_settings)}
    with jupyter_server(REPO, argv=argv, env=env, timeout=120) as srv:
        # what jupyterlab-slideshow reads at start: its user settings, as the session's server gives them
        settings = srv.api("GET", "lab/api/settings/jupyterlab-slideshow:plugin")["settings"]
        assert settings.get("active") is not True and settings.get("showCodeCellPrompt") is True, settings
        page = chromium.new_page(viewport={"width": 1280, "height": 720})
        page.goto(srv.lab_url("00_start_here.ipynb"))
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        page.wait_for_function("() => window.jupyterapp.commands.hasCommand('deck:start')", timeout=30_000)
        assert page.evaluate("() => document.body.dataset.jpDeckMode === undefined"), "the session opened in deck mode"
        page.close()
    assert (copy / "00_start_here.ipynb").is_file(), "make lab did not make the student's copy of the lessons"
