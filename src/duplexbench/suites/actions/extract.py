"""Extract action-item candidates from a real conversation corpus (DuplexAct Table 7).

Structural filters over word timings find Wait, Backchannel, Take Turn and
Stop instances; each becomes an :class:`ActionItem` (source "extracted") in
which one speaker plays the user and the speaker whose behaviour is being
modelled plays the agent, so that speaker's speech is left out. Speech of
any third speaker in the item window is kept as `background`. Thresholds and
windows are documented in docs/formats/corpus.md. Every candidate is checked
with :func:`check_action_item`; failures, threshold near-misses and
duplicates are recorded as rejections, never emitted.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from pydantic import ValidationError

from duplexbench.items import (
    CONDITION_IDS,
    TAKE_TURN_WINDOWS,
    ActionItem,
    Annotations,
    Segment,
    Span,
    check_action_item,
)
from duplexbench.suites.actions.corpus import (
    UTTERANCE_GAP_MS,
    Conversation,
    Corpus,
    Utterance,
    Word,
    backchannel_function,
    overlaps,
    sentence_final,
    speech_spans,
    split_floor,
    transcript,
    utterances,
    words_by_speaker,
)

CONTEXT_MS = 2000
"""Wait: user speech kept on each side of the pause (same utterance only)."""
MAX_LEAD_MS = 15000
"""Backchannel / Take Turn / Stop: at most this much of an utterance is kept."""
PAUSE_MIN_MS, PAUSE_MAX_MS = 200, 1000
CONTINUOUS_MIN_MS = 3000
BACKCHANNEL_MAX_WORDS = 3
IMMEDIATE_MAX_GAP_MS, DELAYED_MAX_GAP_MS = 500, 3000
SLIGHT_OVERLAP_MAX_MS, OVERLAP_LIMIT_MS = 1000, 1500
INTERRUPT_MIN_LEAD_MS = 300
DEFAULT_USER_VOICE, DEFAULT_OTHER_VOICE = "piper:joe", "flite:rms"

_SCENE = {
    "casual_conversation": "You are talking with someone in a casual conversation.",
    "meeting": "You are taking part in a meeting.",
    "customer_service": "You are talking with a customer on a service call.",
    "interview": "You are taking part in an interview.",
}


@dataclass(frozen=True)
class Rejection:
    """A candidate that was not emitted: `reason` is a stable category, `detail` specifics."""

    ref: str
    condition: str
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class ExtractionReport:
    """Emitted items, rejections, and for each item id the transcript excerpt it came from."""

    items: tuple[ActionItem, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    transcripts: Mapping[str, str] = field(default_factory=dict)
    conversations: int = 0

    @property
    def counts(self) -> dict[str, int]:
        """Condition -> number of emitted items, in taxonomy order."""
        found = Counter(item.condition for item in self.items)
        return {c: found[c] for c in CONDITION_IDS if found[c]}

    @property
    def rejected(self) -> dict[str, int]:
        """Reason -> number of rejected candidates."""
        return dict(sorted(Counter(r.reason for r in self.rejections).items()))

    def summary(self) -> dict[str, Any]:
        return {
            "conversations": self.conversations,
            "items": len(self.items),
            "counts": self.counts,
            "rejected": self.rejected,
        }


@dataclass(frozen=True)
class _Plan:
    """A candidate in absolute corpus ms, before it becomes an item."""

    condition: str
    user: str
    agent: str | None
    main: tuple[Word, ...]
    cue: tuple[Word, ...] = ()
    wait: tuple[int, int] | None = None
    backchannel: tuple[int, int] | None = None
    user_end_ms: int | None = None
    reference: str = ""
    transcript_end_ms: int = 0


Found = Iterator[_Plan | Rejection]


@dataclass(frozen=True)
class _Conv:
    corpus: str
    conversation: Conversation
    by_speaker: dict[str, list[Word]]
    others_busy: dict[str, list[tuple[int, int]]]
    utts: list[Utterance]
    floor: list[Utterance]
    inside: list[tuple[Utterance, Utterance]]


def extract_candidates(corpus: Corpus, *, voices: dict[str, str] | None = None) -> ExtractionReport:
    """Apply the Table 7 filters to every conversation; deterministic for a given input."""
    voices = dict(voices or {})
    for label, voice in voices.items():
        engine, sep, name = voice.partition(":")
        if not (sep and engine.strip() and name.strip()):
            raise ValueError(f"voice for speaker {label!r} is {voice!r}; expected 'engine:voice'")
    out = _Collector(voices)
    for conversation in corpus.conversations:
        by_speaker = words_by_speaker(conversation)
        busy = {
            s: speech_spans(w for o, ws in by_speaker.items() if o != s for w in ws)
            for s in by_speaker
        }
        utts = utterances(conversation)
        conv = _Conv(corpus.name, conversation, by_speaker, busy, utts, *split_floor(utts))
        found = [*_waits(conv), *_continuous(conv), *_backchannels(conv), *_turns(conv)]
        found += _stops(conv)
        out.rejections += [f for f in found if isinstance(f, Rejection)]
        out.add(conv, [f for f in found if isinstance(f, _Plan)])
    return ExtractionReport(
        tuple(out.items), tuple(out.rejections), out.transcripts, len(corpus.conversations)
    )


def _ref(conv: _Conv, start: int, end: int) -> str:
    """Where a candidate came from: `corpus/conversation@start-endms` (corpus ms)."""
    return f"{conv.corpus}/{conv.conversation.id}@{start}-{end}ms"


# ------------------------------------------------------------------ filters


def _waits(conv: _Conv) -> Found:
    """Intra- / inter-sentential pauses of 0.2-1.0 s while everybody else is silent."""
    for speaker, words in conv.by_speaker.items():
        for i, (prev, nxt) in enumerate(pairwise(words)):
            gap = nxt.start_ms - prev.end_ms
            if not PAUSE_MIN_MS <= gap <= PAUSE_MAX_MS:
                continue
            final = sentence_final(prev.text)
            kind = "inter_sentential_pause" if final else "intra_sentential_pause"
            condition = f"wait.{kind}"
            if overlaps(conv.others_busy[speaker], prev.end_ms, nxt.start_ms):
                ref = _ref(conv, prev.end_ms, nxt.start_ms)
                yield Rejection(ref, condition, "wait: another speaker talks during the pause")
                continue
            lo, hi = i, i + 1
            while lo > 0 and _joined(words[lo - 1], words[lo], prev.end_ms - CONTEXT_MS, True):
                lo -= 1
            while hi + 1 < len(words) and _joined(
                words[hi], words[hi + 1], nxt.start_ms + CONTEXT_MS, False
            ):
                hi += 1
            yield _Plan(
                condition,
                speaker,
                None,
                tuple(words[lo : hi + 1]),
                wait=(prev.end_ms, nxt.start_ms),
                transcript_end_ms=words[hi].end_ms,
            )


def _joined(a: Word, b: Word, limit: int, backward: bool) -> bool:
    """b follows a inside one utterance, and the word being added is within `limit`."""
    within = a.start_ms >= limit if backward else b.start_ms <= limit
    return within and b.start_ms - a.end_ms <= UTTERANCE_GAP_MS


def _continuous(conv: _Conv) -> Found:
    """Runs of >= 3 s with no pause >= 0.2 s, nobody else speaking; the whole run is waited."""
    for speaker, words in conv.by_speaker.items():
        runs: list[list[Word]] = []
        for word in words:
            if runs and word.start_ms - runs[-1][-1].end_ms < PAUSE_MIN_MS:
                runs[-1].append(word)
            else:
                runs.append([word])
        for run in runs:
            start, end = run[0].start_ms, run[-1].end_ms
            if end - start < CONTINUOUS_MIN_MS:
                continue
            if overlaps(conv.others_busy[speaker], start, end):
                reason = "wait: another speaker talks during the continuous speech"
                yield Rejection(_ref(conv, start, end), "wait.continuous_speech", reason)
                continue
            yield _Plan(
                "wait.continuous_speech", speaker, None, tuple(run), wait=(start, end),
                transcript_end_ms=end,
            )  # fmt: skip


def _backchannels(conv: _Conv) -> Found:
    """Listener utterances of <= 3 words inside the speaker's utterance."""
    for listener, main in conv.inside:
        ref = _ref(conv, listener.start_ms, listener.end_ms)
        if listener.n_words > BACKCHANNEL_MAX_WORDS:
            yield Rejection(ref, "backchannel", "backchannel: more than 3 words", listener.text)
            continue
        function = backchannel_function(listener.text)
        if function is None:
            reason = "backchannel: not a backchannel expression"
            yield Rejection(ref, "backchannel", reason, listener.text)
            continue
        lo, hi = listener.start_ms - MAX_LEAD_MS, listener.end_ms + MAX_LEAD_MS
        kept = tuple(w for w in main.words if w.start_ms >= lo and w.end_ms <= hi) or main.words
        yield _Plan(
            f"backchannel.{function}",
            main.speaker,
            listener.speaker,
            kept,
            backchannel=(kept[0].start_ms, kept[-1].end_ms),
            reference=listener.text,
            transcript_end_ms=kept[-1].end_ms,
        )


