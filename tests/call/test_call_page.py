"""The live caller page in headless Chromium against a real CallServer: it loads clean,
renders every server message as text, streams the (fake) microphone by the mode's
rules, links only to this server's viewer, and says so when the server goes away.

Set DUPLEXBENCH_SCREENSHOTS=1 to save the mid-call screenshot of the docs
(docs/images/human-caller-page.png).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from duplexbench.call import CallServer
from duplexbench.cli import main
from duplexbench.report import write_viewer
from support.call_page import CallPage, next_of, open_call
from support.fixtures import FIXTURES
from support.waiting import wait_until
from support.xss import HOSTILE, INJECTED, TRAP, shown_as_text

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "human-caller-page.png"
BEEP = 1000
"""A sample this loud is Chromium's fake microphone beeping (between beeps it is ~silent)."""
CHUNKS = 60
"""Microphone chunks the page captures (20 ms each) while a test checks that none is sent."""


@dataclass
class Call:
    server: CallServer
    loaded: CallPage
    hello: dict[str, object]

    @property
    def page(self) -> Any:
        return self.loaded.page


@pytest.fixture
def call() -> Iterator[Call]:
    """A server and its page, connected, the microphone set up (`hello` received)."""
    server = CallServer()
    server.start()
    try:
        with open_call(server) as loaded:
            next_of(server, "connected")
            yield Call(server, loaded, next_of(server, "hello"))
    finally:
        server.close()


