"""The players: what a student steps through, clicks and edits (ipywidgets and anywidget).

* `stepthrough`: `StepThrough`, which replays a run one state at a time;
* `switch`: `RunSwitch` (one picture, several runs) and `with_controls` (a lesson's own controls);
* `live`: `LiveFigure`, a picture redrawn from sliders;
* `render` (one figure per player: drawn once, blitted, PNG), `events` (`EventPicture`: the kernel-drawn
  picture, which brings the keys, clicks and drags), `picture` (a live figure's Image, and every picture's
  size), `readout` (the words, pure), `recording` (the display bundle and the static recording);
* `panels`: what a player draws (`DataPanel` first, then one module per lesson's need);
* `browser`: `BrowserPlayer`, the player whose picture is drawn and stepped in the browser (anywidget; the
  front end's ES modules are in `front/`): the players are moving there (issue #30).

The names below are the ones a lesson imports: ``from perceptron_lib.player import StepThrough``.
"""

from .browser import BrowserPlayer
from .browser_controlled import BrowserControlled
from .browser_editor import BrowserEditor
from .browser_switch import BrowserSwitch
from .live import LiveFigure
from .panels.curves import LiftedPanel, LossPanel
from .panels.data import DataPanel
from .stepthrough import StepThrough
from .switch import Controlled, RunSwitch, with_controls

__all__ = [
    "StepThrough", "RunSwitch", "with_controls", "Controlled", "LiveFigure",
    "DataPanel", "LossPanel", "LiftedPanel", "BrowserPlayer", "BrowserSwitch", "BrowserControlled", "BrowserEditor",
]
