"""Agent playback: frame delivery, word timing, sealing, cancel."""

from __future__ import annotations

import numpy as np

from duplexbench.orchestrator._playback import Playback


def ones(ms: int) -> np.ndarray:
    return np.ones(ms * 16, dtype=np.int16)


def test_delivery_is_frame_by_frame_and_silence_padded() -> None:
    p = Playback()
    p.audio(ones(30))
    p.seal()
    first = p.pull(320, 0)
    second = p.pull(320, 20)
    assert first.active and first.samples.sum() == 320
    assert second.active and second.samples.sum() == 160 and second.samples[160:].sum() == 0
    assert p.idle and not p.pull(320, 40).active


def test_words_spread_by_characters_and_heard_when_played() -> None:
    p = Playback()
    p.text("aa bbbbbb")  # ends at 3/10 and 10/10 of the audio
    p.audio(ones(100))
    p.seal()
    heard = []
    for t in range(0, 100, 20):
        heard += p.pull(320, t).words
    assert [(w.word, w.t_ms) for w in heard] == [("aa", 30), ("bbbbbb", 100)]


def test_open_chunk_words_wait_for_the_seal() -> None:
    p = Playback()
    p.text("hello")
    p.audio(ones(20))
    assert p.pull(320, 0).words == []  # not sealed yet: the text may still grow
    p.text("world")  # seals "hello"
    p.audio(ones(20))
    p.seal()
    words = p.pull(320, 20).words + p.pull(320, 40).words
    assert [w.word for w in words] == ["hello", "world"]


def test_cancel_drops_unplayed_and_reports_unheard_words() -> None:
    p = Playback()
    p.text("one two three four")
    p.audio(ones(80))
    p.seal()
    p.pull(320, 0)
    p.pull(320, 20)
    dropped, unheard = p.cancel()
    assert dropped == 40 * 16 and unheard == "three four"
    assert p.idle


def test_text_without_audio_is_never_heard() -> None:
    p = Playback()
    p.text("silent words")
    p.seal()
    assert p.pull(320, 0).words == [] and p.idle


def test_overflow_is_detected() -> None:
    p = Playback(max_buffer_ms=100)
    p.audio(ones(90))
    assert not p.overflowing
    p.audio(ones(20))
    assert p.overflowing
