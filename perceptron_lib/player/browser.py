"""`BrowserPlayer`: a perceptron run stepped through in the browser (an anywidget widget).

    player = BrowserPlayer(run, X, y)
    player            # as a cell's last value, or display(player)

Python computes and sends the run once; the browser draws each frame and steps by itself
(``front/player.js``), so a step costs no message to the kernel but the new ``k``.

It displays as every player does (`recording.Shown`): the widget, a ``text/plain`` repr, a still PNG of the
frame it shows first with its alt sentence (drawn once by matplotlib's `render.Scene`, for GitHub, nbviewer and
the site, and for pages read with scripts off). Its root element has the class ``perceptron-browserplayer``.
"""

from __future__ import annotations

import numbers

import anywidget
import numpy as np
import traitlets

from .._validation import check_X_y
from ..core.frames import step_numbers
from ..core.lift_view import boundary_in_view, boundary_note
from ..draw import style as _style
from . import front
from .panel_specs import FrontPanel
from .panels.data import DataPanel
from .picture import LECTURE_TEXT_PX
from .readout import all_words, alt_text, plural, state_lines
from .recording import ShownWidget, scene_still
from .render import DENSITY, Scene, panels_at_once

__all__ = ["BrowserPlayer", "RUN_VERSION", "PANEL_PX", "CHART_PX", "run_trait"]

#: The format of the `run` trait that ``front/player.js`` reads (its ``RUN_VERSION``).
RUN_VERSION = 1
#: The longer side of the data panel's plot, CSS px, by preset (issue #30: at least 420 and 360).
PANEL_PX = {"notebook": 440, "lecture": 360}
#: A chart beside the data panel (`panel_specs.chart`), CSS px: its whole width and its plot's height, by preset.
CHART_PX = {"notebook": (460, 190), "lecture": (520, 180)}


def _style_trait(s: _style.Style) -> dict:
    """The preset's sizes (points, as matplotlib's) and the course's colours, for the browser."""
    sizes = ("font_size", "title_size", "label_size", "tick_size", "legend_size", "line_width", "thin_width",
             "arrow_width", "arrow_head", "marker_size", "marker_edge", "ring_size", "ring_width", "mistake_size",
             "mistake_width", "spine_width")
    return {
        "name": s.name,
        "panel_px": PANEL_PX.get(s.name, PANEL_PX["lecture" if s.legend_size > 12 else "notebook"]),
        "chart_px": list(CHART_PX.get(s.name, CHART_PX["lecture" if s.legend_size > 12 else "notebook"])),
        # the least size of the widget's own text (buttons, box, key help), CSS px: `picture.text_for_preset`'s
        "text_px": float(LECTURE_TEXT_PX) if s.name == "lecture" else 0.0,
        **{name: float(getattr(s, name)) for name in sizes},
        "colors": {"pos": _style.POS_COLOR, "neg": _style.NEG_COLOR, "boundary": _style.BOUNDARY_COLOR,
                   "prev": _style.PREV_BOUNDARY_COLOR, "w": _style.W_COLOR, "update": _style.UPDATE_COLOR,
                   "ring": _style.RING_COLOR, "mistake": _style.MISTAKE_COLOR},
        "markers": {"pos": _style.POS_MARKER, "neg": _style.NEG_MARKER},
        "labels": {"pos": _style.POS_LABEL, "neg": _style.NEG_LABEL},
    }


def _mode(X) -> str:
    """"plain" for 2 features, "lifted" for (x1, x2, x1² + x2²) (`DataPanel.detect_mode`; other data refused)."""
    if X.shape[1] == 2:
        return "plain"
    try:
        mode = DataPanel.detect_mode(X)
    except ValueError:  # its words name DataPanel's modes; these name the player's
        mode = None
    if mode != "lifted":
        raise ValueError(f"BrowserPlayer draws data of 2 features in the plane, or lifted points (x1, x2, x1² + x2²); "
                         f"got X with {X.shape[1]} features (bias absorbed as a column of ones? Fit X without it, "
                         "with fit_bias=True).")
    return mode


