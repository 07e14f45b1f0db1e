"""`PointEditor`: the student's own points on a player's picture: place, drag, remove, and watch the run.

    player = StepThrough(run, X, y)
    editor = PointEditor(player)          # displays the edit controls above the player
    editor                                # as a cell's last value

Contract with the player (`perceptron_lib.player.StepThrough`), and nothing else of it is used:
``picture`` (the `events.EventPicture` the presses come from), ``to_data`` / ``to_pixels`` (pixels <-> data of
the main panel), ``view``, ``set_marks`` (cursor and selection), ``on_key`` (keys on the picture),
``set_hint`` (the alt sentence's last words), ``k``, ``run``, ``X``, ``y``, ``style`` and
``set_run(run, X, y, at=, notes=, view=)``. The player only replays; the editor owns the points, the
fit settings and the undo history, calls the one fit function (`fit_perceptron`, or the `fit` given)
and hands the player the new run.

Mouse, touch and pen (the picture's pointer events): a click on an empty spot adds a point of the class
chosen beside the picture (shift: the other class); a press on a point and a release elsewhere
moves it; a click on a point selects it, and alt- or ctrl-click (or Delete on the selected point)
removes it. Keyboard: "Keyboard cursor" shows a cursor that the arrow keys (the picture focused, or
the pointer on it) or its two number boxes (Tab, then ↑ ↓ or type) move; Enter or "Add here" adds a
point there; Delete or "Remove nearest" removes the point nearest to it; Escape hides it (a second
Escape leaves the picture). Every edit is announced in the message line (a polite live region).
Nothing here raises into the notebook: a bad click, drop or text gets a message and the points stay
as they were.
"""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from ..core.edits import ON_TOP
from ..core.own_data import (
    MAX_POINTS,
    conflict,
    empty_run,
    fit_settings,
    num,
    parse_points,
    points_literal,
    snap,
    summarize,
    summary_lines,
)
from ..core.training import fit_perceptron
from .recording import Shown

__all__ = ["PointEditor"]

#: A click within this many pixels of a point's centre (beyond the marker's own radius) is on it.
HIT_SLACK_PX = 4
#: A press and release further apart than this (pixels) is a drag, not a click.
DRAG_PX = 4

CLICK_HINT = ("Click on the picture to add a point (shift-click: the other class), drag a point to move it, "
              "alt-click it to remove it.")


