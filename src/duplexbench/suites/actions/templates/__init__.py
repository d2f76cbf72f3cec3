"""Template data of actions-v1, split by action family, gathered here under flat names.

model (shapes, text conventions), conversation (scenarios, topics, shared
phrases), settings (ten physical settings), wait / unfinished (pauses),
turns / ponder / trailing (Take Turn), narration_social / narration_work
(stories), leadins / cued / recover (Stop, Hold Floor, Recover), interrupt
(hazards and help situations). See each module's docstring.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.conversation import (
    ABBREV,
    AGREEING,
    CLOSERS,
    CONTEXT,
    OPENERS,
    QUESTION_OPENERS,
    RESUMES,
    RETURNS,
    TOPICS,
    TRAILING_TAILS,
    WHERE,
)
from duplexbench.suites.actions.templates.cued import (
    FOLLOW_UPS,
    HOLD_CUES,
    HOLD_REPLIES,
    RECOVER_CUES,
    RECOVER_REPLIES,
    STOP_CUES,
    STOP_MORE,
    STOP_REPLIES,
)
from duplexbench.suites.actions.templates.interrupt import DRIVING, HAZARDS, HELP, HOUSEHOLD
from duplexbench.suites.actions.templates.leadins import EXPLAINS
from duplexbench.suites.actions.templates.model import Story
from duplexbench.suites.actions.templates.narration_social import STORIES_SOCIAL
from duplexbench.suites.actions.templates.narration_work import STORIES_WORK
from duplexbench.suites.actions.templates.ponder import PONDER
from duplexbench.suites.actions.templates.recover import REVISIONS
from duplexbench.suites.actions.templates.settings import SETTINGS
from duplexbench.suites.actions.templates.trailing import TRAILING
from duplexbench.suites.actions.templates.turns import QUESTIONS
from duplexbench.suites.actions.templates.unfinished import TWO_PART
from duplexbench.suites.actions.templates.wait import SPLITS

STORIES: dict[str, tuple[Story, ...]] = {**STORIES_SOCIAL, **STORIES_WORK}
"""Per topic (all twenty): narrations."""

__all__ = [
    "ABBREV",
    "AGREEING",
    "CLOSERS",
    "CONTEXT",
    "DRIVING",
    "EXPLAINS",
    "FOLLOW_UPS",
    "HAZARDS",
    "HELP",
    "HOLD_CUES",
    "HOLD_REPLIES",
    "HOUSEHOLD",
    "OPENERS",
    "PONDER",
    "QUESTIONS",
    "QUESTION_OPENERS",
    "RECOVER_CUES",
    "RECOVER_REPLIES",
    "RESUMES",
    "RETURNS",
    "REVISIONS",
    "SETTINGS",
    "SPLITS",
    "STOP_CUES",
    "STOP_MORE",
    "STOP_REPLIES",
    "STORIES",
    "TOPICS",
    "TRAILING",
    "TRAILING_TAILS",
    "TWO_PART",
    "WHERE",
]
