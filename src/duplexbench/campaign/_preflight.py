"""Fail fast, before the first episode, on what would fail every episode.

Both item families call `preflight` when a run is prepared: the agent is
created once for the channel (it has the channel and accepts its options; a
step or text agent is closed again, a streaming agent has not connected
yet), the `--noise-dir` recordings are checked when the condition has line
effects (contained, regular files, within the limits, readable WAV), and
every voice the episodes will speak (the items' and the condition's
personas') has its TTS engine installed (`SpeechUnavailable` otherwise, naming
the package; a persona's fallback voice stands in only when the run allows
it: `--allow-voice-fallback`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from duplexbench.agents import AgentInfo, AgentSpec, StepAgent, StreamingAgent, TextAgent
from duplexbench.campaign._conditions import Condition, check_noise_dir
from duplexbench.orchestrator import recordings
from duplexbench.speech import SpeechUnavailable, VoiceRef, agent_voice_for, get_tts
from duplexbench.users import NEUTRAL, get_persona, missing_engine


def preflight(
    info: AgentInfo,
    spec: AgentSpec,
    condition: Condition,
    voices: Iterable[str],
    noise_dir: str | None,
) -> None:
    """ValueError (or SpeechUnavailable) naming what would fail every episode."""
    agent = info.create(spec, condition.channel)
    if isinstance(agent, TextAgent | StepAgent):
        agent.close()
    elif not isinstance(agent, StreamingAgent):
        raise ValueError(f"agent {info.name!r} has no {condition.channel} channel")
    if noise_dir is not None and condition.caller.effects is not None:
        check_noise_dir(Path(noise_dir))  # contained, regular, within the limits
        recordings(noise_dir)  # a bad recording fails here, before any episode
    if condition.channel != "audio":
        return
    voices = set(voices)
    lent = {agent_voice_for([(voice, 0.0)]) for voice in voices}  # what local agents speak
    for voice in sorted(voices | lent):
        get_tts(VoiceRef.parse(voice).engine).version()
    check_personas(condition)


def check_personas(condition: Condition) -> None:
    """Every persona of the condition can speak: its engine is installed, or (the run
    allows it) its fallback voice's is. SpeechUnavailable names the package otherwise."""
    for name in condition.caller.personas:
        persona = get_persona(name)
        if name == NEUTRAL or (why := missing_engine(persona.voice)) is None:
            continue
        if not persona.fallback:
            raise SpeechUnavailable(f"persona {name} speaks with {persona.voice}: {why}")
        if not condition.caller.voice_fallback:
            raise SpeechUnavailable(
                f"persona {name} speaks with {persona.voice}: {why}; or pass "
                f"--allow-voice-fallback to have {persona.fallback} speak for it "
                "(docs/personas.md)"
            )
        if (fallback_why := missing_engine(persona.fallback)) is not None:
            raise SpeechUnavailable(f"persona {name}'s fallback {persona.fallback}: {fallback_why}")
