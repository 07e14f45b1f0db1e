"""Shared set-up for the unit tests (not for the notebooks: nbval runs those in kernels).

Kept small on purpose: importing the library here would hide import-time side effects.
"""

import os

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")  # no display in tests; `make test` also sets MPLBACKEND=Agg

# CI machines are small and shared: a slow example is not a failure there.
settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _close_figures():
    """Close every figure a test opened, so none leak into the next test."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