def _view(run, X) -> dict:
    """The data panel's view of the run (`DataPanel`'s rule: the data padded, and the origin for a homogeneous run;
    lifted points are shown by their first two coordinates)."""
    mode = _mode(X)
    xlim, ylim = DataPanel(mode=mode).view_for(run, X[:, :2])
    return {"xlim": [float(v) for v in xlim], "ylim": [float(v) for v in ylim]}


def _lifted_boundaries(run, view) -> dict:
    """Per step, the boundary of a run on lifted points in the data's plane (a circle or a line, cut to the view:
    `core.lift_view.boundary_in_view`) and the data panel's note on it (`boundary_note`)."""
    h = run.history
    curves, notes = [], []
    for k in range(len(h)):
        w, b = h.w[k], float(h.b[k])
        pieces = boundary_in_view(w, b, view["xlim"], view["ylim"]) if np.any(w) else []
        curves.append([np.round(p, 6).tolist() for p in pieces])
        notes.append(boundary_note(w, b, view["xlim"], view["ylim"], start=k == 0))
    return {"curves": curves, "notes": notes}


def _checked(run, X, y):
    """The data as fresh arrays, after the checks that the run and the data fit a 2-D player."""
    hw = getattr(getattr(run, "history", None), "w", None)
    if hw is None:
        raise TypeError(f"run must be a Run from fit_perceptron, fit_minibatch or fit_batch; got {type(run).__name__}.")
    X, y = check_X_y(X, y)
    _mode(X)
    if hw.shape[1] != X.shape[1]:
        raise ValueError(f"the run's w has length {hw.shape[1]} but X has {X.shape[1]} features: pass the data it "
                         "was fitted on.")
    if getattr(run, "n_samples", 0) and run.n_samples != len(X):
        raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(X)} rows: "
                         "pass the data it was fitted on.")
    return X, y


def _front_panels(panels) -> list:
    """The extra panels as a list, each checked to be one the browser draws (`FrontPanel`)."""
    panels = list(panels)
    for j, p in enumerate(panels):
        if not isinstance(p, FrontPanel):
            raise TypeError(f"panels[{j}] ({type(p).__name__}) has no front(run, X, y, *, style) method, so the "
                            "browser cannot draw it; give a panel of panel_specs.FrontPanel.")
    return panels


def run_trait(run, X, y, *, style=None, readout=state_lines, alt=alt_text, panels=()) -> dict:
    """The `run` trait of a `BrowserPlayer`: everything the browser needs to draw every frame (see the class)."""
    X, y = _checked(run, X, y)
    s = _style.get(style)
    specs = [p.front(run, X, y, style=s) for p in _front_panels(panels)]
    if readout is state_lines and alt is alt_text:  # the library's words: every step in one pass, the same strings
        lines, alts = all_words(run, X, y)
    else:
        steps = range(len(run.history))
        lines = [[str(line) for line in readout(run, X, y, k)] for k in steps]
        alts = [str(alt(run, X, y, k)) for k in steps]
    view = _view(run, X)
    return {
        "version": RUN_VERSION,
        **step_numbers(run, X, y),
        "lines": lines,
        "alt": alts,
        "view": view,
        "mode": _mode(X),
        **(_lifted_boundaries(run, view) if _mode(X) == "lifted" else {}),
        "style": _style_trait(s),
        "crossed": "wrong side" if run.update_on == "negative" else "mistake",
        "panels": specs,
    }


def _interval(value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"interval_ms must be a whole number of milliseconds > 0, such as 500; got {value!r}.")
    return int(value)


