"""The layered act observer: cues, value spotting, the semantic matcher, the LLM layer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from duplexbench.agents import AgentTurn, ScriptedAgent
from duplexbench.items._load import item_checksum, parse_item
from duplexbench.items._suite import load_suite
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._text_loop import EpisodeSetup, TextEpisode
from duplexbench.suites._package import DATA
from duplexbench.trace._condition_events import ConditionSetup
from duplexbench.users._observer import ActObserver, ObserverConfig
from duplexbench.users._observer.cues import is_close, is_question, is_request
from duplexbench.users._observer.llm import ObserverUnavailable
from duplexbench.users._observer.spotting import dates_in, numbers_in
from support.chat_endpoint import ChatHandler, serve_chat
from support.fixtures import fixture_item


@pytest.fixture(scope="module")
def form() -> WorkflowItem:
    """form-completion-01 of workflows-v2: vendor onboarding, 14 graded fields."""
    item = next(i for i in load_suite(DATA / "workflows-v2").items if i.id == "form-completion-01")
    assert isinstance(item, WorkflowItem)
    return item


@pytest.fixture(scope="module")
def observer(form: WorkflowItem) -> ActObserver:
    return ActObserver(form)


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, goodbye!",
        "thanks again take care bye",
        "You're all set. Have a lovely day.",
        "Great, talk to you next time.",
        "Thanks so much for your time today, take care now!",
    ],
)
def test_leave_takings_are_close(text: str) -> None:
    assert is_close(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'll stay on the line until it is filed and we say goodbye.",  # regression
        "Before we say bye, let me check one thing.",
        "I'll say a proper goodbye once we've wrapped everything up.",
        "I see you are booked on DB120 on May 2.",  # regression: "see you"
        "I will take care of that for you.",
        "Don't hang up yet, I need one more detail.",
    ],
)
def test_mentions_of_goodbye_are_not_close(text: str) -> None:
    assert not is_close(text)


@pytest.mark.parametrize(
    ("text", "question", "asks"),
    [
        ("and whats the best number to reach them on", True, False),
        ("could you give me their email", True, True),
        ("I'll need the start date.", False, True),
        ("And the email?", True, True),
        ("The registration fee comes to 79 dollars.", False, False),
        ("I've added the attendees and the agenda to the schedule.", False, False),
    ],
)
def test_questions_and_requests_without_punctuation(text: str, question: bool, asks: bool) -> None:
    assert (is_question(text), is_request(text)) == (question, asks)


def test_values_are_read_however_they_are_written() -> None:
    assert numbers_in("809,070 dollars and seven people, $79") == [809070.0, 79.0, 7.0]
    assert (2026, 3, 17) in dates_in("So the deadline is March 17th, 2026, right?")
    assert (None, 3, 17) in dates_in("the 17th of March")
    assert (2026, 3, 17) in dates_in("on 3/17/2026")


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        (
            "Who's going to be my main person to deal with over at the vendor?",
            ["ASK:contact_person"],
        ),
        ("So, what's their tax number?", ["ASK:tax_id"]),
        ("Just to confirm, is the currency correct?", ["CHECK:currency"]),  # regression
        ("So they'll be billing you in euros, correct?", ["CONFIRM:currency"]),
        (
            "Their tax number is T X dash 2 8 9 5 dash Z F. Did I get that right?",
            ["CONFIRM:tax_id"],
        ),
        ("One moment while I pull that up.", ["OTHER"]),
        ("Can you hear me okay?", ["OTHER"]),
        ("I'll stay on the line until it is filed and we say goodbye.", ["OTHER"]),
    ],
)
def test_natural_phrasing(observer: ActObserver, text: str, acts: list[str]) -> None:
    assert observer.acts(text) == acts


def test_a_read_back_over_several_sentences_is_one_read_back(observer: ActObserver) -> None:
    slots = {s.id: s for s in observer.slots}
    legal, person = slots["legal_name"].facts[0].spoken, slots["contact_person"].facts[0].spoken
    text = f"So the company is {legal}. Your contact there is {person}. Is all that right?"
    assert observer.acts(text) == ["READBACK"]


def test_two_questions_in_one_sentence_ask_for_two_slots(observer: ActObserver) -> None:
    acts = observer.acts("Who should I talk to over there, and when can they start invoicing?")
    assert acts == ["ASK:contact_person", "ASK:start_date"]


def test_the_same_sentence_in_the_same_item_gives_the_same_acts(form: WorkflowItem) -> None:
    texts = ["How many people work there?", "and the email", "Where are they based?"]
    first = [ActObserver(form).acts(t) for t in texts]
    again = [ActObserver(form).acts(t) for t in reversed(texts)][::-1]
    assert first == again


def test_the_identity_names_every_layer() -> None:
    ident = ObserverConfig().identity()
    assert ident["observer"] == "rules+semantic" and ident["model"] and ident["weights"]
    assert ObserverConfig(kind="rules").identity() == {"observer": "rules", "version": "5"}
    llm = ObserverConfig(llm_model="m", llm_base_url="http://x").identity()
    assert llm["observer"] == "rules+semantic+llm" and llm["llm"] == "m"


# --------------------------------------------------------------------- the LLM layer


@pytest.fixture
def chat() -> Iterator[str]:
    yield from serve_chat()


def _order() -> WorkflowItem:
    data: dict[str, Any] = fixture_item("order-revocation").model_dump(mode="json")
    return parse_item(data, "order")


def test_the_llm_layer_answers_where_the_others_abstain_and_is_cached(
    chat: str, tmp_path: Any
) -> None:
    cache = tmp_path / "observer-cache.jsonl"
    config = ObserverConfig(kind="rules", llm_model="m", llm_base_url=chat, llm_cache=str(cache))
    ChatHandler.replies = ['{"slots": ["cost_center"], "unsure": false}']
    text = "Which budget line does this go against?"
    assert ActObserver(_order(), config).acts(text) == ["ASK:cost_center"]
    assert "cost_center" in ChatHandler.requests[0]["body"]["messages"][1]["content"]
    offline = ObserverConfig(kind="rules", llm_model="m", llm_base_url="http://127.0.0.1:9")
    offline = ObserverConfig(**{**offline.__dict__, "llm_cache": str(cache)})
    assert ActObserver(_order(), offline).acts(text) == ["ASK:cost_center"]  # from the cache


@pytest.mark.parametrize(
    "reply",
    ["not json", '{"slots": "cost_center"}', '{"slots": ["no_such_slot"], "unsure": false}'],
)
def test_a_garbled_llm_answer_is_an_error_not_a_fallback(chat: str, reply: str) -> None:
    config = ObserverConfig(kind="rules", llm_model="m", llm_base_url=chat)
    ChatHandler.replies = [reply]
    with pytest.raises(ObserverUnavailable, match="LLM observer m"):
        ActObserver(_order(), config).acts("Which budget line does this go against?")


def test_an_unreachable_llm_observer_makes_the_episode_an_error() -> None:
    item = _order()
    config = ObserverConfig(kind="rules", llm_model="m", llm_base_url="http://127.0.0.1:9/v1")
    setup = EpisodeSetup(item, item_checksum(item), "t", "scripted", "text", 0, 0, config)
    agent = ScriptedAgent([AgentTurn("Which budget line does this go against?")])
    record = TextEpisode(setup, agent).run()
    assert record.status == "error" and "LLM observer m" in (record.error or "")
    [condition] = [e for e in record.events if isinstance(e, ConditionSetup)]
    assert condition.data.simulator is not None
    assert condition.data.simulator["observer"] == "rules+llm"


@pytest.fixture(scope="module")
def v2_items() -> dict[str, WorkflowItem]:
    items = load_suite(DATA / "workflows-v2").items
    return {i.id: i for i in items if isinstance(i, WorkflowItem)}


@pytest.mark.parametrize(
    ("item_id", "text", "acts"),
    [
        # a statement with a tag question states a value (the caller corrects it)
        (
            "form-completion-01",
            "Your main contact there is Ana Lima, did I get that right?",
            ["CONFIRM:contact_person"],
        ),
        # "right now" is not about being correct
        (
            "interviewing-01",
            "Could you give me the address they're living at right now?",
            ["ASK:home_address"],
        ),
        # an inflected commit verb ("submitting") asks for the go-ahead
        (
            "interviewing-01",
            "Are you okay with me submitting this to the hiring team?",
            ["REQUEST_APPROVAL:file_screening"],
        ),
        # offering alternatives asks, it does not confirm one of them
        (
            "customer-service-10",
            "Would you like your bills on paper, or should we go paperless?",
            ["ASK:paperless_billing"],
        ),
        # a second question after one that names its slot clearly is still heard
        (
            "intake-triage-01",
            "Which level of cover are you on, and how urgent is this for you?",
            ["ASK:coverage_tier", "ASK:triage_level"],
        ),
        # a dot inside a value does not end the sentence
        (
            "form-completion-01",
            "I've got n.okafor@example.com for their email, is that right?",
            ["CONFIRM:contact_email"],
        ),
        ("corporate-negotiation-02", "Total value of 737605.0, yes?", ["CONFIRM:contract_value"]),
        # ASR-style questions that open with a hedge or a preposition, or end in "yeah"
        ("form-completion-01", "roughly how many people work there", ["ASK:employee_count"]),
        ("form-completion-01", "between what dates can they start invoicing", ["ASK:start_date"]),
        ("form-completion-01", "so the currency is US dollars yeah", ["CONFIRM:currency"]),
        # a wh-clause inside a statement is no question
        (
            "form-completion-01",
            "The discount depends on the payment terms and how they bill.",
            ["OTHER"],
        ),
        (
            "form-completion-01",
            "Let's nail down the money side: how many days to pay, and what currency they bill in.",
            ["ASK:payment_terms", "ASK:currency"],
        ),
        # a doubt in one sentence settled by the question before it
        (
            "interviewing-01",
            "Where does the candidate live? I'll need the street and house number.",
            ["ASK:home_address"],
        ),
    ],
)
def test_misreadings_found_on_the_dev_corpus(
    v2_items: dict[str, WorkflowItem], item_id: str, text: str, acts: list[str]
) -> None:
    assert ActObserver(v2_items[item_id]).acts(text) == acts


def test_asking_for_a_detail_is_not_asking_for_a_go_ahead(
    v2_items: dict[str, WorkflowItem],
) -> None:
    observer = ActObserver(v2_items["planning-03"])  # "booking" names its gated action
    acts = observer.acts("Before we start, could I get the reference number on your booking file?")
    assert "ASK:reference_number" in acts
    assert not [a for a in acts if a.startswith("REQUEST_APPROVAL")]
    assert observer.acts("Could I get your go-ahead to book it?") == ["REQUEST_APPROVAL:book_event"]
