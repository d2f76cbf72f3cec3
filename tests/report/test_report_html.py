"""The HTML report in headless Chromium: self-contained, escaped, readable."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner

from duplexbench.campaign._spec import slug
from duplexbench.cli import main
from duplexbench.items._suite import SuiteManifest
from duplexbench.report._analysis import analyze
from duplexbench.report._html import CSP, render_html, write_html
from duplexbench.report._html.parts import Links, script_json
from duplexbench.report._html.workflow_sections import unsupported_cell
from duplexbench.speech._bank import SpeechBank
from duplexbench.suites._package import write_suite
from support.browser import open_page
from support.fixtures import FIXTURES
from support.replay_builders import one_per_action
from support.xss import HOSTILE, INJECTED, RAW_TAGS, TRAP, shown_as_text

SCREENSHOT = Path("/tmp/report.png")


def _run(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["run", *args, "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def made_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """oracle and noop on tests/fixtures (clean audio, synthetic voice), silent on 8 actions."""
    root = tmp_path_factory.mktemp("html")
    suite = root / "suite"
    suite.mkdir()
    for path in FIXTURES.glob("*.yaml"):
        text = path.read_text().replace("voice: default", 'voice: "synthetic:alto"')
        (suite / path.name).write_text(text)
    for agent in ("oracle", "noop"):
        _run(
            [
                "--suite",
                str(suite),
                "--agent",
                agent,
                "-k",
                "3",
                "--out",
                str(root / "runs" / agent),
            ]
        )
    manifest = SuiteManifest(name="mini-actions", family="action", version="1")
    write_suite(root / "actions", manifest, one_per_action(SpeechBank(root / "bank")))
    args = ["--suite", str(root / "actions"), "--agent", "silent", "-k", "1"]
    _run([*args, "--speech-cache", str(root / "bank"), "--out", str(root / "runs" / "silent")])
    return root / "runs"


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2))


def _poison(runs: Path) -> None:
    """A hostile agent name, item title, field values, error and transcript-derived reason."""
    noop = runs / "noop"
    campaign = _json(noop / "campaign.json")
    campaign["agent"] = HOSTILE
    _write(noop / "campaign.json", campaign)
    (noop / "episodes" / "noop").rename(noop / "episodes" / slug(HOSTILE))
    item = _json(noop / "items" / "benefits-enrollment.json")
    item["title"] = HOSTILE
    _write(noop / "items" / "benefits-enrollment.json", item)
    episodes = noop / "episodes" / slug(HOSTILE) / "clean"
    result = _json(episodes / "benefits-enrollment" / "r0" / "result.json")
    result["fields"][0]["predicted"] = HOSTILE
    result["fields"][1]["gold"] = HOSTILE
    _write(episodes / "benefits-enrollment" / "r0" / "result.json", result)
    errored = _json(episodes / "order-revocation" / "r2" / "result.json")
    errored.update(status="error", error=HOSTILE, fields=[], afa=None, ws=None, gates={})
    _write(episodes / "order-revocation" / "r2" / "result.json", errored)
    silent = runs / "silent" / "episodes" / "silent" / "clean"
    for path in silent.glob("*/r0/result.json"):
        data = _json(path)
        if data["immediate"] is False:
            data["immediate_reason"] = f"the agent said {HOSTILE}"
            _write(path, data)
        with (path.parent / "events.jsonl").open("a") as f:  # not read by the report
            f.write(json.dumps({"type": "agent.utterance", "data": {"text": HOSTILE}}) + "\n")


@pytest.fixture
def poisoned(made_runs: Path, tmp_path: Path) -> Path:
    runs = tmp_path / "runs"
    shutil.copytree(made_runs, runs)
    _poison(runs)
    return runs


def _scorecard(page: Any) -> dict[str, str]:
    rows: list[list[str]] = page.eval_on_selector_all(
        "#scorecard tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    headers: list[str] = page.eval_on_selector_all(
        "#scorecard th", "hs => hs.map(h => h.innerText)"
    )
    col = headers.index("Pass@1")
    return {r[0]: r[col].split("\n")[0] for r in rows}


def test_report_page_in_chromium(poisoned: Path, tmp_path: Path) -> None:
    report = analyze([poisoned])
    out = write_html(report, tmp_path / "site" / "report.html")
    with open_page(out, height=1000) as loaded:
        page = loaded.page
        assert loaded.console_errors == []
        assert all(u.startswith(("file:", "data:")) for u in loaded.requests), loaded.requests
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("document.querySelectorAll('img, b, script:not([type])').length") == 1
        assert page.evaluate(f"document.querySelectorAll('{INJECTED}').length") == 0
        assert shown_as_text(page.inner_text("body")) == []  # every payload shown as text
        cards = _scorecard(page)
        oracle = next(k for k in cards if k.startswith("oracle"))
        hostile = next(k for k in cards if k.startswith("<script>"))
        assert (cards[oracle], cards[hostile]) == ("100.0%", "0.0%")
        assert page.evaluate("document.querySelectorAll('svg.chart').length") >= 5
        assert page.evaluate("document.querySelectorAll('svg.chart rect').length") > 20
        data = page.evaluate("JSON.parse(document.getElementById('report-data').textContent)")
        assert data["workflow"]["scorecard"] == report["workflow"]["scorecard"]
        assert any(i["title"] == HOSTILE for i in data["workflow"]["items"])
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        page.screenshot(path=str(SCREENSHOT), full_page=True)
        _check_links(page, poisoned)
        _check_sort_and_filter(page)


def _check_links(page: Any, runs: Path) -> None:
    hrefs: list[str] = page.eval_on_selector_all("#items a.ep", "as => as.map(a => a.href)")
    assert len(hrefs) == 30  # 2 workflow runs x 5 items x 3 repetitions
    for href in hrefs:
        url = urlparse(href)
        assert url.scheme == "file"
        target = Path(unquote(url.path))
        assert target.is_dir() and (target / "result.json").exists()
        assert runs.resolve() in target.resolve().parents


def _check_sort_and_filter(page: Any) -> None:
    first = "document.querySelector('#scorecard tbody tr').cells[0].innerText"
    before = page.evaluate(first)
    page.click("#scorecard th:nth-child(5)")  # Pass@1, ascending: noop first
    assert page.evaluate(first).startswith("<script>")
    page.click("#scorecard th:nth-child(5)")
    assert page.evaluate(first).startswith("oracle")
    assert before
    page.fill("input[data-table='items']", "revocation")
    visible = page.eval_on_selector_all(
        "#items tbody tr", "rs => rs.filter(r => r.style.display !== 'none').map(r => r.innerText)"
    )
    assert len(visible) == 2 and all("order-revocation" in v for v in visible)


def test_every_run_string_is_escaped_in_the_markup(poisoned: Path, tmp_path: Path) -> None:
    page = render_html(analyze([poisoned]), tmp_path)
    assert HOSTILE not in page
    assert html.escape(HOSTILE, quote=True) in page
    for raw in RAW_TAGS:
        assert raw not in page
    assert f'content="{html.escape(CSP, quote=True)}"' in page
    page = page.replace(TRAP, "")  # the corpus's own (escaped) trap URLs
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page


def test_script_json_cannot_close_the_script() -> None:
    text = script_json({"a": "</script><!-- & -->"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & -->"}


def test_links_open_the_episode_page_when_there_is_one(tmp_path: Path) -> None:
    episode = tmp_path / "run" / "episodes" / "a" / "clean" / "item x" / "r0"
    episode.mkdir(parents=True)
    links = Links(tmp_path / "site")
    rel = "episodes/a/clean/item x/r0"
    assert links.href(str(tmp_path / "run"), rel) == "../run/episodes/a/clean/item%20x/r0/"
    (episode / "view.html").write_text("<html></html>")
    assert links.href(str(tmp_path / "run"), rel) == "../run/episodes/a/clean/item%20x/r0/view.html"
    assert links.link(str(tmp_path / "run"), None, "<r0>") == "<span>&lt;r0&gt;</span>"


def test_the_scorecard_shows_unsupported_values_beside_afa(poisoned: Path, tmp_path: Path) -> None:
    page = render_html(analyze([poisoned]), tmp_path)
    headers = page[page.index('id="scorecard"') :]
    assert headers.index("AFA (deterministic)") < headers.index("unsupported values")
    assert "exempt (oracle)" in page  # the oracle reads the gold: no rate, and it says so
    cell = unsupported_cell({"rate": 0.25, "ci95": [0.1, 0.4], "unsupported": 1, "correct": 4})
    assert cell.markup is not None and "25.0%" in cell.markup and "1 of 4" in cell.markup
    assert unsupported_cell(None).text == "not recorded"  # a run scored before provenance
