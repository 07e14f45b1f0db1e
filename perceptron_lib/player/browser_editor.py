"""`BrowserEditor`: the student's own points, placed, dragged and removed in the browser (an anywidget widget).

    editor = BrowserEditor(run, X, y)     # the run's settings fit the student's points
    editor                                # as a cell's last value, or display(editor)

The browser owns the points while the student edits: each edit is checked by the rules of `core.edits`, fitted by
the browser's perceptron (``front/perceptron.js``, the library's step rule and meaning of zero) and drawn at once,
with no message to wait for. The points then go to Python, which fits them with the library and sends its run: the
readout shows the library's numbers. With no kernel (a page with the widget's state saved) the browser's own run
and words (``front/words.js``, held equal to `readout.state_lines` and `own_data.summary_lines`) are what shows.
"""

from __future__ import annotations

import re

import anywidget
import numpy as np
import traitlets

from .._validation import check_X_y
from ..core import edits, kernels
from ..core.frames import step_numbers
from ..core.own_data import MAX_POINTS, empty_run, fit_settings, points_literal, summarize, summary_lines
from ..core.training import fit_perceptron
from ..draw import style as _style
from . import front
from .browser import RUN_VERSION, _front_panels, _lifted_boundaries, _Still, run_trait
from .editor_args import as_points, as_trait, check_lift, fit_recipe, recipe, settings_json
from .library_run import library_trait
from .panels.data import DataPanel
from .readout import all_words, alt_text, plural, state_lines
from .recording import ShownWidget

__all__ = ["BrowserEditor", "EDIT_HINT", "KERNEL_NOTE", "EDITOR_MODULES", "editor_source"]

#: What a click does: the end of the picture's accessible name (``front/editor_ui.js`` says the same).
EDIT_HINT = ("Click or tap to add a point (shift-click: the other class), drag a point to move it, select one and "
             "press Remove point.")
#: What the editor says when its own run shows without the panels that need Python (no kernel, or a slow one).
KERNEL_NOTE = ("Some panels are computed by Python: they show when a kernel runs. With no kernel, the picture shows "
               "the browser's own run of your points.")
#: The editor's own modules, joined after the player's (``front/``).
EDITOR_MODULES = ("own_data.js", "edits.js", "words.js", "claims.js", "answers_vote.js", "answers_fit.js",
                  "lift_boundary.js", "lift_panel.js", "runspec.js", "editor_ui.js", "editor_pointer.js",
                  "editor_keys.js", "editor.js")
_PLAYER_ENTRY = re.compile(r"^export default \{ render \};\n", re.M)


def editor_source() -> str:
    """The editor's front end as one ES module: the perceptron, the player and the editor's modules, joined by
    `front.source`; the player's own anywidget entry is left out (the editor's is the module's default export)."""
    text = front.source(front.MODULES + front.PLAYER_MODULES + EDITOR_MODULES)
    text, found = _PLAYER_ENTRY.subn("", text)
    if found != 1:
        raise RuntimeError(f"player.js must end with one 'export default {{ render }};'; found {found}: the editor's "
                           "module can only have its own default export.")
    return text


