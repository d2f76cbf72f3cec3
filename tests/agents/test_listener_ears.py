"""The listener's ears: reading values out of what was heard, and when to ask again."""

from __future__ import annotations

import pytest

from duplexbench.agents._listener.fields import Ear as EarKind
from duplexbench.agents._listener.fields import Target, ear_of
from duplexbench.agents._notes.alphabet import (
    after_lead,
    clarity,
    heard_words,
    looped,
    mark_lost,
    nato_near,
)
from duplexbench.agents._notes.ears import (
    LOW_LOGPROB,
    MAX_REPAIRS,
    Ear,
    Ears,
    How,
    confident,
)
from duplexbench.agents._notes.reading import (
    ambiguous,
    conform,
    read_plain,
    read_spelling,
    well_formed,
)
from duplexbench.agents._notes.schema import FieldInfo
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
def test_each_field_gets_an_ear(info: FieldInfo, ear: EarKind) -> None:
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
    """Only next to a phonetic-alphabet word, in a phonetic spelling; a misheard lead-in
    is left out; the caller's own alphabet is never taken for it."""
    assert nato_near("Tierre, Uniform, Mike, Oscar") == "sierra, Uniform, Mike, Oscar"
    assert nato_near("Chair thing, Romeo") == "Chair thing, Romeo"
    assert nato_near("Frank, Apple, Tom, India, Michael, Apple") == (
        "Frank, Apple, Tom, India, Michael, Apple"
    )  # "Michael" is no "Charlie"
    said = "Chirping, Foxtrath, Alpha, Tandel, India, Mike, Alpha, Space, Charlie, Alpha, Sierra, "
    said += "Tandel, Echo, Lena, Lena, Alpha, November, Oscar, Sierra."
    assert read_spelling(NAME, said, 2026) == "Fatima Castellanos"
    said = "Of course, Foxtratt, Alpha, Tango, India, Mike, Alpha, Space, Quebec, Uniform, India, "
    said += "November with the Tilda, Oscar, November, Echo, Sierra."
    assert read_spelling(NAME, said, 2026) == "Fatima Quiñones"


@pytest.mark.parametrize(
    ("field", "heard", "value"),
    [
        # whisper's words for piper's alphabet words
        (TAX, "Of course, theater, ocean, dash, 6, 8, 7, 8, dash, Zachary, Henry.", "PO-6878-ZH"),
        (NAME, "Sure, Henry, calm, Kane, Sam", "Htks"),
        # the caller's lead-in, heard or misheard, and its patience
        (NAME, "M&M HM, okay, cheer thing, Sam, ocean, Frank, India, Apple", "Sofia"),
        (NAME, "That's four times I've said it. Jourthing, Apple, Boston", "Ab"),
        (NAME, "Oh, sorry, I'll go slower. Of course. Apple, Boston", "Ab"),
        # a spoken 8 written "A" next to letters, where the example has a digit
        (TAX, "Of course, T-X, A-8-9-5, Z-F.", "TX-8895-ZF"),
        # a list of names spelled with its commas ("Kamma") and spaces ("Spass")
        (
            PEOPLE,
            "Sure, Apple, Nancy, Apple, Spass, Boston, Kamma, Space, Edward, Dave, India, Edward",
            ["Ana B", "Edie"],
        ),
    ],
)
def test_a_spelling_is_read_as_whisper_writes_it(field: Target, heard: str, value: object) -> None:
    assert read_spelling(field, heard, 2026) == value


def test_shapes_whisper_breaks_are_read_or_refused() -> None:
    phone = Target("u", ("fields", "host_phone"), FieldInfo("host_phone", "phone", ""), "phone")
    assert read_spelling(phone, "Sure, 555-851-5", 2026) == "5558515"
    assert not well_formed(phone, "5558515")  # whisper dropped digits: ask again
    assert well_formed(phone, "555-851-5698")
    window = Target("update", ("fields", "callback_window"), WINDOW, "interval")
    assert read_plain(window, "It's from 2pg to 3pg.", 2026, []) == "14:00-15:00"
    assert read_plain(window, "From 2p them to 3p them.", 2026, []) == "14:00-15:00"
    assert conform("CMA323BP", "CM-4821-KQ") == "CM8323BP"
    assert conform("CMA3AAAP", "CM-4821-KQ") == "CMA3AAAP"  # too far from the shape
    assert ambiguous(COUNT, "$1,700, $10.") and not ambiguous(COUNT, "It's $1,710.")
    said = "That's not right, the payment type is invoice."
    assert read_plain(target("payment_method"), said, 2026, ["payment method"]) == "invoice"


