# Set-up and everyday commands. `make test` and `make demo` work on a fresh machine:
# each creates .venv and installs what it needs on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test lint bench demo system-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,demos,bench]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check engine demos tests bench
	$(BIN)/ruff format --check engine demos tests bench

bench: $(STAMP)
	$(BIN)/python -m bench

demo: $(STAMP)
	$(BIN)/python -m demos
	$(BIN)/python -m demos sat

# Debian packages for headless rendering (Mesa's EGL); a no-op where apt is missing.
system-deps:
	@if command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && apt-get install -y -qq libegl1 libegl-mesa0 libgl1-mesa-dri >/dev/null; \
	else echo "apt-get not found: install libegl1 libegl-mesa0 libgl1-mesa-dri by hand"; fi

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache build *.egg-info
