"""The players and live figures under their old address (the parts live in their own modules).

* `perceptron_lib.player`: `StepThrough` (controls, k, play) and its panel protocol;
* `perceptron_lib.switch`: `RunSwitch`, `with_controls`;
* `perceptron_lib.live`: `LiveFigure`;
* `perceptron_lib.render`: the figure, blitting and PNG encoding shared by both;
* `perceptron_lib.readout`: the words and the alt text;
* `perceptron_lib.recording`: the display bundle and the self-contained recording;
* `perceptron_lib.panels.data`, `perceptron_lib.panels.curves`: `DataPanel`, `LossPanel`, `LiftedPanel`.
"""

from .live import LiveFigure
from .panels.curves import LiftedPanel, LossPanel
from .panels.data import DataPanel
from .player import SPEEDS, StepThrough
from .recording import NO_KERNEL_SUMMARY, AnimationHTML, Folded, Shown, fold
from .switch import Controlled, RunSwitch, with_controls

ShowsWidget = Shown

__all__ = [
    "StepThrough", "LiveFigure", "DataPanel", "LossPanel", "LiftedPanel", "AnimationHTML", "Folded", "fold",
    "NO_KERNEL_SUMMARY", "SPEEDS", "ShowsWidget", "RunSwitch", "with_controls", "Controlled",
]
