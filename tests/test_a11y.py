"""Accessibility gate: axe-core (WCAG 2.1 A and AA rules) on every page of the site and every
slide of every deck, in headless Chromium (marker ``browser``).

axe-core comes bundled in the PyPI package ``axe-playwright-python``; it runs inside the page,
from file://, with the network blocked. A violation of impact "serious" or "critical" fails the
test with the rule, the element and axe's own summary of the fix. The decks are checked one
slide at a time (reveal.js hides the others from assistive technology, so axe skips them), in
both builds: the saved outputs and the lecture preset that ``make slides`` makes. axe-core is
injected once per page and run on each slide in turn.

The counts are printed (``pytest -s``) for the README's table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from export_builds import built

from tools import course_export as ce

pytestmark = pytest.mark.browser

WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}}
BLOCKING = ("serious", "critical")
LESSONS = ce.lessons()
PAGES = ["index.html"] + [f"{p.stem}.html" for p in LESSONS] + [f"solutions/{p.stem}.html" for p in ce.solutions()]


def blocking_violations(page, context: str = "document") -> list[str]:
    """One line per serious or critical axe-core violation on `page` (rule, element, fix).

    `context` is a JavaScript expression for the part of the page to check (default: all of it).
    """
    import axe_playwright_python

    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate(f"(options) => axe.run({context}, options)", WCAG)
    lines = []
    for v in result["violations"]:
        if v["impact"] in BLOCKING:
            for node in v["nodes"]:
                summary = " ".join(node.get("failureSummary", "").split())[:200]
                lines.append(f"{v['id']} ({v['impact']}): {node['html'][:100]!r}: {summary}")
    return lines


def _offline(chromium):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 720})
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:")) else r.abort())
    return ctx, ctx.new_page()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `make site` makes it: every notebook re-run in the notebook preset."""
    return built("site", "notebook", str(tmp_path_factory.getbasetemp()))


@pytest.mark.parametrize("name", PAGES)
def test_site_page_has_no_serious_axe_violation(chromium, site, name):
    ctx, page = _offline(chromium)
    page.goto((site["out"] / name).as_uri())
    page.wait_for_load_state("load")
    page.evaluate("() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")
    found = blocking_violations(page)
    ctx.close()
    print(f"axe: site {name}: {len(found)} serious or critical")
    assert not found, "\n".join(found[:15])


@pytest.mark.parametrize("build", ["saved", "lecture"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_slide_has_no_serious_axe_violation(chromium, tmp_path_factory, build, lesson):
    decks = built("slides", build, str(tmp_path_factory.getbasetemp()))
    ctx, page = _offline(chromium)
    page.goto((decks["out"] / f"{lesson.stem}.slides.html").as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    found = []
    for i in range(page.evaluate("Reveal.getTotalSlides()")):
        page.evaluate(f"Reveal.slide({i}, 0)")
        scope = "document" if i == 0 else "Reveal.getCurrentSlide()"  # the page-wide rules once
        found += [f"slide {i + 1}: {line}" for line in blocking_violations(page, scope)]
    ctx.close()
    print(f"axe: deck {lesson.stem} ({build}): {len(found)} serious or critical")
    assert not found, "\n".join(found[:15])


def test_blocking_violations_finds_a_bad_page(chromium, tmp_path):
    """The gate can fail: an unlabelled input, low contrast and an image with no alt are found."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>bad</title></head><body><main>'
        '<p style="color:#aaa;background:#fff">faint text</p><input type="range">'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>'
    )
    ctx, page = _offline(chromium)
    page.goto(bad.as_uri())
    rules = {line.split(" ")[0] for line in blocking_violations(page)}
    ctx.close()
    assert {"color-contrast", "label", "image-alt"} <= rules, rules
