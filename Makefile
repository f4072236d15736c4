# Smart pyramid: every entry point creates and uses its own virtual environment (.venv).
#   make setup   install the project and its tools into .venv (runtime, then the dev extras)
#   make test    every test: rules, protocol, firmware on MicroPython, HIL over a pty, host
#   make hil     only the hardware-in-the-loop tests (firmware on simulated hardware)
#   make demo    a whole second-edition game through the virtual pyramid
#   make bench   odds, classifier and firmware-heap benchmarks (figures and ratios)
#   make flash PORT=/dev/ttyACM0   compile the firmware with mpy-cross, copy it with mpremote
#   make lint    ruff over the Python trees, mypy over the firmware with the rp2 stubs
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

.PHONY: setup test hil demo bench flash lint typings wheel-check clean soak fuzz catalogue

setup: $(STAMP)

# setuptools tells every editable install to beware of folders named like the package
# ("Editable installation ... may take precedence"): advice with nothing to act on here
# (the packages live under shared/ and host/), so the first `make demo` stays quiet.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(EDITABLE) $(PY) -m pip install --quiet -e .
	@touch $@

$(STAMP): $(RUNTIME)
	$(EDITABLE) $(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

test: setup
	$(PY) -m pytest -q -n $(JOBS) --dist loadgroup

hil: setup
	$(PY) -m pytest -q -m hil

# the translation catalogues (Babel): the words extracted from host/camelhost
# (babel.cfg) into pyramid.pot, each language's .po updated, the .mo compiled (the
# .mo files are committed; tests/test_i18n.py checks they match their .po)
LOCALE := host/camelhost/locale
catalogue: setup
	$(VENV)/bin/pybabel extract -F babel.cfg --omit-header --sort-by-file --width 88 \
	    -o $(LOCALE)/pyramid.pot .
	$(VENV)/bin/pybabel update -D pyramid -i $(LOCALE)/pyramid.pot -d $(LOCALE) \
	    --width 88 --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -D pyramid -d $(LOCALE) --statistics

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
