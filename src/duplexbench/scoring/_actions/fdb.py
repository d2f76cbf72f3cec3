"""Full-Duplex-Bench v1 metrics (docs/actions.md, Scoring) on an action observation.

- Takeover (TOR, 0/1): 0 if the agent produced no words in the task's
  window, or its speech there spans < 1 s with ≤ 3 words; else 1. Our
  reading: the test is applied to each agent turn in the window (segments
  closer than `rules.TURN_GAP_MS` merged, as for Stop) and TOR = 1 when
  any turn is a takeover, so a VAD split does not hide a reply and three
  separate one-word backchannels are not a takeover.
- Turn-taking latency: first agent onset in the window − the reference
  point (end of the user's turn; for user interruption the end of the
  interruption), negative clamped to 0; only when TOR = 1.
- Backchannel frequency: agent segments of 1-3 words starting inside the
  user speech, per second of played addressed (`user`) speech.

Words are counted as everywhere (:mod:`duplexbench.words`): a token needs a
letter or digit, so a spaced dash or a lone `...` is no word.

Which FDB v1 task each action maps to, and its window:

| action | task | window (agent segments) | TOR better |
|---|---|---|---|
| wait, pause conditions | pause_handling | overlapping the pause (`wait_interval`) | lower |
| take_turn | smooth_turn_taking | onset ≥ user end + window start | higher |
| stop, recover | user_interruption | onset ≥ cue onset, outside the turn active at it | higher |
| backchannel | backchannel | overlapping the played user speech | lower |

`wait.continuous_speech`, ignore, hold_floor and interrupt have no FDB v1
counterpart (empty dict). The latency of user interruption is measured
from the cue end.
"""

from __future__ import annotations

from collections.abc import Sequence

from duplexbench.scoring._actions.observation import (
    BACKCHANNEL_MAX_WORDS,
    ActionObservation,
    AgentSegment,
)
from duplexbench.scoring._actions.rules import agent_sorted, overlaps, turn_at, turns

TOR_MIN_SPAN_MS = 1000
"""Speech spanning less than this with ≤ 3 words is not a takeover."""

FdbMetrics = dict[str, float | int | str | None]

TOR_BETTER: dict[str, str] = {
    "pause_handling": "lower",
    "smooth_turn_taking": "higher",
    "user_interruption": "higher",
    "backchannel": "lower",
}


def takeover(segments: Sequence[AgentSegment]) -> int:
    """FDB v1 TOR of the agent speech in a window: 1 if any turn in it takes over."""
    for start, end in turns(segments):
        words = sum(s.n_words for s in segments if start <= s.start_ms < end)
        if words > BACKCHANNEL_MAX_WORDS or (words > 0 and end - start >= TOR_MIN_SPAN_MS):
            return 1
    return 0


def _latency(segments: Sequence[AgentSegment], reference_ms: int) -> int | None:
    if not takeover(segments):
        return None
    first = min(s.start_ms for s in segments if s.n_words)
    return max(0, first - reference_ms)


def fdb_metrics(obs: ActionObservation) -> FdbMetrics:
    """The FDB v1 task this observation maps to and its metrics ({} when none)."""
    item, ann, agent = obs.item, obs.item.annotations, agent_sorted(obs)
    if item.action == "wait" and item.condition != "wait.continuous_speech":
        if ann.wait_interval is None:
            return {}
        span = ann.wait_interval
        window = [s for s in agent if overlaps(s, span.start_ms, span.end_ms)]
        return {"task": "pause_handling", "tor": takeover(window)}
    if item.action == "take_turn":
        if ann.user_end_ms is None or ann.response_window is None:
            return {}
        lo = ann.user_end_ms + ann.response_window[0]
        window = [s for s in agent if s.start_ms >= lo]
        return {
            "task": "smooth_turn_taking",
            "tor": takeover(window),
            "latency_ms": _latency(window, ann.user_end_ms),
        }
    if item.action in ("stop", "recover"):
        return _interruption(obs, agent)
    if item.action == "backchannel":
        return _backchannel(obs, agent)
    return {}


def _interruption(obs: ActionObservation, agent: list[AgentSegment]) -> FdbMetrics:
    cue = obs.cue
    if cue is None:
        return {}
    active = turn_at(agent, cue.start_ms)
    window = [
        s
        for s in agent
        if s.start_ms >= cue.start_ms
        and (active is None or not active[0] <= s.start_ms < active[1])
    ]
    return {
        "task": "user_interruption",
        "tor": takeover(window),
        "latency_ms": _latency(window, cue.end_ms),
    }


def _backchannel(obs: ActionObservation, agent: list[AgentSegment]) -> FdbMetrics:
    users = [u for u in obs.user if u.role == "user"]
    if not users:
        return {}
    lo, hi = min(u.start_ms for u in users), max(u.end_ms for u in users)
    seconds = sum(u.end_ms - u.start_ms for u in users) / 1000
    short = [s for s in agent if 1 <= s.n_words <= BACKCHANNEL_MAX_WORDS and lo <= s.start_ms <= hi]
    window = [s for s in agent if overlaps(s, lo, hi)]
    return {
        "task": "backchannel",
        "tor": takeover(window),
        "backchannel_per_s": round(len(short) / seconds, 6) if seconds > 0 else None,
    }
