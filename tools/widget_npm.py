"""The widget front end the pages carry, from npm (`tools/widget_embed.py` puts it into a build).

The JavaScript files come from their npm packages at build time, pinned with their integrity (`PACKAGES`):
``npm pack NAME@VERSION`` into a cache outside the repository (`cache_dir`), checked against the pinned
sha512 before any file is copied (`fetch`); `copy_front` puts them and the pages' loader into a build's
``widgets/`` folder, `write_modules` the widgets' shared module texts. Nothing is fetched when a page is viewed.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The loader of the pages (copied beside the npm files).
LOADER = Path(__file__).resolve().parent / "templates" / "course_common" / "course-widgets.js"


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
