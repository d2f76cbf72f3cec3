"""Generate actions-v1 items from templates, with exact timing.

`generate_actions(seed, per_condition, duration_ms)` makes `per_condition`
items for each of the 24 conditions, spread evenly over the four scenarios
(item i of a condition goes to scenario i mod 4). Within a (condition,
scenario) the five topics and ten settings are taken in a seeded order, and
every other choice (openers, cue wording, pause lengths, gaps) comes from a
per-item `random.Random` seeded by the item's identity: same seed, same
items, and no global random state.

Timing is exact by construction: each segment lasts exactly
`duration_ms(text, voice)` (the trimmed TTS rendering) and every pause is
placed in whole ms, so the annotations are exact. The main timeline starts
at 500 ms; cue segments (Stop, Hold Floor, Recover) are timed from the cue
onset. `duration_ms` is only asked about texts that end up in a segment.
Every item is checked with `check_action_item`; a problem is a generator
bug and raises ValueError.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from duplexbench.items import (
    CONDITION_IDS,
    SCENARIOS,
    TAKE_TURN_WINDOWS,
    ActionItem,
    Annotations,
    Role,
    Scenario,
    Segment,
    Span,
    action_of,
    adaptation_of,
    check_action_item,
)
from duplexbench.suites.actions import templates as t
from duplexbench.suites.actions.templates.model import (
    Setting,
    Situation,
    Topic,
    halves,
    only_in,
    plain,
    starred,
)

DurationFn = Callable[[str, str], int]
"""(text, voice) -> ms of the trimmed TTS rendering."""

VERSION = "1"
VOICES: tuple[str, ...] = ("piper:joe", "flite:slt", "flite:rms", "flite:awb")
START_MS = 500
PAUSES_MS: tuple[int, ...] = (1000, 1200, 1500, 2000)
"""Wait pauses (intra- and inter-sentential)."""
CONTINUOUS_GAPS_MS: tuple[int, ...] = (150, 200, 250, 300)
NARRATION_GAPS_MS: tuple[int, ...] = (300, 400, 500, 600)
TURN_GAPS_MS: tuple[int, ...] = (250, 350, 450)
DISTRACTOR_GAPS_MS: tuple[int, ...] = (300, 450, 600)
BACKGROUND_ONSETS_MS: tuple[int, ...] = (-300, -150, 0, 200, 400)
"""Background onset relative to the end of the user's first segment (< 0: overlap)."""
RESUME_ONSETS_MS: tuple[int, ...] = (-250, 0, 250, 500)
"""User resumption relative to the end of the background speech."""
CUE_GAPS_MS: tuple[int, ...] = (200, 300, 400)
MIN_CONTINUOUS_MS = 6000
MIN_BACKCHANNEL_MS = 8000
MIN_INTERRUPT_MS = 10000
MIN_AFTER_TARGET_MS = 3000
STOP_MORE_SHARE = 0.6
"""Share of Stop cues with a second segment after "Sorry, stop there..."."""

_T = TypeVar("_T")


@dataclass(frozen=True, eq=False)
class Slot:
    """Everything one item is made from."""

    condition: str
    scenario: Scenario
    number: int
    """1-based within (condition, scenario)."""
    topic: Topic
    setting: Setting
    situation: Situation
    variant: int
    """Which of a topic's template entries to use."""
    voice: str
    background: str
    rng: random.Random

    @property
    def name(self) -> str:
        return self.condition.partition(".")[2]

    def choice(self, options: Sequence[_T]) -> _T:
        return self.rng.choice(options)

    def pick(self, entries: Sequence[_T]) -> _T:
        return entries[self.variant % len(entries)]


@dataclass
class Draft:
    """The built timeline and annotations of one item."""

    segments: list[Segment]
    annotations: Annotations
    setting: str = ""
    where: str = ""


class _Timing:
    """`duration_ms`, asked once per (text, voice) and checked."""

    def __init__(self, duration_ms: DurationFn) -> None:
        self._fn = duration_ms
        self._known: dict[tuple[str, str], int] = {}

    def __call__(self, text: str, voice: str) -> int:
        key = (text, voice)
        if key not in self._known:
            ms = self._fn(text, voice)
            if not isinstance(ms, int) or ms <= 0:
                raise ValueError(f"duration_ms({text!r}, {voice!r}) = {ms!r}: need a positive int")
            self._known[key] = ms
        return self._known[key]


