"""Players that choose their run in the browser: `BrowserSwitch` (buttons choose among runs sent once) here, and
`browser_controlled.BrowserControlled` (the student picks the fit's settings and the run is fitted again).

    switch = BrowserSwitch({"≤ 0": run_a, "< 0": run_b}, X, y, description="rule")

Both draw and step through ``front/player.js`` (`mountPlayer`), as `BrowserPlayer` does, and display as every
player does (`recording.ShownWidget`: the widget, a text repr, a still PNG with its alt sentence); what they share
is here (`switch_module`, `PlayerShown`).

The switch sends every run once, each in the format of `browser.run_trait`, all on one view of the data (and one
value range per curve panel that can share one: ``span`` and ``share``), so switching never rescales the axes.
A choice costs one message, the new ``choice`` (with ``k`` when the new run is shorter than the step shown).
"""

from __future__ import annotations

import numbers
import re
from importlib import resources

import anywidget
import numpy as np
import traitlets

from .._validation import check_X_y
from ..draw import style as _style
from . import front
from .browser import run_trait
from .panels.data import DataPanel
from .readout import alt_text, state_lines
from .recording import ShownWidget, scene_still
from .render import DENSITY, Scene, panels_at_once

__all__ = ["BrowserSwitch", "PlayerShown", "module_order", "shared_view", "switch_module"]

_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([a-z_]+\.js)";$', re.M)


def switch_module(entry: str) -> str:
    """The one ES module of a widget whose entry (`entry`, with anywidget's default export) builds on the player:
    the player's modules and every module `entry` imports, each after those it imports (`module_order`), with one
    default export, the entry's (``player.js`` and ``switch.js`` have their own)."""
    text = front.source(module_order((*front.PLAYER_MODULES, entry)))
    last = text.rindex("\n// ---- ")
    head, n = re.subn(r"^export default .*;\n", "", text[:last], flags=re.M)
    if n < 1:
        raise RuntimeError("player.js has no 'export default ...;' line to leave out: update switch_module.")
    return head + text[last:]


def module_order(roots) -> tuple:
    """`roots` and every front module they import, each after the modules it imports (depth first, in the order the
    roots and the imports are written)."""
    order: list[str] = []

    def visit(name, path=()):
        if name in order:
            return
        if name in path:
            raise ValueError(f"the front modules import each other in a circle: {' -> '.join((*path, name))}.")
        text = resources.files(front).joinpath(name).read_text(encoding="utf-8")
        for needed in _IMPORT.findall(text):
            visit(needed, (*path, name))
        order.append(name)

    for root in roots:
        visit(root)
    return tuple(order)


def shared_view(views) -> dict:
    """The smallest view that holds every one of `views` (dicts of ``xlim``, ``ylim``): one pair of axes for runs
    that are compared.

    Examples
    --------
    >>> shared_view([{"xlim": [0, 1], "ylim": [-1, 1]}, {"xlim": [-2, 0.5], "ylim": [0, 3]}])
    {'xlim': [-2.0, 1.0], 'ylim': [-1.0, 3.0]}
    """
    views = list(views)
    return {axis: [float(min(v[axis][0] for v in views)), float(max(v[axis][1] for v in views))]
            for axis in ("xlim", "ylim")}


#: Panel kinds whose numbers are computed over their own box (a loss map's bands, the lifted view): their limits are
#: not widened here, which would leave a run's map a patch in a larger, blank panel. A panel that can draw every run
#: on one box says so by a method ``shared(runs)`` (the contour map: `ContourPathPanel.shared`), which the switch
#: calls first: its box is then the same for every run, computed over that box.
OWN_BOX_KINDS = frozenset({"contour", "lifted"})


