# The perceptron course: two commands are all a student needs.
#
#   make lab     open the course in JupyterLab
#   make test    run the library's tests and re-run every notebook with nbval
#
# Both create .venv from requirements.lock the first time (tools/lock_venv.py, with uv: under a
# minute, seconds once uv's cache holds the lock), and re-sync it only when requirements.lock,
# pyproject.toml or the interpreter change.
# Pick another interpreter with `make lab PY=python3.12` (after `make distclean`).

PY      ?= python3
ARGS    ?=
LOCKFLAGS ?=
# The other Pythons the lock supports (3.11 is the default venv's); see tests/reproduce.py.
PYTHONS ?= 3.10 3.12 3.13

VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
LOCK    := requirements.lock
SANITIZE := tests/nbval_sanitize.cfg

# JupyterLab refuses to start as root unless told it may.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.DEFAULT_GOAL := help
.PHONY: help venv lab reset lecture check test test-pythons lock clean distclean slides app site hub hub-setup hub-deps hub-clean hub-release hub-collect hub-grade grade

help:
	@echo "make lab        open your own copy of the course (my-course/) in JupyterLab (extra options: make lab ARGS=--no-browser)"
	@echo "make reset NB=03  lesson 03 as the course has it now; your copy stays beside it, dated"
	@echo "make lecture    the lecture session: lecture preset, from a copy of the lessons (NB=03 opens lesson 03)"
	@echo "make check      a one-minute look at whether the course runs here: lesson 00 in a fresh kernel, the library's examples"
	@echo "make test       run the unit tests, every notebook with nbval, and again on other CPU code paths (JOBS=2 workers)"
	@echo "make test-pythons  every notebook with nbval on Python $(PYTHONS) too (each in .venv-X.Y)"
	@echo "make slides     export every lesson as an offline reveal.js deck into _slides/ (SLIDES_STYLE=lecture|notebook|saved)"
	@echo "make app NB=03  serve one notebook as an app with Voila: no code, only prose, figures and players"
	@echo "make site       build the offline course site into _site/ for students, no solutions (AUDIENCE=instructor: with them; SITE_STYLE=notebook|lecture|saved)"
	@echo "make hub        JupyterHub on 127.0.0.1:$(HUB_PORT) for a class on this machine (root; STUDENTS=3, SOLUTIONS=1 hands out solutions)"
	@echo "make hub-setup  only the hub's set-up: configurable-http-proxy from npm into .hub/node, the students' venv, the users"
	@echo "make hub-deps   only the proxy and the students' venv, no users (CI runs it before the hub test)"
	@echo "make hub-clean  remove the hub's users, their homes, its state and releases (root)"
	@echo "make hub-release / hub-collect / hub-grade  the lessons into every copy now / every student's copy into a collection only the instructor reads / grade it into gradebook.csv (root)"
	@echo "make grade SUBMISSIONS=DIR  score a folder of handed-in lessons (one folder per student) into gradebook.csv"
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

# tools/lock_venv.py: exactly the lock's pins (uv pip sync), the library editable; a no-op while the
# lock, pyproject.toml and the interpreter are those it was built from (the key in $(STAMP)).
$(STAMP): $(LOCK) pyproject.toml tools/jupyter/lab/overrides.json tools/lock_venv.py | $(PYTHON)
	$(PY) -m tools.lock_venv $(VENV) --python $(PY)
	@# Build matplotlib's font cache now: its first-import message on stderr would
	@# otherwise land in a notebook's output and fail nbval.
	MPLBACKEND=Agg $(PYTHON) -c 'import matplotlib.pyplot'
	@# JupyterLab's settings for the course (no news toast, no update check over the lessons): the
	@# overrides file of this environment's JupyterLab. The browser tests start from the same file.
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp tools/jupyter/lab/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	@touch $@

# ---- the two commands -----------------------------------------------------------

