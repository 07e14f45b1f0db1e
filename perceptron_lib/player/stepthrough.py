"""`StepThrough`: a step-through player for a perceptron `Run`.

    player = StepThrough(run, X, y, panels=[LossPanel(loss_values, "perceptron loss")])
    player            # as a cell's last value, or display(player)

The player only *replays* ``run.history``; it never re-runs the algorithm. Its parts:

* controls (this module): Reset, Back, Step, End buttons, a Play toggle with a speed choice, and a
  box for k = 0..K. Its value *is* the step; rendering happens in its observer, which
  never writes back to a control. Playing is timed by the kernel's own event loop (``call_later``;
  no Python threads, no front-end timer), one message per frame. On every run change the slider is
  replaced by a new one whose range is the new run's, so no front end keeps the old range.
* keyboard: with the picture focused (a click, or Tab) or the pointer on it, left/right step, Home/End go to
  the ends, space plays and pauses (the picture is an `events.EventPicture`, which hands every other key on to
  the page; `on_key` lets an editor take keys first). From the keyboard alone, Tab reaches the picture, the
  k box (↑ ↓, or type a step) and every button. The picture's alt sentence is its ``alt``.
* the picture (`perceptron_lib.player.render.Scene`): one scene, built once from copies of the panels;
  a new run (a run switch, an edit of the data) is drawn on the same figure (`Scene.rebind`).
* geometry for an editor: `to_data` and `to_pixels` map the picture's pixels to the main panel's
  data and back, `set_marks` shows a cursor and a selected point.
* the words: ``readout(run, X, y, k) -> lines`` (default `perceptron_lib.player.readout.state_lines`);
  its first line is the headline. ``alt(run, X, y, k) -> sentence`` is the picture's alt text.
* export (`perceptron_lib.player.recording`), the contract with the exports (``tools/``): every displayed
  player and live figure (`StepThrough`, `RunSwitch`, `with_controls`'s `Controlled`, `LiveFigure`)
  keeps its root DOM class (``perceptron-stepthrough``, ``perceptron-runswitch``,
  ``perceptron-controlled``, ``perceptron-livefigure``) and its button texts (Reset, Back, Step,
  End), and its ``_repr_mimebundle_`` returns the widget view, ``text/plain`` (a short repr, no
  memory address) and ``image/png`` of the current picture (palette PNG at CSS size, tens of KB)
  with metadata ``{"image/png": {"width": W, "height": H, "alt": "<one sentence>"}}`` in CSS
  pixels. With ``PERCEPTRON_COURSE_RECORD=1`` in the kernel's environment it adds ``text/html``:
  a self-contained recording (``to_html``: frames as data: PNGs, no network, labelled
  keyboard-usable controls, alt text per frame, at most about 2 MB per player).

The picture is shown at its CSS size (the style's panel inches at the style's dpi) or smaller,
never stretched: its frames have `render.DENSITY` (2) pixels per CSS pixel, sharp on a high-density
screen at the same size. The controls sit above the picture and the readout beside it (below it on a narrow screen);
the picture's height is capped so picture, Step button and the readout's first line fit in one
view on a 1280x720 screen.

Panel protocol
--------------
A panel is any object with ``draw(ax, run, X, y) -> list of moving artists`` (once per scene, on a
fresh axes) and ``update(k) -> list of artists it changed``; optionally ``projection`` (None or
"3d") and ``redraw`` (set True inside ``update`` when something static changed). The player draws
a shallow copy of each panel per scene, so a panel may keep what it drew on ``self``.
"""

from __future__ import annotations

import asyncio
import math
import numbers
import operator

import ipywidgets as widgets
import numpy as np

from .._validation import check_X_y
from ..draw import style as _style
from .events import EventPicture
from .panels.data import DataPanel
from .picture import text_for_preset
from .readout import alt_text, plural, readout_html, state_lines
from .recording import NO_KERNEL_SUMMARY, AnimationHTML, Shown, fold, scene_recording, scene_still
from .render import DENSITY, Scene, css_size, panel_name, panels_at_once

