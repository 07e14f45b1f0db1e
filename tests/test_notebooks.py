"""Hygiene of the saved notebooks (no kernel, no browser): what nbval cannot see.

For every notebook in ``notebooks/`` and ``notebooks/solutions/``:

* saved executed in order from a fresh kernel: code cells numbered 1..n, none left unrun;
* no error output and no stderr output saved;
* nothing skipped: no ``NBVAL_SKIP`` (comment or tag);
* ``NBVAL_IGNORE_OUTPUT`` only where the output truly varies: a widget view, a timing, or a
  cell in `IGNORE_ALLOWED` with its reason;
* at least `MIN_CHECKED` cells tagged ``nbval-check-output`` per lesson (not in solutions);
* no test plumbing in what a student reads: nbval's comment markers (``# NBVAL_...``) are
  not in any cell's source, only its tags;
* no stray metadata: cells keep only "slideshow" and "tags", notebooks only "kernelspec" and
  "language_info" (no saved widget state, no execution timings, no collapsed/scrolled);
* ruff clean (the project's ruff settings, on the code cells);
* light: a lesson is under `MAX_LESSON_BYTES`; no stored animation, no cell that only folds one
  (``.fallback(``, ``.to_html(``) and no CSS class added for the tests (``.add_class(``): the
  exports record the players (tools/README.md);
* instructor notes only in ``metadata.speaker_notes``: no ``notes`` slide cell, no "Speaker
  notes" or "Ask the room" in a cell a student reads;
* every figure has alt text: no bare ``plt.show()`` (figures go through
  ``perceptron_lib.draw.display.show_figure(fig, alt=...)``), and every saved PNG output has an
  ``alt`` in its metadata;
* links: each course notebook is in README.md and linked from ``00_start_here.ipynb``; every
  relative ``.ipynb`` link in any notebook's markdown points to an existing file.

The checks are functions that return a list of problems; ``test_checks_catch_*`` feeds them
broken notebooks, so none of them can pass vacuously. ``COURSE_NOTEBOOKS_ROOT`` points the tests
at another folder holding ``notebooks/`` (and optionally a README.md).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from tools import course_export

REPO = Path(__file__).resolve().parents[1]
ROOT = Path(os.environ.get("COURSE_NOTEBOOKS_ROOT", REPO)).resolve()

MIN_CHECKED = 3
CHECK_TAG = "nbval-check-output"
IGNORE_MARK = "NBVAL_IGNORE_OUTPUT"
MARKER = re.compile(r"^\s*#\s*NBVAL_\w+", re.MULTILINE)
#: a cell tagged slide-show-code also carries the jupyterlab-fonts style that shows its code in the live deck
#: (tests/test_deck_prose.py checks it is there exactly on those cells)
CELL_METADATA = {"slideshow", "tags", "speaker_notes", "@deathbeds/jupyterlab-fonts"}
NOTEBOOK_METADATA = {"kernelspec", "language_info"}
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
TIMING = re.compile(r"(?<![\w\\/+.])\d+(\.\d+)?\s?(ns|µs|us|ms|s|sec|seconds)\b|Wall time|per loop")
SANITIZE_CFG = REPO / "tests" / "nbval_sanitize.cfg"
MAX_LESSON_BYTES = 400_000
#: Code that stores a recording in the notebook or adds CSS classes only the tests use.
EXPORT_PLUMBING = re.compile(r"\.(fallback|to_html|add_class)\(")
#: Instructor-only text: it belongs in metadata.speaker_notes (tools/instructor_notes.py).
INSTRUCTOR_TEXT = re.compile(r"^\s*(speaker notes\b|ask the room\b|ask:)", re.IGNORECASE | re.MULTILINE)
BARE_SHOW = re.compile(r"^\s*plt\.show\(\s*\)", re.MULTILINE)

#: Cells allowed to ignore their output although it holds no widget view or timing:
#: {(notebook path, a piece of the cell's source): why the output varies}. Keep it short.
IGNORE_ALLOWED: dict[tuple[str, str], str] = {}

def _course() -> list[Path]:
    return course_export.lessons(ROOT / "notebooks")


def _solutions() -> list[Path]:
    return sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb"))


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


COURSE = [_rel(p) for p in _course()]
ALL = COURSE + [_rel(p) for p in _solutions()]


def _load(nb: str) -> dict:
    return json.loads((ROOT / nb).read_text(encoding="utf-8"))


def _src(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _code_cells(nb: dict):
    return [(i, c) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]


def _has_marker(cell, marker: str) -> bool:
    tag = marker.lower().replace("_", "-")  # NBVAL_SKIP -> nbval-skip, as nbval reads tags
    tags = cell.get("metadata", {}).get("tags", [])
    return any(line.strip().startswith("#") and marker in line for line in _src(cell).splitlines()) or tag in tags


# ----------------------------------------------------------------------------- the checks


def check_run_in_order(nb: dict) -> list[str]:
    problems = []
    counts = []
    for i, c in _code_cells(nb):
        if not _src(c).strip():
            problems.append(f"cell {i}: empty code cell")
            continue
        counts.append(c.get("execution_count"))
    if counts != list(range(1, len(counts) + 1)):
        problems.append(f"execution counts {counts}: expected 1..{len(counts)} (restart the kernel, run all, save)")
    return problems


def check_no_errors(nb: dict) -> list[str]:
    problems = []
    for i, c in _code_cells(nb):
        for out in c.get("outputs", []):
            if out.get("output_type") == "error":
                problems.append(f"cell {i}: error output {out.get('ename')}: {out.get('evalue')}")
            elif out.get("output_type") == "stream" and out.get("name") == "stderr":
                problems.append(f"cell {i}: stderr output: {_text(out.get('text', ''))[:300]!r}")
    return problems


def check_no_skip(nb: dict) -> list[str]:
    return [f"cell {i}: NBVAL_SKIP: no cell is skipped" for i, c in _code_cells(nb) if _has_marker(c, "NBVAL_SKIP")]


def _sanitizers() -> list[tuple[re.Pattern, str]]:
    """The regexes of nbval_sanitize.cfg, as nbval applies them (what nbval never compares)."""
    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(SANITIZE_CFG, encoding="utf-8")
    return [(re.compile(cfg[sec]["regex"]), cfg[sec]["replace"]) for sec in cfg.sections()]


SANITIZERS = _sanitizers()


def _sanitized(text: str) -> str:
    for rx, rep in SANITIZERS:
        text = rx.sub(rep, text)
    return text


def _varies(cell) -> bool:
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if WIDGET_MIME in data:
            return True
        texts = [_text(out.get("text", ""))] + [_text(v) for k, v in data.items() if k.startswith("text/")]
        if any(TIMING.search(_sanitized(t)) for t in texts):
            return True
    return False


def check_ignore_output(nb: dict, path: str) -> list[str]:
    problems = []
    for i, c in _code_cells(nb):
        if not _has_marker(c, IGNORE_MARK):
            continue
        src = _src(c)
        if _varies(c) or any(p == path and piece in src for (p, piece) in IGNORE_ALLOWED):
            continue
        first = next((ln for ln in src.splitlines() if ln.strip() and IGNORE_MARK not in ln), "")
        problems.append(
            f"cell {i} ({first.strip()[:60]!r}): NBVAL_IGNORE_OUTPUT, but its output has no widget view or timing; "
            "drop the marker, sanitise the varying text in tests/nbval_sanitize.cfg, or add the cell to "
            "IGNORE_ALLOWED in tests/test_notebooks.py with the reason"
        )
    return problems


def check_checked_cells(nb: dict) -> list[str]:
    n = sum(CHECK_TAG in c.get("metadata", {}).get("tags", []) for _, c in _code_cells(nb))
    if n < MIN_CHECKED:
        return [f"{n} cell(s) tagged '{CHECK_TAG}'; a lesson needs at least {MIN_CHECKED}"]
    return []


def check_no_markers_in_source(nb: dict) -> list[str]:
    """nbval's markers are test plumbing: a student reads the source, so they go in tags."""
    return [
        f"cell {i}: {MARKER.search(_src(c)).group().strip()!r} in the source; use the tag "
        f"{MARKER.search(_src(c)).group().strip().lstrip('# ').lower().replace('_', '-')!r} instead"
        for i, c in _code_cells(nb)
        if MARKER.search(_src(c))
    ]