def _turn_condition(gap: int) -> tuple[str | None, str]:
    if 0 <= gap <= IMMEDIATE_MAX_GAP_MS:
        return "immediate", ""
    if IMMEDIATE_MAX_GAP_MS < gap <= DELAYED_MAX_GAP_MS:
        return "delayed", ""
    if -SLIGHT_OVERLAP_MAX_MS <= gap < 0:
        return "slight_overlap", ""
    if gap > DELAYED_MAX_GAP_MS:
        return None, "take_turn: gap over 3.0 s"
    if gap >= -OVERLAP_LIMIT_MS:
        return None, "take_turn: overlap of 1.0-1.5 s fits no window"
    return None, "take_turn: overlap over 1.5 s"


def _turns(conv: _Conv) -> Found:
    """Floor transitions A -> B: the agent (B) should take the turn when A ends."""
    for a, b in pairwise(conv.floor):
        if a.speaker == b.speaker:
            continue
        gap = b.start_ms - a.end_ms
        kind, reason = _turn_condition(gap)
        if kind is None:
            ref = _ref(conv, a.start_ms, b.start_ms)
            yield Rejection(ref, "take_turn", reason, f"gap {gap} ms")
            continue
        yield _Plan(
            f"take_turn.{kind}",
            a.speaker,
            b.speaker,
            _tail(a.words),
            user_end_ms=a.end_ms,
            reference=b.text,
            transcript_end_ms=min(b.end_ms, b.start_ms + MAX_LEAD_MS),
        )


