# Set-up and checks. `make demo` and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
DEPS   := pyproject.toml setup.py $(wildcard svmeval/io/*.c svmeval/cv/*.c)

.PHONY: demo test bench clean

$(VENV)/.base: $(DEPS)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.test: $(VENV)/.base
	$(PY) -m pip install -q -e '.[test]'
	touch $@

demo: $(VENV)/.base
	$(VENV)/bin/svmeval -q -v 5 --full data/breast_cancer.scale

test: $(VENV)/.test
	$(PY) -m pytest -q

bench: $(VENV)/.test
	$(PY) scripts/bench_cv.py

clean:
	rm -rf $(VENV) build *.egg-info svmeval/io/*.so svmeval/cv/*.so