def same_origin(call: Call) -> list[str]:
    """The URLs the page asked for outside its server (data: URLs are no request)."""
    port = call.server.port
    own = (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/", "data:")
    return [url for url in call.loaded.requests if not url.startswith(own)]


def heard_beep(call: Call) -> bool:
    """Whether the microphone buffer held a beep (reads, so call it until it is true)."""
    return bool(np.abs(call.server.mic.read(1600).astype(np.int32)).max() > BEEP)


def assert_nothing_sent(call: Call) -> None:
    """The page captures CHUNKS microphone chunks and none of them reaches the server."""
    mic = call.server.mic
    mic.clear()
    call.page.evaluate(
        """() => {
            window.__chunks = 0;
            new MutationObserver((records) => { window.__chunks += records.length; })
                .observe(document.getElementById('mic-level'), {attributeFilter: ['value']});
        }"""
    )
    call.page.wait_for_function(f"() => window.__chunks >= {CHUNKS}")
    before = mic.underrun_samples
    mic.read(mic.RATE * mic.MAX_MS // 1000)
    assert mic.underrun_samples - before == mic.RATE * mic.MAX_MS // 1000


# ---- loading, Start, the open microphone ----


def test_the_page_loads_clean_and_streams_the_open_mic_after_start(call: Call) -> None:
    rate = call.hello["sample_rate"]
    assert isinstance(rate, int)
    assert rate >= 8000
    page = call.page
    assert page.is_enabled("#start")
    assert page.is_disabled("#end")
    assert page.is_checked("#mode-open")
    assert page.is_disabled("#talk")
    assert page.inner_text("#status") == "Connected to duplexbench"
    assert page.is_hidden("#error")
    assert page.is_hidden("#ended")
    page.click("#start")
    assert next_of(call.server, "start") == {"type": "start"}
    assert page.is_disabled("#start")
    assert page.is_enabled("#end")
    wait_until(lambda: heard_beep(call), what="the open microphone's beep at the server")
    page.click("#end")
    assert next_of(call.server, "end") == {"type": "end"}
    assert call.loaded.console_errors == []
    assert same_origin(call) == []


def test_a_refused_microphone_is_told_and_shown() -> None:
    server = CallServer()
    server.start()
    try:
        with open_call(server, microphone=False) as loaded:
            assert next_of(server, "connected") == {"type": "connected"}
            refused = server.next_control(timeout=10)
            assert refused == {"type": "mic_error", "message": "NotAllowedError: Permission denied"}
            page = loaded.page
            page.wait_for_selector("#error:not([hidden])")
            assert page.inner_text("#error").startswith("Microphone: the microphone cannot be used")
            assert page.is_enabled("#start")
            assert loaded.console_errors == []
    finally:
        server.close()


# ---- every server message ----


def card(now: str = "c2") -> dict[str, object]:
    lines = [
        ("c1", "fact", "Your order number is 4471-B.", "done"),
        ("c2", "event", "Say you want to cancel the order, not return it.", "known"),
        ("c3", "approval", "Agree to the cancellation fee only if it is under $15.", "later"),
        ("c4", "note", "You are calling from work and are in a hurry.", "known"),
    ]
    return {
        "type": "card",
        "persona": {"name": "Dana Whitfield", "verbosity": "terse", "behavior": "hurried"},
        "goal": "Cancel order 4471-B before it ships and get the refund confirmed.",
        "lines": [
            {"id": i, "kind": k, "text": t, "state": "now" if i == now else s}
            for i, k, t, s in lines
        ],
    }


def mid_call(server: CallServer) -> None:
    """What a live call shows: item, card, status, transcript, artifact."""
    item = {"type": "item", "item_id": "order-revocation", "title": "Cancel an order"}
    server.send(item | {"index": 2, "total": 3})
    server.send(card())
    server.send({"type": "status", "state": "live", "message": "on the call"})
    lines = [
        ("t1", "agent", "Thanks for calling Northwind, how can I help?", 1200, True),
        ("t2", "caller", "Hi, I need to cancel an ord", 4800, False),
        ("t3", "agent", "Sure, what is the order number?", 9400, True),
        ("t2", "caller", "Hi, I need to cancel an order.", 4800, True),
        ("t4", "caller", "It's 4471-B.", 65_000, True),
    ]
    for id_, who, text, t_ms, final in lines:
        message = {"type": "transcript", "id": id_, "who": who, "text": text}
        server.send(message | {"t_ms": t_ms, "final": final})
    fields = [{"name": "order_id", "value": "4471-B"}, {"name": "reason", "value": None}]
    artifact = {"id": "cancel", "title": "Cancellation request", "state": "draft"}
    server.send({"type": "artifact", "artifacts": [artifact | {"fields": fields}]})


def test_every_message_renders(call: Call) -> None:
    server, page = call.server, call.page
    mid_call(server)
    page.wait_for_selector("#artifact table tbody tr >> nth=1")
    server.send_audio(np.zeros(3200, dtype="<i2").tobytes())
    assert page.inner_text("#title") == "Cancel an order"
    assert page.inner_text("#progress") == "call 2 of 3"
    assert page.title() == "Cancel an order · duplexbench"

    persona = page.inner_text("#card .persona").split()
    assert persona == ["Name", "Dana", "Whitfield", "Verbosity", "terse", "Behavior", "hurried"]
    states = page.eval_on_selector_all("#card li", "els => els.map(e => e.dataset.state)")
    assert states == ["done", "now", "later", "known"]
    now = page.locator("#card li[data-state=now]")
    assert now.get_attribute("aria-current") == "step"
    assert "cancel the order" in now.inner_text()
    assert now.evaluate("e => getComputedStyle(e).fontWeight") == "600"
    for dim in ("done", "later"):
        opacity = page.locator(f"#card li[data-state={dim}]").evaluate(
            "e => getComputedStyle(e).opacity"
        )
        assert float(opacity) < 1, dim

    rows = page.locator("#transcript li")
    assert rows.count() == 4
    assert rows.nth(1).inner_text() == "0:04 You Hi, I need to cancel an order."
    assert rows.nth(1).get_attribute("class") == "line who-caller"
    assert rows.nth(2).get_attribute("class") == "line who-agent"
    assert rows.nth(3).inner_text().startswith("1:05")
    assert page.get_attribute("#transcript", "aria-live") == "polite"

    assert page.inner_text("#artifact caption") == "Cancellation request draft"
    cells = page.eval_on_selector_all("#artifact tbody tr", "rs => rs.map(r => r.innerText)")
    assert [c.split("\t") for c in cells] == [["order_id", "4471-B"], ["reason", "(not set)"]]

    assert page.get_attribute("#status", "data-state") == "live"
    assert page.inner_text("#status") == "Live: on the call"
    assert page.is_disabled("#start")
    assert page.is_enabled("#end")
    if os.environ.get("DUPLEXBENCH_SCREENSHOTS") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))

    server.send({"type": "error", "where": "agent", "message": "the agent stopped answering"})
    server.send(card(now="c3"))
    viewer = f"http://127.0.0.1:{server.port}/files/order-revocation.html?token=x"
    ended = {"type": "ended", "reason": "the caller hung up", "complete": False}
    server.send(ended | {"folder": "/runs/r1/ep", "viewer": viewer, "summary": "AFA 3/4"})
    page.wait_for_selector("#ended:not([hidden])")
    assert page.get_attribute("#error", "role") == "alert"
    assert page.inner_text("#error") == "Agent: the agent stopped answering"
    states = page.eval_on_selector_all("#card li", "els => els.map(e => e.dataset.state)")
    assert states == ["done", "known", "now", "known"]
    text = page.inner_text("#ended")
    assert "the caller hung up" in text
    assert "saved, but not scored as a pass" in text
    assert "/runs/r1/ep" in text
    assert "AFA 3/4" in text
    assert page.get_attribute("#viewer-link", "href") == viewer
    assert page.get_attribute("#viewer-link", "target") == "_blank"
    assert page.is_disabled("#start")
    assert page.is_disabled("#end")
    assert call.loaded.console_errors == []


