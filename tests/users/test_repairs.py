"""The caller answers repair requests: repeat, spell, digits, slow down, patience."""

from __future__ import annotations

from duplexbench.users._plan import Plan
from duplexbench.users._policy import Observation, UserPolicy
from duplexbench.users._realization import Realizer
from duplexbench.users._repairs import RepairTraits, repair_requests
from duplexbench.values import read_spelled
from support.fixtures import fixture_item

ITEM = "form-expense-correction"


def obs(*acts: str, tools: tuple[str, ...] = (), heard: str = "") -> Observation:
    said = (heard,) if heard else ()
    return Observation(t_ms=1000, acts=acts, tools=tools, agent_spoke=True, heard=said)


def policy(traits: RepairTraits | None = None) -> UserPolicy:
    p = UserPolicy(fixture_item(ITEM), repairs=traits or RepairTraits(3, "letters", 0.8))
    p.opening()
    return p


def ids(plans: list[Plan]) -> list[str]:
    return [p.plan_id for p in plans]


def test_requests_drop_a_plain_repeat_beside_a_spelling() -> None:
    requests, phonetic = repair_requests(["REPEAT", "SPELL:cost_center", "PHONETIC"])
    assert [r.act for r in requests] == ["SPELL:cost_center"] and phonetic


def test_spell_without_a_slot_spells_the_value_just_given() -> None:
    p = policy()
    p.react(obs("ASK:cost_center"))
    [plan] = p.react(obs("SPELL"))
    assert plan.plan_id == "spell:cost_center" and plan.act == "spell"
    assert plan.repair is not None and plan.repair.style == "letters"
    assert plan.repair.slot == "cost_center" and plan.repair.count == 1
    assert [r.because for r in plan.reveals] == ["repeat"]  # no new reveal


def test_phonetic_words_when_asked_for_them() -> None:
    p = policy()
    p.react(obs("ASK:cost_center"))
    [plan] = p.react(obs("SPELL", "PHONETIC"))
    assert plan.repair is not None and plan.repair.style == "phonetic"


def test_repeat_says_the_last_answer_again_and_a_turn_without_values_too() -> None:
    p = policy()
    p.react(obs("ASK:employee_id"))
    assert ids(p.react(obs("REPEAT"))) == ["repeat:employee_id"]
    [yes] = p.react(obs("CONFIRM:employee_id", heard="Your employee ID is E1042, right?"))
    assert yes.plan_id == "confirm"
    [again] = p.react(obs("REPEAT"))
    assert again.plan_id == "again:confirm" and again.act == "repeat"


def test_a_repeat_of_a_spelling_spells_again() -> None:
    p = policy()
    p.react(obs("ASK:cost_center"))
    p.react(obs("SPELL", "PHONETIC"))
    [plan] = p.react(obs("REPEAT"))
    assert plan.plan_id == "spell:cost_center"
    assert plan.repair is not None and plan.repair.style == "phonetic"


def test_named_slot_never_said_or_not_held_reveals_nothing() -> None:
    p = policy()
    [not_said] = p.react(obs("REPEAT:cost_center"))
    assert not_said.plan_id == "not_said" and not_said.facts == () and not_said.reveals == ()
    [missing] = p.react(obs("SPELL:expense.nonexistent"))
    assert missing.plan_id == "dont_have" and missing.facts == ()
    assert "cost_center" not in p.revealed()


def test_nothing_said_yet_gets_what_do_you_need() -> None:
    p = UserPolicy(fixture_item(ITEM))  # no opening either
    [plan] = p.react(obs("REPEAT"))
    assert plan.plan_id == "what_need"
    [plan] = p.react(obs("SPELL"))
    assert plan.plan_id == "what_need"


def test_digits_and_dates() -> None:
    p = policy()
    p.react(obs("ASK:employee_id"))
    [digits] = p.react(obs("DIGITS"))
    assert digits.plan_id == "digits:employee_id"
    p.react(obs("ASK:expense_date"))
    [date] = p.react(obs("SPELL"))
    assert date.plan_id == "repeat:expense_date"  # a date is said again, not spelled