@dataclass
class _Track:
    """Segments laid out one after another; `gap` is ms after the previous end."""

    timing: _Timing
    voice: str
    part: Literal["main", "cue"] = "main"
    segments: list[Segment] = field(default_factory=list)
    cursor: int = -1

    def say(self, text: str, gap: int = 0, role: Role = "user", voice: str = "") -> Segment:
        if self.cursor < 0:
            self.cursor, gap = (START_MS if self.part == "main" else 0), 0
        start, voice = self.cursor + gap, voice or self.voice
        prefix = "s" if self.part == "main" else "c"
        seg = Segment(
            id=f"{prefix}{len(self.segments) + 1}",
            role=role,
            text=text,
            voice=voice,
            part=self.part,
            start_ms=start,
            end_ms=start + self.timing(text, voice),
        )
        self.segments.append(seg)
        self.cursor = seg.end_ms
        return seg

    def user_span(self) -> Span:
        users = [s for s in self.segments if s.role == "user"]
        return Span(start_ms=users[0].start_ms, end_ms=max(s.end_ms for s in users))


def generate_actions(seed: int, per_condition: int, duration_ms: DurationFn) -> list[ActionItem]:
    """`per_condition` checked items for each of the 24 conditions, deterministic in `seed`."""
    if per_condition < 0:
        raise ValueError(f"per_condition must be >= 0, got {per_condition}")
    timing = _Timing(duration_ms)
    items: list[ActionItem] = []
    for index, condition in enumerate(CONDITION_IDS):
        for slot in _slots(seed, index, condition, per_condition):
            item = _item(slot, _BUILDERS[action_of(condition)](slot, timing))
            problems = check_action_item(item)
            if problems:
                raise ValueError(f"generated an invalid item {item.id}: {problems}")
            items.append(item)
    return items


def _slots(seed: int, index: int, condition: str, per_condition: int) -> Iterator[Slot]:
    pool = t.HAZARDS if condition == "interrupt.safety" else t.HELP
    situations = random.Random(f"actions-v1:{seed}:{condition}").sample(pool, len(pool))
    orders: dict[Scenario, tuple[list[Topic], list[Setting], int]] = {}
    for scenario in SCENARIOS:
        group = random.Random(f"actions-v1:{seed}:{condition}:{scenario}")
        topics = list(t.TOPICS[scenario])
        orders[scenario] = (
            group.sample(topics, len(topics)),
            group.sample(t.SETTINGS, len(t.SETTINGS)),
            group.randrange(2),
        )
    for i in range(per_condition):
        scenario, number = SCENARIOS[i % len(SCENARIOS)], i // len(SCENARIOS) + 1
        topics, settings, base = orders[scenario]
        rng = random.Random(f"actions-v1:{seed}:{condition}:{scenario}:{number}")
        voice = VOICES[(index + SCENARIOS.index(scenario) + number) % len(VOICES)]
        yield Slot(
            condition=condition,
            scenario=scenario,
            number=number,
            topic=topics[(number - 1) % len(topics)],
            setting=settings[(number - 1) % len(settings)],
            situation=situations[i % len(situations)],
            variant=base + (number - 1) // len(topics),
            voice=voice,
            background=rng.choice([v for v in VOICES if v != voice]),
            rng=rng,
        )


def _item(slot: Slot, draft: Draft) -> ActionItem:
    action = action_of(slot.condition)
    context = t.CONTEXT[slot.scenario].format(about=slot.topic.about)
    if draft.where:
        context = f"{context} {t.WHERE.format(where=draft.where)}"
    return ActionItem(
        id=f"act-{action}-{slot.name}-{t.ABBREV[slot.scenario]}-{slot.number:02d}",
        version=VERSION,
        condition=slot.condition,
        scenario=slot.scenario,
        source="synthesized",
        topic=slot.topic.key,
        setting=draft.setting,
        context=context,
        segments=draft.segments,
        annotations=draft.annotations,
    )


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _span(seg: Segment) -> Span:
    return Span(start_ms=seg.start_ms, end_ms=seg.end_ms)


def _annotations(reply: str, **fields: Any) -> Annotations:
    """Annotations with `reply` as the reference response and its starred terms expected."""
    return Annotations(reference_response=plain(reply), expected_terms=starred(reply), **fields)


def _at_least(ms: int, minimum: int, slot: Slot, what: str) -> None:
    if ms < minimum:
        raise ValueError(
            f"{slot.condition}/{slot.scenario}/{slot.number}: {what} lasts {ms} ms, "
            f"under {minimum} ms; the templates are too short for these durations"
        )


