"""The effects chain: SNR, bursts, determinism, lengths, clipping, timeline."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from duplexbench.audio._effects import (
    EffectsConfig,
    apply_effects,
    schedule_bursts,
    speech_power,
)

SR = 16_000
ONLY = EffectsConfig(muffle=False, noise=False, bursts=False, telephony=False, frame_drops=False)
STAGES = ("muffle", "noise", "bursts", "telephony", "frame_drops")


def _speech(seconds: float = 10.0, amp: float = 10_000.0) -> np.ndarray:
    """A 1 kHz tone in the first half, silence in the second (active power amp**2 / 2)."""
    n = int(seconds * SR)
    x = np.zeros(n)
    x[: n // 2] = amp * np.sin(2 * np.pi * 1000 * np.arange(n // 2) / SR)
    return np.rint(x).astype(np.int16)


@pytest.mark.parametrize("kind", ["indoor", "outdoor", "babble"])
def test_background_snr_without_drift(kind: str) -> None:
    clean = _speech()
    cfg = replace(ONLY, noise=True, noise_kinds=(kind,), snr_drift_db=0.0)
    out = apply_effects(clean, cfg, seed=4)
    noise = out.degraded.astype(np.float64) - clean
    snr = 10 * np.log10(10_000.0**2 / 2 / np.mean(noise**2))
    assert abs(snr - 15.0) < 0.5
    (event,) = out.timeline
    assert event.type == "background_noise" and event.params["kind"] == kind


def test_snr_drift_stays_in_range() -> None:
    cfg = replace(ONLY, noise=True)
    event = apply_effects(_speech(60.0), cfg, seed=2).timeline[0]
    assert 12.0 <= float(event.params["snr_min_db"]) < float(event.params["snr_max_db"]) <= 18.0


def test_silent_input_uses_the_reference_level() -> None:
    assert speech_power(np.zeros(SR, dtype=np.int16)) == pytest.approx(
        (32768 * 10 ** (-26 / 20)) ** 2
    )
    out = apply_effects(np.zeros(SR * 2, dtype=np.int16), replace(ONLY, noise=True), seed=1)
    assert out.degraded.any()


def test_poisson_burst_rate_over_long_audio() -> None:
    hours = 200
    onsets = schedule_bursts(hours * 3600 * SR, 1.0, np.random.default_rng(11))
    assert abs(len(onsets) / (hours * 60) - 1.0) < 0.04
    gaps = np.diff(onsets) / SR
    assert abs(float(np.mean(gaps)) - 60.0) < 60.0 * 0.04
    assert schedule_bursts(SR, 0.0, np.random.default_rng(0)) == []


def test_bursts_inside_audio_with_configured_snr() -> None:
    cfg = replace(ONLY, bursts=True, bursts_per_minute=6.0)
    clean = _speech(120.0)
    out = apply_effects(clean, cfg, seed=5)
    assert out.timeline
    for event in out.timeline:
        assert event.type == "burst" and -5.0 <= float(event.params["snr_db"]) <= 10.0
        assert 0 <= event.start_ms < event.end_ms <= 120_000


def test_same_seed_identical_other_seed_differs() -> None:
    clean = _speech(20.0)
    a = apply_effects(clean, seed=1)
    b = apply_effects(clean, seed=1)
    c = apply_effects(clean, seed=2)
    assert np.array_equal(a.degraded, b.degraded) and a.timeline == b.timeline
    assert not np.array_equal(a.degraded, c.degraded)
    assert a.timeline != c.timeline


def test_noise_kind_depends_on_seed() -> None:
    cfg = replace(ONLY, noise=True)
    kinds = {
        apply_effects(np.zeros(SR // 10, dtype=np.int16), cfg, seed=s).timeline[0].params["kind"]
        for s in range(20)
    }
    assert kinds == {"indoor", "outdoor"}


def test_stages_draw_from_independent_streams() -> None:
    clean = _speech(120.0)
    full = apply_effects(clean, replace(EffectsConfig(), bursts_per_minute=5.0), seed=3)
    no_tel = apply_effects(
        clean, replace(EffectsConfig(), bursts_per_minute=5.0, telephony=False), seed=3
    )
    assert [e for e in full.timeline if e.type != "telephony"] == list(no_tel.timeline)


def _square(n: int, amp: int) -> np.ndarray:
    return (amp * np.sign(np.sin(2 * np.pi * 200 * np.arange(n) / SR))).astype(np.int16)


@pytest.mark.parametrize("stage", [*STAGES, "all"])
def test_every_stage_keeps_length_and_clips_without_wrapping(stage: str) -> None:
    n = SR * 30 + 123
    loud = _square(n, 32767)
    on: dict[str, Any] = {stage: True}
    cfg = EffectsConfig() if stage == "all" else replace(ONLY, **on)
    cfg = replace(cfg, bursts_per_minute=10.0, noise_snr_db=-5.0)
    out = apply_effects(loud, cfg, seed=9)
    y = out.degraded
    assert y.dtype == np.int16 and y.shape == loud.shape
    if stage in ("noise", "bursts"):  # additive: the same seed at 1/32.767 the level scales
        small = _square(n, 1000)
        added = apply_effects(small, cfg, seed=9).degraded.astype(np.float64) - small
        expected = np.clip(loud + 32.767 * added, -32768, 32767)
        assert np.max(np.abs(y - expected)) <= 20  # rounding only: clipped, never wrapped
        assert y.max() == 32767
    duration_ms = -(-n * 1000 // SR)
    for event in out.timeline:
        assert 0 <= event.start_ms < event.end_ms <= duration_ms
        json.dumps(event.to_dict())


def test_default_chain_on_speechlike_audio() -> None:
    clean = _speech(60.0)
    out = apply_effects(clean, seed=0)
    types = {e.type for e in out.timeline}
    assert {"background_noise", "telephony"} <= types
    assert out.degraded.shape == clean.shape
    starts = [e.start_ms for e in out.timeline]
    assert starts == sorted(starts)
    drops = [e for e in out.timeline if e.type == "frame_drop"]
    for event in drops:
        a, b = event.start_ms * SR // 1000, event.end_ms * SR // 1000
        assert not out.degraded[a:b].any()


def test_empty_input_and_bad_arguments() -> None:
    out = apply_effects(np.zeros(0, dtype=np.int16), seed=0)
    assert out.degraded.shape == (0,) and out.timeline == ()
    with pytest.raises(ValueError, match="int16"):
        apply_effects(np.zeros(10, dtype=np.float32), seed=0)
    with pytest.raises(ValueError, match="seed"):
        apply_effects(np.zeros(10, dtype=np.int16), seed=-1)


@pytest.mark.parametrize(
    "change",
    [
        {"muffle_probability": 1.5},
        {"noise_kinds": ("jungle",)},
        {"burst_kinds": ()},
        {"burst_snr_db": (10.0, -5.0)},
        {"drop_frame_ms": 0},
        {"drop_burst_ms": 10},
    ],
)
def test_config_validation(change: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        replace(EffectsConfig(), **change)


def test_config_is_json_safe() -> None:
    assert json.loads(json.dumps(EffectsConfig().to_dict()))["noise_snr_db"] == 15.0
