"""The APEX-Voice importer: both toy packages convert into valid, solvable items;
broken packages fail with the file named and leave no output behind."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from click.testing import CliRunner, Result

from duplexbench.cli import main
from duplexbench.items._load import load_item, parse_item
from duplexbench.suites._apex_voice import (
    ApexImportError,
    ImportResult,
    Unmapped,
    import_apex,
    import_package,
)
from duplexbench.suites._quality.qa import solvability_problems
from duplexbench.users._observer import ActObserver
from duplexbench.values._graders import values_match

TOY_NAMES = ("toy_form_001", "toy_interview_001")


def _toys_root() -> Path | None:
    env = os.environ.get("DUPLEXBENCH_APEX_TOYS")
    repo = Path(__file__).resolve().parents[2]
    candidates = [Path(env)] if env else []
    candidates += [repo / "tests/fixtures/apex-voice", repo.parent / "shared/peers/apex-voice"]
    return next(
        (c for c in candidates if all((c / n / "task.yaml").is_file() for n in TOY_NAMES)), None
    )


TOYS = _toys_root()
pytestmark = pytest.mark.skipif(
    TOYS is None, reason="APEX-Voice toy packages not found (set DUPLEXBENCH_APEX_TOYS)"
)


def toy(name: str) -> Path:
    assert TOYS is not None
    return TOYS / name


def copy_toy(tmp_path: Path, name: str, dest: str | None = None) -> Path:
    target = tmp_path / "packages" / (dest or name)
    shutil.copytree(toy(name), target)
    return target


def edit_yaml(path: Path, change: Any) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def notes(result: ImportResult, file: str) -> list[Unmapped]:
    return [n for n in result.unmapped if n.file == file]


@pytest.fixture(scope="module")
def form() -> ImportResult:
    return import_package(toy("toy_form_001"))


@pytest.fixture(scope="module")
def interview() -> ImportResult:
    return import_package(toy("toy_interview_001"))


# ---------------------------------------------------------------- the toy packages


@pytest.mark.parametrize("name", TOY_NAMES)
def test_toy_packages_import_as_valid_solvable_items(name: str) -> None:
    result = import_package(toy(name))
    item = parse_item(result.item, name)
    assert item.id == name
    assert solvability_problems(item) == []
    assert result.unmapped, "every toy has parts without an exact counterpart"


def test_form_mapping(form: ImportResult) -> None:
    item = parse_item(form.item)
    tax = item.taxonomy
    assert (tax.work_archetype, tax.industry, tax.work_artifact) == (
        "form_completion",
        "horizontal_enterprise",
        "structured_form",
    )
    assert (tax.economic_role, tax.autonomy, tax.risk) == (
        "finance",
        "approval_gated_commit",
        "consequential",
    )
    assert tax.duplex_phenomena == ["mid_speech_correction"]
    assert tax.delegation_pattern == "complete"
    # The delegation, never gold or procedure.
    assert "submit expense report" in item.instructions
    assert "CC-330" not in item.instructions and "200" not in item.instructions
    # Artifact with graders, options, gold and lifecycle.
    expense = item.artifact("expense_1")
    assert expense is not None and expense.min_lifecycle == "committed"
    total = expense.field("total_amount")
    assert total is not None and total.grader == "numeric_tolerance"
    assert total.grader_options == {"tolerance": 0.01} and total.gold == 200.0
    status = expense.field("approval_status")
    assert status is not None and status.grader == "enum" and status.gold == "submitted"
    assert status.grader_options == {"values": ["draft", "submitted"]}
    # Tools by handler; a ready transition is added for the commit.
    kinds = {t.name: t.kind for t in item.tools}
    assert kinds == {
        "update_expense": "artifact_update",
        "submit_expense": "action",
        "request_approval": "approval_request",
        "mark_expense_1_ready": "artifact_transition",
    }
    submit = item.tool("submit_expense")
    assert submit is not None and submit.kind == "action" and submit.requires_approval
    # User: fact chain with field links, approval after the correction, the event.
    v2 = item.user.fact("total_amount_v2")
    assert v2 is not None and v2.reveal == "on_event" and v2.supersedes == "total_amount"
    assert v2.field == "expense_1.total_amount"
    total_fact = item.user.fact("total_amount")
    assert total_fact is not None and "confirming the total" in total_fact.aliases
    (approval,) = item.user.approvals
    assert (approval.action, approval.after) == ("submit_expense", ["evt_correct_total"])
    (event,) = item.user.events
    assert event.kind == "correction" and event.trigger.act == "CONFIRM:total_amount"
    assert event.trigger.offset_ms == 700 and event.delivery == "barge_in"
    assert event.reveals == ["total_amount_v2"] and event.max_stop_latency_ms == 650
    assert set(item.user.realizations) >= {
        "open",
        "answer:employee_id",
        "event:evt_correct_total",
        "approve:approve_submit_expense",
    }
    # Gold.
    assert [p.kind for p in item.gold.terminal] == ["lifecycle_at_least"]
    assert [p.kind for p in item.gold.required_actions] == ["act_observed", "commit_authorized"]
    assert [p.kind for p in item.gold.critical] == ["no_unauthorized_commit"]
    # Reference: expects from the flow; the commit effect and the ready step are emulated.
    turns = item.reference.turns
    assert turns[5].expect == "event:evt_correct_total"
    assert turns[6].expect == "approve:approve_submit_expense"
    assert [c.name for c in turns[6].tool_calls] == [
        "update_expense",
        "mark_expense_1_ready",
        "submit_expense",
    ]
    assert turns[6].tool_calls[0].arguments == {"fields": {"approval_status": "submitted"}}
    assert turns[5].tool_calls[1].arguments == {"action": "submit_expense"}
    assert "approval_status = submitted" in item.knowledge[0].text


def test_form_unmapped_notes(form: ImportResult) -> None:
    reasons = " | ".join(f"{n.file}:{n.path}:{n.reason}" for n in form.unmapped)
    assert "commit effect emulated" in reasons
    assert "replaced by the reactive user policy" in reasons
    assert "stale-fact rule" in reasons
    assert any(n.path == "interaction.delegation_patterns" for n in notes(form, "taxonomy.yaml"))
    assert any(n.path == "voice_id" for n in notes(form, "user/persona.yaml"))


def test_interview_mapping(interview: ImportResult) -> None:
    item = parse_item(interview.item)
    tax = item.taxonomy
    assert (tax.work_archetype, tax.industry, tax.economic_role) == (
        "interviewing",
        "human_resources",
        "human_resources",
    )
    assert (tax.autonomy, tax.delegation_pattern) == ("draft_only", "delegate")
    record = item.artifact("interview_1")
    assert record is not None and record.min_lifecycle == "ready"
    evidence = record.field("technical_depth.evidence")
    assert evidence is not None and evidence.type == "list" and evidence.grader == "set_f1"
    notes_field = record.field("notes")
    assert notes_field is not None and not notes_field.required and notes_field.gold is None
    acts = {p.act for p in item.gold.required_actions if p.kind == "act_observed"}
    assert acts == {"ASK:tech_evidence", "ASK:lead_evidence"}
    (critical,) = item.gold.critical
    assert critical.kind == "field_equals"
    # The pre-filled subject id is stated in the instructions and written by the oracle.
    assert "subject_id = cand_501" in item.instructions
    first = item.reference.turns[0]
    assert first.tool_calls[0].arguments == {"fields": {"subject_id": "cand_501"}}
    # "To start, tell me about your technical background ..." is read as the question it
    # is (the semantic observer); no rephrasing needed.
    assert "ASK:tech_evidence" in ActObserver(item).acts(first.say)
    assert item.reference.turns[1].expect == "answer:tech_evidence"
    # Approximations are reported, not silent.
    whats = {n.what for n in interview.unmapped}
    assert "risk tier R1_SENSITIVE_DATA_SIM" in whats
    assert "artifact EVIDENCE_MATRIX" in whats
    assert "grader claim_atoms" in whats
    # The competency statuses are the agent's judgment: no fact or document holds them.
    unsourced = {n.path for n in interview.unmapped if "agent's judgment" in n.reason}
    assert unsourced == {
        "artifact_expectations.interview_1.technical_depth.status",
        "artifact_expectations.interview_1.leadership.status",
    }
    # The pre-filled value also has a document as its source.
    assert [d.id for d in item.knowledge] == ["apex_workspace"]
    assert "subject_id = cand_501" in item.knowledge[0].text


# ---------------------------------------------------------------- graders


class GraderCase(NamedTuple):
    apex: str
    ours: str
    ftype: str
    options: dict[str, Any]
    gold: Any
    accepted: Any
    """A value APEX-Voice's grader accepts (so must ours)."""
    rejected: Any


