"""The reference agent (version 4) in audio listens carefully: a name is spelled and
read back before it is written; a confirmation is no go-ahead."""

from __future__ import annotations

from duplexbench.agents._protocol import AgentInput, AgentSession, ToolSpec
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.speech import Transcript, TranscriptSegment

FIELDS = {
    "contact_person": {"type": "string", "description": "Name of the main contact person"},
}
UPDATE = ToolSpec(
    "update_form", "Write fields.", {"properties": {"fields": {"properties": FIELDS}}}
)
SUBMIT = ToolSpec("submit_form", "Submit the form (needs the caller's approval).", {})


def heard(dm: ReferenceDialogue, text: str, t_ms: int) -> tuple[str, list[object]]:
    dm.heard(Transcript(text, (), (TranscriptSegment(text, 0, 900, -0.3, 0.01),)))
    turn = dm.respond(AgentInput(t_ms, user_text=text))
    return turn.say, [c.arguments for c in turn.tool_calls]


def test_in_audio_a_name_is_spelled_and_read_back_before_it_is_written() -> None:
    dm = ReferenceDialogue()
    dm.start(AgentSession("Fill in the form.", (UPDATE, SUBMIT), "i", 0))
    say, _ = heard(dm, "Hello.", 0)
    assert say == "What is the contact person?"
    say, calls = heard(dm, "Fatima Casalanos.", 1)
    assert calls == [] and say == "Could you spell the contact person for me?"
    spelled = "Sure. Frank, Apple, Tom, India, Michael, Apple, space, Charles, Apple, Sam, Tom, "
    spelled += "Edward, London, London, Apple, Nancy, Ocean, Sam."
    say, calls = heard(dm, spelled, 2)
    assert calls == [] and say == "Just to confirm, the contact person is Fatima Castellanos?"
    say, calls = heard(dm, "Yes, that's right.", 3)
    assert {"fields": {"contact_person": "Fatima Castellanos"}} in calls
    assert "Shall I submit form now?" in say
    say, calls = heard(dm, "Yes, correct.", 4)  # the read-back confirmed: no go-ahead yet
    assert not any(c == {} for c in calls) and say == "Shall I submit form now?"
    _, calls = heard(dm, "Yes, please go ahead.", 5)
    assert {} in calls  # submit_form


def test_on_the_text_channel_the_words_are_the_value() -> None:
    dm = ReferenceDialogue()
    dm.start(AgentSession("Fill in the form.", (UPDATE, SUBMIT), "i", 0))
    dm.respond(AgentInput(0, user_text="Hello."))
    turn = dm.respond(AgentInput(1, user_text="Fatima Castellanos."))
    assert [c.arguments for c in turn.tool_calls] == [
        {"fields": {"contact_person": "Fatima Castellanos"}}
    ]


def test_the_start_of_a_spelling_cut_at_a_pause_is_held_and_joined() -> None:
    dm = ReferenceDialogue()
    dm.start(AgentSession("Fill in the form.", (UPDATE, SUBMIT), "i", 0))
    heard(dm, "Hello.", 0)
    heard(dm, "Fatima Casalanos.", 1)  # -> could you spell it?
    say, calls = heard(dm, "Of course.", 2)  # the cascade cut the spelling at a pause
    assert say == "" and calls == []  # it waits
    rest = "Frank, Apple, Tom, India, Michael, Apple, space, Charles, Apple, Sam, Tom, "
    rest += "Edward, London, London, Apple, Nancy, Ocean, Sam."
    say, _ = heard(dm, rest, 3)
    assert say == "Just to confirm, the contact person is Fatima Castellanos?"
