"""Offline follow-through heuristics: each one passes and fails."""

from __future__ import annotations

import pytest

from duplexbench.items._action import ActionItem
from duplexbench.scoring._actions.heuristics import (
    content_words,
    follow_point,
    heuristic_follow_through,
    is_question,
    mentioned,
    tokens,
    words_between,
)
from duplexbench.scoring._actions.observation import AgentSegment
from support.action_builders import agent, item, observe, seg, words

# --- text helpers ----------------------------------------------------------------------


def test_tokens_and_content_words() -> None:
    assert tokens("The Boxes, Mary's bus!") == ["the", "boxe", "mary", "bus"]
    assert content_words("this is the thing about tables") == {"table"}


def test_mentioned_needs_contiguous_tokens() -> None:
    text = "Please turn off the gas stove right now"
    assert mentioned(text, ["gas stove", "stove gas", "oven", "STOVES"]) == ["gas stove", "STOVES"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which flight do you prefer", True),
        ("OK. How many people are coming", True),
        ("Is it raining?", True),
        ("The flight leaves at noon.", False),
        ("So what I mean is the flight is late.", False),
    ],
)
def test_is_question(text: str, expected: bool) -> None:
    assert is_question(text) is expected


def test_words_between_splits_a_segment_in_proportion() -> None:
    segs = [AgentSegment(1000, 2000, ("a", "b", "c", "d")), AgentSegment(3000, 3500, ("e",))]
    assert words_between(segs, 1500, 10_000) == ["c", "d", "e"]
    assert words_between(segs, 0, 1500) == ["a", "b"]
    assert words_between(segs, 2000, 3000) == []


# --- Wait / Ignore / Take Turn ---------------------------------------------------------


def _wait(**ann: object) -> ActionItem:
    return item(
        "wait.inter_sentential_pause",
        [seg(0, 2000, "I want to book a table."), seg(3000, 5000, "For four people on Friday.")],
        wait_interval={"start_ms": 2000, "end_ms": 3000},
        **ann,
    )


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Sure, a table for four on Friday evening.", True),
        ("The weather is lovely today, isn't it?", False),
        ("Okay got it", False),  # no substantive reply
    ],
)
def test_wait_heuristic(reply: str, ok: bool) -> None:
    v = heuristic_follow_through(observe(_wait(), [agent(5500, 8000, reply)]))
    assert v.success is ok


def test_wait_heuristic_accepts_an_expected_term() -> None:
    it = _wait(expected_terms=["reservation"])
    v = heuristic_follow_through(observe(it, [agent(5500, 8000, "I will make the reservation")]))
    assert v.success is True and "reservation" in v.reason


def test_wait_heuristic_ignores_speech_before_the_pause_end() -> None:
    obs = observe(_wait(), [agent(2500, 2999, "a table for four on Friday")])
    assert heuristic_follow_through(obs).success is False


def _ignore() -> ActionItem:
    return item(
        "ignore.other_directed_speech",
        [
            seg(0, 2000, "When is my dentist appointment?"),
            seg(2500, 4500, "Honey, order the pizza for dinner", role="other"),
        ],
        distractor_interval={"start_ms": 2500, "end_ms": 4500},
        ignored_terms=["pizza", "dinner"],
    )


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Your dentist appointment is on Tuesday at noon.", True),
        ("Your appointment is Tuesday, enjoy the pizza tonight.", False),
        ("", False),
    ],
)
def test_ignore_heuristic(reply: str, ok: bool) -> None:
    segs = [agent(5000, 8000, reply)] if reply else []
    assert heuristic_follow_through(observe(_ignore(), segs)).success is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("I can process a refund for you right away.", True),  # expected term
        ("Let's get that kettle replaced for you.", True),  # shares a content word
        ("Hello there, how are you doing this morning?", False),
    ],
)
def test_take_turn_heuristic(reply: str, ok: bool) -> None:
    it = item(
        "take_turn.delayed",
        [seg(0, 4000, "My new kettle broke after two days")],
        user_end_ms=4000,
        response_window=[0, 3000],
        expected_terms=["refund"],
    )
    assert heuristic_follow_through(observe(it, [agent(4500, 7000, reply)])).success is ok


