# Set-up and checks. `make demo` and `make test` are all a fresh machine needs.
# Another Python: `make test PYTHON=python3.10 VENV=.venv-3.10` (each Python its own venv).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
DEPS   := pyproject.toml setup.py svmeval/_version.py $(wildcard svmeval/io/*.c svmeval/cv/*.c svmeval/metrics/*.c)

# pip works quietly: the output of each pip run goes to $(PIPLOG), shown only when pip fails.
PIPLOG := $(VENV)/pip.log
PIP    := PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_ROOT_USER_ACTION=ignore \
          $(PY) -m pip install --disable-pip-version-check --no-warn-script-location
LOGGED := >$(PIPLOG) 2>&1 || { cat $(PIPLOG); echo "make: pip failed (its output: $(PIPLOG))" >&2; exit 1; }

.PHONY: demo test quick bench docs wheels clean

# the venv itself, with a current pip
$(VENV)/.venv:
	@echo "Making the virtual environment $(VENV)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip $(LOGGED)
	@touch $@

# the extras: test (pytest, the oracles), dev (ruff, mypy, pre-commit), plot, dask, frame, docs,
# linear (LIBLINEAR's bindings); svmeval itself with them in one pip run (one build of its C
# extensions)
# (docs: Python >= 3.11 only; its test fails with a reason there and skips on 3.10); pip
# compiles no bytecode here (--no-compile: the tests compile what they import, TESTENV below):
# compiling every module of SciPy, scikit-learn, Sphinx, Dask, pandas and matplotlib took half
# the install (34 s -> 17 s)
$(VENV)/.test: $(DEPS) | $(VENV)/.venv
	@echo "Installing svmeval, its test dependencies and extras into $(VENV) (pip's log: $(PIPLOG))"
	@$(PIP) --no-compile -e '.[test,dev,plot,dask,frame,docs,linear]' $(LOGGED)
	@touch $@

# the demo's venv: svmeval with the plot extra (matplotlib), so that the README's examples
# draw their pictures as written (svmeval itself in the same pip run)
$(VENV)/.demo: $(DEPS) | $(VENV)/.venv
	@echo "Installing svmeval and matplotlib (the plot extra) into $(VENV) (pip's log: $(PIPLOG))"
	@$(PIP) -e '.[plot]' $(LOGGED)
	@touch $@

demo: $(VENV)/.demo
	$(VENV)/bin/svmeval -q -v 5 --full data/breast_cancer.scale

# The tests compare svmeval with oracle packages (scikit-learn, SciPy, baycomp, ...): here a
# missing one stops the run; `make test SVMEVAL_REQUIRE_ORACLES=0` lets their tests skip.
SVMEVAL_REQUIRE_ORACLES ?= 1

# the tests run in parallel, one pytest worker a core (pytest-xdist); `make test JOBS=0` runs
# them in one process
JOBS ?= auto

# the tests' environment: the oracles required (above), and Python's bytecode caches written
# where an environment says not to (PYTHONDONTWRITEBYTECODE=1): else every pytest worker and every
# command a test starts compiles svmeval's modules and rewrites the tests' asserts once more
# (collecting the tests: 20 CPU s without the caches, 12 with them)
TESTENV := SVMEVAL_REQUIRE_ORACLES=$(SVMEVAL_REQUIRE_ORACLES) PYTHONDONTWRITEBYTECODE=

# lint, format, types, then the tests with their coverage (floor: fail_under in pyproject.toml);
# then, where ../shared is beside the checkout, the tests that reach it (marked shared_data by
# tests/conftest.py) once more as a clone without it runs them: skipped with their reason, or
# on data/'s stand-ins
test: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(TESTENV) $(PY) -m pytest -q -n $(JOBS) --cov
	@if [ -d ../shared ]; then \
	    echo "The tests that use ../shared, as without it (SVMEVAL_TEST_NO_SHARED=1):"; \
	    SVMEVAL_TEST_NO_SHARED=1 $(TESTENV) $(PY) -m pytest -q -n $(JOBS) -p no:cacheprovider -m shared_data; \
	fi

# a few minutes' subset (public API, layers, drop-in outputs, LIBSVM pairs), e.g. on a second
# Python: `make quick PYTHON=python3.10 VENV=.venv-3.10`
QUICK := tests/rules/test_public_api.py tests/rules/test_layers.py \
         tests/rules/test_lazy_import.py tests/cli/test_dropin.py tests/cv/test_pairs.py \
         tests/rules/test_versions.py
quick: $(VENV)/.test
	$(TESTENV) $(PY) -m pytest -q -n $(JOBS) -p no:cacheprovider $(QUICK)

# the documentation, offline, warnings as errors: docs/_build/html/index.html
docs: $(VENV)/.test
	$(PY) -m sphinx -W --keep-going -q -b html docs docs/_build/html

bench: $(VENV)/.test
	$(PY) scripts/bench_cv.py

# manylinux wheels for every Python found (python3.10 ... python3.13) and the sdist, into
# wheelhouse/; each wheel installed in a clean venv outside the tree and smoke-tested
wheels:
	scripts/build_wheels.sh

clean:
	rm -rf $(VENV) .venv-3.* build dist wheelhouse *.egg-info docs/_build docs/api docs/gallery .coverage .coverage.* .mypy_cache .ruff_cache svmeval/io/*.so svmeval/cv/*.so svmeval/metrics/*.so
