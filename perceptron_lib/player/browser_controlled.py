"""`BrowserControlled`: a player with the fit's settings beside the picture (lesson 03's main player).

    player = BrowserControlled({"40 points": (X, y), "6 points": (X6, y6)})

It sends its data sets and the run of its settings. A change of a setting is fitted at once in the browser
(``front/perceptron.js``: the library's step rule, and numpy's random order) with the library's words ported
(``front/words.js``); the browser then sends the new ``settings`` (one message). Python fits them with the library
and sends its run, whose words replace the browser's. With no kernel (an exported page), the browser's run stays.
A new run is shown where the student was (`kept_step`: the same update k, or the end after the end), so that a
presenter who tries a setting keeps the place; the seed, which cyclic order does not use, is disabled there. It
draws and steps through ``front/player.js`` (``front/controlled.js`` around it) and displays as every player does
(`browser_switch.PlayerShown`).
"""

from __future__ import annotations

import math
import numbers

import anywidget
import numpy as np
import traitlets

from .._validation import check_X_y
from ..core.training import fit_perceptron
from ..draw import style as _style
from .browser import run_trait
from .browser_switch import PlayerShown, switch_module
from .panels.data import DataPanel
from .readout import TESTS, alt_text, plural, state_lines

__all__ = ["BrowserControlled", "SETTINGS", "kept_step"]

#: The settings a `BrowserControlled` offers: what `fit_perceptron` takes, under the lesson's names.
SETTINGS = ("data", "order", "seed", "w1", "w2", "b", "eta", "test")
_TESTS = [(TESTS["nonpositive"], "nonpositive"), (TESTS["negative"], "negative"), ("sign, sgn(0) = -1", "sign")]


def _steps(lo, hi, step) -> list:
    n = int(round((hi - lo) / step))
    return [float(lo + j * step) for j in range(n + 1)]


def _controls(labels, *, start_range, eta_exponents, seed_max) -> list:
    """The controls' specs: each a name, a label, and its choices (a list of [text, value]) or its range. The seed's
    ``used_with`` says that it does something only in random order (cyclic order draws nothing): the browser
    disables it, with that note, in cyclic order."""
    starts = _steps(*start_range)
    etas = [10.0 ** e for e in _steps(*eta_exponents)]

    def values(vs):
        return [[_num(v), v] for v in vs]

    return [
        {"name": "data", "label": "data", "kind": "select", "options": [[t, t] for t in labels]},
        {"name": "order", "label": "order", "kind": "select", "options": [["cyclic", "cyclic"], ["random", "random"]]},
        {"name": "seed", "label": "seed", "kind": "int", "min": 0, "max": int(seed_max),
         "used_with": {"name": "order", "value": "random", "note": "random order only"}},
        {"name": "w1", "label": "start w₁", "kind": "slider", "options": values(starts)},
        {"name": "w2", "label": "start w₂", "kind": "slider", "options": values(starts)},
        {"name": "b", "label": "start b", "kind": "slider", "options": values(starts)},
        {"name": "eta", "label": "η", "kind": "slider", "options": values(etas)},
        {"name": "test", "label": "test", "kind": "select", "options": [list(t) for t in _TESTS]},
    ]


def kept_step(k: int, K_old: int, K_new: int) -> int:
    """The update a new run of `K_new` updates is shown at, for a student at update `k` of a run of `K_old`: the
    same k (the new run's last if it has fewer), or the new run's end if k was the old run's end
    (``front/controlled.js`` keptStep). A change that leaves the run as it was leaves the student where they were."""
    return K_new if k >= K_old else min(k, K_new)


def _num(v) -> str:
    """A slider's value in words: 0.25, 1, 0.0178 (three significant digits)."""
    return str(int(v)) if v == int(v) else f"{v:.3g}"