# Every field grader of APEX-Voice (`FieldGrader` in apex_voice/schemas/artifact.py).
APEX_GRADER_CASES = [
    GraderCase("exact", "exact", "string", {}, "E1042", "E1042", "e1042"),
    GraderCase("casefold_exact", "casefold_exact", "string", {}, "onsite", "OnSite", "site"),
    GraderCase("normalized_phone", "phone", "string", {}, "555-201-7788", "(555) 201 7788", "555"),
    GraderCase("normalized_date", "date", "string", {}, "2026-03-05", "March 5, 2026", "3/6/26"),
    GraderCase("normalized_address", "address", "string", {}, "42 Birch St", "42 birch st.", "43"),
    GraderCase("enum", "enum", "string", {"enum": ["draft", "sent"]}, "draft", "Draft", "sent"),
    GraderCase(
        "numeric_tolerance", "numeric_tolerance", "number", {"tolerance": 0.5}, 200.0, "200.4", 201
    ),
    GraderCase("set_exact", "set_exact", "array", {}, ["a", "b"], ["B", "a"], ["a"]),
    GraderCase("set_f1", "set_f1", "array", {}, ["a", "b"], ["b", "a"], ["a", "c"]),
    GraderCase("set_precision", "set_precision", "array", {}, ["a", "b"], ["a"], ["a", "c"]),
    GraderCase("set_recall", "set_recall", "array", {}, ["a", "b"], ["a", "b", "c"], ["a"]),
    GraderCase("ordered_list", "ordered_list", "array", {}, ["a", "b"], ["a", "b"], ["b", "a"]),
    GraderCase("interval_overlap", "interval_overlap", "interval", {}, [1, 3], [1, 3], [2, 5]),
    GraderCase("semantic", "semantic", "string", {}, "follow-up call", "Follow up call", "call"),
    GraderCase("claim_atoms", "semantic", "string", {}, "led a team", "Led a team.", "led none"),
]


