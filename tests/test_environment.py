"""The set-up files agree with each other and with the notebooks on disk.

pyproject.toml declares the packages, requirements.lock pins them, environment.yml
repeats them for conda users, the README names every notebook, and the Makefile has
the targets the README promises. Each test reads the real files.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from tools import course_export

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest itself needs tomli on Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
IGNORED = {"python", "pip"}
SUPPORTED_PYTHONS = ["3.10", "3.11", "3.12", "3.13"]


def declared_requirements() -> dict[str, Requirement]:
    """Runtime dependencies plus the `test` and `hub` extras of pyproject.toml, by normalised name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    lines = project["dependencies"] + extras["test"] + extras["hub"]
    reqs = [Requirement(line) for line in lines]
    return {canonicalize_name(r.name): r for r in reqs}


def conda_requirements() -> dict[str, SpecifierSet]:
    """Packages of environment.yml (conda and pip sections), by normalised name."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    specs = []
    for entry in env["dependencies"]:
        if isinstance(entry, dict):
            specs += [s for s in entry["pip"] if not s.startswith("-")]
        else:
            specs.append(entry)
    out = {}
    for spec in specs:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", spec)
        assert match, f"cannot read environment.yml entry {spec!r}"
        name, rest = match.groups()
        if canonicalize_name(name) not in IGNORED:
            out[canonicalize_name(name)] = SpecifierSet(rest.replace(" ", ""))
    return out


def locked_pins() -> dict[str, list[tuple[Version, Marker | None]]]:
    """Every `name==version [; marker]` line of requirements.lock."""
    pins: dict[str, list[tuple[Version, Marker | None]]] = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        req = Requirement(line)
        spec = list(req.specifier)
        assert len(spec) == 1 and spec[0].operator == "==", f"not an exact pin: {line!r}"
        pins.setdefault(canonicalize_name(req.name), []).append(
            (Version(spec[0].version), req.marker)
        )
    return pins


def test_environment_yml_names_the_same_packages_as_pyproject():
    declared = declared_requirements()
    conda = conda_requirements()
    assert sorted(conda) == sorted(declared), (
        f"only in environment.yml: {sorted(set(conda) - set(declared))}; "
        f"only in pyproject.toml: {sorted(set(declared) - set(conda))}"
    )


def test_environment_yml_has_the_same_bounds_as_pyproject():
    declared = declared_requirements()
    conda = conda_requirements()
    differ = {
        name: (str(declared[name].specifier), str(conda[name]))
        for name in declared.keys() & conda.keys()
        if declared[name].specifier != conda[name]
    }
    assert not differ, f"(pyproject, environment.yml) bounds differ: {differ}"


def test_environment_yml_installs_the_course_package():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_sections = [e["pip"] for e in env["dependencies"] if isinstance(e, dict)]
    assert any("-e ." in section for section in pip_sections)


@pytest.mark.parametrize("python", SUPPORTED_PYTHONS)
def test_lock_pins_every_declared_package_for_each_python(python):
    pins = locked_pins()
    marker_env = {"python_version": python, "python_full_version": python + ".0"}
    problems = []
    for name, req in declared_requirements().items():
        chosen = [
            version
            for version, marker in pins.get(name, [])
            if marker is None or marker.evaluate(marker_env)
        ]
        if len(chosen) != 1:
            problems.append(f"{name}: {len(chosen)} pins apply on Python {python}")
        elif chosen[0] not in req.specifier:
            problems.append(f"{name}=={chosen[0]} is outside {req.specifier}")
    assert not problems, "requirements.lock is stale; run `make lock`:\n" + "\n".join(problems)


def test_readme_names_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "make lab" in readme
    assert "make test" in readme


def test_readme_lists_every_notebook():
    readme = (ROOT / "README.md").read_text()
    notebooks = [p.name for p in course_export.lessons(ROOT / "notebooks")]
    assert "00_start_here.ipynb" in notebooks
    missing = [name for name in notebooks if f"notebooks/{name}" not in readme]
    assert not missing, f"README.md does not list {missing}"


@pytest.mark.parametrize("target", ["lab", "reset", "test", "lock", "hub", "hub-setup", "hub-deps", "hub-clean",
                                    "site", "grade"])
def test_makefile_has_target(target):
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(rf"^{target}\s*:", makefile, flags=re.MULTILINE), target


def test_only_the_library_is_installed():
    """`pip install .` puts perceptron_lib alone into site-packages (tests/test_install.py checks the wheel)."""
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    assert find["include"] == ["perceptron_lib*"], find
    assert "." in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["pythonpath"]


def test_make_lab_and_the_browser_tests_share_jupyterlab_settings():
    """Students get JupyterLab without the news toast and the update check over the lessons (issue 22),
    and the browser tests run with the same settings (plus their own two: no windowing, no autosave)."""
    import json

    from tests.browser_support import LAB_OVERRIDES

    shipped = json.loads((ROOT / "tools" / "jupyter" / "lab" / "overrides.json").read_text())
    note = shipped["@jupyterlab/apputils-extension:notification"]
    assert note == {"fetchNews": "false", "checkForUpdates": False}
    makefile = (ROOT / "Makefile").read_text()
    assert "cp tools/jupyter/lab/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json" in makefile
    assert all(LAB_OVERRIDES[k] == v for k, v in shipped.items())
    assert set(LAB_OVERRIDES) - set(shipped) == {"@jupyterlab/notebook-extension:tracker",
                                                 "@jupyterlab/docmanager-extension:plugin"}
