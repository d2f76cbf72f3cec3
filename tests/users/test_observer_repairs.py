"""Repair requests in the act observer: repeat, spell (phonetically), digits, slower."""

from __future__ import annotations

import pytest

from duplexbench.items._suite import load_suite
from duplexbench.items._workflow import WorkflowItem
from duplexbench.suites._package import DATA
from duplexbench.users._observer import OBSERVER_VERSION, REPAIR_KINDS, ActObserver
from duplexbench.users._observer.repairs import is_repair, offers_repair, repair_cues


def _item(item_id: str) -> WorkflowItem:
    item = next(i for i in load_suite(DATA / "workflows-v2").items if i.id == item_id)
    assert isinstance(item, WorkflowItem)
    return item


@pytest.fixture(scope="module")
def form() -> ActObserver:
    """form-completion-01: vendor onboarding; one person slot (the vendor's contact)."""
    return ActObserver(_item("form-completion-01"))


@pytest.fixture(scope="module")
def service() -> ActObserver:
    """customer-service-01: an account change; no person slot."""
    return ActObserver(_item("customer-service-01"))


def test_the_contract() -> None:
    assert REPAIR_KINDS == ("REPEAT", "SPELL", "PHONETIC", "DIGITS", "SLOWER")
    assert OBSERVER_VERSION == "5"
    assert is_repair("SPELL:contact_email") and is_repair("SLOWER")
    assert not is_repair("ASK:contact_email") and not is_repair("READBACK")


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        # REPEAT
        ("Sorry?", ["REPEAT"]),
        ("Pardon?", ["REPEAT"]),
        ("Sorry, could you repeat that?", ["REPEAT"]),
        ("Could you say that again?", ["REPEAT"]),
        ("I didn't catch that.", ["REPEAT"]),
        ("Sorry, you broke up there.", ["REPEAT"]),
        ("What was the last part?", ["REPEAT"]),
        ("Come again?", ["REPEAT"]),
        ("Sorry, I think I lost you for a second.", ["REPEAT"]),
        # SPELL, PHONETIC
        ("How do you spell that?", ["SPELL"]),
        ("Could you spell that for me, letter by letter?", ["SPELL"]),
        ("Sorry, how's that spelled?", ["SPELL"]),
        ("Could you spell that using words, like A as in alpha?", ["SPELL", "PHONETIC"]),
        ("Can you spell it with the phonetic alphabet?", ["SPELL", "PHONETIC"]),
        ("N as in Nancy?", ["SPELL", "PHONETIC"]),
        # DIGITS
        ("Could you read the number slowly?", ["DIGITS"]),
        ("Could you give me that digit by digit?", ["DIGITS"]),
        # SLOWER
        ("Could you slow down a bit?", ["SLOWER"]),
        ("A little slower, please.", ["SLOWER"]),
        ("You're going a bit fast for me.", ["SLOWER"]),
    ],
)
def test_every_repair_act(service: ActObserver, text: str, acts: list[str]) -> None:
    assert service.acts(text) == acts


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("Sorry, could you slow down and spell that?", ["SLOWER", "SPELL"]),
        ("Could you repeat that a bit more slowly?", ["REPEAT", "SLOWER"]),
        ("Could you slow down and give me that one digit at a time?", ["SLOWER", "DIGITS"]),
        ("Sorry, I didn't catch that. Could you spell it?", ["SPELL"]),  # no REPEAT too
        ("Could you say that again, digit by digit?", ["DIGITS"]),
        (
            "Could you spell that slowly, using words for the letters?",
            ["SPELL", "PHONETIC", "SLOWER"],
        ),
    ],
)
def test_combinations(service: ActObserver, text: str, acts: list[str]) -> None:
    assert service.acts(text) == acts


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("Let me repeat that back to you: Summit Learning, Fatima, net 30.", ["READBACK"]),
        ("I'll spell out the next steps.", ["OTHER"]),
        ("Let me read the number back.", ["OTHER"]),
        ("Shall I read the number back to you?", ["OTHER"]),
        ("Would you like me to repeat that?", ["OTHER"]),
        ("Sure, I'll slow down.", ["OTHER"]),
        ("Could you slow the process down?", ["OTHER"]),
        ("Can you hear me?", ["OTHER"]),
        ("Sorry.", ["OTHER"]),  # an apology, not "Sorry?"
        ("Sorry, I meant the start date.", ["OTHER"]),
        ("Take your time.", ["OTHER"]),
        ("There's no need to repeat the address.", ["OTHER"]),
        ("Could you spell out what you need from us?", ["OTHER"]),
        ("Is this a repeat order?", ["OTHER"]),
        ("Please enter the digits one at a time on your keypad.", ["OTHER"]),
        ("Could you try turning it off and on again?", ["OTHER"]),
        ("The system is a little slower than usual today.", ["OTHER"]),
    ],
)
def test_near_misses_are_no_repairs(service: ActObserver, text: str, acts: list[str]) -> None:
    assert service.acts(text) == acts