def _tail(words: Sequence[Word]) -> tuple[Word, ...]:
    """The last MAX_LEAD_MS of an utterance (whole words)."""
    return tuple(w for w in words if w.start_ms >= words[-1].end_ms - MAX_LEAD_MS)


def _stops(conv: _Conv) -> Found:
    """A-B-A-B where the second A starts >= 0.3 s before B ends: the agent (B) must stop."""
    f = conv.floor
    for a1, b1, a2, b2 in zip(f, f[1:], f[2:], f[3:], strict=False):
        if not (a1.speaker == a2.speaker != b1.speaker == b2.speaker):
            continue
        lead = b1.end_ms - a2.start_ms
        if lead < INTERRUPT_MIN_LEAD_MS:
            if lead > 0:
                reason = "stop: the interruption starts less than 0.3 s before the end"
                yield Rejection(_ref(conv, a2.start_ms, b1.end_ms), "stop", reason)
            continue
        cue = tuple(w for w in a2.words if w.start_ms < a2.start_ms + MAX_LEAD_MS)
        yield _Plan(
            "stop.direct_interruption",
            a1.speaker,
            b1.speaker,
            _tail(a1.words),
            cue=cue,
            transcript_end_ms=min(b2.end_ms, b2.start_ms + MAX_LEAD_MS),
        )


# ------------------------------------------------------------------ items


class _Collector:
    """Numbers, deduplicates, builds and checks the plans of each conversation."""

    def __init__(self, voices: dict[str, str]) -> None:
        self.voices = voices
        self.items: list[ActionItem] = []
        self.rejections: list[Rejection] = []
        self.transcripts: dict[str, str] = {}

    def add(self, conv: _Conv, plans: list[_Plan]) -> None:
        numbers: Counter[str] = Counter()
        seen: dict[tuple[Any, ...], str] = {}
        for plan in sorted(plans, key=_order):
            numbers[plan.condition] += 1
            item_id = _item_id(conv.conversation.id, plan.condition, numbers[plan.condition])
            start, end = plan.main[0].start_ms, (plan.cue or plan.main)[-1].end_ms
            ref = _ref(conv, start, end)
            key = (plan.condition, plan.user, plan.main, plan.cue, plan.wait, plan.backchannel)
            if key in seen:
                self.rejections.append(Rejection(ref, plan.condition, "duplicate", seen[key]))
                continue
            seen[key] = item_id
            try:
                item = _item(conv, plan, item_id, ref, self.voices)
            except ValidationError as exc:
                detail = "; ".join(str(e["msg"]) for e in exc.errors())
                self.rejections.append(Rejection(ref, plan.condition, "invalid item", detail))
                continue
            problems = check_action_item(item)
            self.rejections += [
                Rejection(ref, plan.condition, f"check: {path}", message)
                for path, message in problems
            ]
            if not problems:
                self.items.append(item)
                roles = {plan.user: "user"} | ({plan.agent: "agent"} if plan.agent else {})
                excerpt = transcript(conv.utts, start, plan.transcript_end_ms, roles)
                self.transcripts[item_id] = excerpt


