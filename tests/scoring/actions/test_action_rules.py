"""Immediate-execution rules: every window boundary, just inside and just outside."""

from __future__ import annotations

import dataclasses

import pytest

from duplexbench.items._action import ActionItem
from duplexbench.scoring._actions.rules import (
    MissingAnnotation,
    Verdict,
    immediate,
    stop_follow_through,
    turns,
)
from support.action_builders import agent, item, observe, seg, tone, words

FOUR = words(4)
THREE = words(3)


# --- Wait ------------------------------------------------------------------------------


def _wait() -> ActionItem:
    return item(
        "wait.inter_sentential_pause",
        [seg(0, 2000, "I want to book a table."), seg(3000, 5000, "For four people on Friday.")],
        wait_interval={"start_ms": 2000, "end_ms": 3000},
    )


@pytest.mark.parametrize(
    ("start", "end", "text", "ok"),
    [
        (3000, 3600, FOUR, True),  # starts exactly at the interval end: no overlap
        (2999, 3600, FOUR, False),  # starts 1 ms inside
        (1500, 2000, FOUR, True),  # ends exactly at the interval start
        (1500, 2001, FOUR, False),  # ends 1 ms inside
        (2200, 2800, THREE, True),  # 3 words inside = backchannel, allowed
        (2200, 2800, FOUR, False),  # 4 words inside = substantive
    ],
)
def test_wait_interval_boundaries(start: int, end: int, text: str, ok: bool) -> None:
    v = immediate(observe(_wait(), [agent(start, end, text)]))
    assert v.success is ok
    assert "wait interval [2000, 3000]" in v.reason


def test_wait_continuous_speech_uses_the_whole_user_speech() -> None:
    it = item(
        "wait.continuous_speech",
        [seg(0, 6000)],
        wait_interval={"start_ms": 0, "end_ms": 6000},
    )
    assert immediate(observe(it, [agent(5999, 7000, FOUR)])).success is False
    assert immediate(observe(it, [agent(6000, 7000, FOUR)])).success is True


def test_missing_annotation_is_an_error_not_a_verdict() -> None:
    it = item("wait.inter_sentential_pause", [seg(0, 2000)])
    with pytest.raises(MissingAnnotation, match="wait_interval"):
        immediate(observe(it, []))


# --- Ignore ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "text", "ok"),
    [
        (1000, 3000, FOUR, True),  # ends exactly at distractor start
        (1000, 3001, FOUR, False),
        (6000, 7000, FOUR, True),  # starts exactly at distractor end
        (5999, 7000, FOUR, False),
        (4000, 4500, THREE, True),
        (4000, 4500, FOUR, False),
    ],
)
def test_ignore_interval_boundaries(start: int, end: int, text: str, ok: bool) -> None:
    it = item(
        "ignore.background_speech",
        [seg(0, 2000), seg(3000, 6000, "pass the salt", role="background")],
        distractor_interval={"start_ms": 3000, "end_ms": 6000},
    )
    assert immediate(observe(it, [agent(start, end, text)])).success is ok


# --- Take Turn -------------------------------------------------------------------------


def _take(condition: str, window: tuple[int, int]) -> ActionItem:
    return item(
        f"take_turn.{condition}",
        [seg(0, 4000)],
        user_end_ms=4000,
        response_window=list(window),
    )


@pytest.mark.parametrize(
    ("condition", "window", "onset", "ok"),
    [
        ("immediate", (0, 500), 4000, True),
        ("immediate", (0, 500), 3999, False),
        ("immediate", (0, 500), 4500, True),
        ("immediate", (0, 500), 4501, False),
        ("delayed", (0, 3000), 7000, True),
        ("delayed", (0, 3000), 7001, False),
        ("delayed", (0, 3000), 3999, False),
        ("slight_overlap", (-1000, 500), 3000, True),
        ("slight_overlap", (-1000, 500), 2999, False),
        ("slight_overlap", (-1000, 500), 4500, True),
        ("slight_overlap", (-1000, 500), 4501, False),
    ],
)
def test_take_turn_windows(condition: str, window: tuple[int, int], onset: int, ok: bool) -> None:
    v = immediate(observe(_take(condition, window), [agent(onset, onset + 2000, FOUR)]))
    assert v.success is ok
    assert v.timing_ms == (onset - 4000 if ok else None)


def test_take_turn_needs_a_substantive_onset_and_any_qualifying_one_counts() -> None:
    it = _take("immediate", (0, 500))
    assert immediate(observe(it, [agent(4100, 4400, THREE)])).success is False
    both = [agent(4100, 4250, THREE), agent(4300, 6000, FOUR)]
    v = immediate(observe(it, both))
    assert (v.success, v.timing_ms) == (True, 300)


