"""Audio episodes under caller conditions: degraded line, effect timeline, frozen caller."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import pytest

from duplexbench.agents._audio_builtin import AudioOracle, SilentAgent
from duplexbench.audio._effects import EffectsConfig
from duplexbench.audio._pcm import sha256_pcm
from duplexbench.items._load import item_checksum
from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode, BankSpeech
from duplexbench.orchestrator._episode import EpisodeSetup
from duplexbench.scoring._episode import score_episode
from duplexbench.speech._bank import SpeechBank
from duplexbench.trace._condition_events import ConditionSetup, UserEffect
from duplexbench.trace._events import EpisodeAudio, UserUtterance
from duplexbench.users._caller import CallerConfig
from duplexbench.users._sounds import OutOfTurnConfig
from duplexbench.users._turntaking import NATURAL
from support.fixtures import fixture_item
from support.helpers import run_audio

NOISY = CallerConfig(effects=EffectsConfig())
COUGHING = CallerConfig(effects=EffectsConfig(), out_of_turn=OutOfTurnConfig(per_minute=12.0))


def of(events: list[Any], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def noisy_run(repetition: int = 0, **kw: Any) -> Any:
    item = fixture_item("form-expense-correction")
    return run_audio(
        item, AudioOracle(), privileged=True, repetition=repetition, caller=NOISY, **kw
    )


def test_the_agent_hears_the_degraded_line_and_the_clean_channel_is_kept() -> None:
    record = noisy_run()
    assert record.error is None and record.audio is not None and record.line is not None
    clean, agent = record.audio
    assert len(record.line) == len(clean) == len(agent)
    assert sha256_pcm(record.line) != sha256_pcm(clean)
    audio = of(record.events, EpisodeAudio)[0].data
    assert audio.line_file == "user_line.wav"
    assert audio.line_sha256 == sha256_pcm(record.line)
    assert audio.user_sha256 == sha256_pcm(clean)


def test_the_trace_records_the_frozen_caller_and_every_effect() -> None:
    record = noisy_run()
    setup = of(record.events, ConditionSetup)
    assert len(setup) == 1 and setup[0].seq == 1  # right after episode.start
    data = setup[0].data
    assert data.effects == EffectsConfig().to_dict() and data.effects_seed is not None
    assert data.persona["name"] == "neutral" and data.out_of_turn is None
    effects = {e.data.effect for e in of(record.events, UserEffect)}
    assert {"background_noise", "telephony"} <= effects
    times = [e.t_ms for e in record.events]
    assert times == sorted(times)  # media time never goes backwards (a bug once)
    duration = of(record.events, EpisodeAudio)[0].data.duration_ms
    assert all(
        0 <= e.data.start_ms <= e.data.end_ms <= duration for e in of(record.events, UserEffect)
    )


def test_the_oracle_still_finishes_the_work_over_a_noisy_line() -> None:
    score = score_episode(fixture_item("form-expense-correction"), noisy_run().events)
    assert score.ws == 1 and score.interaction is not None


def test_out_of_turn_sounds_are_user_speech_that_is_not_a_turn() -> None:
    item = fixture_item("form-expense-correction")
    record = run_audio(item, SilentAgent(), caller=COUGHING)
    utterances = of(record.events, UserUtterance)
    sounds = [u for u in utterances if u.data.kind != "turn"]
    assert sounds and {u.data.kind for u in sounds} <= {"vocal_tic", "non_directed"}
    assert all(u.data.plan_ids == [] for u in sounds)
    turns = [u for u in utterances if u.data.kind == "turn"]
    assert all(
        not (s.t_ms < t.data.end_ms and t.t_ms < s.data.end_ms) for s in sounds for t in turns
    )
    score = score_episode(item, record.events)
    assert score.interaction is not None
    assert any(s[3] in ("vocal_tic", "non_directed") for s in score.interaction.segments)


def test_same_seed_same_line_other_repetition_other_noise() -> None:
    a, b, c = noisy_run(0), noisy_run(0), noisy_run(1)
    assert a.line is not None and b.line is not None and c.line is not None
    assert sha256_pcm(a.line) == sha256_pcm(b.line)
    noise = [
        [e.data for e in of(r.events, UserEffect) if e.data.effect in ("burst", "frame_drop")]
        for r in (a, c)
    ]
    assert noise[0] != noise[1]


@pytest.mark.parametrize("frame_ms", [20, 40])
def test_natural_turn_taking_runs_with_the_oracle(frame_ms: int) -> None:
    item = fixture_item("form-expense-correction")
    natural = replace(NATURAL, interrupt_probability=1.0)
    record = run_audio(item, AudioOracle(), privileged=True, frame_ms=frame_ms, turn_taking=natural)
    assert record.error is None
    assert score_episode(item, record.events).status == "ok"


def test_a_caller_persona_changes_the_callers_voice_not_the_agents() -> None:
    item = fixture_item("form-expense-correction")
    persona = CallerConfig(personas=("patient-american",))
    episode = AudioEpisode(
        EpisodeSetup(item, item_checksum(item), "tests", "oracle", "accents", 0, 0),
        AudioOracle(),
        SpeechBank(),
        privileged=True,
        config=AudioChannelConfig(user_voice="synthetic:alto", caller=persona),
    )
    assert episode.voice == "hibari:heart"
    speech = cast(BankSpeech, episode.audio_session().speech)  # what the harness lends
    assert speech.default_voice == "synthetic:alto"


@pytest.mark.parametrize(
    ("item_voice", "agent"),
    [
        ("piper:joe", "hibari:heart"),  # the clean caller: the agent's own voice
        ("hibari:heart", "piper:joe"),  # a caller on the agent's voice at its pitch
    ],
)
def test_local_agents_speak_the_agent_voice_in_every_condition(item_voice: str, agent: str) -> None:
    item = fixture_item("form-expense-correction")
    for personas in (("neutral",), ("warm-american",), ("brisk-american",)):
        caller = CallerConfig(personas=personas)
        setup = EpisodeSetup(item, item_checksum(item), "tests", "oracle", "accents", 0, 0)
        config = AudioChannelConfig(user_voice=item_voice, caller=caller)
        episode = AudioEpisode(setup, AudioOracle(), SpeechBank(), privileged=True, config=config)
        speech = cast(BankSpeech, episode.audio_session().speech)
        assert speech.default_voice == agent, personas
        episode.open()  # the trace names the voice the agent was lent
        (condition,) = of(episode.recorder.events, ConditionSetup)
        assert condition.data.agent_voice == agent


def test_the_oracle_is_not_talked_over_at_its_sentence_breaks() -> None:
    """Bug: with hibari:heart lent to the agent, its 730 ms pause between "The order is
    complete." and "Shall I place the order now?" let the clean caller (700 ms response
    gap) answer "Okay." in between, and the oracle never got its approval."""
    pytest.importorskip("hibari")
    item = fixture_item("order-revocation")
    setup = EpisodeSetup(item, item_checksum(item), "tests", "oracle", "clean", 0, 0)
    config = AudioChannelConfig(user_voice="piper:joe")
    record = AudioEpisode(setup, AudioOracle(), SpeechBank(), privileged=True, config=config).run()
    assert record.error is None
    assert score_episode(item, record.events).status == "ok"