def test_hostile_text_renders_as_text_and_never_runs(call: Call) -> None:
    server, page = call.server, call.page
    server.send({"type": "item", "item_id": HOSTILE, "title": HOSTILE, "index": 1, "total": 1})
    persona = {"name": HOSTILE, "verbosity": HOSTILE, "behavior": HOSTILE}
    line = {"id": HOSTILE, "kind": HOSTILE, "text": HOSTILE, "state": HOSTILE}
    server.send({"type": "card", "persona": persona, "goal": HOSTILE, "lines": [line]})
    server.send({"type": "status", "state": HOSTILE, "message": HOSTILE})
    said: dict[str, object] = {"type": "transcript", "id": HOSTILE, "who": HOSTILE}
    said["text"] = HOSTILE
    server.send(said | {"t_ms": HOSTILE, "final": HOSTILE})
    field = {"name": HOSTILE, "value": HOSTILE}
    artifact = {"id": HOSTILE, "title": HOSTILE, "state": HOSTILE, "fields": [field]}
    server.send({"type": "artifact", "artifacts": [artifact]})
    server.send({"type": "error", "where": HOSTILE, "message": HOSTILE})
    ended: dict[str, object] = {"type": "ended", "reason": HOSTILE, "complete": HOSTILE}
    ended["folder"] = HOSTILE
    server.send(ended | {"viewer": HOSTILE, "summary": HOSTILE})
    page.wait_for_selector("#ended:not([hidden])")
    page.hover("#card li")
    page.hover("#transcript li")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("body").locator(INJECTED).count() == 0
    assert page.locator("link[rel=stylesheet]").count() == 1  # the page's own, in <head>
    assert page.locator("#viewer-link").count() == 0
    for where in ("#title", "#status", "#transcript", "#error", "#ended-reason", "#ended-folder"):
        assert shown_as_text(page.inner_text(where)) == [], where
    assert shown_as_text(page.inner_text("#ended-summary")) == []
    for where in ("#card .persona dd", "#card .goal", "#card li .text", "#artifact caption"):
        assert shown_as_text(page.locator(where).first.inner_text()) == [], where
    for where in ("#artifact tbody th", "#artifact tbody td"):
        assert shown_as_text(page.inner_text(where)) == [], where
    assert page.title().startswith(HOSTILE[:200])  # as text (Chromium shortens long titles)
    assert "incomplete" in page.inner_text("#ended-complete")
    assert page.get_attribute("#status", "data-state") == ""  # an unknown state is no state
    assert not any(TRAP in url for url in call.loaded.requests)
    assert same_origin(call) == []
    assert page.evaluate("typeof window.__pwned") == "undefined"


NOT_OURS: list[object] = [
    "javascript:window.__pwned='viewer'",
    "JavaScript:window.__pwned='viewer'",
    " javascript:window.__pwned='viewer'",
    "data:text/html,<script>window.__pwned='viewer'</script>",
    "http://127.0.0.1:9/files/x.html",
    "//example.com/files/x.html",
    "https://example.com/",
    "/files/x.html",
    "",
    None,
    42,
]


def test_the_viewer_link_is_made_for_this_origin_only(call: Call) -> None:
    server, page = call.server, call.page
    ended = {"type": "ended", "reason": "r", "complete": True, "folder": "f"}
    path = f"/files/x.html?token={server.url.partition('?token=')[2]}"
    own = f"http://127.0.0.1:{server.port}{path}"
    for n, viewer in enumerate([*NOT_OURS, own]):
        server.send(ended | {"viewer": viewer, "summary": f"case {n}"})
        page.wait_for_selector(f"#ended-summary:text-is('case {n}')")
        made = page.locator("#viewer-link").count()
        assert made == (viewer == own), viewer
    assert page.get_attribute("#viewer-link", "href") == own
    assert "complete: it is scored" in page.inner_text("#ended-complete")
    assert page.evaluate("typeof window.__pwned") == "undefined"


