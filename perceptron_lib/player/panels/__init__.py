"""Panels of the players: `data` (the main `DataPanel`), `curves` (`LossPanel`, `LiftedPanel`), and one module
per lesson's need (`loss`, `loss_slice`, `loss_views`, `updates`, `claims`, `lifted`, `margin`, `averaged`).

A panel the browser draws gives its numbers as a spec (``front``, `panel_specs.FrontPanel`); each panel also
follows the scene protocol of `perceptron_lib.player.render` (``draw(ax, run, X, y)`` once, then ``update(k)``
returning the artists it moved), by which matplotlib draws the still a player keeps in its saved output; a
scene draws a copy of the panel.
Panels only draw: the numbers they show come from the run's history or from the computation
modules below them.
"""
