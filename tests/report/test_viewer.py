"""`duplexbench view`: the episode page, its escaping, its audio and its behaviour in Chromium."""

from __future__ import annotations

import base64
import html
import io
import json
import shutil
import wave
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.report._viewer import ViewerError, build_html, load_episode, write_viewer
from duplexbench.report._viewer.waveform import MAX_POINTS, peaks, points_per_second
from support.browser import open_page
from support.fixtures import FIXTURES
from support.xss import HOSTILE, INJECTED, RAW_TAGS, shown_as_text

ITEM = "order-revocation"
EPISODE = f"episodes/oracle/noise/{ITEM}/r0"
FIRST = "<script>window.__pwned='script'</script>"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle episode of order-revocation on a noisy line (audio.wav + user_line.wav)."""
    out = tmp_path_factory.mktemp("viewer") / "run"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "1", "--items", ITEM]
    args += ["--condition", "noise", "--out", str(out), "-q"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def episode(run_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the run (so a test can damage or poison it)."""
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    return copy / EPISODE


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (path / "events.jsonl").read_text().splitlines()]


def _write_events(path: Path, events: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
    (path / "events.jsonl").write_text(text, encoding="utf-8")


def _poison(episode: Path) -> None:
    """HOSTILE in a transcript, a tool argument, an effect name, the item title, a field value."""
    events = _events(episode)
    events[0]["data"]["agent"] = HOSTILE
    first_utterance = next(e for e in events if e["type"] == "agent.utterance")
    first_utterance["data"]["text"] = HOSTILE
    next(e for e in events if e["type"] == "tool.call")["data"]["arguments"] = {"note": HOSTILE}
    next(e for e in events if e["type"] == "user.effect")["data"]["effect"] = HOSTILE
    _write_events(episode, events)
    item_file = episode.parents[4] / "items" / f"{ITEM}.json"
    item = json.loads(item_file.read_text())
    item["title"] = HOSTILE
    item_file.write_text(json.dumps(item))
    result = json.loads((episode / "result.json").read_text())
    result["fields"][0]["predicted"] = HOSTILE
    result["fields"][0]["gold"] = {"x": HOSTILE}
    (episode / "result.json").write_text(json.dumps(result))


def test_hostile_strings_are_escaped_everywhere(episode: Path) -> None:
    _poison(episode)
    page = build_html(load_episode(episode), episode / "view.html")
    assert page.count("<script") == 2  # the JSON data block and the page's own script
    assert "window.__pwned" in page
    assert "<script>window.__pwned" not in page
    assert "<img src=x" not in page and "<b onmouseover" not in page
    assert not [raw for raw in RAW_TAGS if raw in page]
    assert "\u2028" not in page.split('id="viewer-data">')[1]
    assert f'<h1 id="title">{html.escape(HOSTILE)}</h1>' in page
    payload = FIRST
    assert html.escape('({"note":"' + payload) in page  # the tool argument
    fields = page.split('id="fields"')[1].split("</table>")[0]
    assert html.escape(f'"{payload}') in fields and html.escape(f'{{"x":"{payload}') in fields
    assert f"<dd>{html.escape(HOSTILE)}</dd>" in page  # the agent spec in the header
    data = page.split('<script type="application/json" id="viewer-data">')[1].split("</script>")[0]
    assert "<" not in data and ">" not in data and "&" not in data
    parsed = json.loads(data)
    assert HOSTILE in [c[3] for c in parsed["captions"]]
    assert HOSTILE in [fx[2] for fx in parsed["effects"]]


def test_content_security_policy_forbids_the_network(episode: Path) -> None:
    page = build_html(load_episode(episode), episode / "view.html")
    csp = page.split('http-equiv="Content-Security-Policy" content="')[1].split('"')[0]
    assert "default-src 'none'" in csp
    assert "script-src 'sha256-" in csp and "unsafe-inline" not in csp.split(";")[1]
    assert "media-src 'self' data: file:" in csp and "img-src data:" in csp
    assert "http" not in page.split("<body>")[0].replace("http-equiv", "")


def test_audio_is_referenced_by_relative_path(episode: Path, tmp_path: Path) -> None:
    page = write_viewer(episode).read_text()
    assert (episode / "view.html").is_file()
    assert 'src="audio.wav"' in page and 'src="user_line.wav"' in page
    elsewhere = write_viewer(episode, tmp_path / "pages" / "one.html").read_text()
    assert f'src="../run/{EPISODE}/audio.wav"' in elsewhere


def test_embed_audio_inlines_mono_wav(episode: Path, tmp_path: Path) -> None:
    page = write_viewer(episode, tmp_path / "moved.html", embed_audio=True).read_text()
    assert 'audio.wav"' not in page and 'user_line.wav"' not in page
    uris = page.split('src="data:audio/wav;base64,')[1:]
    assert len(uris) == 2
    with wave.open(io.BytesIO(base64.b64decode(uris[0].split('"')[0]))) as wav:
        assert (wav.getnchannels(), wav.getframerate()) == (1, 16000)
        with wave.open(str(episode / "audio.wav")) as original:
            assert wav.getnframes() == original.getnframes()


def test_missing_audio_degrades_to_a_note(episode: Path) -> None:
    (episode / "audio.wav").unlink()
    (episode / "user_line.wav").unlink()
    page = build_html(load_episode(episode), episode / "view.html")
    assert "audio.wav is missing" in page and "user_line.wav is missing" in page
    assert 'id="wave"' not in page and "<audio" not in page
    assert page.count('<tr class="g-') == len(_events(episode))


def test_unreadable_result_and_item_degrade_to_notes(episode: Path) -> None:
    (episode / "result.json").write_text("{not json")
    (episode.parents[4] / "items" / f"{ITEM}.json").write_text("[]")
    page = build_html(load_episode(episode), episode / "view.html")
    assert "result.json is unreadable" in page and "not scored" in page
    assert f"{ITEM}.json is not a JSON object" in page
    assert f'<h1 id="title">{ITEM}</h1>' in page


def test_action_score_shows_the_verdicts(episode: Path) -> None:
    action = {
        "item_id": ITEM, "repetition": 0, "status": "ok", "condition": "stop.barge_in",
        "action": "stop", "scenario": "casual_conversation", "immediate": True,
        "immediate_reason": "stopped <fast>", "follow_through": False,
        "follow_through_source": "rule", "follow_through_reason": "kept talking",
    }  # fmt: skip
    (episode / "result.json").write_text(json.dumps(action))
    page = build_html(load_episode(episode), episode / "view.html")
    assert "stop · immediate ✓" in page and "follow-through ✗ (rule)" in page
    assert "stopped &lt;fast&gt;" in page and "kept talking" in page
    assert "Final artifact vs gold" not in page


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: (p / "events.jsonl").unlink(), "events.jsonl: no such file"),
        (lambda p: (p / "events.jsonl").write_text(""), "must begin with episode.start"),
        (lambda p: (p / "events.jsonl").write_text("{oops\n"), "events.jsonl:1: not JSON"),
        (
            lambda p: (p / "events.jsonl").write_text(
                "".join((p / "events.jsonl").read_text().splitlines(keepends=True)[:-1])
            ),
            "must end with episode.end",
        ),
    ],
)
def test_unreadable_trace_is_an_error_naming_the_file(
    episode: Path, damage: Any, message: str
) -> None:
    damage(episode)
    with pytest.raises(ViewerError, match=r"events\.jsonl") as info:
        write_viewer(episode)
    assert message in str(info.value)
    assert not (episode / "view.html").exists()
    result = CliRunner().invoke(main, ["view", str(episode)])
    assert result.exit_code == 2
    assert "events.jsonl" in result.output