# The address JupyterLab prints (and opens) is its default URL: point it at lesson 00, so the
# address a student copies from the terminal opens the course map, not the Launcher.
LAB_START := /lab/tree/00_start_here.ipynb
# The student's own copy of the lessons (tools/student_copy.py), which git does not track: JupyterLab
# serves it, so autosave never writes the course's files, and `git pull` then `make lab` merges a course
# update into it the way hubs do (nbgitpuller), never over a lesson the student changed.
COPY ?= my-course

# COURSE_STYLE=lecture make lab is the lecture session (`make lecture`, below).
ifeq ($(COURSE_STYLE),lecture)
lab: lecture
else
# jupyterlab-slideshow keeps "active" (a deck is on) in the user's JupyterLab settings, and a setting
# there wins over the course's overrides: tools/lab_settings.py removes that one key first, through
# JupyterLab's own settings functions, so a deck left on never makes the next session open in deck mode.
lab: venv
	$(PYTHON) -m tools.lab_settings
	$(PYTHON) -m tools.student_copy --dest $(COPY) update
	$(PYTHON) -m jupyter lab --ip 127.0.0.1 $(ROOT_FLAG) --ServerApp.root_dir=$(COPY) --LabApp.default_url=$(LAB_START) $(ARGS)
endif

# A lesson as the course has it now (close its tab first); the student's copy is kept beside it, dated.
reset: venv
	@if [ -z "$(NB)" ]; then echo "usage: make reset NB=03   (close the lesson's tab first)"; exit 2; fi
	$(PYTHON) -m tools.student_copy --dest $(COPY) reset $(NB)

# The lecture session (README, "For instructors"): JupyterLab in the lecture preset, run from a copy of the
# lessons in a fresh temporary folder with its own JupyterLab settings and workspaces, all removed when it
# stops. So autosave, a save or a deck (jupyterlab-slideshow keeps "active" in the user settings) change
# neither the course's notebooks nor how the next session opens. Its settings: the course's overrides plus
# tools/jupyter/lab/lecture.json (the prose, buttons, sliders and readouts at 18-20 px). NB=03 opens lesson 03.
lecture: venv
	@nb=$$(cd notebooks && ls $(NB)*.ipynb 2>/dev/null | head -n 1); \
	dir=$$(mktemp -d "$${TMPDIR:-/tmp}/perceptron-lecture.XXXXXX") || exit 1; \
	trap 'rm -rf "$$dir"' EXIT; trap 'exit 130' INT TERM HUP; \
	cp -R notebooks "$$dir/notebooks" && rm -rf "$$dir"/notebooks/.ipynb_checkpoints && \
	mkdir -p "$$dir/app/overrides.d" "$$dir/user" "$$dir/workspaces" && \
	cp tools/jupyter/lab/overrides.json "$$dir/app/overrides.json" && \
	cp tools/jupyter/lab/lecture.json "$$dir/app/overrides.d/lecture.json" || exit 1; \
	echo "==> make lecture: a copy of the lessons in $$dir (removed when JupyterLab stops; the course's files stay as they are)"; \
	env -u MPLBACKEND COURSE_STYLE=lecture $(PYTHON) -m jupyter lab --ip 127.0.0.1 $(ROOT_FLAG) \
	  --ServerApp.root_dir="$$dir" --LabApp.app_settings_dir="$$dir/app" \
	  --LabApp.user_settings_dir="$$dir/user" --LabApp.workspaces_dir="$$dir/workspaces" \
	  --LabApp.default_url=/lab/tree/notebooks/$${nb:-00_start_here.ipynb} $(ARGS)

