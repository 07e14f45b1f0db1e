"""Accessibility gate: axe-core (WCAG 2.1 A and AA rules) on every page of the site and on every
deck as a whole, in headless Chromium (marker ``browser``).

axe-core comes bundled in the PyPI package ``axe-playwright-python``; it runs inside the page,
from file://, with the network blocked. A violation of impact "serious" or "critical" fails the
test with the rule, the element and axe's own summary of the fix.

A deck is checked once, in reveal.js's scroll view (``?view=scroll``: every slide laid out one
below the other, none hidden from assistive technology), in both builds: the saved outputs and
the lecture preset that ``make slides`` makes. (Slide by slide, axe saw one slide at a time and
left much of it "incomplete"; one run per deck takes a few seconds.) Before axe runs, the page
is made such that axe can see all of it: reveal sets ``overflow: hidden`` on ``<html>`` and
hides the body's x-overflow, which axe reads as clipping everything below the first screen to
invisible (it would check the first slide only). The test lets the document overflow instead
(nothing moves; the pages are laid out already) and fails if a slide with text or pictures has
no element in axe's colour-contrast or image results, so a slide axe skipped cannot pass unseen.

In the scroll view a serious or critical "incomplete" result (axe could not decide) fails too,
unless it is in `UNDECIDABLE` with the reason no test can decide it (none today). What was left
undecided is decided now: text of a scaled slide "overlapped" by its own slide (bgOverlap: axe
could not order the layers of a scaled box) is gone at the source, the box being positioned
(tools/templates/course_reveal); text overlapped by the next slide was a real fault (a scaled
slide kept its unscaled height, and the scroll view, which centres a slide by its height, pushed
its top out of its page), fixed in the same template; the glyphs of a MathJax formula overlap
each other and paint no background, so the test computes their contrast itself
(``courseFormulaContrast``: the glyph's colour over its ancestors' background colours).

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


def _axe(page) -> None:
    """Inject axe-core into `page` once."""
    import axe_playwright_python

    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))


def _lines(rules: list[dict], *, where=lambda node: "") -> list[str]:
    """One line per element of each serious or critical rule: where, rule, impact, element, fix."""
    lines = []
    for v in rules:
        if v["impact"] in BLOCKING:
            for node in v["nodes"]:
                summary = " ".join(node.get("failureSummary", "").split())[:200]
                lines.append(f"{where(node)}{v['id']} ({v['impact']}): {node['html'][:100]!r}: {summary}")
    return lines


def blocking_violations(page, context: str = "document") -> list[str]:
    """One line per serious or critical axe-core violation on `page` (rule, element, fix).

    `context` is a JavaScript expression for the part of the page to check (default: all of it).
    """
    _axe(page)
    result = page.evaluate(f"(options) => axe.run({context}, options)", WCAG)
    return _lines(result["violations"])


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
    if page.locator(".course-live-widget").count():  # the live players drawn (tools/widget_embed.py)
        page.wait_for_function("document.documentElement.dataset.courseWidgets", timeout=30_000)
    found = blocking_violations(page)
    ctx.close()
    print(f"axe: site {name}: {len(found)} serious or critical")
    assert not found, "\n".join(found[:15])


#: Serious "incomplete" results no test can decide, by (rule, axe's reason): none so far. Add one
#: only with the reason, e.g. text over a photograph (bgImage: no single background colour).
UNDECIDABLE: dict[tuple[str, str], str] = {}

# axe over a deck in the scroll view, made visible to axe as a whole (see the module's docstring),
# each element's result tagged with its slide (1-based; 0 outside the slides). Also returns the
# slides with text or pictures that no colour-contrast or image result points at.
JS_AXE_DECK = """async (options) => {
  const rgba = (c) => {  // "rgb(r, g, b)" or "rgba(r, g, b, a)" as [r, g, b, a]; null for anything else
    const m = /^rgba?\\(([^)]*)\\)$/.exec(c), v = m ? m[1].split(/[ ,\\/]+/).filter((x) => x).map(Number) : [];
    return v.length >= 3 ? [v[0], v[1], v[2], v.length > 3 ? v[3] : 1] : null;
  };
  const lum = (c) => { const f = (x) => { x /= 255; return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  // A formula's glyph (MathJax SVG) against what lies under its formula: the glyphs of one formula
  // overlap each other and paint no background, which axe cannot order (bgOverlap). Its colour
  // (fill, maybe translucent) over the background colours of its ancestors, composited on the white
  // page; null if an ancestor has a background image or is see-through (then nobody can tell).
  const courseFormulaContrast = (el) => {
    const fg = rgba(getComputedStyle(el).fill), layers = [];
    for (let e = el; e; e = e.parentElement) {
      const st = getComputedStyle(e);
      if (st.backgroundImage !== 'none' || parseFloat(st.opacity) < 1) return null;
      const bg = rgba(st.backgroundColor);
      if (!bg) return null;
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] === 1) break;
    }
    if (!fg) return null;
    const over = (c, u) => u.map((x, k) => c[3] * c[k] + (1 - c[3]) * x);  // c painted over u
    const under = layers.reverse().reduce((u, c) => over(c, u), [255, 255, 255]);
    const [hi, lo] = [lum(over(fg, under)), lum(under)].sort((a, b) => b - a);
    const box = getComputedStyle(el.closest('mjx-container')), px = parseFloat(box.fontSize);
    const large = px >= 24 || (parseInt(box.fontWeight) >= 700 && px >= 18.66);
    return {ratio: Math.round(100 * (hi + 0.05) / (lo + 0.05)) / 100, need: large ? 3 : 4.5};
  };
  // A text of a live player's SVG picture (tools/widget_embed.py) against what is painted under its middle:
  // the shapes and boxes there, from the top down to the first opaque one (axe cannot order the layers of
  // an SVG: bgOverlap, or "too short" for a tick label). Its fill composited on them; null if an image
  // lies under it or nothing opaque does.
  const courseChartTextContrast = (el) => {
    const fg = rgba(getComputedStyle(el).fill);
    if (!fg) return null;
    el.scrollIntoView({block: 'center'});
    const box = el.getBoundingClientRect(), shapes = ['rect', 'circle', 'ellipse', 'path', 'polygon'];
    const layers = [];
    for (const e of document.elementsFromPoint(box.left + box.width / 2, box.top + box.height / 2)) {
      if (e === el || el.contains(e) || e.contains(el) && e.closest('text')) continue;
      const st = getComputedStyle(e);
      let c = null;
      if (e instanceof SVGElement) {
        const f = shapes.includes(e.tagName) && st.fill !== 'none' ? rgba(st.fill) : null;
        if (f) c = [f[0], f[1], f[2], f[3] * parseFloat(st.fillOpacity) * parseFloat(st.opacity)];
      } else {
        if (st.backgroundImage !== 'none') return null;
        c = rgba(st.backgroundColor);
      }
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    if (!layers.length || layers[layers.length - 1][3] < 1) return null;
    const over = (c, u) => u.map((x, k) => c[3] * c[k] + (1 - c[3]) * x);
    const under = layers.reverse().reduce((u, c) => over(c, u), [255, 255, 255]);
    const [hi, lo] = [lum(over(fg, under)), lum(under)].sort((a, b) => b - a);
    const st = getComputedStyle(el), scale = box.height / Math.max(el.getBBox().height, 1);
    const px = parseFloat(st.fontSize) * scale, large = px >= 24 || (parseInt(st.fontWeight) >= 700 && px >= 18.66);
    return {ratio: Math.round(100 * (hi + 0.05) / (lo + 0.05)) / 100, need: large ? 3 : 4.5};
  };
  document.documentElement.style.overflow = 'visible';
  document.body.style.overflow = 'visible';
  document.querySelectorAll('.reveal .fragment').forEach((f) => f.classList.add('visible'));
  // the slides: one per scroll page (Reveal.getSlides() also lists the emptied stacks here)
  const slides = Array.from(document.querySelectorAll('.reveal .scroll-page section'));
  const seen = new Set();
  const r = await axe.run(document, options);
  for (const kind of ['violations', 'incomplete', 'passes']) {
    for (const rule of r[kind]) {
      for (const n of rule.nodes) {
        const el = typeof n.target[0] === 'string' ? document.querySelector(n.target[0]) : null;
        n.slide = el && el.closest('section') ? slides.indexOf(el.closest('section')) + 1 : 0;
        if (rule.id === 'color-contrast' || rule.id === 'image-alt') seen.add(n.slide);
      }
    }
  }
  for (const rule of r.incomplete) {
    if (rule.id !== 'color-contrast') continue;
    for (const n of rule.nodes) {
      const el = typeof n.target[0] === 'string' ? document.querySelector(n.target[0]) : null;
      if (el && el.closest('mjx-container')) n.computed = courseFormulaContrast(el);
      else if (el && el.closest('.course-live-widget svg')) n.computed = courseChartTextContrast(el);
    }
  }
  const unseen = slides.map((s, i) => {
    const text = Array.from(s.querySelectorAll('p, li, h1, h2, h3, pre, td, th, img'))
      .some((e) => !e.closest('aside.notes') && e.checkVisibility());
    return text && !seen.has(i + 1) ? i + 1 : 0;
  }).filter((i) => i);
  return {violations: r.violations, incomplete: r.incomplete, unseen: unseen, slides: slides.length};
}"""


def _reason(node: dict) -> str:
    """axe's key for why it could not decide an element ("bgOverlap", "bgImage", ...), or ""."""
    for check in node.get("any", []) + node.get("all", []) + node.get("none", []):
        data = check.get("data")
        if isinstance(data, dict) and data.get("messageKey"):
            return data["messageKey"]
    return ""