def test_the_grader_table_covers_all_15_apex_graders() -> None:
    assert len({case.apex for case in APEX_GRADER_CASES}) == 15


@pytest.mark.parametrize("case", APEX_GRADER_CASES, ids=[c.apex for c in APEX_GRADER_CASES])
def test_every_apex_grader_maps_to_the_grader_doing_its_job(
    tmp_path: Path, case: GraderCase
) -> None:
    pkg = copy_toy(tmp_path, "toy_form_001")
    schema = {"name": "probe", "type": case.ftype, "grader": case.apex, "required": True}
    workspace = pkg / "workspace/initial_workspace.json"
    data = json.loads(workspace.read_text(encoding="utf-8"))
    data["artifacts"]["expense_1"]["schema"]["fields"].append({**schema, **case.options})
    workspace.write_text(json.dumps(data), encoding="utf-8")
    expectation = {"field": "probe", "expected": case.gold, "grader": case.apex, "required": True}
    edit_yaml(
        pkg / "grading/gold.yaml",
        lambda g: g["artifact_expectations"][0]["fields"].append({**expectation, **case.options}),
    )
    result = import_package(pkg)
    expense = parse_item(result.item).artifact("expense_1")
    probe = expense.field("probe") if expense is not None else None
    assert probe is not None and probe.grader == case.ours and probe.gold == case.gold
    assert values_match(probe.grader_spec(), case.accepted, case.gold)
    assert not values_match(probe.grader_spec(), case.rejected, case.gold)
    # Only a grader without a counterpart is reported as approximated.
    noted = [n for n in result.unmapped if n.what == f"grader {case.apex}"]
    assert len(noted) == (1 if case.apex == "claim_atoms" else 0)


def test_an_empty_expected_value_is_imported_as_no_gold(tmp_path: Path) -> None:
    pkg = copy_toy(tmp_path, "toy_form_001")

    def empty(g: dict[str, Any]) -> None:
        g["artifact_expectations"][0]["fields"][1]["expected"] = ""  # trip_purpose

    edit_yaml(pkg / "grading/gold.yaml", empty)
    result = import_package(pkg)
    trip = parse_item(result.item).artifact("expense_1")
    field = trip.field("trip_purpose") if trip is not None else None
    assert field is not None and field.gold is None and not field.required
    (note,) = [n for n in result.unmapped if n.what == "empty expected value of trip_purpose"]
    assert note.path == "artifact_expectations.trip_purpose.expected"


# ---------------------------------------------------------------- the CLI


def test_cli_writes_items_and_report_that_validate(tmp_path: Path) -> None:
    assert TOYS is not None
    out = tmp_path / "imported"
    result = invoke("import", "apex-voice", str(TOYS), str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.glob("*.yaml")) == [
        "suite.yaml",
        "toy_form_001.yaml",
        "toy_interview_001.yaml",
    ]
    report = json.loads((out / "import-report.json").read_text(encoding="utf-8"))
    assert [p["id"] for p in report["packages"]] == list(TOY_NAMES)
    for pkg in report["packages"]:
        assert pkg["unmapped"] and pkg["solvability_problems"] == []
        assert set(pkg["unmapped"][0]) == {"file", "path", "what", "reason"}
    assert load_item(out / "toy_form_001.yaml").id == "toy_form_001"
    formats = invoke("suite", "validate", "--no-solve", str(out))
    assert formats.exit_code == 0, formats.output
    assert "2 item(s)" in formats.output
    # Every check of `suite validate` (oracle, baselines, audits) on both items.
    validated = invoke("suite", "validate", str(out))
    assert validated.exit_code == 0, validated.output


