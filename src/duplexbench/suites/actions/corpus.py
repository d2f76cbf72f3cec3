"""Conversation corpora: word-timed transcripts that action items are extracted from.

A corpus is a list of conversations; a conversation is a list of words, each
with its speaker label and exact start/end ms (see docs/formats/corpus.md).
JSON holds one corpus object; JSONL holds one conversation object a line.
Loading reports every problem with the file, the line (JSONL) and the path;
files above :data:`MAX_CORPUS_BYTES` are refused before parsing.

:func:`utterances` groups a speaker's words into utterances (a gap of at
most :data:`UTTERANCE_GAP_MS` keeps an utterance going) and :func:`split_floor`
separates floor-holding utterances from those that lie inside another
speaker's utterance (backchannels and other short overlaps). The text rules
:func:`sentence_final` and :func:`backchannel_function` read word text for the
Wait and Backchannel filters.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from duplexbench.files import UnsafeFileError, read_limited
from duplexbench.items import Identifier, ItemError, Problem, Scenario, format_loc
from duplexbench.words import count_words

CORPUS_FORMAT_VERSION: Literal["1"] = "1"
SENTENCE_FINAL = (".", "?", "!")
_AFFIRMATIVE = """yeah yes yep yup ya uh-huh uhhuh mhm mm-hmm mmhmm mm-hm mmhm mm right okay ok
sure exactly true cool great nice see oh ah wow totally absolutely definitely gotcha alright
indeed agreed correct"""
AFFIRMATIVE = frozenset(_AFFIRMATIVE.split())
_UNCERTAIN, _FILLER = (
    "hmm hm huh really pardon sorry what maybe dunno not unsure eh",
    "i i'm im uh um that's thats is it so well",
)
UNCERTAIN, FILLER = frozenset(_UNCERTAIN.split()), frozenset(_FILLER.split())
"""Backchannel lexicon: a listener utterance is a backchannel only if every word is in
AFFIRMATIVE, UNCERTAIN or FILLER and one is in the first two; it is `uncertainty`
when it contains a `?` or an UNCERTAIN word, else `affirmative`."""

MAX_CORPUS_BYTES = 128 * 1024 * 1024
"""A corpus file (about 1.5 million timed words); larger corpora go in several files."""
UTTERANCE_GAP_MS = 1000
"""Words of one speaker at most this far apart belong to one utterance (so the
longest Wait pause, 1.0 s, never splits an utterance)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Word(_Frozen):
    """One spoken word with its exact timing (integer ms from the conversation start)."""

    speaker: str = Field(min_length=1, max_length=40)
    text: str = Field(min_length=1, pattern=r"\S")
    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Word:
        if self.end_ms < self.start_ms:
            raise ValueError(f"end_ms {self.end_ms} is before start_ms {self.start_ms}")
        return self


class Conversation(_Frozen):
    """One recorded conversation; words may come in any order, one speaker never overlaps."""

    id: Identifier
    scenario: Scenario = "casual_conversation"
    topic: str | None = Field(None, min_length=1)
    words: list[Word] = Field(min_length=1)

    @model_validator(mode="after")
    def _no_self_overlap(self) -> Conversation:
        order = sorted(range(len(self.words)), key=lambda i: _word_key(self.words[i]))
        last: dict[str, int] = {}
        for i in order:
            word = self.words[i]
            j = last.get(word.speaker)
            if j is not None and word.start_ms < self.words[j].end_ms:
                raise ValueError(
                    f"words[{i}] ({word.speaker}, {word.start_ms} ms) starts before "
                    f"words[{j}] of the same speaker ends ({self.words[j].end_ms} ms)"
                )
            last[word.speaker] = i
        return self

    def sorted_words(self) -> list[Word]:
        return sorted(self.words, key=_word_key)

    def speakers(self) -> list[str]:
        return sorted({w.speaker for w in self.words})


class Corpus(_Frozen):
    """A named set of conversations with unique ids."""

    format: Literal["1"] = CORPUS_FORMAT_VERSION
    name: Identifier = "corpus"
    conversations: list[Conversation] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> Corpus:
        seen: set[str] = set()
        for i, conversation in enumerate(self.conversations):
            if conversation.id in seen:
                raise ValueError(f"conversations[{i}]: duplicate id {conversation.id!r}")
            seen.add(conversation.id)
        return self