__all__ = ["StepThrough", "SPEEDS", "KEY_HELP", "PLAYER_KEYS"]

#: The keys the player's picture uses (``KeyboardEvent.key``); an editor adds its own (`StepThrough.on_key`).
PLAYER_KEYS = ("ArrowLeft", "ArrowRight", "Home", "End", " ")

KEY_HELP = ("Keys, with the picture focused (click it, or Tab to it) or the pointer on it: ← → step, Home / End "
            "go to the ends, space plays and pauses; every other key, Tab and Escape too, is left to the page. "
            "Keyboard only: Tab to the buttons, or to 'update k' and use ↑ ↓ or type a step.")
#: What the picture's keys do, read after its name by a screen reader (`EventPicture.help`).
PICTURE_KEYS = "Keys: ← → step, Home and End go to the ends, space plays and pauses."

#: Speed choices of the player: (label, interval between steps in ms).
SPEEDS = (("0.5/s", 2000), ("1/s", 1000), ("2/s", 500), ("4/s", 250), ("10/s", 100), ("20/s", 50))

class StepThrough(Shown):
    """Step through a perceptron run: controls, a readout in words, and a figure of the state at step k.

    Parameters
    ----------
    run : Run
    X, y : array-like
        The data the run was fitted on.
    panels : sequence of panels
        Extra panels to the right of the main `DataPanel`.
    title : str, optional
    interval_ms : int
        Time between steps while playing.
    style : None, "notebook", "lecture" or Style
    data_panel : DataPanel or None
        A configured main panel; ``data_panel=False`` shows only `panels`.
    dpi : float, optional
        Resolution of the frames (default: `render.DENSITY` times the style's, sharp on a 2x screen); the
        picture keeps its CSS size.
    readout, alt : callable, optional
        ``readout(run, X, y, k) -> list of str`` and ``alt(run, X, y, k) -> str``.
    """

    def __init__(self, run, X, y, *, panels=(), title=None, interval_ms=500, style=None, data_panel=None, dpi=None,
                 readout=state_lines, alt=alt_text):
        self._style = _style.get(style)
        self._dpi = float(dpi or DENSITY * self._style.dpi)
        self._title = title
        main = [] if data_panel is False else [data_panel if data_panel is not None else DataPanel()]
        self._panel_specs = main + list(panels)
        if not self._panel_specs:
            raise ValueError("StepThrough needs at least one panel; got data_panel=False and no panels.")
        self._readout_fn, self._alt_fn = readout, alt
        self._notes = []
        self._hint = ""
        self._quiet = False
        self._png = b""
        self._scene = None
        self._key_handlers = []
        self._timer = None
        self._interval = int(interval_ms)
        self._image = EventPicture(help=PICTURE_KEYS)
        self._readout = widgets.HTML()
        self._readout.add_class("perceptron-readout")
        self._help = widgets.HTML(f'<div class="perceptron-keyhelp" style="font-size:0.85em;line-height:1.4;'
                                  f'color:#444">{KEY_HELP}</div>')
        self._slider = None
        self._reset_btn, self._back_btn, self._step_btn, self._end_btn = (
            widgets.Button(description=d, icon=i, tooltip=t, layout=widgets.Layout(width="auto"))
            for d, i, t in (("Reset", "fast-backward", "back to the start (Home)"),
                            ("Back", "step-backward", "one update back (←)"),
                            ("Step", "step-forward", "one update forward (→)"),
                            ("End", "fast-forward", "to the last update (End)")))
        self._play_btn = widgets.ToggleButton(value=False, description="Play", icon="play",
                                              tooltip="play / pause (space)", layout=widgets.Layout(width="auto"))
        # a labelled <select> and a labelled number box below: ipywidgets' sliders give their handle no
        # accessible name, and a player must have none without one
        self._speed = widgets.Dropdown(options=self._speed_options(int(interval_ms)), value=int(interval_ms),
                                       description="speed", layout=widgets.Layout(width="170px"),
                                       style={"description_width": "initial"})
        self._reset_btn.on_click(lambda _b: self.reset())
        self._back_btn.on_click(lambda _b: self.prev())
        self._step_btn.on_click(lambda _b: self.next())
        self._end_btn.on_click(lambda _b: self.seek(self.K))
        self._speed.observe(self._on_speed, names="value")
        self._play_btn.observe(self._on_playing, names="value")
        self._buttons = widgets.HBox([self._reset_btn, self._back_btn, self._step_btn, self._end_btn, self._play_btn,
                                      self._speed], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        # where the preset's text leaves room for two panels only (lecture), the main panel is shown with one
        # other, which these buttons choose (a new figure for the pair; the picture keeps its size)
        self._pick, self._picker = 1, None
        if len(self._panel_specs) > panels_at_once(self._style):
            self._picker = widgets.ToggleButtons(
                options=[(panel_name(p), j) for j, p in enumerate(self._panel_specs[1:], start=1)], value=1,
                description="panel", style={"button_width": "auto", "description_width": "initial"})
            self._picker.observe(self._on_pick, names="value")
            self._buttons.children = (*self._buttons.children, self._picker)
        # the readout beside the picture (below it on a narrow screen), the key help under the readout
        self._words = widgets.VBox([self._readout, self._help],
                                   layout=widgets.Layout(flex="1 1 18em", min_width="16em", margin="0 0 0 8px"))
        self._body = widgets.HBox([self._image, self._words],
                                  layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        # the k slider is replaced at each run; it sits in a box of its own so that only its view is made
        # again (a new children tuple for the whole player would rebuild the picture's view too, and the
        # picture's key listener would be lost while the pointer is on it)
        self._slider_box = widgets.Box(layout=widgets.Layout(width="100%"))
        self._slider_box.add_class("perceptron-k")
        self.widget = widgets.VBox([self._buttons, self._slider_box, self._body])
        self.widget.add_class("perceptron-stepthrough")
        text_for_preset(self.widget, self._style)
        # keys while the picture has the focus or the pointer: it takes the keys in use (PLAYER_KEYS and an editor's,
        # `on_key`) and hands every other key on, so Escape, Tab and JupyterLab's shortcuts work there
        self._image.on_key(self._on_key)
        self.use_keys()
        self.set_run(run, X, y)

    # ------------------------------------------------------------------ display
    def __repr__(self):
        return f"<StepThrough: {self._run.method} run, {plural(self.K, 'update')}>"

    def close(self):
        """Close the widgets (the figure goes with the player)."""
        self.pause()
        self._scene = None
        for w in (self._image, self._readout, self._help, self._play_btn, self._slider,
                  self._slider_box, self._reset_btn, self._back_btn, self._step_btn, self._end_btn, self._speed,
                  self._buttons, self._words, self._body, self.widget):
            w.close()
        if self._picker is not None:
            self._picker.close()

    def snapshot(self):
        """(png, width, height, alt) of the current picture, small, for a stored notebook."""
        return scene_still(self._scene, self._style, self.alt)

    def recording(self) -> str:
        return self.to_html().data

    # ------------------------------------------------------------------ state
    @property
    def run(self):
        """The run shown; assigning a run (fitted on the same X, y) swaps it in like `set_run`."""
        return self._run

    @run.setter
    def run(self, run):
        self.set_run(run)

    dpi = property(lambda self: self._dpi, doc="Pixels per inch of the frames (the picture's own pixels).")
    X = property(lambda self: self._X)
    y = property(lambda self: self._y)
    style = property(lambda self: self._style)
    figure = property(lambda self: self._scene.fig)
    slider = property(lambda self: self._slider, doc="The k slider of the run on show (replaced at each run change).")
    picture = property(lambda self: self._image, doc="The picture (an `events.EventPicture`): its keys and, for an "
                       "editor, its presses.")
    notes = property(lambda self: list(self._notes), doc="Lines shown under the readout (`set_run(notes=...)`).")

    @property
    def K(self) -> int:
        """Number of updates; the states are k = 0..K."""
        return len(self._run.history) - 1

    @property
    def k(self) -> int:
        """The current step (0 is the start)."""
        return int(self._slider.value)

    @property
    def state(self):
        return self._run.history[self.k]

    @property
    def playing(self) -> bool:
        return bool(self._play_btn.value)

    @property
    def interval_ms(self) -> int:
        return self._interval

    @property
    def panels(self) -> list:
        """The panels of the scene on show (copies of the configured ones), the main panel first."""
        return list(self._scene.panels)

    # ------------------------------------------------------------------ controls
    def seek(self, k) -> int:
        """Go to step k, clamped to 0..K; returns the step shown."""
        try:
            k = operator.index(k)
        except TypeError:
            if not isinstance(k, numbers.Real):
                raise TypeError(f"seek needs a step number; got {type(k).__name__} {k!r}.") from None
            k = float(k)
            if not math.isfinite(k):
                raise ValueError(f"seek needs a finite step; got {k!r}.") from None
            k = int(round(k))
        self._slider.value = min(max(k, 0), self.K)  # the observer renders
        return self.k

    def next(self) -> int:
        return self.seek(self.k + 1)

    def prev(self) -> int:
        return self.seek(self.k - 1)

    def reset(self) -> int:
        """Pause and go back to the start."""
        self.pause()
        return self.seek(0)

    def play(self):
        self._play_btn.value = True

    def pause(self):
        self._play_btn.value = False

    def toggle(self):
        self._play_btn.value = not self._play_btn.value

    def tick(self) -> bool:
        """One step of playing: step if playing; past the end, pause. The kernel's timer calls it."""
        if not self.playing:
            return False
        if self.k < self.K:
            self.seek(self.k + 1)
            if self.k < self.K:
                return True
        self.pause()
        return False

    def set_speed(self, interval_ms) -> None:
        """Set the time between steps while playing (adds a choice to the speed slider if new)."""
        ms = int(interval_ms)
        if ms <= 0:
            raise ValueError(f"interval_ms must be positive; got {interval_ms!r}.")
        opts = self._speed_options(ms)
        if tuple(self._speed.options) != opts:
            self._speed.options = opts
        self._speed.value = ms

    @staticmethod
    def _speed_options(ms):
        opts = {v: lab for lab, v in SPEEDS}
        opts.setdefault(ms, f"{1000 / ms:.3g}/s")
        return tuple((opts[v], v) for v in sorted(opts, reverse=True))

    def _on_speed(self, change):
        self._interval = int(change["new"])

    def _on_k(self, change):
        if not self._quiet:
            self._render(int(change["new"]))

    def _on_playing(self, change):
        self._play_btn.description, self._play_btn.icon = ("Pause", "pause") if change["new"] else ("Play", "play")
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if change["new"]:
            if self.K > 0 and self.k >= self.K:
                self.seek(0)  # play at the end starts over
            self._schedule()

    def _schedule(self):
        """Ask the kernel's event loop for the next frame (nothing without a running loop: tests call `tick`)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer = loop.call_later(self._interval / 1000, self._on_timer)

    def _on_timer(self):
        self._timer = None
        if self.tick():
            self._schedule()

    # ------------------------------------------------------------------ keys
    def on_key(self, handler, keys=()) -> None:
        """Let ``handler(event) -> bool`` see each key on the picture first; True means it used the key.

        ``keys`` (names of ``KeyboardEvent.key``, or a function giving them) are the keys it may use: the picture
        keeps those and `PLAYER_KEYS`, and hands every other key on to JupyterLab. Call `use_keys` when they change.
        """
        self._key_handlers.append((handler, keys))
        self.use_keys()

    def use_keys(self) -> tuple:
        """Keep on the picture the player's keys and the keys its handlers use now; hand on all others.
        Returns the keys kept."""
        used = set(PLAYER_KEYS)
        for _handler, keys in self._key_handlers:
            used.update(keys() if callable(keys) else keys)
        self._image.taken_keys = sorted(used)
        return tuple(sorted(used))

    def _on_key(self, event):
        if event.get("type") != "keydown" or event.get("ctrlKey") or event.get("metaKey") or event.get("altKey"):
            return
        for handler, _keys in self._key_handlers:
            if handler(event):
                return
        key = event.get("key")
        if key == "ArrowRight":
            self.next()
        elif key == "ArrowLeft":
            self.prev()
        elif key == "Home":
            self.reset()
        elif key == "End":
            self.seek(self.K)
        elif key == " ":
            self.toggle()

    def _new_slider(self, K):
        """A fresh box for k over 0..K (the old one is closed): a labelled number input, so Tab then
        the arrow keys (or typing a number) step from the keyboard alone."""
        if self._slider is not None:
            self._slider.close()
        self._slider = widgets.BoundedIntText(value=0, min=0, max=K, step=1, description=f"update k (of {K})",
                                              continuous_update=True, style={"description_width": "initial"},
                                              layout=widgets.Layout(width="auto"))
        self._slider.observe(self._on_k, names="value")
        self._slider_box.children = (self._slider,)

    # ------------------------------------------------------------------ geometry (for an editor)
    def to_data(self, px, py):
        """The main panel's data coordinates of pixel (px, py) of the picture (its own pixels, origin top
        left, whatever size it is shown at), or None outside the main panel's axes."""
        return self._scene.to_data(px, py)

    def to_pixels(self, P) -> np.ndarray:
        """Pixels of the picture (origin top left) where the points P (n, 2) of the main panel are drawn."""
        return self._scene.to_pixels(P)

    def set_marks(self, *, cursor=None, selected=None, render=True) -> None:
        """Show a cursor (a plus) and a selected point (a square) on the main panel; None hides each.
        ``render=False`` leaves the picture to the next step or `set_run`."""
        main = self._scene.panels[0]
        if not hasattr(main, "set_marks"):
            raise TypeError(f"the main panel ({type(main).__name__}) cannot show marks; use a DataPanel.")
        main.set_marks(cursor=cursor, selected=selected)
        if render:
            self._render(self.k)

    def set_hint(self, text: str) -> None:
        """A sentence added to the picture's alt text (an editor: "Click to add a point.")."""
        self._hint = f" {text}" if text else ""
        self._image.alt = self.alt + self._hint

    # ------------------------------------------------------------------ runs
    @property
    def view(self):
        """(xlim, ylim) of the main panel: what `set_run(view=...)` takes back."""
        return self._scene.view()

    def set_run(self, run, X=None, y=None, *, at=0, notes=None, view=None) -> None:
        """Show another run (of the same or new data): pauses and shows step `at` of it.

        X, y default to the data on show. ``at`` is a step number (clamped to 0..K) or "end".
        ``notes`` (lines) replace the lines shown under the readout; None keeps them. ``view``: None fits
        the main panel's view to the data, "keep" keeps it (an edit of the points), ``(xlim, ylim)``
        sets it. The new run is drawn on the figure
        on show (`Scene.rebind`). Raises, before changing anything, if the run does not fit the data.
        """
        X = self._X if X is None else X
        y = self._y if y is None else y
        hw = getattr(getattr(run, "history", None), "w", None)
        if hw is None:
            raise TypeError(f"run must be a Run from fit_perceptron/fit_minibatch/fit_batch; got {type(run).__name__}.")
        if getattr(run, "n_samples", None) == 0 and np.shape(X)[0] == 0:  # an empty data set (the editor's)
            X, y = np.empty((0, hw.shape[1])), np.empty(0)
        else:
            X, y = check_X_y(X, y)
        if hw.shape[1] != X.shape[1]:
            raise ValueError(f"the run's w has length {hw.shape[1]} but X has {X.shape[1]} features.")
        if getattr(run, "n_samples", 0) and run.n_samples != len(X):
            raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(X)} rows.")
        if not (at == "end" or isinstance(at, numbers.Integral)):
            raise TypeError(f"at must be a step number or 'end'; got {at!r}.")
        self.pause()
        if self._scene is None:
            self._scene = Scene(self.shown_panels, run, X, y, style=self._style, dpi=self._dpi, title=self._title)
            self._image.fit(*css_size(self._scene.fig, self._style))
        elif not self._scene.shows(run, X, y):
            scene = self._scene
            before = (scene.run, scene.X, scene.y, scene.view())
            try:
                scene.rebind(run, X, y, view=view)
            except Exception:
                scene.rebind(*before[:3], view=before[3])  # a panel refused the run: show the old one again
                raise
        self._run, self._X, self._y = run, X, y
        if notes is not None:
            self._notes = [str(line) for line in notes]
        self._quiet = True
        try:
            self._new_slider(self.K)
            k = self.K if at == "end" else min(max(int(at), 0), self.K)
            self._slider.value = k
        finally:
            self._quiet = False
        self._render(k)

    @property
    def shown_panels(self) -> list:
        """The panels (as configured) that the picture shows: all, or the main one and the picked one."""
        if self._picker is None:
            return list(self._panel_specs)
        return [self._panel_specs[0], self._panel_specs[self._pick]]

    def _on_pick(self, change):
        self._pick = int(change["new"])
        self._scene = None  # the next set_run draws the new pair of panels
        self.set_run(self._run, self._X, self._y, at=self.k)

    def _render(self, k, full=False):
        k = min(max(int(k), 0), self.K)
        self._scene.draw(k, full=full)
        self._png = self._scene.png()
        self._image.value = self._png
        self._readout.value = readout_html(self.lines(k) + self._notes)
        self._image.alt = self._alt_fn(self._run, self._X, self._y, k) + self._hint
        self._back_btn.disabled = self._reset_btn.disabled = k == 0
        self._step_btn.disabled = self._end_btn.disabled = k >= self.K

    def frame_png(self) -> bytes:
        """PNG bytes of the current frame (what the Image widget shows)."""
        return self._png

    def redraw(self) -> None:
        """Draw the current step in full, not blitted: the picture must not change (a blit equals a full draw)."""
        self._render(self.k, full=True)

    # ------------------------------------------------------------------ words
    def lines(self, k=None) -> list:
        """The readout for step k (default: current) as plain-text lines."""
        return list(self._readout_fn(self._run, self._X, self._y, self.k if k is None else k))

    @property
    def text(self) -> str:
        return "\n".join(self.lines())

    @property
    def alt(self) -> str:
        """The picture's alt text at the current step (one sentence); the picture's ``alt`` too."""
        return self._alt_fn(self._run, self._X, self._y, self.k)

    # ------------------------------------------------------------------ recording
    def to_html(self, max_frames=40, dpi=72, *, max_bytes=2_000_000, interval_ms=None) -> AnimationHTML:
        """The run as a self-contained recording (`perceptron_lib.player.recording.scene_recording`).

        At most `max_frames` frames evenly subsampled over 0..K (both ends), drawn by the scene on
        show and scaled to `dpi`; fewer if needed to stay under `max_bytes`. The player's own
        picture is unchanged afterwards.
        """
        def words(k):
            run, X, y = self._run, self._X, self._y
            return self._alt_fn(run, X, y, k), "\n".join(self._readout_fn(run, X, y, k))

        return scene_recording(self._scene, self.K, words, back_to=self.k, dpi=dpi, scene_dpi=self._dpi,
                               interval_ms=int(interval_ms or self.interval_ms), max_frames=max_frames,
                               max_bytes=max_bytes)

    def fallback(self, summary: str = NO_KERNEL_SUMMARY, **to_html):
        """This player's recording folded under `summary`."""
        return fold(summary, self.to_html(**to_html))
