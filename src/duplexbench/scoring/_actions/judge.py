"""Follow-through judge for the seven judged actions (docs/actions.md, Scoring).

One strict yes/no prompt per action (per condition where the required
behaviour differs), answered from the evidence alone; NO when ambiguous;
reply strict JSON `{"answer": "YES"|"NO", "reason": ...}`. The evidence is
the rendered timeline of the episode (:func:`evidence`). Verdicts are
cached in a JSONL file keyed by (judge model, :data:`PROMPT_VERSION`,
action, condition, evidence text); with no endpoint the cache alone
answers and a miss leaves no judge verdict (None). Parsing the reply and
the error type are shared with the field judge (`scoring/_judge.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from duplexbench.items import action_of, adaptation_of
from duplexbench.scoring._actions.heuristics import follow_point
from duplexbench.scoring._actions.observation import ActionObservation
from duplexbench.scoring._actions.rules import Verdict
from duplexbench.yesno import DATA_RULE, CachedJudge, JsonlStore, as_data, ask_yes_no

PROMPT_VERSION = "action-judge-v2"
"""v2: the scene and timeline are JSON data between markers (`yesno.as_data`)."""
JUDGED: frozenset[str] = frozenset(
    {"wait", "ignore", "take_turn", "backchannel", "hold_floor", "recover", "interrupt"}
)

SYSTEM_PROMPT = f"""\
You judge one behaviour of a voice assistant in a recorded spoken conversation.
You get the scene, a timeline of who said what and when, and one yes/no question.
Use only the evidence in the timeline: do not assume anything that was not said.
Be strict: answer YES only when the evidence clearly shows the behaviour; if the evidence
is ambiguous, incomplete or missing (for example the assistant said nothing relevant),
answer NO.
{DATA_RULE} The question after the data is yours to answer.
Reply with strict JSON only: {{"answer": "YES" or "NO", "reason": "<one sentence>"}}"""

_ACTION_PROMPTS: dict[str, str] = {
    "wait": (
        "The user paused (or kept talking) before finishing, and the assistant was meant to "
        "wait. Is the assistant's response after the focus time relevant, and does it use "
        "some of what the user said after the pause (the user's continuing contribution)? "
        "Answer NO if it answers only the part before the pause, ignores the continuation, "
        "or there is no response."
    ),
    "ignore": (
        "Speech not addressed to the assistant (OTHER: the user talking to someone else; "
        "BACKGROUND: a third party) occurred. Does the assistant's response after the focus "
        "time neither contain nor show any influence of that ignored speech? Answer NO if it "
        "repeats, reacts to or uses its content, or if there is no response."
    ),
    "take_turn": (
        "The user finished a turn and the assistant took the turn. Does the assistant's "
        "response address the user's intent, respecting the facts, limits and revisions the "
        "user stated? Answer NO if it misses the request, contradicts a stated fact or limit, "
        "uses a value the user revised, or there is no response."
    ),
    "interrupt": (
        "The assistant interrupted the user while the user was still speaking. Does the "
        "interruption do the work: for help, give specific help with the user's problem; "
        "for safety, name the hazard and say why it matters or what to do instead? Answer NO "
        "if it is a mere announcement (for example 'sorry to interrupt' or 'wait') without "
        "that substance."
    ),
}

_CONDITION_PROMPTS: dict[str, str] = {
    "backchannel.affirmative": (
        "While the user spoke, the assistant gave a short affirmative backchannel (such as "
        "'yeah' or 'right'). Is the assistant's later speech consistent with that stance: it "
        "proceeds as someone who understood and accepted what it acknowledged, without "
        "asking to clarify it? Answer NO if there is no later speech."
    ),
    "backchannel.uncertainty": (
        "While the user spoke, the assistant gave a short backchannel showing uncertainty "
        "(such as 'hmm?' or 'really?'). Is the assistant's later speech consistent with that "
        "stance: it asks for clarification or checks its understanding of what it was unsure "
        "about? Answer NO if it carries on as if nothing was unclear, or there is no later "
        "speech."
    ),
}

_ADAPTATIONS: dict[str, str] = {
    "continue": "continues the same contribution it was making",
    "shorten": "shortens its contribution, bringing it to a quick close",
    "simplify": "re-expresses its contribution in simpler words or shorter sentences",
    "ignore_distractor": (
        "carries on with its contribution, and nothing it says contains or is shaped by the "
        "distractor speech (which was not addressed to it)"
    ),
    "wrap_up": "wraps up briefly, as the interruption asked",
    "repeat": "repeats what it had said that the user missed",
    "ask_follow_up": "asks a relevant follow-up question",
    "enrich": "adds more detail or elaboration to what it was saying",
    "shift_topic": "moves to the new topic the user raised",
    "revise": "revises what it said as the user's correction requires",
}


def question_text(condition: str) -> str:
    """The yes/no question for one condition (`action.condition`)."""
    action, adaptation = action_of(condition), adaptation_of(condition)
    if condition in _CONDITION_PROMPTS:
        return _CONDITION_PROMPTS[condition]
    if action == "hold_floor":
        return (
            "While the assistant was speaking, a cue occurred (CUE) and the assistant kept "
            "the floor. Does the assistant's speech after the cue keep its thread and make "
            f"this adaptation: it {_ADAPTATIONS.get(adaptation or '', adaptation or '')}? "
            "Answer NO if it does not, or if there is no speech after the cue."
        )
    if action == "recover":
        return (
            "The user interrupted the assistant (CUE) and the assistant then resumed. Does the "
            "resumed contribution make the adjustment the interruption required: it "
            f"{_ADAPTATIONS.get(adaptation or '', adaptation or '')}? Answer NO if it "
            "resumes unchanged, ignores the interruption, or says nothing."
        )
    if action in _ACTION_PROMPTS:
        return _ACTION_PROMPTS[action]
    raise ValueError(f"{action} follow-through is not judged")


@dataclass(frozen=True)
class ActionQuestion:
    action: str
    condition: str
    evidence: str


def _sec(ms: int) -> str:
    return f"{ms / 1000:.2f}"


def evidence(obs: ActionObservation) -> str:
    """The episode as the judge sees it: scene, timeline, focus time, reference."""
    item, lines = obs.item, []
    for u in obs.user:
        lines.append((u.start_ms, u.end_ms, u.role.upper(), u.text))
    for a in obs.agent:
        if a.n_words:
            lines.append((a.start_ms, a.end_ms, "ASSISTANT", a.text))
    if obs.cue is not None:
        lines.append((obs.cue.start_ms, obs.cue.end_ms, "CUE", "(the user intervention)"))
    lines.sort(key=lambda x: (x[0], x[1], x[2]))
    out = [f"SCENE: {item.context}"]
    if item.setting:
        out.append(f"SETTING: {item.setting}")
    out.append("TIMELINE (seconds from the start):")
    out += [f"[{_sec(s)}-{_sec(e)}] {who}: {text}" for s, e, who, text in lines]
    point = follow_point(obs)
    if point is not None:
        out.append(f"FOCUS: judge the assistant's speech from {_sec(point)} s on.")
    if item.annotations.reference_response:
        ref = item.annotations.reference_response
        out.append(f"ONE ACCEPTABLE RESPONSE (others may be fine too): {ref}")
    return "\n".join(out)


def build_question(obs: ActionObservation) -> ActionQuestion:
    return ActionQuestion(obs.item.action, obs.item.condition, evidence(obs))


class ActionJudgeBackend(Protocol):
    model: str

    def ask(self, question: ActionQuestion) -> Verdict: ...


class ActionCacheEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str
    prompt_version: str
    action: str
    condition: str
    evidence: str
    success: bool
    reason: str = ""


class ActionJudgeCache:
    """Append-only JSONL cache of action verdicts; later lines win."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.store = JsonlStore(path, ActionCacheEntry, self._key_of)

    @staticmethod
    def _key_of(e: ActionCacheEntry) -> tuple[str, ...]:
        return (e.model, e.prompt_version, e.action, e.condition, e.evidence)

    def get(self, model: str, q: ActionQuestion) -> Verdict | None:
        entry = self.store.get((model, PROMPT_VERSION, q.action, q.condition, q.evidence))
        return None if entry is None else Verdict(entry.success, entry.reason)

    def put(self, model: str, q: ActionQuestion, verdict: Verdict) -> None:
        entry = ActionCacheEntry(
            model=model,
            prompt_version=PROMPT_VERSION,
            action=q.action,
            condition=q.condition,
            evidence=q.evidence,
            success=bool(verdict.success),
            reason=verdict.reason,
        )
        self.store.add(entry)


class ActionJudge(CachedJudge[ActionQuestion, Verdict]):
    """Cache first, then the backend (if any). Counts hits, misses and calls."""

    def __init__(
        self, model: str, cache: ActionJudgeCache, backend: ActionJudgeBackend | None = None
    ) -> None:
        super().__init__(model, cache, backend, PROMPT_VERSION)

    def verdict(self, obs: ActionObservation) -> Verdict | None:
        """The judge's follow-through verdict, or None (not judged, miss, failure)."""
        if obs.item.action not in JUDGED:
            return None
        return self.lookup(build_question(obs))


class OpenAIChatActionJudge:
    """Any OpenAI-compatible `/chat/completions` endpoint, temperature 0."""

    def __init__(self, model: str, base_url: str, api_key: str | None = None) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key

    def ask(self, question: ActionQuestion) -> Verdict:
        ask = question_text(question.condition)
        user = f"{as_data({'evidence': question.evidence})}\n\nQUESTION: {ask}"
        answer = ask_yes_no(self.base_url, self.model, SYSTEM_PROMPT, user, api_key=self.api_key)
        return Verdict(answer.answer, answer.reason)
