"""Optional second pass over extracted candidates: an LLM judge confirms each one.

The structural filters only see timings and a few words; a judge reads the
transcript excerpt around a candidate (both speakers, roles marked) and
answers whether it is a genuine instance of its condition. Candidates it
rejects, or that it could not judge (endpoint down, reply out of format),
move to the report's rejections with the reason, so a failed judge never
lets an unverified candidate through.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from duplexbench.items import ActionItem
from duplexbench.suites.actions.extract import ExtractionReport, Rejection
from duplexbench.yesno import JudgeUnavailable, ask_yes_no

SYSTEM_PROMPT = """\
You check candidate examples mined automatically from transcribed two-party conversations.
Each candidate names a turn-taking condition, defines it, and gives a transcript excerpt
with times in seconds; the speaker marked (user) is the user and the one marked (agent)
is the role an AI voice agent will play. Decide whether the excerpt is a genuine, clean
instance of the condition as defined, judging only from the excerpt. If in doubt, answer NO.
Reply with strict JSON only: {"answer": "YES" or "NO", "reason": "<one sentence>"}"""

DEFINITIONS: dict[str, str] = {
    "wait.intra_sentential_pause": (
        "the user pauses in the middle of an unfinished sentence and will go on, so the "
        "listener should stay silent through the pause"
    ),
    "wait.inter_sentential_pause": (
        "the user pauses between two sentences but keeps the floor and goes on, so the "
        "listener should stay silent through the pause"
    ),
    "wait.continuous_speech": (
        "the user talks continuously for several seconds without yielding the floor, so the "
        "listener should stay silent"
    ),
    "backchannel.affirmative": (
        "while the user keeps talking, the listener gives a short acknowledging backchannel "
        "(e.g. 'yeah', 'mm-hmm') without taking the floor"
    ),
    "backchannel.uncertainty": (
        "while the user keeps talking, the listener gives a short backchannel that signals "
        "doubt or surprise (e.g. 'hmm?', 'really?') without taking the floor"
    ),
    "take_turn.immediate": (
        "the user finishes a turn and the agent takes the floor within half a second"
    ),
    "take_turn.delayed": (
        "the user finishes a turn and the agent takes the floor after a noticeable gap "
        "(up to three seconds); the user did not mean to continue"
    ),
    "take_turn.slight_overlap": (
        "the agent takes the floor just before the user finishes (an overlap of at most "
        "one second), as a natural turn transition rather than an interruption"
    ),
    "stop.direct_interruption": (
        "while the agent is speaking, the user deliberately interrupts to take the floor, "
        "so the agent should stop talking"
    ),
}


class CandidateJudge(Protocol):
    """Confirms or rejects one candidate; returns (accepted, reason)."""

    def verify(self, item: ActionItem, transcript: str) -> tuple[bool, str]: ...


def judge_prompt(item: ActionItem, transcript: str) -> str:
    """The user message for one candidate: its condition, the definition, the excerpt."""
    definition = DEFINITIONS.get(item.condition, item.condition)
    return (
        f"CONDITION: {item.condition}\n"
        f"DEFINITION: {definition}\n"
        f"SCENE: {item.context}\n"
        f"TRANSCRIPT EXCERPT:\n{transcript}\n\n"
        "Is this excerpt a genuine, clean instance of the condition?"
    )


class OpenAICandidateJudge:
    """Any OpenAI-compatible `/chat/completions` endpoint, temperature 0.

    Raises :class:`JudgeUnavailable` when the request fails or the reply is
    not `{"answer": "YES"|"NO", "reason": ...}`.
    """

    def __init__(
        self, model: str, base_url: str, api_key: str | None = None, timeout_s: float = 60.0
    ) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout_s = timeout_s

    def verify(self, item: ActionItem, transcript: str) -> tuple[bool, str]:
        answer = ask_yes_no(
            self.base_url,
            self.model,
            SYSTEM_PROMPT,
            judge_prompt(item, transcript),
            api_key=self.api_key,
            timeout_s=self.timeout_s,
        )
        return answer.answer, answer.reason


def verify_candidates(report: ExtractionReport, judge: CandidateJudge) -> ExtractionReport:
    """Keep the items the judge accepts; the others become rejections with its reason.

    A judge that raises :class:`JudgeUnavailable` rejects the candidate
    (reason `judge: unavailable`), so nothing unverified is kept.
    """
    kept: list[ActionItem] = []
    rejections = list(report.rejections)
    for item in report.items:
        try:
            accepted, why = judge.verify(item, report.transcripts.get(item.id, ""))
        except JudgeUnavailable as exc:
            rejections.append(
                Rejection(item.source_ref, item.condition, "judge: unavailable", str(exc))
            )
            continue
        if accepted:
            kept.append(item)
        else:
            rejections.append(Rejection(item.source_ref, item.condition, "judge: rejected", why))
    transcripts = {i.id: report.transcripts[i.id] for i in kept if i.id in report.transcripts}
    return replace(report, items=tuple(kept), rejections=tuple(rejections), transcripts=transcripts)
