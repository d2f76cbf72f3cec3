"""The episode loop on a media clock, and the trace it writes."""

from duplexbench.orchestrator.clock import MediaClock, VirtualClock
from duplexbench.orchestrator.text_loop import (
    EpisodeRecord,
    EpisodeSetup,
    TextChannelConfig,
    TextEpisode,
)

__all__ = [
    "EpisodeRecord",
    "EpisodeSetup",
    "MediaClock",
    "TextChannelConfig",
    "TextEpisode",
    "VirtualClock",
]
