"""The site on a phone (tester 3, items 21 and 22; tools/templates/course_site/phone.css, figure_zoom.html.j2,
code_fold.html.j2).

Lessons 03 and 05 (the ones with the most two-panel figures and code) are built as the site builds them for
students, from their saved outputs (the same pictures and code as ``make site``, in seconds), and opened over file://
in Chromium with every other request blocked, as a phone (390x844, device scale 3, touch) and as a desktop (1440x900):

* figures: on the phone a two-panel figure of 910-1010 px was shown 344 px wide (35-38 %), its ticks and legends
  4-6 px high, and nothing enlarged it. Now every picture is shown at 70 % of its own width or more, or has an
  "Enlarge the figure" button under it; the button (Enter) and a tap on the picture open it in a dialog at its own
  width, where the arrow keys move it, Tab goes round the dialog's three stops (never into the page behind it),
  "Whole figure" fits it to the
  screen, and Escape, Close or a tap on it close it and give the focus back to the button; axe-core finds nothing
  serious or critical with the dialog open or closed;
* code: on the phone every code cell ran off the right edge (33 of 33 in 03, 32 of 34 in 05, in 13 px type). Now
  no code block shown is wider than its box (12 px type, long lines wrap), and a cell of more than
  `build_site.FOLD_LINES` lines is folded behind "Show the code", which a tap opens (its code fits as well), except
  one tagged ``slide-show-code`` (03's perceptron in plain Python, the code the lesson is about: the decks show it
  too), which stays open;
* axe-core finds nothing serious or critical on lessons 00, 03 and 05 on the phone (a cell that scrolled sideways
  was no tab stop: course_common/tab_stops.html.j2 took a heading's hidden "¶" link for focusable content);
* on the desktop nothing changes: every figure at its own width with no button, every cell open with no summary,
  in 13 px type. The instructor's site folds nothing.

The numbers are printed (``pytest -s``); screenshots go to ``tests/artifacts/site_phone/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_a11y import blocking_violations
from tools import build_site
from tools import course_export as ce

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests" / "artifacts" / "site_phone"
LESSONS = ("03_hyperplane_updates", "05_kernel_lifting")
AXED = ("00_start_here", *LESSONS)  # 00: its table of notations scrolls sideways on a phone
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
READABLE = 0.7  # a picture shown at this share of its own width or more has text of about 7 px or more

#: Each picture of the page as shown: its own width, the width shown, whether its Enlarge button shows.
JS_FIGURES = """() => [...document.querySelectorAll('.jp-RenderedImage > img')].filter((i) => i.checkVisibility())
  .map((i, n) => { const b = i.parentElement.querySelector('.course-zoom-open');
    return {n, own: +i.getAttribute('width') || i.naturalWidth, shown: i.getBoundingClientRect().width,
            button: !!b && b.checkVisibility(), alt: i.alt}; })"""
#: Each code block shown: whether it is wider than its box, and its type size; the cells folded and open.
JS_CODE = """() => {
  const shown = [...document.querySelectorAll('.jp-InputArea pre')].filter((p) => p.checkVisibility());
  const folds = [...document.querySelectorAll('details.course-code')];
  return {shown: shown.length, wide: shown.filter((p) => p.scrollWidth > p.clientWidth + 1).length,
    sizes: [...new Set(shown.map((p) => getComputedStyle(p).fontSize))],
    folded: folds.filter((d) => !d.open).length, folds: folds.length,
    summaries: folds.filter((d) => d.querySelector('summary').checkVisibility()).length,
    page: document.documentElement.scrollWidth, width: innerWidth};
}"""
JS_DIALOG = """() => { const d = document.querySelector('dialog.course-zoom'), a = document.activeElement;
  const img = d && d.querySelector('img'), pane = d && d.querySelector('.course-zoom-pane');
  return {open: !!d && d.open, width: img ? img.getBoundingClientRect().width : 0, alt: img ? img.alt : null,
    scrollLeft: pane ? pane.scrollLeft : 0, focus: a ? a.className : '', locked:
    document.documentElement.classList.contains('course-zoom-on')}; }"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Lessons 03 and 05 as the students' site shows them (saved outputs)."""
    base = tmp_path_factory.mktemp("site_phone")
    folder = base / "notebooks"
    folder.mkdir()
    for name in AXED:
        (folder / f"{name}.ipynb").symlink_to(ce.NOTEBOOKS / f"{name}.ipynb")
    return build_site.build(base / "site", folder, style="saved")["out"]


def _open(chromium, site: Path, name: str, device: dict):
    ctx = chromium.new_context(**device)
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:")) else r.abort())
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / f"{name}.html").as_uri())
    page.wait_for_load_state("load")
    page.evaluate("() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")
    return ctx, page, errors


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _widest(page) -> dict:
    return max(page.evaluate(JS_FIGURES), key=lambda f: f["own"])