def test_whispers_loops_and_lost_marks_are_seen() -> None:
    assert looped("He is the only one who is the only one who is the only one who is")
    assert not looped("Sam, Ocean, Frank, India, Apple, Sam, Ocean, Frank")
    mateo = "Michael, Apple, Tom, Edward, Ocean, space"  # three Mateos in a list: no loop
    assert not looped(f"{mateo}, David, Edward, comma, {mateo}, Charles, comma, {mateo}, Frank")
    assert mark_lost("Queen, Uniform, India, Nancy with Ocean, Nancy")
    assert not mark_lost("Nancy with the Tilda, Ocean") and not mark_lost("Alpha within acute")
    assert clarity("Apple, Boston, dash, 4") == 1.0 and clarity("Tandel, Apple") == 0.5
    assert after_lead("Chair thing, Sam") == "Sam" and heard_words("T face") == "space"


def test_confidence_is_low_below_whispers_thresholds() -> None:
    assert confident(None) and confident(Transcript("x", ()))
    assert confident(transcript("x", LOW_LOGPROB - 0.1 + 0.2))
    assert not confident(transcript("x", LOW_LOGPROB - 0.1))
    assert not confident(transcript("x", -0.3, no_speech=0.9))


SURE = transcript("x", -0.3)


def hear(ears: Ears, fact: str, field: Target, text: str, how: How = "plain") -> Ear:
    return ears.hear(fact, field, text, how=how, transcript=SURE, words=[], slot=fact)


def test_on_text_a_well_formed_answer_settles_at_once() -> None:
    ears = Ears(audio=False)
    ear = hear(ears, "tax_id", TAX, "It's T X dash 2 8 9 5 dash Z F.")
    assert ear.settled and ear.value == "TX-2895-ZF"
    assert ears.next_repair("tax_id") is None and not ears.to_check("tax_id")


def test_in_audio_a_name_is_spelled_read_back_and_settled_by_the_callers_yes() -> None:
    ears = Ears(audio=True)
    hear(ears, "p", NAME, "Um, Fatima Casalanos, I believe.")
    assert not ears.to_check("p")  # plain words of a name are not read back
    assert ears.next_repair("p") == "spelled"
    full = "Of course. Frank, Apple, Tom, India, Michael, Apple, space, Charles, Apple, Sam, "
    full += "Tom, Edward, London, London, Apple, Nancy, Ocean, Sam."
    hear(ears, "p", NAME, full, "spelled")
    assert ears.to_check("p") and ears.unsettled() == []
    assert ears.propose("p") == "Fatima Castellanos"
    ears.confirmed("p")
    ear = ears.ears["p"]
    assert ear.checked and ear.settled and ears.next_repair("p") is None
    hear(ears, "p", NAME, "I said Fatima Casalanos.")  # heard later: changes nothing
    assert ears.value("p") == "Fatima Castellanos" and not ears.to_check("p")


def test_a_corrected_value_is_never_taken_again_and_the_next_repair_differs() -> None:
    ears = Ears(audio=True)
    hear(ears, "p", NAME, "Yuki Adami.")
    assert ears.next_repair("p") == "spelled"
    wrong = "Of course, yellow uniform came India. Space, Apple, David, Edward, Yellow, Edward, "
    wrong += "Nancy, India."
    hear(ears, "p", NAME, wrong, "spelled")
    assert ears.propose("p") == "Yuki Adeyeni"
    ears.reject("p")
    hear(ears, "p", NAME, "That's not right, the claimant name is Yuki Adami.")
    assert not ears.to_check("p") and ears.next_repair("p") == "phonetic"
    hear(ears, "p", NAME, wrong, "spelled")  # the same words again: still wrong
    assert not ears.to_check("p")
    right = "Sure. Yankee, Uniform, Kilo, India, space, Alpha, Delta, Echo, Yankee, Echo, Mike, "
    right += "India."
    hear(ears, "p", NAME, right, "spelled")
    assert ears.ears["p"].readings[-1].how == "phonetic"
    assert ears.propose("p") == "Yuki Adeyemi"