def _wait(slot: Slot, timing: _Timing) -> Draft:
    track = _Track(timing, slot.voice)
    if slot.name == "continuous_speech":
        story = slot.pick(t.STORIES[slot.topic.key])
        for sentence in (*story.sentences, slot.choice(t.CLOSERS)):
            track.say(sentence, gap=slot.choice(CONTINUOUS_GAPS_MS))
        span = track.user_span()
        _at_least(span.end_ms - span.start_ms, MIN_CONTINUOUS_MS, slot, "continuous speech")
        return Draft(track.segments, _annotations(story.reply, wait_interval=span))
    table = t.SPLITS if slot.name == "intra_sentential_pause" else t.TWO_PART
    entry = slot.pick(table[slot.topic.key])
    head, tail = halves(entry.text)
    first = track.say(_join(slot.choice(t.OPENERS), head))
    second = track.say(tail, gap=slot.choice(PAUSES_MS))
    pause = Span(start_ms=first.end_ms, end_ms=second.start_ms)
    return Draft(track.segments, _annotations(entry.reply, wait_interval=pause))


def _ignore(slot: Slot, timing: _Timing) -> Draft:
    track = _Track(timing, slot.voice)
    entry = slot.pick(t.TWO_PART[slot.topic.key])
    head, tail = halves(entry.text)
    first = track.say(_join(slot.choice(t.OPENERS), head))
    if slot.name == "other_directed_speech":
        remark, tail = slot.choice(slot.setting.remarks), _join(slot.choice(t.RETURNS), tail)
        distractor = track.say(remark, gap=slot.choice(DISTRACTOR_GAPS_MS), role="other")
        last = track.say(tail, gap=slot.choice(DISTRACTOR_GAPS_MS))
    else:
        chatter = slot.choice(slot.setting.chatter)
        onset = slot.choice(BACKGROUND_ONSETS_MS)
        distractor = track.say(chatter, gap=onset, role="background", voice=slot.background)
        resume = max(slot.choice(RESUME_ONSETS_MS), first.end_ms + 300 - distractor.end_ms)
        last = track.say(tail, gap=resume)
    ignored = only_in(distractor.text, first.text, last.text, entry.reply)
    annotations = _annotations(
        entry.reply, distractor_interval=_span(distractor), ignored_terms=ignored
    )
    return Draft(track.segments, annotations, slot.setting.key, slot.setting.where)


def _take_turn(slot: Slot, timing: _Timing) -> Draft:
    track = _Track(timing, slot.voice)
    if slot.name == "immediate":
        entry = slot.pick(t.QUESTIONS[slot.topic.key])
        track.say(_join(slot.choice(t.QUESTION_OPENERS), entry.text))
    elif slot.name == "delayed":
        entry = slot.pick(t.PONDER[slot.topic.key])
        head, tail = halves(entry.text)
        track.say(_join(slot.choice(t.OPENERS), head))
        track.say(tail, gap=slot.choice(TURN_GAPS_MS))
    else:
        entry = slot.pick(t.TRAILING[slot.topic.key])
        track.say(_join(slot.choice(t.OPENERS), f"{entry.text}, {slot.choice(t.TRAILING_TAILS)}"))
    annotations = _annotations(
        entry.reply,
        user_end_ms=track.user_span().end_ms,
        response_window=TAKE_TURN_WINDOWS[slot.name],
    )
    return Draft(track.segments, annotations)


def _backchannel(slot: Slot, timing: _Timing) -> Draft:
    story = slot.pick(t.STORIES[slot.topic.key])
    sentences = list(story.sentences)
    if slot.name == "uncertainty":
        sentences.insert(story.puzzle_at, story.puzzle)
        reply = story.clarify
    else:
        reply = _join(slot.choice(t.AGREEING), story.reply)
    track = _Track(timing, slot.voice)
    for sentence in sentences:
        track.say(sentence, gap=slot.choice(NARRATION_GAPS_MS))
    span = track.user_span()
    _at_least(span.end_ms - span.start_ms, MIN_BACKCHANNEL_MS, slot, "the narration")
    return Draft(track.segments, _annotations(reply, backchannel_span=span))


def _cued(
    slot: Slot, timing: _Timing, lead_in: str, cues: Sequence[str], role: Role = "user"
) -> Draft:
    """A lead-in on the main timeline, then the cue segments; annotations to fill in."""
    main = _Track(timing, slot.voice)
    main.say(_join(slot.choice(t.OPENERS), lead_in))
    track = _Track(timing, slot.voice, part="cue")
    voice = slot.background if role == "background" else ""
    for n, cue in enumerate(cues):
        track.say(cue, gap=slot.choice(CUE_GAPS_MS) if n else 0, role=role, voice=voice)
    return Draft(main.segments + track.segments, Annotations())


