"""Punctuation-only tokens are not words in any action rule, heuristic or FDB metric.

"Okay — got it." is three words: a backchannel, not a substantive reply. Counting the
spaced dash as a fourth word used to flip Wait, Ignore, Take Turn, Recover and
Interrupt verdicts and hide the backchannel.
"""

from __future__ import annotations

from duplexbench.scoring._actions.fdb import fdb_metrics, takeover
from duplexbench.scoring._actions.heuristics import heuristic_follow_through, words_between
from duplexbench.scoring._actions.observation import AgentSegment
from duplexbench.scoring._actions.rules import immediate
from support.action_builders import agent, item, observe, seg, words

DASHED = "Okay — got it."
"""Three words and a spaced dash."""
PLAIN = "Okay got it."


def test_a_dashed_backchannel_is_three_words_not_substantive() -> None:
    s = agent(2000, 2600, DASHED)
    assert s.words == ("Okay", "—", "got", "it.")
    assert s.n_words == 3 and not s.substantive
    assert s.spoken_words == ["Okay", "got", "it."]
    assert agent(2000, 2600, "Okay — got it, thanks.").substantive  # four real words


def test_wait_and_ignore_allow_a_dashed_backchannel() -> None:
    wait = item(
        "wait.inter_sentential_pause",
        [seg(0, 2000, "I want to book a table."), seg(3000, 5000, "For four on Friday.")],
        wait_interval={"start_ms": 2000, "end_ms": 3000},
    )
    ignore = item(
        "ignore.background_speech",
        [seg(0, 2000), seg(3000, 6000, "pass the salt", role="background")],
        distractor_interval={"start_ms": 3000, "end_ms": 6000},
    )
    for it, onset in ((wait, 2200), (ignore, 4000)):
        for text in (DASHED, PLAIN):
            v = immediate(observe(it, [agent(onset, onset + 600, text)]))
            assert v.success is True, (it.condition, text, v.reason)


def test_take_turn_recover_and_interrupt_need_more_than_a_dashed_backchannel() -> None:
    take = item("take_turn.immediate", [seg(0, 4000)], user_end_ms=4000, response_window=[0, 500])
    recover = item(
        "recover.repeat",
        [seg(0, 2000), seg(0, 2000, "sorry what was that", part="cue")],
        adaptation="repeat",
    )
    interrupt = item(
        "interrupt.safety",
        [seg(1000, 9000, "I'm going to leave the stove on and go out for a walk now")],
        target_point_ms=3000,
    )
    cases = [
        (take, 4100, None, []),
        (recover, 8000, (5000, 7000), [agent(2500, 4500, words(4))]),
        (interrupt, 3000, None, []),
    ]
    for it, onset, cue, before in cases:
        for text, ok in ((DASHED, False), (PLAIN, False), ("Okay, I got it.", True)):
            obs = observe(it, [*before, agent(onset, onset + 900, text)], cue=cue)
            assert immediate(obs).success is ok, (it.condition, text)


def test_backchannel_with_a_spaced_dash_stays_a_backchannel() -> None:
    it = item(
        "backchannel.affirmative",
        [seg(0, 7000, "so I went to the market and then I saw my old friend")],
        backchannel_span={"start_ms": 1000, "end_ms": 6000},
    )
    v = immediate(observe(it, [agent(2000, 2600, DASHED)]))
    assert v.success is True and "genuine affirmative backchannel" in v.reason
    assert immediate(observe(it, [agent(2000, 2600, "Okay — got it, thanks.")])).success is False


def test_fdb_counts_a_dashed_backchannel_as_one() -> None:
    it = item(
        "backchannel.affirmative",
        [seg(0, 4000, "part one of the story")],
        backchannel_span={"start_ms": 0, "end_ms": 4000},
    )
    m = fdb_metrics(observe(it, [agent(1000, 1600, DASHED)]))
    assert m == {"task": "backchannel", "tor": 0, "backchannel_per_s": 0.25}
    assert takeover([agent(1000, 1600, "— … —")]) == 0  # no words at all
    assert takeover([AgentSegment(1000, 1600, ("—",) * 5)]) == 0


def test_heuristic_word_counts_skip_punctuation_tokens() -> None:
    s = agent(0, 1000, "one — two — three")
    assert words_between([s], 0, 1000) == ["one", "two", "three"]
    assert words_between([s], 0, 400) == ["one"]  # 3 words (not 5 tokens) over 1000 ms
    # Hold Floor "continue" needs 10 words after the cue: 9 words and dashes are not enough
    hold = item(
        "hold_floor.continue",
        [seg(0, 2000, "Tell me about volcanoes"), seg(0, 2000, "mm go on", part="cue")],
        adaptation="continue",
    )
    nine = " — ".join(words(9).split())
    before = agent(2500, 5000, words(10))
    assert (
        heuristic_follow_through(
            observe(hold, [before, agent(7000, 9000, nine)], cue=(5000, 7000))
        ).success
        is False
    )
    ten = " — ".join(words(10).split())
    assert (
        heuristic_follow_through(
            observe(hold, [before, agent(7000, 9000, ten)], cue=(5000, 7000))
        ).success
        is True
    )
