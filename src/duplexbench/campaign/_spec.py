"""The campaign spec, saved as `campaign.json` at the top of a run directory."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import GeneratorInfo
from duplexbench.scoring import exemption

RUN_FORMAT = "1"


class JudgeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    model: str
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint; none = cache only.")
    cache: str | None = Field(
        None, description="Verdict cache (JSONL); default RUN_DIR/judge-cache.jsonl."
    )


class CampaignSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    run_format: str = RUN_FORMAT
    duplexbench_version: str
    suite: str
    family: Literal["workflow", "action"] = "workflow"
    suite_version: str
    suite_path: str
    scorer_version: str | None = Field(
        None,
        description="The scoring rules the run was made and first scored with "
        "(scoring/_version.py). None: a run made before it was recorded.",
    )
    generator: GeneratorInfo | None = Field(
        None,
        description="How the suite was generated (generator, version, seed; its manifest's "
        "`generator`): two runs on suites of the same generator version and seed ran the "
        "same items. None: a suite without a generator, or a run made before it was recorded.",
    )
    agent: str = Field(description="Agent spec, recorded verbatim.")
    condition: str = "text"
    repeats: int = Field(3, ge=1)
    seed: int = 0
    items: list[str]
    item_checksums: dict[str, str]
    judge: JudgeConfig | None = None
    prices: str | None = Field(
        None, description="Price table for cost estimates (default: built-in)."
    )
    simulator: dict[str, str | None] | None = Field(
        None,
        description="The simulated user (simulator version, observer layers, version, model, "
        "weights); None: action runs and runs made before it was recorded.",
    )
    privileged: bool | None = Field(
        None,
        description="The agent was registered privileged (it sees hidden item state): its "
        "scores are not a valid result. None: runs made before it was recorded.",
    )
    voice_fallback: bool = Field(
        False,
        description="Personas whose engine was missing spoke with their fallback voice "
        "(`--allow-voice-fallback`; each episode's `episode.condition` says which).",
    )
    user: Literal["simulated", "human"] = Field(
        "simulated",
        description="Who played the caller: the simulator, or a person (`duplexbench call`, "
        "docs/human-caller.md). A human run is never pooled with a simulated one.",
    )

    @property
    def provenance_exempt(self) -> str | None:
        """Why unsupported values do not count against this run's agent (it reads the
        gold: `oracle`, `privileged`), else None (docs/metrics.md, "Unsupported values")."""
        return exemption(self.agent, self.privileged)

    def episodes(self) -> Iterator[tuple[str, int, str]]:
        """(item id, repetition, episode folder relative to the run directory), in order."""
        for item_id in self.items:
            for repetition in range(self.repeats):
                yield item_id, repetition, episode_dir(self, item_id, repetition)


class IndexRow(BaseModel):
    """One line of `results.jsonl`: where an episode is and how it scored."""

    model_config = ConfigDict(extra="forbid")
    item_id: str
    repetition: int
    path: str
    status: str
    ws: int | None = None
    afa_correct: int | None = None
    afa_total: int | None = None
    error: str | None = None


SLUG_MAX = 100
"""Longest folder name a slug gives (file systems allow 255 bytes)."""


def slug(text: str) -> str:
    """A file-system-safe name for an agent spec or condition.

    Names longer than `SLUG_MAX` keep their first characters and end in 12
    hex digits of the text's sha256, so they stay distinct.
    """
    name = re.sub(r"[^A-Za-z0-9_.\-]+", "_", text).strip("._") or "_"
    if len(name) <= SLUG_MAX:
        return name
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{name[: SLUG_MAX - 13]}-{digest}"


def episode_dir(spec: CampaignSpec, item_id: str, repetition: int) -> str:
    """Relative path of an episode folder inside the run directory."""
    return f"episodes/{slug(spec.agent)}/{slug(spec.condition)}/{item_id}/r{repetition}"
