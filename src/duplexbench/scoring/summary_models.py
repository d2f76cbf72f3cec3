"""The run summary (`summary.json`) as typed models, and its JSON Schema.

A summary is built by scoring (`scoring/_summary.py` for workflows,
`campaign/_action_scoring.py` for actions, `campaign/_trust.py` adds the trust
block) and read by the CLI and the report. These models say what it holds;
`summary_schema()` is the schema published as docs/formats/summary.schema.json
(a test fails when that file is stale; regenerate it with
`python -m duplexbench.scoring.summary_models > docs/formats/summary.schema.json`).
Every block forbids unknown keys, so a new key is added here first.
Definitions of the numbers: docs/metrics.md, docs/actions.md, docs/reliability.md.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Rate = float | None
"""A rate in [0, 1]; null when nothing it is over was observed."""


class _Block(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- shared -------------------------------------------------------------------


class JudgeLabel(_Block):
    model: str
    prompt_version: str


class Metric(_Block):
    value: float | None
    count: int
    insufficient: bool


class InteractionCounts(_Block):
    n_timelines: int
    response_total: int
    no_response: int
    yield_total: int
    no_yield: int
    ended_naturally: int
    agent_interrupts_count: int
    backchannel_total: int
    backchannel_error: int
    vocal_tic_total: int
    vocal_tic_error: int
    non_directed_total: int
    non_directed_error: int


class DeadAir(_Block):
    total_s: float
    longest_s: float
    gaps_over_3s: int
    fraction: float | None


class Unresponsive(_Block):
    flag: bool
    timelines_flagged: int
    longest_run: int


class InteractionPanel(_Block):
    """The τ-Voice interaction panel pooled over the run's audio timelines."""

    response_latency: Metric
    response_rate: Metric
    yield_latency: Metric
    yield_rate: Metric
    ended_naturally_rate: Metric
    agent_interruption_rate: Metric
    selectivity_backchannel: Metric
    selectivity_vocal_tic: Metric
    selectivity_non_directed: Metric
    selectivity: Metric
    unresponsive_period: Unresponsive
    dead_air: DeadAir
    counts: InteractionCounts


class ItemsTrust(_Block):
    status: str
    edited: dict[str, list[str]]
    unverified: list[str]


class JudgeTrust(_Block):
    verdicts: int
    fetched: int
    cache_only: int
    cache_only_verdicts: list[str]
    endpoint: bool
    cache: str | None = Field(description="The verdict cache's path.")
    cache_sha256: str | None = Field(
        None,
        description="sha256 of the verdict cache's contents when the summary was written "
        "(null: no file yet, or a summary written before it was recorded).",
    )
    unknown_entries: int | None
    unknown_examples: list[str]


class Trust(_Block):
    privileged: bool | None = Field(
        description="Null: the run's campaign.json predates the flag and its agent is not "
        "registered here (a rescore without the plug-in)."
    )
    items: ItemsTrust
    judge: JudgeTrust | None
    warnings: list[str]


class _Run(_Block):
    """What every run summary holds."""

    suite: str
    agent: str
    privileged: bool | None = Field(description="As trust.privileged.")
    scorer_version: str | None = Field(
        None,
        description="The scoring rules that produced this summary (scoring/_version.py); "
        "null: a summary written before it was recorded.",
    )
    condition: str
    episodes: int
    errors: int = Field(description="Harness errors, left out of the rates.")
    error_reasons: list[str]
    agent_errors: int = Field(description="Agent errors, scored as failed episodes.")
    agent_error_reasons: list[str]
    complete: bool
    judge: JudgeLabel | None
    interaction: InteractionPanel | None
    trust: Trust


# -- workflows ---------------------------------------------------------------


class UnsupportedValues(_Block):
    rate: Rate
    ci95: list[float] | None
    unsupported: int
    correct: int
    exempt: str | None
    label: str | None


class Attribution(_Block):
    """Why the run's wrong graded fields were wrong: one cause each (docs/metrics.md,
    "Failure attribution"). `misheard` is absent on text runs."""

    counts: dict[str, int]
    shares: dict[str, Rate]
    wrong_fields: int
    simulator_share: Rate = Field(
        description="Share of `asked_not_understood`: a validity figure, an upper bound on "
        "the wrong fields the simulated caller's understanding is to blame for."
    )


class Deterministic(_Block):
    pass_at_1: Rate
    pass_at_k: Rate
    reliable_at_k: Rate
    afa: Rate
    AV: Rate


class Intervals(_Block):
    pass_at_1: list[float] | None
    pass_at_k: list[float] | None
    reliable_at_k: list[float] | None
    afa: list[float] | None


class CorrectionUptake(_Block):
    afa_corrected_fields: Rate
    corrected_fields: int
    afa_other_fields: Rate
    other_fields: int
    gap_points: float | None
    av_failures: int
    av_failures_correction_linked: int
    correction_linked_share: Rate


