"""The action item: one DuplexAct-style interaction instance.

An action item is a fixed user-side audio timeline (segments of addressed
user speech, other-directed speech and background speech, each with exact
start/end ms) plus the annotations its condition needs to be scored. Its
taxonomy is DuplexAct's: L0 participation (speak / silence), L1 the eight
actions, L2 the 24 conditions (see :data:`CONDITIONS`).

Direct-replay actions (wait, ignore, take_turn, backchannel) play the whole
timeline from t = 0. Simulator-replay actions (stop, hold_floor, recover)
play the `main` segments (the lead-in that elicits an agent response), and
their `cue` segments are placed when the cue-injection controller fires:
cue times are relative to the cue onset. Interrupt plays the `main`
timeline and stops the user once the agent takes over.
See docs/formats/action.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from duplexbench.items._base import Identifier, StrictModel

ACTION_FORMAT_VERSION: Literal["1"] = "1"

Action = Literal[
    "wait", "ignore", "take_turn", "backchannel", "stop", "hold_floor", "recover", "interrupt"
]
Scenario = Literal["casual_conversation", "meeting", "customer_service", "interview"]
SCENARIOS: tuple[Scenario, ...] = (
    "casual_conversation",
    "meeting",
    "customer_service",
    "interview",
)

CONDITIONS: dict[Action, tuple[str, ...]] = {
    "wait": ("intra_sentential_pause", "inter_sentential_pause", "continuous_speech"),
    "ignore": ("other_directed_speech", "background_speech"),
    "take_turn": ("immediate", "delayed", "slight_overlap"),
    "backchannel": ("affirmative", "uncertainty"),
    "stop": ("direct_interruption",),
    "hold_floor": (
        "continue",
        "shorten",
        "simplify",
        "other_directed_speech",
        "background_speech",
    ),
    "recover": ("wrap_up", "repeat", "ask_follow_up", "enrich", "shift_topic", "revise"),
    "interrupt": ("help", "safety"),
}
"""L1 action -> L2 conditions, exactly as DuplexAct Table 6 lists them."""

ACTIONS: tuple[Action, ...] = tuple(CONDITIONS)
CONDITION_IDS: tuple[str, ...] = tuple(f"{a}.{c}" for a, cs in CONDITIONS.items() for c in cs)
PARTICIPATION: dict[Action, Literal["silence", "speak"]] = {
    "wait": "silence",
    "ignore": "silence",
    "stop": "silence",
    "take_turn": "speak",
    "backchannel": "speak",
    "hold_floor": "speak",
    "recover": "speak",
    "interrupt": "speak",
}
"""L0: whether the right action is to stay silent or to speak."""

Replay = Literal["direct", "simulator"]
REPLAY: dict[Action, Replay] = {
    "wait": "direct",
    "ignore": "direct",
    "take_turn": "direct",
    "backchannel": "direct",
    "stop": "simulator",
    "hold_floor": "simulator",
    "recover": "simulator",
    "interrupt": "simulator",
}
CUED: frozenset[str] = frozenset({"stop", "hold_floor", "recover"})
"""Actions whose user intervention is a cue injected while the agent speaks."""

TAKE_TURN_WINDOWS: dict[str, tuple[int, int]] = {
    "immediate": (0, 500),
    "delayed": (0, 3000),
    "slight_overlap": (-1000, 500),
}
"""Take Turn response windows (ms, relative to the end of user speech)."""

Role = Literal["user", "other", "background"]
"""`user`: addressed speech; `other`: the user talking to someone else (same voice,
off-axis); `background`: a distant third party (another voice)."""

Adaptation = Literal[
    "continue",
    "shorten",
    "simplify",
    "ignore_distractor",
    "wrap_up",
    "repeat",
    "ask_follow_up",
    "enrich",
    "shift_topic",
    "revise",
]


def action_of(condition: str) -> Action:
    action = condition.partition(".")[0]
    if action not in CONDITIONS:
        raise ValueError(f"unknown action in condition {condition!r}")
    return action


_ADAPTATION_OF: dict[str, Adaptation] = {
    "hold_floor.continue": "continue",
    "hold_floor.shorten": "shorten",
    "hold_floor.simplify": "simplify",
    "hold_floor.other_directed_speech": "ignore_distractor",
    "hold_floor.background_speech": "ignore_distractor",
    "recover.wrap_up": "wrap_up",
    "recover.repeat": "repeat",
    "recover.ask_follow_up": "ask_follow_up",
    "recover.enrich": "enrich",
    "recover.shift_topic": "shift_topic",
    "recover.revise": "revise",
}


def adaptation_of(condition: str) -> Adaptation | None:
    """The adaptation a Hold Floor / Recover condition requires (None for the others)."""
    return _ADAPTATION_OF.get(condition)


class Span(StrictModel):
    """A time interval in ms, `start_ms <= end_ms`."""

    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end_ms < self.start_ms:
            raise ValueError(f"end_ms {self.end_ms} is before start_ms {self.start_ms}")
        return self


class Segment(Span):
    """One stretch of speech on the user channel."""

    id: Identifier
    role: Role
    text: str = Field(min_length=1)
    voice: str = Field(min_length=3, description="TTS voice `engine:voice`, e.g. `piper:joe`.")
    part: Literal["main", "cue"] = Field(
        "main", description="`cue`: placed at the cue onset; its times are relative to it."
    )


class Annotations(StrictModel):
    """What a condition needs to be scored; absolute ms unless noted."""

    wait_interval: Span | None = Field(
        None, description="Wait: the pause (or, for continuous speech, the whole user speech)."
    )
    distractor_interval: Span | None = Field(
        None, description="Ignore: the speech not meant for the agent."
    )
    user_end_ms: int | None = Field(
        None, ge=0, description="Take Turn: end of the user speech the windows are relative to."
    )
    response_window: tuple[int, int] | None = Field(
        None, description="Take Turn: (from, to) ms relative to `user_end_ms`."
    )
    backchannel_span: Span | None = Field(
        None, description="Backchannel: the user speech a backchannel belongs inside."
    )
    target_point_ms: int | None = Field(
        None, ge=0, description="Interrupt: the authored moment an intervention is due."
    )
    adaptation: Adaptation | None = Field(
        None, description="Hold Floor / Recover: what the agent's speech after the cue must do."
    )
    reference_response: str = Field("", description="A response that would follow through.")
    expected_terms: list[str] = Field(
        default_factory=list,
        description="Words a follow-through is expected to use (offline heuristics).",
    )
    ignored_terms: list[str] = Field(
        default_factory=list,
        description="Words only the ignored speech contains; using them shows it shaped the reply.",
    )


class ActionItem(StrictModel):
    """An interaction-action instance (see docs/formats/action.md)."""

    family: Literal["action"] = "action"
    format: Literal["1"] = ACTION_FORMAT_VERSION
    id: Identifier
    version: str = Field(min_length=1, max_length=40)
    condition: str = Field(description="`action.condition`, one of the 24 (DuplexAct Table 6).")
    scenario: Scenario
    source: Literal["synthesized", "extracted"] = "synthesized"
    source_ref: str = Field("", description="Where an extracted item came from (corpus, span).")
    topic: str = Field(min_length=1)
    setting: str = Field("", description="Physical setting (Ignore / Hold Floor / hazards).")
    context: str = Field(
        min_length=1, description="What the agent is told about the scene; never the action."
    )
    segments: list[Segment] = Field(min_length=1)
    annotations: Annotations = Field(default_factory=Annotations)

    @model_validator(mode="after")
    def _known_condition(self) -> ActionItem:
        if self.condition not in CONDITION_IDS:
            raise ValueError(f"unknown condition {self.condition!r}; expected one of the 24")
        return self

    @property
    def action(self) -> Action:
        return action_of(self.condition)

    @property
    def replay(self) -> Replay:
        return REPLAY[self.action]

    def part(self, part: Literal["main", "cue"]) -> list[Segment]:
        return sorted((s for s in self.segments if s.part == part), key=lambda s: s.start_ms)

    @property
    def main_end_ms(self) -> int:
        return max((s.end_ms for s in self.part("main")), default=0)

    @property
    def cue_duration_ms(self) -> int:
        return max((s.end_ms for s in self.part("cue")), default=0)

    def user_span(self) -> Span | None:
        """First start to last end of the addressed (`user`) main speech."""
        users = [s for s in self.part("main") if s.role == "user"]
        if not users:
            return None
        return Span(start_ms=users[0].start_ms, end_ms=max(s.end_ms for s in users))