# All three parts always run; the target fails if any fails, and it ends with each part's result and
# minutes. pytest's exit code 5 ("no tests collected") counts as a failure. MPLBACKEND is set for the
# unit tests only: the notebook kernels must keep their inline backend. The unit tests run on JOBS
# workers (pytest-xdist; JOBS=0: in this process); tests that share a build (the site and decks, one
# JupyterLab, the hub) stay on one worker (tests/conftest.py). The third part re-runs the notebooks
# on other CPU code paths (tests/reproduce.py): the saved outputs must hold there too.
JOBS ?= 2
# .ci/run names a file here: make test adds its parts' rows to the run's closing table.
PARTS_FILE ?=
UNIT_ARGS ?= tests perceptron_lib --doctest-modules
# The hub's tests run on their own after the parallel part: beside the other worker's tests, the class's servers
# were SIGKILLed mid-test (issue #32); alone they pass. With JOBS=0 they run with the rest.
HUB_TESTS := tests/test_hub.py
HUB_APART = $(if $(and $(XDIST),$(filter tests,$(UNIT_ARGS))),yes,)
XDIST = $(if $(filter 0,$(JOBS)),,-n $(JOBS))

check: venv
	@echo "==> lesson 00 in a fresh kernel, then the library's own examples"
	@env -u MPLBACKEND $(PYTHON) -m pytest -q -p no:cacheprovider --nbval notebooks/00_start_here.ipynb \
	  --nbval-sanitize-with tests/nbval_sanitize.cfg && \
	MPLBACKEND=Agg $(PYTHON) -m pytest -q -p no:cacheprovider --doctest-modules perceptron_lib/core && \
	echo "==> all well: the course runs on this machine" || \
	{ echo "==> something is broken: the first error above says what"; exit 1; }

test: venv
	@describe() { case "$$1" in \
	    0) echo "passed" ;; \
	    5) echo "FAILED (no tests collected)" ;; \
	    *) echo "FAILED (exit code $$1)" ;; \
	  esac; }; \
	mins() { awk -v s="$$1" 'BEGIN { printf "%.1f", s / 60 }'; }; \
	unit=0; hub=0; nb=0; cpu=0; \
	t0=$$(date +%s); \
	echo "==> unit tests and docstring examples: pytest $(XDIST) $(UNIT_ARGS)"; \
	MPLBACKEND=Agg $(PYTHON) -m pytest $(XDIST) $(if $(XDIST),--dist loadgroup,) $(UNIT_ARGS) \
	  $(if $(HUB_APART),--ignore $(HUB_TESTS),) || unit=$$?; \
	th=$$(date +%s); \
	if [ -n "$(HUB_APART)" ]; then \
	  echo "==> the hub's tests, alone: pytest $(HUB_TESTS)"; \
	  MPLBACKEND=Agg $(PYTHON) -m pytest $(HUB_TESTS) || hub=$$?; \
	fi; \
	t1=$$(date +%s); \
	echo "==> notebooks: pytest --nbval notebooks"; \
	env -u MPLBACKEND $(PYTHON) -m pytest $(XDIST) $(if $(XDIST),--dist loadfile,) --nbval notebooks \
	  --nbval-sanitize-with $(SANITIZE) || nb=$$?; \
	t2=$$(date +%s); \
	echo "==> notebooks on other CPU code paths: tests/reproduce.py cpu"; \
	COURSE_NBVAL_JOBS=$(JOBS) $(PYTHON) tests/reproduce.py cpu || cpu=$$?; \
	t3=$$(date +%s); \
	echo "==> make test summary"; \
	echo "| part | result | minutes |"; \
	echo "|---|---|---|"; \
	echo "| unit tests and doctests | $$(describe $$unit) | $$(mins $$((th - t0))) |"; \
	echo "| the hub's tests | $$(describe $$hub) | $$(mins $$((t1 - th))) |"; \
	echo "| notebooks (nbval) | $$(describe $$nb) | $$(mins $$((t2 - t1))) |"; \
	echo "| other CPU code paths (reproduce.py cpu) | $$(describe $$cpu) | $$(mins $$((t3 - t2))) |"; \
	if [ -n "$(PARTS_FILE)" ]; then \
	  echo "| make test: unit tests and doctests | $$(mins $$((th - t0))) |" >> "$(PARTS_FILE)"; \
	  echo "| make test: the hub's tests | $$(mins $$((t1 - th))) |" >> "$(PARTS_FILE)"; \
	  echo "| make test: notebooks (nbval) | $$(mins $$((t2 - t1))) |" >> "$(PARTS_FILE)"; \
	  echo "| make test: other CPU code paths | $$(mins $$((t3 - t2))) |" >> "$(PARTS_FILE)"; \
	fi; \
	[ $$unit -eq 0 ] && [ $$hub -eq 0 ] && [ $$nb -eq 0 ] && [ $$cpu -eq 0 ]

