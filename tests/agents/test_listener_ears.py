"""The listener's ears: reading values out of what was heard, and when to ask again."""

from __future__ import annotations

import pytest

from duplexbench.agents._listener.alphabet import consensus, nato_near
from duplexbench.agents._listener.ears import (
    LOW_LOGPROB,
    MAX_REPAIRS,
    Ears,
    confident,
)
from duplexbench.agents._listener.fields import Ear, Target, ear_of
from duplexbench.agents._listener.reading import read_plain, read_spelling
from duplexbench.agents._reference.schema import FieldInfo
from duplexbench.speech import Transcript, TranscriptSegment


def target(name: str, kind: str = "string", description: str = "") -> Target:
    info = FieldInfo(name, kind, description)
    return Target("update", ("fields", name), info, ear_of(info))


TAX = target("tax_id", description="Tax identification number, e.g. TX-4821-KQ")
NAME = target("contact_person", description="Name of the main contact person at the vendor")
EMAIL = target("contact_email", description="Email address of the vendor's main contact")
COUNT = target("employee_count", "integer", "How many people the vendor employs")
PEOPLE = target("witnesses", "list", "Names of the people who saw what happened")
WINDOW = FieldInfo("callback_window", "interval", "Hours of the day for a call back")


def transcript(text: str, logprob: float, no_speech: float = 0.01) -> Transcript:
    return Transcript(text, (), (TranscriptSegment(text, 0, 900, logprob, no_speech),))


@pytest.mark.parametrize(
    ("info", "ear"),
    [
        (TAX.info, "code"),
        (NAME.info, "name"),
        (EMAIL.info, "email"),
        (COUNT.info, "integer"),
        (PEOPLE.info, "names"),
        (FieldInfo("candidate_name", "date", "Full name of the candidate"), "name"),
        (FieldInfo("filing_deadline", "string", "Last day to file"), "date"),
        (FieldInfo("delivery_note", "string", "Special instructions for the driver"), "text"),
    ],
)
def test_each_field_gets_an_ear(info: FieldInfo, ear: Ear) -> None:
    assert ear_of(info) == ear


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [
        (TAX, "Probably T X dash 2 8 9 5 dash Z F.", "TX-2895-ZF"),
        (
            EMAIL,
            "Okay, so that would be n dot quiñones at example dot com.",
            "n.quiñones@example.com",
        ),
        (
            NAME,
            "Hold on, I'm on the phone, honey. Sorry, Fatima Castellanos.",
            "Fatima Castellanos",
        ),
        (NAME, "What is the contact person for? Well, It's, uh, sorry, Ana Lima.", "Ana Lima"),
        (NAME, "Summit Learning. I mean yes Summit Learning", "Summit Learning"),
        (COUNT, "I need to change the employee count: it should be 417 now.", 417),
        (
            PEOPLE,
            "Sofia Quiñones, Grace Lindqvist and Tomás Oyelaran.",
            ["Sofia Quiñones", "Grace Lindqvist", "Tomás Oyelaran"],
        ),
    ],
)
def test_a_plain_answer_is_read_by_the_fields_ear(field: Target, text: str, value: object) -> None:
    assert read_plain(field, text, 2026, []) == value


def test_an_interval_and_a_list_of_things() -> None:
    window = Target("update", ("fields", "callback_window"), WINDOW, "interval")
    assert (
        read_plain(window, "Let me think, yes, it's from 11 am to 12 pm.", 2026, [])
        == "11:00-12:00"
    )
    steps = target("steps_tried", "list", "Fixes the caller already tried")
    said = "it should be restarted it, then reset settings, then checked cables now"
    assert read_plain(steps, said, 2026, []) == ["restarted it", "reset settings", "checked cables"]


def test_a_spelling_is_read_after_its_lead_in_whatever_came_before() -> None:
    said = "Hold on, sorry. Okay, please continue. Of course. Hotel, Alpha, November, November, "
    said += "Alpha, Hotel, space, Alpha, Delta, Echo, Yankee, Echo, Mike, India."
    assert read_spelling(NAME, said, 2026) == "Hannah Adeyemi"
    assert (
        read_spelling(TAX, "Sure. Tango, X-ray. dash, 2, 8, 9, 5. dash, Zulu, Foxtrot.", 2026)
        == "TX-2895-ZF"
    )
    assert (
        read_spelling(EMAIL, "L. dot, L, I, N. D, Q, V. I, S, T. at example dot com.", 2026)
        == "l.lindqvist@example.com"
    )


