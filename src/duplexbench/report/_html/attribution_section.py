"""The report's "Why fields were wrong" table: failure attribution, runs side by side."""

from __future__ import annotations

from typing import Any

from duplexbench.report._html.parts import CellLike, fmt_pct, num, table
from duplexbench.scoring import CAUSES

NOTE = (
    "One cause per wrong or missing graded field of the valid episodes, read from the trace "
    "(docs/metrics.md, Failure attribution): count and share of the run's wrong fields. "
    "misheard is for audio runs only. asked_not_understood is a validity figure and an upper "
    "bound on the simulated caller's share: the trace holds the observer's reading of a "
    "question, not which detail it was about."
)


def _cell(block: dict[str, Any] | None, cause: str) -> CellLike:
    if block is None:
        return "not recorded"
    if cause not in block["counts"]:
        return "– (audio only)"
    n, share = block["counts"][cause], block["shares"][cause]
    return num(n, f"{n} ({fmt_pct(share)})")


def attribution(wf: dict[str, Any]) -> str:
    """Rows: the causes, then the wrong fields and the simulator's share; one column per
    run, so conditions compare line by line."""
    runs = wf.get("attribution") or []
    if not runs:
        return ""
    blocks = [r["attribution"] for r in runs]
    rows: list[list[CellLike]] = [[cause, *(_cell(b, cause) for b in blocks)] for cause in CAUSES]
    rows.append(
        ["wrong fields", *(num(b["wrong_fields"]) if b else "not recorded" for b in blocks)]
    )
    rows.append(
        [
            "simulator share (asked_not_understood, upper bound)",
            *(fmt_pct(b["simulator_share"]) if b else "not recorded" for b in blocks),
        ]
    )
    headers = ("cause", *(r["run"] for r in runs))
    return table(headers, rows, table_id="attribution", note=NOTE)