class _Still:
    """The run drawn by matplotlib (`render.Scene` of a `DataPanel` and the player's panels), made on the first
    display only: the still a notebook keeps (`recording.scene_still`)."""

    def __init__(self, run, X, y, *, k, style, readout, alt, panels=()):
        self.run, self.X, self.y, self.style, self.readout, self.alt_fn = run, X, y, style, readout, alt
        self.dpi = float(DENSITY * style.dpi)
        shown = [DataPanel(), *panels]
        # where the preset's text leaves room for fewer panels (lecture), the main one and the first (the browser
        # draws them all)
        self.scene = Scene(shown[: panels_at_once(style)], run, X, y, style=style, dpi=self.dpi)
        self.K, self.k = len(run.history) - 1, k
        self.scene.draw(k)

    def at(self, k) -> _Still:
        """The drawing brought to step k (the same figure, drawn again); returns itself."""
        if k != self.k:
            self.k = k
            self.scene.draw(k)
        return self

    def words(self, k) -> tuple:
        """(alt sentence, readout text) at step k."""
        return self.alt_fn(self.run, self.X, self.y, k), "\n".join(self.readout(self.run, self.X, self.y, k))

    def snapshot(self):
        return scene_still(self.scene, self.style, self.words(self.k)[0])

class BrowserPlayer(ShownWidget, anywidget.AnyWidget):
    """Step through a perceptron run in the browser: controls, the data panel drawn in SVG, and the readout.

    Parameters
    ----------
    run : Run
        A run of 2-D data (`fit_perceptron`, `fit_minibatch`, `fit_batch`), or of lifted points (w of length 3).
    X, y : array-like
        The data the run was fitted on: X of shape (n, 2), or (n, 3) with the third column x1² + x2² (lesson 05's
        lift; the data panel shows (x1, x2) and each state's circle), y in {-1, +1}.
    panels : sequence of FrontPanel
        Panels beside the data panel (always first): curves along the run (`LossPanel`, `ClaimsPanel`,
        `EpochPanel`, `CurvesPanel`) drawn in axes of their own, and lines drawn on the data panel itself
        (`AveragedLinePanel`, `MaxMarginPanel`). Each gives its spec once (``front``, `panel_specs.FrontPanel`);
        the still PNG draws the same panels with matplotlib.
    style : None, "notebook", "lecture" or Style
        The preset whose colours and sizes the picture takes (None: the current one).
    interval_ms : int
        Time between steps while playing, ms (the speed the browser starts at).
    readout, alt : callable, optional
        ``readout(run, X, y, k) -> list of str`` (default `readout.state_lines`) and ``alt(run, X, y, k) -> str``
        (default `readout.alt_text`), computed here for every k and sent with the run.
    k : int
        The step shown first.

    The contract with the front end (``front/player.js``)
    -----------------------------------------------------
    Synced traits:

    ``run`` (dict, Python -> browser, sent once; a new value is a new run, drawn from step ``k``):
        ``version`` (`RUN_VERSION`); ``K``; ``X`` (n pairs), ``y`` (n of +1/-1); ``w`` (K + 1 pairs), ``b``
        (K + 1); ``i`` (K + 1: the example of update k, -1 at the start and for a batch step); ``ring`` and
        ``mistakes`` (K + 1 lists of example indices: the ringed examples, the crossed ones);
        ``eta``, ``update_on``, ``fit_bias``, ``method`` (`core.frames.step_numbers`); ``lines`` (K + 1
        lists of readout lines, the first the headline) and ``alt`` (K + 1 sentences: the picture's accessible
        name at step k); ``view`` (``xlim``, ``ylim``: the data panel's view); ``style`` (the preset's sizes in
        points, ``panel_px``, ``text_px`` (0: the page's own sizes), ``colors``, ``markers``, ``labels``);
        ``crossed`` (the legend's word for a cross); ``panels`` (one spec per extra panel, from its ``front``:
        `panel_specs.chart` or `panel_specs.overlay`, drawn by ``front/panels.js``); ``mode`` ("plain", or
        "lifted" for points (x1, x2, x1² + x2²) drawn by (x1, x2): no arrows, and then also ``curves`` (K + 1
        lists of polylines: the boundary in the view, `core.lift_view.boundary_in_view`) and ``notes`` (K + 1
        strings: the panel's note, `core.lift_view.boundary_note`)).
    ``k`` (int, both ways): the step shown. The browser draws a new step first, then sets ``k`` (one message
        per step, nothing else); a ``k`` set here is drawn when it arrives. Python refuses a ``k`` outside 0..K.
    ``interval_ms`` (int, both ways): the speed; the browser sets it when the student picks another.

    Nothing else goes either way: Play runs on the browser's timer, and the picture, the readout and the
    buttons at step k are a function of ``run`` and ``k`` alone.

    Displayed (`recording.ShownWidget`), it gives the widget view, a ``text/plain`` repr, ``image/png``: the still of
    step ``k`` drawn by matplotlib (`render.Scene`), with its alt sentence in the output's metadata.
    """

    _esm = front.source(front.PLAYER_MODULES)
    run = traitlets.Dict().tag(sync=True)
    k = traitlets.Int(0).tag(sync=True)
    interval_ms = traitlets.Int(500).tag(sync=True)

    def __init__(self, run, X, y, *, panels=(), style=None, interval_ms=500, readout=state_lines, alt=alt_text, k=0):
        self._panels = _front_panels(panels)
        payload = run_trait(run, X, y, style=style, readout=readout, alt=alt, panels=self._panels)
        self._K = payload["K"]
        super().__init__(run=payload, interval_ms=_interval(interval_ms), k=k)
        self._style = _style.get(style)
        self._source, self._still = (run, *check_X_y(X, y), readout, alt, self._style), None

    def __repr__(self):
        return f"<BrowserPlayer: {self.run['method']} run, {plural(self.K, 'update')}>"

    # ------------------------------------------------------------------ what a notebook keeps (recording.Shown)
    def _drawn(self) -> _Still:
        """The matplotlib drawing of the run on show, at step k: made once per run, on the first display."""
        if self._still is None:
            run, X, y, readout, alt, style = self._source
            self._still = _Still(run, X, y, k=self.k, style=style, readout=readout, alt=alt, panels=self._panels)
        return self._still.at(self.k)

    def snapshot(self):
        """(png, width, height, alt) of step k drawn by matplotlib, small, for a stored notebook. The drawing is not
        kept (a figure and its pixels, 7-18 MB in a kernel): a second display draws it again."""
        shot, self._still = self._drawn().snapshot(), None
        return shot

    # ------------------------------------------------------------------ words
    def lines(self, k=None) -> list:
        """The readout at step k (default: the step shown) as plain-text lines, the headline first."""
        return list(self.run["lines"][self.k if k is None else k])

    @property
    def text(self) -> str:
        return "\n".join(self.lines())

    @property
    def alt(self) -> str:
        """The picture's accessible name at the step shown (one sentence)."""
        return self.run["alt"][self.k]

    @property
    def K(self) -> int:
        """The number of updates; the steps are k = 0..K."""
        return self._K

    @traitlets.validate("k")
    def _valid_k(self, proposal):
        k = proposal["value"]
        K = len(self.run.get("w", [None])) - 1
        if not 0 <= k <= K:
            raise traitlets.TraitError(f"k must be a step of the run, 0..{K}; got {k}.")
        return k

    @traitlets.validate("interval_ms")
    def _valid_interval(self, proposal):
        return _interval(proposal["value"])

    @traitlets.validate("run")
    def _valid_run(self, proposal):
        run = proposal["value"]
        if run.get("version") != RUN_VERSION or len(run.get("w", ())) != run.get("K", -1) + 1:
            raise traitlets.TraitError("run must be made by run_trait(run, X, y); set_run(run, X, y) does so.")
        return run

    def set_run(self, run, X, y, *, at=0, style=None, readout=state_lines, alt=alt_text) -> None:
        """Show another run (its data too): drawn in the browser from step `at` (clamped to 0..K), with the same
        panels (each computes its numbers for the new run)."""
        style = self._style if style is None else _style.get(style)
        payload = run_trait(run, X, y, style=style, readout=readout, alt=alt, panels=self._panels)
        with self.hold_sync():
            self.k = 0
            self.run = payload
            self._K = payload["K"]
            self._source, self._still = (run, *check_X_y(X, y), readout, alt, style), None
            self._style = style
            self.k = min(max(int(at), 0), self._K)

    @property
    def state(self):
        """The step on show as (w, b) arrays."""
        return np.array(self.run["w"][self.k]), float(self.run["b"][self.k])
