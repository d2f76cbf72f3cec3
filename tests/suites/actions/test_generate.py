"""The actions-v1 template generator: balanced, deterministic, exact, and always valid."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise

import pytest

from duplexbench.items._action import (
    CONDITION_IDS,
    SCENARIOS,
    TAKE_TURN_WINDOWS,
    ActionItem,
    adaptation_of,
)
from duplexbench.items._action_checks import check_action_item
from duplexbench.suites.actions import generate as gen
from duplexbench.suites.actions.generate import (
    CONTINUOUS_GAPS_MS,
    PAUSES_MS,
    START_MS,
    VOICES,
    generate_actions,
)
from duplexbench.suites.actions.templates import (
    EXPLAINS,
    FOLLOW_UPS,
    HAZARDS,
    HELP,
    PONDER,
    QUESTIONS,
    REVISIONS,
    SETTINGS,
    SPLITS,
    STORIES,
    TOPICS,
    TRAILING,
    TWO_PART,
)
from duplexbench.suites.actions.templates.model import content_words, halves, plain, starred

PER_CONDITION = 28


def fake_ms(text: str, voice: str) -> int:
    return 60 * len(text) + 100


@pytest.fixture(scope="module")
def items() -> list[ActionItem]:
    return generate_actions(11, PER_CONDITION, fake_ms)


def of(items: list[ActionItem], condition: str) -> list[ActionItem]:
    return [i for i in items if i.condition == condition]


def user_voice(item: ActionItem) -> str:
    return next(s.voice for s in item.segments if s.role == "user")


def test_each_condition_gets_per_condition_items_spread_over_the_scenarios(
    items: list[ActionItem],
) -> None:
    assert len(items) == 24 * PER_CONDITION == 672
    cells = Counter((i.condition, i.scenario) for i in items)
    assert set(cells) == {(c, s) for c in CONDITION_IDS for s in SCENARIOS}
    assert set(cells.values()) == {PER_CONDITION // 4}
    assert len({i.id for i in items}) == len(items)
    assert all(re.fullmatch(r"act-[a-z_]+-[a-z_]+-(cc|mt|cs|iv)-\d\d", i.id) for i in items)
    assert all(i.version == "1" and i.source == "synthesized" for i in items)
    for scenario in SCENARIOS:
        topics = {i.topic for i in items if i.scenario == scenario}
        assert topics == {t.key for t in TOPICS[scenario]}


def test_uneven_counts_stay_balanced_within_one() -> None:
    cells = Counter((i.condition, i.scenario) for i in generate_actions(3, 6, fake_ms))
    assert sorted(set(cells.values())) == [1, 2]


def test_the_same_seed_gives_the_same_items_and_another_seed_does_not(
    items: list[ActionItem],
) -> None:
    again = generate_actions(11, PER_CONDITION, fake_ms)
    other = generate_actions(12, PER_CONDITION, fake_ms)
    assert [i.model_dump() for i in again] == [i.model_dump() for i in items]
    assert [i.model_dump() for i in other] != [i.model_dump() for i in items]


def test_fewer_items_per_condition_are_a_prefix_of_more(items: list[ActionItem]) -> None:
    fewer = {i.id: i for i in generate_actions(11, 8, fake_ms)}
    assert len(fewer) == 24 * 8
    assert all(fewer[i.id] == i for i in items if i.id in fewer)


def test_every_item_passes_the_checks(items: list[ActionItem]) -> None:
    assert {i.id: check_action_item(i) for i in items if check_action_item(i)} == {}


def test_each_segment_lasts_exactly_its_rendering(items: list[ActionItem]) -> None:
    for item in items:
        for seg in item.segments:
            assert seg.end_ms - seg.start_ms == fake_ms(seg.text, seg.voice), (item.id, seg.id)
        assert item.part("main")[0].start_ms == START_MS
        if item.part("cue"):
            assert item.part("cue")[0].start_ms == 0


def test_only_texts_that_end_up_in_segments_are_timed() -> None:
    """The build regenerates from the packaged durations: nothing else may be asked."""
    asked: set[tuple[str, str]] = set()

    def recording(text: str, voice: str) -> int:
        asked.add((text, voice))
        return fake_ms(text, voice)

    built = generate_actions(5, 8, recording)
    assert asked == {(s.text, s.voice) for i in built for s in i.segments}


def test_voices_rotate_other_speech_is_the_user_and_background_is_not(
    items: list[ActionItem],
) -> None:
    assert {user_voice(i) for i in items} == set(VOICES)
    for cell in {(i.condition, i.scenario) for i in items}:
        assert len({user_voice(i) for i in items if (i.condition, i.scenario) == cell}) == 4
    for item in items:
        assert {s.voice for s in item.segments if s.role == "user"} == {user_voice(item)}
        for seg in item.segments:
            assert seg.voice in VOICES
            if seg.role == "other":
                assert seg.voice == user_voice(item), item.id
            if seg.role == "background":
                assert seg.voice != user_voice(item), item.id


def test_texts_vary(items: list[ActionItem]) -> None:
    stops = of(items, "stop.direct_interruption")
    assert len({i.part("main")[0].text for i in stops}) >= 10
    assert len({tuple(s.text for s in i.segments) for i in items}) >= 0.95 * len(items)
    for condition in CONDITION_IDS:
        if condition == "stop.direct_interruption":
            continue  # a stop reply is a short "go ahead" by design
        chosen = of(items, condition)
        assert len({i.annotations.reference_response for i in chosen}) >= 10, condition


def test_wait_pauses_and_continuous_speech(items: list[ActionItem]) -> None:
    for condition in ("wait.intra_sentential_pause", "wait.inter_sentential_pause"):
        for item in of(items, condition):
            span = item.annotations.wait_interval
            assert span is not None and span.end_ms - span.start_ms in PAUSES_MS
            assert len(item.segments) == 2
    for item in of(items, "wait.continuous_speech"):
        segs = item.part("main")
        gaps = [b.start_ms - a.end_ms for a, b in pairwise(segs)]
        assert len(segs) >= 3 and all(g in CONTINUOUS_GAPS_MS for g in gaps)
        span = item.annotations.wait_interval
        assert span is not None and span.end_ms - span.start_ms >= 6000


def test_ignore_distractors(items: list[ActionItem]) -> None:
    for condition, role in (
        ("ignore.other_directed_speech", "other"),
        ("ignore.background_speech", "background"),
    ):
        for item in of(items, condition):
            (distractor,) = [s for s in item.segments if s.role == role]
            span = item.annotations.distractor_interval
            assert span is not None
            assert (span.start_ms, span.end_ms) == (distractor.start_ms, distractor.end_ms)
            users = [s for s in item.segments if s.role == "user"]
            assert len(users) == 2 and users[0].end_ms <= distractor.start_ms + 300
            assert users[1].start_ms > users[0].end_ms
            addressed = content_words(" ".join(s.text for s in users))
            assert item.annotations.ignored_terms, item.id
            for term in item.annotations.ignored_terms:
                assert term in content_words(distractor.text) and term not in addressed
            assert item.setting in {s.key for s in SETTINGS}


def test_take_turn_ends_and_windows(items: list[ActionItem]) -> None:
    for name, window in TAKE_TURN_WINDOWS.items():
        for item in of(items, f"take_turn.{name}"):
            assert item.annotations.user_end_ms == item.main_end_ms
            assert item.annotations.response_window == window
    assert all(i.segments[-1].text.endswith("?") for i in of(items, "take_turn.immediate"))


def test_backchannel_narrations_are_long_enough(items: list[ActionItem]) -> None:
    for condition in ("backchannel.affirmative", "backchannel.uncertainty"):
        for item in of(items, condition):
            span = item.annotations.backchannel_span
            assert span is not None and span.end_ms - span.start_ms >= 8000
            assert len(item.segments) >= 5
    hmm = of(items, "backchannel.uncertainty")
    assert all(i.annotations.reference_response.startswith("Hmm?") for i in hmm)


def test_cued_items_have_lead_in_cue_and_adaptation(items: list[ActionItem]) -> None:
    cued_conditions = [c for c in CONDITION_IDS if c.split(".")[0] in ("stop", "hold_floor")]
    cued_conditions += [c for c in CONDITION_IDS if c.startswith("recover.")]
    for condition in cued_conditions:
        for item in of(items, condition):
            assert [s.role for s in item.part("main")] == ["user"]
            assert item.part("cue")
            assert item.annotations.adaptation == adaptation_of(condition)
    for item in of(items, "hold_floor.other_directed_speech"):
        assert item.annotations.ignored_terms and item.setting
    revised = of(items, "recover.revise")
    assert all(", not " in i.part("cue")[0].text for i in revised)


def test_interrupt_targets_leave_time_to_intervene(items: list[ActionItem]) -> None:
    for condition in ("interrupt.help", "interrupt.safety"):
        chosen = of(items, condition)
        statements = {s.statement for s in (HELP if condition.endswith("help") else HAZARDS)}
        for item in chosen:
            whole = item.user_span()
            target = item.annotations.target_point_ms
            assert whole is not None and target is not None
            assert whole.end_ms - whole.start_ms >= 10000
            assert whole.end_ms - target >= 3000
            (stated,) = [s for s in item.segments if s.end_ms == target]
            assert stated.text in statements
            assert item.annotations.expected_terms and item.setting
        assert len({i.segments[2].text for i in chosen}) >= min(len(statements), 10)


def test_settings_contexts_and_terms(items: list[ActionItem]) -> None:
    with_setting = ("ignore", "hold_floor", "interrupt")
    for item in items:
        assert bool(item.setting) == (item.action in with_setting), item.id
        assert item.context.startswith("You are a voice assistant")
        for word in ("ignore", "interrupt", "backchannel", "take the turn", "hold the floor"):
            assert word not in item.context.lower()
        for term in item.annotations.expected_terms:
            assert term in item.annotations.reference_response
        assert "*" not in item.annotations.reference_response


def test_bad_or_too_short_durations_are_refused() -> None:
    with pytest.raises(ValueError, match="positive int"):
        generate_actions(1, 4, lambda text, voice: 0)
    with pytest.raises(ValueError, match="under 6000 ms"):
        generate_actions(1, 4, lambda text, voice: 100)


def test_a_check_problem_raises_naming_the_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen, "check_action_item", lambda item: [("segments", "broken")])
    with pytest.raises(ValueError, match=r"act-wait-intra_sentential_pause-cc-01.*broken"):
        generate_actions(1, 4, fake_ms)


def test_template_tables_cover_every_topic_and_are_well_formed() -> None:
    keys = {t.key for scenario in SCENARIOS for t in TOPICS[scenario]}
    assert len(keys) == 20
    tables: dict[str, Mapping[str, Sequence[object]]] = {
        "splits": SPLITS,
        "two_part": TWO_PART,
        "questions": QUESTIONS,
        "trailing": TRAILING,
        "ponder": PONDER,
        "stories": STORIES,
        "explains": EXPLAINS,
        "revisions": REVISIONS,
        "follow_ups": FOLLOW_UPS,
    }
    for name, table in tables.items():
        assert set(table) == keys, name
        assert all(len(entries) >= 2 for entries in table.values()), name
    for lines in (*SPLITS.values(), *TWO_PART.values(), *PONDER.values()):
        for line in lines:
            halves(line.text)
            assert starred(line.reply) and "*" not in plain(line.reply)
    for stories in STORIES.values():
        for story in stories:
            assert 0 < story.puzzle_at < len(story.sentences)
            assert starred(story.reply) and starred(story.clarify)
    for explains in EXPLAINS.values():
        for explain in explains:
            assert explain.gist[0].islower() and not explain.gist.endswith(".")
            assert starred(explain.gist) and starred(explain.example)
    assert len(SETTINGS) == 10
    assert all(len(s.remarks) >= 3 and len(s.chatter) >= 3 for s in SETTINGS)
    assert len(HAZARDS) >= 12 and len(HELP) >= 10
    assert {"car", "kitchen"} <= {h.setting for h in HAZARDS}