def _stop(slot: Slot, timing: _Timing) -> Draft:
    explain = slot.pick(t.EXPLAINS[slot.topic.key])
    cues = [slot.choice(t.STOP_CUES)]
    if slot.rng.random() < STOP_MORE_SHARE:
        cues.append(slot.choice(t.STOP_MORE))
    draft = _cued(slot, timing, explain.question, cues)
    draft.annotations = _annotations(slot.choice(t.STOP_REPLIES))
    return draft


def _hold_floor(slot: Slot, timing: _Timing) -> Draft:
    explain = slot.pick(t.EXPLAINS[slot.topic.key])
    adaptation = adaptation_of(slot.condition)
    assert adaptation is not None
    role: Role = "user"
    if slot.name == "other_directed_speech":
        role, cue = "other", slot.choice(slot.setting.remarks)
    elif slot.name == "background_speech":
        role, cue = "background", slot.choice(slot.setting.chatter)
    else:
        cue = slot.choice(t.HOLD_CUES[slot.name])
    draft = _cued(slot, timing, explain.question, [cue], role)
    reply = slot.choice(t.HOLD_REPLIES[adaptation]).format(gist=explain.gist)
    ignored = only_in(cue, draft.segments[0].text, reply) if role != "user" else []
    draft.annotations = _annotations(reply, adaptation=adaptation, ignored_terms=ignored)
    draft.setting, draft.where = slot.setting.key, slot.setting.where
    return draft


def _recover(slot: Slot, timing: _Timing) -> Draft:
    explain = slot.pick(t.EXPLAINS[slot.topic.key])
    lead_in, name = explain.question, slot.name
    if name == "revise":
        revision = slot.pick(t.REVISIONS[slot.topic.key])
        lead_in, cue, reply = revision.lead_in, revision.correction, revision.reply
    elif name == "ask_follow_up":
        news = slot.pick(t.FOLLOW_UPS[slot.topic.key])
        cue, reply = news.text, news.reply
    elif name == "shift_topic":
        other = slot.choice([t for t in t.TOPICS[slot.scenario] if t.key != slot.topic.key])
        cue = slot.choice(t.RECOVER_CUES[name]).format(shift=other.shift.text)
        reply = other.shift.reply
    else:
        cue = slot.choice(t.RECOVER_CUES[name])
        frame = slot.choice(t.RECOVER_REPLIES[name])
        reply = frame.format(gist=explain.gist, example=explain.example)
    draft = _cued(slot, timing, lead_in, [cue])
    draft.annotations = _annotations(reply, adaptation=adaptation_of(slot.condition))
    return draft


def _interrupt(slot: Slot, timing: _Timing) -> Draft:
    situation, story = slot.situation, slot.pick(t.STORIES[slot.topic.key])
    track = _Track(timing, slot.voice)
    track.say(story.sentences[0])
    track.say(situation.before, gap=slot.choice(NARRATION_GAPS_MS))
    target = track.say(situation.statement, gap=slot.choice(NARRATION_GAPS_MS)).end_ms
    after = list(story.sentences[1:])
    after[0] = _join(slot.choice(t.RESUMES), after[0])
    for sentence in after:
        end = track.say(sentence, gap=slot.choice(NARRATION_GAPS_MS)).end_ms
        if end - target >= MIN_AFTER_TARGET_MS and end - START_MS >= MIN_INTERRUPT_MS:
            break
    else:
        span = track.user_span()
        _at_least(span.end_ms - target, MIN_AFTER_TARGET_MS, slot, "speech after the target")
        _at_least(span.end_ms - span.start_ms, MIN_INTERRUPT_MS, slot, "the user's speech")
    annotations = _annotations(situation.reply, target_point_ms=target)
    return Draft(track.segments, annotations, situation.setting, situation.where)


_BUILDERS: dict[str, Callable[[Slot, _Timing], Draft]] = {
    "wait": _wait,
    "ignore": _ignore,
    "take_turn": _take_turn,
    "backchannel": _backchannel,
    "stop": _stop,
    "hold_floor": _hold_floor,
    "recover": _recover,
    "interrupt": _interrupt,
}

__all__ = ["VOICES", "DurationFn", "generate_actions"]