# --- Backchannel -----------------------------------------------------------------------


def _bc(condition: str = "affirmative") -> ActionItem:
    return item(
        f"backchannel.{condition}",
        [seg(0, 7000, "so I went to the market and then I saw my old friend")],
        backchannel_span={"start_ms": 1000, "end_ms": 6000},
    )


@pytest.mark.parametrize(("onset", "ok"), [(1000, True), (999, False), (6000, True), (6001, False)])
def test_backchannel_span_boundaries(onset: int, ok: bool) -> None:
    v = immediate(observe(_bc(), [agent(onset, onset + 300, "yeah")]))
    assert v.success is ok


def test_backchannel_word_limit() -> None:
    assert immediate(observe(_bc(), [agent(2000, 2600, "yeah I see")])).success is True
    v = immediate(observe(_bc(), [agent(2000, 2600, "yeah I see that")]))
    assert v.success is False and "no 1-3-word" in v.reason


def test_backchannel_must_not_start_a_turn() -> None:
    bc = agent(2000, 2300, "yeah")
    turn_start = immediate(observe(_bc(), [bc, agent(2799, 4000, FOUR)]))
    assert turn_start.success is False and "starts a turn" in turn_start.reason
    genuine = immediate(observe(_bc(), [bc, agent(2800, 4000, FOUR)]))
    assert genuine.success is True


def test_backchannel_function_must_match_the_condition() -> None:
    assert immediate(observe(_bc("uncertainty"), [agent(2000, 2300, "yeah")])).success is False
    assert immediate(observe(_bc("uncertainty"), [agent(2000, 2300, "huh?")])).success is True
    assert immediate(observe(_bc("affirmative"), [agent(2000, 2300, "really?")])).success is False


def test_only_the_first_backchannel_counts() -> None:
    segs = [agent(2000, 2300, "huh?"), agent(4000, 4300, "yeah")]
    assert immediate(observe(_bc("affirmative"), segs)).success is False


def test_backchannel_prosody_breaks_a_lexical_tie() -> None:
    audio = tone(150, 150, 2000)
    audio[int(2.0 * 16000) - 11200 :] = tone(150, 260, 700, ramp_last_ms=300)
    obs = observe(_bc("uncertainty"), [agent(1300, 2000, "oh")], audio=audio)
    assert immediate(obs).success is True
    flat = observe(_bc("uncertainty"), [agent(1300, 2000, "oh")], audio=tone(150, 150, 2000))
    assert immediate(flat).success is False


# --- Stop ------------------------------------------------------------------------------


def _stop() -> ActionItem:
    return item(
        "stop.direct_interruption",
        [
            seg(0, 2000, "tell me about the history of Rome"),
            seg(0, 2000, "stop please", part="cue"),
        ],
    )


def test_stop_success_and_yield_latency() -> None:
    v = immediate(observe(_stop(), [agent(4000, 6000, words(20))], cue=(5000, 7000)))
    assert v == Verdict(True, v.reason, 1000)


@pytest.mark.parametrize(
    ("seg_start", "seg_end", "expected"),
    [
        (5000, 6000, True),  # onset == segment start: speaking
        (3000, 5000, None),  # onset == segment end: not speaking -> n/a
        (3000, 5001, True),
        (5001, 6000, None),
    ],
)
def test_stop_applies_only_when_speaking_at_cue_onset(
    seg_start: int, seg_end: int, expected: bool | None
) -> None:
    v = immediate(observe(_stop(), [agent(seg_start, seg_end, FOUR)], cue=(5000, 7000)))
    assert v.success is expected
    if expected is None:
        assert "not speaking at cue onset" in v.reason


def test_stop_still_speaking_at_recording_end_fails() -> None:
    v = immediate(observe(_stop(), [agent(4000, 12_000, FOUR)], end_ms=12_000, cue=(5000, 7000)))
    assert v.success is False and "still going" in v.reason
    ok = immediate(observe(_stop(), [agent(4000, 11_999, FOUR)], end_ms=12_000, cue=(5000, 7000)))
    assert ok.success is True and ok.timing_ms == 6999


def test_stop_merges_breath_pauses_into_one_turn() -> None:
    merged = [agent(4000, 5500, FOUR), agent(5999, 6500, FOUR)]  # gap 499 ms
    assert immediate(observe(_stop(), merged, cue=(5000, 7000))).timing_ms == 1500
    split = [agent(4000, 5500, FOUR), agent(6000, 6500, FOUR)]  # gap 500 ms
    assert immediate(observe(_stop(), split, cue=(5000, 7000))).timing_ms == 500
    assert turns(merged) == [(4000, 6500)]
    assert turns(split) == [(4000, 5500), (6000, 6500)]


