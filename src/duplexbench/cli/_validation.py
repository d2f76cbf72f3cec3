"""The report of `duplexbench suite validate`: counts per check, problems, rejections."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from duplexbench.items import Suite
from duplexbench.suites import CHECKS, QualityReport

LABELS = {
    "oracle passes": "oracle passes (WS = 1)",
    "noop fails": "noop fails",
    "silent fails": "silent fails",
    "shortcut fails": "shortcut (commits at once) fails",
    "no leakage": "no fact reachable before its reveal",
    "gold has a source": "every gold value has a source",
    "corrections supersede": "corrections supersede an earlier fact",
    "approvals reachable": "gated actions have a reachable approval",
    "knowledge agrees with gold": "knowledge documents agree with gold",
    "gold is gradable": "every gold value is one its grader can pass",
}


F = TypeVar("F", bound=Callable[..., Any])


def audio_audit_options(func: F) -> F:
    """`suite validate --audio` and its settings (cli/_audio_audit.py)."""
    options = [
        click.option(
            "--audio",
            is_flag=True,
            help="The audio-solvability audit: run the privileged `listener` on every item "
            "(k = 1) and report which items it could not pass, and why.",
        ),
        click.option(
            "--condition",
            default="clean",
            show_default=True,
            help="With --audio: the condition to run (`text` checks the listener itself).",
        ),
        click.option(
            "--workers",
            default=1,
            show_default=True,
            type=click.IntRange(1, 512),
            help="With --audio: episodes run at once (a local process pool).",
        ),
        click.option(
            "--out",
            type=click.Path(file_okay=False, path_type=Path),
            help="With --audio: the run directory (default: runs/audit-<suite>-<condition>, "
            "replaced on each audit).",
        ),
        click.option(
            "--overwrite", is_flag=True, help="With --audio and --out: replace that directory."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def validation_summary(suite: Suite, report: QualityReport) -> dict[str, Any]:
    generator = suite.manifest.generator if suite.manifest else None
    rows = []
    for item_id, path, message in report.problems:
        rows.append(
            {
                "file": str(suite.sources.get(item_id, suite.path)),
                "item": item_id,
                "path": path,
                "message": message,
            }
        )
    return {
        "valid": report.ok,
        "suite": suite.name,
        "items": len(suite.items),
        "checks": {c: {"passed": report.passed[c], "failed": report.failed[c]} for c in CHECKS},
        "gold_sources": dict(sorted(report.sources.items())),
        "checked": dict(report.counted),
        "generator": None
        if generator is None
        else {
            "name": generator.name,
            "version": generator.version,
            "seed": generator.seed,
            "candidates": generator.candidates,
            "rejected": sum(generator.rejected.values()),
            "rejected_by_reason": generator.rejected,
        },
        "problems": rows,
        "warnings": [
            {
                "file": str(suite.sources.get(item_id, suite.path)),
                "item": item_id,
                "path": path,
                "message": message,
            }
            for item_id, path, message in report.warnings
        ],
    }


def format_summary(summary: dict[str, Any]) -> str:
    n = summary["items"]
    lines = [f"{summary['suite']}: {n} item(s)", f"  {'format and cross-references':<44} {n}/{n}"]
    for check, counts in summary["checks"].items():
        lines.append(f"  {LABELS[check]:<44} {counts['passed']}/{n}")
    sources = ", ".join(f"{k} {v}" for k, v in summary["gold_sources"].items())
    lines.append(f"  gold values traced: {sum(summary['gold_sources'].values())} ({sources})")
    checked = ", ".join(f"{v} {k}" for k, v in summary["checked"].items())
    lines.append(f"  checked: {checked}")
    gen = summary["generator"]
    if gen is not None:
        lines.append(
            f"  generator {gen['name']} {gen['version']} (seed {gen['seed']}): "
            f"{gen['candidates']} candidates, {gen['rejected']} rejected"
        )
        lines += [f"    {count} x {reason}" for reason, count in gen["rejected_by_reason"].items()]
    if summary["warnings"]:
        lines.append(f"  {len(summary['warnings'])} warning(s):")
        lines += [f"    {w['item']} {w['path']}: {w['message']}" for w in summary["warnings"][:20]]
    lines.append(
        "all checks passed" if summary["valid"] else f"{len(summary['problems'])} problem(s)"
    )
    return "\n".join(lines)
