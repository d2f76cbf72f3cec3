"""The one frame loop: every audio episode, any agent, either item family.

Each frame [t, t+F): the clock lets media time reach t (a `VirtualClock` at
once, a `RealtimeClock` when the wall clock gets there), the episode side
delivers both channels for the frame and returns what the agent receives,
the agent exchanges that frame for its events (the tool results made since
its last frame go with it), the side handles the events at t+F and then
decides what happens next (the user reacts, a cue is placed, the call ends).

Two seams keep it one loop:

- :class:`AgentLink` is how the loop talks to an agent. A step agent's link
  calls `step` in line; a streaming agent's link sends the results and the
  frame and polls what has arrived, each call bounded by the watchdog.
- :class:`EpisodeSide` is the user's side and the trace: the reactive user
  of a workflow (`audio_loop.AudioEpisode`) or the replayed timeline of an
  action item (`replay_loop.ActionEpisode`).

A step agent on a virtual clock never waits, so its episode runs without an
event loop (the coroutine is driven in line: no asyncio cost per frame, and a
step agent may itself call `asyncio.run`); anything else runs under
`asyncio.run`. Both write the same trace (tests/orchestrator/test_streaming.py).
"""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from typing import Any, Protocol, TypeVar

from duplexbench.agents import (
    AgentEvent,
    AudioSession,
    StepAgent,
    StreamingAgent,
    ToolResultMessage,
)
from duplexbench.audio import AudioFrame, Int16Array
from duplexbench.orchestrator._blame import agent_code
from duplexbench.orchestrator._clock import MediaClock, RealtimeClock, VirtualClock
from duplexbench.orchestrator._watchdog import FAULTS, bounded, kick
from duplexbench.trace import EndReason

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class EndEpisode(Exception):
    """Raised by an episode side inside the loop to end the call with a reason."""

    def __init__(self, reason: EndReason) -> None:
        self.reason = reason


class AgentLink(Protocol):
    """The loop's one seam to an agent."""

    inline: bool
    """True when no call ever waits (a step agent): the episode can run without an event loop."""

    async def start(self, session: AudioSession) -> None: ...

    async def exchange(
        self, frame: AudioFrame, results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        """Give the agent one frame (and the tool results since the last); its events."""
        ...

    async def close(self) -> None: ...


class StepLink:
    """A step agent: `step` is called in line, once per frame."""

    inline = True

    def __init__(self, agent: StepAgent) -> None:
        self.agent = agent

    async def start(self, session: AudioSession) -> None:
        self.agent.start(session)

    async def exchange(
        self, frame: AudioFrame, results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        return self.agent.step(frame, results)

    async def close(self) -> None:
        self.agent.close()


class StreamLink:
    """A streaming (network) agent: results and audio are sent as they are made,
    the events received so far are polled; every call is bounded by the watchdog."""

    inline = False

    def __init__(self, agent: StreamingAgent) -> None:
        self.agent = agent

    async def start(self, session: AudioSession) -> None:
        await bounded(self.agent.connect(session), "connect")

    async def exchange(
        self, frame: AudioFrame, results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        for result in results:
            await bounded(self.agent.send_tool_result(result), "send_tool_result")
        await bounded(self.agent.send_audio(frame), "send_audio")
        return self.agent.poll()

    async def close(self) -> None:
        await bounded(self.agent.close(), "close")


def link_for(agent: StepAgent | StreamingAgent) -> AgentLink:
    """The link for either kind of audio agent."""
    if isinstance(agent, StepAgent):
        return StepLink(agent)
    return StreamLink(agent)


def default_clock(link: AgentLink) -> MediaClock:
    """A step agent runs on a virtual clock, a streaming one at wall-clock speed."""
    return VirtualClock() if link.inline else RealtimeClock()


class EpisodeSide(Protocol[R_co]):
    """The user's side of the loop and the trace it writes (module docstring)."""

    hung_up: bool
    """The agent ended the call: it gets no more frames."""

    @property
    def now(self) -> int:
        """Media time (ms) of the next frame."""
        ...

    def open(self) -> AudioSession:
        """Log the episode's start; the session the agent starts with."""
        ...

    def begin(self) -> None:
        """The user's first move, once the agent has started (an opening line, a lead-in)."""
        ...

    def running(self) -> bool:
        """Another frame is due (else the call ran out of time: `out_of_time`)."""
        ...

    @property
    def out_of_time(self) -> EndReason: ...

    def frame(self, t: int) -> Int16Array:
        """Deliver both channels for the frame at `t`; the samples the agent receives."""
        ...

    def take_results(self) -> Sequence[ToolResultMessage]: ...

    def handle(self, events: Sequence[AgentEvent], t: int) -> None:
        """The agent's events, at media time `t` (the end of the frame it heard)."""
        ...

    def after_frame(self) -> EndReason | None:
        """Limits and the user's next move; a reason ends the call (or raise EndEpisode)."""
        ...

    def failed(self, exc: BaseException) -> str:
        """Log the fault that ends the episode and note whose it is; its message."""
        ...

    def log_error(self, message: str, where: str) -> None:
        """Log a fault that does not end the episode (e.g. the agent's close)."""
        ...

    def finish(self, reason: EndReason, error: str | None) -> R_co:
        """After the call: flush what the agent queued, close the trace; the record."""
        ...


def play(side: EpisodeSide[R], link: AgentLink, clock: MediaClock) -> R:
    """Run one episode to its end; its record."""
    episode = _play(side, link, clock)
    if link.inline and not clock.paced:
        return _run_inline(episode)
    import asyncio  # noqa: PLC0415 - only paced or streaming episodes need an event loop

    return asyncio.run(episode)


def _run_inline(episode: Coroutine[Any, Any, R]) -> R:
    try:
        episode.send(None)
    except StopIteration as done:
        value: R = done.value  # StopIteration.value is Any: the coroutine's result
        return value
    episode.close()
    raise RuntimeError("an in-line episode awaited something: only a paced clock or agent may")


async def _play(side: EpisodeSide[R], link: AgentLink, clock: MediaClock) -> R:
    session = side.open()
    error: str | None = None
    reason: EndReason = side.out_of_time
    try:
        with agent_code():  # a connection that never opened is the harness's (blame.py)
            await link.start(session)
        side.begin()
        reason = await _frames(side, link, clock)
    except EndEpisode as ended:
        reason = ended.reason
    except FAULTS as exc:  # the agent's fault fails the episode, the harness's is retried
        error = side.failed(exc)
        reason = "error"
    finally:
        try:
            await link.close()
        except FAULTS as exc:
            side.log_error(f"{type(exc).__name__}: {exc}", "agent.close")
    return side.finish(reason, error)


async def _frames(side: EpisodeSide[R], link: AgentLink, clock: MediaClock) -> EndReason:
    while side.running():
        t = side.now
        await clock.wait_until(t)
        sent = side.frame(t)
        if not side.hung_up:
            results = side.take_results()
            with agent_code():
                events = await link.exchange(AudioFrame(t, sent), results)
            side.handle(events, side.now)
        reason = side.after_frame()
        if reason is not None:
            return reason
        kick()
    return side.out_of_time
