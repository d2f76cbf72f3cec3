"""The results store: `RUN_DIR/index.sqlite`, one row per episode, rebuilt from the folders.

The episode folders stay the truth; the index is derived from their
`result.json` files and can always be rebuilt (`rebuild_index`). Tables
(columns in `store_rows.py`, described in docs/report.md):

- `runs`: the campaign (`campaign.json`) per (agent, condition);
- `episodes`: key agent/condition/item/repetition, the headline columns of
  the score (workflow or action) and the full `result.json` text;
- `fields`: one row per graded field of a workflow episode;
- `meta`: `schema_version`.

Writers from several processes are safe: WAL journal, a 30 s busy timeout,
and every write is one `BEGIN IMMEDIATE` transaction. An unreadable
(corrupt) index is moved aside to `index.sqlite.corrupt` and rebuilt; an
index that cannot be written (disk full, read-only, locked past the timeout)
is left as it is and the write raises `StoreError` with sqlite's reason
(a failed transaction is rolled back whole).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplexbench.campaign._rundir import RunDirError
from duplexbench.campaign._spec import CampaignSpec, slug
from duplexbench.campaign._store_rows import (
    DDL,
    EPISODE_COLUMNS,
    FIELD_COLUMNS,
    RUN_COLUMNS,
    SCHEMA_VERSION,
    TABLES,
    episode_row,
    field_rows,
    insert_sql,
    run_row,
)
from duplexbench.scoring import ActionScore, EpisodeScore

INDEX_NAME = "index.sqlite"
EPISODE_NAME = re.compile(r"r[0-9]+")
BUSY_TIMEOUT_S = 30.0


class StoreError(RunDirError):
    """The index cannot be used or written, with the reason."""


@dataclass
class IndexStatus:
    """What `refresh_index` did: counts, and messages worth showing to a user."""

    episodes: int = 0
    added: int = 0
    removed: int = 0
    rebuilt: bool = False
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def index_path(run_dir: Path) -> Path:
    return run_dir / INDEX_NAME


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        _ensure_schema(conn)
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # sqlite has already rolled back after e.g. SQLITE_FULL
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def _writing(run_dir: Path) -> Iterator[None]:
    """sqlite and file errors while writing the index -> StoreError naming it and the cause."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"{index_path(run_dir)}: cannot write the index: {exc}") from exc


def _ensure_schema(conn: sqlite3.Connection) -> None:
    """Create the tables; drop and recreate them when written by another schema version."""
    row = None
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "meta" in names:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is not None and row[0] == SCHEMA_VERSION:
        return
    with _transaction(conn):
        if row is not None:  # another schema: the index is derived data, start over
            for table in TABLES:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in DDL:
            conn.execute(statement)
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
            (SCHEMA_VERSION,),
        )


def _set_aside(run_dir: Path) -> None:
    path = index_path(run_dir)
    os.replace(path, path.with_name(INDEX_NAME + ".corrupt"))
    for suffix in ("-wal", "-shm"):
        path.with_name(INDEX_NAME + suffix).unlink(missing_ok=True)


