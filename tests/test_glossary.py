"""The glossary (notebooks/glossary.md) is one click from every lesson, in JupyterLab and on the site.

Every relative link in the lessons, the solutions, the glossary and INSTRUCTORS.md names a file that
exists; every lesson links to the glossary near its top; the site makes the glossary a page of its
own, points the lessons' links at it, and needs nothing from the network for it.
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import nbformat
import pytest

from tools import build_site
from tools import course_export as ce

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
GLOSSARY = NOTEBOOKS / "glossary.md"
LESSONS = ce.lessons(NOTEBOOKS)
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|href=[\"']([^\"']+)[\"']")


def relative_links(text: str) -> list[str]:
    """The relative link targets in markdown or HTML `text` (no scheme, no pure anchor; anchors dropped)."""
    out = []
    for m in _LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("#", "/")):
            continue
        out.append(urllib.parse.unquote(target.split("#")[0].split("?")[0]))
    return out


def _markdown(path: Path) -> str:
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    nb = nbformat.read(path, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def test_relative_links_point_at_files_that_exist():
    files = LESSONS + ce.solutions(NOTEBOOKS) + [GLOSSARY, NOTEBOOKS / "INSTRUCTORS.md"]
    broken = [(f.name, t) for f in files for t in relative_links(_markdown(f)) if not (f.parent / t).exists()]
    assert not broken, broken


def test_the_link_check_finds_a_broken_link():
    assert relative_links("see the [glossary](nowhere.md#margin) and [a site](https://x.org) or [top](#top)") == [
        "nowhere.md"
    ]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_links_to_the_glossary_in_its_opening_cell(path):
    nb = nbformat.read(path, as_version=4)
    assert "glossary.md" in relative_links(nb.cells[0].source), f"{path.name}: no glossary link in its first cell"


def test_glossary_defines_the_words_the_lessons_use():
    text = GLOSSARY.read_text(encoding="utf-8")
    for word in ("Margin of an example", "Geometric margin", "Maximum margin", "Radius $R$", "Mistake.", "Update.",
                 "Error.", "Pass.", "Epoch.", "$w_k$ and $w^{(t)}$", "Survival count", "Shortfall $\\xi_t$",
                 "Margin bound", "Hinge-loss mistake bounds", "Online-to-batch"):  # fmt: skip
        assert f"**{word}" in text, word


def _tiny_course(folder: Path) -> Path:
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 00 · Tiny\n\n**Time:** about 1 minute.\n\nThe [glossary](glossary.md)."),
        nbformat.v4.new_markdown_cell("Next: [01](01_next.ipynb) and the [margin](glossary.md#margin)."),
    ]
    nbformat.write(nb, folder / "00_tiny.ipynb")
    nb.cells = [nbformat.v4.new_markdown_cell("# 01 · Next\n\nBack to [00](00_tiny.ipynb).")]
    nbformat.write(nb, folder / "01_next.ipynb")
    (folder / "glossary.md").write_text(
        "# Glossary\n\n**Margin.** $m = y(\\langle w, x\\rangle + b)$, see [00](00_tiny.ipynb).\n", encoding="utf-8"
    )
    return folder


def test_site_has_the_glossary_page_and_the_lessons_link_to_it(tmp_path):
    summary = build_site.build(tmp_path / "site", _tiny_course(tmp_path / "nb"), style="saved")
    out = summary["out"]
    page = (out / "glossary.html").read_text(encoding="utf-8")
    assert "Glossary" in page and 'href="00_tiny.html"' in page, "the glossary's links go to the lesson pages"
    assert "mathjax/" in page and ce.check_offline(out) == {}
    lesson = (out / "00_tiny.html").read_text(encoding="utf-8")
    assert 'href="glossary.html"' in lesson and 'href="glossary.html#margin"' in lesson
    assert "glossary.md" not in lesson
    assert 'href="glossary.html"' in (out / "index.html").read_text(encoding="utf-8")
    for html_page in out.glob("*.html"):
        text = html_page.read_text(encoding="utf-8")
        missing = [t for t in relative_links(text) if not (out / t).exists()]
        assert not missing, (html_page.name, missing)


def test_site_without_a_glossary_has_no_link_to_one(tmp_path):
    folder = _tiny_course(tmp_path / "nb")
    (folder / "glossary.md").unlink()
    out = build_site.build(tmp_path / "site", folder, style="saved")["out"]
    assert not (out / "glossary.html").exists()
    assert "glossary" not in (out / "index.html").read_text(encoding="utf-8")
