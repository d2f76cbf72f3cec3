"""Every loaded file is bounded and every YAML load is safe.

Size limits: item files, suite manifests, campaign plans, WAV files (noise
recordings included), corpora and APEX-Voice package files are refused above
their limit before they are parsed, with an error naming the file, its size and
the limit (sparse files keep the oversized cases fast). A FIFO or a link to
/dev/zero is refused as "not a regular file" instead of blocking or reading
forever. YAML `!!python/...` payloads (which would create a marker file) are
refused by every YAML loader and never run. `test_regression_*` tests close
gaps found in the security review (issue 9).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from duplexbench.audio._effects import RecordingSource
from duplexbench.audio._pcm import AudioFormatError
from duplexbench.audio._wav import MAX_WAV_BYTES, read_wav, write_wav
from duplexbench.campaign._plan import MAX_PLAN_BYTES, load_plan
from duplexbench.campaign._prices import load_prices
from duplexbench.campaign._rundir import RunDirError
from duplexbench.items._action_suite import load_action_item, load_action_suite
from duplexbench.items._errors import ItemError
from duplexbench.items._load import MAX_ITEM_BYTES, load_item
from duplexbench.items._suite import MAX_MANIFEST_BYTES, load_suite
from duplexbench.suites._apex_voice import common
from duplexbench.suites._apex_voice.common import ApexImportError, read_package
from duplexbench.suites.actions.corpus import MAX_CORPUS_BYTES, load_corpus
from support.fixtures import FIXTURES
from support.fuzzing import time_guard  # fails instead of hanging (an unfixed FIFO read blocks)

APEX = FIXTURES / "apex-voice" / "toy_form_001"


def sparse(path: Path, size: int) -> Path:
    """A file of `size` bytes (sparse: no disk, no write time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        fh.truncate(size)
    return path


def error(exc_type: type[Exception], load: Callable[[Path], Any], path: Path) -> str:
    with time_guard(), pytest.raises(exc_type) as info:
        load(path)
    return str(info.value)


# --- size limits ----------------------------------------------------------------------------


@pytest.mark.parametrize("load", [load_item, load_action_item, load_suite, load_action_suite])
def test_oversized_item_file_names_file_size_and_limit(
    tmp_path: Path, load: Callable[[Path], Any]
) -> None:
    path = sparse(tmp_path / "big.yaml", MAX_ITEM_BYTES + 1)
    message = error(ItemError, load, path)
    assert f"{path}: file is {MAX_ITEM_BYTES + 1} bytes; the limit is {MAX_ITEM_BYTES}" in message


def test_regression_suite_manifest_has_its_own_limit(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "airline-rebooking.yaml", tmp_path / "a.yaml")
    path = sparse(tmp_path / "suite.yaml", MAX_MANIFEST_BYTES + 1)
    message = error(ItemError, load_suite, tmp_path)
    assert f"{path}: suite manifest is {MAX_MANIFEST_BYTES + 1} bytes" in message
    assert f"the limit is {MAX_MANIFEST_BYTES}" in message


def test_regression_oversized_campaign_plan_is_refused(tmp_path: Path) -> None:
    path = sparse(tmp_path / "plan.yaml", MAX_PLAN_BYTES + 1)
    message = error(RunDirError, load_plan, path)
    assert (
        f"{path}: cannot read the campaign plan: campaign plan is {MAX_PLAN_BYTES + 1}" in message
    )
    assert f"the limit is {MAX_PLAN_BYTES}" in message


def test_regression_oversized_wav_and_noise_recording_are_refused(tmp_path: Path) -> None:
    tone = (1000 * np.sin(np.arange(1600) / 5)).astype(np.int16)
    small = tmp_path / "small.wav"
    write_wav(small, [tone], 16000)
    size = small.stat().st_size
    message = error(AudioFormatError, lambda p: read_wav(p, max_bytes=size - 1), small)
    assert f"{small}: WAV file is {size} bytes; the limit is {size - 1}" in message
    big = sparse(tmp_path / "noise" / "babble" / "big.wav", MAX_WAV_BYTES + 1)
    message = error(ValueError, RecordingSource, tmp_path / "noise")
    assert f"{big}: unreadable recording" in message
    assert f"WAV file is {MAX_WAV_BYTES + 1} bytes; the limit is {MAX_WAV_BYTES}" in message


def test_regression_oversized_corpus_is_refused(tmp_path: Path) -> None:
    path = sparse(tmp_path / "corpus.jsonl", MAX_CORPUS_BYTES + 1)
    message = error(ItemError, load_corpus, path)
    assert (
        f"corpus file is {MAX_CORPUS_BYTES + 1} bytes; the limit is {MAX_CORPUS_BYTES}" in message
    )


@pytest.mark.parametrize("name", ["task.yaml", "user/realization_bank.jsonl"])
def test_regression_oversized_apex_package_file_is_refused(tmp_path: Path, name: str) -> None:
    package = Path(shutil.copytree(APEX, tmp_path / "pkg"))
    limit = common.MAX_PACKAGE_FILE_BYTES
    sparse(package / name, limit + 1)
    message = error(ApexImportError, read_package, package)
    assert f"{name}: package file is {limit + 1} bytes; the limit is {limit}" in message


# --- not regular files ----------------------------------------------------------------------


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


LOADERS: list[tuple[str, type[Exception], Callable[[Path], Any]]] = [
    ("item.yaml", ItemError, load_item),
    ("plan.yaml", RunDirError, load_plan),
    ("audio.wav", AudioFormatError, read_wav),
    ("corpus.json", ItemError, load_corpus),
]


@pytest.mark.parametrize(("name", "exc_type", "load"), LOADERS)
def test_regression_fifo_is_refused_without_blocking(
    tmp_path: Path, name: str, exc_type: type[Exception], load: Callable[[Path], Any]
) -> None:
    assert "is not a regular file" in error(exc_type, load, fifo(tmp_path / name))


@pytest.mark.parametrize(("name", "exc_type", "load"), LOADERS)
def test_regression_link_to_dev_zero_is_refused(
    tmp_path: Path, name: str, exc_type: type[Exception], load: Callable[[Path], Any]
) -> None:
    (tmp_path / name).symlink_to("/dev/zero")  # its size reads 0; read_text never ends
    assert "is not a regular file" in error(exc_type, load, tmp_path / name)


# --- YAML python tags -----------------------------------------------------------------------

PAYLOADS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:subprocess.call [['touch', '{marker}']]",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/name:os.system",
]


