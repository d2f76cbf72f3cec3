"""Questions the caller matched to nothing are recorded in `agent.utterance` (both channels)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from duplexbench.agents import AgentTurn, ScriptedAgent
from duplexbench.orchestrator._hearing import Hearing
from duplexbench.orchestrator._playback import Delivered, HeardWord
from duplexbench.trace._events import AgentActs, AgentUtterance
from duplexbench.trace._io import Recorder
from duplexbench.users._observer.layered import ActObserver
from duplexbench.users._observer.unmatched import unmatched_question
from support.fixtures import fixture_item
from support.helpers import run_episode

FRAME_MS = 20
SILENCE = np.zeros(16_000 * FRAME_MS // 1000, dtype=np.int16)


def test_the_cues_decide_what_is_a_question() -> None:
    assert unmatched_question("How is the weather over there today?", [])
    assert unmatched_question("i'll need the other detail", ["OTHER"])  # a request, no punctuation
    assert not unmatched_question("What is your employee ID?", ["ASK:employee_id"])
    assert not unmatched_question("Thanks, that's noted.", [])  # no question: nothing to match


def test_the_text_loop_records_them_and_reads_the_same_acts() -> None:
    item = fixture_item("form-expense-correction")
    say = "What is your employee ID? How is the weather over there today? Thanks."
    record = run_episode(item, ScriptedAgent([AgentTurn(say, (), True)]))
    [utterance] = [e for e in record.events if isinstance(e, AgentUtterance)]
    assert utterance.data.unmatched_questions == ["How is the weather over there today?"]
    [acts] = [e for e in record.events if isinstance(e, AgentActs)]
    assert acts.data.acts == ActObserver(item).acts(say) == ["ASK:employee_id"]


class Reader:
    """Reads `ASK:email` in "What is your email," (a clause heard before the sentence ends)."""

    def sentence_acts(self, raw: str, before: Sequence[str] = ()) -> list[str]:
        return ["ASK:email"] if raw == "What is your email," else []


class Ear:
    def heard_acts(self, acts: list[str], t: int) -> None: ...

    def check_barge_ins(self, t: int) -> None: ...


def test_hearing_records_them_per_utterance_from_every_reading_of_a_sentence() -> None:
    recorder = Recorder()
    hearing = Hearing(
        recorder, Reader(), Ear(), frame_ms=FRAME_MS, asr=None, delivered=lambda a, b: SILENCE
    )
    said = ["What is your email, please?", "Shall I place it?", "Thanks."]
    words = " ".join(said).split()
    for i, word in enumerate(words):
        heard = [HeardWord(word, i * FRAME_MS)]
        hearing.frame(Delivered(SILENCE, heard, True), i * FRAME_MS, idle=False)
    hearing.close(len(words) * FRAME_MS)
    hearing.frame(Delivered(SILENCE, [HeardWord("Hello?", 0)], True), 500, idle=False)
    hearing.close(600)
    first, second = [e.data for e in recorder.events if isinstance(e, AgentUtterance)]
    # the email question was matched at its clause; the approval question was not
    assert first.unmatched_questions == ["Shall I place it?"]
    assert second.unmatched_questions == ["Hello?"]  # the list starts afresh
