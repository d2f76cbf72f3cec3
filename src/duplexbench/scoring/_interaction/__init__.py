"""τ-Voice voice-interaction metrics on a neutral speech timeline."""

from duplexbench.scoring._interaction.linearize import Message, linearize
from duplexbench.scoring._interaction.metrics import interaction_metrics
from duplexbench.scoring._interaction.tau2 import (
    experiment_metrics,
    read_experiment,
    read_simulation,
    ticks_to_timeline,
)
from duplexbench.scoring._interaction.timeline import (
    InteractionTimeline,
    Segment,
    classify_user_segment,
    drop_call_end_artifact,
    make_timeline,
)

__all__ = [
    "InteractionTimeline",
    "Message",
    "Segment",
    "classify_user_segment",
    "drop_call_end_artifact",
    "experiment_metrics",
    "interaction_metrics",
    "linearize",
    "make_timeline",
    "read_experiment",
    "read_simulation",
    "ticks_to_timeline",
]
