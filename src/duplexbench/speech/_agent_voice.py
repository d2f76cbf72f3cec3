"""The voice the harness lends local agents, and how it stays apart from the caller's.

A local agent (``reference``, ``listener``, a scripted or plug-in agent that speaks
through the harness's speech kit) says its lines with :data:`AGENT_VOICE`:
``hibari:heart`` at its own pitch (0) and rate (1.0). Why that voice, measured with
``duplexbench voices`` on the fixed sentence set (docs/audio.md): real-time factor
about 0.008 against piper ``joe``'s 0.058, and the lowest round-trip word error rate of
the neural voices. A pitch shift would cost it both: at ±3 semitones hibari renders
slower and resamples, and its RTF rose to 0.035-0.050 and its WER from 3.2% to 4.2-5.3%
(the eight sentences of the set, whisper tiny.en, one core), so the agent keeps the voice's
own pitch and the caller personas on the same voice keep their distance instead.

The rule: no caller speaks the agent's voice within :data:`AGENT_PITCH_GAP` semitones
of the agent's pitch. The built-in personas keep it by construction
(`users/_personas.py`, checked by tests/users/test_personas.py). A caller who breaks
it anyway (``--voice hibari:heart``, an action item whose segments use that voice) gets
an agent that speaks :data:`AGENT_FALLBACK_VOICE` instead (:func:`agent_voice_for`),
so the two sides of a recording never sound alike. A caller on the ``synthetic``
engine (tests and loop timing: fast, unintelligible) keeps the agent on that voice too,
as every agent spoke before version 4 of the reference agent: the item's voice.
"""

from __future__ import annotations

from collections.abc import Iterable

from duplexbench.speech._tts import VoiceRef

__all__ = [
    "AGENT_FALLBACK_VOICE",
    "AGENT_LEAD_MS",
    "AGENT_MAX_PAUSE_MS",
    "AGENT_PITCH_GAP",
    "AGENT_TRAIL_MS",
    "AGENT_VOICE",
    "agent_voice_for",
]

AGENT_VOICE = VoiceRef("hibari", "heart")
"""The voice local agents speak with, at pitch 0 and rate 1.0."""
AGENT_FALLBACK_VOICE = VoiceRef("piper", "joe")
"""The agent's voice when a caller of the episode speaks :data:`AGENT_VOICE` too close."""
AGENT_MAX_PAUSE_MS = 400
"""The longest pause inside a lent line (`audio.cap_pauses`): hibari pauses about 730 ms
between two sentences, longer than the simulated caller's 700 ms response gap, so the
caller took the break for the end of the agent's turn and talked over the rest
(piper pauses about 350 ms and is unchanged)."""
AGENT_LEAD_MS, AGENT_TRAIL_MS = 50, 150
"""The most quiet before and after the speech of a lent line: hibari pads its clips with
about 320 ms before and 480 ms after (piper about 50 and 140-220), and the 320 ms went
into every response latency measured of an agent speaking it (1010 ms median on
actions-v1 against 740 ms with piper)."""
AGENT_PITCH_GAP = 2.0
"""The least pitch distance, in semitones, between the agent and a caller on its voice."""


def agent_voice_for(callers: Iterable[tuple[str, float]]) -> str:
    """The agent's voice for an episode whose callers speak ``(voice, pitch)``:
    :data:`AGENT_VOICE`, or :data:`AGENT_FALLBACK_VOICE` when one of them speaks the
    agent's voice less than :data:`AGENT_PITCH_GAP` semitones from its pitch 0; a
    ``synthetic`` caller's voice when there is one (module docstring)."""
    chosen = AGENT_VOICE
    for voice, pitch in callers:
        ref = VoiceRef.parse(voice)
        if ref.engine == "synthetic":
            return str(ref)
        if ref == AGENT_VOICE and abs(pitch) < AGENT_PITCH_GAP:
            chosen = AGENT_FALLBACK_VOICE
    return str(chosen)
