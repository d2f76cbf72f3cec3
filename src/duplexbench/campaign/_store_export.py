"""Export the results store's episode rows to CSV or Parquet (`report --export`)."""

from __future__ import annotations

import csv
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from duplexbench.campaign._store import StoreError, index_path, query, rebuild_index
from duplexbench.campaign._store_rows import EPISODE_COLUMNS, EXPORT_COLUMNS

PARQUET_EXTRA = "parquet"


def export(run_dir: Path, path: Path, fmt: Literal["csv", "parquet"] = "csv") -> int:
    """Write the episode rows (every column but the result text) to CSV or Parquet.

    Parquet needs pyarrow (`pip install 'duplexbench[parquet]'`). Returns the rows written.
    """
    return export_runs([run_dir], path, fmt)


def export_runs(
    run_dirs: Sequence[Path], path: Path, fmt: Literal["csv", "parquet"] = "csv"
) -> int:
    """`export` over several run directories (their rows concatenated)."""
    if fmt not in ("csv", "parquet"):
        raise StoreError(f"unknown export format {fmt!r}: csv or parquet")
    pyarrow = _pyarrow() if fmt == "parquet" else None
    cols = ", ".join(EXPORT_COLUMNS)
    rows: list[dict[str, Any]] = []
    for run_dir in run_dirs:
        if not index_path(run_dir).exists():
            rebuild_index(run_dir)
        rows += query(run_dir, f"SELECT {cols} FROM episodes ORDER BY agent, condition, path")
    path.parent.mkdir(parents=True, exist_ok=True)
    if pyarrow is not None:
        table = pyarrow.Table.from_pylist(rows, schema=_arrow_schema(pyarrow))
        importlib.import_module("pyarrow.parquet").write_table(table, str(path))
        return len(rows)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(EXPORT_COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def _pyarrow() -> Any:
    try:
        return importlib.import_module("pyarrow")
    except ImportError:
        raise StoreError(
            f"Parquet export needs pyarrow: pip install 'duplexbench[{PARQUET_EXTRA}]'"
        ) from None


def _arrow_schema(pa: Any) -> Any:
    types = {"TEXT": pa.string(), "INTEGER": pa.int64(), "REAL": pa.float64()}
    sql = dict(EPISODE_COLUMNS)
    return pa.schema([(c, types[sql[c].split()[0]]) for c in EXPORT_COLUMNS])