class Timing(_Block):
    median_time_to_resolution_ms: float | None
    resolved_runs: int
    median_termination_ms_unsuccessful: float | None
    unsuccessful_runs: int


class Bootstrap(_Block):
    resamples: int
    seed: int
    unit: str


class WorkflowsBlock(_Block):
    k: int
    items: int
    runs: int
    pass_at_1: Rate
    pass_at_k: Rate
    reliable_at_k: Rate
    afa: Rate
    afa_deterministic: Rate
    fields_graded: int
    unsupported_values: UnsupportedValues
    attribution: Attribution | None = Field(
        None,
        description="Null when a wrong field has no recorded cause (scored before failure "
        "attribution; absent from older summaries).",
    )
    gates: dict[str, Rate]
    k_of_n: dict[str, int]
    tool_efficiency: float | None
    deterministic: Deterministic
    ci95: Intervals
    correction_uptake: CorrectionUptake
    timing: Timing
    bootstrap: Bootstrap


class FloorBlock(_Block):
    yield_rate: Rate
    ended_naturally_rate: Rate
    ended_naturally: int
    barge_ins: int
    median_stop_latency_ms: float | None
    unintended_overlap_rate: Rate
    unintended_overlaps: int
    agent_turns: int


class RepairBlock(_Block):
    """What careful listening cost: the caller's repairs (docs/metrics.md, "Repairs")."""

    episodes: int
    episodes_with_repairs: int
    turns_per_episode: float | None
    seconds_per_episode: float | None
    share_of_call_time: Rate
    kinds: dict[str, int]
    over_budget: int


class Tokens(_Block):
    input_tokens: int
    output_tokens: int
    input_audio_tokens: int
    output_audio_tokens: int


class UsageBlock(_Block):
    tokens: Tokens
    audio_in_s: float
    audio_out_s: float
    cost_usd: float | None


class SimulatorIdentity(_Block):
    """The simulated user's version and its act observer's layers (docs/simulator.md)."""

    simulator: str
    observer: str
    version: str
    model: str | None = None
    weights: str | None = None
    llm: str | None = None
    llm_prompt: str | None = None


class WorkflowRunSummary(_Run):
    family: Literal["workflow"] = "workflow"
    tampered: int = Field(description="Episodes whose trace failed the replay check.")
    workflows: WorkflowsBlock
    floor: FloorBlock | None
    repairs: RepairBlock | None = None
    usage: UsageBlock
    simulator: SimulatorIdentity | None = None


# -- actions -----------------------------------------------------------------


class Quartiles(_Block):
    median: float | None
    q1: float | None
    q3: float | None
    n: int


class ActionRates(_Block):
    immediate: Rate
    n: int
    n_na: int
    subsequent: Rate
    n_s: int
    follow_through_failure: Rate
    subsequent_judge: Rate = None
    n_s_judge: int | None = None
    follow_through_failure_judge: Rate = None
    errors: int
    yield_latency_ms: Quartiles | None = None
    recovery_latency_ms: Quartiles | None = None
    interruption_timing_difference_ms: Quartiles | None = None


class ScenarioRates(_Block):
    immediate: Rate
    n: int
    subsequent: Rate
    n_s: int
    subsequent_judge: Rate = None
    n_s_judge: int | None = None


class Latency(_Block):
    mean: float | None
    median: float | None
    q1: float | None
    q3: float | None
    n: int


class FdbTask(_Block):
    n: int
    tor: float
    tor_better: str
    latency_ms: Latency | None = None
    backchannel_per_s: float | None = None


class ActionsBlock(_Block):
    episodes: int
    errors: int
    per_action: dict[str, ActionRates]
    per_condition: dict[str, ActionRates]
    by_scenario: dict[str, dict[str, ScenarioRates]]
    cues_forced: int
    asr_transcribed: int
    fdb_v1: dict[str, FdbTask]


class ActionRunSummary(_Run):
    family: Literal["action"]
    repeats: int
    seed: int
    actions: ActionsBlock


RunSummary = WorkflowRunSummary | ActionRunSummary
_ADAPTER: TypeAdapter[RunSummary] = TypeAdapter(RunSummary)


def parse_summary(data: Any) -> RunSummary:
    """A summary as its typed model; pydantic's ValidationError names what does not fit."""
    if isinstance(data, dict) and data.get("family") == "action":
        return ActionRunSummary.model_validate(data)
    return WorkflowRunSummary.model_validate(data)


def summary_data(summary: RunSummary) -> dict[str, Any]:
    """The JSON form of a summary as written to summary.json: the keys it was built
    with (an optional block it never had stays absent)."""
    return summary.model_dump(mode="json", exclude_unset=True)


def summary_schema() -> dict[str, Any]:
    schema = _ADAPTER.json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "duplexbench run summary (summary.json)"
    return schema


if __name__ == "__main__":
    print(json.dumps(summary_schema(), indent=2))
