"""perceptron_lib: the mathematics, pictures and players behind the perceptron course.

Layers, bottom to top (each imports only from those below it):

- ``_validation``: argument checks shared by every public function;
- ``data``, ``losses``, ``subgradients``, ``loss_surfaces``: data sets, losses, their
  subgradient and surfaces; ``perceptron`` (the step rule), ``runs`` (the `Run` records),
  ``training`` (the online, mini-batch and batch fits);
- ``margins``, ``bounds``, ``kernels``, ``dual``, ``estimator``, ``averaged``: margins and
  separability, the mistake bounds (with and without separability), the lift and kernel
  functions, the dual perceptron, the scikit-learn estimator, the averaged, voted and pocket
  perceptrons. Where a module was split, the old module re-exports what moved (its last import,
  so ``perceptron.Run``, ``kernels.fit_kernel_perceptron``, ``margins.mistake_bound``,
  ``losses.loss_surface`` keep their address); the new modules never import that re-export;
- ``style``, ``plotting``, ``plot_arrows``, ``plot_surfaces``: figures (``plotting`` re-exports
  the other two); ``readout`` (the player's words, pure); ``render`` (one figure per scene,
  blitted, PNG); ``panels`` (what a player draws: ``panels.data.DataPanel`` first);
  ``player`` (`StepThrough`), ``picture`` (the Image it shows), ``switch`` (`RunSwitch`,
  `with_controls`), ``live`` (`LiveFigure`), ``editor`` (`PointEditor`: the student's own points;
  what it computes is in the pure ``own_data``), ``recording`` (the display bundle and the
  self-contained recording); ``widgets`` re-exports them under their old address
  (matplotlib and ipywidgets are imported only here, and only when you import these modules);
- ``exercises``: the self-checks of the notebooks' exercises.

Importing the package changes no global state (no rcParams, no random seeds).
"""

from . import data, kernels, losses, margins, style
from .averaged import fit_averaged, pocket, voted_predict
from .bounds import hinge_mistake_bound
from .kernels import fit_kernel_perceptron, lift, lift_kernel
from .losses import hinge_loss, perceptron_loss, perceptron_subgradient, zero_one_loss
from .margins import geometric_margin, is_separable, max_margin_separator, mistake_bound, offset_mistake_bound, radius
from .perceptron import (
    Cycle,
    History,
    Run,
    State,
    fit_batch,
    fit_minibatch,
    fit_perceptron,
    is_mistake,
    reference_perceptron,
)

__version__ = "0.1.0"
