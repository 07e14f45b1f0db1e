# The perceptron course: two commands are all a student needs.
#
#   make lab     open the course in JupyterLab
#   make test    run the library's tests and re-run every notebook with nbval
#
# Both create .venv from requirements.lock the first time (about a minute), and
# reinstall only when requirements.lock or pyproject.toml change.
# Pick another interpreter with `make lab PY=python3.12` (after `make distclean`).

PY      ?= python3
ARGS    ?=
LOCKFLAGS ?=

VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
LOCK    := requirements.lock
SANITIZE := tests/nbval_sanitize.cfg

# JupyterLab refuses to start as root unless told it may.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.DEFAULT_GOAL := help
.PHONY: help venv lab test lock clean distclean

help:
	@echo "make lab        open the course in JupyterLab (extra options: make lab ARGS=--no-browser)"
	@echo "make test       run the unit tests, then every notebook with nbval"
	@echo "make lock       regenerate requirements.lock from pyproject.toml (LOCKFLAGS=--upgrade to update pins)"
	@echo "make clean      remove caches and build files (keeps .venv)"
	@echo "make distclean  clean, and remove .venv too"
	@echo "Interpreter: PY=$(PY) (Python 3.10 or newer)"

# ---- the virtual environment ------------------------------------------------

venv: $(STAMP)

$(PYTHON):
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null || \
	  { echo "error: '$(PY)' is not Python 3.10 or newer; run e.g. 'make PY=python3.11 ...'"; exit 1; }
	$(PY) -m venv $(VENV)

$(STAMP): $(LOCK) pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install --upgrade pip
	$(PYTHON) -m pip install -r $(LOCK)
	$(PYTHON) -m pip install --no-deps -e .
	@# Build matplotlib's font cache now: its first-import message on stderr would
	@# otherwise land in a notebook's output and fail nbval.
	MPLBACKEND=Agg $(PYTHON) -c 'import matplotlib.pyplot'
	@touch $@

# ---- the two commands -----------------------------------------------------------

lab: venv
	$(PYTHON) -m jupyter lab --ip 127.0.0.1 $(ROOT_FLAG) $(ARGS) notebooks/00_start_here.ipynb

# Both parts always run; the target fails if either fails. pytest's exit code 5
# ("no tests collected") counts as a failure. MPLBACKEND is set for the unit tests
# only: the notebook kernels must keep their inline backend.
test: venv
	@describe() { case "$$1" in \
	    0) echo "passed" ;; \
	    5) echo "FAILED (no tests collected)" ;; \
	    *) echo "FAILED (pytest exit code $$1)" ;; \
	  esac; }; \
	unit=0; nb=0; \
	echo "==> unit tests and docstring examples: pytest tests perceptron_lib --doctest-modules"; \
	MPLBACKEND=Agg $(PYTHON) -m pytest tests perceptron_lib --doctest-modules || unit=$$?; \
	echo "==> notebooks: pytest --nbval notebooks"; \
	env -u MPLBACKEND $(PYTHON) -m pytest --nbval notebooks --nbval-sanitize-with $(SANITIZE) || nb=$$?; \
	echo "==> make test summary: unit tests $$(describe $$unit); notebooks $$(describe $$nb)"; \
	[ $$unit -eq 0 ] && [ $$nb -eq 0 ]

# ---- maintenance ----------------------------------------------------------------

lock: | $(PYTHON)
	$(PYTHON) -m uv --version >/dev/null 2>&1 || $(PYTHON) -m pip install uv
	$(PYTHON) -m uv pip compile pyproject.toml --extra test --universal \
	  --python-version 3.10 $(LOCKFLAGS) -o $(LOCK)

clean:
	find . -path ./$(VENV) -prune -o -path ./.git -prune -o \
	  \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print0 | xargs -0 rm -rf
	rm -rf .pytest_cache .hypothesis .ruff_cache build dist *.egg-info

distclean: clean
	rm -rf $(VENV)
