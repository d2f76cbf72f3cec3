"""Build the packaged suite `actions-v1` (24 conditions x 28 items = 672).

    python -m duplexbench.suites.actions.build [DATA_FOLDER]

renders every segment once through the speech bank (piper and flite
voices; warm after the first build) to get its exact trimmed duration, then
generates the items from the fixed seed into `duplexbench/suites/data/`. A
test regenerates the suite with the durations read back from the packaged
items and compares checksums, so the packaged files always match the
generator.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from duplexbench.items import ActionItem, GeneratorInfo, SuiteManifest
from duplexbench.speech import SpeechBank, speech_duration_ms
from duplexbench.suites._package import DATA, write_suite
from duplexbench.suites.actions.generate import generate_actions

GENERATOR = "duplexbench.suites.actions"
GENERATOR_VERSION = "1.0"
ACTIONS_SEED = 20261130
PER_CONDITION = 28
DESCRIPTION = (
    "672 interaction-action instances (DuplexAct's 8 actions x 24 conditions x 28, balanced "
    "over 4 scenarios), synthesized from templates with piper and flite voices; pauses and "
    "cues placed exactly, so every annotation is exact by construction."
)

Durations = Callable[[str, str], int]


def bank_durations(bank: SpeechBank) -> Durations:
    cache: dict[tuple[str, str], int] = {}

    def duration(text: str, voice: str) -> int:
        key = (text, voice)
        if key not in cache:
            cache[key] = speech_duration_ms(bank, text, voice)
        return cache[key]

    return duration


def packaged_durations(items: list[ActionItem]) -> Durations:
    """Durations read back from built items (regenerating without TTS)."""
    known = {(s.text, s.voice): s.end_ms - s.start_ms for i in items for s in i.segments}

    def duration(text: str, voice: str) -> int:
        try:
            return known[(text, voice)]
        except KeyError:
            raise KeyError(f"no packaged duration for {text!r} in {voice}") from None

    return duration


def manifest(items: list[ActionItem], seed: int, per_condition: int) -> SuiteManifest:
    info = GeneratorInfo(
        name=GENERATOR,
        version=GENERATOR_VERSION,
        seed=seed,
        per_condition=per_condition,
        candidates=len(items),
    )
    return SuiteManifest(
        name="actions-v1", family="action", version="1", description=DESCRIPTION, generator=info
    )


def build(data: Path = DATA, durations: Durations | None = None) -> list[ActionItem]:
    durations = durations or bank_durations(SpeechBank())
    items = generate_actions(ACTIONS_SEED, PER_CONDITION, durations)
    write_suite(data / "actions-v1", manifest(items, ACTIONS_SEED, PER_CONDITION), items)
    return items


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    built = build(target)
    print(f"actions-v1: {len(built)} items -> {target / 'actions-v1'}")
