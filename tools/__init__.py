"""The course's export tools (README, "For instructors"), installed with the library by
``pip install -e .`` so that ``python -m tools.build_site`` and the tests import them as a
package, with no ``sys.path`` edits."""