def test_patience_runs_out_but_the_caller_still_answers() -> None:
    p = policy(RepairTraits(2, "letters", 1.0))
    p.react(obs("ASK:cost_center"))
    assert ids(p.react(obs("REPEAT"))) == ["repeat:cost_center"]
    assert ids(p.react(obs("REPEAT"))) == ["repeat:cost_center"]
    patience, plan = p.react(obs("REPEAT"))
    assert patience.plan_id == "patience" and patience.times == 3
    assert plan.repair is not None and plan.repair.over_budget and plan.facts == ("cost_center",)


def test_endless_repair_requests_end_the_call() -> None:
    p = policy(RepairTraits(1, "letters", 1.0))
    p.react(obs("ASK:cost_center"))
    outcomes = [ids(p.react(obs("REPEAT"))) for _ in range(3)]
    assert outcomes[:2] == [["repeat:cost_center"], ["patience", "repeat:cost_center"]]
    assert outcomes[2] == ["give_up"] and p.ended and p.end_reason == "user_ended"
    assert p.react(obs("REPEAT")) == []


def test_a_question_between_repairs_resets_the_streak() -> None:
    p = policy(RepairTraits(1, "letters", 1.0))
    p.react(obs("ASK:cost_center"))
    for _ in range(5):
        p.react(obs("REPEAT"))
        p.react(obs("ASK:employee_id"))
    assert not p.ended


def test_slowing_down_lasts_and_stays_within_the_persona_bound() -> None:
    p = policy(RepairTraits(3, "letters", 0.85))
    p.react(obs("ASK:employee_id"))
    slower, again = p.react(obs("SLOWER"))
    assert slower.plan_id == "slower" and p.rate == 0.9
    assert again.plan_id == "repeat:employee_id" and again.speed == 0.85  # repeats slower
    p.react(obs("SLOWER"))
    assert p.rate == 0.85  # never below its bound
    [answer] = p.react(obs("ASK:cost_center"))
    assert answer.speed == 0.85  # for the rest of the call
    steady = policy(RepairTraits(3, "letters", 1.0))
    steady.react(obs("ASK:employee_id"))
    steady.react(obs("SLOWER"))
    assert steady.rate == 1.0


def test_repairs_count_as_answers_for_the_idle_rule() -> None:
    p = policy()
    p.react(obs("ASK:employee_id"))
    for _ in range(3):
        assert p.react(obs("REPEAT"))[0].act == "repeat"
    assert not p.ended


def test_realized_repairs_have_no_fillers_and_spell_in_pieces() -> None:
    item = fixture_item(ITEM)
    p = policy(RepairTraits(3, "letters", 1.0))
    realizer = Realizer(item.id, item.user, 0, 0, verbosity="verbose")
    p.react(obs("ASK:cost_center"))
    [repeat] = p.react(obs("REPEAT"))
    said = realizer.realize_plan(repeat).text
    assert "CC-330" in said and not said.startswith(("Um", "Right", "Hmm", "Okay, so"))
    [spelled] = p.react(obs("SPELL"))
    realized = realizer.realize_plan(spelled)
    assert len(realized.pieces) >= 2 and realized.text.endswith(realized.pieces[-1])
    assert read_spelled(" ".join(realized.pieces[1:])).upper() == "CC-330"


def test_patience_names_the_count_in_words() -> None:
    item = fixture_item(ITEM)
    p = policy(RepairTraits(1, "letters", 1.0))
    realizer = Realizer(item.id, item.user, 0, 0)
    p.react(obs("ASK:cost_center"))
    p.react(obs("REPEAT"))
    patience, _ = p.react(obs("REPEAT"))
    assert "two times" in realizer.realize_plan(patience).text


def test_a_correction_in_the_same_turn_is_not_repeated_and_repairs_use_it() -> None:
    p = policy()
    [answer] = p.react(obs("ASK:total_amount"))
    p.utterance_finished([answer.plan_id])
    plans = p.react(obs("REPEAT"))  # the correction fires now: it says the value again
    assert ids(plans) == ["event:fix_total"]
    [spelled] = p.react(obs("DIGITS"))
    assert spelled.facts == ("total_amount_v2",)  # the corrected value