def test_cli_writes_the_page(episode: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = CliRunner().invoke(main, ["view", str(episode), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.output and out.read_text().startswith("<!doctype html>")
    missing = CliRunner().invoke(main, ["view", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such directory" in missing.output


def test_peaks_stay_small_on_a_long_call() -> None:
    minutes20 = 20 * 60 * 1000
    pps = points_per_second(minutes20)
    assert pps <= 100 and pps * minutes20 // 1000 <= MAX_POINTS
    assert points_per_second(42_000) == 100
    samples = np.zeros(20 * 60 * 16000, dtype=np.int16)
    samples[16000:16160] = 32767
    lane = peaks(samples, 16000, pps)
    assert len(lane) == 20 * 60 * pps
    assert max(lane) == 99 and lane[0] == 0
    assert len(json.dumps(lane)) < 100_000


def test_page_in_chromium(episode: Path, tmp_path: Path) -> None:
    page_file = write_viewer(episode)
    n_events = len(_events(episode))
    with open_page(page_file, height=1100) as loaded:
        page = loaded.page
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
        page.wait_for_function("document.querySelector('audio.player').readyState >= 1")
        assert page.inner_text("#item-id") == ITEM
        assert page.locator("#timeline tbody tr").count() == n_events
        assert page.locator("canvas#wave").count() == 1
        assert page.eval_on_selector("canvas#wave", "c => c.width * c.height") > 0
        assert page.locator("audio.player").count() == 2  # the call and the user line
        utterances = page.locator("#timeline tbody tr").filter(
            has=page.locator("td:nth-child(3)", has_text="agent.utterance")
        )
        row = utterances.nth(3)
        seek_s = int(row.get_attribute("data-t") or 0) / 1000
        assert seek_s > 1
        row.click()
        current = page.evaluate("document.querySelector('audio.player').currentTime")
        assert abs(current - seek_s) < 0.05
        agent_caption = page.inner_text("#captions .cap[data-key=agent] span")
        assert agent_caption and agent_caption in row.inner_text()
        assert "now" in (row.get_attribute("class") or "")
        page.screenshot(path=str(tmp_path / "viewer-timeline.png"))
        box = page.locator("canvas#wave").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 4, box["y"] + 10)
        quarter = page.evaluate("document.querySelector('audio.player').currentTime")
        assert quarter < seek_s or abs(quarter - seek_s) > 0.5
        page.uncheck("input[data-group=floor]")
        hidden = page.locator("#timeline tbody tr.g-floor").first.is_hidden()
        assert hidden and page.locator("#timeline tbody tr.g-user").first.is_visible()
        page.check("input[data-group=floor]")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(tmp_path / "viewer.png"))
        assert loaded.console_errors == []
        assert all(url.startswith(("file:", "data:")) for url in loaded.requests)
    shutil.copy(tmp_path / "viewer.png", "/tmp/viewer.png")
    shutil.copy(tmp_path / "viewer-timeline.png", "/tmp/viewer-timeline.png")


def test_hostile_page_in_chromium_runs_no_payload(episode: Path) -> None:
    _poison(episode)
    page_file = write_viewer(episode, embed_audio=True)
    with open_page(page_file) as loaded:
        page = loaded.page
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
        page.wait_for_function("document.querySelector('audio.player').readyState >= 1")
        page.hover("#timeline tbody tr:nth-child(2)")
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert shown_as_text(page.inner_text("#title")) == []
        assert page.locator("#timeline img, header img, #scores img, #timeline b").count() == 0
        assert page.locator(INJECTED).count() == 0
        utterances = page.locator("#timeline tbody tr").filter(
            has=page.locator("td:nth-child(3)", has_text="agent.utterance")
        )
        row = utterances.filter(has_text=FIRST).first
        row.click()
        caption = page.inner_text("#captions .cap[data-key=agent] span")
        assert shown_as_text(caption) == []
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert loaded.console_errors == []
        assert all(url.startswith(("file:", "data:")) for url in loaded.requests)
