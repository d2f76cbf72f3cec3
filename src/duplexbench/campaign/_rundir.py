"""Reading and writing a run directory (docs/formats/run-directory.md).

```
RUN_DIR/campaign.json          the campaign spec
RUN_DIR/items/<id>.json        item snapshots the episodes ran on
RUN_DIR/episodes/<agent>/<condition>/<item>/r<k>/
    events.jsonl  workbench.json  result.json
RUN_DIR/results.jsonl          index: one row per episode
RUN_DIR/summary.json           the summary JSON
```
Every file is written atomically (temp file, then rename). A write that fails
(disk full, read-only folder, no permission) raises `StorageError`, a
`RunDirError` naming the file and the cause.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from duplexbench.campaign._spec import CampaignSpec, IndexRow
from duplexbench.files import write_text_atomic
from duplexbench.items import ActionItem, ItemError, WorkflowItem, parse_action_item, parse_item
from duplexbench.scoring import RunSummary, summary_data

if TYPE_CHECKING:
    from duplexbench.scoring import ActionScore, EpisodeScore

T = TypeVar("T", WorkflowItem, ActionItem)


class RunDirError(Exception):
    """A run directory that cannot be used, with the reason."""


class StorageError(RunDirError):
    """The run directory cannot be written (disk full, read-only, no permission)."""


_FULL = (errno.ENOSPC, errno.EDQUOT)
_READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def storage_error(exc: OSError, what: str) -> StorageError:
    """`what: disk full (No space left on device: 'path')`, and the like."""
    cause = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        cause += f": {str(exc.filename)!r}"
    if exc.errno in _FULL:
        cause = f"disk full ({cause})"
    elif exc.errno in _READ_ONLY:
        cause = f"not writable ({cause})"
    return StorageError(f"{what}: {cause}")


def check_writable(folder: Path) -> None:
    """Create `folder` if needed and write (then delete) a file in it; StorageError if not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".write-check-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise storage_error(exc, f"cannot write the run directory {folder}") from exc


def write_text(path: Path, text: str) -> None:
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        raise storage_error(exc, f"cannot write {path}") from exc


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def write_model(path: Path, model: BaseModel) -> None:
    write_text(path, model.model_dump_json(indent=2) + "\n")


def write_summary(run_dir: Path, summary: RunSummary) -> None:
    """RUN_DIR/summary.json: the keys the summary was built with."""
    write_json(run_dir / "summary.json", summary_data(summary))


def index_row(score: EpisodeScore | ActionScore, rel: str) -> IndexRow:
    """The `results.jsonl` line of an episode of either family; WS and AFA are
    the workflow family's (an action score has neither: left empty)."""
    afa = getattr(score, "afa", None)
    return IndexRow(
        item_id=score.item_id,
        repetition=score.repetition,
        path=rel,
        status=score.status,
        ws=getattr(score, "ws", None),
        afa_correct=afa.correct if afa else None,
        afa_total=afa.total if afa else None,
        error=score.error,
    )


def write_index(run_dir: Path, rows: list[IndexRow]) -> None:
    write_text(run_dir / "results.jsonl", "".join(r.model_dump_json() + "\n" for r in rows))


def read_campaign(run_dir: Path) -> CampaignSpec:
    path = run_dir / "campaign.json"
    if not path.exists():
        raise RunDirError(f"{run_dir} is not a run directory (no campaign.json)")
    try:
        return CampaignSpec.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as exc:
        raise RunDirError(f"{path}: not a campaign spec this version can read: {exc}") from None


def _read_snapshots(
    run_dir: Path, spec: CampaignSpec, parse: Callable[[Any, str], T]
) -> dict[str, T]:
    items = {}
    for item_id in spec.items:
        path = run_dir / "items" / f"{item_id}.json"
        try:
            items[item_id] = parse(json.loads(path.read_text(encoding="utf-8")), str(path))
        except (OSError, ValueError) as exc:
            raise RunDirError(f"{path}: cannot read item snapshot: {exc}") from None
        except ItemError as exc:
            raise RunDirError(str(exc)) from None
    return items


def read_action_items(run_dir: Path, spec: CampaignSpec) -> dict[str, ActionItem]:
    return _read_snapshots(run_dir, spec, parse_action_item)


def read_items(run_dir: Path, spec: CampaignSpec) -> dict[str, WorkflowItem]:
    return _read_snapshots(run_dir, spec, parse_item)
