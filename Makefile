# Smart pyramid: every entry point creates and uses its own virtual environment (.venv).
#   make setup   install the project and its tools into .venv (runtime, then the dev extras)
#   make check   the inner loop, a few minutes: ruff, then the unit tests (no subprocess,
#                pty, browser or MicroPython, no full screen through Pilot, nothing slow:
#                pytest --fast-lane -m "not process and not screen and not slow", tests/conftest.py)
#   make test    every test: rules, protocol, firmware on MicroPython, HIL over a pty, host,
#                the web page in Chromium's headless shell (installed first when root on Debian)
#   make hil     only the hardware-in-the-loop tests (firmware on simulated hardware)
#   make emu     every emulated-board test (MicroPython's rp2 port on an emulated RP2040)
#   make deep    the long property tests at full depth (make test draws a quarter of their
#                examples: tests/depth.py); CI runs it after make test
#   make demo    a whole second-edition game through the virtual pyramid
#   make bench   odds, classifier and firmware-heap benchmarks (figures and ratios)
#   make flash PORT=/dev/ttyACM0   compile the firmware with mpy-cross, copy it with mpremote
#   make lint    ruff over the Python trees, mypy over the firmware with the rp2 stubs
#                (CI runs mypy once, inside make test: tests/test_firmware_typecheck.py)
#   make soak    200 bot games through the virtual pyramid under seeded line faults (figures)
#   make fuzz    mutated lines, commands and positions through every parser (figures)
#   make catalogue  the translation catalogues (Babel): extract, update each .po, compile the .mo

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
# The tests run with Python's bytecode caches written (__pycache__, ignored by git) even
# where the environment says PYTHONDONTWRITEBYTECODE (a container's usual setting): else
# every pytest worker rewrites and compiles each test module again (pytest keeps its
# rewritten modules there) and every `pyramid` subprocess compiles the sources again,
# some 3 CPU-seconds a worker.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest

#: the web scoreboard's browser tests drive Debian's headless Chromium shell (package
#: chromium-headless-shell; Playwright is pointed at it and never downloads a browser of
#: its own): tests/conftest.py names the same path
CHROMIUM := /usr/bin/chromium-headless-shell

.PHONY: setup check test deep browser hil emu demo bench flash lint ruff typings wheel-check clean soak fuzz web-load catalogue

# the rp2 stubs (.venv/typings) with it: the firmware's mypy run in make test reads them
# there, and nothing is downloaded while the tests run
setup: $(STAMP) $(VENV)/typings/.installed

# setuptools tells every editable install to beware of folders named like the package
# ("Editable installation ... may take precedence"): advice with nothing to act on here
# (the packages live under shared/ and host/), so the first `make demo` stays quiet.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(EDITABLE) $(PY) -m pip install --quiet -e .
	@touch $@

$(STAMP): $(RUNTIME) hardware/emu/package-lock.json
	$(EDITABLE) $(PY) -m pip install --quiet -e '.[dev]'
	# the RP2040 emulator (npm rp2040js) for `pyramid emulate` and the emu tests (these
	# skip, saying so, where there is no npm)
	@if command -v npm >/dev/null; then npm ci --prefix hardware/emu --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: pyramid emulate and the emu tests need Node and npm"; fi
	@touch $@

check: ruff
	$(PYTEST) -q -n $(JOBS) --fast-lane -m "not process and not screen and not slow"

test: setup browser
	$(PYTEST) -q -n $(JOBS) --dist loadgroup

# installs Chromium's headless shell where it can (root with apt-get), else stops with the one command
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium-headless-shell; \
	    else \
	        echo "make test: the web tests need Chromium's headless shell at $(CHROMIUM); install it with:" >&2; \
	        echo "    sudo apt-get install -y chromium-headless-shell" >&2; \
	        exit 1; \
	    fi; \
	fi

hil: setup
	$(PYTEST) -q -m hil

# the emulated board's tests (`make test` runs the quick ones, this all of them), then
# the cross-runtime tests of shared/ on the float32 unix port (single precision, as the
# board computes; the odds' exact-print test is the float32 test's tolerance check there)
FLOAT32 ?= ../shared/rp2/micropython-v1.28.0-unix-float32
CROSS_RUN := tests/test_engine_micropython.py tests/test_odds_micropython.py \
	tests/test_odds_race_tiles.py tests/test_classifier.py tests/test_tcs34725.py \
	tests/test_foundation.py tests/test_optics.py
