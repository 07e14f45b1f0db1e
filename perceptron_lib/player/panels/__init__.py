"""Panels for the `StepThrough` player: `data` (the main `DataPanel`), `curves` (`LossPanel`,
`LiftedPanel`), and one module per lesson's need (`loss`, `loss_slice`, `loss_views`, `updates`,
`claims`, `lifted`).

Each panel follows the protocol in `perceptron_lib.player.stepthrough`: ``draw(ax, run, X, y)`` once, then
``update(k)`` returning the artists it moved; the player draws a copy of the panel per scene.
Panels only draw: the numbers they show come from the run's history or from the computation
modules below them.
"""
