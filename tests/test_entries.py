"""Checked cache entries and remembered file digests."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from duplexbench.entries import CheckedEntries, cache_root, file_digest


def test_an_entry_round_trips_and_a_tampered_one_is_removed(tmp_path: Path) -> None:
    store = CheckedEntries(tmp_path, 1, "test cache")
    store.put("ab" * 32, {"value": [1, 2, 3]})
    assert store.get("ab" * 32) == {"value": [1, 2, 3]}
    path = store.path("ab" * 32)
    path.write_text(path.read_text().replace("3]", "4]"))  # the payload, not its sha256
    assert store.get("ab" * 32) is None and store.replaced == 1 and not path.exists()
    other = CheckedEntries(tmp_path, 2, "test cache")  # another format: not trusted
    store.put("cd" * 32, {"value": 1})
    assert other.get("cd" * 32) is None


def test_a_file_digest_is_hashed_once_and_again_when_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUPLEXBENCH_SPEECH_CACHE", str(tmp_path / "cache"))
    model = tmp_path / "model.bin"
    model.write_bytes(b"weights" * 1000)
    expected = hashlib.sha256(model.read_bytes()).hexdigest()
    assert file_digest(model) == expected
    assert len(list((cache_root() / "digests").glob("*/*.json"))) == 1
    assert file_digest(model) == expected  # read back, not a second entry
    assert len(list((cache_root() / "digests").glob("*/*.json"))) == 1
    model.write_bytes(b"other weights" * 1000)
    os.utime(model, ns=(1, 1))  # a new mtime even on a coarse clock
    assert file_digest(model) == hashlib.sha256(model.read_bytes()).hexdigest()
