"""A person on the line (`HumanEpisode`), on a virtual clock with a scripted caller: the
caller's words are read by ASR and scored as a simulated caller's plans are, tool
calls wait for the caller's words, and a call that drops is incomplete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from duplexbench.agents import (
    AgentEvent,
    AudioDelta,
    AudioSession,
    ResponseDone,
    ToolCallRequest,
    ToolResultMessage,
    TranscriptDelta,
    get_agent,
)
from duplexbench.audio import AudioFrame, StreamingVad
from duplexbench.items import WorkflowItem, item_checksum
from duplexbench.orchestrator import (
    HUMAN_CONDITION,
    EpisodeRecord,
    EpisodeSetup,
    HumanCallConfig,
    HumanEpisode,
    VirtualClock,
)
from duplexbench.scoring import score_episode
from duplexbench.speech import SpeechBank
from support.fixtures import fixture_item
from support.scripted_phone import EXPENSE_OPENING, EXPENSE_REPLIES, ScriptedPhone

pytest.importorskip("faster_whisper")
pytest.importorskip("piper")

ITEM = "form-expense-correction"
OPENING, REPLIES = EXPENSE_OPENING, EXPENSE_REPLIES
CONFIG = HumanCallConfig(asr_in_thread=False, time_limit_ms=180_000)


def call(item: WorkflowItem, agent: Any, phone: ScriptedPhone) -> EpisodeRecord:
    setup = EpisodeSetup(item, item_checksum(item), "tests", "test-agent", HUMAN_CONDITION)
    episode = HumanEpisode(setup, agent, SpeechBank(), phone, config=CONFIG, clock=VirtualClock())
    return episode.run()


def of_type(record: EpisodeRecord, kind: str) -> list[Any]:
    return [e for e in record.events if e.type == kind]


def test_a_scripted_person_completes_the_correction_item_with_the_reference_agent() -> None:
    info, spec = get_agent("reference?listen=plain")  # the script answers its plain questions
    phone = ScriptedPhone(SpeechBank(), OPENING, list(REPLIES))
    record = call(fixture_item(ITEM), info.create(spec, "audio"), phone)
    assert record.end_reason == "agent_ended", [e.data for e in of_type(record, "user.utterance")]
    plans = [p for e in of_type(record, "user.utterance") for p in e.data.plan_ids]
    assert plans[:2] == ["open", "answer:employee_id"]
    assert "event:fix_total" in plans and "approve:approve_submit" in plans
    assert [e.data.fact for e in of_type(record, "fact.revealed")][-2:] == [
        "total_amount_v2",
        "cost_center",
    ]
    assert record.state.artifacts["expense"].fields["total_amount"] == 200
    score = score_episode(fixture_item(ITEM), record.events)
    assert score.status == "ok"
    assert {g: ok for g, ok in score.gates.items() if g != "AV"} == {
        "TS": True,
        "PV": True,
        "AC": True,
    }
    wrong = {f.field for f in score.fields if f.score < 1}
    assert wrong <= {"trip_purpose"}  # ASR hears "onsite" as "on site" (the agent's miss)
    assert phone.cards[0].lines and phone.agent_samples > 0
    assert of_type(record, "episode.condition")[0].data.condition == HUMAN_CONDITION


FIELDS = {
    "employee_id": "E1042",
    "trip_purpose": "client onsite",
    "expense_date": "2026-03-05",
    "total_amount": 240,
    "cost_center": "CC-330",
}


class EagerCommitter:
    """Asks to submit, then submits 100 ms after the caller stops talking: before the
    harness has read the caller's yes (its end of turn is 700 ms)."""

    def __init__(self) -> None:
        self.ear = StreamingVad(hangover_ms=100)
        self.session: AudioSession | None = None
        self.asked = False
        self.issued_at: int | None = None

    def start(self, session: AudioSession) -> None:
        self.session = session

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        assert self.session is not None and self.session.speech is not None
        was = self.ear.speaking
        self.ear.push(frame.samples)
        if not self.asked:
            self.asked = True
            text = "The report is ready. Shall I submit the expense report now?"
            audio = self.session.speech.synthesize(text)
            fill = ToolCallRequest("update_expense", {"fields": FIELDS}, "c1")
            ready = ToolCallRequest("mark_expense_ready", {}, "c2")
            return [fill, ready, TranscriptDelta(text), AudioDelta(audio), ResponseDone()]
        if was and not self.ear.speaking and self.issued_at is None:
            self.issued_at = frame.t_ms
            return [ToolCallRequest("submit_expense", {}, "c3")]
        return []

    def close(self) -> None:
        self.session = None


def test_tool_calls_wait_for_the_callers_words_so_a_spoken_yes_is_in_force() -> None:
    agent = EagerCommitter()
    phone = ScriptedPhone(
        SpeechBank(), None, [("submit", "Yes, go ahead and submit it.")], hang_up_after_ms=12_000
    )
    record = call(fixture_item(ITEM), agent, phone)
    granted = of_type(record, "approval.granted")
    submit = [e for e in of_type(record, "tool.call") if e.data.name == "submit_expense"]
    assert agent.issued_at is not None and granted and len(submit) == 1
    assert submit[0].t_ms > agent.issued_at  # held while the caller's words were unread
    assert submit[0].t_ms >= granted[0].t_ms
    assert of_type(record, "action.executed") and not of_type(record, "action.blocked")
    assert record.end_reason == "user_ended"


def test_a_call_whose_page_drops_is_incomplete_and_never_a_pass() -> None:
    info, spec = get_agent("reference")
    phone = ScriptedPhone(SpeechBank(), OPENING, list(REPLIES), drop_after_ms=3_000)
    record = call(fixture_item(ITEM), info.create(spec, "audio"), phone)
    assert record.end_reason == "error" and record.error_kind == "harness"
    assert record.error is not None and "CallerGone" in record.error
    score = score_episode(fixture_item(ITEM), record.events)
    assert score.status == "error" and not score.ws