# --- Backchannel -----------------------------------------------------------------------


def _bc(condition: str) -> ActionItem:
    return item(
        f"backchannel.{condition}",
        [seg(0, 7000, "so we drove to the coast and the rental car broke down")],
        backchannel_span={"start_ms": 1000, "end_ms": 6000},
    )


@pytest.mark.parametrize(
    ("condition", "later", "ok"),
    [
        ("affirmative", "That sounds like quite an adventure, what happened next?", True),
        ("affirmative", "Sorry, what do you mean by the coast?", False),
        ("uncertainty", "Wait, could you say that again?", True),
        # a question opener alone is not a clarification
        ("uncertainty", "Which car was it", False),
        ("uncertainty", "That sounds like a great trip overall.", False),
        ("affirmative", "", False),
    ],
)
def test_backchannel_heuristic(condition: str, later: str, ok: bool) -> None:
    segs = [agent(2000, 2300, "yeah")] + ([agent(7500, 9000, later)] if later else [])
    assert heuristic_follow_through(observe(_bc(condition), segs)).success is ok


def test_backchannel_heuristic_without_a_backchannel_cannot_tell() -> None:
    assert heuristic_follow_through(observe(_bc("affirmative"), [])).success is None


# --- Hold Floor ------------------------------------------------------------------------


def _hold(adaptation: str, condition: str | None = None, **ann: object) -> ActionItem:
    role = "background" if condition == "background_speech" else "user"
    return item(
        f"hold_floor.{condition or adaptation}",
        [seg(0, 2000, "Tell me about volcanoes"), seg(0, 2000, "mm go on", role=role, part="cue")],
        adaptation=adaptation,
        **ann,
    )


def _long_then(after: str, before: str = words(10)) -> list[AgentSegment]:
    return [agent(2500, 5000, before), agent(7000, 9000, after)]


@pytest.mark.parametrize(("n", "ok"), [(10, True), (9, False)])
def test_hold_floor_continue(n: int, ok: bool) -> None:
    obs = observe(_hold("continue"), _long_then(words(n)), cue=(5000, 7000))
    assert heuristic_follow_through(obs).success is ok


def test_hold_floor_keeps_the_thread_when_expected_terms_are_listed() -> None:
    it = _hold("continue", expected_terms=["lava"])
    thread = observe(it, _long_then("the lava flows " + words(9)), cue=(5000, 7000))
    assert heuristic_follow_through(thread).success is True
    lost = observe(it, _long_then(words(12)), cue=(5000, 7000))
    v = heuristic_follow_through(lost)
    assert v.success is False and "expected terms" in v.reason


@pytest.mark.parametrize(
    ("last_end", "rec_end", "ok"),
    [(17_000, 30_000, True), (17_001, 30_000, False), (17_000, 17_000, False)],
)
def test_hold_floor_shorten(last_end: int, rec_end: int, ok: bool) -> None:
    segs = [agent(2500, 5000, words(10)), agent(7000, last_end, words(8))]
    obs = observe(_hold("shorten"), segs, end_ms=rec_end, cue=(5000, 7000))
    assert heuristic_follow_through(obs).success is ok


HARD = "magmatic intrusions precipitate catastrophic eruptions"
EASY = "hot rock comes up and it goes boom"


@pytest.mark.parametrize(
    ("before", "after", "ok"), [(HARD, EASY, True), (EASY, HARD, False), (HARD, "hot rock", False)]
)
def test_hold_floor_simplify(before: str, after: str, ok: bool) -> None:
    obs = observe(_hold("simplify"), _long_then(after, before), cue=(5000, 7000))
    assert heuristic_follow_through(obs).success is ok