# The notebooks on each other Python the lock supports, each with its own numpy and scipy pins
# (.venv-X.Y, built from requirements.lock by tools/lock_venv.py on first use, kept while the lock
# is unchanged). CI runs it after `make test`. JOBS as above: each Python's nbval on JOBS workers.
test-pythons: venv
	COURSE_NBVAL_JOBS=$(JOBS) $(PYTHON) tests/reproduce.py pythons $(PYTHONS)

# ---- instructor mode (README, "For instructors") ------------------------------------
# The exports run tools/build_slides.py and tools/build_site.py; both need no network and
# write only into their output folder (git ignores _slides/ and _site/). The players that run in
# the browser are live in the pages: their front end is copied from npm packages pinned with their
# integrity (tools/widget_embed.py; `npm pack` into ~/.cache/perceptron-course/npm, needs npm).

SLIDES_STYLE ?= lecture
SITE_STYLE   ?= notebook
AUDIENCE     ?= student
APP_PORT     ?= 8866
NB           ?=

# Decks in the lecture preset: each lesson is re-run in a fresh kernel with COURSE_STYLE=lecture
# (about 10 s a lesson; the export gives that kernel its environment, without MPLBACKEND).
# SLIDES_STYLE=saved exports the saved outputs instead (no kernel).
slides: venv
	$(PYTHON) -m tools.build_slides --out _slides --style $(SLIDES_STYLE)

# Pages in the notebook preset: each notebook is re-run in a fresh kernel first, which gives every
# live figure a still picture. SITE_STYLE=saved exports the saved outputs instead (no kernel).
# The site is for students (_site/): no solutions. `make site AUDIENCE=instructor` includes them, in its own
# folder (_site-instructor/), every page marked as holding the solutions.
site: venv
	$(PYTHON) -m tools.build_site --style $(SITE_STYLE) --audience $(AUDIENCE)

# The lessons as an app on 127.0.0.1 with a token, opened at lesson NB. Voila serves the whole
# notebooks/ folder, so the links between lessons work; it hides the code and the cells tagged
# app-hide (exercises); tools/jupyter holds its page templates. Lesson NB is pre-heated (Voila
# runs it as soon as it starts, so the page opens ready); other lessons run when opened.
# COURSE_STYLE=lecture make app NB=03 shows it in the projector preset (figures, prose, players).
APP_TEMPLATE = course_app$(if $(filter lecture,$(COURSE_STYLE)),_lecture,)

