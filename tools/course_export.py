"""What `make slides` and `make site` share: finding the notebooks, making their outputs fit for
an offline page, copying reveal.js and MathJax next to the pages, and checking for CDN links.

The notebooks are exported from their *stored* outputs (they are saved executed, see
tests/README.md), so an export needs no kernel and takes a second or two per notebook. With
``execute=True`` a notebook is first re-run in a fresh kernel (used for lecture-style decks:
``COURSE_STYLE=lecture`` then switches every figure and player to the lecture preset).

`OfflineOutputs` is the nbconvert preprocessor that turns a course notebook into something a
page without a kernel can show. It relies on the players' display contract (perceptron_lib
widgets, issue 12): a displayed player or live figure returns from ``_repr_mimebundle_`` its
widget view, ``text/plain`` and ``image/png`` (its current picture, with
``{"image/png": {"width", "height", "alt"}}`` in the output's metadata), and, when its kernel
runs with ``PERCEPTRON_COURSE_RECORD=1`` (which `execute` sets), a self-contained ``text/html``
recording. So, for each widget output:

* with a recording: the recording is shown (the page gets the steppable animation);
* else with a PNG: the still picture with its alt text (the saved build, no kernel);
* else a still taken from the widget state nbconvert stored during the run, or nothing
  (controls alone mean nothing without a kernel); a bare ``<StepThrough ...>`` text is dropped.

The recordings are made at export time only: the lesson notebooks store no animation.
Also: matplotlib's ``to_jshtml`` links Font Awesome from a CDN for its button icons; the link
is replaced by inline CSS that draws the icons as text. Links between notebooks
(``01_loss_geometry.ipynb``) point to the exported pages, and the widget state is removed from
the notebook's metadata, so the template does not load the widget manager from a CDN.

`SpeakerNotes` puts each cell's ``metadata.speaker_notes`` (the instructor's notes, kept next to
the slide they belong to and nowhere in the student's view) into a ``notes`` cell after it, which
the reveal template turns into the deck's speaker notes (S). `instructor_notes_markdown` writes
the same notes for ``notebooks/INSTRUCTORS.md``.

Run ``python tools/build_site.py --help`` and ``python tools/build_slides.py --help``.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import sys
from collections.abc import Iterable
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
#: Set in the kernels the exports run: a player then adds its recording to its display (issue 12).
RECORD_ENV = "PERCEPTRON_COURSE_RECORD"
#: Cell metadata key holding the instructor's notes for the slide of that cell (a list of markdown).
NOTES_KEY = "speaker_notes"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: Marks of matplotlib's JavaScript animation (``HTMLWriter``, ``to_jshtml()``) in a text/html output.
_ANIMATION_RE = re.compile(r'class="animation"[\s\S]*?anim-controls|anim-controls[\s\S]*?class="animation"')
_FONT_AWESOME_RE = re.compile(r'<link\s+rel="stylesheet"\s+href="https?://[^"]*font-?awesome[^"]*"\s*/?>', re.I)
_DETAILS_OPEN_RE = re.compile(r"<details(?![^>]*\bopen\b)([^>]*)>", re.I)
#: A link target to a course notebook in markdown or HTML: (prefix)(name).ipynb(#anchor)
_NB_LINK_RE = re.compile(r"(?P<pre>\]\(\s*<?|href=[\"'])(?P<path>(?:\./|\.\./)?(?:solutions/)?\d\d_[\w.-]+?)\.ipynb")

#: Font Awesome 4 icons that matplotlib's animation controls use, drawn with plain text.
ANIMATION_ICONS_CSS = """<style>
.animation .anim-buttons button { min-width: 36px; width: auto; padding: 1px 4px; font: 600 14px/1.2 sans-serif; }
.animation .fa { font-style: normal; display: inline-block; }
.animation .fa-minus::before { content: "\\2212"; }
.animation .fa-plus::before { content: "+"; }
.animation .fa-fast-backward::before { content: "|\\25C0\\25C0"; }
.animation .fa-step-backward::before { content: "|\\25C0"; }
.animation .fa-play::before { content: "\\25B6"; }
.animation .fa-flip-horizontal { transform: scaleX(-1); }
.animation .fa-pause::before { content: "\\275A\\275A"; }
.animation .fa-step-forward::before { content: "\\25B6|"; }
.animation .fa-fast-forward::before { content: "\\25B6\\25B6|"; }
</style>"""


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

    `env` is added to the kernel's environment (e.g. ``{"COURSE_STYLE": "lecture"}``);
    ``MPLBACKEND`` is removed so that figures use the inline backend, as in JupyterLab.
    """
    from nbconvert.preprocessors import ExecutePreprocessor

    nb = copy.deepcopy(nb)
    saved = dict(os.environ)
    os.environ.update(env or {})
    os.environ.pop("MPLBACKEND", None)
    try:
        # the kernel's own log level: quiet about its transport ("running over TCP without encryption")
        quiet = ["--IPKernelApp.log_level=ERROR"]
        ExecutePreprocessor(timeout=timeout, kernel_name="python3", extra_arguments=quiet).preprocess(
            nb, {"metadata": {"path": str(Path(path).parent)}}
        )
    finally:
        os.environ.clear()
        os.environ.update(saved)
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
        return execute(nb, path, env={"COURSE_STYLE": style, RECORD_ENV: "1"})
    except Exception as err:  # noqa: BLE001 (nbclient raises several kinds; all mean "could not re-run")
        first = next((line for line in str(err).splitlines() if "Error" in line), type(err).__name__)
        msg = f"{Path(path).name}: re-running it failed ({first.strip()[:160]}); exported its saved outputs"
        print(f"WARNING: {msg}", file=sys.stderr, flush=True)
        warnings.append(msg)
        return nb


