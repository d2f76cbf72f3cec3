"""The run summary's typed models and its published JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._spec import CampaignSpec
from duplexbench.campaign._trust import add_trust
from duplexbench.items._suite import SuiteManifest
from duplexbench.scoring._actions.result import ActionScore
from duplexbench.scoring._actions.summary import action_block
from duplexbench.scoring._summary import build_summary
from duplexbench.scoring.summary_models import (
    ActionRunSummary,
    ActionsBlock,
    WorkflowRunSummary,
    parse_summary,
    summary_data,
    summary_schema,
)
from duplexbench.speech._bank import SpeechBank
from duplexbench.suites._package import write_suite
from support.fixtures import FIXTURES
from support.replay_builders import one_per_action

DOCS_SCHEMA = Path(__file__).parents[2] / "docs" / "formats" / "summary.schema.json"


def test_the_published_schema_is_current() -> None:
    published = json.loads(DOCS_SCHEMA.read_text())
    assert published == summary_schema(), (
        "docs/formats/summary.schema.json is stale; regenerate it with "
        "`python -m duplexbench.scoring.summary_models > docs/formats/summary.schema.json`"
    )


def validate(summary: dict[str, Any]) -> None:
    jsonschema.validate(summary, json.loads(DOCS_SCHEMA.read_text()))


def test_a_workflow_summary_fits(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(
        RunOptions(str(FIXTURES), "oracle", condition=CONDITIONS["text"], repeats=2, out=out)
    )
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
    run_campaign(
        RunOptions(str(FIXTURES), "noop", condition=CONDITIONS["text"], repeats=1, out=out)
    )
    summary = json.loads((out / "summary.json").read_text())
    validate(summary)
    summary["workflows"]["pass_at_2"] = 0.5
    with pytest.raises(jsonschema.ValidationError):
        validate(summary)
    with pytest.raises(ValidationError, match="pass_at_2"):
        parse_summary(summary)


def test_an_actions_block_with_judge_verdicts_fits() -> None:
    """A judge run adds S (judge) per action and scenario; the model once forbade them, so
    the first action run with --judge-model would have failed at its summary."""
    score = ActionScore(
        item_id="a",
        repetition=0,
        status="ok",
        condition="stop.direct_interruption",
        action="stop",
        scenario="meeting",
        immediate=True,
        follow_through=True,
        follow_through_source="rule",
        judge_follow_through=False,
    )
    block = ActionsBlock.model_validate(action_block([score]))
    stop = block.per_action["stop"]
    assert (stop.subsequent, stop.subsequent_judge, stop.n_s_judge) == (1.0, 0.0, 1)
    assert block.by_scenario["meeting"]["stop"].subsequent_judge == 0.0


def test_a_rescore_without_the_agent_s_plug_in_still_has_a_summary() -> None:
    """An old campaign.json (no privileged flag) of an agent not registered here: the
    flag is unknown (null), which the model once refused, so the rescore failed."""
    spec = CampaignSpec(
        duplexbench_version="0.1",
        suite="s",
        suite_version="1",
        suite_path="s",
        agent="someone-elses-plugin",
        condition="text",
        repeats=1,
        seed=0,
        items=[],
        item_checksums={},
    )
    built = build_summary([], suite="s", agent=spec.agent, condition="text", repeats=1,
                          seed=0, judge=None)  # fmt: skip
    summary = add_trust(built, spec, [])
    assert summary.privileged is None and summary.trust.privileged is None
    validate(summary_data(summary))
