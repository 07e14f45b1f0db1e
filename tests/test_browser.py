"""Every notebook, run once per style preset in JupyterLab in headless Chromium, with all its browser checks.

The notebooks are the lessons and the solutions that ``tools.course_export`` names (``lessons()``,
``solutions()``); the lessons run in both presets (``notebook``, ``lecture``: a kernelspec each, with
``COURSE_STYLE`` in the kernel's environment), the solutions in the notebook preset. One JupyterLab server
(`course_lab_server`) and one Chromium (``chromium``, tests/conftest.py) serve the whole session. Each run
opens the notebook once in a new browser context (1440x900), clears its outputs, runs all cells, and then
runs each group of checks in the order below, every one even when an earlier one failed; the test fails
with the list of failed checks, each named (``notebooks/03_... [lecture] keys, player 0: ...``). The fit,
key and editor checks expect the players as Run All left them, and leave them so (Home, Undo): they come
before Step, Back and Play.

* outputs, widgets render (tests/browser_checks.py), every run;
* players fit, keys, panel pickers, run switches (tests/browser_fit.py), every lesson in both presets;
* the editor: click, Undo, Redo, drag, alt-click, keyboard, axe-core (tests/browser_editor.py), every lesson
  that makes a ``BrowserEditor``, in the presets of `EDITOR_PRESETS`;
* Step, Back, Play on every player and the live figures' sliders (tests/browser_checks.py), in the
  presets of `STEP_PRESETS`; on a browser player (``.perceptron-browserplayer``) also the keys with the focus,
  the messages each step sends the kernel (one update of k, nothing else) and the kernel's k and words; when
  Back does not restore a picture both PNGs are saved (#34);
* no uncaught error in the page, and the notebook file left as it was (no autosave).

A screenshot of each run in the notebook preset, and of each failed run, goes to ``tests/artifacts/browser/``
(git-ignored), with the run's timings (per check) and failures in a ``.json`` beside it; the player and editor
checks leave theirs in ``tests/artifacts/player/`` and ``.../editor/`` (an editor's two pictures when Undo or
Redo does not give back the same bytes).
`test_editor_in_the_app_view` runs lesson 03 in the app view (Voila, the course template).
Skipped when Chromium is missing, failed instead when ``COURSE_REQUIRE_BROWSER=1`` (CI).
``COURSE_NOTEBOOKS_ROOT`` points the tests at another folder holding ``notebooks/`` (scratch notebooks).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests import browser_checks as bc
from tests import browser_editor as ed
from tests import browser_fit as fit
from tests.browser_support import (  # noqa: F401 (course_lab_server: a fixture, used by name)
    PRESETS,
    course_lab_server,
    jupyter_server,
    kernel_name,
    served_copy,
)
from tools import course_export as ce

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
ROOT = Path(os.environ.get("COURSE_NOTEBOOKS_ROOT", REPO)).resolve()
LESSONS = [p.relative_to(ROOT).as_posix() for p in ce.lessons(ROOT / "notebooks")]
SOLUTIONS = [p.relative_to(ROOT).as_posix() for p in ce.solutions(ROOT / "notebooks")]
#: Where Step, Back, Play and the live figures are clicked, and where the editor is driven.
STEP_PRESETS = ("notebook",)
EDITOR_PRESETS = ("notebook",)
#: Where every run leaves a screenshot of the whole notebook; in the other presets only a failed run does.
SHOT_PRESETS = ("notebook",)
#: The lessons in every preset, the solutions in the notebook preset (the one a student works in).
RUNS = [
    pytest.param(preset, nb, id=f"{preset}-{Path(nb).stem}")
    for preset in PRESETS
    for nb in LESSONS + (SOLUTIONS if preset == "notebook" else [])
]


class Findings:
    """The failed checks of one run, each with its name; `raise_any` fails the test with all of them."""

    def __init__(self, where: str):
        self.where, self.failed, self.seconds = where, {}, {}

    @contextlib.contextmanager
    def check(self, name: str):
        """Run a block as the check `name`: an assertion or a browser error in it is recorded, not raised."""
        t0 = time.monotonic()
        try:
            yield
        except (AssertionError, PlaywrightError) as exc:
            self.failed[name] = str(exc)[:2000]
        finally:
            self.seconds[name] = round(time.monotonic() - t0, 2)

    def raise_any(self) -> None:
        if self.failed:
            lines = [f"- {name}: {msg}" for name, msg in self.failed.items()]
            raise AssertionError(
                f"{self.where}: {len(self.failed)} of {len(self.seconds)} checks failed:\n" + "\n".join(lines)
            )


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fit_and_keys(page, found: Findings, nb: str, preset: str, where: str, notes: list[str]) -> None:
    n = 0
    with found.check("pictures load"):
        n = fit.pictures_ready(page, where)
    for view in fit.VIEWS:
        with found.check(f"window {view}"):
            fit.set_view(page, view)
        for i in range(n):
            switched = fit.in_switch(page, i)  # a run switch's player: its own screenshot and its height noted
            shot = (f"{Path(nb).name[:2]}-{preset}-{view}.png" if i == 0
                    else f"{Path(nb).name[:2]}-{preset}-{view}-switch{i}.png" if switched else None)
            with found.check(f"fit {view}, widget {i}"):
                m = fit.check_fit(page, i, view, f"{where} [{view}] widget {i}", preset=preset, shot=shot)
                if switched and "span" in m:
                    notes.append(f"switch widget {i} at {view}: {m['span'][0]} of {m['span'][1]} px")
    with found.check("window lab-1440x900"):
        fit.set_view(page, "lab-1440x900")
    players = page.locator(".perceptron-browserplayer")
    for i in range(players.count()):
        with found.check(f"keys, player {i}"):
            fit.check_keys(page, players.nth(i), f"{where} player {i}")
    switches = page.locator(".perceptron-browserswitch")
    for i in range(switches.count()):
        with found.check(f"run switch {i}"):
            fit.check_browser_switch(page, switches.nth(i), f"{where} run switch {i}")


def _step_back_play(page, found: Findings, where: str, notes: list[str]) -> None:
    for i, player in enumerate(page.locator(".perceptron-browserplayer").all()):
        with found.check(f"Step, Back, Play, keys, kernel messages, browser player {i}"):
            notes += bc.check_browser_player(page, where, i, player)
    for i, live in enumerate(page.locator(".perceptron-livefigure").all()):
        with found.check(f"live figure {i}"):
            notes += bc.check_livefigure(page, where, i, live)


def _editor(page, found: Findings, nb: str, where: str) -> None:
    editor = page.locator(ed.SELECTOR).first
    with found.check("editor shown"):
        editor.wait_for(timeout=30_000)
    if "editor shown" in found.failed:
        return
    with found.check("editor: click, Undo, Redo"):
        ed.check_click_undo(page, editor, where)
    with found.check("editor: drag, alt-click"):
        ed.check_drag_alt_click(page, editor, where)
    with found.check("editor: keyboard"):
        ed.check_keyboard_add(page, editor, where)
    with found.check("editor: axe-core"):
        ed.screenshot(editor, Path(nb).name[:2])
        problems = ed.axe_serious(page, editor)
        assert not problems, f"{where}: axe-core found serious problems in the editor:\n" + "\n".join(problems)


@pytest.mark.parametrize(("preset", "nb"), RUNS)
def test_notebook_in_jupyterlab(preset, nb, request):
    lab = request.getfixturevalue("course_lab_server")  # here: a missing browser is a skip or a failure, not an error
    chromium = request.getfixturevalue("chromium")
    path = lab.root_dir / nb
    if not path.is_file():
        pytest.skip(f"{nb} was removed after collection")
    digest = _file_digest(path)
    where, stem = f"{nb} [{preset}]", bc.artifact_stem(nb, preset)
    found, timings, notes = Findings(where), {}, []
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(bc.WIDGET_TIMEOUT_MS)
    page = context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    t0 = time.monotonic()
    try:
        bc.open_and_run(page, lab, nb, timings, kernel=kernel_name(preset))
        timings["open_and_run_s"] = round(time.monotonic() - t0, 2)
        with found.check("outputs"):
            bc.check_outputs(page, where)
        with found.check("widgets render"):
            bc.check_widgets_rendered(page, where)
        if nb in LESSONS:
            _fit_and_keys(page, found, nb, preset, where, notes)
        if nb in LESSONS and preset in EDITOR_PRESETS and ed.shows_editor(path):
            _editor(page, found, nb, where)
        if preset in STEP_PRESETS:
            _step_back_play(page, found, where, notes)
        with found.check("page errors"):
            assert not page_errors, f"{where}: uncaught errors in the page:\n" + "\n".join(page_errors)
        timings["checks_s"] = round(time.monotonic() - t0 - timings["open_and_run_s"], 2)
    finally:
        if preset in SHOT_PRESETS or found.failed or "checks_s" not in timings:
            t_shot = time.monotonic()
            try:
                notes.append(f"screenshot: {bc.screenshot(page, stem).relative_to(REPO)}")
            except PlaywrightError as exc:  # a failed screenshot must not hide the real failure
                notes.append(f"screenshot failed: {exc}")
            timings["screenshot_s"] = round(time.monotonic() - t_shot, 2)
        context.close()
        lab.shutdown_kernels()
        timings["total_s"] = round(time.monotonic() - t0, 2)
        bc.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        record = {
            "notebook": nb,
            "preset": preset,
            "timings": timings,
            "notes": notes,
            "check_s": found.seconds,
            "failed": found.failed,
        }
        (bc.ARTIFACTS / f"{stem}.json").write_text(json.dumps(record, indent=2))
        print(f"{where}: {timings}; " + "; ".join(notes))
    with found.check("file unchanged"):
        assert _file_digest(path) == digest, f"{where}: the browser run modified the notebook file (autosave?)"
    found.raise_any()


def test_editor_in_the_app_view(chromium, tmp_path):
    """Lesson 03 in the app view (Voila with the course template, as `make app NB=03` serves it): a click adds a
    point, Undo and Redo give back the pictures (`browser_editor.check_click_undo`)."""
    lesson = next(Path(nb).name for nb in LESSONS if Path(nb).name.startswith("03_"))
    root = served_copy(tmp_path, source=ROOT)
    env = {"JUPYTER_PATH": str(REPO / "tools" / "jupyter")}
    with jupyter_server(
        root / "notebooks", app="voila", env=env, extra_args=["--template=course_app"], timeout=90
    ) as srv:
        page = chromium.new_page(viewport={"width": 1280, "height": 720})
        try:
            page.goto(srv.voila_url(lesson), timeout=240_000)
            editor = page.locator(ed.SELECTOR).first
            editor.wait_for(timeout=240_000)
            ed.check_click_undo(page, editor, f"app {lesson}")  # the editor's check waits for its runs
        finally:
            page.close()
