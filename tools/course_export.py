"""What `make slides` and `make site` share: finding the notebooks, re-running them in a kernel
of the chosen preset, the page links, copying reveal.js and MathJax next to the pages, and checking for
CDN links.

The notebooks are exported from their *stored* outputs (they are saved executed, see
tests/README.md), so an export needs no kernel and takes a second or two per notebook. With
``style`` "lecture" or "notebook" a notebook is first re-run in a fresh kernel (`execute`) whose
environment has ``COURSE_STYLE`` (the figure preset).

What a page without a kernel shows for an output is nbconvert's own choice, by `OUTPUT_PRIORITY`
(its ``display_data_priority``): a player, switch, editor or live figure displays (perceptron_lib's
display contract, ARCHITECTURE.md) its widget view, ``text/plain`` and ``image/png`` (its picture,
with ``{"image/png": {"width", "height", "alt"}}`` in the output's metadata). The re-run stores the
widget state (nbclient's ``store_widget_state``), and `widget_embed.LiveWidgets` keeps the widget view
only where the widget runs in the page with no kernel (an anywidget player: tools/widget_embed.py); the
priority puts that view first, so such a player is live in the page, its picture shown until it is drawn.
Elsewhere (a live figure, whose sliders need Python) the view goes, and the page shows the picture with
its alt text.

`CourseLinks` is the preprocessor that points links between notebooks
(``01_loss_geometry.ipynb``) at the exported pages. The speaker notes are written by the deck's
template (tools/templates/course_reveal), from each cell's ``metadata.speaker_notes``.

Run ``python -m tools.build_site --help`` and ``python -m tools.build_slides --help``.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
from nbconvert.preprocessors import Preprocessor
from traitlets import Dict, Unicode

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Lessons are ``NN_topic.ipynb``; solutions are ``solutions/NN_topic_solutions.ipynb``.
LESSON_GLOB = "[0-9][0-9]_*.ipynb"
SOLUTION_GLOB = "solutions/[0-9][0-9]_*.ipynb"

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Cell metadata key holding the instructor's notes for the slide of that cell (a list of markdown).
NOTES_KEY = "speaker_notes"

#: nbconvert's ``display_data_priority`` for the pages: the widget view first (`widget_embed.LiveWidgets`
#: leaves it only on widgets that run in the page), then its HTML default without JavaScript (which nothing
#: of the course displays), so any other widget shows its picture (image/png, with its alt).
OUTPUT_PRIORITY = [WIDGET_VIEW, "text/html", "text/markdown", "image/svg+xml", "text/latex", "image/png",
                   "image/jpeg", "text/plain"]  # fmt: skip
#: A link target to a course notebook in markdown or HTML: (prefix)(name).ipynb(#anchor)
_NB_LINK_RE = re.compile(r"(?P<pre>\]\(\s*<?|href=[\"'])(?P<path>(?:\./|\.\./)?(?:solutions/)?\d\d_[\w.-]+?)\.ipynb")


def page_config():
    """The nbconvert configuration both exports give their exporter: `OUTPUT_PRIORITY`."""
    from traitlets.config import Config

    return Config({"NbConvertBase": {"display_data_priority": list(OUTPUT_PRIORITY)}})

# --------------------------------------------------------------------------- the notebooks


def lessons(notebook_dir: Path = NOTEBOOKS) -> list[Path]:
    """The course notebooks ``NN_topic.ipynb`` in course order (their names sort that way)."""
    return sorted(Path(notebook_dir).glob(LESSON_GLOB))


def solutions(notebook_dir: Path = NOTEBOOKS) -> list[Path]:
    """The solutions notebooks, in course order."""
    return sorted(Path(notebook_dir).glob(SOLUTION_GLOB))


def title_of(nb) -> str:
    """The first markdown heading of a notebook (without the #), or its file name's topic."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                m = re.match(r"\s*#{1,2}\s+(.+?)\s*#*\s*$", line)
                if m:
                    return m.group(1)
    return ""


def minutes_of(nb) -> str:
    """The "about how long it takes" of the opening cell (e.g. "about 10 minutes"), or ""."""
    for cell in nb.cells[:3]:
        if cell.cell_type == "markdown":
            m = re.search(r"\*\*Time:?\*\*:?\s*([^.\n]+)", cell.source)
            if m:
                return m.group(1).strip()
    return ""


def read(path: Path):
    return nbformat.read(str(path), as_version=4)


def execute(nb, path: Path, *, env: dict | None = None, timeout: int = 300):
    """Run a notebook in a fresh kernel, in its own folder, and return the executed copy.

    The kernel's environment is this process's plus `env` (e.g. ``{"COURSE_STYLE": "lecture"}``),
    without ``MPLBACKEND`` so that figures use the inline backend, as in JupyterLab. It is given
    to the kernel manager (``start_kernel(env=...)``); this process's own environment is untouched.
    """
    from nbclient import NotebookClient

    nb = copy.deepcopy(nb)
    kernel_env = {**os.environ, **(env or {})}
    kernel_env.pop("MPLBACKEND", None)
    # the kernel's own log level: quiet about its transport ("running over TCP without encryption");
    # the widget state stored in the notebook's metadata: the page's live widgets are drawn from it
    quiet = ["--IPKernelApp.log_level=ERROR"]
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", extra_arguments=quiet,
                            store_widget_state=True,
                            resources={"metadata": {"path": str(Path(path).parent)}})  # fmt: skip
    client.execute(env=kernel_env)
    return nb


