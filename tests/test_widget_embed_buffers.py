"""An editor's binary buffers on their way into a page with no kernel (`tools/widget_embed.py`).

A `BrowserEditor` sends the library's run with its arrays as binary buffers (`library_run.packed`). A notebook run by
nbclient with ``store_widget_state`` stores them base64 in the model's ``buffers``; `LiveWidgets` must keep them
with the live model, or the page's widget manager would have a run with no numbers. The bytes kept are the
library's run's, bit for bit. (That the page then draws the run from them: tests/test_browser_editor_site.py.)
"""

from __future__ import annotations

import base64

import nbformat
import numpy as np
from nbclient import NotebookClient

from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.library_run import ARRAYS
from tools import widget_embed

CELLS = ["from perceptron_lib.core import data\nfrom perceptron_lib.core.training import fit_perceptron\n"
         "from perceptron_lib.player import BrowserEditor\nX, y = data.separable(12, margin=0.1, bias=True, seed=2)",
         "BrowserEditor(fit_perceptron(X, y), X, y)"]


def test_the_editors_buffers_stay_in_the_pages_state_with_the_librarys_bits():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    nb, resources = widget_embed.LiveWidgets().preprocess(nb, {})
    assert resources["course_widgets"]["views"] == 1
    models = nb.metadata["widgets"][widget_embed.WIDGET_STATE]["state"].values()
    editor = next(m for m in models if "run" in m["state"])
    got = {tuple(b["path"]): base64.b64decode(b["data"]) for b in editor["buffers"] if b["encoding"] == "base64"}
    assert sorted(got) == sorted(("run", key, "data") for key in ARRAYS)
    X, y = data.separable(12, margin=0.1, bias=True, seed=2)
    h = fit_perceptron(X, y, max_epochs=100).history
    want = {"X": X, "y": y, **{key: getattr(h, key) for key in ARRAYS if key not in ("X", "y")}}
    for key, dtype in ARRAYS.items():
        assert got[("run", key, "data")] == np.asarray(want[key], dtype=dtype).tobytes(), key
        assert editor["state"]["run"][key] == {"shape": list(np.shape(want[key])), "dtype": dtype}, key


def test_a_buffer_with_no_place_in_the_state_is_left_out():
    run = {"w": [[0.0, 0.0]], "X": {"shape": [1, 2], "dtype": "<f8"}, "averaged": None}
    buffers = [{"path": ["run", "X", "data"], "encoding": "base64", "data": "AAAAAAAAAAAAAAAAAAAAAA=="},
               {"path": ["run", "w", "data"], "encoding": "base64", "data": ""},  # the run's w is a list now
               {"path": ["run", "averaged", "t", "data"], "encoding": "base64", "data": ""},  # averaged is None
               {"path": ["run", "margin_before", "data"], "encoding": "base64", "data": ""},  # no margins now
               {"path": ["pairs", 1], "encoding": "base64", "data": ""}]  # an index of a list: a place
    model = {"model_module": "anywidget", "state": {"run": run, "pairs": [None, None]}, "buffers": buffers}
    assert widget_embed.placed_buffers(model)["buffers"] == [buffers[0], buffers[4]]
    assert model["buffers"] == buffers, "the caller's model is not changed"
    del run["X"]
    model["state"]["pairs"] = []
    assert "buffers" not in widget_embed.placed_buffers(model)