def deck_problems(page) -> tuple[list[str], int]:
    """axe once over a deck open in the scroll view: one line per serious or critical violation,
    per such "incomplete" result not in `UNDECIDABLE`, and per slide axe did not look at; and the
    number of slides."""
    _axe(page)
    result = page.evaluate(JS_AXE_DECK, WCAG)
    undecided, computed = [], []
    for v in result["incomplete"]:
        low = [n for n in v["nodes"] if n.get("computed") and n["computed"]["ratio"] < n["computed"]["need"]]
        nodes = [n for n in v["nodes"] if not n.get("computed") and (v["id"], _reason(n)) not in UNDECIDABLE]
        if low:
            computed.append({**v, "id": f"{v['id']} computed", "nodes": [
                {**n, "failureSummary": f"contrast {n['computed']['ratio']}:1, needs {n['computed']['need']}:1"}
                for n in low]})  # fmt: skip
        if nodes:
            undecided.append({**v, "id": f"{v['id']} incomplete", "nodes": nodes})
    where = lambda node: f"slide {node['slide']}: "  # noqa: E731
    lines = [line for rules in (result["violations"], computed, undecided) for line in _lines(rules, where=where)]
    lines += [f"slide {i}: axe checked no text or picture on it" for i in result["unseen"]]
    return lines, result["slides"]


