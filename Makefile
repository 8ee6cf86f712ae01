# Two commands do everything on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
# The browser tests drive Debian's Chromium (Playwright's own browser download is not used).
CHROMIUM := /usr/bin/chromium
# The emulated Pico runs MicroPython's WebAssembly port (npm, pinned in its lock file) on Node.js.
PICO := firmware_bridge/micropython
PICO_STAMP := $(PICO)/node_modules/.package-lock.json

.PHONY: play test lint typecheck bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then \
	  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
	  echo "make: the browser tests need Debian's chromium: run 'sudo apt-get install chromium'" >&2; \
	  exit 1; \
	fi
	test -x $(CHROMIUM)

$(PICO_STAMP): $(PICO)/package.json $(PICO)/package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then \
	    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; \
	  else \
	    echo "make: the emulated Pico needs Node.js: run 'sudo apt-get install nodejs npm'" >&2; \
	    exit 1; \
	  fi; }
	cd $(PICO) && npm ci --no-audit --no-fund --loglevel=error

play: $(STAMP)
	$(BIN)/uno-attack play

lint: $(STAMP)
	$(BIN)/ruff check .

# mypy --strict over the four packages ([tool.mypy]); stubtest holds the firmware's stubs
# to the MicroPython files they describe.
typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/python -m mypy.stubtest sim_launcher.dispenser firmware_bridge.firmware.ulp \
	  firmware_bridge.firmware.board firmware_bridge.firmware.hal

test: lint typecheck $(CHROMIUM) $(PICO_STAMP)
	$(BIN)/python -m pytest -n 2 --dist worksteal -q

bench: $(BENCH_STAMP) $(PICO_STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info $(PICO)/node_modules
