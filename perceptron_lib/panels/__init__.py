"""Extra panels for the `StepThrough` player, one module per lesson's need.

Each panel follows the protocol in `perceptron_lib.widgets`: ``draw(ax, run, X, y)`` once,
then ``update(k)`` returning the artists it moved. Panels only draw: the numbers they show
come from the run's history or from the computation modules below them.
"""
