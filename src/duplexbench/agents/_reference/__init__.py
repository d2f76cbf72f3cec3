"""The reference agent: an offline cascade (VAD -> ASR -> dialogue manager -> TTS)."""

from duplexbench.agents._reference.dm import ReferenceDialogue

VERSION = 3
"""The reference agent's version, bumped whenever what it hears, decides or says
changes (its results before and after are not comparable; docs/agents.md):
1, the first release; 2, whisper encodes only what was said, not a padded 30 s
window (docs/audio.md); 3, after a correction in the read-back only what changed is
read back again, not every field (docs/agents.md)."""

__all__ = ["VERSION", "ReferenceDialogue"]
