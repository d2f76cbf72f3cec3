"""Real-corpus extraction: each Table 7 filter fires exactly where the synthetic corpus says.

The corpus is built here with exact word timings; every near-miss sits one
millisecond (or one word) outside a threshold.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from duplexbench.items._action import ActionItem
from duplexbench.items._action_checks import check_action_item
from duplexbench.items._errors import ItemError
from duplexbench.suites.actions.corpus import (
    Conversation,
    Corpus,
    Utterance,
    Word,
    backchannel_function,
    load_corpus,
    sentence_final,
    split_floor,
    utterances,
)
from duplexbench.suites.actions.extract import ExtractionReport, extract_candidates
from duplexbench.suites.actions.extract_judge import (
    OpenAICandidateJudge,
    judge_prompt,
    verify_candidates,
)
from duplexbench.yesno import JudgeUnavailable


def w(speaker: str, text: str, start: int, end: int) -> dict[str, Any]:
    return {"speaker": speaker, "text": text, "start_ms": start, "end_ms": end}


def turn(speaker: str, start: int, end: int, text: str) -> list[dict[str, Any]]:
    """Words of `text` back to back, evenly spread over [start, end]."""
    words = text.split()
    n, d = len(words), end - start
    return [
        w(speaker, t, start + i * d // n, start + (i + 1) * d // n) for i, t in enumerate(words)
    ]


def run(speaker: str, start: int, n: int, word_ms: int) -> list[dict[str, Any]]:
    return [w(speaker, "la", start + i * word_ms, start + (i + 1) * word_ms) for i in range(n)]


def conv_waits() -> dict[str, Any]:
    a = [
        *(w("A", t, s, s + 300) for t, s in [("I", 0), ("went", 350), ("to", 700), ("the", 1050)]),
        # 200 ms pause after "the" (intra, accepted)
        *(w("A", t, s, s + 300) for t, s in [("store", 1550), ("and", 1900), ("bought.", 2250)]),
        # 1000 ms pause after "bought." (inter, accepted)
        w("A", "Then", 3550, 3850),
        w("A", "I", 3900, 4200),
        w("A", "went", 4390, 4690),  # 190 ms: too short
        w("A", "home.", 4740, 5040),
        w("A", "It", 6050, 6350),  # 1010 ms: too long
        w("A", "was", 6400, 6700),
        w("A", "late.", 7200, 7500),  # 500 ms, but B talks inside it
        *run("A", 9000, 10, 300),  # 3000 ms continuous: accepted
        *run("A", 14000, 10, 299),  # 2990 ms: too short
    ]
    return {"id": "c1", "topic": "a trip to the store", "words": [*a, w("B", "so", 6800, 7000)]}


def conv_backchannels() -> dict[str, Any]:
    a = turn("A", 0, 10000, " ".join(["and then we went down to the river again"] * 3)[:-6])
    b = [
        w("B", "yeah", 1000, 1300),
        w("B", "huh?", 3000, 3300),
        *turn("B", 5000, 5800, "yeah yeah I see"),  # four words: not a backchannel
        *turn("B", 7000, 7600, "mm-hmm right okay"),  # three words: same as "yeah"
    ]
    return {"id": "c2", "words": [*a, *b]}


def conv_turns() -> dict[str, Any]:
    words = [
        *turn("A", 0, 1000, "how was your weekend"),
        *turn("B", 1500, 2500, "it was great thanks"),  # gap 500: immediate
        *turn("A", 3001, 4000, "did you go hiking"),  # gap 501: delayed
        *turn("B", 7000, 8000, "no we stayed home"),  # gap 3000: delayed
        *turn("A", 11001, 13000, "that sounds really relaxing honestly"),  # gap 3001: no
        *turn("B", 12000, 14000, "it was very relaxing indeed"),  # overlap 1000: slight
        *turn("B", 15500, 18000, "we watched a lot of old movies"),
        *turn("A", 16999, 19000, "which ones did you watch"),  # overlap 1001: no window
        *turn("A", 20500, 23000, "I love the old classics so much"),
        *turn("B", 21400, 24000, "mostly the black and white ones"),  # overlap 1600: no
        *turn("B", 25500, 26500, "you should come over"),
    ]
    return {"id": "c3", "scenario": "casual_conversation", "words": words}


def conv_stops() -> dict[str, Any]:
    words = [
        *turn("A", 0, 1000, "can you tell me about it"),
        *turn("B", 1200, 4000, "sure so the first thing is that we"),
        *turn("A", 3700, 5000, "sorry wait one second"),  # starts 300 ms before B ends
        *turn("B", 5200, 6000, "of course go ahead"),
        *turn("A", 8000, 9000, "what about the price"),
        *turn("B", 9200, 12000, "the price depends on the size you choose"),
        *turn("A", 11710, 13000, "okay but roughly"),  # 290 ms: not an interruption
        *turn("B", 13200, 14000, "about fifty dollars"),
    ]
    return {"id": "c4", "scenario": "customer_service", "topic": "pricing", "words": words}


def conv_three() -> dict[str, Any]:
    words = [
        *turn("A", 0, 2000, "let me show you the new office"),
        *turn("C", 500, 900, "over there"),
        *turn("B", 2300, 3300, "looks great"),
    ]
    return {"id": "c5", "scenario": "meeting", "topic": "the office move", "words": words}


def corpus() -> Corpus:
    convs = [conv_waits(), conv_backchannels(), conv_turns(), conv_stops(), conv_three()]
    return Corpus.model_validate({"name": "toy", "conversations": convs})


@pytest.fixture(scope="module")
def report() -> ExtractionReport:
    return extract_candidates(corpus(), voices={"A": "espeak:en-us", "C": "flite:slt"})


def of(report: ExtractionReport, conversation: str) -> dict[str, list[ActionItem]]:
    out: dict[str, list[ActionItem]] = {}
    for item in report.items:
        if item.id.startswith(f"x-{conversation}-"):
            out.setdefault(item.condition, []).append(item)
    return out


def reasons(report: ExtractionReport, conversation: str) -> list[str]:
    return sorted(r.reason for r in report.rejections if r.ref.startswith(f"toy/{conversation}@"))


def seg(item: ActionItem) -> list[tuple[str, str, int, int, str]]:
    return [(s.role, s.part, s.start_ms, s.end_ms, s.text) for s in item.segments]


# ------------------------------------------------------------------ the filters


def test_every_item_passes_the_checks_and_is_extracted(report: ExtractionReport) -> None:
    assert report.items
    for item in report.items:
        assert check_action_item(item) == []
        assert item.source == "extracted" and item.version == "1"
        assert item.source_ref.startswith("toy/c")
        assert "wait" not in item.context.lower() and "backchannel" not in item.context.lower()
    assert len({i.id for i in report.items}) == len(report.items)
    assert set(report.transcripts) == {i.id for i in report.items}


def test_wait_pauses_accept_0_2_and_1_0_s_only(report: ExtractionReport) -> None:
    found = of(report, "c1")
    assert sorted(found) == [
        "wait.continuous_speech",
        "wait.inter_sentential_pause",
        "wait.intra_sentential_pause",
    ]
    intra = found["wait.intra_sentential_pause"]
    assert [i.id for i in intra] == ["x-c1-wait.intra_sentential_pause-1"]
    item = intra[0]
    assert item.annotations.wait_interval is not None
    assert item.annotations.wait_interval.model_dump() == {"start_ms": 1350, "end_ms": 1550}
    assert seg(item) == [
        ("user", "main", 0, 1350, "I went to the"),
        ("user", "main", 1550, 2550, "store and bought."),
        ("user", "main", 3550, 3850, "Then"),  # 2 s of context after the pause
    ]
    assert {s.voice for s in item.segments} == {"espeak:en-us"}
    assert item.topic == "a trip to the store"
    assert item.context.endswith("The topic is a trip to the store.")
    (inter,) = found["wait.inter_sentential_pause"]
    assert inter.source_ref == "toy/c1@700-5040ms"  # <= 2 s before the pause
    assert inter.annotations.wait_interval is not None
    assert inter.annotations.wait_interval.model_dump() == {"start_ms": 1850, "end_ms": 2850}


def test_two_pauses_with_the_same_words_are_two_items() -> None:
    words = [w("A", "I", 0, 200), w("A", "went", 500, 700), w("A", "home", 1000, 1200)]
    data = {"name": "two", "conversations": [{"id": "p", "words": words}]}
    report = extract_candidates(Corpus.model_validate(data))
    spans = [i.annotations.wait_interval for i in report.items]
    assert [(s.start_ms, s.end_ms) for s in spans if s] == [(200, 500), (700, 1000)]
    assert [len(i.segments) for i in report.items] == [3, 3]
    assert report.rejections == ()


def test_wait_continuous_speech_needs_3_s(report: ExtractionReport) -> None:
    (item,) = of(report, "c1")["wait.continuous_speech"]
    assert item.source_ref == "toy/c1@9000-12000ms"
    assert seg(item) == [("user", "main", 0, 3000, " ".join(["la"] * 10))]
    assert item.annotations.wait_interval is not None
    assert item.annotations.wait_interval.model_dump() == {"start_ms": 0, "end_ms": 3000}


def test_wait_rejects_pauses_someone_talks_in(report: ExtractionReport) -> None:
    assert reasons(report, "c1") == [
        "backchannel: not a backchannel expression",  # B's "so"
        "wait: another speaker talks during the pause",
    ]


def test_backchannels_are_short_lexical_and_left_out_of_the_item(
    report: ExtractionReport,
) -> None:
    found = of(report, "c2")
    assert sorted(found) == ["backchannel.affirmative", "backchannel.uncertainty"]
    (yes,) = found["backchannel.affirmative"]
    (huh,) = found["backchannel.uncertainty"]
    assert yes.annotations.reference_response == "yeah"
    assert huh.annotations.reference_response == "huh?"
    for item in (yes, huh):
        assert [s.role for s in item.segments] == ["user"]  # B's backchannel is not in it
        assert item.segments[0].start_ms == 0 and item.segments[0].end_ms == 10000
        assert item.annotations.backchannel_span is not None
        assert item.annotations.backchannel_span.model_dump() == {"start_ms": 0, "end_ms": 10000}
        assert item.topic == "general"
        assert item.context == "You are talking with someone in a casual conversation."
    assert reasons(report, "c2") == [
        "backchannel: more than 3 words",
        "duplicate",  # "mm-hmm right okay" gives the same item as "yeah"
        "wait: another speaker talks during the continuous speech",
    ]
    assert "B (agent): yeah" in report.transcripts[yes.id]


def test_take_turn_windows_and_overlap_limits(report: ExtractionReport) -> None:
    found = of(report, "c3")
    assert {c: len(v) for c, v in found.items()} == {
        "take_turn.immediate": 1,
        "take_turn.delayed": 2,
        "take_turn.slight_overlap": 1,
    }
    (slight,) = found["take_turn.slight_overlap"]
    assert slight.source_ref == "toy/c3@11001-13000ms"
    assert slight.annotations.user_end_ms == 1999
    assert slight.annotations.response_window == (-1000, 500)
    assert slight.annotations.reference_response == "it was very relaxing indeed"
    assert [s.text for s in slight.segments] == ["that sounds really relaxing honestly"]
    delayed = found["take_turn.delayed"]
    assert [i.source_ref for i in delayed] == ["toy/c3@1500-2500ms", "toy/c3@3001-4000ms"]
    assert {s.voice for i in delayed for s in i.segments} == {"piper:joe", "espeak:en-us"}
    assert reasons(report, "c3") == [
        "take_turn: gap over 3.0 s",
        "take_turn: overlap of 1.0-1.5 s fits no window",
        "take_turn: overlap over 1.5 s",
    ]
    transcript = report.transcripts[slight.id]
    assert "A (user): that sounds" in transcript and "B (agent): it was very" in transcript


def test_stop_needs_the_interruption_0_3_s_before_the_end(report: ExtractionReport) -> None:
    found = of(report, "c4")
    (stop,) = found["stop.direct_interruption"]
    assert seg(stop) == [
        ("user", "main", 0, 1000, "can you tell me about it"),
        ("user", "cue", 0, 1300, "sorry wait one second"),
    ]
    assert stop.source_ref == "toy/c4@0-5000ms"
    assert stop.scenario == "customer_service"
    assert reasons(report, "c4") == ["stop: the interruption starts less than 0.3 s before the end"]
    turns = {c: len(v) for c, v in found.items() if c.startswith("take_turn")}
    assert turns == {
        "take_turn.immediate": 4,
        "take_turn.delayed": 1,
        "take_turn.slight_overlap": 2,
    }
    assert "B (agent): of course" in report.transcripts[stop.id]


def test_third_speakers_are_background_with_their_voice(report: ExtractionReport) -> None:
    (item,) = of(report, "c5")["take_turn.immediate"]
    assert [(s.id, s.role, s.voice, s.start_ms, s.end_ms) for s in item.segments] == [
        ("u1", "user", "espeak:en-us", 0, 2000),
        ("b3-1", "background", "flite:slt", 500, 900),
    ]
    assert item.context == "You are taking part in a meeting. The topic is the office move."
    assert reasons(report, "c5") == ["backchannel: not a backchannel expression"]


def test_counts_and_summary(report: ExtractionReport) -> None:
    assert report.counts == {
        "wait.intra_sentential_pause": 1,
        "wait.inter_sentential_pause": 1,
        "wait.continuous_speech": 1,
        "take_turn.immediate": 6,
        "take_turn.delayed": 3,
        "take_turn.slight_overlap": 3,
        "backchannel.affirmative": 1,
        "backchannel.uncertainty": 1,
        "stop.direct_interruption": 1,
    }
    summary = report.summary()
    assert summary["conversations"] == 5 and summary["items"] == 18
    assert summary["rejected"]["backchannel: not a backchannel expression"] == 2


def test_deterministic_and_independent_of_word_order() -> None:
    first = extract_candidates(corpus())
    data = corpus().model_dump()
    for conversation in data["conversations"]:
        conversation["words"].reverse()
    second = extract_candidates(Corpus.model_validate(data))
    assert [i.model_dump() for i in first.items] == [i.model_dump() for i in second.items]
    assert first.rejections == second.rejections
    assert first.transcripts == second.transcripts


def test_bad_voice_is_refused() -> None:
    with pytest.raises(ValueError, match="engine:voice"):
        extract_candidates(corpus(), voices={"A": "joe"})


# ------------------------------------------------------------------ text rules, utterances


@pytest.mark.parametrize(
    ("text", "function"),
    [
        ("yeah", "affirmative"),
        ("Mm-hmm.", "affirmative"),
        ("oh I see", "affirmative"),
        ("huh?", "uncertainty"),
        ("yeah?", "uncertainty"),
        ("I'm not sure", "uncertainty"),
        ("oh really", "uncertainty"),
        ("um", None),
        ("the red one", None),
        ("", None),
    ],
)
def test_backchannel_function(text: str, function: str | None) -> None:
    assert backchannel_function(text) == function


@pytest.mark.parametrize(
    ("text", "final"),
    [("home.", True), ("why?", True), ('"stop!"', True), ("the", False), ("so...", False)],
)
def test_sentence_final(text: str, final: bool) -> None:
    assert sentence_final(text) is final


def test_utterances_join_gaps_up_to_one_second_and_find_the_floor() -> None:
    words = [w("A", "a", 0, 100), w("A", "b", 1100, 1200), w("A", "c", 2201, 2300)]
    words += [w("B", "mm", 1150, 1180), w("B", "so", 2400, 2500)]
    conv = Conversation.model_validate({"id": "u", "words": words})
    utts = utterances(conv)
    assert [(u.speaker, u.start_ms, u.end_ms, u.text) for u in utts] == [
        ("A", 0, 1200, "a b"),
        ("B", 1150, 1180, "mm"),
        ("A", 2201, 2300, "c"),
        ("B", 2400, 2500, "so"),
    ]
    floor, inside = split_floor(utts)
    assert [u.text for u in floor] == ["a b", "c", "so"]
    assert [(i.text, c.text) for i, c in inside] == [("mm", "a b")]


# ------------------------------------------------------------------ loading


def test_json_and_jsonl_round_trip(tmp_path: Path) -> None:
    data = corpus().model_dump(mode="json")
    path = tmp_path / "toy.json"
    path.write_text(json.dumps({"conversations": data["conversations"]}))
    loaded = load_corpus(path)
    assert loaded.name == "toy" and loaded.conversations == corpus().conversations
    lines = tmp_path / "my corpus.jsonl"
    lines.write_text("\n".join(json.dumps(c) for c in data["conversations"]) + "\n\n")
    assert load_corpus(lines).conversations == corpus().conversations
    assert load_corpus(lines).name == "my-corpus"


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ItemError) as caught:
        load_corpus(path)
    return [str(p) for p in caught.value.problems]


def test_bad_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"conversations": [\n  {"id": "c1",,}\n]}')
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}: line 2 column 15: ")


def test_bad_jsonl_lines_are_all_reported(tmp_path: Path) -> None:
    good = {"id": "c1", "words": [w("A", "hi", 0, 100)]}
    lines = [
        good,
        {"id": "c2", "words": [w("A", "hi", 200, 100)]},
        good,
        {"id": "c3", "scenario": "party", "words": [w("A", "x", 0, 1)], "mood": "good"},
        {"id": "c4", "words": [w("A", "a", 0, 500), w("A", "b", 400, 600)]},
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n[1]\n{oops\n")
    assert problems_of(path) == [
        f"{path}: line 2: words[0]: end_ms 100 is before start_ms 200",
        f"{path}: line 3: id: duplicate conversation id 'c1' (first on line 1)",
        f"{path}: line 4: scenario: Input should be 'casual_conversation', 'meeting', "
        "'customer_service' or 'interview'; got 'party'",
        f"{path}: line 4: mood: unknown key (not part of the corpus format)",
        f"{path}: line 5: words[1] (A, 400 ms) starts before words[0] of the same speaker "
        "ends (500 ms)",
        f"{path}: line 6: expected a conversation object, got list",
        f"{path}: line 7 column 2: Expecting property name enclosed in double quotes",
    ]


def test_bad_corpus_object_and_suffix(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"conversations": [{"id": "1x", "words": []}]}))
    assert problems_of(path) == [
        f"{path}: conversations[0].id: String should match pattern "
        "'^[A-Za-z][A-Za-z0-9_.\\-]{0,79}$'",
        f"{path}: conversations[0].words: List should have at least 1 item after validation, not 0",
    ]
    dup = {"id": "c", "words": [w("A", "a", 0, 1)]}
    path.write_text(json.dumps({"name": "d", "conversations": [dup, dup]}))
    assert problems_of(path) == [f"{path}: conversations[1]: duplicate id 'c'"]
    other = tmp_path / "c.yaml"
    other.write_text("conversations: []")
    assert problems_of(other) == [f"{other}: expected a .json or .jsonl corpus file"]
    empty = tmp_path / "e.jsonl"
    empty.write_text("\n")
    assert problems_of(empty) == [f"{empty}: no conversations"]


# ------------------------------------------------------------------ the judge


class FakeJudge:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def verify(self, item: ActionItem, transcript: str) -> tuple[bool, str]:
        self.seen.append((item.id, transcript))
        if item.condition == "stop.direct_interruption":
            raise JudgeUnavailable("judge request failed: URLError")
        if item.action == "take_turn":
            return False, "the speaker had not finished"
        return True, "fine"


def test_verify_candidates_drops_what_the_judge_rejects(report: ExtractionReport) -> None:
    judge = FakeJudge()
    verified = verify_candidates(report, judge)
    assert len(judge.seen) == len(report.items)
    assert all(t == report.transcripts[i] for i, t in judge.seen)
    assert {i.action for i in verified.items} == {"wait", "backchannel"}
    assert set(verified.transcripts) == {i.id for i in verified.items}
    assert verified.rejected["judge: rejected"] == 12
    assert verified.rejected["judge: unavailable"] == 1
    detail = {r.detail for r in verified.rejections if r.reason == "judge: rejected"}
    assert detail == {"the speaker had not finished"}
    assert verified.conversations == report.conversations


class _Endpoint(BaseHTTPRequestHandler):
    replies: ClassVar[list[str]] = []
    bodies: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append({"path": self.path, **body})
        content = type(self).replies.pop(0)
        payload = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Endpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_openai_judge_over_http(endpoint: str, report: ExtractionReport) -> None:
    item = report.items[0]
    transcript = report.transcripts[item.id]
    _Endpoint.bodies.clear()
    _Endpoint.replies[:] = [
        '{"answer": "NO", "reason": "the pause ends the turn"}',
        '```json\n{"answer": "yes", "reason": "ok"}```',
        "maybe",
    ]
    judge = OpenAICandidateJudge("judge-model", endpoint + "/", api_key="k")
    assert judge.verify(item, transcript) == (False, "the pause ends the turn")
    assert judge.verify(item, transcript) == (True, "ok")
    with pytest.raises(JudgeUnavailable):
        judge.verify(item, transcript)
    body = _Endpoint.bodies[0]
    assert body["path"] == "/v1/chat/completions"
    assert body["model"] == "judge-model" and body["temperature"] == 0
    assert body["messages"][1]["content"] == judge_prompt(item, transcript)
    assert transcript in body["messages"][1]["content"]


def test_openai_judge_unreachable_is_unavailable(report: ExtractionReport) -> None:
    judge = OpenAICandidateJudge("m", "http://127.0.0.1:9", timeout_s=2)
    with pytest.raises(JudgeUnavailable):
        judge.verify(report.items[0], "")


def test_a_spaced_dash_is_not_a_word_of_a_backchannel_candidate() -> None:
    """Corpus extraction counts words like the scorer: "Okay — got it." is three words."""
    tokens = [("Okay", 0, 200), ("—", 200, 250), ("got", 250, 400), ("it.", 400, 600)]
    utt = Utterance(
        "B", tuple(Word(speaker="B", text=t, start_ms=s, end_ms=e) for t, s, e in tokens)
    )
    assert utt.n_words == 3