def test_stop_without_a_cue_is_not_applicable() -> None:
    assert immediate(observe(_stop(), [agent(0, 3000, FOUR)])).success is None


# --- Stop follow-through ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("onset", "text", "ok"),
    [
        (7999, FOUR, False),  # before the final second (limit 8000)
        (8000, FOUR, True),  # inside the final second
        (7000, THREE, True),  # short onsets are allowed
        (9500, FOUR, True),  # after the intervention
    ],
)
def test_stop_follow_through_final_second(onset: int, text: str, ok: bool) -> None:
    segs = [agent(4000, 6000, FOUR), agent(onset, onset + 400, text)]
    v = stop_follow_through(observe(_stop(), segs, cue=(5000, 9000)))
    assert v.success is ok


def test_stop_follow_through_not_applicable_cases() -> None:
    late = observe(_stop(), [agent(4000, 9000, FOUR)], cue=(5000, 9000))
    assert (
        stop_follow_through(late).success is None
        and "after the intervention" in stop_follow_through(late).reason
    )
    failed = observe(_stop(), [agent(4000, 30_000, FOUR)], cue=(5000, 9000))
    assert stop_follow_through(failed).success is None
    just_before = observe(_stop(), [agent(4000, 8999, FOUR)], cue=(5000, 9000))
    assert stop_follow_through(just_before).success is True


# --- Hold Floor ------------------------------------------------------------------------


def _hold() -> ActionItem:
    return item(
        "hold_floor.continue",
        [seg(0, 2000), seg(0, 2000, "uh huh go on", part="cue")],
        adaptation="continue",
    )


@pytest.mark.parametrize(
    ("segs", "ok", "gap"),
    [
        ([(4000, 8000)], True, 0),
        ([(5500, 8000)], True, 500),  # leading silence exactly 500
        ([(5501, 8000)], False, 501),  # leading silence 501
        ([(4000, 7500)], True, 500),  # trailing silence exactly 500 (window ends 8000)
        ([(4000, 7499)], False, 501),
        ([(4000, 6000), (6500, 9000)], True, 500),  # inner gap
        ([(4000, 6000), (6501, 9000)], False, 501),
    ],
)
def test_hold_floor_longest_gap(segs: list[tuple[int, int]], ok: bool, gap: int) -> None:
    obs = observe(_hold(), [agent(s, e, FOUR) for s, e in segs], cue=(5000, 7000))
    v = immediate(obs)
    assert (v.success, v.timing_ms) == (ok, gap)


def test_hold_floor_without_speech_in_the_window_fails() -> None:
    obs = observe(_hold(), [agent(1000, 5000, FOUR), agent(8000, 9000, FOUR)], cue=(5000, 7000))
    v = immediate(obs)
    assert v.success is False and "no agent speech" in v.reason


# --- Recover ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("onset", "text", "ok"),
    [
        (5000, FOUR, True),  # cue end 7000 - 2000
        (4999, FOUR, False),
        (12_000, FOUR, True),  # cue end + 5000
        (12_001, FOUR, False),
        (8000, THREE, False),
    ],
)
def test_recover_window(onset: int, text: str, ok: bool) -> None:
    it = item(
        "recover.repeat",
        [seg(0, 2000), seg(0, 2000, "sorry what was that", part="cue")],
        adaptation="repeat",
    )
    v = immediate(
        observe(it, [agent(2500, 4500, FOUR), agent(onset, onset + 900, text)], cue=(5000, 7000))
    )
    assert v.success is ok
    assert v.timing_ms == (onset - 7000 if ok else None)


# --- Interrupt -------------------------------------------------------------------------


def _interrupt() -> ActionItem:
    return item(
        "interrupt.safety",
        [seg(1000, 9000, "I'm going to leave the stove on and go out for a walk now")],
        target_point_ms=3000,
    )


@pytest.mark.parametrize(
    ("onset", "text", "ok"),
    [
        (1000, FOUR, True),
        (999, FOUR, False),
        (8000, FOUR, True),  # user end 9000 - 1000
        (8001, FOUR, False),
        (3000, THREE, False),
    ],
)
def test_interrupt_window(onset: int, text: str, ok: bool) -> None:
    v = immediate(observe(_interrupt(), [agent(onset, onset + 1500, text)]))
    assert v.success is ok
    assert v.timing_ms == (onset - 3000 if ok else None)


def test_interrupt_uses_the_authored_span_not_the_truncated_one() -> None:
    obs = observe(_interrupt(), [agent(7000, 8000, FOUR)])
    cut = dataclasses.replace(
        obs,
        user=tuple(dataclasses.replace(u, end_ms=7000) for u in obs.user),
        user_stopped_ms=7000,
    )
    v = immediate(cut)
    assert v.success is True and v.timing_ms == 4000
