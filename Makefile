# The two commands of the README: `make demo` (toolwire's main job on the bundled
# examples) and `make test` (lint, types, every test). Both set up .venv on first use.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test deep bench tables real-converters

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The AI SDK packages whose zod schemas tests/unit/test_sdk_conformance.py runs (in node); without npm
# those tests skip and say why.
SDK := tests/sdk
$(SDK)/node_modules/.package-lock.json: $(SDK)/package-lock.json
	if command -v npm >/dev/null 2>&1; then npm ci --prefix $(SDK) --no-audit --no-fund --loglevel=error \
		|| echo "make: npm ci failed in $(SDK); the AI SDK schema tests will skip"; \
	else echo "make: npm not found; the AI SDK schema tests will skip"; fi

# toolwire's main job on the bundled examples: fuzz each seed design's buggy variant (exit 1,
# a minimal counterexample saved under counterexamples/) and its fixed variant (exit 0); then
# prove the fixed variants within 3 calls x 3 deltas (exit 0) and break buggy ones (exit 1).
TW := $(VENV)/bin/toolwire
FUZZ := $(TW) fuzz --max-examples 300
EXPLORE := $(TW) explore --calls 3 --deltas 3
demo: $(STAMP)
	$(FUZZ) examples/seed000_aisdk_to_openresponses.py:buggy --from aisdk-stream --to open-responses-stream || [ $$? -eq 1 ]
	$(FUZZ) examples/seed000_aisdk_to_openresponses.py:fixed --from aisdk-stream --to open-responses-stream
	$(FUZZ) examples/seed001_genkit_history.py:buggy --from openai-chat-stream --to openai-chat || [ $$? -eq 1 ]
	$(FUZZ) examples/seed001_genkit_history.py:fixed --from openai-chat-stream --to openai-chat
	$(FUZZ) examples/seed002_pipeline_mode.py:buggy --from openai-chat-stream --to openai-chat || [ $$? -eq 1 ]
	$(FUZZ) examples/seed002_pipeline_mode.py:fixed --from openai-chat-stream --to openai-chat --quirks two-per-chunk
	$(FUZZ) examples/seed003_adk_to_aisdk.py:buggy --from gemini-contents --to aisdk-ui-stream || [ $$? -eq 1 ]
	$(FUZZ) examples/seed003_adk_to_aisdk.py:fixed --from gemini-contents --to aisdk-ui-stream --quirks missing-ids
	$(FUZZ) examples/seed004_sanitizer.py:solution_a --from openai-chat --to openai-chat --mutate || [ $$? -eq 1 ]
	$(FUZZ) examples/seed004_sanitizer.py:fixed --from openai-chat --to openai-chat --mutate
	$(EXPLORE) examples/seed000_aisdk_to_openresponses.py:buggy --from aisdk-stream --to open-responses-stream || [ $$? -eq 1 ]
	$(EXPLORE) examples/seed000_aisdk_to_openresponses.py:fixed --from aisdk-stream --to open-responses-stream
	$(EXPLORE) examples/seed001_genkit_history.py:fixed --from openai-chat-stream --to openai-chat
	$(EXPLORE) examples/seed002_pipeline_mode.py:fixed --from openai-chat-stream --to openai-chat --quirks two-per-chunk
	$(EXPLORE) examples/seed003_adk_to_aisdk.py:buggy --from gemini-contents --to aisdk-ui-stream --turns 2 || [ $$? -eq 1 ]
	$(EXPLORE) examples/seed003_adk_to_aisdk.py:fixed --from gemini-contents --to aisdk-ui-stream --turns 2
	$(EXPLORE) examples/seed004_sanitizer.py:fixed --from openai-chat --to openai-chat --turns 2 --mutate

# Every test, the slow ones too (a plain `pytest` leaves them out: pyproject's addopts), on two
# workers: the slow tests are campaigns of a second or more each, which xdist spreads.
ALL := -m "" -n 2

test: $(STAMP) $(SDK)/node_modules/.package-lock.json
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/ruff format --check src tests benchmarks examples
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest $(ALL)

# The property tests at depth (the nightly Hypothesis profile: 2,000 examples each), without a CI
# service: run it by hand or from cron; what it finds lands in tests/.hypothesis-examples/ to commit.
deep: $(STAMP) $(SDK)/node_modules/.package-lock.json
	HYPOTHESIS_PROFILE=nightly $(VENV)/bin/pytest $(ALL)

# Every performance figure against its baseline and target (benchmarks/run.py; README shows its output).
bench: $(STAMP)
	$(PY) benchmarks/run.py

# The transition tables `toolwire check` runs on, compiled from the machine classes (a test fails on drift).
tables: $(STAMP)
	$(PY) -m toolwire.engines.checking._tables

# Real converters pinned at a buggy and a fixed release each (benchmarks/real_converters/README.md):
# one environment per release (toolwire from this tree, editable), then a default one-minute campaign
# on each, and the table caught / missed / false alarm. On demand only: it installs from PyPI and npm
# (the npm rows need Node 20 and npm on the PATH) and runs about twenty-five minutes. RC_ARGS passes
# options to run.py (--only ROW, --time-limit 30s, --extra-args ...).
real-converters:
	python3 benchmarks/real_converters/install.py
	python3 benchmarks/real_converters/run.py $(RC_ARGS)