def payload(template: str, marker: Path) -> str:
    return template.format(marker=marker)


@pytest.mark.parametrize("template", PAYLOADS)
def test_python_tags_never_run_in_items_manifests_and_prices(tmp_path: Path, template: str) -> None:
    marker = tmp_path / "pwned"
    evil = payload(template, marker)
    item = tmp_path / "item.yaml"
    item.write_text(f"id: {evil}\n")
    for load in (load_item, load_action_item):
        assert "invalid YAML" in error(ItemError, load, item)
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.yaml").write_text(f"name: s\ndescription: {evil}\n")
    assert "suite.yaml: line 2" in error(ItemError, load_suite, suite)
    prices = tmp_path / "prices.yaml"
    prices.write_text(f"agent: {evil}\n")
    assert "invalid YAML" in error(ValueError, load_prices, prices)
    assert not marker.exists()


@pytest.mark.parametrize("template", PAYLOADS)
def test_python_tags_never_run_in_plans_and_packages(tmp_path: Path, template: str) -> None:
    marker = tmp_path / "pwned"
    evil = payload(template, marker)
    plan = tmp_path / "plan.yaml"
    plan.write_text(f"agents:\n  - {evil}\nsuites: [{FIXTURES}]\n")
    message = error(RunDirError, load_plan, plan)
    assert "cannot read the campaign plan: line 2 column 5: invalid YAML" in message
    package = Path(shutil.copytree(APEX, tmp_path / "pkg"))
    (package / "task.yaml").write_text(f"id: {evil}\n")
    assert "task.yaml: line 1" in error(ApexImportError, read_package, package)
    assert not marker.exists()


# --- the plan now loads like an item file ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("agents: [&o oracle]\nsuites: [{suite}]\nitems: [*o]\n", "aliases"),
        ("agents: [oracle]\nsuites: [{suite}]\nrepetitions: 1\nrepetitions: 999\n", "duplicate"),
    ],
)
def test_regression_plan_refuses_aliases_and_duplicate_keys(
    tmp_path: Path, text: str, why: str
) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(text.format(suite=FIXTURES))
    assert why in error(RunDirError, load_plan, plan)
    plan.write_text(f"agents: [oracle]\nsuites: [{FIXTURES}]\nrepetitions: 2\n")
    assert load_plan(plan).repetitions == 2
