# Smart pyramid: every entry point creates and uses its own virtual environment (.venv).
#   make setup   install the project and its tools into .venv (runtime, then the dev extras)
#   make test    every test: rules, protocol, firmware on MicroPython, HIL over a pty, host
#   make hil     only the hardware-in-the-loop tests (firmware on simulated hardware)
#   make emu     every emulated-board test (MicroPython's rp2 port on an emulated RP2040)
#   make demo    a whole second-edition game through the virtual pyramid
#   make bench   odds, classifier and firmware-heap benchmarks (figures and ratios)
#   make flash PORT=/dev/ttyACM0   compile the firmware with mpy-cross, copy it with mpremote
#   make lint    ruff over the Python trees, mypy over the firmware with the rp2 stubs
#   make soak    200 bot games through the virtual pyramid under seeded line faults (figures)
#   make fuzz    mutated lines, commands and positions through every parser (figures)

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# the runtime alone (what `pip install .` gives a user): enough for demo and flash
RUNTIME := $(VENV)/.runtime
PORT   ?= auto
EDITION ?= second
SEED   ?= 1
SEATS  ?= 4
# pytest-xdist workers; the machines have 2 cores.
JOBS   ?= 2

.PHONY: setup test hil emu demo bench flash lint typings wheel-check clean soak fuzz

setup: $(STAMP)

$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	@touch $@

$(STAMP): $(RUNTIME) hardware/emu/package-lock.json
	$(PY) -m pip install --quiet -e '.[dev]'
	# the RP2040 emulator (npm rp2040js) for `pyramid emulate` and the emu tests (these
	# skip, saying so, where there is no npm)
	@if command -v npm >/dev/null; then npm ci --prefix hardware/emu --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: pyramid emulate and the emu tests need Node and npm"; fi
	@touch $@

test: setup
	$(PY) -m pytest -q -n $(JOBS) --dist loadgroup

hil: setup
	$(PY) -m pytest -q -m hil

# the emulated board's tests (`make test` runs the quick ones, this all of them), then
# the cross-runtime tests of shared/ on the float32 unix port (single precision, as the
# board computes; the odds' exact-print test is the float32 test's tolerance check there)
FLOAT32 ?= ../shared/rp2/micropython-v1.28.0-unix-float32
CROSS_RUN := tests/test_engine_micropython.py tests/test_odds_micropython.py \
	tests/test_odds_race_tiles.py tests/test_classifier.py tests/test_tcs34725.py \
	tests/test_foundation.py tests/test_optics.py
emu: setup
	PYRAMID_EMU=all $(PY) -m pytest -q -n0 -m emu tests/test_emu_board.py tests/test_emu_float32.py
	@if [ -x $(FLOAT32) ]; then \
	  PYRAMID_MICROPYTHON=$(abspath $(FLOAT32)) $(PY) -m pytest -q -n0 -m micropython $(CROSS_RUN) \
	    --deselect tests/test_odds_micropython.py::test_odds_same_on_micropython_and_cpython; \
	else echo "float32 cross-run skipped: $(FLOAT32) is absent"; fi

demo: $(RUNTIME)
	$(VENV)/bin/pyramid demo --edition $(EDITION) --seed $(SEED) --seats $(SEATS)

bench: setup
	$(PY) tests/bench/run_all.py

soak: setup
	$(PY) tests/bench/soak.py --games $(or $(GAMES),200)

fuzz: setup
	$(PY) tests/bench/fuzz.py

flash: $(RUNTIME)
	$(VENV)/bin/pyramid flash --port $(PORT)

# the wheel as a user gets it: built, installed without extras into a fresh venv,
# then the demo and a virtual calibration run from there (outside the checkout)
wheel-check: setup
	.ci/wheel-check

typings: $(VENV)/typings/.installed

$(VENV)/typings/.installed: $(STAMP)
	$(PY) -m pip install --quiet --target $(VENV)/typings micropython-rp2-stubs==1.29.0.post1
	@touch $@

lint: setup typings
	$(VENV)/bin/ruff check shared host hardware firmware tests
	$(VENV)/bin/mypy --config-file firmware/mypy.ini

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