def test_a_confirmation_with_a_letter_is_no_spelling(form: ActObserver) -> None:
    value = form.slot("legal_name")
    assert value is not None and value.facts
    assert form.acts(f"Is that {value.facts[0].spoken} with a C?") == ["CONFIRM:legal_name"]


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("What was the tax number again?", ["REPEAT:tax_id"]),
        ("Sorry, what was the email?", ["REPEAT:contact_email"]),  # after it was given
        ("Sorry, I didn't catch the start date.", ["REPEAT:start_date"]),
        ("and the email again", ["REPEAT:contact_email"]),
        ("Can you spell out the email for me?", ["SPELL:contact_email"]),
        ("Could you spell the company's registered name?", ["SPELL:legal_name"]),
        ("Could you give me the tax number one digit at a time?", ["DIGITS:tax_id"]),
        ("I didn't catch the email. Could you spell it?", ["SPELL:contact_email"]),
        ("What's the email address for the contact?", ["ASK:contact_email"]),  # first time
    ],
)
def test_a_named_slot_goes_with_the_request(form: ActObserver, text: str, acts: list[str]) -> None:
    assert form.acts(text) == acts


def test_a_name_is_the_items_one_person_or_bare(form: ActObserver, service: ActObserver) -> None:
    assert form.acts("Could you spell your last name?") == ["SPELL:contact_person"]
    assert service.acts("Could you spell your last name?") == ["SPELL"]


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("sorry", ["REPEAT"]),
        ("sorry what was that", ["REPEAT"]),
        ("sorry i didnt catch that", ["REPEAT"]),
        ("youre breaking up could you say that again", ["REPEAT"]),
        ("how do you spell that", ["SPELL"]),
        ("could you spell that using the nato alphabet", ["SPELL", "PHONETIC"]),
        ("can you say the numbers one at a time please", ["DIGITS"]),
        ("slow down a bit please", ["SLOWER"]),
        ("sorry could you slow down and spell that for me", ["SLOWER", "SPELL"]),
        ("whats the tax number again", ["REPEAT:tax_id"]),
        ("i can spell that back to you if that helps", ["OTHER"]),
    ],
)
def test_asr_text_without_punctuation(form: ActObserver, text: str, acts: list[str]) -> None:
    assert form.acts(text) == acts


def test_a_clause_heard_so_far_is_no_bare_sorry() -> None:
    """The audio channel reads at clause ends: "Sorry," is the start of something."""
    assert repair_cues("Sorry,") is None
    assert repair_cues("Sorry.") is None
    cues = repair_cues("Sorry?")
    assert cues is not None and cues.kinds == ("REPEAT",)


def test_a_sentence_with_a_repair_has_no_other_act(form: ActObserver) -> None:
    acts = form.sentence_acts("Sorry, could you repeat the tax number?")
    assert acts == ["REPEAT:tax_id"]
    assert not any(a.startswith(("ASK", "CONFIRM", "CHECK")) for a in acts)


def test_offers_to_repeat_ask_nothing() -> None:
    assert offers_repair("Do you want me to spell anything back?")
    assert offers_repair("shall i read the number back to you")
    assert not offers_repair("Could you spell that for me?")
