"""Property-based fuzzing of agent tool calls: every call ends in a tool result or a tool error.

An agent under test may send any tool name with any arguments. Each call goes
through `EpisodeCore.run_tool`, the entry point of the text and audio loops (it
logs `tool.call`, runs `Workbench.execute` and builds the agent's
`ToolResultMessage`); argument text goes through `tool_arguments`, the
adapters' JSON parsing, so text that is not JSON reaches the workbench as is.

Each call must return `{"ok": true, "result": ...}` or `{"ok": false, "error":
{code, message}}` with a known code and a bounded message, within
`CASE_SECONDS` (SIGALRM guard). Arguments the tool's schema rejects, or that are
not plain JSON (NaN, infinities, 4300+-digit integers, lone surrogates, nesting
deeper than `MAX_DEPTH`), must be rejected; a rejected call must leave the
workbench (artifacts, database, executed actions, approval tokens, requested
approvals) exactly as it was and log nothing but `tool.call`, `tool.result` and
`action.blocked`; every event the workbench logs must be writable as UTF-8
JSON, the state must survive `workbench.json` and `replay` must rebuild it.

Targets: every tool of every workflow item in tests/fixtures (5 items and the 2
APEX-Voice toy packages, imported) and in workflows-v1 (120 items; workflows-mini
names 12 of them): 127 items, 560 tools. Cases per target by default
(`DUPLEXBENCH_FUZZ_EXAMPLES`, default 40, sets the Hypothesis `max_examples` of
each property; e.g. `DUPLEXBENCH_FUZZ_EXAMPLES=500` for a long run):

- `test_every_tool_against_its_schema`: a fixed sweep, 21,142 calls whatever N:
  every tool gets its schema's example, 11 non-object arguments, each required
  key dropped, an extra key, 23 hostile values (wrong types, boundary and
  10**100 numbers, NaN/inf, 10**5000, 100 kB strings, surrogates, nesting 50 and
  5000 deep) put at its properties in turn, out-of-enum and out-of-range values;
- `test_random_json_arguments`: N random JSON arguments for a random tool;
- `test_mutated_valid_arguments`: N cases of a valid call, then valid arguments
  with 1-3 mutations (replace, hostile value, drop, add, wrap, cut JSON text);
- `test_unknown_names_and_raw_text`: N cases of 3 unknown tool names and a raw
  argument text, sent as is and as the adapters parse it;
- `test_adversarial`: 8 fixed cases, all refused (1 MB string: `too_large`,
  20,000 values, 100,000-deep nesting, a self-reference, non-JSON types, a
  surrogate key);
- regression tests for the workbench fixes (`test_regression_*`).

Random sequences of calls, approvals and revocations are in
test_fuzz_tool_sequences.py; the shared machinery is tests/support/tool_fuzz.py. This
file runs in about 20 s at the default on 2 cores.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duplexbench.agents._providers.openai_realtime_protocol import tool_arguments
from duplexbench.items._tools import Tool
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._episode import EpisodeCore
from duplexbench.trace._events import ToolResult
from duplexbench.workbench._runtime import MAX_MESSAGE
from support.fuzzing import FUZZ
from support.tool_fuzz import (
    SOURCES,
    agent_call,
    call_tool,
    check_consistent,
    deep,
    episode,
    item_of,
    json_values,
    mutate,
    schema_mutations,
    scramble,
    text,
    tool_of,
    valid_arguments,
)

# --- the fuzz targets -------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_every_tool_against_its_schema(source: str) -> None:
    item = item_of(source)
    core = episode(item)
    for approval in item.user.approvals:
        core.bench.grant(approval, 0)
    outcomes = set()
    for turn, tool in enumerate(item.tools):
        for arguments in schema_mutations(item, tool, turn):
            out = call_tool(core, tool, arguments)
            outcomes.add(out["ok"] or out["error"]["code"])
    assert "invalid_arguments" in outcomes
    check_consistent(core)


@FUZZ
@given(target=tool_of(), arguments=json_values)
def test_random_json_arguments(target: tuple[WorkflowItem, Tool], arguments: Any) -> None:
    item, tool = target
    core = episode(item)
    call_tool(core, tool, arguments)
    check_consistent(core)


@FUZZ
@given(target=tool_of(), data=st.data())
def test_mutated_valid_arguments(target: tuple[WorkflowItem, Tool], data: st.DataObject) -> None:
    item, tool = target
    core = episode(item)
    for approval in item.user.approvals:
        core.bench.grant(approval, 0)
    call_tool(core, tool, data.draw(valid_arguments(item, tool)))
    arguments = data.draw(valid_arguments(item, tool))
    for _ in range(data.draw(st.integers(1, 3))):
        arguments = mutate(data.draw, arguments)
    call_tool(core, tool, arguments)
    check_consistent(core)


raw_text = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        ["NaN", "-Infinity", "1e999", "9" * 5000, "{", '{"fields": ', '{"fields": {"a": NaN}}']
    ),
    st.sampled_from(['{"id": "\\ud800"}', '{"query": "x", "top_k": 1e400}', "[" * 50 + "]" * 50]),
)


@FUZZ
@given(
    target=tool_of(), name=st.one_of(text, st.sampled_from(["", " ", "x" * 100_000])), raw=raw_text
)
def test_unknown_names_and_raw_text(target: tuple[WorkflowItem, Tool], name: str, raw: str) -> None:
    item, tool = target
    core = episode(item)
    for unknown in (name, tool.name.upper() + "_", f" {tool.name}"):
        if item.tool(unknown) is None:
            assert agent_call(core, unknown, {})["error"]["code"] == "unknown_tool"
    call_tool(core, tool, raw)  # a string that is not JSON, as the adapters pass it on
    call_tool(core, tool, tool_arguments(raw))
    check_consistent(core)


# --- fixed adversarial cases and regressions for the workbench fixes --------------------------

EXPENSE = "fixture:form-expense-correction"
AIRLINE = "fixture:airline-rebooking"


def gated_bench(source: str) -> EpisodeCore:
    core = episode(item_of(source))
    for approval in core.item.user.approvals:
        core.bench.grant(approval, 0)
    return core


def tool_named(core: EpisodeCore, name: str) -> Tool:
    tool = core.item.tool(name)
    assert tool is not None
    return tool


def rejected(source: str, name: str, arguments: Any) -> str:
    """The message of a call that must fail with invalid_arguments (state checked unchanged)."""
    core = gated_bench(source)
    out = call_tool(core, tool_named(core, name), arguments)
    assert out["error"]["code"] == "invalid_arguments"
    assert not any(t.used for t in core.bench.auth.tokens)
    check_consistent(core)
    return str(out["error"]["message"])


def cyclic() -> dict[str, Any]:
    loop: dict[str, Any] = {"id": "R7QX2L"}
    loop["me"] = loop
    return loop


ADVERSARIAL: dict[str, tuple[str, str, Any]] = {
    "1 MB string": (EXPENSE, "update_expense", {"fields": {"trip_purpose": "x" * (1 << 20)}}),
    "20,000 list items": (EXPENSE, "update_expense", {"fields": {"total_amount": [0] * 19_990}}),
    "20,001 values": (
        AIRLINE,
        "change_reservation",
        {"id": "R7QX2L", "fields": {"bags": [0] * 20_001}},
    ),
    "20,000 keys": (EXPENSE, "update_expense", {"fields": {f"k{i}": i for i in range(19_990)}}),
    "100,000 nesting": (AIRLINE, "get_reservation", deep(100_000)),
    "self reference": (AIRLINE, "get_reservation", cyclic()),
    "tuple value": (AIRLINE, "change_reservation", {"id": "R7QX2L", "fields": {"bags": (1,)}}),
    "surrogate key": (EXPENSE, "update_expense", {"fields": {"\udc80": "x"}}),
}


@pytest.mark.parametrize("case", sorted(ADVERSARIAL))
def test_adversarial(case: str) -> None:
    source, name, arguments = ADVERSARIAL[case]
    core = gated_bench(source)
    out = call_tool(core, tool_named(core, name), arguments)
    assert out["ok"] is False  # the 1 MB string too, since values are capped (MAX_TEXT)
    check_consistent(core)


@pytest.mark.parametrize(
    "arguments", [10**5000, {"fields": {"employee_id": 10**5000}}], ids=["whole", "field"]
)
def test_regression_huge_integer_is_invalid_arguments(arguments: Any) -> None:
    # was: ValueError (int to text beyond 4300 digits) out of Workbench.execute
    assert "4300 or more digits" in rejected(EXPENSE, "update_expense", arguments)


@pytest.mark.parametrize("levels", [400, 900, 5000])
def test_regression_deep_nesting_is_invalid_arguments(levels: int) -> None:
    # was: RecursionError out of Workbench.execute; a database write raised it only after
    # logging action.executed and spending the approval token
    assert "nested deeper" in rejected(AIRLINE, "get_reservation", deep(levels))
    fields = {"bags": deep(levels)}
    assert "nested deeper" in rejected(
        AIRLINE, "change_reservation", {"id": "R7QX2L", "fields": fields}
    )


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_regression_non_finite_numbers_are_rejected(number: float) -> None:
    # was: accepted; workbench.json then held null where the replayed state held NaN
    fields = {"total_amount": number}
    message = rejected(EXPENSE, "update_expense", {"fields": fields})
    assert message == "fields/total_amount: not a finite number"
    fields = {"bags": number}
    assert "not a finite number" in rejected(
        AIRLINE, "change_reservation", {"id": "R7QX2L", "fields": fields}
    )


def test_regression_lone_surrogate_is_rejected() -> None:
    # was: accepted into the state; writing workbench.json then raised PydanticSerializationError
    message = rejected(EXPENSE, "update_expense", {"fields": {"employee_id": "E1\ud800"}})
    assert "surrogate" in message


@pytest.mark.parametrize(
    "value", [{1, 2}, (1, 2), b"x", object()], ids=["set", "tuple", "bytes", "object"]
)
def test_regression_non_json_values_are_rejected(value: Any) -> None:
    # was: a set, tuple or bytes went into the database and did not survive workbench.json
    fields = {"bags": value}
    assert "not a JSON value" in rejected(
        AIRLINE, "change_reservation", {"id": "R7QX2L", "fields": fields}
    )


def test_regression_error_messages_are_cut() -> None:
    # was: a 100 kB argument or tool name came back whole in the error message
    core = episode(item_of(EXPENSE))
    for name, arguments in [("x" * 100_000, {}), ("update_expense", "x" * 100_000)]:
        message = agent_call(core, name, arguments)["error"]["message"]
        assert len(message) < MAX_MESSAGE + 40 and message.endswith("characters)")


def test_regression_database_write_cannot_change_a_record_id(item_factory: Any) -> None:
    # was: with `fields` unset, {"id": "OTHER"} kept the record under R7QX2L with id OTHER
    def any_field(data: dict[str, Any]) -> None:
        tool = next(t for t in data["tools"] if t["name"] == "change_reservation")
        del tool["fields"]

    item = item_factory("airline-rebooking", any_field)
    core = episode(item)
    core.bench.grant(item.user.approvals[0], 0)
    tool = item.tool("change_reservation")
    assert tool is not None
    out = call_tool(core, tool, {"id": "R7QX2L", "fields": {"id": "OTHER", "bags": 2}})
    assert "id cannot change" in out["error"]["message"]
    assert call_tool(core, tool, {"id": "R7QX2L", "fields": {"id": "R7QX2L", "bags": 2}})["ok"]
    assert core.bench.state.database["reservations"]["R7QX2L"]["id"] == "R7QX2L"


def test_regression_tool_result_log_is_not_shared_with_the_agent() -> None:
    # was: `for_agent` handed out the logged result itself; an agent editing it rewrote the trace
    core = episode(item_of(AIRLINE))
    out = agent_call(core, "get_reservation", {"id": "R7QX2L"})
    scramble(out)
    logged = core.recorder.events[-1]
    assert isinstance(logged, ToolResult) and "zzz_scrambled" not in logged.data.result
    assert logged.data.result["record"] == core.bench.state.database["reservations"]["R7QX2L"]