class BrowserControlled(PlayerShown, anywidget.AnyWidget):
    """A player with the fit's settings beside the picture: data set, order, seed, start (w₀, b₀), η and the test.

    Parameters
    ----------
    datasets : dict
        ``{label: (X, y)}``: the data sets to choose from (2 features each).
    settings : dict, optional
        The settings shown first; any of `SETTINGS` (default: the first data set, cyclic order, seed 0, start 0,
        η = 1, the test y(<w,x>+b) ≤ 0).
    max_epochs : int
        `fit_perceptron`'s limit on epochs.
    start_range : (lo, hi, step)
        The choices of start w₁, w₂ and b.
    eta_exponents : (lo, hi, step)
        η's choices are 10 to these powers.
    seed_max : int
        The largest seed.
    style, interval_ms, readout, alt, k : as `BrowserPlayer`.

    Synced traits: ``datasets`` (each ``label``, ``X``, ``y``, ``view``: sent once), ``controls`` (the controls'
    specs), ``fit`` (the settings the controls do not show: ``max_epochs``), ``settings`` (both ways: the browser
    sends the student's choice, one message), ``run`` (Python -> browser: the library's run of ``settings``, in
    `browser.run_trait`'s format with ``settings`` added), ``k`` and ``interval_ms`` (as `BrowserPlayer`'s; the
    browser sends ``k`` only while it shows Python's run).
    """

    _esm = switch_module("controlled.js")
    datasets = traitlets.List(traitlets.Dict()).tag(sync=True)
    controls = traitlets.List(traitlets.Dict()).tag(sync=True)
    fit = traitlets.Dict().tag(sync=True)
    settings = traitlets.Dict().tag(sync=True)
    run = traitlets.Dict().tag(sync=True)
    k = traitlets.Int(0).tag(sync=True)
    interval_ms = traitlets.Int(500).tag(sync=True)

    def __init__(self, datasets: dict, *, settings=None, max_epochs=200, start_range=(-2.0, 2.0, 0.25),
                 eta_exponents=(-2.0, 1.0, 0.25), seed_max=999, style=None, interval_ms=500, readout=state_lines,
                 alt=alt_text, k=0):
        if not isinstance(datasets, dict) or not datasets:
            raise ValueError(f"datasets must be a dict of at least one {{label: (X, y)}}; got {datasets!r:.80}.")
        self._data = {str(label): check_X_y(*xy) for label, xy in datasets.items()}
        for label, (X, _y) in self._data.items():
            if X.shape[1] != 2:
                raise ValueError(f"data set {label!r} has {X.shape[1]} features; this player draws 2.")
        if isinstance(max_epochs, bool) or not isinstance(max_epochs, numbers.Integral) or max_epochs < 1:
            raise ValueError(f"max_epochs must be a whole number >= 1; got {max_epochs!r}.")
        self._style, self._panels, self._readout, self._alt = _style.get(style), [], readout, alt
        self._max_epochs = int(max_epochs)
        controls = _controls(list(self._data), start_range=start_range, eta_exponents=eta_exponents,
                             seed_max=seed_max)
        self._choices = {c["name"]: c for c in controls}
        start = {"data": next(iter(self._data)), "order": "cyclic", "seed": 0, "w1": 0.0, "w2": 0.0, "b": 0.0,
                 "eta": 1.0, "test": "nonpositive"}
        unknown = set(settings or {}) - set(SETTINGS)
        if unknown:
            raise ValueError(f"settings has no {sorted(unknown)}; the settings are {list(SETTINGS)}.")
        chosen = self._checked({**start, **(settings or {})})
        self._fitted = self._fit(chosen)
        payload = self._run_trait(chosen)
        self._k_max = payload["K"]
        sets = [{"label": label, "X": X.tolist(), "y": [1.0 if v > 0 else -1.0 for v in y],
                 "view": self._view(X)} for label, (X, y) in self._data.items()]
        super().__init__(datasets=sets, controls=controls, fit={"max_epochs": self._max_epochs}, settings=chosen,
                         run=payload, interval_ms=interval_ms, k=k)
        self.observe(self._refit, names="settings")

    @staticmethod
    def _view(X) -> dict:
        """The data panel's view of a run with an offset on X (`DataPanel.view_for`): the data's, whatever the run."""
        probe = fit_perceptron(X[:1], np.ones(1), max_epochs=1)
        xlim, ylim = DataPanel(mode="plain").view_for(probe, X)
        return {"xlim": [float(v) for v in xlim], "ylim": [float(v) for v in ylim]}

    def _checked(self, settings: dict) -> dict:
        """The settings as the browser sends them, each one of its control's choices; a clear error otherwise."""
        missing = [name for name in SETTINGS if name not in settings]
        if missing:
            raise traitlets.TraitError(f"settings lacks {missing}; it needs {list(SETTINGS)}.")
        out = {}
        for name in SETTINGS:
            value, c = settings[name], self._choices[name]
            if c["kind"] == "int":
                ok = not isinstance(value, bool) and isinstance(value, numbers.Real) and float(value).is_integer() \
                    and c["min"] <= value <= c["max"]
                out[name] = int(value) if ok else None
                want = f"a whole number {c['min']}..{c['max']}"
            else:
                values = [v for _t, v in c["options"]]
                match = [v for v in values if v == value or (isinstance(v, float) and isinstance(value, numbers.Real)
                                                             and math.isclose(v, value, rel_tol=1e-12, abs_tol=1e-15))]
                out[name] = match[0] if match else None
                want = f"one of {values}"
            if out[name] is None:
                raise traitlets.TraitError(f"settings[{name!r}] must be {want}; got {value!r}.")
        return out

    def _fit(self, s: dict):
        X, y = self._data[s["data"]]
        run = fit_perceptron(X, y, order=s["order"], rng=s["seed"], w0=[s["w1"], s["w2"]], b0=s["b"], eta=s["eta"],
                             update_on=s["test"], max_epochs=self._max_epochs)
        return run, X, y

    def _run_trait(self, s: dict) -> dict:
        run, X, y = self._fitted
        trait = run_trait(run, X, y, style=self._style, readout=self._readout, alt=self._alt)
        return {**trait, "view": self._view(X), "settings": dict(s)}

    @traitlets.validate("settings")
    def _valid_settings(self, proposal):
        return self._checked(proposal["value"])

    def _refit(self, change) -> None:
        """New settings (the browser's, or Python's): the library fits them and sends its run, shown where the
        student was (`kept_step`): the same update k (the run's last if it has fewer), its end after the end."""
        s = change["new"]
        self._fitted = self._fit(s)
        payload = self._run_trait(s)
        k = kept_step(self.k, self._k_max, payload["K"])
        with self.hold_sync():  # one message: the run and the step it is shown at
            self._k_max = payload["K"]
            self.run = payload
            self.k = k

    def _shown_run(self):
        return self._fitted

    @property
    def fitted(self):
        """(run, X, y): the library's run of the settings on show, and its data."""
        return self._fitted

    def set(self, **changes) -> None:
        """Change settings from Python (e.g. ``player.set(order="random", seed=3)``): fitted again and shown."""
        unknown = set(changes) - set(SETTINGS)
        if unknown:
            raise ValueError(f"no setting {sorted(unknown)}; the settings are {list(SETTINGS)}.")
        self.settings = {**self.settings, **changes}

    def __repr__(self):
        s = self.settings
        return f"<BrowserControlled: {s['data']}, {s['order']} order, {plural(self.K, 'update')}>"