app: venv
	@nb=$$(cd notebooks && ls $(NB)*.ipynb 2>/dev/null | head -n 1); \
	if [ -z "$(NB)" ] || [ -z "$$nb" ]; then \
	  echo "usage: make app NB=03   (one of: $$($(PYTHON) -c 'from tools import course_export as ce; print(*(p.name[:2] for p in ce.lessons()))'))"; \
	  exit 2; \
	fi; \
	token=$$($(PYTHON) -c 'import secrets; print(secrets.token_hex(16))'); \
	echo "==> make app: open http://127.0.0.1:$(APP_PORT)/voila/render/$$nb?token=$$token (template $(APP_TEMPLATE); Ctrl-C stops it)"; \
	env -u MPLBACKEND JUPYTER_PATH="$(CURDIR)/tools/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH}" \
	  JUPYTER_CONFIG_PATH="$(CURDIR)/tools/jupyter/config$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	  $(PYTHON) -m voila --Voila.ip=127.0.0.1 --port=$(APP_PORT) --token=$$token --no-browser \
	  --preheat_kernel=True --VoilaKernelManager.kernel_pools_config="{\"default\": {\"pool_size\": 0}, \"$$nb\": {\"pool_size\": 1}}" \
	  --template=$(APP_TEMPLATE) $(ARGS) notebooks

# ---- a class on one machine: JupyterHub (README, "For instructors"; tools/hub/) -----------------
# hub-setup (as root): configurable-http-proxy from npm into .hub/node, and one system user per
# student (pc-student1 ...) plus pc-instructor (the hub's admin), each with a random password in
# .hub/state/passwords.txt (root only). hub: JupyterHub on 127.0.0.1:$(HUB_PORT), PAM logins, each
# student's server running as that student, the lessons updated into ~/perceptron-course at each
# login (tools/student_copy.py; solutions only with SOLUTIONS=1). Ctrl-C stops it; students' servers
# keep running. hub-clean removes the users the set-up made, their homes, the state and the releases.

HUB_PORT  ?= 8000
STUDENTS  ?= 3
SOLUTIONS ?= 0

hub-deps: venv
	$(PYTHON) -m tools.hub.setup --no-users

hub-setup: venv
	$(PYTHON) -m tools.hub.setup --students $(STUDENTS)

hub-clean: venv
	$(PYTHON) -m tools.hub.setup --clean

# The instructor's three commands (tools/hub/classroom.py; root): hub-release brings the lessons into every copy
# now (nbgitpuller's merge, as at a login); hub-collect copies each student's saved lessons into a collection of
# the instructor's alone (~pc-instructor/submissions/DATE/); hub-grade grades the newest one (or COLLECTION=DIR;
# LESSONS=01,02) into its gradebook.csv, each student's notebooks run as that student.
hub-release: venv
	env COURSE_HUB_SOLUTIONS=$(SOLUTIONS) $(PYTHON) -m tools.hub.classroom release

hub-collect: venv
	$(PYTHON) -m tools.hub.classroom collect

hub-grade: venv
	$(PYTHON) -m tools.hub.classroom grade $(COLLECTION) $(if $(LESSONS),--lessons $(LESSONS),) --jobs $(JOBS)

hub: hub-setup
	@echo "==> make hub: open http://127.0.0.1:$(HUB_PORT)/ and log in with a user and password from .hub/state/passwords.txt"
	env -u MPLBACKEND COURSE_HUB_PORT=$(HUB_PORT) COURSE_HUB_SOLUTIONS=$(SOLUTIONS) \
	  $(PYTHON) -m jupyterhub -f tools/hub/jupyterhub_config.py $(ARGS)

# ---- grading a class (notebooks/INSTRUCTORS.md, "Grading a class"; tools/grade.py) ----------------
# Each handed-in notebook runs in its own process and kernel, with a time limit and no network; an exercise
# scores 1 when its own check says "correct" in that run. gradebook.csv: one row per student, one column per
# exercise, the total; gradebook-notes.csv says why each exercise was lost. OUT= names the CSV; JOBS= notebooks at once (2).
grade: venv
	@if [ -z "$(SUBMISSIONS)" ]; then echo "usage: make grade SUBMISSIONS=DIR   (one folder per student; writes gradebook.csv and gradebook-notes.csv)"; exit 2; fi
	$(PYTHON) -m tools.grade $(SUBMISSIONS) --out $(or $(OUT),gradebook.csv) --jobs $(JOBS)

# ---- maintenance ----------------------------------------------------------------

lock: | $(PYTHON)
	$(PYTHON) -m uv --version >/dev/null 2>&1 || $(PYTHON) -m pip install uv
	$(PYTHON) -m uv pip compile pyproject.toml --extra test --extra hub --universal \
	  --python-version 3.10 $(LOCKFLAGS) -o $(LOCK)

clean:
	find . -path ./$(VENV) -prune -o -path ./.git -prune -o \
	  \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print0 | xargs -0 rm -rf
	rm -rf .pytest_cache .hypothesis .ruff_cache build dist *.egg-info

# distclean keeps $(COPY): it holds the student's work.
distclean: clean
	rm -rf $(VENV) $(VENV)-[0-9]* .hub
