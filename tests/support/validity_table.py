"""Print the validity table of docs/metrics.md: the oracle and each defect agent, per metric.

    python tests/support/validity_table.py

Text agents run on the three form fixtures (pooled), audio agents on the fixture
their defect shows in; every number is what `tests/validity/` checks the direction of.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).parents[1])]

from duplexbench.agents._audio_builtin import AudioOracle  # noqa: E402
from duplexbench.agents._builtin import OracleAgent  # noqa: E402
from duplexbench.scoring._episode import EpisodeScore, score_episode  # noqa: E402
from duplexbench.scoring._interaction.metrics import interaction_metrics  # noqa: E402
from duplexbench.scoring._summary import workflow_block  # noqa: E402
from duplexbench.testing import _defects as defects  # noqa: E402
from support.fixtures import fixture_item  # noqa: E402
from support.helpers import run_and_score, run_audio  # noqa: E402

FORMS = ("form-expense-correction", "order-revocation", "benefits-enrollment")
TEXT = {
    "oracle": OracleAgent,
    "IgnoresCorrections": defects.IgnoresCorrections,
    "CommitsEarly": defects.CommitsEarly,
    "MishearsDigits": defects.MishearsDigits,
    "RaisesWhenFailing": defects.RaisesWhenFailing,
    "WritesBeforeRevealed": defects.WritesBeforeRevealed,
}
AUDIO = {
    "oracle (audio)": (AudioOracle, "form-expense-correction"),
    "NeverYields": (defects.NeverYields, "form-expense-correction"),
    "oracle (audio) ": (AudioOracle, "meeting-scheduling"),
    "AnswersLate": (defects.AnswersLate, "meeting-scheduling"),
}


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def row(name: str, scores: list[EpisodeScore]) -> list[str]:
    block = workflow_block(scores, 1, 0)
    blocked = sum(len(s.blocked_actions) for s in scores)
    errors = sum(s.status == "error" for s in scores)
    agent_errors = sum(s.status == "ok" and s.agent_error is not None for s in scores)
    uptake = block["correction_uptake"]["afa_corrected_fields"]
    floor = [s.floor for s in scores if s.floor is not None]
    barge = sum(f.barge_ins for f in floor)
    yields = f"{sum(f.yields for f in floor)}/{barge}" if floor else "-"
    timelines = [s.interaction.timeline() for s in scores if s.interaction is not None]
    latency = (
        interaction_metrics(timelines, rules="tau2")["response_latency"]["value"]
        if timelines
        else None
    )
    rate = block["unsupported_values"]["rate"]
    return [
        name,
        _fmt(block["pass_at_1"]),
        _fmt(block["afa"]),
        _fmt(uptake),
        str(blocked),
        yields,
        _fmt(latency),
        _fmt(rate),
        f"{agent_errors}/{errors}",
    ]


def main() -> None:
    head = [
        "agent",
        "Pass@1",
        "AFA",
        "uptake",
        "blocked",
        "yields",
        "latency s",
        "unsupp.",
        "errors (agent/harness)",
    ]
    rows = []
    for name, make in TEXT.items():
        rows.append(
            row(name, [run_and_score(fixture_item(f), make(), privileged=True)[1] for f in FORMS])
        )
    for name, (make_audio, fixture) in AUDIO.items():
        item = fixture_item(fixture)
        record = run_audio(item, make_audio(), privileged=True)
        rows.append(
            row(f"{name.strip()} [{fixture}]", [score_episode(item, record.events, exempt=True)])
        )
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