class BrowserEditor(ShownWidget, anywidget.AnyWidget):
    """The student's own points on a player's picture, edited in the browser; the run on them after every edit.

    Parameters
    ----------
    run : Run
        A run of 2-D data from `fit_perceptron`: its settings (rule, start, order, eta, offset) fit every new set
        of points (`own_data.fit_settings`).
    X, y : array-like
        The lesson's points (at least one), X of shape (n, 2), y in {-1, +1}: the editor starts from them, and
        "Start again" comes back to them.
    panels : sequence of FrontPanel
        Panels beside the data panel, as `BrowserPlayer`'s: with a kernel each gives its spec for the library's run
        (``front``). A panel with a ``browser()`` method that returns a recipe (`ClaimsPanel`: its numbers ported to
        ``front/claims.js``) is computed by the browser too for its own run, so that it is drawn at once after an
        edit and with no kernel; the others (``browser()`` absent or None) show with Python's run only, and with no
        kernel the editor says so (`kernel_note`).
    readout : callable, optional
        ``readout(run, X, y, k) -> list of str``: the library's run's readout at step k, before the summary lines
        (default `readout.state_lines`; the browser's own run is worded by ``front/words.js`` as `state_lines`, and
        with the line of ``front/answers_fit.js`` when the readout's ``browser_kind`` is "answers":
        `AnswersFit.readout`).
    kernel_note : str, optional
        What the editor says when its browser's run shows without the panels that need Python (default: a
        sentence naming them as "some panels").
    fit : callable, optional
        ``fit(X, y) -> Run``: what Python fits the points with when a kernel runs (default `fit_perceptron` with
        `settings`). The browser fits with `settings`, or, when `fit` has a ``browser()`` recipe (`AnswersFit`:
        ``{"kind": "averaged", "epochs": ...}``), makes the same fit itself (``front/answers_fit.js``); a `fit`
        with neither computes another run, which replaces the browser's picture when it arrives.
    settings : dict, optional
        `fit_perceptron` keywords over the run's: eta, max_epochs, order, rng (an int), w0, b0, fit_bias,
        update_on, margin.
    max_epochs : int
        Passes of the fit (it stops earlier when it converges or cycles).
    separator : str
        What separates, in the readout's words ("line", "plane of the lift"...).
    lift : None or kernels.lift
        With `kernels.lift`, the student's clicks are points (x1, x2) and every run is fitted on their lift
        (x1, x2, x1² + x2²): `run` is a run on lifted points, each state drawn as its circle on the data panel
        (`BrowserPlayer`'s lifted mode), and panels such as `LiftedPanel` get the lifted points. The browser lifts
        by the same formula (``front/runspec.js`` `liftPoints`).
    max_points : int
    style : None, "notebook", "lecture" or Style
    interval_ms : int
        Time between steps while playing, ms.
    k : int
        The step shown first.

    The contract with the front end (``front/editor.js``)
    -----------------------------------------------------
    Synced traits:

    ``run`` (dict, Python -> browser): the library's run on the points, from the first one on (the one a page
        with no kernel, the site and the decks embed). When every panel has a ``browser()`` recipe and the readout
        (if any) a ``browser_kind``: the run alone, its ``form`` "library" (`library_run.library_trait`: the
        states, the updates, the settings and the library's summary numbers), which the browser words and gives
        its panels by its ported code (``front/runspec.js`` `libraryRunSpec`). Else, and for no points, the full
        trait (`full_run`): `BrowserPlayer`'s format (`browser.run_trait`, ``version`` `RUN_VERSION`), its
        ``lines`` `readout.state_lines` followed by `own_data.summary_lines`, its ``alt`` `readout.alt_text`
        followed by `EDIT_HINT`. The browser draws it only while its points are the run's ``X`` and ``y`` (a run
        of older points is dropped), in its own view, at the step shown, keeping the focus, the keyboard cursor
        and the selection.
    ``points`` (list ``[X, y]``, both ways): the points now, X as pairs and y as +1/-1. The browser sets it after
        each edit (with ``k``, one message); Python sets it in `load` (the browser then loads them as an edit the
        student can undo). Python fits every new value and sets ``run``.
    ``lesson`` (list ``[X, y]``, Python -> browser): where "Start again" goes back to.
    ``settings`` (dict, Python -> browser): the fit's `fit_perceptron` keywords (JSON); a new value refits.
    ``options`` (dict, Python -> browser, once): ``separator``, ``max_points``, ``hint``, ``panels`` (each panel's
        ``browser()`` recipe or None), ``kernel_note``, ``lift``, ``fit`` (`fit`'s recipe or None) and ``readout``
        (the readout's ``browser_kind`` or None).
    ``k`` (int, both ways), ``interval_ms`` (int, both ways): the step shown and the speed, as `BrowserPlayer`'s;
        the browser may show a step of its own run beyond the library's K for the moment between an edit and
        the library's run.

    In the browser every edit is fitted by ``front/perceptron.js`` and worded by ``front/words.js`` (the
    library's rules, held equal to it in tests), and drawn by the stepping player's ``mountPlayer``; the
    undo and redo history, the view, the class of a new point and the keyboard cursor live there.
    Exercises read the points (`exercises.points_of`: ``points``, or `X` and `y`).
    """

    _esm = editor_source()
    run = traitlets.Dict().tag(sync=True)
    points = traitlets.List().tag(sync=True)
    lesson = traitlets.List().tag(sync=True)
    settings = traitlets.Dict().tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    k = traitlets.Int(0).tag(sync=True)
    interval_ms = traitlets.Int(500).tag(sync=True)

    def __init__(self, run, X, y, *, panels=(), fit=None, settings=None, max_epochs=100, separator="line",
                 max_points=MAX_POINTS, style=None, interval_ms=500, k=0, readout=None, kernel_note=None,
                 lift=None):
        X, y = check_X_y(X, y)
        self._lift = check_lift(lift)
        if X.shape[1] != 2:
            raise ValueError(f"BrowserEditor edits points in the plane; got X with {X.shape[1]} features.")
        if fit is not None and not callable(fit):
            raise TypeError(f"fit must be a function fit(X, y) -> Run, or None; got {type(fit).__name__}.")
        fitted_by = fit_recipe(fit)
        start = edits.start(X, y, max_points=max_points)
        self._panels = _front_panels(panels)
        recipes = [recipe(p) for p in self._panels]
        if readout is not None and not callable(readout):
            raise TypeError(f"readout must be a function readout(run, X, y, k) -> list of str, or None; got "
                            f"{type(readout).__name__}.")
        self._fit, self._separator, self._style, self._readout = fit, str(separator), _style.get(style), readout
        # the browser words every step and computes every panel of the library's run itself (`library_trait`)
        self._lean = (all(r is not None for r in recipes) and (fit is None or fitted_by is not None)
                      and (readout is None or getattr(readout, "browser_kind", None) is not None))
        self._run = self._summary = self._still = None
        chosen = settings_json(fit_settings(run, max_epochs=max_epochs), settings)
        points = as_trait(*start.arrays())
        first = self._fitted(*start.arrays(), chosen)
        super().__init__(settings=chosen, lesson=points, points=points, run=first, k=int(k),
                         interval_ms=int(interval_ms),
                         options={"separator": self._separator, "max_points": int(max_points), "hint": EDIT_HINT,
                                  "panels": recipes, "kernel_note": str(kernel_note or KERNEL_NOTE),
                                  "lift": "bowl" if self._lift is not None else None, "fit": fitted_by,
                                  "readout": getattr(readout, "browser_kind", None)})
        self.observe(self._refit, names=["points", "settings"])

    def __repr__(self):
        return f"<BrowserEditor: {plural(len(self.points[1]), 'point')}; {plural(self.run['K'], 'update')}>"

    # ------------------------------------------------------------------ the library's run
    def _lifted(self, X):
        """The points as fitted: their lift with `lift`, else X itself."""
        if self._lift is None:
            return X
        X = X.reshape(-1, 2)
        return kernels.lift(X) if len(X) else np.empty((0, 3))

    def _fit_run(self, X, y, settings):
        X = self._lifted(X)
        if not len(y):
            return empty_run(X.shape[1], w0=settings["w0"], b0=settings["b0"], eta=settings["eta"],
                             update_on=settings["update_on"], fit_bias=settings["fit_bias"])
        if self._fit is not None:
            return self._fit(X, y)
        return fit_perceptron(X, y, **settings)

    def _fitted(self, X, y, settings) -> dict:
        """The `run` trait of the library's run on (X, y), remembered with its summary: where the browser has a
        port of every word and panel, the run itself (`library_trait`), else the full trait."""
        run = self._fit_run(X, y, settings)
        X = self._lifted(X)
        summary = summarize(X, y, run)
        self._run, self._summary, self._data, self._still = run, summary, (X, y), None
        if self._lean and len(y):
            averaged = self._averaged(run)
            if averaged is not False:
                return library_trait(run, X, y, summary, style=self._style, averaged=averaged)
        return self._full_trait()

    def _full_trait(self) -> dict:
        """The `run` trait of the library's run now, whole: every step's words and panels computed here."""
        run, (X, y), summary = self._run, self._data, self._summary
        notes = summary_lines(summary, separator=self._separator)

        lines, alts = all_words(run, X, y)  # `state_lines` and `alt_text` of every step of this run, in one pass
        if self._readout is not None and len(y):
            lines = [self._readout(run, X, y, k) for k in range(len(run.history))]

        def readout(run, X, y, k):
            return [*lines[k], *notes]

        def alt(run, X, y, k):
            return f"{alts[k]} {EDIT_HINT}"

        if len(y):
            return run_trait(run, X, y, style=self._style, readout=readout, alt=alt, panels=self._panels)
        xlim, ylim = DataPanel(mode="plain").view_for(run, X[:, :2])
        view = {"xlim": [float(v) for v in xlim], "ylim": [float(v) for v in ylim]}
        lifted = {"mode": "lifted", **_lifted_boundaries(run, view)} if self._lift is not None else {}
        return {"version": RUN_VERSION, **step_numbers(run, X, y), "lines": [readout(run, X, y, 0)],
                "alt": [alt(run, X, y, 0)], "view": view, **lifted,
                "style": self.run["style"], "crossed": "wrong side" if run.update_on == "negative" else "mistake",
                "panels": [p.front(run, X.reshape(-1, X.shape[1]), y, style=self._style) for p in self._panels]}

    def _averaged(self, run):
        """The averaged fit's t and seen for `run` (`AnswersFit.answers`), None for a plain fit, False if unknown."""
        if self._fit is None:
            return None
        got = self._fit.answers(run) if callable(getattr(self._fit, "answers", None)) else None
        return False if got is None else {"t": np.asarray(got[0].t, dtype=int).tolist(), "seen": int(got[0].seen)}

    def _refit(self, _change=None):
        self.run = self._fitted(self.X, self.y, self.settings)

    def full_run(self) -> dict:
        """The library's run now as the full `run` trait (`browser.run_trait`: every step's words and panel
        numbers computed in Python), what the browser builds from a lean ``run`` (`library_trait`)."""
        return self.run if self.run.get("form") != "library" else self._full_trait()

    def refit(self) -> None:
        """Fit the same points again (after the fit changed: a control of the lesson's that `fit` reads)."""
        self._refit()

    @traitlets.validate("points", "lesson")
    def _valid_points(self, proposal):
        return as_trait(*as_points(proposal["value"], self.options.get("max_points", MAX_POINTS)))

    @traitlets.validate("settings")
    def _valid_settings(self, proposal):
        """A new value goes over the settings before it (``editor.settings = {"eta": 0.5}`` changes eta only)."""
        try:
            return settings_json(self.settings, proposal["value"])
        except (TypeError, ValueError) as exc:
            raise traitlets.TraitError(str(exc)) from None

    @traitlets.validate("k")
    def _valid_k(self, proposal):
        if proposal["value"] < 0:
            raise traitlets.TraitError(f"k must be a step number >= 0; got {proposal['value']}.")
        return proposal["value"]

    # ------------------------------------------------------------------ what the exercises read
    @property
    def X(self) -> np.ndarray:
        """The points now, shape (n, 2) (a new array)."""
        return np.array(self.points[0], dtype=float).reshape(-1, 2)

    @property
    def y(self) -> np.ndarray:
        """Their labels, +1.0 or -1.0 (a new array)."""
        return np.array(self.points[1], dtype=float)

    @property
    def library_run(self):
        """The library's `Run` on the points now (`fit`, or `fit_perceptron` with `settings`)."""
        return self._run

    @property
    def summary(self):
        """The facts the readout states about the points and the library's run (`own_data.DataSummary`)."""
        return self._summary

    @property
    def literal(self) -> str:
        """The points as Python: ``X = [...]`` and ``y = [...]`` (`own_data.points_literal`)."""
        return points_literal(self.X, self.y)

    def lines(self, k=None) -> list:
        """The readout at step k (default: the step shown, clamped to the library's run), the headline first."""
        k = min(self.k if k is None else k, self.run["K"])
        if "lines" in self.run:
            return list(self.run["lines"][k])
        X, y = self._data
        notes = summary_lines(self._summary, separator=self._separator)
        return [*(self._readout or state_lines)(self._run, X, y, k), *notes]

    def load(self, X, y, *, lesson=False) -> None:
        """Replace every point (2-D X, labels y in {-1, +1}), by the editor's rules; with ``lesson=True`` they
        become the lesson's points too ("Start again" comes back to them). The browser shows them as an edit."""
        state = edits.load(edits.start(self.X, self.y, max_points=self.options["max_points"]), X, y, lesson=lesson)
        with self.hold_sync():
            if lesson:
                self.lesson = as_trait(*state.arrays())
            self.points = as_trait(*state.arrays())

    # ------------------------------------------------------------------ what a notebook keeps (recording.Shown)
    def _drawn(self) -> _Still:
        """The library's run drawn by matplotlib at the step shown, made once per run on the first display."""
        X, y = self._data
        if not len(y):  # a still of no points: the lesson's
            X, y = (np.asarray(a, dtype=float) for a in self.lesson)
            X, y = X.reshape(-1, 2), y.ravel()
        if self._still is None:
            run = self._run if len(self._data[1]) else self._fit_run(X, y, self.settings)
            X = X if X.shape[1] == run.history.w.shape[1] else self._lifted(X)
            notes = summary_lines(summarize(X, y, run), separator=self._separator)
            words = self._readout or state_lines
            self._still = _Still(run, X, y, k=0, style=self._style, panels=self._panels,
                                 readout=lambda r, X_, y_, k: [*words(r, X_, y_, k), *notes],
                                 alt=lambda r, X_, y_, k: f"{alt_text(r, X_, y_, k)} {EDIT_HINT}")
        return self._still.at(min(self.k, self._still.K))

    def snapshot(self):
        """(png, width, height, alt) of the step shown, drawn by matplotlib, small, for a stored notebook. The
        drawing is not kept (a figure and its pixels, 7-18 MB in a kernel): a second display draws it again."""
        shot, self._still = self._drawn().snapshot(), None
        return shot

    @property
    def alt(self) -> str:
        """The picture's accessible name at the step shown."""
        k = min(self.k, self.run["K"])
        if "alt" in self.run:
            return self.run["alt"][k]
        X, y = self._data
        return f"{alt_text(self._run, X, y, k)} {EDIT_HINT}"