def open_scroll_view(chromium, deck: Path):
    """A 1280x720 page, offline, with `deck` open in reveal's scroll view and fitted; returns (context, page)."""
    ctx, page = _offline(chromium)
    page.goto(deck.as_uri() + "?view=scroll")
    page.wait_for_function("window.Reveal && Reveal.isReady() && document.body.dataset.courseFitted === '1'",
                           timeout=30_000)  # fmt: skip
    assert page.evaluate("Reveal.isScrollView()"), f"{deck.name} did not open in the scroll view"
    return ctx, page


@pytest.mark.parametrize("build", ["saved", "lecture"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_deck_has_no_serious_axe_result(chromium, tmp_path_factory, build, lesson):
    """Every slide of a deck at once (scroll view): no serious violation, no undecided serious result."""
    decks = built("slides", build, str(tmp_path_factory.getbasetemp()))
    ctx, page = open_scroll_view(chromium, decks["out"] / f"{lesson.stem}.slides.html")
    found, slides = deck_problems(page)
    ctx.close()
    print(f"axe: deck {lesson.stem} ({build}), {slides} slides in one run: {len(found)} serious or critical")
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


def test_deck_check_finds_a_bad_deck(chromium, tmp_path):
    """The deck gate can fail, on any slide of the scroll view (not only the first screen): a link
    told from its text by colour alone (slide 2), faint text and text on a gradient, where axe
    cannot decide the contrast (slide 3)."""
    import nbformat

    from tools import build_slides

    def md(text, slide_type):
        return nbformat.v4.new_markdown_cell(text, metadata={"slideshow": {"slide_type": slide_type}})

    nb = nbformat.v4.new_notebook(cells=[
        md("# 00 · A bad deck\n\nThe first slide is fine.", "slide"),
        md('## Two\n\nRead <a href="x.html" style="color:#333;text-decoration:none">this</a> first.', "slide"),
        md('## Three\n\n<p style="color:#aaa">faint text</p>\n\n'
           '<p style="background:linear-gradient(#fff, #ccc)">text on a gradient</p>', "slide"),
    ])  # fmt: skip
    (tmp_path / "nb").mkdir()
    nbformat.write(nb, tmp_path / "nb" / "00_bad.ipynb")
    decks = build_slides.build(tmp_path / "out", tmp_path / "nb")
    ctx, page = open_scroll_view(chromium, decks["out"] / "00_bad.slides.html")
    found, slides = deck_problems(page)
    ctx.close()
    got = {" ".join(line.split(" ")[:4]) for line in found}
    assert slides == 3
    expected = {"slide 2: link-in-text-block (serious):", "slide 3: color-contrast (serious):",
                "slide 3: color-contrast incomplete"}  # fmt: skip
    assert expected <= got, found
