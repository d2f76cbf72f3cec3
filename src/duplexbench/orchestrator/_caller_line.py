"""The caller's side of the line in one audio episode.

Holds the frozen caller (persona, turn-taking, effects, out-of-turn sounds),
degrades each clean user frame through the streaming effects chain before the
agent gets it (the clean frame stays on channel 0 of `audio.wav`; what the
agent received goes to `user_line.wav`), writes the effect timeline into the
trace as `user.effect` events as effects end, and renders out-of-turn sounds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from duplexbench.audio import (
    SAMPLE_RATE,
    EffectEvent,
    Int16Array,
    RecordingSource,
    UserLine,
    off_axis,
    sha256_pcm,
    tic_clip,
)
from duplexbench.speech import Clip, SpeechBank
from duplexbench.trace import ConditionSetupData, Recorder, UserEffectData, UserUtteranceData
from duplexbench.users import (
    FloorMoment,
    FrozenCaller,
    Listening,
    OutOfTurnSounds,
    Sound,
    derived_seed,
)


def recordings(folder: str) -> RecordingSource:
    """The recordings of a noise folder, read and checked once per version of its files
    (ValueError naming the file for an unreadable or silent one; other rates are
    resampled)."""
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    signature = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    return _load_recordings(folder, signature)


@functools.lru_cache(maxsize=4)
def _load_recordings(folder: str, signature: tuple[tuple[str, int, int], ...]) -> RecordingSource:
    del signature  # part of the cache key only
    return RecordingSource(Path(folder))


class CallerLine:
    def __init__(self, caller: FrozenCaller, recorder: Recorder, bank: SpeechBank) -> None:
        self.caller, self.recorder, self.bank = caller, recorder, bank
        effects = caller.effects
        source = None if caller.noise_dir is None else recordings(caller.noise_dir)
        self.line = None if effects is None else UserLine(effects, caller.effects_seed, source)
        oot = caller.out_of_turn
        seed = derived_seed(caller.seed, "sounds")
        self.sounds = None if oot is None else OutOfTurnSounds(oot, seed)
        self.sent: list[Int16Array] = []
        self.settings = caller.settings()

    @property
    def delay_ms(self) -> int:
        return 0 if self.line is None else self.line.delay_ms

    def emit_setup(
        self, condition: str, simulator: dict[str, str | None], agent_voice: str
    ) -> None:
        frozen = self.caller.to_trace()
        data = ConditionSetupData(
            condition=condition,
            line_delay_ms=self.delay_ms,
            simulator=simulator,
            agent_voice=agent_voice,
            **frozen,
        )
        self.recorder.emit(0, data)

    def clip(self, text: str, speed: float = 1.0) -> Clip:
        """The caller saying `text` in their voice, rate and pitch; `speed` scales their
        rate (a caller asked to slow down)."""
        settings = self.settings
        if speed != 1.0:
            settings = replace(settings, speed=round(settings.speed * speed, 3))
        clip = self.bank.clip(text, self.caller.voice, settings)
        if self.line is not None:
            self.line.note_speech(clip.samples)
        return clip

    def send(self, clean: Int16Array, t: int) -> Int16Array:
        """The frame the agent receives for the clean user frame starting at `t`."""
        if self.line is None:
            return clean
        sent = self.line.process(clean)
        self.sent.append(sent)
        self._emit(self.line.drain(), t)
        return sent

    def _emit(self, events: list[EffectEvent], t: int) -> None:
        for e in events:
            data = UserEffectData(
                effect=e.type, start_ms=e.start_ms, end_ms=e.end_ms, params=e.params
            )
            self.recorder.emit(t, data)  # stamped when known: never ahead of now

    def due_sound(self, now: int, user_silent: bool) -> Sound | None:
        return None if self.sounds is None else self.sounds.due(now, user_silent)

    def decider(self, goal: str, now: Callable[[], int]) -> Callable[[Listening], bool] | None:
        """The optional LLM decision model, as the floor's interrupt hook (None: the rule)."""
        if self.caller.decider is None:
            return None
        model, persona = self.caller.decider.build(), self.caller.persona.description

        def decide(heard: Listening) -> bool:
            return model.should_interrupt(FloorMoment(now(), heard.text, persona, goal))

        return decide

    def say_sound(self, sound: Sound, t: int) -> Int16Array:
        """Log an out-of-turn sound starting at `t` (`user.utterance` of its kind); its samples."""
        samples, text = self.render(sound)
        data = UserUtteranceData(
            text=text,
            end_ms=t + len(samples) * 1000 // SAMPLE_RATE,
            plan_ids=[],
            voice=self.caller.voice if sound.kind == "non_directed" else None,
            audio_sha256=sha256_pcm(samples),
            kind=sound.kind,
        )
        self.recorder.emit(t, data)
        return samples

    def render(self, sound: Sound) -> tuple[Int16Array, str]:
        """Samples and a transcript (`(cough)` or the remark) of an out-of-turn sound."""
        if sound.kind == "vocal_tic":
            assert self.caller.out_of_turn is not None
            rng = np.random.default_rng(sound.seed)
            return tic_clip(
                sound.what, rng, self.caller.out_of_turn.tic_level_dbfs
            ), f"({sound.what})"
        return off_axis(self.clip(sound.what).samples), sound.what

    def close(self, t: int) -> Int16Array | None:
        """End of call: the still-open effects; the degraded channel (None on a clean line)."""
        if self.line is None:
            return None
        self._emit(self.line.close(), t)
        return np.concatenate(self.sent) if self.sent else np.zeros(0, dtype=np.int16)