deep: setup
	PYRAMID_TEST_DEPTH=full $(PYTEST) -q -n $(JOBS) -m deep

emu: setup
	PYRAMID_EMU=all $(PY) -m pytest -q -n0 -m emu tests/test_emu_board.py tests/test_emu_float32.py
	@if [ -x $(FLOAT32) ]; then \
	  PYRAMID_MICROPYTHON=$(abspath $(FLOAT32)) $(PY) -m pytest -q -n0 -m micropython $(CROSS_RUN) \
	    --deselect tests/test_odds_micropython.py::test_odds_same_on_micropython_and_cpython; \
	else echo "float32 cross-run skipped: $(FLOAT32) is absent"; fi

# the translation catalogues (Babel): the words extracted from host/camelhost
# (babel.cfg) into pyramid.pot, each language's .po updated, the .mo compiled (the
# .mo files are committed; tests/test_i18n.py checks they match their .po). Each .po's
# POT-Creation-Date moves only when the extracted messages do (pyramid.pot changed):
# else Babel's --ignore-pot-creation-date keeps the old one, so a run that changes no
# message leaves every file byte for byte as it was (pybabel update would stamp the
# hour of the run on the .po and its .mo every time).
LOCALE := host/camelhost/locale
catalogue: setup
	old=$$(mktemp) && { cp $(LOCALE)/pyramid.pot $$old 2>/dev/null || :; } && \
	$(VENV)/bin/pybabel extract -F babel.cfg --omit-header --sort-by-file \
	    --add-location file --add-comments TRANSLATORS: --width 88 -o $(LOCALE)/pyramid.pot . && \
	{ cmp -s $$old $(LOCALE)/pyramid.pot && same=--ignore-pot-creation-date || same=; } && \
	rm -f $$old && \
	$(VENV)/bin/pybabel update -D pyramid -i $(LOCALE)/pyramid.pot -d $(LOCALE) \
	    --width 88 --no-fuzzy-matching --ignore-obsolete $$same
	$(VENV)/bin/pybabel compile -D pyramid -d $(LOCALE) --statistics

# SEATS checked against the edition's range (camelup.editions, its one source) and
# refused in make's own terms, SEATS=3..8, never pyramid's --seats (tester s37tp, 13)
demo: $(RUNTIME)
	@$(PY) -c 'import sys; from camelup.editions import get_edition; \
	    exec("try:\n e = get_edition(sys.argv[1])\nexcept Exception:\n e = None"); \
	    lo, hi = (e.min_players, e.max_players) if e else (0, 0); s = sys.argv[2]; \
	    e and not (s.isdigit() and lo <= int(s) <= hi) and sys.exit( \
	    "make demo: SEATS=%s: the %s edition seats %d to %d players: give SEATS=%d..%d" \
	    % (s, e.name, lo, hi, lo, hi))' '$(EDITION)' '$(SEATS)'
	$(VENV)/bin/pyramid demo --edition $(EDITION) --seed $(SEED) --seats $(SEATS)

bench: setup
	$(PY) tests/bench/run_all.py

soak: setup
	$(PY) tests/bench/soak.py --games $(or $(GAMES),200)

fuzz: setup
	$(PY) tests/bench/fuzz.py

web-load: setup
	$(PY) tests/bench/web_load.py

# without a board, pyramid flash names the port in make's form, not as --port
# (PYRAMID_PORT_FORM: camelhost.device.open.PORT_FORM_ENV)
flash: $(RUNTIME)
	PYRAMID_PORT_FORM='make flash PORT=/dev/ttyACM0' $(VENV)/bin/pyramid flash --port $(PORT)

# the wheel as a user gets it: built, installed without extras into a fresh venv,
# then the demo and a virtual calibration run from there (outside the checkout)
wheel-check: setup
	.ci/wheel-check

typings: $(VENV)/typings/.installed

$(VENV)/typings/.installed: $(STAMP)
	$(PY) -m pip install --quiet --target $(VENV)/typings micropython-rp2-stubs==1.29.0.post1
	@touch $@

ruff: setup
	$(VENV)/bin/ruff check shared host hardware firmware tests

lint: ruff typings
	$(VENV)/bin/mypy --config-file firmware/mypy.ini

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
