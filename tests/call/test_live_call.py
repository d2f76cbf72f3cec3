"""A person's call, end to end: headless Chromium plays the caller of
form-expense-correction against the reference agent, through the page, the
server, `run_calls` and the `HumanEpisode`, and the episode folder scores like a
simulated episode.

The caller's microphone is fed from WAVs of the fixture's user lines (rendered
by the speech bank), one line at a time, each said once the agent's last words
are on the page, as a person would: a single fixed-timeline recording cannot
wait for an agent whose turns take as long as its ASR and TTS do. Chromium's
fake-UI flag grants the microphone; the page's own capture worklet, the
WebSocket and the server's resampler carry the audio.

DUPLEXBENCH_SCREENSHOTS=1 writes the screenshots of docs/human-caller.md.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from duplexbench.audio import SAMPLE_RATE, write_wav
from duplexbench.call import CallOptions, CallOutcome, CallServer, run_calls
from duplexbench.campaign import CONDITIONS, RunOptions, RunResult, run_campaign
from duplexbench.speech import DEFAULT_VOICE, SpeechBank
from support.call_page import open_call
from support.fixtures import FIXTURES
from support.scripted_phone import EXPENSE_OPENING, EXPENSE_REPLIES

pytestmark = pytest.mark.slow

FAKE_MIC = """
(() => {
  let mic = null;
  navigator.mediaDevices.getUserMedia = async () => {
    const ctx = new AudioContext({ sampleRate: 48000 });
    const dest = ctx.createMediaStreamDestination();
    mic = { ctx, dest, until: 0 };
    return dest.stream;
  };
  window.__say = async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const clip = await mic.ctx.decodeAudioData(bytes.buffer);
    await mic.ctx.resume();
    const source = mic.ctx.createBufferSource();
    source.buffer = clip;
    source.connect(mic.dest);
    const at = Math.max(mic.ctx.currentTime + 0.05, mic.until);
    source.start(at);
    mic.until = at + clip.duration;
    return clip.duration;
  };
})();
"""
OPENING, REPLIES = EXPENSE_OPENING, EXPENSE_REPLIES
STEP_S = 60.0
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"


def wav_b64(bank: SpeechBank, text: str, folder: Path) -> str:
    path = folder / f"line-{abs(hash(text))}.wav"
    write_wav(path, [bank.clip(text, str(DEFAULT_VOICE)).samples], SAMPLE_RATE)
    return base64.b64encode(path.read_bytes()).decode("ascii")


def agent_lines(page: Any) -> list[str]:
    lines: list[str] = page.eval_on_selector_all(
        "#transcript .who-agent .text", "nodes => nodes.map(n => n.textContent)"
    )
    return lines


def converse(page: Any, clips: dict[str, str], shot: bool) -> list[str]:
    """Answer each new agent line as the script says; the agent lines seen."""
    page.evaluate("b64 => window.__say(b64)", clips[OPENING])
    seen = 0
    script = list(REPLIES)
    while script:
        deadline = time.monotonic() + STEP_S
        while len(agent_lines(page)) <= seen:
            assert time.monotonic() < deadline, f"no agent line after {agent_lines(page)}"
            page.wait_for_timeout(100)  # a page poll, not a wait for another task's work
        lines = agent_lines(page)
        seen = len(lines)
        last = lines[-1].lower()
        if script and script[0][0] in last:
            _, reply = script.pop(0)
            page.evaluate("b64 => window.__say(b64)", clips[reply])
            if shot and reply.startswith("Sorry"):
                page.wait_for_timeout(4000)
                page.screenshot(path=str(SHOTS / "human-caller-call.png"))
    page.wait_for_selector("#ended:not([hidden])", timeout=STEP_S * 1000)
    return agent_lines(page)


def simulated_score(opts: CallOptions, out: Path) -> dict[str, Any]:
    """The same item and agent with the simulated caller (clean audio channel)."""
    run = RunOptions(
        suite=opts.suite, agent=opts.agent, condition=CONDITIONS["clean"], repeats=1,
        items=opts.items,
        out=out, speech_cache=opts.speech_cache,
    )  # fmt: skip
    result = run_campaign(run)
    (path,) = result.run_dir.glob("episodes/**/result.json")
    score: dict[str, Any] = json.loads(path.read_text())
    return score


def wrong_fields(score: dict[str, Any]) -> set[str]:
    return {f["field"] for f in score["fields"] if f["score"] < 1}


def test_a_person_calls_the_reference_agent_and_it_scores_like_a_simulated_episode(
    tmp_path: Path, speech_cache: Path
) -> None:
    pytest.importorskip("piper")
    pytest.importorskip("faster_whisper")
    bank = SpeechBank(speech_cache)
    clips = {text: wav_b64(bank, text, tmp_path) for text in [OPENING, *(r for _, r in REPLIES)]}
    shot = os.environ.get("DUPLEXBENCH_SCREENSHOTS") == "1"
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
    opts = CallOptions(
        suite=str(FIXTURES),
        items=("form-expense-correction",),
        agent="reference?listen=plain",  # the scripted person answers plain questions
        out=tmp_path / "run",
        speech_cache=speech_cache,
    )
    server = CallServer()
    server.start()
    done: list[tuple[RunResult, list[CallOutcome]]] = []
    failed: list[BaseException] = []

    def session() -> None:
        try:
            done.append(run_calls(opts, server, lambda _: None))
        except BaseException as exc:
            failed.append(exc)

    worker = threading.Thread(target=session, daemon=True)
    worker.start()
    try:
        with open_call(server, init_script=FAKE_MIC) as call:
            page = call.page
            page.wait_for_selector("#start:not([disabled])", timeout=30_000)
            page.click("#start")
            page.wait_for_selector("#status[data-state=live]", timeout=30_000)
            heard = converse(page, clips, shot)
            if shot:
                page.screenshot(path=str(SHOTS / "human-caller-ended.png"))
            assert page.locator("#viewer-link").count() == 1
            assert call.console_errors == []
            origin = server.url.split("/?")[0]
            assert all(u.startswith((origin, origin.replace("http", "ws"))) for u in call.requests)
        worker.join(timeout=STEP_S)
    finally:
        server.close()
    assert not failed, failed
    ((result, outcomes),) = done
    assert [o.complete for o in outcomes] == [True], (outcomes, heard)
    assert outcomes[0].reason == "agent_ended"
    folder = outcomes[0].folder
    assert {p.name for p in folder.iterdir()} >= {"events.jsonl", "audio.wav", "result.json"}
    score = json.loads((folder / "result.json").read_text())
    simulated = simulated_score(opts, tmp_path / "simulated")
    assert score["status"] == "ok"
    # The simulated caller says "client onsite" (the graders take "on site" for
    # "onsite"). The person says "It was a client onsite visit", which the reference agent
    # writes whole ("a client on-site visit"): that field is wrong in the person's call
    # only, an agent's reading, not the line's. Fields whisper misheard in the simulated
    # call (this agent, `listen=plain`, never asks for a spelling: "TC-330" for the cost
    # center "CC-330" since the December 2026 whisper settings) are the agent's too.
    gates = ("TS", "PV", "AC")
    assert {g: simulated["gates"][g] for g in gates} == dict.fromkeys(gates, True)
    assert all(f["cause"] == "misheard" for f in simulated["fields"] if f["score"] < 1)
    assert score["gates"] == {"TS": True, "PV": True, "AC": True, "AV": False}
    assert wrong_fields(score) - wrong_fields(simulated) == {"trip_purpose"}, score["fields"]
    bench = json.loads((folder / "workbench.json").read_text())["artifacts"]["expense"]
    assert bench["fields"]["total_amount"] == 200  # the correction superseded 240
    assert bench["fact_versions"]["total_amount"] == "total_amount_v2"
    events = [json.loads(line) for line in (folder / "events.jsonl").open()]
    fired = [e["data"]["event_id"] for e in events if e["type"] == "duplex.event"]
    assert fired == ["fix_total"]
    spec = json.loads((result.run_dir / "campaign.json").read_text())
    assert spec["condition"] == "human"
