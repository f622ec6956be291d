# The two commands of the README: `make demo` (toolwire's main job on the bundled
# examples) and `make test` (lint, types, tests). Both set up .venv on first use.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SEEDS := tests/data

.PHONY: demo test bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# Exit 1 means "violations found", which is what the bad seed traces are for.
demo: $(STAMP)
	$(VENV)/bin/toolwire check -p open-responses-stream $(SEEDS)/open-responses-stream/seed000-*.sse || [ $$? -eq 1 ]
	$(VENV)/bin/toolwire check -p openai-chat $(SEEDS)/openai-chat/seed001-*.json || [ $$? -eq 1 ]
	$(VENV)/bin/toolwire check -p openai-chat --after $(SEEDS)/openai-chat-stream/seed002-provider-stream.sse $(SEEDS)/openai-chat/seed002-*.json || [ $$? -eq 1 ]
	$(VENV)/bin/toolwire check -p openai-chat $(SEEDS)/openai-chat/seed004-*.json || [ $$? -eq 1 ]

test: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) benchmarks/bench_check.py
	$(PY) benchmarks/bench_anthropic.py