# --------------------------------------------------------------------------- outputs


def is_animation(output) -> bool:
    """True for an output that holds matplotlib's JavaScript animation (a player's fallback)."""
    html = output.get("data", {}).get("text/html")
    if html is None:
        return False
    html = "".join(html) if isinstance(html, list) else html
    return bool(_ANIMATION_RE.search(html))


def _text_plain(output) -> str:
    text = output.get("data", {}).get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def _model_ids(value) -> Iterable[str]:
    """Model ids referenced in a widget state value ("IPY_MODEL_<id>", possibly nested in lists)."""
    if isinstance(value, str) and value.startswith("IPY_MODEL_"):
        yield value[len("IPY_MODEL_"):]
    elif isinstance(value, list):
        for v in value:
            yield from _model_ids(v)


def _only(out, mime: str):
    """A copy of display output `out` with only its `mime` data (and that data's metadata)."""
    meta = out.get("metadata", {}).get(mime)
    return nbformat.v4.new_output(
        "display_data", data={mime: out["data"][mime]}, metadata={mime: copy.deepcopy(meta)} if meta else {}
    )


def widget_still(model_id: str, state: dict) -> dict | None:
    """A display_data bundle (PNG and HTML readout) for a stored widget tree, or None.

    Walks the widget tree from `model_id` in document order and takes the first Image widget's
    PNG (stored as a base64 buffer) and the HTML widgets' text (a player's or a LiveFigure's
    readout).
    """
    pngs, htmls, seen = [], [], set()

    def walk(mid):
        if mid in seen or mid not in state:
            return
        seen.add(mid)
        model = state[mid]
        name = model.get("model_name", "")
        st = model.get("state", {})
        if name == "ImageModel" and st.get("format", "png") == "png":
            for buf in model.get("buffers", []):
                if buf.get("path") == ["value"] and buf.get("encoding", "base64") == "base64":
                    pngs.append(buf["data"])
        elif name == "HTMLModel" and st.get("value"):
            htmls.append(st["value"])
        for key in ("children",):
            for child in _model_ids(st.get(key, [])):
                walk(child)

    walk(model_id)
    if not pngs:
        return None
    data = {"image/png": pngs[0], "text/plain": "<still of a live figure>"}
    if htmls:
        html = "".join(f"<div>{h}</div>" for h in htmls)
        img = f'<img src="data:image/png;base64,{pngs[0]}" alt="still of a live figure">'
        data["text/html"] = f'<div class="course-still">{img}{html}</div>'
    return nbformat.v4.new_output("display_data", data=data)


class OfflineOutputs(Preprocessor):
    """Make a course notebook's stored outputs work on a page with no kernel (see module doc).

    ``link_suffix`` replaces ``.ipynb`` in links to the notebooks listed in ``link_targets``
    (paths relative to the notebooks folder, without ``.ipynb``): ".html" for the site,
    ".slides.html" for the decks.
    """

    link_suffix = Unicode(".html").tag(config=True)
    link_targets = Dict().tag(config=True)  # {"01_loss_geometry": "01_loss_geometry", ...}

    def preprocess(self, nb, resources):
        state = (nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}) or {}).get("state", {})
        here = resources.get("course_relpath", "")  # folder of this notebook, relative to notebooks/
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = self.rewrite_links(cell.source, here)
            elif cell.cell_type == "code":
                outputs = (self.offline_output(out, state) for out in cell.get("outputs", []))
                cell.outputs = [self.fix_html(out, here) for out in outputs if out is not None]
        nb.metadata.pop("widgets", None)
        return nb, resources

    @staticmethod
    def offline_output(out, state: dict):
        """What a page without a kernel shows for one output (see the module doc), or None."""
        data = out.get("data", {})
        if WIDGET_VIEW in data:
            if "text/html" in data:  # the player's recording, made in this export's kernel
                return _only(out, "text/html")
            if "image/png" in data:  # its current picture, with its alt text in the metadata
                return _only(out, "image/png")
            return widget_still(data[WIDGET_VIEW].get("model_id", ""), state)
        if out.get("output_type") in ("execute_result", "display_data") and _text_plain(out).startswith(
            ("<StepThrough", "<LiveFigure")
        ) and len(data) == 1:
            return None  # a widget's bare text: means nothing without a kernel
        return out

    def fix_html(self, out, here: str):
        """An HTML output made to work offline: inline icons for matplotlib's animation, page links."""
        if "text/html" not in out.get("data", {}):
            return out
        out = copy.deepcopy(out)
        html = out["data"]["text/html"]
        html = "".join(html) if isinstance(html, list) else html
        if is_animation(out):
            html = _FONT_AWESOME_RE.sub(lambda _m: ANIMATION_ICONS_CSS, html)
            html = _DETAILS_OPEN_RE.sub(r"<details open\1>", html)
            out["data"].pop("text/plain", None)
        out["data"]["text/html"] = self.rewrite_links(html, here)
        return out

    def rewrite_links(self, text: str, here: str = "") -> str:
        """Point links to exported notebooks at their pages; leave other links alone."""

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
