"""The players: what a student steps through, clicks and edits (ipywidgets and anywidget).

* `browser`: `BrowserPlayer`, which steps through a run in the browser; `browser_switch`: `BrowserSwitch` (several
  runs on one view); `browser_controlled`: `BrowserControlled` (a run refitted when a setting changes);
  `browser_editor`: `BrowserEditor` (the student's own points). Each is an anywidget whose picture is drawn and
  stepped in the browser (the front end's ES modules are in `front/`; issue #30);
* `live`: `LiveFigure`, a matplotlib picture redrawn in the kernel from sliders;
* `render` (a matplotlib scene of a run's panels: the players' stills; the live figures' canvas and PNG),
  `picture` (a live figure's Image, and every picture's size), `readout` (the words, pure), `recording` (the
  display bundle: the widget, its text and its still);
* `panels`: what a player draws (`DataPanel` first, then one module per lesson's need).

The names below are the ones a lesson imports: ``from perceptron_lib.player import BrowserPlayer``.
"""

from .browser import BrowserPlayer
from .browser_controlled import BrowserControlled
from .browser_editor import BrowserEditor
from .browser_switch import BrowserSwitch
from .live import LiveFigure
from .panels.curves import LiftedPanel, LossPanel
from .panels.data import DataPanel

__all__ = [
    "BrowserPlayer", "BrowserSwitch", "BrowserControlled", "BrowserEditor", "LiveFigure", "DataPanel", "LossPanel",
    "LiftedPanel",
]
