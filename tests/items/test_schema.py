"""The exported JSON Schema matches the models and validates the fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from duplexbench.items._schema import workflow_json_schema
from support.fixtures import FIXTURES

DOCS_SCHEMA = Path(__file__).parents[2] / "docs" / "formats" / "workflow.schema.json"


def test_committed_schema_is_current() -> None:
    committed = json.loads(DOCS_SCHEMA.read_text())
    assert committed == workflow_json_schema(), (
        "docs/formats/workflow.schema.json is stale; regenerate it with "
        "`duplexbench suite schema --out docs/formats/workflow.schema.json`"
    )


def test_fixtures_validate_against_the_schema() -> None:
    validator = Draft202012Validator(workflow_json_schema())
    for path in sorted(FIXTURES.glob("*.yaml")):
        if path.name == "suite.yaml":
            continue
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
        assert errors == [], f"{path.name}: {errors[0].message if errors else ''}"
