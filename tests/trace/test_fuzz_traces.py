"""Property-based fuzzing of the trace reader and of `duplexbench score`.

Real `events.jsonl` files from one oracle run of the fixture suite (text
condition, made once per module) are damaged at random: truncated at a byte
offset, lines dropped / duplicated / reordered / swapped, bytes corrupted,
invalid UTF-8 inserted, values replaced by values of another type (or of the
same type with other contents), lines replaced by random JSON or random bytes,
the whole file emptied; optionally the damaged lines are then re-stamped with
consecutive `seq` and non-decreasing `t_ms` so that many of them pass the
reader's structural checks and reach the scorer.

Properties:

- `read_events` returns events or raises `TraceError` whose message names the
  file and the line (`PATH:LINE: ...`); never any other exception.
- `rescore_run` on a copy of the run with one damaged episode finishes, marks
  that episode as an error ("unreadable trace: ...") when the reader rejects
  it, scores every other episode exactly as before, and never raises; the
  same through the CLI (`duplexbench score RUN --json --no-write`), and the
  same for a run of the other item family (action items, the silent agent).

Cases per target by default: 1000 for `read_events`, 500 for `rescore_run`,
50 for the CLI (about 20 s for the whole module; roughly one case in ten stays
readable and reaches the scorer). Set
`DUPLEXBENCH_FUZZ_EXAMPLES=N` for a longer run: N cases for `read_events` and
`rescore_run`, N // 10 (at least 1) for the CLI.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._rescore import rescore_run
from duplexbench.campaign._rundir import read_campaign
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._store_rows import episode_row
from duplexbench.cli import main
from duplexbench.items._suite import SuiteManifest
from duplexbench.scoring._replay_check import is_tampered
from duplexbench.speech._bank import SpeechBank
from duplexbench.suites._package import write_suite
from duplexbench.trace._io import MAX_LINE_BYTES, TraceError, read_events
from support.fixtures import FIXTURES
from support.fuzzing import Draw
from support.replay_builders import one_per_action

_ENV = os.environ.get("DUPLEXBENCH_FUZZ_EXAMPLES")
READER_EXAMPLES = int(_ENV) if _ENV else 1000
RESCORE_EXAMPLES = int(_ENV) if _ENV else 500
CLI_EXAMPLES = max(1, int(_ENV) // 10) if _ENV else 50


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


Episode = tuple[str, int, str]  # item id, repetition, folder relative to the run


# -- the run ----------------------------------------------------------------


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fuzz") / "run"
    run_campaign(
        RunOptions(str(FIXTURES), agent="oracle", condition=CONDITIONS["text"], repeats=1, out=out)
    )
    return out


@pytest.fixture(scope="module")
def episodes(run_dir: Path) -> list[Episode]:
    return list(read_campaign(run_dir).episodes())


@pytest.fixture(scope="module")
def traces(run_dir: Path, episodes: list[Episode]) -> list[bytes]:
    return Traces((run_dir / rel / "events.jsonl").read_bytes() for _, _, rel in episodes)


@pytest.fixture(scope="module")
def work_dir(run_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the run; each case plants one damaged trace and restores it."""
    copy = tmp_path_factory.mktemp("fuzz-work") / "run"
    shutil.copytree(run_dir, copy)
    return copy


