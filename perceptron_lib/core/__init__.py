"""The computation: numbers only (numpy, scipy, scikit-learn; never matplotlib or ipywidgets).

* `perceptron`: the one update rule (`step`, `is_mistake`, `scores` and the one meaning of zero);
* `runs`: the frozen records (`State`, `History`, `Cycle`, `Run`), written by `recorder`; `training`: the
  online fit, `batched`: the mini-batch and batch fits, every one built from the rule; `averaged`: averaged
  and voted, `pocket`: the pocket;
* `data`: the lessons' data sets (the fixed ones and the digits in `data_fixed`); `losses`, `subgradients`,
  `loss_surfaces`: the losses, their subgradient and their surfaces over (w, b);
* `margins`, `bounds`, `proof`: margins and separability, the mistake bounds, the proof's
  quantities along a run; `analysis`: what a run did (epochs, errors, update effects);
* `kernels`, `dual`: the lift and kernel functions, the dual (kernel) perceptron;
* `estimator`: the scikit-learn estimator; `own_data`: a student's own points (pure).

The names a student uses most are also at the top: ``from perceptron_lib import fit_perceptron``.
"""
