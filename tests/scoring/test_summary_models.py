"""The run summary's typed models and its published JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from pydantic import ValidationError

from conftest import FIXTURES
from duplexbench.campaign.runner import RunOptions, run_campaign
from duplexbench.items.suite import SuiteManifest
from duplexbench.scoring.summary_models import (
    ActionRunSummary,
    WorkflowRunSummary,
    parse_summary,
    summary_schema,
)
from duplexbench.speech.bank import SpeechBank
from duplexbench.suites.package import write_suite
from orchestrator.replay_builders import one_per_action

DOCS_SCHEMA = Path(__file__).parents[2] / "docs" / "formats" / "summary.schema.json"


def test_the_published_schema_is_current() -> None:
    published = json.loads(DOCS_SCHEMA.read_text())
    assert published == summary_schema(), (
        "docs/formats/summary.schema.json is stale; regenerate it with "
        "`python -m duplexbench.scoring.summary_models > docs/formats/summary.schema.json`"
    )


def validate(summary: dict) -> None:  # type: ignore[type-arg]
    jsonschema.validate(summary, json.loads(DOCS_SCHEMA.read_text()))


def test_a_workflow_summary_fits(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(RunOptions(str(FIXTURES), "oracle", condition="text", repeats=2, out=out))
    summary = json.loads((out / "summary.json").read_text())
    assert isinstance(parse_summary(summary), WorkflowRunSummary)
    validate(summary)


def test_an_action_summary_fits(tmp_path: Path) -> None:
    items = one_per_action(SpeechBank(tmp_path / "bank"))
    write_suite(tmp_path / "suite", SuiteManifest(name="a", family="action", version="1"), items)
    options = RunOptions(str(tmp_path / "suite"), "silent", repeats=1, out=tmp_path / "run")
    run_campaign(RunOptions(**{**vars(options), "speech_cache": tmp_path / "bank"}))
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert isinstance(parse_summary(summary), ActionRunSummary)
    validate(summary)


def test_an_unknown_key_does_not_fit(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(RunOptions(str(FIXTURES), "noop", condition="text", repeats=1, out=out))
    summary = json.loads((out / "summary.json").read_text())
    validate(summary)
    summary["workflows"]["pass_at_2"] = 0.5
    with pytest.raises(jsonschema.ValidationError):
        validate(summary)
    with pytest.raises(ValidationError, match="pass_at_2"):
        parse_summary(summary)