@pytest.fixture(scope="module")
def baseline(work_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    result = rescore_run(work_dir, write=False)
    assert not result.problems
    return {(s.item_id, s.repetition): s.model_dump() for s in result.scores}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-scratch")


@pytest.fixture(scope="module")
def action_work_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of the other family: one action item per action (synthetic voices), the
    silent agent, clean condition."""
    root = tmp_path_factory.mktemp("fuzz-actions")
    items = one_per_action(SpeechBank(root / "bank"))
    manifest = SuiteManifest(name="fuzz-actions", family="action", version="1")
    write_suite(root / "suite", manifest, items)
    options = RunOptions(str(root / "suite"), "silent", repeats=1, speech_cache=root / "bank")
    run_campaign(replace(options, out=root / "run"))
    return root / "run"


@pytest.fixture(scope="module")
def action_episodes(action_work_dir: Path) -> list[Episode]:
    return list(read_campaign(action_work_dir).episodes())


@pytest.fixture(scope="module")
def action_traces(action_work_dir: Path, action_episodes: list[Episode]) -> list[bytes]:
    return Traces(
        (action_work_dir / rel / "events.jsonl").read_bytes() for *_, rel in action_episodes
    )


@pytest.fixture(scope="module")
def action_baseline(action_work_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    result = rescore_run(action_work_dir, write=False)
    assert not result.problems
    return {(s.item_id, s.repetition): s.model_dump() for s in result.scores}


# -- mutations --------------------------------------------------------------

JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OTHER_TYPES: list[Any] = [
    None,
    True,
    0,
    -1,
    2**70,
    1.5,
    float("nan"),
    "",
    "x",
    [],
    {},
    [1, "a"],
    {"a": 1},
]
BAD_UTF8 = [
    b"\xff",
    b"\xfe\xff",
    b"\xc3",
    b"\x80",
    b"\xed\xa0\x80",
    b"\xe2\x82",
    b"\xf4\x90\x80\x80",
]


def _split(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every position in a JSON value (not the root)."""
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, child in items:
        yield (*prefix, key)
        yield from _paths(child, (*prefix, key))


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def _line_index(draw: Draw, lines: list[bytes]) -> int:
    return int(draw(st.integers(0, max(0, len(lines) - 1))))


def truncate(draw: Draw, data: bytes) -> bytes:
    return data[: draw(st.integers(0, len(data)))]


def drop_line(draw: Draw, data: bytes) -> bytes:
    lines = _split(data)
    if lines:
        del lines[_line_index(draw, lines)]
    return b"".join(lines)


def duplicate_line(draw: Draw, data: bytes) -> bytes:
    lines = _split(data)
    if lines:
        i = _line_index(draw, lines)
        lines.insert(draw(st.integers(0, len(lines))), lines[i])
    return b"".join(lines)


def reorder_lines(draw: Draw, data: bytes) -> bytes:
    return b"".join(draw(st.permutations(_split(data))))


def swap_lines(draw: Draw, data: bytes) -> bytes:
    lines = _split(data)
    if lines:
        i, j = _line_index(draw, lines), _line_index(draw, lines)
        lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def corrupt_bytes(draw: Draw, data: bytes) -> bytes:
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        if buf:
            buf[draw(st.integers(0, len(buf) - 1))] = draw(st.integers(0, 255))
    return bytes(buf)


def invalid_utf8(draw: Draw, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.sampled_from(BAD_UTF8)) + data[at:]


def _edit_json_line(draw: Draw, data: bytes, edit: Callable[[Any], Any]) -> bytes:
    lines = _split(data)
    if not lines:
        return data
    i = _line_index(draw, lines)
    try:
        obj = json.loads(lines[i])
    except ValueError:
        return data
    paths = list(_paths(obj))
    if not paths:
        return data
    path = draw(st.sampled_from(paths))
    _set(obj, path, edit(_get(obj, path)))
    lines[i] = json.dumps(obj).encode() + b"\n"
    return b"".join(lines)


def wrong_type(draw: Draw, data: bytes) -> bytes:
    def edit(old: Any) -> Any:
        return draw(st.sampled_from([v for v in OTHER_TYPES if type(v) is not type(old)]))

    return _edit_json_line(draw, data, edit)


def same_type(draw: Draw, data: bytes) -> bytes:
    """A value of the same type with other contents: passes validation, confuses scoring."""

    def edit(old: Any) -> Any:
        if isinstance(old, bool):
            return not old
        if isinstance(old, int):
            return draw(st.integers(-(10**6), 10**12) | st.sampled_from([0, -1, 2**63]))
        if isinstance(old, float):
            return draw(st.floats())
        if isinstance(old, str):
            return draw(
                st.text(max_size=30) | st.sampled_from(["", "error", "episode.end", "\ud800"])
            )
        if isinstance(old, list):
            return draw(st.lists(st.sampled_from(old), max_size=len(old) + 2)) if old else []
        if isinstance(old, dict):
            keys = draw(st.lists(st.sampled_from(sorted(old)), unique=True)) if old else []
            return {k: old[k] for k in keys}
        return old

    return _edit_json_line(draw, data, edit)


def random_json_line(draw: Draw, data: bytes) -> bytes:
    lines = _split(data) or [b""]
    lines[_line_index(draw, lines)] = json.dumps(draw(JSON_VALUES)).encode() + b"\n"
    return b"".join(lines)


def random_bytes_line(draw: Draw, data: bytes) -> bytes:
    lines = _split(data) or [b""]
    lines[_line_index(draw, lines)] = draw(st.binary(max_size=64))
    return b"".join(lines)


def empty(draw: Draw, data: bytes) -> bytes:
    return b""


MUTATIONS = [
    truncate,
    drop_line,
    duplicate_line,
    reorder_lines,
    swap_lines,
    corrupt_bytes,
    invalid_utf8,
    wrong_type,
    same_type,
    random_json_line,
    random_bytes_line,
    empty,
]


def restamp(data: bytes) -> bytes:
    """Consecutive `seq`, non-decreasing `t_ms`: the damage gets past the structural checks."""
    out, t_ms = [], 0
    for seq, line in enumerate(_split(data)):
        try:
            obj = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        if isinstance(obj, dict):
            obj["seq"] = seq
            if isinstance(obj.get("t_ms"), int) and not isinstance(obj["t_ms"], bool):
                t_ms = max(t_ms, obj["t_ms"])
                obj["t_ms"] = t_ms
        out.append(json.dumps(obj).encode() + b"\n")
    return b"".join(out)


class Traces(list[bytes]):
    """The run's traces (a short repr in Hypothesis reports)."""

    def __repr__(self) -> str:
        return f"Traces({len(self)} files)"


@dataclass(frozen=True)
class Damaged:
    index: int
    data: bytes
    steps: tuple[str, ...]

    def __repr__(self) -> str:
        size, head = len(self.data), self.data[:200]
        return f"Damaged(trace={self.index}, steps={self.steps}, {size} bytes, head={head!r})"


@st.composite
def damaged(draw: Draw, traces: list[bytes]) -> Damaged:
    """One of the traces with one to three mutations (and maybe re-stamped)."""
    index = draw(st.integers(0, len(traces) - 1))
    data = traces[index]
    steps = []
    for mutate in draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3)):
        data = mutate(draw, data)
        steps.append(mutate.__name__)
    if draw(st.booleans()):
        data = restamp(data)
        steps.append("restamp")
    return Damaged(index, data, tuple(steps))