def test_cli_imports_one_package_folder(tmp_path: Path) -> None:
    out = tmp_path / "one"
    result = invoke("import", "apex-voice", str(toy("toy_interview_001")), str(out), "--json")
    assert result.exit_code == 0, result.output
    assert [p["id"] for p in json.loads(result.stdout)["packages"]] == ["toy_interview_001"]
    assert (out / "toy_interview_001.yaml").is_file()


def test_existing_output_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    result = invoke("import", "apex-voice", str(toy("toy_form_001")), str(out))
    assert result.exit_code == 2
    assert "not an empty folder" in result.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


# ---------------------------------------------------------------- broken packages


def assert_nothing_written(tmp_path: Path, out: Path) -> None:
    assert not out.exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]


def test_missing_gold_fails_with_the_file_named(tmp_path: Path) -> None:
    pkg = copy_toy(tmp_path, "toy_form_001")
    (pkg / "grading/gold.yaml").unlink()
    with pytest.raises(ApexImportError, match=r"grading/gold\.yaml: missing"):
        import_package(pkg)
    out = tmp_path / "out"
    result = invoke("import", "apex-voice", str(pkg), str(out))
    assert result.exit_code == 2
    assert "gold.yaml" in result.output and "missing" in result.output
    assert_nothing_written(tmp_path, out)


def test_yaml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    pkg = copy_toy(tmp_path, "toy_form_001")
    (pkg / "user/events.yaml").write_text("events:\n  - id: [unclosed\n", encoding="utf-8")
    with pytest.raises(ApexImportError) as caught:
        import_package(pkg)
    message = str(caught.value)
    assert "user/events.yaml" in message and "line" in message and "invalid YAML" in message


def test_bad_jsonl_line_is_named(tmp_path: Path) -> None:
    pkg = copy_toy(tmp_path, "toy_interview_001")
    bank = pkg / "user/realization_bank.jsonl"
    bank.write_text(bank.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    with pytest.raises(ApexImportError, match=r"realization_bank\.jsonl: line 4: invalid JSON"):
        import_package(pkg)


def test_unknown_tool_handler_is_unmapped_and_the_rest_imports(tmp_path: Path) -> None:
    pkg = copy_toy(tmp_path, "toy_form_001")

    def add_tool(data: dict[str, Any]) -> None:
        data["tools"].append(
            {"name": "fax_receipt", "handler": "send_fax", "description": "Fax the receipt."}
        )

    edit_yaml(pkg / "tools/tool_spec.yaml", add_tool)
    result = import_package(pkg)
    (note,) = [n for n in result.unmapped if "fax_receipt" in n.what]
    assert (note.file, note.path) == ("tools/tool_spec.yaml", "tools[3].handler")
    assert "dropped" in note.reason
    item = parse_item(result.item)
    assert item.tool("fax_receipt") is None
    assert solvability_problems(item) == []


def test_unknown_gold_predicate_is_unmapped(tmp_path: Path) -> None:
    pkg = copy_toy(tmp_path, "toy_form_001")

    def add_predicate(data: dict[str, Any]) -> None:
        data["required_actions"].append(
            {"id": "polite", "kind": "tone_is_polite", "args": {"min_score": 0.8}}
        )

    edit_yaml(pkg / "grading/gold.yaml", add_predicate)
    result = import_package(pkg)
    (note,) = [n for n in result.unmapped if n.what == "predicate tone_is_polite"]
    assert (note.file, note.path) == ("grading/gold.yaml", "required_actions[2]")
    item = parse_item(result.item)
    assert len(item.gold.required_actions) == 2
    assert solvability_problems(item) == []


def test_one_broken_package_writes_nothing(tmp_path: Path) -> None:
    copy_toy(tmp_path, "toy_form_001")
    broken = copy_toy(tmp_path, "toy_interview_001")
    (broken / "reference/policy.yaml").write_text("turns: {a: [1, 2\n", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(ApexImportError, match=r"toy_interview_001/reference/policy\.yaml"):
        import_apex(tmp_path / "packages", out)
    assert_nothing_written(tmp_path, out)
    result = invoke("import", "apex-voice", str(tmp_path / "packages"), str(out))
    assert result.exit_code == 2 and "policy.yaml" in result.output
    assert_nothing_written(tmp_path, out)


def test_duplicate_task_ids_are_refused(tmp_path: Path) -> None:
    copy_toy(tmp_path, "toy_form_001", "a")
    copy_toy(tmp_path, "toy_form_001", "b")
    out = tmp_path / "out"
    with pytest.raises(ApexImportError, match="duplicate task id"):
        import_apex(tmp_path / "packages", out)
    assert_nothing_written(tmp_path, out)


def test_a_folder_without_packages_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ApexImportError, match="no APEX-Voice package"):
        import_apex(tmp_path, tmp_path / "out")
