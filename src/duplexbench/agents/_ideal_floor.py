"""`ideal-floor`: a scripted, privileged test agent that does on the floor exactly
what each action condition's rule asks (a ceiling for immediate execution).

It reads the action item (annotations, timeline) and the cue onset, never
the audio, and speaks with the harness's TTS:

- wait / ignore: answer 400 ms after the user's speech ends;
- take_turn: start 200 ms (immediate), 1500 ms (delayed) after the end, or
  400 ms before it (slight overlap);
- backchannel: "Mm-hmm." (affirmative) or "Hmm?" (uncertainty) a third of
  the way into the span, then answer after the user ends;
- stop: answer the lead-in, stop at the cue onset, answer after the cue;
- hold_floor: keep talking through the cue, then switch, at the cue's end and
  without a pause, to the item's reference line (continued, shorter, simpler);
- recover: stop at the cue onset, answer with the required adjustment 400 ms
  after the cue ends;
- interrupt: cut in 300 ms after the authored target point.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import (
    AgentEvent,
    AudioDelta,
    ResponseDone,
    SpeechCancelled,
    TranscriptDelta,
)
from duplexbench.agents._protocol import ActionPrivileged, AgentError, ToolResultMessage
from duplexbench.audio import SAMPLE_RATE, AudioFrame
from duplexbench.items import TAKE_TURN_WINDOWS, ActionItem

TAKE_TURN_OFFSETS = {"immediate": 200, "delayed": 1500, "slight_overlap": -400}


@dataclass
class _Say:
    at_ms: int
    text: str
    cancel_first: bool = False


def one_breath(text: str) -> str:
    """Punctuation removed: TTS reads it without pauses, so VAD sees one segment
    (a question keeps its final question mark)."""
    end = "?" if "?" in text else "."
    return " ".join(re.sub(r"[,.;:!?\u2014]+", " ", text).split()) + end


def long_answer(item: ActionItem) -> str:
    """A long answer to a lead-in, read in one breath: the gist first (so a later
    repeat shares its words), then detail."""
    gist = item.annotations.reference_response.rstrip("?") or item.topic.replace("_", " ")
    return one_breath(
        f"Sure {gist} and let me walk you through it step by step first we look at what "
        "you already have in place then we check what has changed recently and why it "
        "matters after that we compare the options side by side with their costs and "
        "their risks and finally we agree on the next steps and who takes care of each"
    )


def answer(item: ActionItem) -> str:
    ref = item.annotations.reference_response.strip()
    terms = [t for t in item.annotations.expected_terms[:4] if t.lower() not in ref.lower()]
    base = ref or "I understand what you said and I can help with that right away"
    return one_breath(f"{base} {' '.join(terms)}" if terms else base)


class IdealFloorAgent:
    def __init__(self) -> None:
        self.info: ActionPrivileged | None = None
        self.session: AudioSession | None = None
        self.plan: list[_Say] = []
        self.cue_seen = False

    def start(self, session: AudioSession) -> None:
        if session.session.action is None:
            raise AgentError("ideal-floor runs action items only (it reads their annotations)")
        if session.speech is None:
            raise AgentError("ideal-floor needs the harness's speech kit")
        self.session, self.info = session, session.session.action
        self.plan = self._direct_plan(self.info.item)

    def _direct_plan(self, item: ActionItem) -> list[_Say]:
        ann, user = item.annotations, item.user_span()
        end = user.end_ms if user else item.main_end_ms
        action = item.action
        if action in ("wait", "ignore"):
            return [_Say(end + 400, answer(item))]
        if action == "take_turn":
            name = item.condition.partition(".")[2]
            assert name in TAKE_TURN_WINDOWS and ann.user_end_ms is not None
            return [_Say(ann.user_end_ms + TAKE_TURN_OFFSETS[name], answer(item))]
        if action == "backchannel":
            span = ann.backchannel_span
            assert span is not None
            word = "Hmm?" if item.condition.endswith("uncertainty") else "Mm-hmm."
            at = span.start_ms + (span.end_ms - span.start_ms) // 3
            return [_Say(at, word), _Say(end + 400, answer(item))]
        if action == "interrupt":
            assert ann.target_point_ms is not None
            return [
                _Say(ann.target_point_ms + 300, one_breath(f"Sorry to interrupt {answer(item)}"))
            ]
        return [_Say(item.main_end_ms + 300, long_answer(item))]  # cued: answer the lead-in

    def _cue_plan(self, item: ActionItem, onset: int) -> list[_Say]:
        cue_end = onset + item.cue_duration_ms
        if item.action == "stop":
            return [_Say(onset, "", cancel_first=True), _Say(cue_end + 400, answer(item))]
        if item.action == "recover":
            return [_Say(onset, "", cancel_first=True), _Say(cue_end + 400, answer(item))]
        # hold the floor through the cue, then switch without a pause to the adapted
        # line (the reference: shorter, simpler, or the thread continued)
        return [_Say(cue_end, answer(item), cancel_first=True)]

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        assert self.info is not None and self.session is not None
        onset = self.info.cue_onset()
        if onset is not None and not self.cue_seen:
            self.cue_seen = True
            self.plan = [s for s in self.plan if s.at_ms < onset] + self._cue_plan(
                self.info.item, onset
            )
        events: list[AgentEvent] = []
        while self.plan and self.plan[0].at_ms <= frame.t_ms:
            say = self.plan.pop(0)
            if say.cancel_first:
                events.append(SpeechCancelled())
            if say.text:
                assert self.session.speech is not None
                audio = self.session.speech.synthesize(say.text)
                events += [TranscriptDelta(say.text), AudioDelta(audio, SAMPLE_RATE)]
                events.append(ResponseDone())
        return events

    def close(self) -> None:
        self.session = None
