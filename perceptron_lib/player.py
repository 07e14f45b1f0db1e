"""`StepThrough`: a step-through player for a perceptron `Run`.

    player = StepThrough(run, X, y, panels=[LossPanel(loss_values, "perceptron loss")])
    player            # as a cell's last value, or display(player)

The player only *replays* ``run.history``; it never re-runs the algorithm. Its parts:

* controls (this module): Reset, Back, Step, End buttons, a Play widget (its front-end timer plays,
  no Python threads) with a speed slider, and a slider over k = 0..K. The slider value *is* the
  step; rendering happens in its observer, which never writes back to a control. On every run
  change the slider is replaced by a new one whose range is the new run's, so no front end keeps
  the old range (the End key once went to the previous run's last step).
* keyboard (`perceptron_lib.keys`): with the player focused, left/right step, Home/End go to the
  ends, space plays and pauses; the Play buttons get labels; the picture gets its alt text.
* the picture (`perceptron_lib.render.Scene`): one scene per run, built from copies of the
  panels; the scenes of the last `REMEMBER` runs are kept, so switching back costs nothing and no
  panel state is ever swapped.
* the words: ``readout(run, X, y, k) -> lines`` (default `perceptron_lib.readout.state_lines`);
  its first line is the headline. ``alt(run, X, y, k) -> sentence`` is the picture's alt text.
* export (`perceptron_lib.recording`), the contract with the exports (``tools/``): every displayed
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
never stretched: ``dpi=2 * style.dpi`` renders sharp text for a high-density screen at the same
size. The controls sit above the picture and the readout beside it (below it on a narrow screen);
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

import math
import numbers
import operator

import ipywidgets as widgets
import numpy as np

from . import keys as _keys
from . import style as _style
from ._validation import check_X_y
from .panels.data import DataPanel
from .readout import alt_text, plural, state_lines
from .recording import NO_KERNEL_SUMMARY, AnimationHTML, Shown, fold, recording_page
from .render import Scene, css_size, small_png

__all__ = ["StepThrough", "SPEEDS"]

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
        Resolution of the frames (default: the style's); the picture keeps its CSS size.
    readout, alt : callable, optional
        ``readout(run, X, y, k) -> list of str`` and ``alt(run, X, y, k) -> str``.
    """

    REMEMBER = 6

    def __init__(self, run, X, y, *, panels=(), title=None, interval_ms=500, style=None, data_panel=None, dpi=None,
                 readout=state_lines, alt=alt_text):
        self._style = _style.get(style)
        self._dpi = float(dpi or self._style.dpi)
        self._title = title
        main = [] if data_panel is False else [data_panel if data_panel is not None else DataPanel()]
        self._panel_specs = main + list(panels)
        if not self._panel_specs:
            raise ValueError("StepThrough needs at least one panel; got data_panel=False and no panels.")
        self._readout_fn, self._alt_fn = readout, alt
        self._quiet = False
        self._png = b""
        self._scene = None
        self._scenes = []  # scenes of runs shown, the one on show last
        self._image = widgets.Image(format="png")
        self._readout = widgets.HTML()
        self._readout.add_class("perceptron-readout")
        self._keys = widgets.HTML()
        self._play = widgets.Play(value=0, min=0, max=0, step=1, interval=int(interval_ms), show_repeat=False,
                                  tooltip="play / pause / stop (stop goes back to the start)")
        self._slider = self._link = None
        self._reset_btn, self._back_btn, self._step_btn, self._end_btn = (
            widgets.Button(description=d, icon=i, tooltip=t, layout=widgets.Layout(width="auto"))
            for d, i, t in (("Reset", "fast-backward", "back to the start (Home)"),
                            ("Back", "step-backward", "one update back (←)"),
                            ("Step", "step-forward", "one update forward (→)"),
                            ("End", "fast-forward", "to the last update (End)")))
        self._speed = widgets.SelectionSlider(options=self._speed_options(int(interval_ms)), value=int(interval_ms),
                                              description="speed", continuous_update=True,
                                              layout=widgets.Layout(width="220px"))
        self._reset_btn.on_click(lambda _b: self.reset())
        self._back_btn.on_click(lambda _b: self.prev())
        self._step_btn.on_click(lambda _b: self.next())
        self._end_btn.on_click(lambda _b: self.seek(self.K))
        self._speed.observe(self._on_speed, names="value")
        self._play.observe(self._on_playing, names="playing")
        self._buttons = widgets.HBox([self._reset_btn, self._back_btn, self._step_btn, self._end_btn, self._play,
                                      self._speed], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        # the readout beside the picture (below it on a narrow screen), the key help under the readout
        self._words = widgets.VBox([self._readout, self._keys],
                                   layout=widgets.Layout(flex="1 1 18em", min_width="16em", margin="0 0 0 8px"))
        self._body = widgets.HBox([self._image, self._words],
                                  layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.widget = widgets.VBox([self._buttons, widgets.Label(), self._body])
        self.widget.add_class("perceptron-stepthrough")
        self.set_run(run, X, y)

    # ------------------------------------------------------------------ display
    def __repr__(self):
        return f"<StepThrough: {self._run.method} run, {plural(self.K, 'update')}>"

    def close(self):
        """Close the widgets (the figures go with the player)."""
        self._scenes.clear()
        self._link.unlink()
        for w in (self._image, self._readout, self._keys, self._play, self._slider, self._reset_btn, self._back_btn,
                  self._step_btn, self._end_btn, self._speed, self._buttons, self._words, self._body, self.widget):
            w.close()

    def snapshot(self):
        """(png, width, height, alt) of the current picture, small, for a stored notebook."""
        w, h = css_size(self._scene.fig, self._style)
        return small_png(self._scene.rgba(), scale=w / self._scene.rgba().shape[1]), w, h, self.alt

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

    X = property(lambda self: self._X)
    y = property(lambda self: self._y)
    style = property(lambda self: self._style)
    figure = property(lambda self: self._scene.fig)
    slider = property(lambda self: self._slider, doc="The k slider of the run on show (replaced at each run change).")

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
        return bool(self._play.playing)

    @property
    def interval_ms(self) -> int:
        return int(self._play.interval)

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
        self._play.playing = True

    def pause(self):
        self._play.playing = False

    def toggle(self):
        self._play.playing = not self._play.playing

    def tick(self) -> bool:
        """Do what the front end's Play timer does once: step if playing; past the end, pause."""
        if not self._play.playing:
            return False
        nxt = self.k + int(self._play.step)
        if nxt <= self.K:
            self._play.value = nxt
            return True
        self._play.playing = False
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
        self._play.interval = int(change["new"])

    def _on_k(self, change):
        if not self._quiet:
            self._render(int(change["new"]))

    def _on_playing(self, change):
        if change["new"] and self.K > 0 and self.k >= self.K:
            self.seek(0)  # like the front end: play at the end starts over

    def _new_slider(self, K):
        """A fresh k slider over 0..K, linked to the Play widget (the old one is closed)."""
        if self._link is not None:
            self._link.unlink()
            self._slider.close()
        self._play.value = 0
        self._play.max = K
        self._slider = widgets.IntSlider(value=0, min=0, max=K, step=1, description="update k", continuous_update=True,
                                         layout=widgets.Layout(width="100%", max_width="640px"))
        self._slider.observe(self._on_k, names="value")
        self._link = widgets.link((self._play, "value"), (self._slider, "value"))
        self.widget.children = (self._buttons, self._slider, self._body)

    # ------------------------------------------------------------------ runs
    def set_run(self, run, X=None, y=None) -> None:
        """Show another run (of the same or new data): pauses, shows its scene at k = 0.

        X, y default to the data on show. Raises, before changing anything, if the run does not fit
        the data or a panel.
        """
        X = self._X if X is None else X
        y = self._y if y is None else y
        X, y = check_X_y(X, y)
        hw = getattr(getattr(run, "history", None), "w", None)
        if hw is None:
            raise TypeError(f"run must be a Run from fit_perceptron/fit_minibatch/fit_batch; got {type(run).__name__}.")
        if hw.shape[1] != X.shape[1]:
            raise ValueError(f"the run's w has length {hw.shape[1]} but X has {X.shape[1]} features.")
        if getattr(run, "n_samples", 0) and run.n_samples != len(X):
            raise ValueError(f"the run was fitted on {run.n_samples} examples but X has {len(X)} rows.")
        scene = next((s for s in self._scenes if s.shows(run, X, y)), None)
        if scene is None:
            scene = Scene(self._panel_specs, run, X, y, style=self._style, dpi=self._dpi, title=self._title)
        else:
            self._scenes.remove(scene)
        self._scenes.append(scene)
        del self._scenes[:-self.REMEMBER]
        self._play.playing = False
        self._run, self._X, self._y, self._scene = run, X, y, scene
        w, h = css_size(scene.fig, self._style)
        self._image.layout = _keys.picture_layout(w, h)
        self._quiet = True
        try:
            self._new_slider(self.K)
        finally:
            self._quiet = False
        self._render(0)

    def _render(self, k, full=False):
        k = min(max(int(k), 0), self.K)
        self._scene.draw(k, full=full)
        self._png = self._scene.png()
        self._image.value = self._png
        self._readout.value = _keys.readout_html(self.lines(k))
        self._keys.value = _keys.hook_html(self.alt)
        self._back_btn.disabled = self._reset_btn.disabled = k == 0
        self._step_btn.disabled = self._end_btn.disabled = k >= self.K

    def frame_png(self) -> bytes:
        """PNG bytes of the current frame (what the Image widget shows)."""
        return self._png

    # ------------------------------------------------------------------ words
    def lines(self, k=None) -> list:
        """The readout for step k (default: current) as plain-text lines."""
        return list(self._readout_fn(self._run, self._X, self._y, self.k if k is None else k))

    @property
    def text(self) -> str:
        return "\n".join(self.lines())

    @property
    def alt(self) -> str:
        """The picture's alt text at the current step (one sentence)."""
        return self._alt_fn(self._run, self._X, self._y, self.k)

    # ------------------------------------------------------------------ recording
    def to_html(self, max_frames=40, dpi=72, *, max_bytes=2_000_000, interval_ms=None) -> AnimationHTML:
        """The run as a self-contained recording (`perceptron_lib.recording.recording_page`).

        At most `max_frames` frames evenly subsampled over 0..K (both ends), drawn by the scene on
        show and scaled to `dpi`; fewer if needed to stay under `max_bytes`. The player's own
        picture is unchanged afterwards.
        """
        import base64

        K, scene = self.K, self._scene
        scale = float(dpi) / self._dpi
        interval = int(interval_ms or self.interval_ms)
        cache = {}

        def frame(k):
            if k not in cache:
                scene.draw(k)
                png = base64.b64encode(small_png(scene.rgba(), scale=scale)).decode("ascii")
                lines = self._readout_fn(self._run, self._X, self._y, k)
                cache[k] = (png, self._alt_fn(self._run, self._X, self._y, k), "\n".join(lines))
            return cache[k]

        def pick(m):
            return sorted(set(np.linspace(0, K, num=max(2, min(m, K + 1))).round().astype(int).tolist()))

        try:
            per = max(len(frame(0)[0]), len(frame(K)[0])) + 600
            frames = pick(min(max(2, int(max_frames)), max(2, int(0.95 * (max_bytes - 8000) / per))))
            page = recording_page([frame(k) for k in frames], interval_ms=interval)
            while len(frames) > 2 and len(page.encode()) > max_bytes:
                frames = pick(len(frames) - 1)
                page = recording_page([frame(k) for k in frames], interval_ms=interval)
        finally:
            scene.draw(self.k)
        return AnimationHTML(page, frames, dpi)

    def fallback(self, summary: str = NO_KERNEL_SUMMARY, **to_html):
        """This player's recording folded under `summary`."""
        return fold(summary, self.to_html(**to_html))
