# Set-up and everyday commands. `make test` and `make demo` work on a fresh machine:
# each creates .venv and installs what it needs on first use (`make demo` only the demos'
# extras), and compiles the engine's kernels once (python -m engine.warm; they are cached
# on disk).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test lint bench docs demo system-deps clean

DEMO_STAMP := $(VENV)/.installed-demos

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# What the demos need: the engine and its demo extras, not the test, docs and bench ones.
$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[demos]'
	$(BIN)/python -m engine.warm
	touch $(DEMO_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,demos,bench]'
	$(BIN)/python -m engine.warm
	touch $(STAMP) $(DEMO_STAMP)

install: $(STAMP)

# One pytest worker per core (pytest-xdist; -n auto), each test file's tests handed out
# as workers free up.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check engine demos tests bench
	$(BIN)/ruff format --check engine demos tests bench

bench: $(STAMP)
	$(BIN)/python -m bench

# The documentation site (the guide and the API reference from the docstrings) in site/;
# --strict turns any warning into a failure. Open site/index.html in a browser.
docs: $(STAMP)
	$(BIN)/python -m mkdocs build --strict

# The default scene (DEMO=NAME for another) in a window. Without a display it renders
# offscreen instead and records out/demo.gif and out/demo.png.
DEMO ?= default
demo: $(DEMO_STAMP)
	$(BIN)/python -m demos $(DEMO) --out out/demo

# Debian packages for offscreen rendering (Mesa's EGL and drivers) and the HUD's font.
# Skips apt when they are all there already; a no-op message where apt is missing.
GL_PACKAGES := libegl1 libegl-mesa0 libgl1-mesa-dri fontconfig fonts-dejavu-core
system-deps:
	@if ! command -v apt-get >/dev/null 2>&1; then \
		echo "apt-get not found: install EGL and Mesa's OpenGL drivers by hand" \
			"(Debian names: $(GL_PACKAGES))"; \
	elif dpkg -s $(GL_PACKAGES) >/dev/null 2>&1; then \
		echo "system-deps: $(GL_PACKAGES) already installed"; \
	else \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $(GL_PACKAGES) >/dev/null && \
		echo "system-deps: installed $(GL_PACKAGES)"; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache build site *.egg-info
