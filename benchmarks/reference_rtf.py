"""Reference agent real-time factor: whisper on the full 30 s window vs trimmed.

One process, one core (run under ``taskset -c 0``; whisper then uses one
thread), the transcript cache off so every utterance is decoded. Each item is
played once to warm the speech bank and the models, then once measured, with
each setting in turn. RTF = seconds / media seconds of the measured episodes;
CPU seconds (user + sys of this process) are reported beside wall seconds
because they hold on a machine shared with other work. Target: at most 0.05.
Reported, never asserted.

    taskset -c 0 .venv/bin/python benchmarks/reference_rtf.py [--suite workflows-mini --limit 1]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from duplexbench.agents._cascade import CascadeAgent
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.items._load import item_checksum, load_item
from duplexbench.items._suite import load_suite
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode
from duplexbench.orchestrator._episode import EpisodeSetup
from duplexbench.speech._asr import ENCODE_MARGIN_FRAMES, ASREngine, WhisperASR, register_asr
from duplexbench.speech._bank import SpeechBank
from duplexbench.suites._package import resolve_suite

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
DEFAULT_ITEMS = ("form-expense-correction", "order-revocation", "meeting-scheduling")
TARGET_RTF = 0.05
SETTINGS = {"full": None, f"trim{ENCODE_MARGIN_FRAMES}": ENCODE_MARGIN_FRAMES}


def _register() -> None:
    for name, margin in SETTINGS.items():

        def make(margin: int | None = margin) -> ASREngine:
            return WhisperASR(encode_margin=margin)

        register_asr(f"whisper-{name}")(make)


def episode(item: WorkflowItem, bank: SpeechBank, setting: str) -> tuple[float, float, float]:
    """(media s, CPU s, wall s) of one reference episode with ASR `setting`."""
    setup = EpisodeSetup(item, item_checksum(item), "bench", "reference", "clean")
    agent = CascadeAgent(ReferenceDialogue(), asr=f"whisper-{setting}")
    cpu, wall = time.process_time(), time.perf_counter()
    record = AudioEpisode(setup, agent, bank, config=AudioChannelConfig()).run()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return record.events[-1].t_ms / 1000, cpu, wall


def main() -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", help="a built-in suite or path (default: three fixtures)")
    parser.add_argument("--limit", type=int, default=1, help="items of --suite")
    args = parser.parse_args()
    os.environ["DUPLEXBENCH_TRANSCRIPT_CACHE"] = "off"  # every utterance decoded
    if args.suite:
        items = [i for i in load_suite(resolve_suite(args.suite)).items][: args.limit]
    else:
        items = [load_item(FIXTURES / f"{name}.yaml") for name in DEFAULT_ITEMS]
    _register()
    bank = SpeechBank()
    totals = {name: [0.0, 0.0, 0.0] for name in SETTINGS}
    episodes: list[dict[str, Any]] = []
    for item in items:
        assert isinstance(item, WorkflowItem)
        for name in SETTINGS:
            episode(item, bank, name)  # warm: clips, models, the padding output
            media, cpu, wall = episode(item, bank, name)
            totals[name] = [totals[name][0] + media, totals[name][1] + cpu, totals[name][2] + wall]
            episodes.append(
                {"item": item.id, "asr": name, "media_s": media, "cpu_s": round(cpu, 2)}
            )
    out: dict[str, Any] = {"items": [i.id for i in items], "target_rtf": TARGET_RTF}
    for name, (media, cpu, wall) in totals.items():
        out[name] = {
            "media_s": round(media, 1),
            "cpu_s": round(cpu, 2),
            "wall_s": round(wall, 2),
            "rtf_cpu": round(cpu / media, 4),
            "rtf_wall": round(wall / media, 4),
            "ratio_to_target_cpu": round(cpu / media / TARGET_RTF, 3),
        }
    out["episodes"] = episodes
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