def check_metadata(nb: dict) -> list[str]:
    problems = []
    extra = set(nb.get("metadata", {})) - NOTEBOOK_METADATA
    if extra:
        problems.append(f"notebook metadata {sorted(extra)} (allowed: {sorted(NOTEBOOK_METADATA)})")
    cells_by_key: dict[str, list[int]] = {}
    for i, c in enumerate(nb["cells"]):
        for key in set(c.get("metadata", {})) - CELL_METADATA:
            cells_by_key.setdefault(key, []).append(i)
    for key, cells in sorted(cells_by_key.items()):
        problems.append(f"cell metadata {key!r} in cells {cells} (allowed: {sorted(CELL_METADATA)})")
    if problems:
        problems.append("fix: clear it in JupyterLab's property inspector, or strip it with nbconvert/nbstripout")
    return problems


def check_size(path: Path) -> list[str]:
    size = path.stat().st_size
    if size < MAX_LESSON_BYTES:
        return []
    return [f"{size / 1e3:.0f} KB on disk; a lesson must stay under {MAX_LESSON_BYTES / 1e3:.0f} KB "
            "(store no recordings: the exports make them)"]  # fmt: skip


def check_no_export_plumbing(nb: dict) -> list[str]:
    return [
        f"cell {i}: {EXPORT_PLUMBING.search(_src(c)).group()}...): recordings and test classes are not the "
        "student's code (the exports record the players; tests select the library's root classes)"
        for i, c in _code_cells(nb)
        if EXPORT_PLUMBING.search(_src(c))
    ]


