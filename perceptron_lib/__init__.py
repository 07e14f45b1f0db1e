"""perceptron_lib: the mathematics behind the perceptron course."""
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