class PointEditor(Shown):
    """Edit the points of a player's run and show the run on them after every edit.

    Parameters
    ----------
    player : StepThrough
        Its main panel shows the points (a `DataPanel`).
    fit : callable, optional
        ``fit(X, y) -> Run`` on the points as the player shows them (lifted, if `lift`). Default:
        `fit_perceptron` with the settings of the player's run (`own_data.fit_settings`).
    lift : callable, optional
        ``lift(X2) -> X`` from the 2-D points the student places to the data the run is fitted on
        (e.g. `kernels.lift`); the player's data must then be ``lift`` of their first two columns.
    max_epochs : int
        Passes of the default fit (it stops earlier when it converges or cycles).
    separator : str
        What separates, in the readout's words ("line"; "plane in the lifted space"...).
    max_points : int
    """

    def __init__(self, player, *, fit=None, lift=None, max_epochs=100, separator="line", max_points=MAX_POINTS):
        self.player = player
        self._lift = lift
        self._separator = separator
        self._max_points = int(max_points)
        settings = fit_settings(player.run, max_epochs=max_epochs)
        self._settings = settings
        self._fit = fit if fit is not None else (lambda X, y: fit_perceptron(X, y, **settings))
        self._lesson = (np.array(player.X[:, :2], dtype=float), np.array(player.y, dtype=float))
        if len(self._lesson[1]) > self._max_points:
            raise ValueError(f"the lesson's data have {len(self._lesson[1])} points but max_points is "
                             f"{self._max_points}: give max_points of at least {len(self._lesson[1])}.")
        self._X, self._y = (a.copy() for a in self._lesson)
        self._undo, self._redo = [], []
        self._press = None
        self._selected = None
        self._cursor = None
        self.summary = None
        self._build_controls()
        player.picture.pointer = True
        player.picture.on_pointer(self._on_pointer)
        player.on_key(self._on_key, keys=self._keys)
        player.set_hint(CLICK_HINT)
        self._refit(view="keep", at=player.k, say="")

    # ------------------------------------------------------------------ widgets
    def _build_controls(self):
        def button(text, tip, fn):
            b = widgets.Button(description=text, tooltip=tip, layout=widgets.Layout(width="auto"))
            b.on_click(lambda _b: self._guarded(fn))
            return b

        self.label_choice = widgets.ToggleButtons(options=[("+1", 1), ("−1", -1)], value=1,
                                                  description="new point", tooltips=["class +1", "class −1"],
                                                  style={"button_width": "3.2em", "description_width": "initial"})
        self.undo_btn = button("Undo", "undo the last edit", self.undo)
        self.redo_btn = button("Redo", "redo the edit undone", self.redo)
        self.lesson_btn = button("Start again", "back to the lesson's data", self.start_again)
        self.clear_btn = button("Clear", "remove every point", self.clear)
        self.copy_btn = button("Copy points", "show the points as Python to paste into a cell", self._show_copy)
        self.stay = widgets.Checkbox(value=False, description="stay at update k after an edit", indent=False,
                                     layout=widgets.Layout(width="auto"))
        self.cursor_btn = widgets.ToggleButton(value=False, description="Keyboard cursor", icon="plus",
                                               tooltip="a cursor moved by the arrow keys or two number boxes",
                                               layout=widgets.Layout(width="auto"))
        self.cursor_btn.observe(lambda ch: self._guarded(self._toggle_cursor, ch["new"]), names="value")
        # labelled number boxes (↑ ↓ move by a step, or type a coordinate): sliders' handles have no name
        self.cx = widgets.BoundedFloatText(description="cursor x₁", continuous_update=True,
                                           layout=widgets.Layout(width="180px"))
        self.cy = widgets.BoundedFloatText(description="cursor x₂", continuous_update=True,
                                           layout=widgets.Layout(width="180px"))
        for s in (self.cx, self.cy):
            s.observe(lambda _ch: self._guarded(self._cursor_from_sliders), names="value")
        self.add_here = button("Add here", "add a point at the cursor (Enter)", self._add_at_cursor)
        self.remove_near = button("Remove nearest", "remove the point nearest the cursor (Delete)",
                                  self._remove_near_cursor)
        self.cursor_row = widgets.HBox([self.cx, self.cy, self.add_here, self.remove_near],
                                       layout=widgets.Layout(flex_flow="row wrap", display="none"))
        self.text = widgets.Textarea(placeholder="X = [[0.5, 1], [-1, 2]]\ny = [1, -1]", description="points",
                                     layout=widgets.Layout(width="min(100%, 640px)", height="5em"))
        self.load_btn = button("Load", "replace the points by the ones in the box", self._load_box)
        self.message = widgets.HTML()
        self.message.add_class("perceptron-edit-message")
        row1 = widgets.HBox([self.label_choice, self.undo_btn, self.redo_btn, self.lesson_btn, self.clear_btn,
                             self.copy_btn, self.cursor_btn],
                            layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        box = widgets.HBox([self.text, self.load_btn], layout=widgets.Layout(flex_flow="row wrap",
                                                                             align_items="flex-start"))
        self.more = widgets.Accordion(children=[widgets.VBox([self.stay, box])], titles=("points as text, options",))
        self.more.selected_index = None
        self.widget = widgets.VBox([row1, self.cursor_row, self.message, self.player.widget, self.more])
        self.widget.add_class("perceptron-editor")

    def _say(self, text: str, *, problem=False):
        import html

        colour = "#8a1c00" if problem else "#1a1a1a"
        word = "Not done: " if problem else ""
        self._message = f"{word}{text}"
        self.message.value = (f'<div role="status" aria-live="polite" style="color:{colour};min-height:1.4em">'
                              f"{html.escape(self._message)}</div>")

    def _guarded(self, fn, *args):
        """Run an action from the page; a failure becomes a message, the points stay as they were."""
        saved = (self._X, self._y, list(self._undo), list(self._redo))
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - a widget callback must never put a traceback in the notebook
            self._X, self._y, self._undo, self._redo = saved
            self._say(f"{exc} Your points are as they were.", problem=True)
            return None

    # ------------------------------------------------------------------ state
    @property
    def points(self):
        """(X, y): copies of the points (2-D) and labels now."""
        return self._X.copy(), self._y.copy()

    @property
    def run(self):
        return self.player.run

    @property
    def literal(self) -> str:
        """The points as Python: ``X = [...]`` and ``y = [...]``."""
        return points_literal(self._X, self._y)

    @property
    def last_message(self) -> str:
        return self._message

    def __repr__(self):
        return f"<PointEditor: {len(self._y)} points; {self.player!r}>"

    def snapshot(self):
        return self.player.snapshot()

    def recording(self) -> str:
        note = ('<p class="perceptron-edit-note">Placing your own points needs a kernel: open the lesson with '
                "<code>make lab</code> or <code>make app</code>.</p>")
        return note + self.player.recording()

    # ------------------------------------------------------------------ edits (public: tests and checkers)
    def add(self, x, label=1):
        """Add the point x = (x1, x2) of class `label` (+1 or -1)."""
        x = np.asarray(x, dtype=float).reshape(2)
        if not np.isfinite(x).all():
            raise ValueError(f"a point needs two finite numbers; got {x.tolist()}.")
        label = 1.0 if label > 0 else -1.0
        j = self._on_top(x)
        if j is not None:
            other = "of the other class " if self._y[j] != label else ""
            raise ValueError(f"There is already a point {other}there (point {j}); a point on top of another "
                             "tells the perceptron nothing new. Click a little further away.")
        if len(self._y) >= self._max_points:
            raise ValueError(f"The editor keeps at most {self._max_points} points; remove some first.")
        self._edit(np.vstack([self._X, x[None, :]]), np.append(self._y, label),
                   f"Added point {len(self._y)} at ({num(x[0])}, {num(x[1])}), class {'+1' if label > 0 else '−1'}.")

    def move(self, i, x):
        """Move point i to x."""
        i = self._index(i)
        x = np.asarray(x, dtype=float).reshape(2)
        j = self._on_top(x, skip=i)
        if j is not None:
            raise ValueError(f"Point {i} would land on point {j}; drop it a little further away.")
        X = self._X.copy()
        X[i] = x
        self._edit(X, self._y, f"Moved point {i} to ({num(x[0])}, {num(x[1])}).")

    def remove(self, i):
        """Remove point i."""
        i = self._index(i)
        self._selected = None
        keep = np.arange(len(self._y)) != i
        self._edit(self._X[keep], self._y[keep], f"Removed point {i}; points after it are numbered one less.")

    def load(self, X, y, *, lesson=False):
        """Replace every point (2-D X, labels y in {-1, +1}); the view fits the new points. With
        ``lesson=True`` they become the lesson's data too ("Start again" comes back to them)."""
        X, y = parse_points(points_literal(X, y), max_points=self._max_points)
        if lesson:
            self._lesson = (X.copy(), y.copy())
        self._edit(X, y, f"Loaded {len(y)} points.", view=None)

    def refit(self):
        """Fit the same points again (after the fit's settings changed, e.g. a control of the lesson's)."""
        self._refit(view="keep", say="Fitted again with the new settings.")

    def load_text(self, text: str):
        """Replace the points by the literal in `text` (as "Copy points" writes it)."""
        X, y = parse_points(text, max_points=self._max_points)
        self._edit(X, y, f"Loaded {len(y)} points from the box.", view=None)

    def start_again(self):
        """Back to the lesson's data."""
        self._selected = None
        self._edit(*self._lesson, "Back to the lesson's data.", view=None)

    def clear(self):
        """Remove every point (the view stays, so you can place new ones where they were)."""
        self._selected = None
        self._edit(np.empty((0, 2)), np.empty(0), "Cleared.",  # the notes under it say what to do next
                   view="keep")

    def undo(self):
        """Back to the points, the view and the step k before the last edit."""
        if not self._undo:
            raise ValueError("Nothing to undo.")
        X, y, view, k = self._undo.pop()
        self._redo.append((self._X, self._y, self.player.view, self.player.k))
        self._X, self._y, self._selected = X, y, None
        self._refit(view=view, say="Undone.", at=k)

    def redo(self):
        """Do the edit undone last again (same points, view and step k as before the Undo)."""
        if not self._redo:
            raise ValueError("Nothing to redo.")
        X, y, view, k = self._redo.pop()
        self._undo.append((self._X, self._y, self.player.view, self.player.k))
        self._X, self._y, self._selected = X, y, None
        self._refit(view=view, say="Redone.", at=k)

    # ------------------------------------------------------------------ internals
    def _index(self, i) -> int:
        n = len(self._y)
        if not isinstance(i, (int, np.integer)) or not 0 <= int(i) < n:
            raise ValueError(f"There is no point {i!r}; the points are numbered 0 to {n - 1}.")
        return int(i)

    def _span(self) -> float:
        (x0, x1), (y0, y1) = self.player.view
        return max(x1 - x0, y1 - y0)

    def _on_top(self, x, skip=None):
        if not len(self._y):
            return None
        d = np.hypot(*(self._X - x).T)
        if skip is not None:
            d[skip] = np.inf
        j = int(np.argmin(d))
        return j if d[j] <= ON_TOP * self._span() else None

    def _edit(self, X, y, say, *, view="keep"):
        if len(y) > self._max_points:
            raise ValueError(f"The editor keeps at most {self._max_points} points; got {len(y)}.")
        pair = conflict(X, y)
        if pair is not None:
            raise ValueError(f"Points {pair[0]} and {pair[1]} are at the same spot with opposite labels: no line "
                             "(and no perceptron) can get both right. Move one of them.")
        self._undo.append((self._X, self._y, self.player.view, self.player.k))
        self._redo.clear()
        self._X, self._y = np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y, dtype=float).ravel()
        self._refit(view=view, say=say)

    def _shown(self, X):
        return self._lift(X) if self._lift is not None else X

    def _refit(self, *, view, say, at=None):
        """Fit the points, hand the player the run, and say what happened (and what the data are)."""
        X, y = self._X, self._y
        if len(y):
            Xs = self._shown(X)
            run = self._fit(Xs, y)
        else:
            d = self.player.run.history.w.shape[1]
            s = self._settings
            Xs = np.empty((0, d))
            run = empty_run(d, w0=s["w0"], b0=s["b0"], eta=s["eta"], update_on=s["update_on"], fit_bias=s["fit_bias"])
        self.summary = summarize(Xs, y, run)
        lines = summary_lines(self.summary, separator=self._separator)
        if at is None:
            at = self.player.k if self.stay.value else "end"
        self._marks(render=False)
        self.player.set_run(run, Xs, y, at=at, notes=lines, view=view)
        self.undo_btn.disabled, self.redo_btn.disabled = not self._undo, not self._redo
        if say:
            self._say(f"{say} {lines[1] if len(lines) > 1 else lines[0]}")
        else:
            self._say(CLICK_HINT)

    def _marks(self, render=True):
        sel = None if self._selected is None or self._selected >= len(self._y) else self._X[self._selected]
        self.player.set_marks(cursor=self._cursor, selected=sel, render=render)

    def _hit(self, px, py):
        """The point drawn under pixel (px, py), or None."""
        if not len(self._y):
            return None
        pix = self.player.to_pixels(self._X)
        d = np.hypot(pix[:, 0] - px, pix[:, 1] - py)
        s, dpi = self.player.style, self.player.dpi
        radius = (0.5 * np.sqrt(s.marker_size) / 72 + HIT_SLACK_PX / s.dpi) * dpi  # in the picture's pixels
        j = int(np.argmin(d))
        return j if d[j] <= radius else None

    def _on_pointer(self, event):
        self._guarded(self._pointer_event, event)

    def _pointer_event(self, event):
        """A press, release or leave on the picture (`events.EventPicture`'s message: mouse, touch or pen alike)."""
        kind = event.get("type", "")
        if kind in ("pointerleave", "pointercancel"):
            if self._press is not None and self._press[0] is not None:
                self._say("The drag left the picture, so the point stayed where it was.", problem=True)
            self._press = None
            return
        px, py = event.get("dataX"), event.get("dataY")
        if px is None or py is None:
            return
        if kind == "pointerdown":
            self._press = (self._hit(px, py), (px, py))
            return
        if kind != "pointerup" or self._press is None:
            return
        hit, (qx, qy) = self._press
        self._press = None
        moved = np.hypot(px - qx, py - qy) > DRAG_PX
        where = self.player.to_data(px, py)
        if hit is not None:
            if event.get("altKey") or event.get("ctrlKey") or event.get("metaKey"):
                self.remove(hit)
            elif moved:
                if where is None:
                    self._say("That drop is outside the plot, so the point stayed where it was.", problem=True)
                else:
                    self.move(hit, snap(where, self._span()))
            else:
                self._selected = None if self._selected == hit else hit
                self._marks()
                if self._selected is not None:
                    x = self._X[hit]
                    self._say(f"Point {hit} selected: ({num(x[0])}, {num(x[1])}), class "
                              f"{'+1' if self._y[hit] > 0 else '−1'}. Delete removes it; drag it to move it.")
                else:
                    self._say(f"Point {hit} no longer selected.")
            return
        if where is None:
            self._say("That click is outside the plot; click inside the axes to add a point.", problem=True)
            return
        label = self.label_choice.value * (-1 if event.get("shiftKey") else 1)
        self.add(snap(where, self._span()), label)

    # -- keyboard
    def _keys(self):
        """The keys the editor uses now: Delete and Backspace (a selected point), and while its cursor is shown the
        arrows, Enter and Escape; the picture hands every other key on (Escape leaves it when the cursor is hidden)."""
        cursor = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", "Escape")
        return ("Delete", "Backspace", *(cursor if self._cursor is not None else ()))

    def _on_key(self, event) -> bool:
        key = event.get("key")
        if key in ("Delete", "Backspace") and self._cursor is None and self._selected is not None:
            self._guarded(self.remove, self._selected)
            return True
        if self._cursor is None:
            return False
        (x0, x1), (y0, y1) = self.player.view
        step = (0.125 if event.get("shiftKey") else 1 / 40) * max(x1 - x0, y1 - y0)
        moves = {"ArrowLeft": (-step, 0), "ArrowRight": (step, 0), "ArrowUp": (0, step), "ArrowDown": (0, -step)}
        if key in moves:
            dx, dy = moves[key]
            to = snap(self._cursor + (dx, dy), max(x1 - x0, y1 - y0))  # short numbers in the boxes
            self.cx.value = float(np.clip(to[0], x0, x1))
            self.cy.value = float(np.clip(to[1], y0, y1))
        elif key == "Enter":
            self._guarded(self._add_at_cursor)
        elif key in ("Delete", "Backspace"):
            self._guarded(self._remove_near_cursor)
        elif key == "Escape":
            self.cursor_btn.value = False
        else:
            return False
        return True

    def _toggle_cursor(self, on):
        self.cursor_row.layout.display = "flex" if on else "none"
        if not on:
            self._cursor = None
            self.player.use_keys()
            self._marks()
            self._say("Keyboard cursor hidden.")
            return
        (x0, x1), (y0, y1) = self.player.view
        step = float(snap(max(x1 - x0, y1 - y0) / 40, max(x1 - x0, y1 - y0)))
        centre = snap([(x0 + x1) / 2, (y0 + y1) / 2], max(x1 - x0, y1 - y0))
        for s, lo, hi, c in ((self.cx, x0, x1, centre[0]), (self.cy, y0, y1, centre[1])):
            s.min, s.max = -1e300, 1e300  # widen first: the new range may not overlap the old one
            s.min, s.max, s.step = lo, hi, step
            s.value = float(c)
        self._cursor = np.array(centre, dtype=float)
        self.player.use_keys()
        self._marks()
        self._say("Keyboard cursor at the centre: arrow keys (on the picture) or the two boxes move it, "
                  "Enter or 'Add here' adds a point, Delete or 'Remove nearest' removes one, Escape hides it.")

    def _cursor_from_sliders(self):
        if self._cursor is None:
            return
        self._cursor = np.array([self.cx.value, self.cy.value])
        self._marks()

    def _add_at_cursor(self):
        if self._cursor is None:
            raise ValueError("Turn on the keyboard cursor first.")
        self.add(snap(self._cursor, self._span()), self.label_choice.value)

    def _remove_near_cursor(self):
        if not len(self._y):
            raise ValueError("There are no points to remove.")
        if self._cursor is None:
            raise ValueError("Turn on the keyboard cursor first.")
        self.remove(int(np.argmin(np.hypot(*(self._X - self._cursor).T))))

    def _show_copy(self):
        self.text.value = self.literal
        self.more.selected_index = 0
        self._say("The points are in the box below as Python: copy them into a code cell. "
                  "'Load' reads the box back.")

    def _load_box(self):
        self.load_text(self.text.value)
