# duplexbench: the two commands of the README are `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: install demo test test-e2e lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## The main job: the default offline benchmark (workflows-mini, reference agent) run twice,
## as text and in clean full-duplex audio (the same agent without and with the voice channel):
## both scorecards, their comparison (retention, paired tests) and the HTML report of both.
demo: install
	$(BIN)/duplexbench run --condition text,clean --out runs/demo --overwrite --workers 2
	$(BIN)/duplexbench report runs/demo --html runs/demo/report.html

## The whole test suite: lint, types, unit tests (CI runs this through .ci/run).
test: install lint typecheck unit

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

## The end-to-end checks CI runs after `test` (marked slow; 5.3 min on 2026-12-07): the live
## call in headless Chromium, a realistic run with flite and espeak-ng hidden, the
## caller answering repair requests in clean audio, and a contaminated agent on a
## freshly generated suite.
test-e2e: install
	$(BIN)/pytest -m slow tests/call/test_live_call.py tests/campaign/test_voice_fallback.py \
		tests/validity/test_repair_requests_audio.py tests/security/test_contamination.py

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest --durations=15

## Performance benchmarks (report throughput and ratios to targets; never part of `test`).
bench: install
	$(BIN)/python benchmarks/cores.py
	$(BIN)/python benchmarks/run.py
	taskset -c 0 $(BIN)/python benchmarks/audio.py
	taskset -c 0 $(BIN)/python benchmarks/suite.py
	$(BIN)/python benchmarks/engine.py --repeats 1 $(if $(AGAINST),--against $(AGAINST))
	taskset -c 0 $(BIN)/python benchmarks/effects.py
	taskset -c 0 $(BIN)/python benchmarks/observer.py
	$(BIN)/python benchmarks/campaign.py
	$(BIN)/python benchmarks/report.py
	taskset -c 0 $(BIN)/python benchmarks/startup.py
	taskset -c 0 $(BIN)/python benchmarks/reference_rtf.py
	$(BIN)/python benchmarks/workers.py
	$(BIN)/python benchmarks/demo.py
	$(BIN)/python benchmarks/audio_audit.py

clean:
	rm -rf $(VENV) runs .mypy_cache .ruff_cache .pytest_cache