def test_past_the_callers_corrections_two_readings_must_agree() -> None:
    """The caller corrects a slot twice at most: its "yes" then means nothing."""
    ears = Ears(audio=True)
    hear(ears, "t", TAX, "Probably TX-2895-CF.")
    assert ears.next_repair("t") == "spelled"
    for said, read in (
        ("Tango, X-ray, dash, 2, 8, 9, 5, dash, Charlie, Foxtrot.", "TX-2895-CF"),
        ("Tom, X-ray, dash, 2, 8, 9, 5, dash, Charles, Sam.", "TX-2895-CS"),
    ):
        hear(ears, "t", TAX, f"Sure. {said}", "spelled")
        assert ears.propose("t") == read
        ears.reject("t")
        assert ears.next_repair("t") is not None
    ears.confirmed("t")
    assert not ears.ears["t"].checked  # a "yes" past the corrections proves nothing
    hear(ears, "t", TAX, "Sure. Tom, X-ray, dash, 2, 8, 9, 5, dash, Zachary, Frank.", "spelled")
    assert not ears.to_check("t") and not ears.ears["t"].settled
    hear(
        ears, "t", TAX, "Of course. Tom, X-ray, dash, 2, 8, 9, 5, dash, Zachary, Frank.", "spelled"
    )
    assert ears.ears["t"].settled and ears.value("t") == "TX-2895-ZF"


def test_in_audio_an_unsure_number_is_read_digit_by_digit_and_read_back() -> None:
    ears = Ears(audio=True)
    ears.hear("n", COUNT, "It's 471.", how="plain", transcript=transcript("x", -1.4), words=[])
    assert ears.next_repair("n") == "digits"
    hear(ears, "n", COUNT, "Sure. 4 1 7.", "digits")
    assert ears.to_check("n") and ears.propose("n") == 417  # the digits first
    ears.confirmed("n")
    assert ears.ears["n"].settled and ears.value("n") == 417
    sure = Ears(audio=True)
    assert hear(sure, "m", COUNT, "It's 417.").settled and not sure.to_check("m")


def test_a_list_spelled_with_a_slip_in_another_item_each_time() -> None:
    ears = Ears(audio=True)
    people = ("Ana Lima, Noah Haddad", "Ana Lima, Noah Haddd", "Anna Lima, Noah Haddad")
    for said in people:
        spelled = ", comma, space, ".join(
            ", ".join("space" if c == " " else f"{c}" for c in name) for name in said.split(", ")
        )
        hear(ears, "w", PEOPLE, f"Sure. {spelled}", "spelled")
    assert ears.ears["w"].readings[1].value == ["Ana Lima", "Noah Haddd"]
    best = ears.ears["w"].ranked()[0]
    assert best.value == ["Ana Lima", "Noah Haddad"] and best.support == 2


def test_a_plain_form_with_the_same_letters_but_other_words_is_not_kept() -> None:
    ears = Ears(audio=True)
    method = target("payment_method")
    hear(ears, "m", method, "It's in voice.")
    hear(ears, "m", method, "Sure, India, Nancy, Violet, Ocean, India, Charles, Edward.", "spelled")
    assert ears.ears["m"].ranked()[0].value == "invoice"


def test_an_email_spelled_keeps_the_dot_after_its_initial() -> None:
    ears = Ears(audio=True)
    hear(ears, "e", EMAIL, "g.adamie at example.com")
    said = "Of course, Golf.Alpha.Delta. Echo.Yankee. Echo. Mike. India. At example.com."
    hear(ears, "e", EMAIL, said, "spelled")
    assert ears.propose("e") == "g.adeyemi@example.com"


def test_whispers_loop_is_no_reading() -> None:
    ears = Ears(audio=True)
    loop = "Sure, John, Ocean, Henry, He is the only one who is the only one who is the only one"
    loop += " who is the only one who is the only one"
    assert hear(ears, "w", PEOPLE, loop, "spelled").readings[-1].value is None


def test_repairs_stop_at_the_cap_with_the_best_reading() -> None:
    ears = Ears(audio=True)
    hear(ears, "t", TAX, "Probably TX-2895-CF.")
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
    assert ears.to_check("t") and ears.propose("t") == "TX-2895-CF"  # the best: read it back


def test_a_record_id_that_finds_nothing_gives_way_to_the_next_reading() -> None:
    ears = Ears(audio=True)
    rid = Target("get", ("id",), FieldInfo("id", "string", "records record id"), "code")
    hear(ears, "r", rid, "Probably our F9-9-9-8.")
    hear(ears, "r", rid, "Chair thing, Romeo, Foxtrot. 9, 9, 9, 9, 8.", "spelled")
    assert ears.value("r") == "RF99998"
    assert ears.doubt("r") == "RF9998"


SKILLS = target("core_skills", "list", "Skills the candidate brings, most important first")


