"""Every widget front end the course uses is published on npm (issue #30, item 1).

Colab and VS Code load a widget's front end from npm's mirrors (a module that is not there gives "Failed to load
model class"); ipyevents, which the players used before, is not on npm. Two views of the same promise:

* every widget class the library defines names, as its model and view module, one of `NPM_MODULES`;
* every widget the lessons make, read from the widget state that nbclient exports when it executes each lesson in
  a fresh kernel (``store_widget_state``): each model's ``model_module`` and its ``_view_module``.

`NPM_MODULES` is kept here, by hand: adding a widget library to the course means adding its npm package to
this list, once it is checked that ``npm view PACKAGE`` finds it.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
from pathlib import Path

import ipywidgets
import nbformat
import pytest

import perceptron_lib
from tools import course_export

#: The npm packages whose front ends the course's widgets use (each checked with ``npm view``).
NPM_MODULES = frozenset({"@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyter-widgets/output", "anywidget"})
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def library_widget_classes() -> list[type]:
    """Every ipywidgets ``Widget`` subclass defined in a module of `perceptron_lib` (every module imported)."""
    found = {}
    for info in pkgutil.walk_packages(perceptron_lib.__path__, prefix="perceptron_lib."):
        module = importlib.import_module(info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, ipywidgets.Widget) and cls.__module__.startswith("perceptron_lib."):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[name] for name in sorted(found)]


def modules_of_class(cls) -> dict:
    """The model and view modules a widget class names (its traits' defaults), by trait name."""
    traits = cls.class_traits()
    return {name: traits[name].default() for name in ("_model_module", "_view_module") if name in traits}


def test_every_widget_class_of_the_library_has_its_front_end_on_npm():
    classes = library_widget_classes()
    names = [c.__name__ for c in classes]
    # the walk finds the library's widgets
    assert {"BrowserPlayer", "BrowserSwitch", "BrowserControlled", "BrowserEditor"} <= set(names), names
    wrong = {c.__name__: m for c in classes for m in [modules_of_class(c)] if not set(m.values()) <= NPM_MODULES}
    assert wrong == {}, f"widget classes whose front end is not on npm: {wrong}; npm has {sorted(NPM_MODULES)}"


def executed_state(path: Path) -> dict:
    """The widget state nbclient exports after running the notebook at `path` in a fresh kernel (its folder)."""
    from nbclient import NotebookClient

    nb = nbformat.read(str(path), as_version=4)
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    client = NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=True,
                            extra_arguments=["--IPKernelApp.log_level=ERROR"],
                            resources={"metadata": {"path": str(path.parent)}})  # fmt: skip
    client.execute(env=env)
    return nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


@pytest.mark.parametrize("path", course_export.lessons(), ids=lambda p: p.stem[:2])
def test_every_widget_a_lesson_makes_has_its_front_end_on_npm(path):
    state = executed_state(path)
    assert state, f"{path.name}: the executed lesson exported no widget state"
    used = {}
    for model in state.values():
        for module in (model["model_module"], model["state"].get("_view_module")):
            if module is not None:
                used.setdefault(module, set()).add(model["model_name"])
    assert used.keys() & {"@jupyter-widgets/controls", "anywidget"}, used  # the lesson's players were exported
    wrong = {m: sorted(names) for m, names in used.items() if m not in NPM_MODULES}
    assert wrong == {}, f"{path.name}: widgets whose front end is not on npm: {wrong}; npm has {sorted(NPM_MODULES)}"