def _order(plan: _Plan) -> tuple[int, int, str]:
    return (CONDITION_IDS.index(plan.condition), plan.main[0].start_ms, plan.user)


def _item_id(conversation: str, condition: str, n: int) -> str:
    item_id = f"x-{conversation}-{condition}-{n}"
    if len(item_id) <= 80:
        return item_id
    digest = hashlib.sha256(conversation.encode()).hexdigest()[:8]
    return f"x-{conversation[:30]}-{digest}-{condition}-{n}"


def _item(conv: _Conv, plan: _Plan, item_id: str, ref: str, voices: dict[str, str]) -> ActionItem:
    """The plan as an item; a Wait (agent None) keeps only the user's speech."""
    offset, end = plan.main[0].start_ms, plan.main[-1].end_ms
    voice = voices.get(plan.user, DEFAULT_USER_VOICE)
    segments = _segments(plan.main, prefix="u", role="user", voice=voice, offset=offset)
    for k, (speaker, words) in enumerate(conv.by_speaker.items(), 1):
        if plan.agent is None or speaker in (plan.user, plan.agent):
            continue
        kept = [w for w in words if w.start_ms >= offset and w.end_ms <= end]
        other = voices.get(speaker, DEFAULT_OTHER_VOICE)
        segments += _segments(kept, prefix=f"b{k}-", role="background", voice=other, offset=offset)
    if plan.cue:
        cue_at = plan.cue[0].start_ms
        segments += _segments(plan.cue, prefix="c", role="user", voice=voice, offset=cue_at)
    conversation = conv.conversation
    return ActionItem(
        id=item_id,
        version="1",
        condition=plan.condition,
        scenario=conversation.scenario,
        source="extracted",
        source_ref=ref,
        topic=conversation.topic or "general",
        context=_context(conversation),
        segments=segments,
        annotations=_annotations(plan, offset),
    )


def _segments(
    words: Sequence[Word], *, prefix: str, role: str, voice: str, offset: int
) -> list[Segment]:
    """Words split into segments at every pause of at least PAUSE_MIN_MS; `c` = cue part."""
    groups: list[list[Word]] = []
    for word in words:
        if groups and word.start_ms - groups[-1][-1].end_ms < PAUSE_MIN_MS:
            groups[-1].append(word)
        else:
            groups.append([word])
    return [
        Segment.model_validate(
            {
                "id": f"{prefix}{n}",
                "role": role,
                "text": " ".join(w.text.strip() for w in group),
                "voice": voice,
                "part": "cue" if prefix == "c" else "main",
                "start_ms": group[0].start_ms - offset,
                "end_ms": group[-1].end_ms - offset,
            }
        )
        for n, group in enumerate(groups, 1)
    ]


def _annotations(plan: _Plan, offset: int) -> Annotations:
    def span(pair: tuple[int, int] | None) -> Span | None:
        return None if pair is None else Span(start_ms=pair[0] - offset, end_ms=pair[1] - offset)

    window = None
    if plan.condition.startswith("take_turn."):
        window = TAKE_TURN_WINDOWS[plan.condition.partition(".")[2]]
    return Annotations(
        wait_interval=span(plan.wait),
        backchannel_span=span(plan.backchannel),
        user_end_ms=None if plan.user_end_ms is None else plan.user_end_ms - offset,
        response_window=window,
        reference_response=plan.reference,
    )


def _context(conversation: Conversation) -> str:
    scene = _SCENE[conversation.scenario]
    return f"{scene} The topic is {conversation.topic}." if conversation.topic else scene