@pytest.mark.parametrize(
    ("after", "ok"),
    [
        ("and the magma chamber keeps filling up over time", True),
        ("and you should answer the phone now", False),
    ],
)
def test_hold_floor_ignore_distractor(after: str, ok: bool) -> None:
    it = _hold("ignore_distractor", "background_speech", ignored_terms=["phone"])
    obs = observe(it, _long_then(after), cue=(5000, 7000))
    assert heuristic_follow_through(obs).success is ok


def test_hold_floor_follow_points() -> None:
    plain = observe(_hold("continue"), [], cue=(5000, 7000))
    distractor = observe(_hold("ignore_distractor", "background_speech"), [], cue=(5000, 7000))
    assert (follow_point(plain), follow_point(distractor)) == (7000, 5000)


# --- Recover ---------------------------------------------------------------------------


def _recover(adaptation: str, **ann: object) -> ActionItem:
    return item(
        f"recover.{adaptation}",
        [seg(0, 2000, "Tell me about the train"), seg(0, 2000, "hold on", part="cue")],
        adaptation=adaptation,
        **ann,
    )


def _resume(adaptation: str, resumed: str, end_ms: int = 30_000, **ann: object) -> bool | None:
    before = "the express train leaves platform nine at seven"
    segs = [agent(2500, 5000, before), agent(7500, 10_000, resumed)]
    obs = observe(_recover(adaptation, **ann), segs, end_ms=end_ms, cue=(5000, 7000))
    return heuristic_follow_through(obs).success


def test_recover_wrap_up() -> None:
    assert _resume("wrap_up", words(40)) is True
    assert _resume("wrap_up", words(41)) is False
    assert _resume("wrap_up", words(10), end_ms=10_000) is False  # still speaking


def test_recover_repeat() -> None:
    assert _resume("repeat", "the train leaves from platform nine") is True
    assert _resume("repeat", "the weather is sunny") is False


def test_recover_ask_follow_up() -> None:
    assert _resume("ask_follow_up", "Which station are you leaving from") is True
    assert _resume("ask_follow_up", "The train is fast and comfortable.") is False


def test_recover_enrich() -> None:
    assert _resume("enrich", words(15)) is True
    assert _resume("enrich", words(14)) is False


@pytest.mark.parametrize("adaptation", ["shift_topic", "revise"])
def test_recover_by_expected_term(adaptation: str) -> None:
    assert _resume(adaptation, "about the museum then", expected_terms=["museum"]) is True
    assert _resume(adaptation, "about the train then", expected_terms=["museum"]) is False
    assert _resume(adaptation, "about the museum then") is None


def test_recover_without_resumed_speech_fails() -> None:
    obs = observe(_recover("enrich"), [agent(2500, 4000, words(6))], cue=(5000, 7000))
    assert heuristic_follow_through(obs).success is False


# --- Interrupt -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "terms", "ok"),
    [
        ("Wait, the stove is still on, switch it off first.", ["stove"], True),
        ("Sorry to interrupt you there, one moment.", ["stove"], False),
        ("Wait, the stove is still on.", [], None),
    ],
)
def test_interrupt_heuristic(reply: str, terms: list[str], ok: bool | None) -> None:
    it = item(
        "interrupt.safety",
        [seg(1000, 9000, "I'll leave the stove on and go out")],
        target_point_ms=3000,
        expected_terms=terms,
    )
    assert heuristic_follow_through(observe(it, [agent(3000, 5000, reply)])).success is ok


def test_stop_has_a_rule_not_a_heuristic() -> None:
    it = item("stop.direct_interruption", [seg(0, 2000), seg(0, 1000, "stop", part="cue")])
    with pytest.raises(ValueError, match="rule"):
        heuristic_follow_through(observe(it, [], cue=(3000, 4000)))
