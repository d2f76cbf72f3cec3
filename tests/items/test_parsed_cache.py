"""What a YAML file parsed to is remembered by its exact bytes; nothing else changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from duplexbench.items._errors import ItemError
from duplexbench.items._load import item_checksum, load_item, read_document
from support.fixtures import FIXTURES


@pytest.fixture
def parses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The YAML texts the strict loader really parsed (the cache under tmp_path)."""
    monkeypatch.setenv("DUPLEXBENCH_PARSE_CACHE", str(tmp_path / "parsed"))
    seen: list[str] = []
    real = yaml.load

    def counting(text: str, Loader: Any) -> Any:
        seen.append(text)
        return real(text, Loader=Loader)

    monkeypatch.setattr("duplexbench.items._load.yaml.load", counting)  # the loader's yaml
    return seen


def test_an_item_parses_once_and_loads_the_same(parses: list[str], tmp_path: Path) -> None:
    path = FIXTURES / "meeting-scheduling.yaml"
    first = load_item(path)
    second = load_item(path)
    assert len(parses) == 1
    assert second == first and item_checksum(second) == item_checksum(first)
    assert len(list((tmp_path / "parsed").glob("*/*.json"))) == 1


def test_other_bytes_parse_again(parses: list[str], tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("a: 1\n")
    assert read_document(path) == {"a": 1}
    path.write_text("a: 2\n")
    assert read_document(path) == {"a": 2} and len(parses) == 2


def test_data_json_cannot_hold_is_never_remembered(parses: list[str], tmp_path: Path) -> None:
    path = tmp_path / "dated.yaml"
    path.write_text("when: 2026-12-01\nn: .inf\n")
    for _ in range(2):
        data = read_document(path)
    assert str(data["when"]) == "2026-12-01" and len(parses) == 2
    assert not list((tmp_path / "parsed").glob("*/*.json"))


def test_a_refused_file_is_refused_every_time(parses: list[str], tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("a: 1\na: 2\n")
    for _ in range(2):
        with pytest.raises(ItemError, match="duplicate key"):
            read_document(path)
    assert not list((tmp_path / "parsed").glob("*/*.json"))


def test_a_tampered_entry_is_not_trusted(parses: list[str], tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("amount: 100\n")
    read_document(path)
    [entry_path] = (tmp_path / "parsed").glob("*/*.json")
    entry = json.loads(entry_path.read_text())
    entry["payload"]["data"]["amount"] = 999_999
    entry_path.write_text(json.dumps(entry))
    assert read_document(path) == {"amount": 100} and len(parses) == 2


def test_off_parses_every_time(
    parses: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUPLEXBENCH_PARSE_CACHE", "off")
    path = tmp_path / "doc.yaml"
    path.write_text("a: 1\n")
    read_document(path)
    read_document(path)
    assert len(parses) == 2 and not (tmp_path / "parsed").exists()