def rerun(nb, path: Path, style: str, warnings: list[str]):
    """`nb` re-run in the preset `style` ("notebook" or "lecture"), or as saved for "saved".

    If the run fails (a cell raises, the kernel dies), the saved outputs are exported instead and
    a line saying so is appended to `warnings` and printed to stderr: the export still works, and
    the message names the notebook to fix.
    """
    if style == "saved":
        return nb
    try:
        return execute(nb, path, env={"COURSE_STYLE": style})
    except Exception as err:  # noqa: BLE001 (nbclient raises several kinds; all mean "could not re-run")
        first = next((line for line in str(err).splitlines() if "Error" in line), type(err).__name__)
        msg = f"{Path(path).name}: re-running it failed ({first.strip()[:160]}); exported its saved outputs"
        print(f"WARNING: {msg}", file=sys.stderr, flush=True)
        warnings.append(msg)
        return nb


# --------------------------------------------------------------------------- links


class CourseLinks(Preprocessor):
    """Point links to exported notebooks at their pages; leave other links alone.

    ``link_suffix`` replaces ``.ipynb`` in links (markdown cells and HTML outputs) to the notebooks
    listed in ``link_targets`` (paths relative to the notebooks folder, without ``.ipynb``):
    ".html" for the site, ".slides.html" for the decks. ``resources["course_relpath"]`` is the
    folder of the notebook being exported, relative to the notebooks folder.
    """

    link_suffix = Unicode(".html").tag(config=True)
    link_targets = Dict().tag(config=True)  # {"01_loss_geometry": True, ...}

    def preprocess(self, nb, resources):
        here = resources.get("course_relpath", "")
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = self.rewrite_links(cell.source, here)
            for out in cell.get("outputs", []):
                html = out.get("data", {}).get("text/html")
                if html is not None:
                    out["data"]["text/html"] = self.rewrite_links("".join(html) if isinstance(html, list) else html,
                                                                  here)  # fmt: skip
        return nb, resources

    def rewrite_links(self, text: str, here: str = "") -> str:
        def sub(m):
            path = m.group("path")
            target = os.path.normpath(os.path.join(here, path.removeprefix("./")))
            if target in self.link_targets:
                return f"{m.group('pre')}{path}{self.link_suffix}"
            return m.group(0)

        return _NB_LINK_RE.sub(sub, text)


# --------------------------------------------------------------------------- assets


def _package_dir(module: str) -> Path:
    import importlib

    mod = importlib.import_module(module)
    return Path(mod.__file__).resolve().parent


def mathjax_source() -> Path:
    """MathJax 3's browser files (es5/), as shipped by the PyPI package django-static-mathjax."""
    return _package_dir("mathjax") / "static" / "mathjax" / "es5"


def reveal_source() -> Path:
    """reveal.js (dist/ and plugin/), as shipped by the PyPI package sphinx-revealjs."""
    return _package_dir("sphinx_revealjs") / "_static" / "revealjs"


#: The one MathJax file the pages load: TeX input with every extension, SVG output. SVG needs no
#: web fonts, which a page opened from file:// could not load (Chromium blocks fonts there).
MATHJAX_FILE = "tex-svg-full.js"


def copy_mathjax(dest: Path) -> Path:
    """Copy MathJax (one 2.3 MB file, `MATHJAX_FILE`, and its licence) to `dest`; returns `dest`."""
    src = mathjax_source()
    dest = Path(dest)
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    shutil.copy2(src / MATHJAX_FILE, dest / MATHJAX_FILE)
    licence = src.parent / "LICENSE"
    if licence.exists():
        shutil.copy2(licence, dest / "LICENSE")
    return dest


def copy_reveal(dest: Path, theme: str = "white") -> Path:
    """Copy reveal.js's script, core CSS, one theme with its fonts and the notes plugin to `dest`."""
    src = reveal_source()
    dest = Path(dest)
    shutil.rmtree(dest, ignore_errors=True)
    (dest / "dist" / "theme").mkdir(parents=True)
    for name in ("reveal.js", "reveal.css", "reset.css"):
        shutil.copy2(src / "dist" / name, dest / "dist" / name)
    shutil.copy2(src / "dist" / "theme" / f"{theme}.css", dest / "dist" / "theme" / f"{theme}.css")
    shutil.copytree(src / "dist" / "theme" / "fonts", dest / "dist" / "theme" / "fonts")
    (dest / "plugin" / "notes").mkdir(parents=True)
    shutil.copy2(src / "plugin" / "notes" / "notes.js", dest / "plugin" / "notes" / "notes.js")
    if (src / "LICENSE").exists():
        shutil.copy2(src / "LICENSE", dest / "LICENSE")
    return dest


# --------------------------------------------------------------------------- checks

#: A script or stylesheet (or a module import) loaded from the network.
_REMOTE_REF_RE = re.compile(
    r"""<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//"""
    r"""|@import\s+(?:url\()?\s*["']?(?:https?:)?//"""
    r"""|\b(?:import|from)\s*(?:\(\s*)?["'](?:https?:)?//""",
    re.I,
)


def remote_references(html: str) -> list[str]:
    """The places in a page that would load a script, stylesheet or image from the network."""
    return [html[max(0, m.start() - 20): m.end() + 60] for m in _REMOTE_REF_RE.finditer(html)]


def check_offline(folder: Path) -> dict[str, list[str]]:
    """{file: remote references} for every .html, .css and .js file under `folder` that has some."""
    bad = {}
    for path in sorted(Path(folder).rglob("*")):
        if path.suffix in (".html", ".css") and path.is_file():
            refs = remote_references(path.read_text(errors="replace"))
            if refs:
                bad[str(path.relative_to(folder))] = refs
    return bad


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