# -- checks -----------------------------------------------------------------


def check_reader(path: Path) -> None:
    """`read_events` returns, or raises TraceError naming the file and line."""
    try:
        events = read_events(path)
    except TraceError as exc:
        assert exc.path == str(path)
        assert exc.line is not None and exc.line >= 1, str(exc)
        assert str(exc).startswith(f"{path}:{exc.line}: "), str(exc)
        return
    assert events[0].type == "episode.start" and events[-1].type == "episode.end"


@contextmanager
def planted(path: Path, data: bytes) -> Iterator[Path]:
    """`path` holding `data` for the block; its original bytes afterwards."""
    original = path.read_bytes()
    path.write_bytes(data)
    try:
        yield path
    finally:
        path.write_bytes(original)


def plant_and_rescore(
    work_dir: Path,
    episodes: list[Episode],
    baseline: dict[tuple[str, int], dict[str, Any]],
    index: int,
    data: bytes,
    *,
    write: bool = False,
) -> None:
    item_id, repetition, rel = episodes[index]
    with planted(work_dir / rel / "events.jsonl", data) as path:
        try:
            read_events(path)
            rejected: TraceError | None = None
        except TraceError as exc:
            rejected = exc
        result = rescore_run(work_dir, write=write)
    assert len(result.scores) == len(episodes)
    for score in result.scores:
        key = (score.item_id, score.repetition)
        if key != (item_id, repetition):
            assert score.model_dump() == baseline[key]
            continue
        # every damaged trace is a tampered, failed episode, counted and named
        if rejected is not None:
            assert score.status == "ok" and score.error is None
            assert score.agent_error == f"tampered: unreadable trace: {rejected}"
            assert result.problems == [f"{rel}: {score.agent_error}"]
        elif is_tampered(score.agent_error):  # not this one's, unscorable or not replaying
            assert score.status == "ok" and score.error is None
            assert result.problems == [f"{rel}: {score.agent_error}"]
        else:
            assert result.problems == []  # readable: scored, whatever the damage


# -- properties -------------------------------------------------------------


@fuzz(READER_EXAMPLES)
@given(data=st.data())
def test_reader_returns_events_or_trace_error(
    data: st.DataObject, traces: list[bytes], scratch: Path
) -> None:
    case = data.draw(damaged(traces))
    path = scratch / "events.jsonl"
    path.write_bytes(case.data)
    check_reader(path)


@fuzz(RESCORE_EXAMPLES)
@given(data=st.data())
def test_rescore_isolates_a_damaged_episode(
    data: st.DataObject,
    traces: list[bytes],
    work_dir: Path,
    episodes: list[Episode],
    baseline: dict[tuple[str, int], dict[str, Any]],
) -> None:
    case = data.draw(damaged(traces))
    write = data.draw(st.booleans(), label="write")
    plant_and_rescore(work_dir, episodes, baseline, case.index, case.data, write=write)


