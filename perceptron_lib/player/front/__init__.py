"""The players' front end: ES modules that run in the browser, shipped inside the package (no build step).

* ``numpy_random.js``: numpy's ``default_rng(seed).permutation(n)``, bit for bit (a random order).
* ``perceptron.js``: the step rule of `perceptron_lib.core.perceptron` and the online fit of
  `perceptron_lib.core.training.fit_perceptron`, with its history and cycle test.
* ``max_margin.js``: what the editor's readout states (`perceptron_lib.core.own_data.summarize`): R,
  separability, the exact best margin with a checkable certificate, and the mistake bound.
* ``geometry.js``, ``scene.js``, ``frame.js``, ``controls.js``, ``chart_axes.js``, ``curves.js``, ``panels.js``,
  ``player.js``: the stepping player (`perceptron_lib.player.browser.BrowserPlayer`): the data panel's geometry
  (view, clipped boundary, where the arrows go), the scene drawn in SVG (axes and points) and each step's frame on
  it (boundaries, arrows, caption), the controls and legends, the charts
  beside the data panel (their axes, and what is drawn on them),
  the panels' registry (``PANEL_KINDS``, with the overlays on the data panel), the column beside the picture
  (``side.js``: where each panel goes, and the lecture column's height), and the anywidget entry
  (`PLAYER_MODULES`).

The files import each other by relative paths, as ES modules do. A widget front end is loaded as one
module from a Blob URL (anywidget does so), where a relative import cannot resolve; `source` joins the
files into that one module. ``tests/test_front_perceptron.py`` holds the browser's runs equal to the
library's.
"""

from __future__ import annotations

import re
from importlib import resources

__all__ = ["MODULES", "PLAYER_MODULES", "join", "source"]

#: The modules in the order they are joined: each imports only from modules before it.
MODULES = ("numpy_random.js", "perceptron.js", "max_margin.js")
#: The stepping player's front end, joined in this order (its last module has anywidget's default export).
PLAYER_MODULES = ("geometry.js", "scene.js", "frame.js", "controls.js", "chart_axes.js", "curves.js",
                  "lift_geometry.js", "lifted.js", "contour.js", "panels.js", "side.js",
                  "player.js")

_SIBLING_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([a-z_]+\.js)";\n', re.M)
#: A top-level declaration: biome formats the module's own scope at column 0, and only there.
_TOP_LEVEL = re.compile(r"^(?:export )?(?:default )?(?:async )?(?:const|let|var|function\*?|class) ([A-Za-z_$][\w$]*)",
                        re.M)


def source(modules=MODULES) -> str:
    """The `modules` joined into one ES module that exports what each exports.

    Each file's imports of its siblings are dropped: the names they import are then defined earlier in
    the same module. A file that imports a module not joined before it is an error, and so are two files
    that declare the same top-level name (the joined module would not parse, and no player on the page
    would draw).

    Examples
    --------
    >>> text = source()
    >>> "export function fitPerceptron" in text and 'from "./' not in text
    True
    """
    return join({name: resources.files(__package__).joinpath(name).read_text(encoding="utf-8") for name in modules})


def join(texts) -> str:
    """The ES modules `texts` (file name -> text, in the order to join) as one module; see `source`.

    Examples
    --------
    >>> join({"a.js": "export const X = 1;\\n", "b.js": 'import { X } from "./a.js";\\nexport const Y = X;\\n'})
    '// ---- a.js\\nexport const X = 1;\\n\\n// ---- b.js\\nexport const Y = X;\\n'
    """
    parts, joined, declared = [], set(), {}
    order = tuple(texts)
    for name, text in texts.items():
        for needed in _SIBLING_IMPORT.findall(text):
            if needed not in joined:
                raise ValueError(f"{name} imports {needed}, which is not joined before it: order the modules "
                                 f"so that each comes after those it imports; got {order!r}.")
        for top in _TOP_LEVEL.findall(text):
            if declared.setdefault(top, name) != name:
                raise ValueError(f"{name} and {declared[top]} both declare the top-level name {top!r}, so the "
                                 f"joined module would not parse: rename one, or import it from the other.")
        parts.append(f"// ---- {name}\n" + _SIBLING_IMPORT.sub("", text))
        joined.add(name)
    return "\n".join(parts)
