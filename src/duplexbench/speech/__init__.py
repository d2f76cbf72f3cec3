"""Speech: text-to-speech engines, the frozen speech bank and speech recognition.

- :mod:`~duplexbench.speech._tts` — ``VoiceRef`` (``engine:voice``) and the
  engine registry; :mod:`~duplexbench.speech._tts_types` — ``SynthesisSettings``,
  the ``TTSEngine`` protocol and the errors every engine shares.
- :mod:`~duplexbench.speech._engines` — ``piper`` (default voice ``piper:joe``),
  ``espeak`` and ``flite``; :mod:`~duplexbench.speech._synthetic` — the fast,
  unintelligible ``synthetic`` engine for tests and loop timing.
- :mod:`~duplexbench.speech._agent_voice` — ``AGENT_VOICE`` (``hibari:heart``), the
  voice local agents speak with, kept apart from the caller's (``agent_voice_for``).
- :mod:`~duplexbench.speech._bank` — ``SpeechBank``: render once, keep on disk.
- :mod:`~duplexbench.speech._asr` — ``ASREngine`` and the ``whisper`` backend;
  :mod:`~duplexbench.speech._asr_types` — ``Transcript``, ``Word`` and ``TranscriptSegment``
  (a stretch's confidence: ``avg_logprob``, ``no_speech_prob``).
- :mod:`~duplexbench.speech._voice_check` — a voice's real-time factor and
  round-trip word error rate on a fixed sentence set (``duplexbench voices``).

Optional engines load lazily: importing this package needs only numpy/soxr.
"""

from duplexbench.speech._agent_voice import (
    AGENT_FALLBACK_VOICE,
    AGENT_LEAD_MS,
    AGENT_MAX_PAUSE_MS,
    AGENT_PITCH_GAP,
    AGENT_TRAIL_MS,
    AGENT_VOICE,
    agent_voice_for,
)
from duplexbench.speech._asr import (
    ASREngine,
    ASRError,
    Transcript,
    TranscriptSegment,
    Word,
    asr_engines,
    get_asr,
    is_silent,
    register_asr,
)
from duplexbench.speech._bank import (
    BankStats,
    Clip,
    ClipRequest,
    PrerenderFailure,
    PrerenderReport,
    SpeechBank,
    use_remote_renderer,
)
from duplexbench.speech._engines import check_pitch
from duplexbench.speech._piper_session import keep_arena
from duplexbench.speech._segments import render_segment, speech_duration_ms
from duplexbench.speech._threads import threads_per_worker, use_worker_share, worker_environment
from duplexbench.speech._tts import (
    DEFAULT_VOICE,
    SpeechUnavailable,
    SynthesisSettings,
    TTSEngine,
    TTSError,
    VoiceRef,
    get_tts,
    register_tts,
    tts_engines,
)
from duplexbench.speech._voice_check import (
    NEURAL,
    VOICE_SENTENCES,
    EngineVoices,
    Listener,
    SentenceCheck,
    VoiceCheck,
    check_voice,
    engine_voices,
    normalize_words,
    reference_listener,
    word_edits,
    word_error_rate,
)

__all__ = [
    "AGENT_FALLBACK_VOICE",
    "AGENT_LEAD_MS",
    "AGENT_MAX_PAUSE_MS",
    "AGENT_PITCH_GAP",
    "AGENT_TRAIL_MS",
    "AGENT_VOICE",
    "DEFAULT_VOICE",
    "NEURAL",
    "VOICE_SENTENCES",
    "ASREngine",
    "ASRError",
    "BankStats",
    "Clip",
    "ClipRequest",
    "EngineVoices",
    "Listener",
    "PrerenderFailure",
    "PrerenderReport",
    "SentenceCheck",
    "SpeechBank",
    "SpeechUnavailable",
    "SynthesisSettings",
    "TTSEngine",
    "TTSError",
    "Transcript",
    "TranscriptSegment",
    "VoiceCheck",
    "VoiceRef",
    "Word",
    "agent_voice_for",
    "asr_engines",
    "check_pitch",
    "check_voice",
    "engine_voices",
    "get_asr",
    "get_tts",
    "is_silent",
    "keep_arena",
    "normalize_words",
    "reference_listener",
    "register_asr",
    "register_tts",
    "render_segment",
    "speech_duration_ms",
    "threads_per_worker",
    "tts_engines",
    "use_remote_renderer",
    "use_worker_share",
    "word_edits",
    "word_error_rate",
    "worker_environment",
]
