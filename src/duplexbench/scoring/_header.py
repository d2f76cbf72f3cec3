"""Whether a trace belongs where it was found: its header against its episode.

Both families check the trace's first event (``episode.start``) before scoring
it. A trace that names another item or repetition than its folder (a damaged,
misplaced or swapped file), or another item checksum than the run recorded
(the item was edited after the run, docs/security.md), is never scored as
this episode: episode files are written atomically, so the files were changed,
and the episode is a tampered, failed episode that says why (counted in every
rate, never left out).
"""

from __future__ import annotations

from collections.abc import Sequence

from duplexbench.scoring._replay_check import TAMPERED
from duplexbench.trace import EpisodeStartData, TraceEvent

__all__ = ["TRACE_PROBLEMS", "header_problem"]

TRACE_PROBLEMS = ("unreadable trace", "unscorable trace", "trace does not match", TAMPERED)
"""How the error reasons of traces that could not be scored (or failed the replay
check, `scoring/_replay_check.py`) begin."""


def header_problem(
    events: Sequence[TraceEvent], item_id: str, repetition: int, checksum: str | None = None
) -> str | None:
    """Why `events` cannot be scored as (`item_id`, `repetition`), or None when its
    header matches (and, given `checksum`, ran on that item checksum)."""
    start = events[0].data if events else None
    if not isinstance(start, EpisodeStartData):
        return "unreadable trace: no episode.start"
    if (start.item_id, start.repetition) != (item_id, repetition):
        found = f"item {start.item_id!r} repetition {start.repetition!r}"
        return f"trace does not match its folder: it holds {found}"
    if checksum is not None and start.item_checksum != checksum:
        ran_on = f"{start.item_checksum[:12]}, campaign.json records {checksum[:12]}"
        return f"trace does not match its item: it ran on item checksum {ran_on}"
    return None
