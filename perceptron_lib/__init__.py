"""perceptron_lib: the mathematics, pictures and players behind the perceptron course.

Three layers, in three folders, each importing only from those before it:

- ``core``: the computation (numpy, scipy, scikit-learn): the one update rule
  (``core.perceptron``), the run records and the fits built from it, losses, margins, bounds,
  kernels, the dual perceptron, the proof's quantities, the student's own points;
- ``draw``: matplotlib drawing of given numbers (``style``, ``plotting``, ``arrows``,
  ``surfaces``, ``display``);
- ``player``: the widgets a student steps through (``BrowserPlayer``, ``BrowserSwitch``, ``BrowserControlled``,
  ``BrowserEditor``, ``LiveFigure``), their still pictures, words and display, and their ``panels``;

and ``exercises``, the self-checks of the lessons' exercises, on top of ``core``. The argument
checks shared by every public function are in ``_validation``, below all of them.

The names below are the computation a student calls most. Importing the package loads neither
matplotlib nor ipywidgets, and changes no global state (no rcParams, no random seeds).
"""

from .core.averaged import fit_averaged, voted_predict
from .core.batched import fit_batch, fit_minibatch
from .core.bounds import hinge_mistake_bound, mistake_bound, offset_mistake_bound
from .core.dual import fit_kernel_perceptron
from .core.kernels import lift, lift_kernel
from .core.losses import hinge_loss, perceptron_loss, zero_one_loss
from .core.margins import geometric_margin, is_separable, max_margin_separator, radius
from .core.perceptron import is_mistake
from .core.pocket import pocket
from .core.runs import Cycle, History, Run, State
from .core.subgradients import perceptron_subgradient
from .core.training import fit_perceptron, reference_perceptron

__all__ = [
    "fit_perceptron", "fit_minibatch", "fit_batch", "reference_perceptron", "fit_averaged", "pocket",
    "voted_predict", "fit_kernel_perceptron", "State", "History", "Cycle", "Run", "is_mistake",
    "perceptron_loss", "hinge_loss", "zero_one_loss", "perceptron_subgradient", "geometric_margin",
    "is_separable", "max_margin_separator", "radius", "mistake_bound", "offset_mistake_bound",
    "hinge_mistake_bound", "lift", "lift_kernel",
]

__version__ = "0.1.0"
