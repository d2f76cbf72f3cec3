"""The rule-based cue controller and the takeover detector, at their boundaries."""

from __future__ import annotations

import numpy as np

from duplexbench.orchestrator._cue import (
    CueState,
    RuleCueController,
    TakeoverDetector,
)
from duplexbench.orchestrator._playback import Delivered, HeardWord
from duplexbench.orchestrator._replay import AgentTranscript, ReplayConfig, Utterance

CONFIG = ReplayConfig()
LEAD_IN_END = 3000
SILENCE = Delivered(np.zeros(320, dtype=np.int16), [], active=False)


def speaking(words: int, since: int, t: int) -> AgentTranscript:
    transcript = AgentTranscript(20)
    transcript.current = Utterance(since, t, [f"w{i}" for i in range(words)], [])
    return transcript


def state(t: int, transcript: AgentTranscript, queued: int, delivered: Delivered) -> CueState:
    return CueState(t, LEAD_IN_END, delivered, transcript, queued)


LOUD_FRAME = np.full(320, 3000, dtype=np.int16)


def word_frame(t: int, loud: bool = True) -> Delivered:
    samples = LOUD_FRAME if loud else np.ones(320, dtype=np.int16)
    return Delivered(samples, [HeardWord("w", t)], active=True)


def test_no_cue_before_the_lead_in_ends() -> None:
    t = LEAD_IN_END - 20
    decision = RuleCueController(CONFIG).decide(state(t, speaking(20, 0, t), 5000, word_frame(t)))
    assert not decision.fire


def test_cue_fires_at_a_word_boundary_once_every_threshold_holds() -> None:
    ctl = RuleCueController(CONFIG)
    t = LEAD_IN_END + 2000
    since = t - CONFIG.cue_min_speech_ms
    ok = state(t, speaking(CONFIG.cue_min_words, since, t), CONFIG.cue_min_left_ms, word_frame(t))
    assert ctl.decide(ok).fire and not ctl.decide(ok).forced
    few_words = state(t, speaking(CONFIG.cue_min_words - 1, since, t), 5000, word_frame(t))
    too_short = state(t, speaking(10, since + 20, t), 5000, word_frame(t))
    ending = state(t, speaking(10, since, t), CONFIG.cue_min_left_ms - 1, word_frame(t))
    no_word = state(t, speaking(10, since, t), 5000, Delivered(LOUD_FRAME, [], active=True))
    for case in (few_words, too_short, ending, no_word):
        assert not RuleCueController(CONFIG).decide(case).fire


def test_an_armed_cue_waits_for_an_audible_frame() -> None:
    """A word boundary often falls in a quiet frame; the cue lands with the next sound."""
    ctl = RuleCueController(CONFIG)
    t = LEAD_IN_END + 2000
    since = t - CONFIG.cue_min_speech_ms
    talk = speaking(CONFIG.cue_min_words, since, t)
    assert not ctl.decide(state(t, talk, 5000, word_frame(t, loud=False))).fire
    quiet_no_word = Delivered(np.ones(320, dtype=np.int16), [], active=True)
    assert not ctl.decide(state(t + 20, talk, 5000, quiet_no_word)).fire
    loud_no_word = Delivered(LOUD_FRAME, [], active=True)
    assert ctl.decide(state(t + 40, talk, 5000, loud_no_word)).fire


def test_cue_is_forced_exactly_at_the_deadline() -> None:
    ctl = RuleCueController(CONFIG)
    deadline = LEAD_IN_END + CONFIG.force_after_ms
    quiet = AgentTranscript(20)
    assert not ctl.decide(state(deadline - 20, quiet, 0, SILENCE)).fire
    decision = ctl.decide(state(deadline, quiet, 0, SILENCE))
    assert decision.fire and decision.forced and str(CONFIG.force_after_ms) in decision.reason


def test_takeover_needs_more_than_a_backchannel() -> None:
    detector = TakeoverDetector(CONFIG)
    assert detector.took_over(speaking(CONFIG.takeover_words - 1, 0, 900)) is None
    assert detector.took_over(speaking(CONFIG.takeover_words, 0, 900)) is not None
    assert detector.took_over(AgentTranscript(20)) is None
    mute = AgentTranscript(20)
    mute.current = Utterance(0, CONFIG.takeover_ms - 20)
    assert detector.took_over(mute) is None
    mute.current.end_ms = CONFIG.takeover_ms
    assert detector.took_over(mute) is not None


def test_punctuation_tokens_are_not_played_words() -> None:
    """A spaced dash is no word: "Okay — got it." is a backchannel, not a takeover."""
    detector = TakeoverDetector(CONFIG)
    assert CONFIG.takeover_words == 4
    dashed = AgentTranscript(20)
    dashed.current = Utterance(0, 900, ["Okay", "—", "got", "it."], [])
    assert detector.took_over(dashed) is None
    dashed.current.words.append("Thanks.")
    assert detector.took_over(dashed) == "the agent played 4 words"
    # the cue controller arms only after cue_min_words real words
    ctl = RuleCueController(CONFIG)
    t = LEAD_IN_END + 2000
    talk = speaking(CONFIG.cue_min_words - 1, t - CONFIG.cue_min_speech_ms, t)
    assert talk.current is not None
    talk.current.words += ["—", "..."]
    assert not ctl.decide(state(t, talk, 5000, word_frame(t))).fire
