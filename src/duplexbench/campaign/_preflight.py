"""Fail fast, before the first episode, on what would fail every episode.

Both item families call `preflight` when a run is prepared: the agent is
created once for the channel (it has the channel and accepts its options; a
step or text agent is closed again, a streaming agent has not connected
yet), the `--noise-dir` recordings are checked when the condition has line
effects (contained, regular files, within the limits, readable WAV), and
every voice the episodes will speak (the items' and the condition's
personas') has its TTS engine installed (`SpeechUnavailable` otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from duplexbench.agents import AgentInfo, AgentSpec, StepAgent, StreamingAgent, TextAgent
from duplexbench.campaign._conditions import Condition, check_noise_dir
from duplexbench.orchestrator import recordings
from duplexbench.speech import VoiceRef, get_tts
from duplexbench.users import NEUTRAL, get_persona


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
    needed = set(voices)
    needed |= {get_persona(p).voice for p in condition.caller.personas if p != NEUTRAL}
    for voice in sorted(needed):
        get_tts(VoiceRef.parse(voice).engine).version()
