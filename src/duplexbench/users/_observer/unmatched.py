"""A question the caller did not understand: recorded at run time for failure attribution.

The scorer attributes a field the caller never gave to `asked_not_understood` when
an agent sentence was a question or a request by the observer's own cues
(`cues.is_question`, `cues.is_request`) and the observer read no act in it (or
only `OTHER`): the caller heard a question and matched it to no slot. The scorer
cannot import the observer (docs/architecture.md, layers), so the loops record
these sentences in `agent.utterance.unmatched_questions` (docs/metrics.md,
"Failure attribution").
"""

from __future__ import annotations

from collections.abc import Sequence

from duplexbench.users._observer.cues import is_question, is_request

NO_ACT = "OTHER"


def asks(raw: str) -> bool:
    """A question or a request for information, by the observer's cues."""
    return is_question(raw) or is_request(raw)


def unmatched_question(raw: str, acts: Sequence[str]) -> bool:
    """`raw` (one sentence) asks or requests, and the observer read no act in it
    (`acts`, what it read for that sentence: empty, or only `OTHER`)."""
    return all(act == NO_ACT for act in acts) and asks(raw)
