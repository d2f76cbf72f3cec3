"""The audio loop for streaming (network) agents, paced by a RealtimeClock.

Same per-frame logic and the same trace as `AudioEpisode`: each frame is sent
when its media time comes, tool results are sent back as they are made, and
the events received so far are handled at that frame's media time.
"""

from __future__ import annotations

import asyncio

from duplexbench.agents.audio_builtin import SilentAgent
from duplexbench.agents.audio_protocol import StreamingAgent
from duplexbench.audio.frames import AudioFrame
from duplexbench.orchestrator.audio_loop import AudioChannelConfig, AudioEpisode, EndEpisode
from duplexbench.orchestrator.blame import agent_code
from duplexbench.orchestrator.clock import RealtimeClock
from duplexbench.orchestrator.episode import EpisodeRecord, EpisodeSetup
from duplexbench.orchestrator.watchdog import FAULTS, bounded, kick
from duplexbench.speech.bank import SpeechBank
from duplexbench.trace.events import EndReason


class StreamingEpisode(AudioEpisode):
    def __init__(
        self,
        setup: EpisodeSetup,
        agent: StreamingAgent,
        bank: SpeechBank,
        *,
        clock: RealtimeClock,
        privileged: bool = False,
        config: AudioChannelConfig | None = None,
    ) -> None:
        super().__init__(setup, SilentAgent(), bank, privileged=privileged, config=config)
        self.stream = agent
        self.realtime = clock

    def run(self) -> EpisodeRecord:
        return asyncio.run(self._arun())

    async def _arun(self) -> EpisodeRecord:
        session = self.audio_session()
        self.emit_start(session.session, "audio")
        error: str | None = None
        reason: EndReason = "time_limit"
        try:
            with agent_code():  # a connection that never opened is the harness's (blame.py)
                await bounded(self.stream.connect(session), "connect")
            self._say(self.policy.opening(), 0)
            reason = await self._aloop()
        except EndEpisode as ended:
            reason = ended.reason
        except FAULTS as exc:  # the agent's fault fails the episode, the harness's is retried
            error = self.failed(exc)
            reason = "error"
        finally:
            try:
                await bounded(self.stream.close(), "close")
            except FAULTS as exc:
                self.emit_error(self.now, f"{type(exc).__name__}: {exc}", "agent.close")
        return self.finish(reason, error)

    async def _aloop(self) -> EndReason:
        while self.now < self.config.time_limit_ms:
            t = self.now
            await self.realtime.wait_until(t)
            user, sent = self.user_frame(t)
            self._deliver(user, self.playback.pull(self.n, t), t)
            if not self.hung_up:
                with agent_code():
                    for result in self._take_results():
                        await bounded(self.stream.send_tool_result(result), "send_tool_result")
                    await bounded(self.stream.send_audio(AudioFrame(t, sent)), "send_audio")
                    events = self.stream.poll()
                self._handle(events, self.now)
            reason = self._after_frame()
            if reason is not None:
                return reason
            kick()
        return "time_limit"
