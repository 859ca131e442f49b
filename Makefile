# Two entry points for a fresh Linux machine with Python 3.11:
#   make demo   - set up, then run the main job: the embedded server with a demo season
#   make test   - set up, then run the whole test suite (what CI runs)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# uv resolves and installs in seconds where pip takes two minutes; pip stays the fallback
	# for a machine that cannot fetch uv's wheel
	$(BIN)/pip install --quiet uv && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]' \
		|| $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/bang-league serve --demo

test: $(STAMP)
	# the browser tests drive Debian's chromium (Playwright's own browser download is unreachable)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	# the JavaScript seed derivations are compared with the Python ones under node (tests/unit/dashboard)
	command -v node >/dev/null || (apt-get update && apt-get install -y nodejs)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadgroup --durations=30

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