def check_instructor_notes_hidden(nb: dict) -> list[str]:
    problems = []
    for i, c in enumerate(nb["cells"]):
        if c.get("metadata", {}).get("slideshow", {}).get("slide_type") == "notes":
            problems.append(f"cell {i}: a 'notes' slide cell; move its text into the previous cell's "
                            "metadata.speaker_notes")  # fmt: skip
        elif c["cell_type"] == "markdown" and INSTRUCTOR_TEXT.search(_src(c)):
            problems.append(f"cell {i}: instructor text {INSTRUCTOR_TEXT.search(_src(c)).group().strip()!r} "
                            "in a cell students read; it belongs in metadata.speaker_notes")  # fmt: skip
        notes = c.get("metadata", {}).get("speaker_notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) and n.strip() for n in notes):
            problems.append(f"cell {i}: metadata.speaker_notes must be a list of non-empty strings")
    return problems


def check_alt_text(nb: dict) -> list[str]:
    problems = []
    for i, c in _code_cells(nb):
        if BARE_SHOW.search(_src(c)):
            problems.append(f"cell {i}: plt.show() has no alt text; use show_figure(fig, alt=...)")
        for out in c.get("outputs", []):
            if "image/png" in out.get("data", {}):
                alt = out.get("metadata", {}).get("image/png", {}).get("alt", "")
                if not (isinstance(alt, str) and alt.strip()):
                    problems.append(f"cell {i}: a PNG output with no alt text in its metadata")
    return problems


def check_ruff(path: Path) -> list[str]:
    cmd = [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise"]
    cmd += ["--config", str(REPO / "pyproject.toml"), str(path)]
    res = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    if res.returncode == 0:
        return []
    lines = [ln for ln in (res.stdout + res.stderr).splitlines() if ln.strip()] or [f"ruff exit {res.returncode}"]
    return [*lines, f"fix: .venv/bin/ruff check --fix {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"]


_MD_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|href=[\"']([^\"']+)[\"']")


def ipynb_links(nb: dict) -> list[str]:
    """Relative links to .ipynb files in the markdown cells (anchors and queries dropped)."""
    links = []
    for c in nb["cells"]:
        if c["cell_type"] != "markdown":
            continue
        for m in _MD_LINK.finditer(_src(c)):
            target = m.group(1) or m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("#", "/")):
                continue
            target = urllib.parse.unquote(target.split("#")[0].split("?")[0])
            if target.endswith(".ipynb"):
                links.append(target)
    return links


def check_links_exist(nb: dict, path: Path) -> list[str]:
    return [f"link to {t!r}: no such file" for t in ipynb_links(nb) if not (path.parent / t).resolve().is_file()]


# ----------------------------------------------------------------------------- the tests


def _assert_none(problems: list[str], nb: str) -> None:
    assert not problems, f"{nb}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("nb", ALL)
def test_saved_run_in_order_from_fresh_kernel(nb):
    _assert_none(check_run_in_order(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_no_error_or_stderr_output(nb):
    _assert_none(check_no_errors(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_nothing_skipped(nb):
    _assert_none(check_no_skip(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_ignore_output_only_where_output_varies(nb):
    _assert_none(check_ignore_output(_load(nb), nb), nb)


@pytest.mark.parametrize("nb", COURSE)
def test_lesson_has_checked_outputs(nb):
    _assert_none(check_checked_cells(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_no_nbval_markers_in_source(nb):
    _assert_none(check_no_markers_in_source(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_no_stray_metadata(nb):
    _assert_none(check_metadata(_load(nb)), nb)


@pytest.mark.parametrize("nb", COURSE)
def test_lesson_is_light(nb):
    _assert_none(check_size(ROOT / nb), nb)


@pytest.mark.parametrize("nb", ALL)
def test_no_export_plumbing_in_code(nb):
    _assert_none(check_no_export_plumbing(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_instructor_notes_not_in_student_view(nb):
    _assert_none(check_instructor_notes_hidden(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_every_figure_has_alt_text(nb):
    _assert_none(check_alt_text(_load(nb)), nb)


@pytest.mark.parametrize("nb", ALL)
def test_ruff_clean(nb):
    _assert_none(check_ruff(ROOT / nb), nb)


@pytest.mark.parametrize("nb", ALL)
def test_relative_notebook_links_exist(nb):
    _assert_none(check_links_exist(_load(nb), ROOT / nb), nb)


@pytest.mark.parametrize("nb", COURSE)
def test_listed_in_readme(nb):
    readme = ROOT / "README.md"
    if not readme.is_file():
        pytest.skip(f"no README.md in {ROOT}")
    assert f"({nb})" in readme.read_text(encoding="utf-8"), f"README.md has no link ({nb})"


@pytest.mark.parametrize("nb", [n for n in COURSE if not n.endswith("/00_start_here.ipynb")])
def test_linked_from_start_here(nb):
    start = ROOT / "notebooks" / "00_start_here.ipynb"
    assert start.is_file(), "notebooks/00_start_here.ipynb is missing"
    links = {Path(t).name for t in ipynb_links(json.loads(start.read_text(encoding="utf-8")))}
    assert Path(nb).name in links, f"00_start_here.ipynb does not link to {Path(nb).name}"


def test_there_are_notebooks():
    assert (ROOT / "notebooks" / "00_start_here.ipynb").is_file()
    assert COURSE, "no notebooks/NN_*.ipynb found"


# ----------------------------------------------------------------------------- the checks can fail


def _nb(cells, metadata=None) -> dict:
    return {"cells": cells, "metadata": metadata or {"kernelspec": {}, "language_info": {}}}


def _code(src, count, outputs=(), metadata=None) -> dict:
    return {"cell_type": "code", "source": src, "execution_count": count, "outputs": list(outputs),
            "metadata": metadata or {}}  # fmt: skip


def _md(src) -> dict:
    return {"cell_type": "markdown", "source": src, "metadata": {}}


def _stream(text, name="stdout") -> dict:
    return {"output_type": "stream", "name": name, "text": text}


def test_checks_catch_broken_notebooks(tmp_path):
    checked = {"tags": [CHECK_TAG]}
    good = _nb([_code("x = 1", 1), _code("print(x)", 2, [_stream("1\n")], checked)])
    for check in (check_run_in_order, check_no_errors, check_no_skip, check_metadata, check_no_markers_in_source):
        assert check(good) == [], check.__name__

    assert check_run_in_order(_nb([_code("a = 1", 2), _code("b = 2", 1)]))
    assert check_run_in_order(_nb([_code("a = 1", 1), _code("b = 2", None)]))
    assert check_run_in_order(_nb([_code("a = 1", 1), _code("", None)]))
    assert check_no_errors(_nb([_code("1/0", 1, [{"output_type": "error", "ename": "ZeroDivisionError",
                                                   "evalue": "", "traceback": []}])]))  # fmt: skip
    assert check_no_errors(_nb([_code("warn()", 1, [_stream("UserWarning: x\n", "stderr")])]))
    assert check_no_skip(_nb([_code("# NBVAL_SKIP\nx = 1", 1)]))
    assert check_no_skip(_nb([_code("x = 1", 1, metadata={"tags": ["nbval-skip"]})]))

    ignored_print = _code("# NBVAL_IGNORE_OUTPUT\nprint(3)", 1, [_stream("3\n")])
    assert check_ignore_output(_nb([ignored_print]), "notebooks/x.ipynb")
    widget = {"output_type": "execute_result", "execution_count": 1, "metadata": {},
              "data": {WIDGET_MIME: {"model_id": "abc"}, "text/plain": "VBox()"}}  # fmt: skip
    assert not check_ignore_output(_nb([_code("# NBVAL_IGNORE_OUTPUT\nplayer", 1, [widget])]), "n")
    assert not check_ignore_output(_nb([_code("# NBVAL_IGNORE_OUTPUT\nt()", 1, [_stream("took 12.5 ms\n")])]), "n")
    frames = {"output_type": "display_data", "metadata": {},
              "data": {"text/html": '<img src="data:image/png;base64,iVBOR5s+f/2ms9">'}}  # fmt: skip
    assert check_ignore_output(_nb([_code("# NBVAL_IGNORE_OUTPUT\nanim", 1, [frames])]), "n")
    IGNORE_ALLOWED[("notebooks/x.ipynb", "print(3)")] = "test entry"
    try:
        assert not check_ignore_output(_nb([ignored_print]), "notebooks/x.ipynb")
    finally:
        del IGNORE_ALLOWED[("notebooks/x.ipynb", "print(3)")]

    assert check_checked_cells(_nb([_code("print(1)", 1, metadata=checked), _code("print(2)", 2)]))
    assert not check_checked_cells(_nb([_code(f"print({i})", i, metadata=checked) for i in (1, 2, 3)]))
    assert check_checked_cells(_nb([_code(f"# NBVAL_CHECK_OUTPUT\nprint({i})", i) for i in (1, 2, 3)]))
    assert check_no_markers_in_source(_nb([_code("# NBVAL_CHECK_OUTPUT\nprint(1)", 1)]))
    assert check_no_markers_in_source(_nb([_code("x = 1\n  # NBVAL_IGNORE_OUTPUT", 1)]))

    assert check_metadata(_nb([_code("x = 1", 1)], {"kernelspec": {}, "widgets": {}}))
    assert check_metadata(_nb([_code("x = 1", 1, metadata={"execution": {}})]))
    assert check_metadata(_nb([_code("x = 1", 1, metadata={"scrolled": True})]))
    assert not check_metadata(_nb([_code("x = 1", 1, metadata={"tags": [], "slideshow": {}})]))

    import nbformat

    bad_py = tmp_path / "bad.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import os\n")]), bad_py)
    assert any("F401" in p for p in check_ruff(bad_py))

    md = _nb([_md("See [the next one](02_missing.ipynb), [web](https://x.org/a.ipynb) and [here](#top).")])
    (tmp_path / "notebooks").mkdir()
    assert ipynb_links(md) == ["02_missing.ipynb"]
    assert check_links_exist(md, tmp_path / "notebooks" / "01_a.ipynb")
    (tmp_path / "notebooks" / "02_missing.ipynb").write_text("{}")
    assert not check_links_exist(md, tmp_path / "notebooks" / "01_a.ipynb")


def test_export_and_instructor_checks_catch_broken_notebooks(tmp_path):
    good = _nb([_code("show_figure(fig, alt='Two points.')", 1), _md("Some prose.")])
    for check in (check_no_export_plumbing, check_instructor_notes_hidden, check_alt_text):
        assert check(good) == [], check.__name__
    assert check_no_export_plumbing(_nb([_code("player.fallback(max_frames=8)", 1)]))
    assert check_no_export_plumbing(_nb([_code("sw.to_html(labels=['a'])", 1)]))
    assert check_no_export_plumbing(_nb([_code("p.widget.add_class('nb04-x')\np", 1)]))
    notes_cell = _md("Why?")
    notes_cell["metadata"]["slideshow"] = {"slide_type": "notes"}
    assert check_instructor_notes_hidden(_nb([notes_cell]))
    assert check_instructor_notes_hidden(_nb([_md("Ask the room: which loss?")]))
    assert check_instructor_notes_hidden(_nb([_md("Speaker notes: ask them.")]))
    host = _md("Prose.")
    host["metadata"]["speaker_notes"] = "a string, not a list"
    assert check_instructor_notes_hidden(_nb([host]))
    host["metadata"]["speaker_notes"] = ["Ask: why?"]
    assert not check_instructor_notes_hidden(_nb([host]))
    assert check_alt_text(_nb([_code("fig, ax = plt.subplots()\nplt.show()", 1)]))
    png = {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBOR", "text/plain": "<Figure>"}}
    assert check_alt_text(_nb([_code("fig", 1, [png])]))
    png["metadata"] = {"image/png": {"alt": "A line."}}
    assert not check_alt_text(_nb([_code("fig", 1, [png])]))
    big = tmp_path / "01_big.ipynb"
    big.write_bytes(b" " * MAX_LESSON_BYTES)
    assert check_size(big)
    big.write_bytes(b" " * (MAX_LESSON_BYTES - 1))
    assert not check_size(big)
