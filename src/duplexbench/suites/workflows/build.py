"""Build the packaged suites `workflows-v2` (120 items) and `workflows-mini` (one per archetype).

    python -m duplexbench.suites.workflows.build [DATA_FOLDER]

regenerates both from the fixed seed into `duplexbench/suites/data/` (or
DATA_FOLDER). A test regenerates them in a temporary folder and compares the
checksums, so the packaged files always match the generator. `workflows-v1`
(generator 1.0) is kept as it was published, for the runs made with it; it
is no longer generated (docs/suites.md, "Changelog").
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from duplexbench.items import GeneratorInfo, SuiteManifest, WorkflowItem
from duplexbench.suites._package import DATA, write_suite
from duplexbench.suites._quality.qa import item_problems
from duplexbench.suites.workflows.archetypes import load_archetypes
from duplexbench.suites.workflows.assemble import GENERATOR_VERSION
from duplexbench.suites.workflows.generate import Generated, generate
from duplexbench.suites.workflows.pools import PoolName

GENERATOR = "duplexbench.suites.workflows"
SUITE = "workflows-v2"
SUITE_VERSION = "2"
SEED = 20261129
PER_ARCHETYPE = 10
DESCRIPTION = (
    "120 professional workflows (12 archetypes x 10), generated from one seed; every item "
    "solvable by the oracle, failed by doing nothing, audited for leakage and provenance."
)
MINI_DESCRIPTION = f"One {SUITE} item per archetype: the default suite of `duplexbench run`."


def generate_suite(
    seed: int = SEED,
    per_archetype: int = PER_ARCHETYPE,
    progress: Callable[[int], None] | None = None,
    pools: PoolName = "packaged",
) -> Generated:
    return generate(load_archetypes(), per_archetype, seed, [item_problems], progress, pools=pools)


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
        pools=None if generated.pools == "packaged" else generated.pools,
    )
    return SuiteManifest(name=name, version=SUITE_VERSION, description=description, generator=info)


def mini_items(items: list[WorkflowItem]) -> list[WorkflowItem]:
    """The first item of each archetype, in archetype order."""
    first: dict[str, WorkflowItem] = {}
    for item in items:
        first.setdefault(item.taxonomy.work_archetype, item)
    return list(first.values())


def build(data: Path = DATA) -> Generated:
    generated = generate_suite()
    full = manifest(SUITE, DESCRIPTION, generated, PER_ARCHETYPE)
    write_suite(data / SUITE, full, generated.items)
    mini = mini_items(generated.items)
    files = {i.id: f"../{SUITE}/{i.id}.yaml" for i in mini}
    mini_manifest = full.model_copy(
        update={"name": "workflows-mini", "description": MINI_DESCRIPTION}
    )
    write_suite(data / "workflows-mini", mini_manifest, mini, files)
    return generated


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    result = build(target)
    print(f"{len(result.items)} items, {len(result.rejected)} candidates rejected -> {target}")
