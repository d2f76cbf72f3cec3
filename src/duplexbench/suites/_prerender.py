"""`duplexbench suite build`: render every clip a suite can need into the speech bank."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

from duplexbench.items import ActionSuite, Suite
from duplexbench.speech import (
    DEFAULT_VOICE,
    ClipRequest,
    PrerenderReport,
    SpeechBank,
    SynthesisSettings,
    VoiceRef,
    agent_voice_for,
)
from duplexbench.users import NEUTRAL, Realizer, RepairTraits, get_persona, repeat_speed
from duplexbench.values import SpellingStyle


def _voice(name: str | None) -> str:
    return str(DEFAULT_VOICE if name in (None, "", "default") else VoiceRef.parse(name))


def build_requests(
    suite: Suite | ActionSuite, user_voice: str | None = None, agent_voice: str | None = None
) -> list[tuple[str, str] | ClipRequest]:
    """(text, voice) of every user realization and every oracle line of the suite (in
    the voice local agents speak with in the clean condition, `speech/_agent_voice.py`), and
    the clean caller's repairs (each value said again, spelled in every style, read digit
    by digit) at its repeat rate; for an action suite, of every segment (in its own
    voice: the timing depends on it)."""
    if isinstance(suite, ActionSuite):
        segments = [(s.text, s.voice) for item in suite.items for s in item.segments]
        return list(dict.fromkeys(segments))
    requests: list[tuple[str, str] | ClipRequest] = []
    styles: tuple[SpellingStyle, ...] = get_args(SpellingStyle)
    repairs = SynthesisSettings(speed=repeat_speed(RepairTraits.of(get_persona(NEUTRAL))))
    for item in suite.items:
        voice = _voice(user_voice or item.user.persona.voice)
        realizer = Realizer(item.id, item.user, 0, 0)
        requests += [(text, voice) for text in realizer.all_texts()]
        requests += [ClipRequest(t, voice, repairs) for t in realizer.repair_texts(styles)]
        oracle = _voice(agent_voice) if agent_voice else agent_voice_for([(voice, 0.0)])
        requests += [(t.say, oracle) for t in item.reference.turns if t.say.strip()]
    return list(dict.fromkeys(requests))


def build_suite(
    suite: Suite | ActionSuite,
    bank: SpeechBank,
    progress: Callable[[int, int], None] | None = None,
    user_voice: str | None = None,
) -> PrerenderReport:
    return bank.prerender(build_requests(suite, user_voice), progress)