def test_whispers_near_misses_of_the_phonetic_alphabet_are_read_as_it() -> None:
    """Only next to a phonetic-alphabet word; a misheard lead-in is left out."""
    assert nato_near("Tierre, Uniform, Mike") == "sierra, Uniform, Mike"
    assert nato_near("Chair thing, Romeo") == "Chair thing, Romeo"
    said = "Chirping, Foxtrath, Alpha, Tandel, India, Mike, Alpha, Space, Charlie, Alpha, Sierra, "
    said += "Tandel, Echo, Lena, Lena, Alpha, November, Oscar, Sierra."
    assert read_spelling(NAME, said, 2026) == "Fatima Castellanos"


def test_the_consensus_of_readings_outvotes_one_misheard_letter() -> None:
    assert consensus(["rf99998", "rf9998", "rf9998"]) == "rf9998"
    assert consensus(["summit learning", "ummit learning", "summit learning"]) == "summit learning"


def test_confidence_is_low_below_whispers_thresholds() -> None:
    assert confident(None) and confident(Transcript("x", ()))
    assert confident(transcript("x", -0.3))
    assert not confident(transcript("x", LOW_LOGPROB - 0.1))
    assert not confident(transcript("x", -0.3, no_speech=0.9))


def test_on_text_a_well_formed_answer_settles_at_once() -> None:
    ears = Ears(audio=False)
    ear = ears.hear(
        "tax_id", TAX, "It's T X dash 2 8 9 5 dash Z F.", how="plain", transcript=None, words=[]
    )
    assert ear.settled and ear.value == "TX-2895-ZF"
    assert ears.next_repair("tax_id") is None


def test_in_audio_a_name_is_spelled_until_a_full_spelling_is_heard() -> None:
    ears = Ears(audio=True)
    sure = transcript("x", -0.3)
    ears.hear("p", NAME, "Um, Fatima Casalanos, I believe.", how="plain", transcript=sure, words=[])
    assert ears.next_repair("p") == "spelled"
    short = "Sure. Foxtrot. Alpha. Tango. Mike. Space. Charlie. Sierra. Tango. Lima. Alpha. "
    short += "November. Oscar. Sierra."
    ear = ears.hear("p", NAME, short, how="spelled", transcript=sure, words=[])
    assert not ear.settled  # "Fatm Cstlanos" lost letters: shorter than what was said
    assert ears.next_repair("p") == "repeat"
    full = "Of course. Foxtrot, Alpha, Tango, India, Mike, Alpha, space, Charlie, Alpha, Sierra, "
    full += "Tango, Echo, Lima, Lima, Alpha, November, Oscar, Sierra."
    ear = ears.hear("p", NAME, full, how="spelled", transcript=sure, words=[])
    assert ear.settled and ear.value == "Fatima Castellanos"


def test_in_audio_an_unsure_number_is_read_digit_by_digit() -> None:
    ears = Ears(audio=True)
    ears.hear("n", COUNT, "It's 417.", how="plain", transcript=transcript("417", -1.4), words=[])
    assert ears.next_repair("n") == "digits"
    ear = ears.hear(
        "n", COUNT, "Sure. 4 1 7.", how="digits", transcript=transcript("4 1 7", -0.2), words=[]
    )
    assert ear.settled and ear.value == 417


def test_repairs_stop_at_the_cap_with_the_best_reading() -> None:
    ears = Ears(audio=True)
    sure = transcript("x", -0.3)
    ears.hear("t", TAX, "Probably TX-2895-CF.", how="plain", transcript=sure, words=[])
    for _ in range(MAX_REPAIRS):
        assert ears.next_repair("t") is not None
        ears.hear(
            "t",
            TAX,
            "Sure. garbled words only.",
            how="spelled",
            transcript=transcript("x", -2.0),
            words=[],
        )
    assert ears.next_repair("t") is None
    assert ears.ears["t"].settled and ears.value("t") == "TX-2895-CF"


def test_a_record_id_that_finds_nothing_gives_way_to_the_next_reading() -> None:
    ears = Ears(audio=True)
    rid = Target("get", ("id",), FieldInfo("id", "string", "records record id"), "code")
    sure = transcript("x", -0.3)
    ears.hear("r", rid, "Probably our F9-9-9-8.", how="plain", transcript=sure, words=[])
    ears.hear(
        "r",
        rid,
        "Chair thing, Romeo, Foxtrot. 9, 9, 9, 9, 8.",
        how="spelled",
        transcript=sure,
        words=[],
    )
    assert ears.value("r") == "RF99998"
    assert ears.doubt("r") == "RF9998"
