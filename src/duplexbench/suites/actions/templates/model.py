"""The shapes of the actions-v1 template data, and its text conventions.

Conventions used throughout the template modules:

- In a reply (what a good agent says), words between asterisks are the
  expected terms: `"Your *discount* ended."` reads "Your discount ended."
  and expects "discount". Marking them in the reply keeps every expected
  term in the reference response by construction.
- In a user text that is spoken as two segments, `" | "` marks the split:
  `"I was charged twice, and I'd like to know if | you can refund it."`.
- Ignored terms are the content words (not in `STOPWORDS`, three letters or
  more) that only the ignored speech contains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STARRED = re.compile(r"\*([^*]+)\*")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_STOP_TEXT = """
    a about after again all also am an and any are as at be been but by can could did do
    does don't for from get go going got had has have he her here hey him his how i i'll
    i'm i've if in into is it it's its just know let let's like me mine my no not now of
    off oh okay on one or our out over please put really right she so some sorry than
    thanks that that's the their them then there these they this those to too up us very
    was we we're well were what when where which while who why will with would yeah yes
    you you're your you'll can't isn't won't didn't doesn't anyone anybody anything
    someone something big bit little lot think whether need want make take give tell
    much many more most other another next still even only such each every back way
    thing again actually maybe always never today good great sure ask there here
"""
STOPWORDS: frozenset[str] = frozenset(_STOP_TEXT.split())
"""Words too common to count as content words."""


def plain(text: str) -> str:
    """The text with the term markers removed."""
    return text.replace("*", "")


def starred(text: str) -> list[str]:
    """The marked terms of a reply, in order, without duplicates."""
    return list(dict.fromkeys(m.strip() for m in _STARRED.findall(text)))


def halves(text: str) -> tuple[str, str]:
    """The two segments of a `" | "`-split user text."""
    head, sep, tail = text.partition(" | ")
    if not sep or not head or not tail or " | " in tail:
        raise ValueError(f"expected exactly one ' | ' split in {text!r}")
    return head, tail


def content_words(text: str) -> list[str]:
    """Lower-case words of `text` outside `STOPWORDS`, possessive "'s" removed."""
    words = (w.removesuffix("'s") for w in _WORD.findall(text.lower()))
    return [w for w in words if len(w) >= 3 and w not in STOPWORDS]


def only_in(distractor: str, *addressed: str) -> list[str]:
    """The content words of `distractor` that none of the `addressed` texts contains."""
    known = {w for text in addressed for w in content_words(text)}
    return list(dict.fromkeys(w for w in content_words(distractor) if w not in known))


@dataclass(frozen=True)
class Line:
    """A user turn and a good reply to it (reply terms starred)."""

    text: str
    reply: str


@dataclass(frozen=True)
class Topic:
    """One topic category of a scenario."""

    key: str
    about: str
    """Completes the scenario's context sentence, e.g. "a billing question"."""
    shift: Line
    """For shift_topic: how a user names this topic, and a reply taking it up."""


@dataclass(frozen=True)
class Story:
    """A short narration, one sentence per segment, with a puzzling aside."""

    sentences: tuple[str, ...]
    reply: str
    """A good reply once the user has finished (terms starred)."""
    puzzle_at: int
    """Where the puzzling sentence goes (0 < puzzle_at < len(sentences))."""
    puzzle: str
    clarify: str
    """An uncertain backchannel plus the later clarifying question (terms starred)."""


@dataclass(frozen=True)
class Explain:
    """A lead-in question that draws a long answer, with that answer's gist."""

    question: str
    gist: str
    """One-clause answer, lower-case start, no final stop (terms starred)."""
    example: str
    """A concrete example sentence (terms starred)."""


@dataclass(frozen=True)
class Revision:
    """A lead-in stating a fact, the user's correction of it, and the revised reply."""

    lead_in: str
    correction: str
    reply: str


@dataclass(frozen=True)
class Setting:
    """A physical setting with speech the agent should not treat as addressed to it."""

    key: str
    where: str
    """Completes "The user is ...", e.g. "in their kitchen"."""
    remarks: tuple[str, ...]
    """Other-directed: the user speaking to someone there (same voice)."""
    chatter: tuple[str, ...]
    """Background: a third party nearby (another voice)."""


@dataclass(frozen=True)
class Situation:
    """An Interrupt situation: a hazard or a mistake the user is heading for."""

    setting: str
    where: str
    before: str
    """What the user is doing, said just before the statement."""
    statement: str
    """The segment that states the hazard or need; its end is the target point."""
    reply: str
    """A good intervention (terms starred)."""