def test_a_list_of_words_is_read_item_by_item_over_every_reading() -> None:
    """workflows-v2 interviewing-04: "spreadsheets" heard as "preach it" in the plain
    words (corrected), "scheduling" spelled without its S; each item as most of the
    readings of different audio have it."""
    ears = Ears(audio=True)
    hear(ears, "s", SKILLS, "Preach it, then negotiation, then scheduling, then public speaking.")
    assert ears.propose("s") == ["preach it", "negotiation", "scheduling", "public speaking"]
    ears.reject("s")
    said = "No, the core skills are spreadsheets, then negotiation, then scheduling, then "
    hear(ears, "s", SKILLS, said + "public speaking.")
    assert ears.value("s") == ["spreadsheets", "negotiation", "scheduling", "public speaking"]
    assert not ears.to_check("s")  # plain words after a correction: spelled first
    letters = ", comma, space, ".join(
        ", ".join("space" if c == " " else c for c in item)
        for item in ("spreadsheets", "negotiation", "cheduling", "public speaking")
    )
    hear(ears, "s", SKILLS, f"Sure. {letters}", "spelled")
    assert ears.propose("s") == ["spreadsheets", "negotiation", "scheduling", "public speaking"]


def test_an_emails_spoken_dot_is_read_where_whisper_wrote_a_full_stop() -> None:
    """workflows-v2 coordination-scheduling-02: "India, dot, Tom, ..." heard as "India.
    Tom"; the phonetic "India, dot, Tango" as "India, D. Tando"."""
    said = "Of course, India. Tom Henry, Ocean, Robert, Violet, Apple, London, David, Sam, "
    said += "Edward, Nancy, at example.com."
    assert read_spelling(EMAIL, said, 2026) == "i.thorvaldsen@example.com"
    said = "Sure thing, India, D. Tango, Hotel, Oscar, Romeo, Victor, Alpha, Lima, Delta, "
    said += "Sierra, Echo, November, at example.com."
    assert read_spelling(EMAIL, said, 2026) == "i.thorvaldsen@example.com"
    # a spelling with a full stop after every word: those stops are no dots
    said = "Sure. India. Dot. Tom. Henry. Ocean. At example. Com."
    assert read_spelling(EMAIL, said, 2026) == "i.tho@example.com"


def test_a_long_number_is_read_back_even_when_the_asr_was_sure() -> None:
    """workflows-v2 form-completion-05: "139915 dollars." heard, sure, as "$139,950."."""
    money = target("insurance_coverage", "number", "Insurance coverage in dollars")
    ears = Ears(audio=True)
    ears.hear("c", money, "$139,950.", how="plain", transcript=transcript("x", -0.58), words=[])
    assert not ears.ears["c"].settled and ears.to_check("c")
    assert ears.propose("c") == 139950
    ears.reject("c")
    assert ears.next_repair("c") == "digits"
    hear(ears, "c", money, "Sure. 1 3 9, 9 1 5.", "digits")
    assert ears.propose("c") == 139915
    short = Ears(audio=True)
    assert hear(short, "n", COUNT, "It's 417.").settled and not short.to_check("n")


def test_a_phone_heard_with_a_digit_too_many_or_too_few_is_reconciled() -> None:
    """workflows-v2 procurement-10: 555-977-9040 heard as "555-977-940" (twice),
    "555-9777-9040" (its digits) and "5, 5, 5, 5, Dash, ..." (spelled)."""
    phone = target("contact_phone", "string", "Phone number of the contact")
    ears = Ears(audio=True)
    hear(ears, "p", phone, "Let me see, 555-977-940.")
    hear(ears, "p", phone, "Of course, 555-9777-9040", "digits")
    assert ears.ears["p"].ranked() == []  # one reading explains each ten digits
    hear(ears, "p", phone, "Sure, 5, 5, 5, 5, Dash, 9, 7, 7, Dash, 9, 0, 4, 0.", "spelled")
    hear(ears, "p", phone, "It's 555-977-940")
    best = ears.ears["p"].ranked()[0]
    assert best.value == "555-977-9040" and best.support == 4


def test_a_spelled_item_that_lost_letters_gives_way_to_the_words_heard_and_back() -> None:
    """workflows-v2 record-preparation-02: "signed contract" heard as "sign contract"
    twice, "site survey" spelled as "site surve"."""
    items = target("evidence_items", "list", "Evidence items for the case file")
    ears = Ears(audio=True)
    hear(ears, "e", items, "Photographs, then site survey, then sign contract.")
    hear(ears, "e", items, "No, the evidence items is photographs, site survey, sign contract.")
    letters = ", comma, space, ".join(
        ", ".join("space" if c == " " else c for c in item)
        for item in ("photographs", "site surve", "signed contract")
    )
    hear(ears, "e", items, f"Sure. {letters}", "spelled")
    best = ears.ears["e"].ranked()[0]
    assert best.value == ["photographs", "site survey", "signed contract"]
    assert best.support == 3
