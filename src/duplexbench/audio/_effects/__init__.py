"""Deterministic user-channel effects: noise, bursts, muffling, telephony, frame drops.

Whole clips with :func:`apply_effects`, a live line frame by frame with :class:`UserLine`.
"""

from duplexbench.audio._effects.chain import (
    EffectEvent,
    EffectsConfig,
    EffectsResult,
    apply_effects,
    schedule_bursts,
    speech_power,
    tic_clip,
)
from duplexbench.audio._effects.line import UserLine
from duplexbench.audio._effects.sources import (
    BURST_DURATION_MS,
    BURST_KINDS,
    NOISE_KINDS,
    TIC_KINDS,
    ProceduralSource,
    RecordingSource,
    Source,
)
from duplexbench.audio._effects.telephony import (
    band_pass,
    gilbert_elliott_mask,
    mulaw_decode,
    mulaw_encode,
    telephone,
)

__all__ = [
    "BURST_DURATION_MS",
    "BURST_KINDS",
    "NOISE_KINDS",
    "TIC_KINDS",
    "EffectEvent",
    "EffectsConfig",
    "EffectsResult",
    "ProceduralSource",
    "RecordingSource",
    "Source",
    "UserLine",
    "apply_effects",
    "band_pass",
    "gilbert_elliott_mask",
    "mulaw_decode",
    "mulaw_encode",
    "schedule_bursts",
    "speech_power",
    "telephone",
    "tic_clip",
]
