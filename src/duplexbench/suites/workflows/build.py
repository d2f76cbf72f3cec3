"""Build the packaged suites `workflows-v1` (120 items) and `workflows-mini` (one per archetype).

    python -m duplexbench.suites.workflows.build [DATA_FOLDER]

regenerates both from the fixed seed into `duplexbench/suites/data/` (or
DATA_FOLDER). A test regenerates them in a temporary folder and compares the
checksums, so the packaged files always match the generator.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from duplexbench.campaign.qa import item_problems
from duplexbench.items.suite import GeneratorInfo, SuiteManifest
from duplexbench.items.workflow import WorkflowItem
from duplexbench.suites.package import DATA, write_suite
from duplexbench.suites.workflows.archetypes import load_archetypes
from duplexbench.suites.workflows.assemble import GENERATOR_VERSION
from duplexbench.suites.workflows.generate import Generated, generate

GENERATOR = "duplexbench.suites.workflows"
V1_SEED = 20261129
V1_PER_ARCHETYPE = 10
V1_DESCRIPTION = (
    "120 professional workflows (12 archetypes x 10), generated from one seed; every item "
    "solvable by the oracle, failed by doing nothing, audited for leakage and provenance."
)
MINI_DESCRIPTION = "One workflows-v1 item per archetype: the default suite of `duplexbench run`."


def generate_suite(
    seed: int = V1_SEED,
    per_archetype: int = V1_PER_ARCHETYPE,
    progress: Callable[[int], None] | None = None,
) -> Generated:
    return generate(load_archetypes(), per_archetype, seed, [item_problems], progress)


def manifest(
    name: str, description: str, generated: Generated, per_archetype: int
) -> SuiteManifest:
    reasons = Counter(f"{r.stage}: {r.reason}" for r in generated.rejected)
    info = GeneratorInfo(
        name=GENERATOR,
        version=GENERATOR_VERSION,
        seed=generated.seed,
        per_archetype=per_archetype,
        candidates=len(generated.items) + len(generated.rejected),
        rejected=dict(sorted(reasons.items())),
    )
    return SuiteManifest(name=name, version="1", description=description, generator=info)


def mini_items(items: list[WorkflowItem]) -> list[WorkflowItem]:
    """The first item of each archetype, in archetype order."""
    first: dict[str, WorkflowItem] = {}
    for item in items:
        first.setdefault(item.taxonomy.work_archetype, item)
    return list(first.values())


def build(data: Path = DATA) -> Generated:
    generated = generate_suite()
    v1 = manifest("workflows-v1", V1_DESCRIPTION, generated, V1_PER_ARCHETYPE)
    write_suite(data / "workflows-v1", v1, generated.items)
    mini = mini_items(generated.items)
    files = {i.id: f"../workflows-v1/{i.id}.yaml" for i in mini}
    mini_manifest = v1.model_copy(
        update={"name": "workflows-mini", "description": MINI_DESCRIPTION}
    )
    write_suite(data / "workflows-mini", mini_manifest, mini, files)
    return generated


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    result = build(target)
    print(f"{len(result.items)} items, {len(result.rejected)} candidates rejected -> {target}")