PLAY_TONE = """async () => {
  const ctx = new AudioContext();
  await ctx.audioWorklet.addModule('audio-worklet.js');
  const player = new AudioWorkletNode(
    ctx, 'agent-player', {numberOfInputs: 0, outputChannelCount: [1]});
  const analyser = new AnalyserNode(ctx, {fftSize: 8192});
  player.connect(analyser).connect(new GainNode(ctx, {gain: 0})).connect(ctx.destination);
  for (let c = 0; c < 50; c++) {  // 1 s of 440 Hz at 16 kHz, in 20 ms frames as the server sends
    const pcm = new DataView(new ArrayBuffer(640));
    for (let i = 0; i < 320; i++) {
      const t = (c * 320 + i) / 16000;
      pcm.setInt16(2 * i, Math.round(8000 * Math.sin(2 * Math.PI * 440 * t)), true);
    }
    player.port.postMessage(pcm.buffer, [pcm.buffer]);
  }
  const start = ctx.currentTime, deadline = performance.now() + 10000;
  while (ctx.currentTime < start + 0.5 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));  // the audio clock advancing
  }
  const wave = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(wave);
  const spectrum = new Float32Array(analyser.frequencyBinCount);
  analyser.getFloatFrequencyData(spectrum);
  let peak = 0;
  for (let i = 1; i < spectrum.length; i++) if (spectrum[i] > spectrum[peak]) peak = i;
  let run = 0, silent = 0;
  for (const x of wave) { run = Math.abs(x) < 1e-3 ? run + 1 : 0; silent = Math.max(silent, run); }
  return {played: ctx.currentTime - start, bin: ctx.sampleRate / analyser.fftSize,
          hz: peak * ctx.sampleRate / analyser.fftSize, peak: Math.max(...wave), silent};
}"""


def test_the_agent_player_plays_frames_gap_free_at_their_pitch(call: Call) -> None:
    call.page.click("#start")  # a user gesture: the page may run audio from now on
    heard = call.page.evaluate(PLAY_TONE)
    assert heard["played"] >= 0.5, heard
    assert abs(heard["hz"] - 440) <= heard["bin"], heard
    assert abs(heard["peak"] - 8000 / 32768) < 0.01, heard
    assert heard["silent"] <= 2, heard  # no gap at the 20 ms frame edges (~190 ms looked at)
    assert call.loaded.console_errors == []


# ---- push to talk ----


def test_push_to_talk_sends_audio_only_while_talking(call: Call) -> None:
    server, page = call.server, call.page
    page.check("#mode-ptt")
    assert page.is_enabled("#talk")
    page.click("#start")
    next_of(server, "start")
    assert_nothing_sent(call)

    page.hover("#talk")
    page.mouse.down()
    assert next_of(server, "talk") == {"type": "talk", "open": True}
    assert page.get_attribute("#talk", "aria-pressed") == "true"
    wait_until(lambda: heard_beep(call), what="the beep while the Talk button is held")
    page.mouse.up()
    assert next_of(server, "talk") == {"type": "talk", "open": False}
    assert page.get_attribute("#talk", "aria-pressed") == "false"
    assert_nothing_sent(call)

    page.keyboard.down("Space")
    assert next_of(server, "talk") == {"type": "talk", "open": True}
    wait_until(lambda: heard_beep(call), what="the beep while Space is held")
    page.keyboard.up("Space")
    assert next_of(server, "talk") == {"type": "talk", "open": False}
    assert_nothing_sent(call)

    page.check("#mode-open")
    assert page.is_disabled("#talk")
    wait_until(lambda: heard_beep(call), what="the beep with the open microphone")
    assert call.loaded.console_errors == []


# ---- the end of the server, the viewer it publishes ----


def test_the_page_says_when_the_server_is_gone(call: Call) -> None:
    page = call.page
    page.check("#mode-ptt")
    call.server.close()
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "Connection: connection to duplexbench lost"
    for button in ("#start", "#end", "#talk"):
        assert page.is_disabled(button), button
    assert page.get_attribute("#status", "data-state") == "lost"


@pytest.fixture(scope="module")
def viewer_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real episode viewer page (one oracle episode, audio embedded)."""
    out = tmp_path_factory.mktemp("call-viewer") / "run"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "1"]
    args += ["--items", "order-revocation", "--condition", "clean", "--out", str(out), "-q"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    episode = out / "episodes" / "oracle" / "clean" / "order-revocation" / "r0"
    return write_viewer(episode, embed_audio=True)


def test_the_published_viewer_opens_from_the_ended_panel(call: Call, viewer_page: Path) -> None:
    server, page = call.server, call.page
    url = server.publish("order-revocation.html", viewer_page)
    ended = {"type": "ended", "reason": "done", "complete": True, "folder": str(viewer_page)}
    server.send(ended | {"viewer": url, "summary": ""})
    with page.context.expect_page() as opened:
        page.click("#viewer-link")
    viewer = opened.value
    errors: list[str] = []
    viewer.on("pageerror", lambda e: errors.append(str(e)))
    viewer.wait_for_function("() => document.body.dataset.ready === '1'", timeout=10_000)
    viewer.wait_for_function("() => document.querySelector('audio.player').readyState >= 1")
    assert viewer.url == url
    assert errors == []
    assert viewer.evaluate("window.opener") is None
