"""The piece cache: long lines reuse the pieces they share, with the same samples."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pytest

from duplexbench import entries
from duplexbench.audio._pcm import Int16Array
from duplexbench.speech._bank import PIECES_FOLDER, SpeechBank
from duplexbench.speech._pieces import PieceStore, joined, speak_pieces

PIECES = ["Here is what I have:", "supplier Acme,", "quantity 12.", "Shall I go ahead?"]


class Speaker:
    """A deterministic stand-in for an engine: each piece's audio depends on its text."""

    def __init__(self) -> None:
        self.spoken: list[str] = []

    def __call__(self, piece: str) -> Int16Array:
        self.spoken.append(piece)
        seed = sum(piece.encode())
        return np.arange(seed % 50 + len(piece), dtype=np.int16) * (seed % 7 + 1)


def test_a_line_is_the_same_samples_with_and_without_the_store(tmp_path: Path) -> None:
    plain = speak_pieces(PIECES, Speaker(), 5)
    store, first = PieceStore(tmp_path), Speaker()
    assert np.array_equal(speak_pieces(PIECES, first, 5, store, "engine v1"), plain)
    assert first.spoken == PIECES and store.disk.misses == 4
    again = Speaker()
    assert np.array_equal(speak_pieces(PIECES, again, 5, store, "engine v1"), plain)
    assert again.spoken == [] and store.disk.hits == 4


def test_only_the_changed_piece_is_spoken(tmp_path: Path) -> None:
    store = PieceStore(tmp_path)
    speak_pieces(PIECES, Speaker(), 5, store, "v1")
    changed = [*PIECES[:2], "quantity 20.", PIECES[3]]
    speaker = Speaker()
    out = speak_pieces(changed, speaker, 5, store, "v1")
    assert speaker.spoken == ["quantity 20."]
    assert np.array_equal(out, speak_pieces(changed, Speaker(), 5))


def test_another_engine_identity_never_shares_pieces(tmp_path: Path) -> None:
    store = PieceStore(tmp_path)
    speak_pieces(PIECES, Speaker(), 5, store, "v1")
    speaker = Speaker()
    speak_pieces(PIECES, speaker, 5, store, "v1 / speed 1.2")
    assert speaker.spoken == PIECES


def test_gaps_go_between_pieces_with_audio_only() -> None:
    parts = [np.ones(2, np.int16), np.ones(3, np.int16)]
    assert joined(parts, 2).tolist() == [1, 1, 0, 0, 1, 1, 1]
    assert joined([], 4).size == 0

    def speak(piece: str) -> Int16Array:
        return np.ones(0 if piece == "-" else 2, np.int16)

    assert speak_pieces(["a", "-", "b"], speak, 1).tolist() == [1, 1, 0, 1, 1]


@pytest.mark.parametrize("damage", ["flip", "truncate", "other key"])
def test_a_damaged_piece_is_spoken_again_and_replaced(tmp_path: Path, damage: str) -> None:
    store = PieceStore(tmp_path)
    want = speak_pieces(PIECES, Speaker(), 5, store, "v1")
    path = store.disk.path(PieceStore.key("v1", PIECES[1]))
    raw = path.read_bytes()
    if damage == "flip":
        at = raw.index(b'"pcm"') + 12  # inside the base64 samples
        path.write_bytes(raw[:at] + (b"B" if raw[at : at + 1] == b"A" else b"A") + raw[at + 1 :])
    elif damage == "truncate":
        path.write_bytes(raw[: len(raw) // 2])
    else:  # a valid entry of another piece, under this one's name
        path.write_bytes(store.disk.path(PieceStore.key("v1", PIECES[2])).read_bytes())
    speaker = Speaker()
    assert np.array_equal(speak_pieces(PIECES, speaker, 5, store, "v1"), want)
    assert speaker.spoken == [PIECES[1]] and store.disk.replaced == 1
    assert store.get(PieceStore.key("v1", PIECES[1])) is not None  # replaced on disk


def test_a_full_disk_is_a_warning_and_the_line_is_still_spoken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(entries, "write_text_atomic", full)
    with pytest.warns(RuntimeWarning, match="speech piece cache"):
        out = speak_pieces(PIECES, Speaker(), 5, PieceStore(tmp_path), "v1")
    assert np.array_equal(out, speak_pieces(PIECES, Speaker(), 5))


def test_piper_reuses_the_pieces_of_a_long_line_with_the_same_samples(tmp_path: Path) -> None:
    pytest.importorskip("piper")
    values = "supplier Cobalt Hospitality, item A4 copy paper, quantity {}, delivery date June 9"
    line = "Here is what I have: " + values + ", cost center CC-42. Shall I place order now?"
    bank = SpeechBank(tmp_path / "bank")
    bank.clip(line.format(10), "piper:joe")
    written = len(list((tmp_path / "bank" / PIECES_FOLDER).rglob("*.json")))
    assert written >= 2  # a long line: its pieces were kept
    changed = bank.clip(line.format(12), "piper:joe")
    assert bank.pieces.disk.hits >= 1  # the pieces before the changed value came back
    fresh = SpeechBank(tmp_path / "fresh").clip(line.format(12), "piper:joe")
    assert changed.sha256 == fresh.sha256 and changed.key == fresh.key
