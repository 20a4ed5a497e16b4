# Pocket puzzles for a Pico handheld. Every target depends on `setup`, so a
# fresh machine needs only `make test` or `make sim`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.setup-done
BOARD  ?= pico-ssd1306
PORT   ?=
LEVELS ?=

.PHONY: setup test test-fast bench sim flash doctor clean

setup: $(STAMP)

$(STAMP): requirements.txt package.json package-lock.json
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	npm ci --no-audit --no-fund --loglevel=error
	touch $(STAMP)

test: setup
	$(PY) -m pytest -n 2 -q tests

test-fast: setup
	$(PY) -m pytest -q -m "not slow" tests

bench: setup
	$(PY) -m host_tools bench

sim: setup
	$(PY) -m host_tools sim

flash: setup
	$(PY) -m host_tools flash --board $(BOARD) $(if $(PORT),--port $(PORT)) $(foreach f,$(LEVELS),--levels $(f)) $(if $(KLOTSKI_TABLES),--klotski-tables)

doctor: setup
	$(PY) -m host_tools doctor $(if $(PORT),--port $(PORT))

clean:
	rm -rf $(VENV) node_modules build .pytest_cache .hypothesis
