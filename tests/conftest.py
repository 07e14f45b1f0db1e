"""Shared set-up for the unit tests (not for the notebooks: nbval runs those in kernels).

Kept small on purpose: importing the library here would hide import-time side effects.
"""

import os

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")  # no display in tests; `make test` also sets MPLBACKEND=Agg

# CI machines are small and shared: a slow example is not a failure there.
settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


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
