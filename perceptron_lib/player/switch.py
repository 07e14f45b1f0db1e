"""Containers around a player: `RunSwitch` (buttons that choose the run shown) and `with_controls`
(a player under a row of the caller's controls). Both display as the player does
(`perceptron_lib.player.recording`): widget, stable text, still picture, recording on request.
"""

from __future__ import annotations

import ipywidgets as widgets

from .picture import text_for_preset
from .recording import Shown, fold

__all__ = ["RunSwitch", "Controlled", "with_controls"]


class RunSwitch(Shown):
    """Toggle buttons over a player that swap the run it shows (``player.set_run``).

    ``RunSwitch(player, {"label": run, ...})``, or values ``(run, X, y)`` when the data differ
    (e.g. flipped labels). A run given without data is shown on the data the player had when the
    switch was built, whatever run was shown before it (so labels never leak from one run to
    another). The first entry should be the run the player was built with.
    """

    def __init__(self, player, runs: dict, *, description="run"):
        if not runs:
            raise ValueError("RunSwitch needs at least one run.")
        self.player = player
        X0, y0 = player.X, player.y
        self.runs = {}
        for label, v in runs.items():
            run, X, y = v if isinstance(v, tuple) else (v, None, None)
            self.runs[label] = (run, X0 if X is None else X, y0 if y is None else y)
        self._share_axes()
        self.buttons = widgets.ToggleButtons(options=list(self.runs), description=description,
                                             style={"button_width": "auto"})
        self.buttons.observe(self._on_change, names="value")
        self.widget = widgets.VBox([self.buttons, player.widget])
        self.widget.add_class("perceptron-runswitch")
        text_for_preset(self.widget, player.style)

    def _share_axes(self) -> None:
        """Runs meant to be compared share their axes: each panel that can (a `LossPanel`: ``span`` and
        ``share``) shows every run of the switch on one value range, so switching runs never rescales it."""
        player = self.player
        scene = player._scene
        shared = False
        shown = player.shown_panels
        for spec in player._panel_specs:
            if not (hasattr(spec, "span") and hasattr(spec, "share")):
                continue
            spans = [spec.span(run, X, y) for run, X, y in self.runs.values()]
            lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
            spec.share(lo, hi)  # a scene drawn later (a panel picked) copies it
            for panel in (scene.panels[j] for j, p in enumerate(shown) if p is spec):
                panel.share(lo, hi)
            shared = True
        if shared:
            player._render(player.k)  # the scene sees the changed limits and draws in full

    @property
    def value(self) -> str:
        return self.buttons.value

    def select(self, label):
        """Show the run named `label`, as a click on its button does."""
        if label not in self.runs:
            raise KeyError(f"no run named {label!r}; the runs are {list(self.runs)}.")
        self.buttons.value = label

    def _on_change(self, change):
        self.player.set_run(*self.runs[change["new"]])

    def snapshot(self):
        return self.player.snapshot()

    def recording(self) -> str:
        return self.to_html(summary=None)._repr_html_()

    def to_html(self, summary="No kernel? Step through the recorded runs", *, labels=None, **kwargs):
        """Each run's recording (``player.to_html(**kwargs)``), titled by its label, folded under `summary`
        (`summary=None`: all open, one after the other). The player shows the selected run again afterwards."""
        chosen = list(self.runs) if labels is None else list(labels)
        for label in chosen:
            if label not in self.runs:
                raise KeyError(f"no run named {label!r}; the runs are {list(self.runs)}.")
        parts = {}
        try:
            for label in chosen:
                self.player.set_run(*self.runs[label])
                parts[label] = self.player.to_html(**kwargs)
        finally:
            self.player.set_run(*self.runs[self.value])
        if summary is None:
            return _Open([(label, parts[label]) for label in chosen])
        return fold(summary, *[(label, parts[label]) for label in chosen])

    def __repr__(self):
        return f"<RunSwitch: {' | '.join(self.runs)}; showing {self.value}>"


class _Open:
    """The runs' recordings behind a row of buttons, one run on show at a time, like the live switch.

    Stacked one after another they were several screens tall: no slide could hold them.
    """

    # Show panel n of this group and press button n; inline, so it works wherever the page puts it.
    _SHOW = ("var g=this.closest('.perceptron-runs'),n=this.dataset.run;"
             "g.querySelectorAll('[data-run-panel]').forEach(function(p){p.hidden=p.dataset.runPanel!==n;});"
             "g.querySelectorAll('button[data-run]').forEach(function(b){b.setAttribute('aria-pressed',"
             "String(b.dataset.run===n));});")

    def __init__(self, parts):
        self.parts = parts

    def _repr_html_(self):
        import html as _html

        buttons = "".join(
            f'<button type="button" data-run="{n}" aria-pressed="{str(n == 0).lower()}" '
            f'onclick="{_html.escape(self._SHOW)}">{_html.escape(t)}</button>'
            for n, (t, _a) in enumerate(self.parts)
        )
        panels = "".join(
            f'<div data-run-panel="{n}"{"" if n == 0 else " hidden"}>{a._repr_html_()}</div>'
            for n, (_t, a) in enumerate(self.parts)
        )
        # the run on show is told by weight and underline as well as by aria-pressed, not by colour
        style = ('<style>.perceptron-runs button[aria-pressed="true"]{font-weight:700;'
                 "text-decoration:underline}</style>")
        return (f'{style}<div class="perceptron-runs"><div role="group" aria-label="run on show">{buttons}</div>'
                f"{panels}</div>")


class Controlled(Shown):
    """A player shown under a row of controls; ``controls`` and ``player`` stay reachable."""

    def __init__(self, player, controls):
        self.player = player
        self.controls = list(controls)
        row = widgets.HBox(self.controls, layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = widgets.VBox([row, player.widget])
        self.widget.add_class("perceptron-controlled")

    def snapshot(self):
        return self.player.snapshot()

    def recording(self) -> str:
        return self.player.recording()

    def __repr__(self):
        names = ", ".join(getattr(c, "description", "") or type(c).__name__ for c in self.controls)
        return f"<{self.player!r} with controls: {names}>"


def with_controls(player, *controls) -> Controlled:
    """Put `controls` (ipywidgets) in a row above `player`, for display as one widget."""
    return Controlled(player, controls)
