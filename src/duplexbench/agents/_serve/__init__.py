"""`serve-agent`: a local audio agent (a `StepAgent`) behind the OpenAI Realtime protocol.

- `server.py` — `RealtimeServer` and `ServeConfig`: the WebSocket server, one
  session (a fresh agent on a virtual timeline) per connection;
- `session_settings.py` — `session.update` in the GA or beta shape, and the session
  object sent back;
- `response_events.py` — agent events -> a response's server events;
- `conversation_items.py` — the conversation's items and their events;
- `input_transcription.py` — input audio transcription by the agent's own ASR;
- `session_stats.py` — `SessionStats`, what one connection did (the session log);
- `privileged.py` — the action item and heard cue onset for a privileged test
  agent (`serve-agent --suite`).

It speaks the wire protocol of `_providers/openai_realtime_protocol.py` and sends
through the `Outbox` of `_providers/transport.py`: `_serve/` depends on
`_providers/`, never the other way round.
"""

from __future__ import annotations

from duplexbench.agents._serve.server import RealtimeServer, ServeConfig, is_loopback
from duplexbench.agents._serve.session_stats import SessionStats

__all__ = ["RealtimeServer", "ServeConfig", "SessionStats", "is_loopback"]
