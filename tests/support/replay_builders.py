"""Action items with synthetic voices whose spans match the bank's clips exactly."""

from __future__ import annotations

from typing import Any

from duplexbench.items._action import ActionItem, Annotations, Segment, Span
from duplexbench.items._action_checks import check_action_item
from duplexbench.speech._bank import SpeechBank
from duplexbench.speech._segments import speech_duration_ms

VOICE = "synthetic:alto"
OTHER_VOICE = "synthetic:bass"


class Timeline:
    """Places segments one after another with exact gaps (ms)."""

    def __init__(self, bank: SpeechBank, start_ms: int = 500) -> None:
        self.bank, self.t = bank, start_ms
        self.segments: list[Segment] = []
        self.part = "main"

    def add(
        self,
        text: str,
        gap_ms: int = 0,
        role: str = "user",
        voice: str | None = None,
    ) -> Segment:
        voice = voice or (OTHER_VOICE if role == "background" else VOICE)
        start = self.t + gap_ms
        end = start + speech_duration_ms(self.bank, text, voice)
        seg = Segment(
            id=f"s{len(self.segments) + 1}",
            role=role,
            text=text,
            voice=voice,
            part=self.part,
            start_ms=start,
            end_ms=end,
        )
        self.segments.append(seg)
        self.t = end
        return seg

    def cue(self) -> None:
        """Following segments are the cue: times restart at 0."""
        self.t, self.part = 0, "cue"


def item(condition: str, segments: list[Segment], **ann: Any) -> ActionItem:
    made = ActionItem(
        id=f"t-{condition.replace('_', '-').replace('.', '-')}",
        version="1",
        condition=condition,
        scenario="casual_conversation",
        topic="travel",
        context="You are chatting with a friend about travel.",
        segments=segments,
        annotations=Annotations(**ann),
    )
    problems = check_action_item(made)
    assert problems == [], problems
    return made


def span(a: Segment, b: Segment | None = None) -> Span:
    """From a's start to b's end (or a's end)."""
    return Span(start_ms=a.start_ms, end_ms=(b or a).end_ms)


def gap(a: Segment, b: Segment) -> Span:
    return Span(start_ms=a.end_ms, end_ms=b.start_ms)


def one_per_action(bank: SpeechBank) -> list[ActionItem]:
    """A small suite: one item of each of the eight actions."""
    items = []
    t = Timeline(bank)
    a = t.add("I was thinking that next summer we could go")
    b = t.add("to the coast for a week.", gap_ms=1500)
    items.append(item("wait.intra_sentential_pause", t.segments, wait_interval=gap(a, b)))
    t = Timeline(bank)
    t.add("Let me tell you about my trip.")
    o = t.add("Honey can you turn the oven down?", gap_ms=300, role="other")
    t.add("Anyway it was great.", gap_ms=300)
    items.append(item("ignore.other_directed_speech", t.segments, distractor_interval=span(o)))
    t = Timeline(bank)
    a = t.add("Can you tell me about trains in Japan?")
    items.append(
        item("take_turn.immediate", t.segments, user_end_ms=a.end_ms, response_window=(0, 500))
    )
    t = Timeline(bank)
    a = t.add("So we took the train to Kyoto, and then we walked for hours, and it was lovely.")
    items.append(item("backchannel.affirmative", t.segments, backchannel_span=span(a)))
    lead_in = "Can you walk me through how the rail pass works?"
    for condition, cue, adaptation in (
        ("stop.direct_interruption", "Sorry, stop there for a second.", None),
        ("hold_floor.continue", "Mm-hmm.", "continue"),
        ("recover.revise", "Actually, the trip is in May, not June.", "revise"),
    ):
        t = Timeline(bank)
        t.add(lead_in)
        t.cue()
        t.add(cue)
        ann = {"adaptation": adaptation} if adaptation else {}
        items.append(item(condition, t.segments, expected_terms=["May"], **ann))
    t = Timeline(bank)
    t.add("So I am driving on the highway right now")
    b = t.add("and I am texting my sister while driving.", gap_ms=300)
    t.add("She wants to know when we arrive and I need to check the map.", gap_ms=300)
    items.append(
        item("interrupt.safety", t.segments, target_point_ms=b.end_ms, expected_terms=["driving"])
    )
    return items
