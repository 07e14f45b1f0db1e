"""Live widgets in the pages without a kernel (`make site`, `make slides`): the saved widget state and the
widget manager, embedded, so that every anywidget player of a page steps with no kernel and nothing fetched.

How a page gets its live players
--------------------------------
* The exports run each notebook with nbclient's ``store_widget_state=True`` (`course_export.execute`): the
  notebook's metadata then holds every widget's state, an anywidget's module (``_esm``) among it.
* `LiveWidgets` (an nbconvert preprocessor) decides, output by output, what a page shows for a widget view:
  the live widget when everything it is made of runs in the browser (`runs_in_page`: an anywidget model, with
  only layout, style, box and text models around it), else what a page showed before (its HTML form if it has
  one, else its still picture with its alt text): a live figure's sliders would do nothing without its kernel.
  A live widget's output keeps its still picture, which the page shows until the widget is drawn (and for ever
  if scripts are off), and loses any HTML form. The state keeps only the models of the live widgets; a page with
  none has no state and loads no widget script. A kept model keeps its binary buffers (an editor's ``run``: its
  arrays as `library_run.packed` sends them), base64 in the model's ``buffers`` list as nbclient stored them: the
  widget manager's ``set_state`` puts each back in the state as a DataView, as a kernel's message would.
* An anywidget stores its module's text in each widget's state. `LiveWidgets` takes every ``_esm`` and
  ``_css`` out of the state and stores each distinct text once for the whole site, as a classic script in
  ``widgets/modules/`` (a page from file:// may load a script, but may not ``import()`` another file); the
  page's loader puts the text back before the widget manager reads the state.
* The page loads, at the end, with ``defer``: ``widgets/require.js`` (npm ``requirejs``), the widget manager
  ``widgets/libembed-amd.js`` (npm ``@jupyter-widgets/html-manager``: ipywidgets' base and controls),
  the modules the page uses, and ``widgets/course-widgets.js`` (tools/templates/course_common): it points
  require.js at ``widgets/anywidget.js`` (npm ``anywidget``), fills the state in, draws each live view where
  its output stood and removes the still. It then sets ``<html data-course-widgets="ready">`` (or
  "failed") and sends the event ``course-widgets`` (the decks fit their slides again then). A module the page
  does not carry would be looked for in ``widgets/cdn/``, a folder of the page, never on the network.

The JavaScript files come from their npm packages at build time, pinned with their integrity
(`tools/widget_npm.py`: `PACKAGES`, `fetch`, `copy_front`). Nothing is fetched when a page is viewed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

from nbconvert.preprocessors import Preprocessor

from tools.widget_npm import PACKAGES, Package, cache_dir, copy_front, fetch, integrity_of, write_modules

__all__ = ["PACKAGES", "Package", "cache_dir", "copy_front", "fetch", "integrity_of", "write_modules",
           "LiveWidgets", "install", "describe", "page_resources", "placed_buffers", "runs_in_page", "satisfies",
           "share"]  # the npm half's names too: the builds and tests read them here

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: The folder of a built site or deck folder that holds the widget front end.
FOLDER = "widgets"
#: The model modules and versions the page's widget manager draws (html-manager 1.0.15 is ipywidgets 8's).
MANAGER_MODULES = {"@jupyter-widgets/base": "2.0.0", "@jupyter-widgets/controls": "2.0.0",
                   "@jupyter-widgets/output": "1.0.0"}  # fmt: skip
#: Models that hold no Python logic: drawn in a page they behave as with a kernel (layout, style, boxes, text).
_PASSIVE = {
    "@jupyter-widgets/base": re.compile(r"LayoutModel"),
    "@jupyter-widgets/controls": re.compile(r".*StyleModel|(H|V|Grid)?BoxModel|HTMLModel|HTMLMathModel|LabelModel"),
}
_REF = re.compile(r"^IPY_MODEL_([\w-]+)$")
#: The traits of an anywidget model that carry its module's text, stored once per site.
SHARED_TRAITS = ("_esm", "_css")
#: Where a shared text stood in the state: {SHARED_KEY: "<hash>"} (course-widgets.js reads it).
SHARED_KEY = "$course_module"


# --------------------------------------------------------------------------- which widgets come alive


def _refs(value) -> list[str]:
    """The model ids a state value refers to (``"IPY_MODEL_<id>"``, in lists and dicts too)."""
    if isinstance(value, str):
        m = _REF.match(value)
        return [m.group(1)] if m else []
    if isinstance(value, (list, tuple)):
        return [r for v in value for r in _refs(v)]
    if isinstance(value, dict):
        return [r for v in value.values() for r in _refs(v)]
    return []


def closure(states: dict, model_id: str) -> list[str]:
    """`model_id` and every model it refers to, directly or not (ids missing from `states` included)."""
    seen, todo = [], [model_id]
    while todo:
        mid = todo.pop()
        if mid in seen:
            continue
        seen.append(mid)
        todo.extend(_refs(states.get(mid, {}).get("state", {})))
    return seen


def _is_anywidget(model: dict) -> bool:
    return model.get("model_module") == "anywidget"


def _passive(model: dict) -> bool:
    rule = _PASSIVE.get(model.get("model_module"))
    return rule is not None and rule.fullmatch(model.get("model_name", "")) is not None and \
        model.get("model_module_version") == MANAGER_MODULES.get(model.get("model_module"))


def runs_in_page(states: dict, model_id: str) -> bool:
    """Whether the view of `model_id` works in a page with no kernel: its models are all in `states`, one at
    least is an anywidget (its logic is its module), and the others hold no Python logic (`_PASSIVE`)."""
    models = [states.get(mid) for mid in closure(states, model_id)]
    if any(m is None for m in models) or not any(_is_anywidget(m) for m in models):
        return False
    return all(_is_anywidget(m) or _passive(m) for m in models)


def share(states: dict) -> dict[str, str]:
    """Take each `SHARED_TRAITS` text out of the anywidget models of `states` (changed in place), leaving
    ``{SHARED_KEY: hash}``; returns {hash: text}, each distinct text once."""
    modules = {}
    for model in states.values():
        if not _is_anywidget(model):
            continue
        for trait in SHARED_TRAITS:
            text = model.get("state", {}).get(trait)
            if isinstance(text, str) and text:
                key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
                modules[key] = text
                model["state"][trait] = {SHARED_KEY: key}
    return modules


def anywidget_versions(states: dict) -> set[str]:
    return {m.get("model_module_version", "") for m in states.values() if _is_anywidget(m)}


def satisfies(version: str, spec: str) -> bool:
    """Whether `version` (``X.Y.Z``) meets an npm range of the forms widgets use: ``X.Y.Z``, ``~X.Y.*``,
    ``~X.Y.Z``, ``^X.Y.Z``, ``X.*``.

    Examples
    --------
    >>> satisfies("0.11.0", "~0.11.*"), satisfies("0.12.0", "~0.11.*"), satisfies("2.0.0", "^2.0.0")
    (True, False, True)
    """
    have = [int(p) for p in version.split(".")]
    spec = spec.strip()
    op = spec[0] if spec[:1] in "~^" else ""
    parts = spec.lstrip("~^").split(".")
    fixed = [int(p) for p in parts if p not in ("*", "x")]
    if op == "^":
        lead = next((i for i, p in enumerate(fixed) if p), len(fixed) - 1)
        return have[: lead + 1] == fixed[: lead + 1] and have >= fixed + [0] * (3 - len(fixed))
    if op == "~":
        return have[:2] == (fixed + [0, 0])[:2] and have >= fixed + [0] * (3 - len(fixed))
    return have[: len(fixed)] == fixed


def _version_of(name: str) -> str:
    return next(p.version for p in PACKAGES if p.name == name)


def _has_place(state, path) -> bool:
    """Whether a buffer at `path` has a place in `state`: every step but the last leads through dicts (or lists, by
    index) that exist, and the last is a key of a dict."""
    here = state
    for key in path[:-1]:
        if isinstance(here, dict) and key in here:
            here = here[key]
        elif isinstance(here, list) and isinstance(key, int) and 0 <= key < len(here):
            here = here[key]
        else:
            return False
    return isinstance(here, dict) or (isinstance(here, list) and isinstance(path[-1], int) and
                                      0 <= path[-1] < len(here))


def placed_buffers(model: dict) -> dict:
    """`model` without the buffers that have no place in its state. nbclient keeps, per model, the last buffer sent
    at each path, even when a later state has nothing there (an editor's lean run replaced by a full one: its
    arrays are lists again); the widget manager would fail to put such a buffer back, and the page's widget with it.
    """
    buffers = model.get("buffers")
    if not buffers:
        return model
    kept = [b for b in buffers if _has_place(model.get("state", {}), b.get("path", []))]
    return {**model, "buffers": kept} if kept else {k: v for k, v in model.items() if k != "buffers"}


class LiveWidgets(Preprocessor):
    """Show live the widget views that run in a page (`runs_in_page`); the others as the page showed them.

    For a live view the output keeps its widget view, its ``text/plain`` and its still picture, and loses its
    HTML form (``text/html``); for any other the widget view goes. The notebook's widget state keeps only the
    live views' models, each anywidget's module stored once (`share`); with no live view it goes.
    ``resources["course_widgets"]`` gets ``modules`` ({hash: text}), ``views`` (the number of live views) and
    ``state_bytes`` (the state's size in the page).
    """

    def preprocess(self, nb, resources):
        store = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {})
        states = store.get("state", {})
        keep, views = set(), 0
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if WIDGET_VIEW not in data:
                    continue
                model_id = data[WIDGET_VIEW].get("model_id", "")
                if states and runs_in_page(states, model_id):
                    keep.update(closure(states, model_id))
                    data.pop("text/html", None)
                    views += 1
                else:
                    data.pop(WIDGET_VIEW)
        info = resources.setdefault("course_widgets", {})
        info.update(modules={}, views=views, state_bytes=0)
        if not keep:
            nb.metadata.pop("widgets", None)
            return nb, resources
        kept = {mid: placed_buffers(states[mid]) for mid in states if mid in keep}
        wanted = _version_of("anywidget")
        for spec in anywidget_versions(kept):
            if not satisfies(wanted, spec):
                raise SystemExit(f"error: the notebook's anywidget models want front end {spec}; the pages carry "
                                 f"anywidget {wanted} (tools/widget_embed.PACKAGES): pin the version that fits")
        info["modules"] = share(kept)
        nb.metadata["widgets"] = {WIDGET_STATE: {**store, "state": kept}}
        info["state_bytes"] = len(json.dumps(nb.metadata["widgets"][WIDGET_STATE]).encode("utf-8"))
        return nb, resources


# --------------------------------------------------------------------------- a build's widgets


def page_resources(out_dir: Path, page: Path) -> dict:
    """The ``course_widgets`` resources of one page: where its widgets folder is, relative to it."""
    rel = os.path.relpath(Path(out_dir) / FOLDER, Path(page).parent)
    return {"url": Path(rel).as_posix()}


def install(out_dir: Path, pages: dict, cache: Path | None = None) -> dict:
    """After a build's pages: the front end and the shared modules into ``out_dir/widgets`` if a page has a live
    widget (else that folder goes). `pages` is {page path: its ``course_widgets`` resources}.

    Returns the costs in bytes: ``front`` (the npm files and the loader, once per folder), ``modules`` (the
    shared module texts, once per folder), and per page with live widgets its ``views`` and ``state`` (its
    widget state in the page) and ``modules`` (the shared texts it loads).
    """
    out_dir = Path(out_dir)
    dest = out_dir / FOLDER
    live = {page: info for page, info in pages.items() if info.get("views")}
    if not live:
        shutil.rmtree(dest, ignore_errors=True)
        return {"front": 0, "modules": 0, "views": 0, "pages": {}}
    copy_front(dest, cache)
    modules = {key: text for info in live.values() for key, text in info["modules"].items()}
    written = write_modules(dest, modules)
    front = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file()) - written
    per_page = {}
    for page, info in live.items():
        shared = sum((dest / "modules" / f"{key}.js").stat().st_size for key in info["modules"])
        per_page[Path(page).relative_to(out_dir).as_posix()] = {"views": info["views"], "state": info["state_bytes"],
                                                                 "modules": shared}
    return {"front": front, "modules": written, "views": sum(i["views"] for i in live.values()), "pages": per_page}


def describe(costs: dict) -> list[str]:
    """The lines a build prints about its live widgets' costs."""
    if not costs["views"]:
        return ["live widgets: none (every player shows its picture)"]
    lines = [f"live widgets: {costs['views']} in {len(costs['pages'])} pages; once per folder the front end "
             f"{costs['front'] / 1e6:.2f} MB and the shared modules {costs['modules'] / 1e3:.0f} kB"]
    for page, c in costs["pages"].items():
        lines.append(f"  {page}: {c['views']} live, widget state {c['state'] / 1e3:.1f} kB "
                     f"({c['state'] / c['views'] / 1e3:.1f} kB a widget), modules {c['modules'] / 1e3:.0f} kB")
    return lines
