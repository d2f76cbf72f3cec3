"""The reference agent: an offline cascade (VAD -> ASR -> dialogue manager -> TTS)."""

from duplexbench.agents._reference.dm import ReferenceDialogue

VERSION = 4
"""The reference agent's version, bumped whenever what it hears, decides or says
changes (its results before and after are not comparable; docs/agents.md):
1, the first release; 2, whisper encodes only what was said, not a padded 30 s
window (docs/audio.md); 3, after a correction in the read-back only what changed is
read back again, not every field (docs/agents.md); 4, takes notes as a person does
(the shared readers of `agents/_notes/`: fillers, side speech, its own question and
hedges left out, spoken emails and codes written, numbers with their scale, dates and
phones typed by their names), time intervals known by their schema, a looked-up value
from its own keyed table, a hold with a correction asked again, and the changes to a
database record collected and applied with the approval (docs/agents.md)."""

__all__ = ["VERSION", "ReferenceDialogue"]