@fuzz(RESCORE_EXAMPLES // 2)
@given(data=st.data())
def test_rescore_isolates_a_damaged_action_episode(
    data: st.DataObject,
    action_traces: list[bytes],
    action_work_dir: Path,
    action_episodes: list[Episode],
    action_baseline: dict[tuple[str, int], dict[str, Any]],
) -> None:
    """The same property for the action family (one rescore, one header check, one
    catch-all for both)."""
    case = data.draw(damaged(action_traces))
    write = data.draw(st.booleans(), label="write")
    plant_and_rescore(
        action_work_dir, action_episodes, action_baseline, case.index, case.data, write=write
    )


@fuzz(CLI_EXAMPLES)
@given(data=st.data())
def test_cli_score_survives_a_damaged_episode(
    data: st.DataObject,
    traces: list[bytes],
    work_dir: Path,
    episodes: list[Episode],
    baseline: dict[tuple[str, int], dict[str, Any]],
) -> None:
    case = data.draw(damaged(traces))
    _, _, rel = episodes[case.index]
    with planted(work_dir / rel / "events.jsonl", case.data):
        result = CliRunner().invoke(main, ["score", str(work_dir), "--json", "--no-write"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["episodes"] == len(episodes)
    assert summary["errors"] <= 1


# -- regressions: crashes the fuzzing found ---------------------------------


def _first_line_with(trace: bytes, marker: bytes) -> int:
    return next(i for i, line in enumerate(_split(trace)) if marker in line)


def _replace_line(trace: bytes, index: int, line: bytes) -> bytes:
    lines = _split(trace)
    lines[index] = line
    return b"".join(lines)


def _reader_error(path: Path, data: bytes) -> TraceError:
    path.write_bytes(data)
    with pytest.raises(TraceError) as info:
        read_events(path)
    return info.value


def test_invalid_utf8_names_its_line(traces: list[bytes], scratch: Path) -> None:
    """Was: `cannot read: 'utf-8' codec can't decode ...` with no line number."""
    lines = _split(traces[0])
    path = scratch / "utf8.jsonl"
    error = _reader_error(path, b"".join([*lines[:3], b"\xff" + lines[3], *lines[4:]]))
    assert error.line == 4 and str(error).startswith(f"{path}:4: not UTF-8")


def test_deeply_nested_json_is_a_trace_error(traces: list[bytes], scratch: Path) -> None:
    """Was: RecursionError escaping `read_events` (and `duplexbench score`)."""
    deep = b"[" * 100_000 + b"]" * 100_000 + b"\n"
    path = scratch / "deep.jsonl"
    error = _reader_error(path, _replace_line(traces[0], 2, deep))
    assert error.line == 3 and "nested too deeply" in error.message


def test_integer_too_long_to_convert_is_a_trace_error(traces: list[bytes], scratch: Path) -> None:
    """Was: ValueError (int max str digits) escaping `read_events`."""
    line = _split(traces[0])[1].replace(b'"t_ms":0', b'"t_ms":' + b"9" * 5000, 1)
    path = scratch / "digits.jsonl"
    error = _reader_error(path, _replace_line(traces[0], 1, line))
    assert error.line == 2 and error.message.startswith("not JSON:")


def test_lone_surrogate_is_a_trace_error(traces: list[bytes], scratch: Path) -> None:
    """Was: readable, then `duplexbench score` crashed writing result.json (UnicodeEncodeError)."""
    index = _first_line_with(traces[0], b'"user.utterance"')
    obj = json.loads(_split(traces[0])[index])
    obj["data"]["text"] = "\ud800 hello"
    path = scratch / "surrogate.jsonl"
    error = _reader_error(path, _replace_line(traces[0], index, json.dumps(obj).encode() + b"\n"))
    assert error.line == index + 1 and "surrogate" in error.message
    pair = dict(obj, data=dict(obj["data"], text="\U0001f600 fine"))  # a valid pair still reads
    path.write_bytes(_replace_line(traces[0], index, json.dumps(pair).encode() + b"\n"))
    assert len(read_events(path)) == len(_split(traces[0]))


def test_rescore_writes_despite_a_lone_surrogate(
    traces: list[bytes],
    work_dir: Path,
    episodes: list[Episode],
    baseline: dict[tuple[str, int], dict[str, Any]],
) -> None:
    """The surrogate in a written field value: only that episode errors; the run is written."""
    index = next(i for i, t in enumerate(traces) if b'"artifact.field"' in t)
    line_no = _first_line_with(traces[index], b'"artifact.field"')
    obj = json.loads(_split(traces[index])[line_no])
    obj["data"]["new"] = "\udc00x"
    data = _replace_line(traces[index], line_no, json.dumps(obj).encode() + b"\n")
    plant_and_rescore(work_dir, episodes, baseline, index, data, write=True)


def test_huge_line_and_empty_file(traces: list[bytes], scratch: Path) -> None:
    path = scratch / "huge.jsonl"
    huge = b'{"seq":1,"x":"' + b"x" * (MAX_LINE_BYTES + 1) + b'"}\n'
    error = _reader_error(path, _replace_line(traces[0], 1, huge))
    assert error.line == 2 and "longer than" in error.message
    assert _reader_error(path, b"").line == 1
    assert _reader_error(path, b"x" * (MAX_LINE_BYTES + 10)).line == 1  # no newline at all


def _with_header(trace: bytes, **changes: Any) -> bytes:
    lines = _split(trace)
    header = json.loads(lines[0])
    header["data"].update(changes)
    return _replace_line(trace, 0, json.dumps(header).encode() + b"\n")


def _rescored(work_dir: Path, episodes: list[Episode], index: int, data: bytes) -> Any:
    item_id, repetition, rel = episodes[index]
    with planted(work_dir / rel / "events.jsonl", data):
        result = rescore_run(work_dir, write=True)
    (score,) = [s for s in result.scores if (s.item_id, s.repetition) == (item_id, repetition)]
    return result, score, rel


@pytest.mark.parametrize(
    "changes", [{"repetition": 7}, {"repetition": 10**30}, {"item_id": ""}, {"item_id": "x"}]
)
def test_regression_a_trace_of_another_episode_is_a_tampered_failure(
    work_dir: Path, episodes: list[Episode], traces: list[bytes], changes: dict[str, Any]
) -> None:
    """A readable trace whose header names another item/repetition crashed rescoring
    (a KeyError, or an SQLite OverflowError for a huge repetition); later it was left
    out as an error; now it is a counted failure (files are written atomically)."""
    result, score, rel = _rescored(work_dir, episodes, 0, _with_header(traces[0], **changes))
    assert score.status == "ok" and score.ws == 0
    prefix = "tampered: trace does not match its folder: it holds item"
    assert (score.agent_error or "").startswith(prefix)
    assert result.problems == [f"{rel}: {score.agent_error}"]


def test_regression_a_trace_the_scorer_cannot_use_is_a_tampered_failure(
    work_dir: Path,
    episodes: list[Episode],
    traces: list[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A damaged state value (e.g. an unknown lifecycle state) crashed rescoring."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("'bogus' is not in tuple")

    monkeypatch.setattr("duplexbench.campaign._workflow_scoring.score_episode", broken)
    result, score, rel = _rescored(work_dir, episodes, 0, traces[0])
    message = "tampered: unscorable trace: ValueError: 'bogus' is not in tuple"
    assert score.status == "ok" and score.agent_error == message
    assert f"{rel}: {message}" in result.problems


def test_regression_numbers_sqlite_cannot_hold_are_left_out_of_the_index() -> None:
    run = {"agent": "a", "condition": "c"}
    data = {"item_id": "i", "repetition": 10**30, "termination_ms": 10**400, "afa": None}
    row = episode_row(run, "episodes/a/c/i/r0", data, "{}", None)
    assert row["repetition"] == 0 and row["termination_ms"] is None


def test_regression_an_inverted_floor_segment_is_one_unscorable_episode(
    action_work_dir: Path,
    action_episodes: list[Episode],
    action_baseline: dict[tuple[str, int], dict[str, Any]],
) -> None:
    """Found by the action fuzzer: a readable trace whose floor segment ends before it
    starts crashed the run's summary instead of failing that one episode."""
    _, _, rel = action_episodes[0]
    lines = (action_work_dir / rel / "events.jsonl").read_bytes().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if b'"floor.segment"' in line)
    event = json.loads(lines[index])
    event["data"]["end_ms"] = event["data"]["start_ms"] - 1
    lines[index] = json.dumps(event).encode() + b"\n"
    plant_and_rescore(action_work_dir, action_episodes, action_baseline, 0, b"".join(lines))
