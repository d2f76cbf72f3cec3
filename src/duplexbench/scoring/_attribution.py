"""Failure attribution: one cause for every wrong or missing graded field, from the trace.

A field is wrong when its score is below 1 (`fields.field_correct`). Its gold
comes from the caller when `gold.provenance` says `user:<fact>` (or
`judged:<facts>`), or, without a recorded provenance, from the fact version
linked to the field (`Fact.field`) whose value is the gold (else the latest of
its `supersedes` chain). "The caller said it" is a `fact.revealed` event for
that version (every fact of a `judged:` list); a value said again after a
repair request is still that one reveal. Then:

- `never_asked`: the caller never said it, and no agent sentence of the call
  was a question the observer left unmatched;
- `asked_not_understood`: the caller never said it, and some agent sentence
  was a question or request by the observer's cues in which it read no act
  (`agent.utterance.unmatched_questions`, recorded at run time). The trace
  holds only the observer's reading, not which slot such a question was about,
  so this is an upper bound on the simulator's share;
- `misheard` (audio channel only): the caller said it and the written value is
  close to what was spoken (`misheard`);
- `wrong_write`: the caller said it and the written value is wrong for another
  reason: the agent's logic (a stale value kept after a correction too);
- `not_written`: the caller said it and nothing was written;
- `unsupported`: the grader accepts the value, but it was written before any
  source of it (`provenance.py`): a guess or a leak, counted wrong.

A gold the caller never holds (`database:`, `knowledge:`, `computed:`, or a field
no fact fills) was the agent's to look up: missing is `not_written`, wrong is
`wrong_write`. docs/metrics.md, "Failure attribution", has the examples.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, get_args

from duplexbench.items import ArtifactField, Fact, WorkflowItem
from duplexbench.scoring._fields import Cause, FieldScore
from duplexbench.scoring._view import EpisodeView
from duplexbench.trace import AgentUtterance, EpisodeStart
from duplexbench.values import is_empty, value_to_text, values_match
from duplexbench.words import edits

CAUSES: tuple[Cause, ...] = get_args(Cause)
SIMULATOR_CAUSE: Cause = "asked_not_understood"
MISHEARD_MAX_DISTANCE = 0.4
"""A written value at most this normalized edit distance from what the caller said
(the fact's value or its spoken form) is misheard ("Hannah DeLackwall" for "Hannah
Delacroix": 0.31; "Fatima Castellanos" for "Summit Learning": 0.82 is not)."""
_SEPARATORS = re.compile(r"[\W_]+")


# ---------------------------------------------------------------- closeness


def _plain(text: str) -> str:
    """Casefolded, accents dropped ("Quiñones" -> "quinones")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalized(text: str) -> str:
    """Letters and digits only, casefolded, accents dropped: "EG-5636-AL" -> "eg5636al"."""
    return "".join(c for c in _plain(text) if c.isalnum())


def _words(text: str) -> list[str]:
    return [w for w in _SEPARATORS.split(_plain(text)) if w]


def distance(written: str, said: str) -> float:
    """Edits between the two normalized texts over the longer one's length (0.0: equal)."""
    a, b = normalized(written), normalized(said)
    longest = max(len(a), len(b))
    if not longest:
        return 0.0
    if abs(len(a) - len(b)) / longest > MISHEARD_MAX_DISTANCE:
        return 1.0  # too far whatever the edits: skip the quadratic count
    return edits(a, b) / longest


def value_text(value: Any) -> str:
    """A value as the caller would say it: list elements joined with ", "."""
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v) for v in value)
    return value_to_text(value)


def heard_intact(written: str, said: Sequence[str]) -> bool:
    """Every word of one form the caller said is in the written value, in order and
    whole (or the letters and digits are the same): the value was heard, and the agent
    wrote it wrong (filler words kept, a spoken form such as "m dot okafor" not turned
    into an address)."""
    got = _words(written)
    for form in said:
        want = _words(form)
        if normalized(written) == normalized(form) != "":
            return True
        if want and any(got[i : i + len(want)] == want for i in range(len(got) - len(want) + 1)):
            return True
    return False


def misheard(written: Any, fact: Fact, others: set[str]) -> bool:
    """The written value is close to what the caller said (`MISHEARD_MAX_DISTANCE`), is
    not what was said with words around it, and is not another real value (an option,
    another fact's or field's value: a wrong pick, not a mishearing)."""
    text = value_text(written)
    said = (value_text(fact.value), fact.spoken)
    if heard_intact(text, said) or normalized(text) in others:
        return False
    return min(distance(text, form) for form in said) <= MISHEARD_MAX_DISTANCE


# ---------------------------------------------------------------- where the gold comes from


@dataclass(frozen=True)
class GoldSource:
    """The fact versions whose reveal means the caller said the gold (none: the gold is
    not the caller's), and the one dictated fact a mishearing compares with."""

    facts: tuple[str, ...]
    spoken: Fact | None