def _open(run_dir: Path, check: bool = False) -> tuple[sqlite3.Connection, str | None]:
    """Open (creating) the index; a corrupt one is moved aside and a fresh one made.

    Returns the connection and, when the old file was corrupt, a message saying so
    (the caller must then rebuild).
    """
    path = index_path(run_dir)
    try:
        conn = _connect(path)
        if check:
            result = conn.execute("PRAGMA quick_check").fetchone()
            if result is None or result[0] != "ok":
                conn.close()
                raise sqlite3.DatabaseError(f"integrity check: {result}")
        return conn, None
    except sqlite3.OperationalError as exc:  # full, read-only, locked: not corrupt
        raise StoreError(f"{path}: cannot open the index: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        if not path.exists():
            raise StoreError(f"{path}: cannot create the index: {exc}") from None
        _set_aside(run_dir)
        message = (
            f"{path} was unreadable ({exc}); moved to {INDEX_NAME}.corrupt and rebuilt "
            "from the episode folders"
        )
        return _connect(path), message


def read_campaign_data(run_dir: Path) -> tuple[dict[str, Any], str]:
    """`campaign.json` as a dict (agent, condition, family filled in) and its text.

    Tolerant of older run directories: only `agent` is required.
    """
    path = run_dir / "campaign.json"
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise StoreError(f"{path}: cannot read the campaign: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("agent"), str):
        raise StoreError(f"{path}: not a campaign spec (no agent)")
    data.setdefault("condition", "text")
    data["family"] = data.get("family") or "workflow"
    return data, text


def _spec_data(spec: CampaignSpec) -> tuple[dict[str, Any], str]:
    text = spec.model_dump_json(indent=2)
    return json.loads(text), text


def _write_run(conn: sqlite3.Connection, campaign: Mapping[str, Any], text: str) -> None:
    conn.execute(insert_sql("runs", RUN_COLUMNS), run_row(campaign, text))


def _write_episode(
    conn: sqlite3.Connection, row: dict[str, Any], data: Mapping[str, Any], fresh: bool = False
) -> None:
    """Insert or replace one episode and its fields (`fresh`: the tables are empty)."""
    key = (row["agent"], row["condition"], row["item_id"], row["repetition"])
    if not fresh:
        conn.execute("DELETE FROM episodes WHERE path = ?", (row["path"],))
        conn.execute(
            "DELETE FROM fields WHERE agent = ? AND condition = ? AND item_id = ? "
            "AND repetition = ?",
            key,
        )
    conn.execute(insert_sql("episodes", EPISODE_COLUMNS), [row[c] for c, _ in EPISODE_COLUMNS])
    conn.executemany(insert_sql("fields", FIELD_COLUMNS), field_rows(key, data))


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def upsert_episode(
    run_dir: Path, spec: CampaignSpec, rel_path: str, score: EpisodeScore | ActionScore
) -> None:
    """Index one scored episode (one transaction; call it after each episode).

    `rel_path` is the episode folder relative to `run_dir`. Safe with several
    writer processes; a corrupt index is set aside and rebuilt first.
    """
    campaign, campaign_text = _spec_data(spec)
    text = score.model_dump_json(indent=2) + "\n"
    data = json.loads(text)
    row = episode_row(campaign, rel_path, data, text, _stat(run_dir / rel_path / "result.json"))
    conn, corrupt = _open(run_dir)
    with closing(conn), _writing(run_dir):
        if corrupt is not None:
            _rebuild(conn, run_dir)
        with _transaction(conn):
            _write_run(conn, campaign, campaign_text)
            _write_episode(conn, row, data)


@dataclass(frozen=True)
class _Found:
    rel: str
    stat: tuple[int, int] | None


def _episode_folders(run_dir: Path, campaign: Mapping[str, Any]) -> list[_Found]:
    """Every episode folder of the run that holds a result.json (sorted)."""
    base = run_dir / "episodes" / slug(str(campaign["agent"])) / slug(str(campaign["condition"]))
    found = []
    for result in sorted(base.glob("*/r*/result.json")):
        if not EPISODE_NAME.fullmatch(result.parent.name):  # e.g. r0.partial: being written
            continue
        rel = result.parent.relative_to(run_dir).as_posix()
        found.append(_Found(rel, _stat(result)))
    return found


def _read_result(run_dir: Path, rel: str) -> tuple[dict[str, Any], str]:
    path = run_dir / rel / "result.json"
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise StoreError(f"{rel}/result.json: unreadable ({exc})") from None
    if not isinstance(data, dict) or "item_id" not in data:
        raise StoreError(f"{rel}/result.json: not an episode result")
    return data, text


def _index_folders(
    conn: sqlite3.Connection,
    run_dir: Path,
    campaign: Mapping[str, Any],
    found: Sequence[_Found],
    fresh: bool = False,
) -> tuple[int, list[str]]:
    indexed, problems = 0, []
    for f in found:
        try:
            data, text = _read_result(run_dir, f.rel)
        except StoreError as exc:
            problems.append(str(exc))
            if not fresh:
                _delete_path(conn, f.rel)
            continue
        _write_episode(conn, episode_row(campaign, f.rel, data, text, f.stat), data, fresh)
        indexed += 1
    return indexed, problems


def _rebuild(conn: sqlite3.Connection, run_dir: Path) -> tuple[int, list[str]]:
    campaign, text = read_campaign_data(run_dir)
    found = _episode_folders(run_dir, campaign)
    with _transaction(conn):
        for table in ("runs", "episodes", "fields"):
            conn.execute(f"DELETE FROM {table}")
        _write_run(conn, campaign, text)
        return _index_folders(conn, run_dir, campaign, found, fresh=True)


def rebuild_index(run_dir: Path) -> int:
    """Rebuild the index from the episode folders; returns the episodes indexed.

    Every folder with a readable `result.json` is indexed; rows of folders that
    are gone are removed. Unreadable results are left out (`check_index` lists them).
    """
    conn, _ = _open(run_dir)
    with closing(conn), _writing(run_dir):
        return _rebuild(conn, run_dir)[0]


def refresh_index(run_dir: Path) -> IndexStatus:
    """Bring the index in line with the folders, re-reading only what changed.

    Builds the index when there is none (a run directory from an older
    duplexbench), rebuilds it when corrupt, and otherwise re-indexes results
    whose size or modification time changed and drops rows of vanished folders.
    """
    status = IndexStatus()
    existed = index_path(run_dir).exists()
    conn, corrupt = _open(run_dir, check=True)
    with closing(conn), _writing(run_dir):
        if corrupt is not None or not existed:
            status.rebuilt = True
            status.episodes, status.problems = _rebuild(conn, run_dir)
            status.added = status.episodes
            if corrupt is not None:
                status.problems.insert(0, corrupt)
            else:
                status.notes.append(f"no {INDEX_NAME}: built from {status.episodes} episodes")
            return status
        campaign, text = read_campaign_data(run_dir)
        found = _episode_folders(run_dir, campaign)
        known = dict(
            conn.execute("SELECT path, result_mtime_ns || ':' || result_size FROM episodes")
        )
        changed = [
            f for f in found if f.stat is None or known.get(f.rel) != f"{f.stat[0]}:{f.stat[1]}"
        ]
        gone = set(known) - {f.rel for f in found}
        if changed or gone:
            with _transaction(conn):
                _write_run(conn, campaign, text)
                for rel in sorted(gone):
                    _delete_path(conn, rel)
                status.added, status.problems = _index_folders(conn, run_dir, campaign, changed)
        status.removed = len(gone)
        status.episodes = conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
    return status


def _delete_path(conn: sqlite3.Connection, rel: str) -> None:
    key = conn.execute(
        "SELECT agent, condition, item_id, repetition FROM episodes WHERE path = ?", (rel,)
    ).fetchone()
    conn.execute("DELETE FROM episodes WHERE path = ?", (rel,))
    if key is not None:
        conn.execute(
            "DELETE FROM fields WHERE agent = ? AND condition = ? AND item_id = ? "
            "AND repetition = ?",
            key,
        )


def check_index(run_dir: Path) -> list[str]:
    """Mismatches between the index and the episode folders (empty: consistent).

    Compares, per episode folder, the parsed `result.json` with the indexed
    text; lists folders missing from the index, rows whose folder is gone and
    unreadable results. A missing or unreadable index is one message.
    """
    path = index_path(run_dir)
    if not path.exists():
        return [f"{path}: no index (rebuild with `duplexbench score` or rebuild_index)"]
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        with closing(conn):
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            indexed = dict(conn.execute("SELECT path, result_json FROM episodes"))
    except sqlite3.DatabaseError as exc:
        return [f"{path}: unreadable index ({exc})"]
    campaign, _ = read_campaign_data(run_dir)
    problems: list[str] = []
    found = _episode_folders(run_dir, campaign)
    for f in found:
        try:
            data, _ = _read_result(run_dir, f.rel)
        except StoreError as exc:
            problems.append(str(exc))
            continue
        if f.rel not in indexed:
            problems.append(f"{f.rel}: has a result.json but is not in the index")
        elif json.loads(indexed[f.rel]) != data:
            problems.append(f"{f.rel}: the index differs from result.json")
    for rel in sorted(set(indexed) - {f.rel for f in found}):
        problems.append(f"{rel}: indexed, but the folder or its result.json is gone")
    return problems


def query(run_dir: Path, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Rows of a read-only query on the run's index, as dicts."""
    conn, _ = _open(run_dir)
    with closing(conn):
        cursor = conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]
