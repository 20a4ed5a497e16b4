# Pocket puzzles for a Pico handheld. Every target depends on `setup`, so a
# fresh machine needs only `make test` or `make sim`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.setup-done
BOARD  ?= pico-ssd1306
PORT   ?=
LEVELS ?=
FLASH_ARGS ?=

.PHONY: setup lint test test-fast test-long durations bench docs soak sim web flash doctor hwtest clean

# the web page's tests and bench drive Debian's chromium (.ci/run installs it on CI)
setup: $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || \
		echo "note: no Chromium found; the web page's tests and bench need it: sudo apt-get install chromium"

$(STAMP): requirements.txt package.json package-lock.json
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	npm ci --no-audit --no-fund --loglevel=error
	@command -v mcopy >/dev/null || echo "note: the virtual CircuitPython Pico needs Debian's mtools: sudo apt-get install mtools"
	touch $(STAMP)

lint: setup
	$(VENV)/bin/ruff check .

# Tests may cache their bytecode (pytest's rewritten asserts, the host tools that
# tests start as subprocesses): a second run skips compiling ~700 modules again.
test test-fast test-long durations: export PYTHONDONTWRITEBYTECODE :=

# everything but the virtual Pico's tests, on 2 workers (4-minute budget); the
# 15 slowest are printed to keep it in sight
test: lint
	$(PY) -m pytest -n 2 --dist loadscope -q --durations=15 -m "not device and not long" tests

# the edit loop (1-minute budget): no test measured at 0.5 s or more (tests/durations.json)
test-fast: setup
	$(PY) -m pytest -n 2 --dist loadscope -q -m "not slow" tests

# the long tier: the firmware on the virtual Pico (rp2040js: boots, flashing, power
# cuts, sleep, the link; minutes each) and the 2,000-case fuzz runs of the games'
# saves. CI runs it after make test (.ci/run)
test-long: setup
	$(PY) -m pytest -n 2 --dist loadscope -q --durations=15 -m "device or long" tests

# re-measure every test (on an idle machine) into tests/durations.json, which
# decides what make test-fast leaves out
durations: setup
	$(PY) -m pytest -n 2 --dist loadscope -q --record-durations tests/durations.json tests

bench: setup
	$(PY) -m host_tools bench

# after a bench run: build/bench.json merged into the committed snapshot
# docs/figures/bench.json, and every generated figure of README.md and docs/*.md
# rewritten from it (tests/test_docs.py fails when a doc differs from the snapshot)
docs: setup
	$(PY) -m host_tools docs

# every game in turn for SOAK_MINUTES emulated minutes on one boot, the heap
# checked back at the launcher after each (SOAK_TARGET vm: minutes of wall time;
# vpico: the flashed firmware on the virtual Pico, several times real time)
SOAK_MINUTES ?= 60
SOAK_TARGET  ?= vm
SOAK_SEED    ?= 1
soak: setup
	$(PY) -m host_tools soak --minutes $(SOAK_MINUTES) --target $(SOAK_TARGET) --seed $(SOAK_SEED)

sim: setup
	$(PY) -m host_tools sim

# the handheld as a static web page in build/web, served on http://127.0.0.1:$(WEB_PORT)/
WEB_PORT ?= 8000
web: setup
	$(PY) -m host_tools web --serve --port $(WEB_PORT)

flash: setup
	$(PY) -m host_tools flash --board $(BOARD) $(if $(PORT),--port $(PORT)) $(foreach f,$(LEVELS),--levels $(f)) $(FLASH_ARGS)

doctor: setup
	$(PY) -m host_tools doctor $(if $(PORT),--port $(PORT))

# the bench's virtual-Pico workloads on a connected board, beside the virtual Pico's figures
hwtest: setup
	$(PY) -m host_tools hwtest --board $(BOARD) $(if $(PORT),--port $(PORT))

clean:
	rm -rf $(VENV) node_modules build .pytest_cache .hypothesis
