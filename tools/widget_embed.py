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

The JavaScript files come from their npm packages at build time, pinned with their integrity (`PACKAGES`):
``npm pack NAME@VERSION`` into a cache outside the repository (`cache_dir`), checked against the pinned
sha512 before any file is copied. Nothing is fetched when a page is viewed.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from nbconvert.preprocessors import Preprocessor

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: The loader of the pages (copied beside the npm files).
LOADER = Path(__file__).resolve().parent / "templates" / "course_common" / "course-widgets.js"
#: The folder of a built site or deck folder that holds the widget front end.
FOLDER = "widgets"


@dataclass(frozen=True)
class Package:
    """An npm package the pages load: its pinned version and integrity (``npm view NAME@VERSION
    dist.integrity``), and the files taken from its tarball (a pattern under ``package/`` -> the name in
    ``widgets/``, "" keeping the file's own name)."""

    name: str
    version: str
    integrity: str
    files: tuple

    @property
    def tarball(self) -> str:
        """The file name ``npm pack`` gives it (``@scope/name`` -> ``scope-name-VERSION.tgz``)."""
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"


PACKAGES = (
    Package("requirejs", "2.3.8",
            "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
            (("require.js", "require.js"),)),
    # ipywidgets 8's manager for pages (base 2.0, controls 2.0); the woff2 files are its icons' fonts
    Package("@jupyter-widgets/html-manager", "1.0.15",
            "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
            (("dist/libembed-amd.js", "libembed-amd.js"), ("dist/*.woff2", ""),
             ("dist/embed.js.LICENSE.txt", "html-manager.LICENSES.txt"))),
    # its front end, an AMD module: the same version as the Python package's `_model_module_version`
    Package("anywidget", "0.11.0",
            "sha512-LHZgW2j5UjyerZSZcO+BtZPXGMSORQV2bUT480hOR5x/BXS8sOradi/71amJfMueSEnKX0dqPwTfsOGHTsyZpQ==",
            (("dist/index.js", "anywidget.js"), ("LICENSE", "anywidget.LICENSE.txt"))),
)  # fmt: skip

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


# --------------------------------------------------------------------------- the npm files


def cache_dir() -> Path:
    """The folder the npm tarballs are kept in, outside the repository: ``$COURSE_NPM_CACHE``, else
    ``$XDG_CACHE_HOME/perceptron-course/npm`` (``~/.cache/...``)."""
    if os.environ.get("COURSE_NPM_CACHE"):
        return Path(os.environ["COURSE_NPM_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "perceptron-course" / "npm"


def integrity_of(data: bytes) -> str:
    """npm's integrity string of a tarball's bytes (``sha512-<base64>``)."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _checked(path: Path, package: Package) -> bytes | None:
    if not path.is_file():
        return None
    data = path.read_bytes()
    return data if integrity_of(data) == package.integrity else None


def fetch(package: Package, cache: Path | None = None) -> bytes:
    """The tarball of `package`, checked against its pinned integrity: from `cache`, else ``npm pack`` into it.

    A cached tarball whose bytes do not match is fetched again; a fetched one that does not match is an error.
    """
    cache = Path(cache or cache_dir())
    path = cache / package.tarball
    data = _checked(path, package)
    if data is not None:
        return data
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("error: the pages' widget front end comes from npm, which is not installed: "
                         "apt-get install -y nodejs npm (or build with --style saved: no live widgets)")
    cache.mkdir(parents=True, exist_ok=True)
    # into a folder of its own, then moved into place: two builds at once never read a half-written tarball
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        cmd = [npm, "pack", f"{package.name}@{package.version}", "--pack-destination", tmp, "--prefer-offline",
               "--loglevel=error"]  # fmt: skip
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
        if proc.returncode != 0:
            raise SystemExit(f"error: `{' '.join(cmd)}` failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        fetched = Path(tmp) / package.tarball
        data = _checked(fetched, package)
        if data is None:
            got = integrity_of(fetched.read_bytes()) if fetched.is_file() else "no file"
            raise SystemExit(f"error: {package.name}@{package.version} from npm has integrity {got}; "
                             f"tools/widget_embed.py pins {package.integrity}")
        os.replace(fetched, path)
    return data


def _members(data: bytes, package: Package) -> dict[str, bytes]:
    """{name in widgets/: bytes} of the files `package` gives the pages."""
    import io

    out = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
        for pattern, target in package.files:
            hits = fnmatch.filter(names, f"package/{pattern}")
            if not hits:
                raise SystemExit(f"error: {package.name}@{package.version} has no file {pattern}")
            for name in hits:
                out[target or name.rsplit("/", 1)[-1]] = tar.extractfile(name).read()
    return out


def copy_front(dest: Path, cache: Path | None = None) -> Path:
    """The widget front end into `dest` (emptied first): the npm files of `PACKAGES`, the loader, and a
    ``LICENSES.txt`` naming each package. Returns `dest`."""
    dest = Path(dest)
    shutil.rmtree(dest, ignore_errors=True)
    (dest / "modules").mkdir(parents=True)
    lines = ["The widget front end of these pages, copied from npm packages at build time:", ""]
    for package in PACKAGES:
        for name, data in _members(fetch(package, cache), package).items():
            (dest / name).write_bytes(data)
        lines.append(f"{package.name}@{package.version} ({package.integrity})")
    shutil.copy2(LOADER, dest / LOADER.name)
    lines += ["", "require.js carries its licence (MIT) in its header; anywidget's is anywidget.LICENSE.txt;",
              "html-manager is BSD-3-Clause (Jupyter Project), its bundled parts in html-manager.LICENSES.txt."]
    (dest / "LICENSES.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dest


def write_modules(dest: Path, modules: dict[str, str]) -> int:
    """Each shared text of `modules` ({hash: text}) as ``dest/modules/<hash>.js``; returns the bytes written.

    The script puts the text in ``window.courseWidgetModules[hash]`` (JSON is a JavaScript string literal).
    """
    total = 0
    for key, text in modules.items():
        body = f"(window.courseWidgetModules = window.courseWidgetModules || {{}})[{json.dumps(key)}] = " \
               f"{json.dumps(text)};\n"
        path = Path(dest) / "modules" / f"{key}.js"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        total += len(body.encode("utf-8"))
    return total


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