@pytest.mark.browser
@pytest.mark.parametrize("name", LESSONS)
def test_on_a_phone_every_figure_is_readable_or_enlarges(chromium, site, name):
    ctx, page, errors = _open(chromium, site, name, PHONE)
    try:
        figures = page.evaluate(JS_FIGURES)
    finally:
        ctx.close()
    small = [f for f in figures if f["shown"] < READABLE * f["own"]]
    shares = ", ".join(f"{f['shown'] / f['own']:.0%}" for f in small)
    print(f"{name} at 390 px: {len(figures)} figures, {len(small)} shown under {READABLE:.0%} of their width "
          f"({shares}), {sum(f['button'] for f in figures)} with an Enlarge button")
    assert figures and not errors, errors
    unreadable = [f"figure {f['n']} ({f['alt'][:50]!r}): {f['shown']:.0f} of {f['own']} px, no Enlarge button"
                  for f in small if not f["button"]]
    assert not unreadable, "\n".join(unreadable)


@pytest.mark.browser
def test_the_enlarged_figure_opens_and_closes_by_keyboard(chromium, site):
    ctx, page, errors = _open(chromium, site, LESSONS[0], PHONE)
    try:
        fig = _widest(page)
        button = page.locator(".jp-RenderedImage > img").nth(fig["n"]).locator("xpath=following-sibling::button")
        button.focus()
        page.keyboard.press("Enter")
        opened = page.evaluate(JS_DIALOG)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.querySelector('dialog .course-zoom-pane').scrollLeft >= 40", timeout=2_000)
        moved = page.evaluate(JS_DIALOG)
        _shot(page, "zoom-keyboard")
        stops = []
        for _ in range(4):  # from the pane round the dialog: never into the page behind it (inert)
            page.keyboard.press("Tab")
            stops.append(page.evaluate("""() => { const a = document.activeElement;
              return !a || a === document.body ? 'browser' : a.closest('dialog.course-zoom') ? a.textContent ||
                a.className : 'page'; }"""))
        page.keyboard.press("Escape")
        closed = page.evaluate(JS_DIALOG)
        back = button.evaluate("(b) => b === document.activeElement")
        page.keyboard.press("Enter")  # again, closed with its Close button this time
        page.get_by_role("button", name="Close").focus()
        page.keyboard.press("Enter")
        closed_again = page.evaluate(JS_DIALOG)
        back_again = button.evaluate("(b) => b === document.activeElement")
    finally:
        ctx.close()
    print(f"enlarged by keyboard: {fig['own']} px shown {fig['shown']:.0f} in the page, {opened['width']:.0f} in "
          f"the dialog; two arrow presses moved it {moved['scrollLeft']:.0f} px")
    assert opened["open"] and opened["locked"] and opened["alt"] == fig["alt"], opened
    assert opened["width"] >= 0.95 * fig["own"], opened
    assert opened["focus"] == "course-zoom-pane" and moved["scrollLeft"] > 0, moved
    assert "page" not in stops and {"Whole figure", "Close"} <= set(stops), stops
    assert not closed["open"] and not closed["locked"] and back, closed
    assert not closed_again["open"] and back_again, closed_again
    assert not errors, errors


@pytest.mark.browser
def test_the_enlarged_figure_opens_and_closes_by_touch_and_axe_finds_nothing_serious(chromium, site):
    ctx, page, errors = _open(chromium, site, LESSONS[0], PHONE)
    try:
        fig = _widest(page)
        picture = page.locator(".jp-RenderedImage > img").nth(fig["n"])
        picture.scroll_into_view_if_needed()
        picture.tap()
        opened = page.evaluate(JS_DIALOG)
        found_open = blocking_violations(page)
        page.get_by_role("button", name="Whole figure").tap()
        fitted = page.evaluate(JS_DIALOG)
        _shot(page, "zoom-whole")
        page.locator("dialog.course-zoom .course-zoom-pane").tap()
        closed = page.evaluate(JS_DIALOG)
        picture.locator("xpath=following-sibling::button").tap()
        reopened = page.evaluate(JS_DIALOG)
        page.get_by_role("button", name="Close").tap()
        closed_again = page.evaluate(JS_DIALOG)
        found_closed = blocking_violations(page)
    finally:
        ctx.close()
    assert opened["open"] and opened["width"] >= 0.95 * fig["own"], opened
    assert fitted["width"] <= PHONE["viewport"]["width"], fitted
    assert not closed["open"] and reopened["open"] and reopened["locked"], (closed, reopened)
    assert reopened["width"] >= 0.95 * fig["own"], "it opens at full size again, not fitted"
    assert not closed_again["open"] and not closed_again["locked"], closed_again
    assert not found_open and not found_closed, "\n".join(found_open + found_closed)
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.parametrize("name", LESSONS)
def test_on_a_phone_no_code_runs_off_the_right_edge_and_long_cells_fold(chromium, site, name):
    ctx, page, errors = _open(chromium, site, name, PHONE)
    try:
        code = page.evaluate(JS_CODE)
        _shot(page, f"{name}-390")
        summary = page.locator("details.course-code > summary").first
        summary.scroll_into_view_if_needed()
        summary.tap()
        opened = page.evaluate(JS_CODE)
        label = " ".join(summary.inner_text().split())
    finally:
        ctx.close()
    print(f"{name} at 390 px: {code['shown']} code blocks shown, {code['wide']} wider than their box, "
          f"{code['folded']} of {code['folds']} long cells folded, type {code['sizes']}")
    assert code["shown"] and code["wide"] == 0 and code["page"] == code["width"], code
    assert code["sizes"] == ["12px"], code
    assert code["folds"] and code["folded"] == code["folds"] == code["summaries"], code
    assert opened["folded"] == code["folded"] - 1 and opened["shown"] == code["shown"] + 1, opened
    assert opened["wide"] == 0 and re.fullmatch(r"Hide the code \(\d+ lines\)", label), (opened, label)
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.parametrize("name", AXED)
def test_on_a_phone_axe_finds_nothing_serious(chromium, site, name):
    """A cell that scrolls sideways on a phone (05's exercises: a file name in code type 400 px wide in a 344 px
    column; 00's table of notations, 437 px) is reachable by the keys, or does not scroll."""
    ctx, page, errors = _open(chromium, site, name, PHONE)
    try:
        folds = page.locator("details.course-code > summary")
        if folds.count():
            folds.first.tap()  # an opened cell too
        found = blocking_violations(page)
    finally:
        ctx.close()
    print(f"axe: {name} at 390 px: {len(found)} serious or critical")
    assert not found, "\n".join(found[:15])
    assert not errors, errors


