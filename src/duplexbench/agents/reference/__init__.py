"""The reference agent: an offline cascade (VAD -> ASR -> dialogue manager -> TTS)."""

from duplexbench.agents.reference.dm import ReferenceDialogue

VERSION = 2
"""The reference agent's version, bumped whenever what it hears, decides or says
changes (its results before and after are not comparable; docs/agents.md):
1, the first release; 2, whisper encodes only what was said, not a padded 30 s
window (docs/audio.md)."""

__all__ = ["VERSION", "ReferenceDialogue"]
