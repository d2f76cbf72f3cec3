"""The episode loop on a media clock, and the trace it writes."""

from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode, BankSpeech
from duplexbench.orchestrator._caller_line import recordings
from duplexbench.orchestrator._clock import MediaClock, RealtimeClock, VirtualClock
from duplexbench.orchestrator._human_loop import (
    HUMAN_CONDITION,
    CallerGone,
    CallerPhone,
    HumanCallConfig,
    HumanEpisode,
)
from duplexbench.orchestrator._replay import ActionRecord, ActionSetup, ReplayConfig
from duplexbench.orchestrator._replay_caller import applies_to_replays
from duplexbench.orchestrator._replay_loop import ActionEpisode
from duplexbench.orchestrator._text_loop import (
    EpisodeRecord,
    EpisodeSetup,
    TextChannelConfig,
    TextEpisode,
)
from duplexbench.orchestrator._watchdog import DEFAULT_STALL_S, FAULTS, kick, watchdog

__all__ = [
    "DEFAULT_STALL_S",
    "FAULTS",
    "HUMAN_CONDITION",
    "ActionEpisode",
    "ActionRecord",
    "ActionSetup",
    "AudioChannelConfig",
    "AudioEpisode",
    "BankSpeech",
    "CallerGone",
    "CallerPhone",
    "EpisodeRecord",
    "EpisodeSetup",
    "HumanCallConfig",
    "HumanEpisode",
    "MediaClock",
    "RealtimeClock",
    "ReplayConfig",
    "TextChannelConfig",
    "TextEpisode",
    "VirtualClock",
    "applies_to_replays",
    "kick",
    "recordings",
    "watchdog",
]
