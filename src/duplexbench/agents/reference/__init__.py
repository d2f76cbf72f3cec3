"""The reference agent: an offline cascade (VAD -> ASR -> dialogue manager -> TTS)."""

from duplexbench.agents.reference.dm import ReferenceDialogue

__all__ = ["ReferenceDialogue"]
