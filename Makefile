# Two commands do everything on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
# The browser tests drive Debian's Chromium (Playwright's own browser download is not used).
CHROMIUM := /usr/bin/chromium

.PHONY: play test lint bench clean

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

play: $(STAMP)
	$(BIN)/uno-attack play

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint $(CHROMIUM)
	$(BIN)/python -m pytest -n 2 --dist worksteal -q

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