def shared_panels(traits) -> list:
    """`traits` with each extra panel's ``xlim`` and ``ylim`` (where it has them) the smallest that holds every run's:
    a chart keeps its axes whatever run is chosen (not the kinds of `OWN_BOX_KINDS`)."""
    traits = [dict(t) for t in traits]
    for p in range(len(traits[0].get("panels", []))):
        specs = [t["panels"][p] for t in traits]
        if any(s.get("kind") in OWN_BOX_KINDS for s in specs):
            continue
        shared = {lim: [min(s[lim][0] for s in specs), max(s[lim][1] for s in specs)]
                  for lim in ("xlim", "ylim") if all(isinstance(s.get(lim), list | tuple) for s in specs)}
        for t in traits:
            t["panels"] = [*t["panels"][:p], {**t["panels"][p], **shared}, *t["panels"][p + 1:]]
    return traits


def _still(run, X, y, *, k, style, panels, readout, alt):
    """The run drawn by matplotlib (`render.Scene`) at step k, and its words at each k: what the notebook keeps (a
    still). Where the preset's text leaves room for fewer panels (lecture), the main one and the first, as
    `BrowserPlayer`'s still (the browser draws them all)."""
    dpi = float(DENSITY * style.dpi)
    scene = Scene([DataPanel(), *panels][: panels_at_once(style)], run, X, y, style=style, dpi=dpi)
    scene.draw(k)

    def words(j):
        return alt(run, X, y, j), "\n".join(readout(run, X, y, j))

    return scene, dpi, words


class PlayerShown(ShownWidget):
    """What the two players share: the still, the words of the run on show, and ``k``'s check."""

    _k_max = 0

    def _shown_run(self):
        """(run, X, y) on show."""
        raise NotImplementedError

    def _drawn(self):
        run, X, y = self._shown_run()
        key = (id(run), self.k)
        if getattr(self, "_still_key", None) != key:
            self._still_parts, self._still_key = _still(run, X, y, k=self.k, style=self._style, panels=self._panels,
                                                        readout=self._readout, alt=self._alt), key
        return self._still_parts

    def snapshot(self):
        """(png, width, height, alt) of the step on show, drawn by matplotlib, small, for a stored notebook."""
        scene, _dpi, words = self._drawn()
        self._still_parts = self._still_key = None  # not kept (7-18 MB in a kernel): drawn again if shown again
        return scene_still(scene, self._style, words(self.k)[0])

    def lines(self, k=None) -> list:
        """The readout at step k of the run on show (default: the step shown), the headline first."""
        run, X, y = self._shown_run()
        return [str(line) for line in self._readout(run, X, y, self.k if k is None else k)]

    @property
    def text(self) -> str:
        return "\n".join(self.lines())

    @property
    def alt(self) -> str:
        """The picture's accessible name at the step shown."""
        run, X, y = self._shown_run()
        return str(self._alt(run, X, y, self.k))

    @property
    def K(self) -> int:
        """The number of updates of the run on show; its steps are k = 0..K."""
        return len(self._shown_run()[0].history) - 1

    @property
    def state(self):
        """The step on show as (w, b) arrays."""
        h = self._shown_run()[0].history
        return np.array(h.w[self.k]), float(h.b[self.k])

    @traitlets.validate("k")
    def _valid_k(self, proposal):
        k = proposal["value"]
        if not 0 <= k <= self._k_max:
            raise traitlets.TraitError(f"k must be a step of the run on show, 0..{self._k_max}; got {k}.")
        return k

    @traitlets.validate("interval_ms")
    def _valid_interval(self, proposal):
        value = proposal["value"]
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
            raise traitlets.TraitError(f"interval_ms must be a whole number of milliseconds > 0; got {value!r}.")
        return int(value)