@pytest.mark.browser
def test_on_a_phone_turned_sideways_no_code_runs_off_the_right_edge(chromium, site):
    """844x390: wider than the folding's 600 px, so every cell is open in 13 px type; its long lines wrap (14 of 33
    blocks of 03 ran off the edge)."""
    ctx, page, errors = _open(chromium, site, LESSONS[0], {**PHONE, "viewport": {"width": 844, "height": 390}})
    try:
        code = page.evaluate(JS_CODE)
    finally:
        ctx.close()
    cells = [c for c in ce.read(ce.NOTEBOOKS / f"{LESSONS[0]}.ipynb").cells if c.cell_type == "code"]
    assert code["shown"] == len(cells) and code["folded"] == 0 and code["wide"] == 0, code
    assert not errors, errors


@pytest.mark.browser
def test_a_phone_turned_sideways_and_back_keeps_the_cells_the_student_opened(chromium, site):
    """The student opens the second long cell, turns the phone (844x390: every cell open), and back (390x844): that
    cell is open again and the others are folded, as they left them (tester 5: all folded again, their place lost)."""
    ctx, page, errors = _open(chromium, site, LESSONS[0], PHONE)
    opened = "() => [...document.querySelectorAll('details.course-code')].map((d) => d.open)"
    try:
        summary = page.locator("details.course-code > summary").nth(1)
        summary.scroll_into_view_if_needed()
        summary.tap()
        before = page.evaluate(opened)
        page.set_viewport_size({"width": 844, "height": 390})
        page.wait_for_function(f"() => ({opened})().every((o) => o)", timeout=5_000)
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function(f"() => !({opened})().every((o) => o)", timeout=5_000)
        after = page.evaluate(opened)
    finally:
        ctx.close()
    assert len(before) > 2 and before == [j == 1 for j in range(len(before))], before
    assert after == before, after
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.parametrize("name", LESSONS)
def test_on_a_desktop_figures_and_code_are_as_before(chromium, site, name):
    ctx, page, errors = _open(chromium, site, name, DESKTOP)
    try:
        figures = page.evaluate(JS_FIGURES)
        code = page.evaluate(JS_CODE)
    finally:
        ctx.close()
    assert figures and all(f["shown"] == f["own"] and not f["button"] for f in figures), figures
    assert code["folded"] == 0 and code["summaries"] == 0 and code["sizes"] == ["13px"], code
    cells = len([c for c in ce.read(ce.NOTEBOOKS / f"{name}.ipynb").cells if c.cell_type == "code"])
    assert code["shown"] == cells, code
    assert not errors, errors


def test_the_instructor_s_site_folds_no_code(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / f"{LESSONS[0]}.ipynb").symlink_to(ce.NOTEBOOKS / f"{LESSONS[0]}.ipynb")
    students = build_site.build(tmp_path / "students", folder, style="saved")["out"]
    instructor = build_site.build(tmp_path / "instructor", folder, style="saved", fold_code=False)["out"]
    long_cells = [c for c in ce.read(folder / f"{LESSONS[0]}.ipynb").cells
                  if c.cell_type == "code" and len(c.source.rstrip().splitlines()) > build_site.FOLD_LINES]
    shown = [c for c in long_cells if "slide-show-code" in c.metadata.get("tags", [])]
    page = (students / f"{LESSONS[0]}.html").read_text()
    assert page.count('<details class="course-code"') == len(long_cells) - len(shown) > 0 and len(shown) == 1
    tagged = page.split("celltag_slide-show-code", 1)[1].split('class="jp-Cell ', 1)[0]
    assert "course-code" not in tagged and "def perceptron(" in re.sub(r"<[^>]+>", "", tagged)
    assert 'class="course-code"' not in (instructor / f"{LESSONS[0]}.html").read_text()
