"""Private suites: a fresh, validated suite from a seed (`duplexbench suite generate`).

The packaged suites are public, so an agent can be tuned on them (or look
their gold up). A private suite is made by the same generator from another
seed: other people, values, documents and wording, the same kinds of work.
Two teams that share the seed (and the generator version, which the manifest
records) evaluate on the same items; a run on the suite records both in
`campaign.json`.

Nothing half-made is ever written: the items are generated, written to a
staging folder beside `--out`, read back and checked there (workflow suites:
every check of `suite validate`), and only then moved to `--out`, which must
not exist or be empty. docs/suites.md, "Private
suites".
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from duplexbench.items import (
    ActionItem,
    SuiteManifest,
    WorkflowItem,
    load_action_suite,
    load_suite,
)
from duplexbench.suites._overlap import Overlap, overlap_with_packaged
from duplexbench.suites._package import write_suite
from duplexbench.suites._quality.qa import QualityReport, quality_report

Family = Literal["workflows", "actions"]
Progress = Callable[[int], None]
Durations = Callable[[str, str], int]
"""A segment's spoken duration in ms, from its text and voice."""


class PrivateSuiteError(ValueError):
    """The request cannot be carried out (a folder in the way, a bad count); nothing
    was written."""


class GeneratedInvalid(PrivateSuiteError):
    """The generator gave up on an item, or the items it made did not validate (a
    generator bug); nothing was written."""


@dataclass(frozen=True)
class PrivateSuite:
    """What `suite generate` made."""

    family: Family
    name: str
    path: Path
    manifest: SuiteManifest
    items: int
    seconds: float
    report: QualityReport | None
    """The workflow checks of `suite validate` (None for action suites, whose
    generator checks each item as it makes it)."""
    overlap: Overlap


def suite_name(family: Family, seed: int) -> str:
    """The generated suite's name: ``workflows-seed7``, ``actions-seed7``."""
    return f"{family}-seed{seed}"


def check_out(out: Path) -> None:
    """`out` must be a new or empty folder: a private suite never overwrites anything."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PrivateSuiteError(
            f"{out} exists and is not empty; choose a new --out (a generated suite never "
            "overwrites files)"
        )


def _check_count(count: int, what: str) -> None:
    if count < 1:
        raise PrivateSuiteError(f"--{what} must be at least 1, got {count}")


def generate_workflows(
    seed: int,
    out: Path,
    per_archetype: int | None = None,
    progress: Progress | None = None,
    validated: Progress | None = None,
) -> PrivateSuite:
    """A workflow suite of 12 archetypes x `per_archetype` items from `seed`, checked
    as `suite validate` checks (oracle passes, noop fails, ...) and written to `out`."""
    from duplexbench.suites.workflows.build import (  # noqa: PLC0415 - the generator is heavy
        PER_ARCHETYPE,
        generate_suite,
        manifest,
    )
    from duplexbench.suites.workflows.generate import GenerationError  # noqa: PLC0415

    count = PER_ARCHETYPE if per_archetype is None else per_archetype
    _check_count(count, "per-archetype")
    check_out(out)
    start = time.perf_counter()
    try:
        generated = generate_suite(
            seed=seed, per_archetype=count, progress=progress, pools="private"
        )
    except GenerationError as exc:
        raise GeneratedInvalid(f"seed {seed}: the generator gave up: {exc}") from None
    name = suite_name("workflows", seed)
    description = (
        f"{len(generated.items)} professional workflows generated from seed {seed} "
        f"({count} per archetype): a private suite (`duplexbench suite generate`)."
    )
    made = manifest(name, description, generated, count)
    with _staged(out, made, generated.items) as staged:
        report = quality_report(load_suite(staged).items, validated)  # as written, read back
        if not report.ok:
            first = "; ".join(f"{i}: {p}: {m}" for i, p, m in report.problems[:3])
            raise GeneratedInvalid(
                f"seed {seed}: {len(report.problems)} problem(s) in the generated items, "
                f"nothing written: {first}"
            )
    shared = overlap_with_packaged(generated.items)
    seconds = round(time.perf_counter() - start, 1)
    return PrivateSuite("workflows", name, out, made, len(generated.items), seconds, report, shared)


def generate_actions(
    seed: int,
    out: Path,
    per_condition: int | None = None,
    progress: Progress | None = None,
    durations: Durations | None = None,
) -> PrivateSuite:
    """An action suite of 24 conditions x `per_condition` items from `seed`, its
    segments timed by rendering them in the speech bank (piper and flite voices;
    `durations(text, voice)` in ms instead, e.g. in a test)."""
    from duplexbench.speech import SpeechBank  # noqa: PLC0415
    from duplexbench.suites.actions import build  # noqa: PLC0415
    from duplexbench.suites.actions.generate import generate_actions as make  # noqa: PLC0415

    count = build.PER_CONDITION if per_condition is None else per_condition
    _check_count(count, "per-condition")
    check_out(out)
    start = time.perf_counter()
    durations = durations or build.bank_durations(SpeechBank())
    timed = durations if progress is None else _counting(durations, progress)
    try:
        items = make(seed, count, timed)
    except ValueError as exc:  # an item failed its own checks
        raise GeneratedInvalid(f"seed {seed}: nothing written: {exc}") from None
    made = build.manifest(items, seed, count).model_copy(
        update={
            "name": suite_name("actions", seed),
            "description": f"{len(items)} interaction-action items generated from seed "
            f"{seed} ({count} per condition): a private suite (`duplexbench suite generate`).",
        }
    )
    with _staged(out, made, items) as staged:
        load_action_suite(staged)  # as written, read back
    shared = overlap_with_packaged(items)
    seconds = round(time.perf_counter() - start, 1)
    return PrivateSuite("actions", made.name, out, made, len(items), seconds, None, shared)


def _counting(
    durations: Callable[[str, str], int], progress: Progress
) -> Callable[[str, str], int]:
    def duration(text: str, voice: str) -> int:
        value = durations(text, voice)
        progress(1)
        return value

    return duration


@contextmanager
def _staged(
    out: Path, made: SuiteManifest, items: list[WorkflowItem] | list[ActionItem]
) -> Iterator[Path]:
    """The suite written to a staging folder beside `out`, moved to `out` when the
    block ends without an error (removed otherwise)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        write_suite(staging / "suite", made, items)
        yield staging / "suite"
        check_out(out)  # again: it may have been filled while the items were checked
        if out.exists():
            out.rmdir()
        (staging / "suite").rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
