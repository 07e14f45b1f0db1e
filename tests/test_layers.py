"""The library's layers: computation imports no drawing library, and split modules keep old addresses."""

import subprocess
import sys

import pytest

COMPUTATION = [
    "perceptron_lib",
    "perceptron_lib.perceptron",
    "perceptron_lib.runs",
    "perceptron_lib.training",
    "perceptron_lib.losses",
    "perceptron_lib.subgradients",
    "perceptron_lib.loss_surfaces",
    "perceptron_lib.margins",
    "perceptron_lib.bounds",
    "perceptron_lib.kernels",
    "perceptron_lib.dual",
    "perceptron_lib.analysis",
    "perceptron_lib.proof",
    "perceptron_lib.averaged",
    "perceptron_lib.own_data",
]

# The widget layer (players, live figures, the point editor): each imports on its own in a fresh
# interpreter (no import cycle through the re-exports).
WIDGETS = [
    "perceptron_lib.player",
    "perceptron_lib.switch",
    "perceptron_lib.live",
    "perceptron_lib.editor",
    "perceptron_lib.widgets",
]

# Names that moved out of a module when it was split (issue 12), and where they live now.
MOVED = {
    ("perceptron", "runs"): ["State", "History", "Cycle", "Run"],
    ("perceptron", "training"): ["fit_perceptron", "fit_minibatch", "fit_batch", "reference_perceptron"],
    ("kernels", "dual"): ["DualRun", "GramCost", "fit_kernel_perceptron", "gram_costs"],
    ("losses", "subgradients"): ["Subgradient", "perceptron_subgradient"],
    ("losses", "loss_surfaces"): ["kink_lines", "loss_along_run", "loss_surface", "param_grid"],
    ("margins", "bounds"): ["MistakeBound", "mistake_bound", "offset_mistake_bound"],
    ("plotting", "plot_arrows"): ["ArrowArtist", "draw_arrow", "draw_w_arrow", "update_w_arrow", "w_arrow_anchor"],
    ("plotting", "plot_surfaces"): ["draw_contours", "draw_surface", "draw_lifted", "draw_loss_curve", "update_plane"],
}


@pytest.mark.parametrize("module", COMPUTATION)
def test_computation_imports_no_drawing_library(module):
    # A fresh interpreter: the test session itself has matplotlib loaded already.
    code = f"import sys, {module}; print(sorted(m for m in ('matplotlib', 'ipywidgets') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"importing {module} loaded {out.strip()}"


@pytest.mark.parametrize(("old", "new"), list(MOVED))
def test_moved_names_keep_their_old_address(old, new):
    import importlib

    old_mod = importlib.import_module(f"perceptron_lib.{old}")
    new_mod = importlib.import_module(f"perceptron_lib.{new}")
    for name in MOVED[old, new]:
        assert getattr(old_mod, name) is getattr(new_mod, name), f"perceptron_lib.{old}.{name}"
        assert name in new_mod.__all__


@pytest.mark.parametrize("module", [f"perceptron_lib.{new}" for _, new in MOVED])
def test_a_new_module_imports_first_in_a_fresh_interpreter(module):
    subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=True)


@pytest.mark.parametrize("module", WIDGETS)
def test_a_widget_module_imports_first_in_a_fresh_interpreter(module):
    subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=True)