def gold_version(item: WorkflowItem, ref: str, spec: ArtifactField) -> Fact | None:
    """The fact version linked to `ref` that holds its gold (the latest such), else the
    latest version of the chain; None when no fact fills the field."""
    linked = [f for f in item.user.facts if f.field == ref]
    grader = spec.grader_spec()
    holding = [f for f in linked if values_match(grader, f.value, spec.gold)]
    superseded = {f.supersedes for f in linked}
    latest = [f for f in linked if f.id not in superseded]
    found = holding or latest or linked
    return found[-1] if found else None


def gold_source(item: WorkflowItem, ref: str, spec: ArtifactField) -> GoldSource:
    recorded = item.gold.provenance.get(ref)
    if recorded is None:
        fact = gold_version(item, ref, spec)
        return GoldSource((fact.id,), fact) if fact is not None else GoldSource((), None)
    kind, _, rest = recorded.partition(":")
    if kind == "user":
        return GoldSource((rest,), item.user.fact(rest))
    if kind == "judged":  # an assessment from what the caller said: never dictated
        return GoldSource(tuple(f.strip() for f in rest.split(",") if f.strip()), None)
    return GoldSource((), None)  # database, knowledge, computed: the agent's to look up


def other_values(item: WorkflowItem, ref: str, spec: ArtifactField, gold: Fact) -> set[str]:
    """Normalized values that are real values of something else: the field's other
    options, the caller's other facts (value and spoken form), other fields' golds."""
    texts = [value_text(f.value) for f in item.user.facts if f.id != gold.id]
    texts += [f.spoken for f in item.user.facts if f.id != gold.id]
    texts += [
        value_text(s.gold)
        for a in item.artifacts
        for s in a.fields
        if s.graded and f"{a.id}.{s.name}" != ref
    ]
    options = spec.grader_options.get("values") if spec.grader == "enum" else None
    texts += [value_text(o) for o in options] if isinstance(options, list) else []
    own = {normalized(value_text(gold.value)), normalized(gold.spoken), ""}
    return {normalized(t) for t in texts} - own


# ---------------------------------------------------------------- causes


def unmatched_questions(view: EpisodeView) -> list[str]:
    """Agent sentences the observer heard as questions and matched to nothing."""
    return [
        q for e in view.events if isinstance(e, AgentUtterance) for q in e.data.unmatched_questions
    ]


def is_audio(view: EpisodeView) -> bool:
    first = view.events[0] if view.events else None
    return isinstance(first, EpisodeStart) and first.data.channel == "audio"


def field_cause(view: EpisodeView, field: FieldScore, spec: ArtifactField, asked: bool) -> Cause:
    """The cause of one wrong field (`asked`: some question went unmatched)."""
    if field.unsupported:
        return "unsupported"
    ref = f"{field.artifact}.{field.field}"
    source = gold_source(view.item, ref, spec)
    if not all(fact in view.revealed for fact in source.facts):
        return SIMULATOR_CAUSE if asked else "never_asked"
    if is_empty(field.predicted):
        return "not_written"
    fact = source.spoken
    if fact is None or field.stale or not is_audio(view):  # nothing dictated, kept, or text
        return "wrong_write"
    others = other_values(view.item, ref, spec, fact)
    return "misheard" if misheard(field.predicted, fact, others) else "wrong_write"


def attribute(view: EpisodeView, fields: Sequence[FieldScore]) -> list[FieldScore]:
    """The fields, each wrong one with its cause set (correct ones keep None)."""
    specs = {(a.id, s.name): s for a in view.item.artifacts for s in a.fields}
    asked = bool(unmatched_questions(view))
    out = []
    for field in fields:
        spec = specs.get((field.artifact, field.field))
        if field.correct or spec is None:
            out.append(field)
            continue
        out.append(field.model_copy(update={"cause": field_cause(view, field, spec, asked)}))
    return out


def attribution_block(causes: Iterable[str | None], audio: bool) -> dict[str, Any] | None:
    """Counts and shares of the causes of a run's wrong fields; `misheard` only on the
    audio channel; `simulator_share` is the `asked_not_understood` share (a validity
    figure: an upper bound on the wrong fields the simulated caller is to blame for).
    None when a wrong field has no cause (scored before attribution was recorded)."""
    counts: dict[str, int] = {c: 0 for c in CAUSES if audio or c != "misheard"}
    for cause in causes:
        if cause is None:
            return None
        counts[cause] = counts.get(cause, 0) + 1
    total = sum(counts.values())
    shares = {c: round(n / total, 6) if total else None for c, n in counts.items()}
    return {
        "counts": counts,
        "shares": shares,
        "wrong_fields": total,
        "simulator_share": shares[SIMULATOR_CAUSE],
    }
