"""Shared set-up for the unit tests (not for the notebooks: nbval runs those in kernels).

Kept small on purpose: importing the library here would hide import-time side effects.
"""

import functools
import os
from pathlib import Path

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")  # no display in tests; `make test` also sets MPLBACKEND=Agg

# CI machines are small and shared: a slow example is not a failure there.
settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


TESTS = Path(__file__).resolve().parent
#: Builds shared across modules, found by name in a module's source (a fixture asked for with
#: `request.getfixturevalue` is not among a test's fixture names): the site and the decks of
#: tests/export_builds.py, and the one JupyterLab of tests/browser_support.py.
SHARED_BY_SOURCE = {"export_builds": "exports", "course_lab_server": "course_lab_server"}
#: Fixtures every pytest-xdist worker may make for itself (cheap, or one per process by nature).
PER_WORKER = {"chromium", "no_style_chosen"}


@functools.cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def xdist_group_of(item) -> str | None:
    """The pytest-xdist group of a test: tests that share an expensive build run on one worker.

    ``make test`` runs ``pytest -n 2 --dist loadgroup``: each group goes whole to one worker, in order,
    so what its tests share is built once. A test module that imports ``tests.export_builds`` shares the
    site and deck builds (`built(...)`) with every other such module: group "exports"; one that uses
    ``course_lab_server`` shares the session's JupyterLab: group "course_lab_server". Otherwise a
    test that uses a module- or session-scoped fixture of this folder (a JupyterLab server, the hub, a
    wheel, ...) is grouped by that fixture: its module for a module fixture, the fixture's name for a
    session fixture. Other tests go wherever a worker is free.
    """
    module = getattr(item, "module", None)
    source = Path(module.__file__) if module is not None and getattr(module, "__file__", None) else None
    text = _source(source) if source is not None else ""
    for marker, group in SHARED_BY_SOURCE.items():
        if marker in text:
            return group
    info = getattr(item, "_fixtureinfo", None)
    for name in sorted(info.name2fixturedefs if info is not None else ()):
        if name in PER_WORKER:
            continue
        for fixturedef in info.name2fixturedefs[name]:
            code = getattr(fixturedef.func, "__code__", None)  # None: a fixture of pytest or a plugin
            if code is None or TESTS not in Path(code.co_filename).parents:
                continue
            if fixturedef.scope in ("module", "package", "session"):
                return source.stem if fixturedef.scope == "module" and source is not None else name
    return None


def pytest_collection_modifyitems(config, items):
    groups = {}
    for item in items:
        group = xdist_group_of(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        groups[item.nodeid] = group
    if getattr(config.option, "dist", "no") == "loadgroup":
        # Largest groups first, single tests last: a worker that picks up a long group early leaves the
        # small tests to fill the other worker's time, instead of the run ending on one long group.
        sizes = {}
        for group in groups.values():
            sizes[group] = sizes.get(group, 0) + 1
        items.sort(key=lambda it: (groups[it.nodeid] is None, -sizes[groups[it.nodeid]]))


@pytest.fixture(scope="session")
def chromium():
    """One Playwright and one headless Chromium for the whole session.

    Playwright's sync API runs one instance per process: the browser tests and the instructor
    checks must share this one (two would fail with "Sync API inside the asyncio loop").
    Skips, or fails under COURSE_REQUIRE_BROWSER=1, when Chromium is missing.
    """
    from tests.browser_support import launch, require_browser

    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        yield browser
        browser.close()


@pytest.fixture
def no_style_chosen(monkeypatch):
    """The style module with no preset chosen (neither `style.use` nor $COURSE_STYLE): the library's default.

    Through the public `use`: the preset in force before the test is put back after it.
    """
    from perceptron_lib.draw import style

    monkeypatch.delenv(style.ENV_VAR, raising=False)
    before = style.current()
    style.use(None)
    yield style
    monkeypatch.delenv(style.ENV_VAR, raising=False)  # a test may have set it: `use` reads it back
    style.use(before)


@pytest.fixture(autouse=True)
def _close_figures():
    """Close every figure a test opened, so none leak into the next test."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