class BrowserSwitch(PlayerShown, anywidget.AnyWidget):
    """Buttons over a player that choose the run it shows, all in the browser.

    Parameters
    ----------
    runs : dict
        ``{label: run}``, or values ``(run, X, y)`` for a run of other data (flipped labels, say). A run given
        without data is a run of `X`, `y`.
    X, y : array-like, optional
        The data of the runs given without their own.
    panels : sequence
        Curve panels drawn beside the data (`BrowserPlayer`'s ``panels``); a panel with ``span`` and ``share``
        (a `LossPanel`) gets one value range for all the runs, a panel with ``shared`` (a `ContourPathPanel`) one box
        for all their paths (a copy: the panel given is left as it was).
    description : str
        The name of the choice (the radio group's label), such as "rule".
    value : str, optional
        The run shown first (default: the first).
    style, interval_ms, readout, alt, k : as `BrowserPlayer`.

    Synced traits: ``runs`` (list of run traits, sent once), ``labels``, ``description``, ``choice`` (the index of
    the run on show: both ways; the browser sends it with ``k`` when it clamps k to a shorter run), ``k`` and
    ``interval_ms`` (as `BrowserPlayer`'s).
    """

    _esm = switch_module("switch.js")
    runs = traitlets.List(traitlets.Dict()).tag(sync=True)
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    description = traitlets.Unicode("run").tag(sync=True)
    choice = traitlets.Int(0).tag(sync=True)
    k = traitlets.Int(0).tag(sync=True)
    interval_ms = traitlets.Int(500).tag(sync=True)

    def __init__(self, runs: dict, X=None, y=None, *, panels=(), description="run", value=None, style=None,
                 interval_ms=500, readout=state_lines, alt=alt_text, k=0):
        if not isinstance(runs, dict) or not runs:
            raise ValueError(f"runs must be a dict of at least one {{label: run}}; got {runs!r:.80}.")
        self._style, self._panels, self._readout, self._alt = _style.get(style), list(panels), readout, alt
        self._runs = {str(label): self._with_data(label, v, X, y) for label, v in runs.items()}
        labels = list(self._runs)
        choice = 0 if value is None else self._index(value, labels)
        runs_shown = [run for run, _X, _y in self._runs.values()]
        self._panels = [p.shared(runs_shown) if hasattr(p, "shared") else p for p in self._panels]
        traits = self._run_traits()
        self._k_max = traits[choice]["K"]
        super().__init__(runs=traits, labels=labels, description=str(description), choice=choice,
                         interval_ms=interval_ms, k=k)

    @staticmethod
    def _with_data(label, value, X, y):
        run, Xr, yr = value if isinstance(value, tuple) else (value, X, y)
        if Xr is None or yr is None:
            raise ValueError(f"run {label!r} has no data: give X, y, or the value (run, X, y).")
        return (run, *check_X_y(Xr, yr))

    @staticmethod
    def _index(label, labels) -> int:
        if label not in labels:
            raise KeyError(f"no run named {label!r}; the runs are {labels}.")
        return labels.index(label)

    def _run_traits(self) -> list:
        """Every run's trait, on one view and one value range per sharing panel."""
        for panel in self._panels:
            if hasattr(panel, "span") and hasattr(panel, "share"):
                spans = [panel.span(run, X, y) for run, X, y in self._runs.values()]
                panel.share(min(s[0] for s in spans), max(s[1] for s in spans))
        traits = [run_trait(run, X, y, style=self._style, readout=self._readout, alt=self._alt, panels=self._panels)
                  for run, X, y in self._runs.values()]
        view = shared_view(t["view"] for t in traits)
        return shared_panels([{**t, "view": view} for t in traits])

    def _shown_run(self):
        return self._runs[self.labels[self.choice]]

    def __repr__(self):
        return f"<BrowserSwitch: {' | '.join(self.labels)}; showing {self.value}>"

    @property
    def value(self) -> str:
        """The label of the run on show."""
        return self.labels[self.choice]

    @property
    def run(self):
        """The run on show (a `Run`)."""
        return self._shown_run()[0]

    def select(self, label) -> None:
        """Show the run named `label` at the same step (clamped to its last), as a click on its button does."""
        j = self._index(label, self.labels)
        K = self.runs[j]["K"]
        with self.hold_sync(), self.hold_trait_notifications():
            self.choice = j
            self.k = min(self.k, K)

    @traitlets.validate("choice")
    def _valid_choice(self, proposal):
        j = proposal["value"]
        if not 0 <= j < len(self.runs):
            raise traitlets.TraitError(f"choice must be the index of a run, 0..{len(self.runs) - 1}; got {j}.")
        self._k_max = self.runs[j]["K"]
        return j
