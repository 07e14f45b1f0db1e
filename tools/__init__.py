"""The course's export and hub tools (README, "For instructors"). Not installed with the library
(``pip install .`` installs only perceptron_lib): run them from the repository's root as modules,
``python -m tools.build_site``; the tests import them through pytest's ``pythonpath``. No
``sys.path`` edits."""
