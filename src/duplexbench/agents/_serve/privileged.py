"""Privileged test agents (`ideal-floor`) behind `serve-agent --suite`.

In process, the harness hands a privileged agent the action item and the
moment its cue was placed (`ActionPrivileged`). Over the Realtime protocol
neither exists, so `serve-agent` rebuilds them from what reaches it:

- the item: the client names it in `session.tracing.metadata.duplexbench_item`
  (the `openai-realtime` adapter's `episode_metadata=on`, for this use only)
  and the server looks it up in the suite it was started with;
- the cue onset: the first frame with sound after the lead-in has ended and
  `QUIET_MS` of silence followed it (the lead-in's last clip may ring on past
  its annotated end). In the clean condition the replayed user channel is
  digital silence between segments, so that sound is the cue. It is heard
  where it starts to sound (a clip's leading silence later than the harness
  placed it), which is what a real agent could know too.

This exists to check that a network agent's replay gives the verdicts of the
same agent in process (docs/actions.md, "Network agents"); an agent under
test must never get the item id.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from duplexbench.agents._protocol import ActionPrivileged, AgentError, AgentSession
from duplexbench.audio import AudioFrame
from duplexbench.items import ActionItem

SOUND_LEVEL = 64
"""Peak sample value above which a frame holds sound (-54 dBFS)."""
QUIET_MS = 200
"""Silence after the lead-in before a sound counts as the cue (the rule controller places
the cue at least 1.5 s into the agent's answer, so no cue is missed)."""


class HeardCue:
    """The cue's onset as heard (module docstring)."""

    def __init__(self, lead_in_end_ms: int) -> None:
        self.after_ms = lead_in_end_ms
        self.quiet_ms = 0
        self.onset: int | None = None

    def hear(self, frame: AudioFrame) -> None:
        if self.onset is not None or frame.t_ms < self.after_ms:
            return
        sound = len(frame.samples) and int(np.abs(frame.samples).max()) > SOUND_LEVEL
        if not sound:
            self.quiet_ms += len(frame.samples) * 1000 // frame.sample_rate
        elif self.quiet_ms >= QUIET_MS:
            self.onset = frame.t_ms

    def __call__(self) -> int | None:
        return self.onset


def served_session(
    base: AgentSession, items: Mapping[str, ActionItem], item_id: str | None
) -> tuple[AgentSession, HeardCue | None]:
    """The session of a privileged agent: `base` with its action item and heard cue.

    AgentError when the client named no item or one the suite does not hold.
    """
    if item_id is None:
        raise AgentError(
            "a privileged agent needs the episode's item: connect with episode_metadata=on"
        )
    item = items.get(item_id)
    if item is None:
        raise AgentError(f"item {item_id!r} is not in the suite serve-agent was started with")
    cue = HeardCue(item.main_end_ms)
    action = ActionPrivileged(item, cue)
    session = AgentSession(base.instructions, base.tools, item_id, base.seed, action=action)
    return session, cue