def _word_key(word: Word) -> tuple[int, int, str]:
    return (word.start_ms, word.end_ms, word.speaker)


# ------------------------------------------------------------------ loading


def load_corpus(path: str | Path) -> Corpus:
    """Load a `.json` corpus or a `.jsonl` file of conversations; raise ItemError."""
    path = Path(path)
    name = str(path)
    if path.suffix not in (".json", ".jsonl"):
        raise ItemError([Problem(name, "", "expected a .json or .jsonl corpus file")])
    try:
        text = read_limited(path, MAX_CORPUS_BYTES, "corpus file").decode("utf-8")
    except UnsafeFileError as exc:
        raise ItemError([Problem(name, "", exc.reason)]) from None
    except (OSError, ValueError) as exc:  # ValueError: bad UTF-8, NUL in the path
        raise ItemError([Problem(name, "", f"cannot read: {exc}")]) from None
    if path.suffix == ".jsonl":
        return _parse_jsonl(text, name, _stem_name(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ItemError([Problem(name, f"line {exc.lineno} column {exc.colno}", exc.msg)]) from None
    except RecursionError:
        raise ItemError([Problem(name, "", "document nests too deeply")]) from None
    if isinstance(data, dict) and "name" not in data:
        data = {**data, "name": _stem_name(path)}
    return parse_corpus(data, name)


def parse_corpus(data: Any, file: str = "<corpus>") -> Corpus:
    """Validate plain data as a corpus; every problem is reported at once."""
    if not isinstance(data, dict):
        raise ItemError([Problem(file, "", f"expected an object, got {type(data).__name__}")])
    try:
        return Corpus.model_validate(data)
    except ValidationError as exc:
        raise ItemError(_problems(exc, data, file, "")) from None


def _parse_jsonl(text: str, file: str, name: str) -> Corpus:
    problems: list[Problem] = []
    conversations: list[Conversation] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(Problem(file, f"{where} column {exc.colno}", exc.msg))
            continue
        if not isinstance(data, dict):
            got = type(data).__name__
            problems.append(Problem(file, where, f"expected a conversation object, got {got}"))
            continue
        try:
            conversation = Conversation.model_validate(data)
        except ValidationError as exc:
            problems += _problems(exc, data, file, where)
            continue
        if conversation.id in first_line:
            message = f"duplicate conversation id {conversation.id!r} (first on line "
            problems.append(
                Problem(file, f"{where}: id", f"{message}{first_line[conversation.id]})")
            )
            continue
        first_line[conversation.id] = number
        conversations.append(conversation)
    if not conversations and not problems:
        problems.append(Problem(file, "", "no conversations"))
    if problems:
        raise ItemError(problems)
    return Corpus(name=name, conversations=conversations)


def _problems(exc: ValidationError, data: Any, file: str, where: str) -> list[Problem]:
    out = []
    for error in exc.errors():
        loc = format_loc(error["loc"], data)
        path = f"{where}: {loc}" if where and loc else where or loc
        out.append(Problem(file, path, _message(error)))
    return out


def _message(error: Any) -> str:
    msg = str(error["msg"])
    if error["type"] == "extra_forbidden":
        return "unknown key (not part of the corpus format)"
    if error["type"] == "literal_error":
        return f"{msg}; got {error['input']!r}"
    return msg.removeprefix("Value error, ")


def _stem_name(path: Path) -> str:
    cleaned = "".join(c if c.isalnum() or c in "_.-" else "-" for c in path.stem)[:80]
    return cleaned if cleaned[:1].isalpha() else f"c{cleaned}"[:80]


# ------------------------------------------------------------------ utterances


@dataclass(frozen=True)
class Utterance:
    """Consecutive words of one speaker, each gap at most the utterance gap."""

    speaker: str
    words: tuple[Word, ...]

    @property
    def start_ms(self) -> int:
        return self.words[0].start_ms

    @property
    def end_ms(self) -> int:
        return self.words[-1].end_ms

    @property
    def text(self) -> str:
        return " ".join(w.text.strip() for w in self.words)

    @property
    def n_words(self) -> int:
        return count_words(w.text for w in self.words)


def words_by_speaker(conversation: Conversation) -> dict[str, list[Word]]:
    """Each speaker's words in time order (speakers sorted by label)."""
    out: dict[str, list[Word]] = {s: [] for s in conversation.speakers()}
    for word in conversation.sorted_words():
        out[word.speaker].append(word)
    return out


def utterances(
    conversation: Conversation, *, max_gap_ms: int = UTTERANCE_GAP_MS
) -> list[Utterance]:
    """All speakers' utterances, ordered by (start, longest first, speaker)."""
    out: list[Utterance] = []
    for speaker, words in words_by_speaker(conversation).items():
        group: list[Word] = []
        for word in words:
            if group and word.start_ms - group[-1].end_ms > max_gap_ms:
                out.append(Utterance(speaker, tuple(group)))
                group = []
            group.append(word)
        out.append(Utterance(speaker, tuple(group)))
    return sorted(out, key=lambda u: (u.start_ms, -u.end_ms, u.speaker))


def split_floor(
    utts: Iterable[Utterance],
) -> tuple[list[Utterance], list[tuple[Utterance, Utterance]]]:
    """(floor turns, [(inside, container)]).

    An utterance lies *inside* another speaker's utterance when it starts no
    earlier and ends no later than it; of several containers the earliest
    started wins. Every other utterance holds the floor, in start order.
    """
    floor: list[Utterance] = []
    inside: list[tuple[Utterance, Utterance]] = []
    latest: dict[str, Utterance] = {}
    for utt in sorted(utts, key=lambda u: (u.start_ms, -u.end_ms, u.speaker)):
        containers = [
            other
            for speaker, other in latest.items()
            if speaker != utt.speaker and other.end_ms >= utt.end_ms
        ]
        if containers:
            inside.append((utt, min(containers, key=lambda u: (u.start_ms, u.speaker))))
        else:
            floor.append(utt)
        latest[utt.speaker] = utt
    return floor, inside


def transcript(
    utts: Iterable[Utterance], start_ms: int, end_ms: int, roles: Mapping[str, str]
) -> str:
    """The utterances overlapping [start_ms, end_ms], one line each, words clipped to it.

    Lines read `[12.34-13.10] A (user): text`; `roles` labels speakers; `utts`
    come from :func:`utterances`.
    """
    lines = []
    for utt in utts:
        if utt.start_ms >= end_ms or utt.end_ms <= start_ms:
            continue
        words = [w for w in utt.words if w.end_ms > start_ms and w.start_ms < end_ms]
        if not words:
            continue
        role = roles.get(utt.speaker)
        who = f"{utt.speaker} ({role})" if role else utt.speaker
        text = " ".join(w.text.strip() for w in words)
        lines.append(
            f"[{words[0].start_ms / 1000:.2f}-{words[-1].end_ms / 1000:.2f}] {who}: {text}"
        )
    return "\n".join(lines)


def speech_spans(words: Iterable[Word]) -> list[tuple[int, int]]:
    """The words' (start, end) spans merged where they touch or overlap, in order."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted((w.start_ms, w.end_ms) for w in words):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def overlaps(spans: list[tuple[int, int]], start_ms: int, end_ms: int) -> bool:
    """Whether any of the merged `spans` (see :func:`speech_spans`) overlaps (start, end)."""
    i = bisect_left(spans, end_ms, key=lambda s: s[0])  # first span starting at/after end
    return i > 0 and spans[i - 1][1] > start_ms


# ------------------------------------------------------------------ text rules


def sentence_final(text: str) -> bool:
    """Ends with . ? ! (closing quotes/brackets aside); an ellipsis trails off, not final."""
    core = text.strip().rstrip("\"')]»”’")
    return core.endswith(SENTENCE_FINAL) and not core.endswith(("...", "…"))


def backchannel_function(text: str) -> str | None:
    """`affirmative`, `uncertainty`, or None when `text` is not a backchannel expression."""
    tokens = [t.strip('.,!?;:"()…').lower() for t in text.split()]
    tokens = [t for t in tokens if t]
    lexicon = AFFIRMATIVE | UNCERTAIN | FILLER
    if not tokens or any(t not in lexicon for t in tokens):
        return None
    if not any(t in AFFIRMATIVE or t in UNCERTAIN for t in tokens):
        return None
    if "?" in text or any(t in UNCERTAIN for t in tokens):
        return "uncertainty"
    return "affirmative"
