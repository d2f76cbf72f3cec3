"""The embedder's on-disk cache: a new process embeds nothing twice, and a hit changes nothing."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from duplexbench import entries
from duplexbench.users._observer import embedder as embedder_module
from duplexbench.users._observer.embedder import MODEL, Embedder, VectorStore


@pytest.fixture
def store_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "embeddings"
    monkeypatch.setenv("DUPLEXBENCH_EMBEDDING_CACHE", str(root))
    return root


class CountingModel:
    """Wraps the real model, counting the sentences it embeds."""

    def __init__(self, model: Any) -> None:  # the embedder's model (typed Any there)
        self.model, self.calls = model, 0

    def encode(self, text: str, is_query: bool) -> object:
        self.calls += 1
        return self.model.encode(text, is_query)


def counting(embedder: Embedder) -> CountingModel:
    model = CountingModel(embedder._model)
    embedder._model = model
    return model


def test_a_new_process_reads_vectors_from_disk_with_the_same_bytes(store_root: Path) -> None:
    first = Embedder()
    model = counting(first)
    texts = ["What is the invoice number?", "the total amount due"]
    computed = first.queries(texts)
    passage = first.passages(["invoice number"])
    assert model.calls == 3
    folder = store_root / f"{MODEL}-{first.version}"
    assert len(list(folder.glob("*/*.json"))) == 3
    second = Embedder()  # a fresh process: empty memory, the same disk
    fresh = counting(second)
    assert second.queries(texts).tobytes() == computed.tobytes()
    assert second.passages(["invoice number"]).tobytes() == passage.tobytes()
    assert fresh.calls == 0
    # a query and a passage of the same text are different entries
    second.queries(["invoice number"])
    assert fresh.calls == 1


def test_a_stored_vector_that_fails_its_check_is_recomputed_and_replaced(store_root: Path) -> None:
    first = Embedder()
    vector = first.query("Could you spell the last name?")
    folder = store_root / f"{MODEL}-{first.version}"
    [path] = folder.glob("*/*.json")
    entry = json.loads(path.read_text())
    forged = np.zeros(vector.shape, dtype="<f4").tobytes()
    entry["payload"]["vector"] = base64.b64encode(forged).decode()
    path.write_text(json.dumps(entry))
    second = Embedder()
    model = counting(second)
    again = second.query("Could you spell the last name?")
    assert model.calls == 1 and again.tobytes() == vector.tobytes()
    assert second.store is not None and second.store.entries.replaced == 1
    assert json.loads(path.read_text())["payload"] != entry["payload"]  # rewritten right


def test_a_vector_of_the_wrong_length_is_not_trusted(store_root: Path) -> None:
    store = VectorStore(store_root)
    key = VectorStore.key("hello", is_query=True)
    store.entries.put(key, {"vector": "AAAA"})  # a checked entry, but 3 bytes
    assert store.get(key) is None


def test_a_full_disk_is_a_warning_and_the_vector_is_still_returned(
    store_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(entries, "write_text_atomic", full)
    embedder = Embedder()
    with pytest.warns(RuntimeWarning, match="embedding cache.*No space left"):
        vector = embedder.query("What is your date of birth?")
    assert vector.shape == (embedder_module.DIM,)
    embedder.query("And your postcode?")  # warned once per store: no second warning


def test_off_keeps_vectors_in_memory_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLEXBENCH_EMBEDDING_CACHE", "off")
    monkeypatch.setenv("DUPLEXBENCH_SPEECH_CACHE", str(tmp_path))
    embedder = Embedder()
    embedder.query("Is that everything?")
    assert embedder.store is None and not any(tmp_path.rglob("*.json"))
