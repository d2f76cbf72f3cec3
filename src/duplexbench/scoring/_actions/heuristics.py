"""Offline follow-through heuristics for the seven judged actions.

Deterministic lexical stand-ins for the judge (docs/actions.md, Scoring),
so an offline run always reports a follow-through number. They are cruder
than a judge and are reported separately, never mixed with judge verdicts.

Text handling: lowercase word tokens (letters, digits, inner `'`/`-`), a
trailing plural `s` dropped from words over three letters; *content words*
are tokens of three or more characters not in :data:`STOPWORDS`. A *term*
(`expected_terms`, `ignored_terms`) is *mentioned* when its token sequence
occurs contiguously in the speech. Agent words carry no times of their
own, so where a segment straddles a time point its words are split in
proportion to time (:func:`words_between`). Every word count here (continue,
simplify, wrap up, enrich, "substantive") counts only tokens with a letter or
digit (:mod:`duplexbench.words`): "Okay — got it." is three words.

"Later speech" is the agent segments whose onset is at or after the
action's follow point (:func:`follow_point`):

- Wait (after the wait interval ends): a substantive segment exists and
  shares a content word with the user's speech from the wait interval on,
  or mentions an expected term.
- Ignore (after the distractor ends): a substantive segment exists and
  mentions none of `ignored_terms`.
- Take Turn (from the response window's start): a substantive segment
  exists and shares a content word with the user's speech or mentions an
  expected term.
- Backchannel (after the backchannel segment): some later speech exists;
  affirmative: it contains no clarification phrase (:data:`CLARIFY`);
  uncertainty: it has a `?` or a clarification phrase.
- Hold Floor (speech after the cue ends, proportional split), by adaptation:
  continue: >= :data:`CONTINUE_MIN_WORDS` words; shorten: the agent's last
  speech ends within :data:`SHORTEN_MAX_MS` of the cue end and before the
  recording end; simplify: >= 3 words on each side and a lower mean word
  length (letters) than the agent's speech before the cue;
  ignore_distractor: speech after the cue *onset* exists and mentions none
  of `ignored_terms`.
- Recover (onsets from cue end − 2000 ms, the recovery window's start), by
  adaptation: wrap_up: at most :data:`WRAP_UP_MAX_WORDS` words, finished
  before the recording end; repeat: >= :data:`REPEAT_MIN_SHARED` content
  words shared with the agent's speech before the cue; ask_follow_up: a
  question (`?` or a question opener, :data:`QUESTION_OPENERS`); enrich:
  >= :data:`ENRICH_MIN_WORDS` words; shift_topic and revise: an expected
  term is mentioned (not applicable when the item lists none).
- Hold Floor and Recover, every adaptation: when the item lists
  `expected_terms`, the speech must also mention one (it keeps the thread).
- Interrupt (onsets from the user's start): mentions an expected term (the
  hazard, the help); not applicable when the item lists none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from duplexbench.items import Action
from duplexbench.scoring._actions.observation import ActionObservation, AgentSegment
from duplexbench.scoring._actions.rules import (
    RECOVER_BEFORE_MS,
    MissingAnnotation,
    Verdict,
    agent_sorted,
    backchannel_segment,
)

CONTINUE_MIN_WORDS = 10
SHORTEN_MAX_MS = 10_000
WRAP_UP_MAX_WORDS = 40
REPEAT_MIN_SHARED = 2
ENRICH_MIN_WORDS = 15
SIMPLIFY_MIN_WORDS = 3

_STOPWORDS_TEXT = """
the and but for nor yet you your yours our ours their theirs them they this that these
those there here what which who whom whose when where why how are was were been being have
has had having does did doing not can could would should will shall may might must just
very really about into onto from with without over under again then than also some any all
each both few more most other such only own same too out off its it's i'm you're we're
they're that's there's let's okay yeah well like get got one two sure right now know think
want need say said tell told make made going gonna let him her his she hers yes thing things
way lot bit"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORDS_TEXT.split())

CLARIFY: tuple[str, ...] = (
    "what do you mean", "do you mean", "you mean", "could you", "can you", "clarify",
    "repeat", "say that again", "come again", "which one", "not sure", "pardon", "sorry",
    "explain", "did you say", "are you saying",
)  # fmt: skip
"""Phrases that make a clarification request."""

QUESTION_OPENERS: tuple[str, ...] = (
    "what", "which", "who", "when", "where", "why", "how", "do you", "did you", "are you",
    "would you", "could you", "can you", "is it", "is there", "have you", "should i", "shall i",
)  # fmt: skip
"""Sentence openings that make a question even when the transcript has no `?`."""

_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_SENTENCE = re.compile(r"[.!?]+")
_FAR = 1 << 40


def _stem(tok: str) -> str:
    tok = tok.removesuffix("'s")
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith(("ss", "us", "is")):
        return tok[:-1]
    return tok


def tokens(text: str) -> list[str]:
    """Lowercase word tokens with a crude plural strip."""
    return [_stem(t) for t in _TOKEN.findall(text.lower())]


def content_words(text: str) -> set[str]:
    return {_stem(t) for t in _TOKEN.findall(text.lower()) if len(t) >= 3 and t not in STOPWORDS}


def mentioned(text: str, terms: Iterable[str]) -> list[str]:
    """The terms whose tokens occur contiguously in `text`."""
    have = f" {' '.join(tokens(text))} "
    return [t for t in terms if tokens(t) and f" {' '.join(tokens(t))} " in have]


def has_phrase(text: str, phrases: Iterable[str]) -> str | None:
    return next(iter(mentioned(text, phrases)), None)


def is_question(text: str) -> bool:
    """A `?`, or a sentence opening with a question opener."""
    if "?" in text:
        return True
    for sentence in _SENTENCE.split(text):
        head = " ".join(_TOKEN.findall(sentence.lower())) + " "
        if any(head.startswith(f"{o} ") for o in QUESTION_OPENERS):
            return True
    return False


def words_between(segments: Sequence[AgentSegment], lo: int, hi: int) -> list[str]:
    """Agent words spoken in [lo, hi), each segment's words spread evenly over it
    (words as `duplexbench.words` counts them: punctuation-only tokens are left out)."""
    out: list[str] = []
    for s in sorted(segments, key=lambda s: s.start_ms):
        words = s.spoken_words
        if s.end_ms <= lo or s.start_ms >= hi or not words:
            continue
        span, n = max(1, s.end_ms - s.start_ms), len(words)
        i = round(n * (max(lo, s.start_ms) - s.start_ms) / span)
        j = round(n * (min(hi, s.end_ms) - s.start_ms) / span)
        out += words[i:j]
    return out


def follow_point(obs: ActionObservation) -> int | None:
    """The time after which an action's follow-through is looked for (None: unknown)."""
    ann, cue = obs.item.annotations, obs.cue
    action = obs.item.action
    if action == "wait":
        return None if ann.wait_interval is None else ann.wait_interval.end_ms
    if action == "ignore":
        return None if ann.distractor_interval is None else ann.distractor_interval.end_ms
    if action == "take_turn":
        if ann.user_end_ms is None or ann.response_window is None:
            return None
        return ann.user_end_ms + ann.response_window[0]
    if action == "backchannel":
        bc = backchannel_segment(obs)
        return None if bc is None else bc.end_ms
    if action == "interrupt":
        span = obs.item.user_span()
        return None if span is None else span.start_ms
    if cue is None:
        return None
    if action == "recover":
        return cue.end_ms - RECOVER_BEFORE_MS
    if action == "hold_floor" and ann.adaptation != "ignore_distractor":
        return cue.end_ms
    return cue.start_ms


def later(obs: ActionObservation) -> list[AgentSegment]:
    """Agent segments with onset at or after the follow point."""
    point = follow_point(obs)
    if point is None:
        raise MissingAnnotation(f"{obs.item.id}: no follow point for {obs.item.condition}")
    return [s for s in agent_sorted(obs) if s.start_ms >= point]


def _text(segments: Iterable[AgentSegment]) -> str:
    return " ".join(s.text for s in segments)


def _user_text(obs: ActionObservation, from_ms: int = 0) -> str:
    return " ".join(u.text for u in obs.user if u.role == "user" and u.start_ms >= from_ms)


def _relevant(obs: ActionObservation, speech: str, user: str) -> Verdict:
    """Shares a content word with the user's speech, or mentions an expected term."""
    terms = mentioned(speech, obs.item.annotations.expected_terms)
    if terms:
        return Verdict(True, f"mentions the expected term {terms[0]!r}")
    shared = sorted(content_words(speech) & content_words(user))
    if shared:
        return Verdict(True, f"shares {shared[:3]} with the user's speech")
    return Verdict(False, "shares no content word with the user's speech or expected terms")


def _substantive_later(obs: ActionObservation) -> tuple[list[AgentSegment], Verdict | None]:
    segs = later(obs)
    if not any(s.substantive for s in segs):
        return segs, Verdict(False, "no later substantive response")
    return segs, None


def wait(obs: ActionObservation) -> Verdict:
    segs, missing = _substantive_later(obs)
    if missing:
        return missing
    span = obs.item.annotations.wait_interval
    assert span is not None
    return _relevant(obs, _text(segs), _user_text(obs, span.start_ms))


def ignore(obs: ActionObservation) -> Verdict:
    segs, missing = _substantive_later(obs)
    if missing:
        return missing
    used = mentioned(_text(segs), obs.item.annotations.ignored_terms)
    if used:
        return Verdict(False, f"the response uses the ignored speech's {used[0]!r}")
    return Verdict(True, "a later response uses none of the ignored speech's terms")


def take_turn(obs: ActionObservation) -> Verdict:
    segs, missing = _substantive_later(obs)
    if missing:
        return missing
    return _relevant(obs, _text(segs), _user_text(obs))


def backchannel(obs: ActionObservation) -> Verdict:
    if follow_point(obs) is None:
        return Verdict(None, "no backchannel to follow")
    speech = _text(later(obs))
    if not speech:
        return Verdict(False, "no speech after the backchannel")
    clarify = has_phrase(speech, CLARIFY)
    if obs.item.condition == "backchannel.affirmative":
        if clarify:
            return Verdict(False, f"asks for clarification ({clarify!r}) after affirming")
        return Verdict(True, "later speech proceeds without a clarification request")
    if clarify or "?" in speech:
        return Verdict(True, f"later speech asks or clarifies ({clarify or '?'!r})")
    return Verdict(False, "later speech neither asks nor clarifies")


def _keeps_thread(obs: ActionObservation, speech: str, verdict: Verdict) -> Verdict:
    terms = obs.item.annotations.expected_terms
    if verdict.success is not True or not terms:
        return verdict
    if not mentioned(speech, terms):
        return Verdict(False, f"{verdict.reason}, but mentions none of the expected terms")
    return verdict


def _mean_word_length(words: Sequence[str]) -> float:
    letters = [len(re.sub(r"[^a-z]", "", w.lower())) for w in words]
    return sum(letters) / len(letters)


def hold_floor(obs: ActionObservation) -> Verdict:
    cue, adaptation = obs.cue, obs.item.annotations.adaptation
    if cue is None or adaptation is None:
        return Verdict(None, "no cue or no adaptation")
    point = follow_point(obs)
    assert point is not None
    after = words_between(obs.agent, point, _FAR)
    before = words_between(obs.agent, 0, cue.start_ms)
    speech = " ".join(after)
    if adaptation == "continue":
        ok = len(after) >= CONTINUE_MIN_WORDS
        v = Verdict(ok, f"{len(after)} words after the cue (continue needs {CONTINUE_MIN_WORDS})")
    elif adaptation == "shorten":
        v = _shorten(obs, cue.end_ms)
    elif adaptation == "simplify":
        if min(len(after), len(before)) < SIMPLIFY_MIN_WORDS:
            return Verdict(False, "too little speech before or after the cue to compare")
        b, a = _mean_word_length(before), _mean_word_length(after)
        v = Verdict(a < b, f"mean word length {a:.2f} after the cue vs {b:.2f} before")
    else:
        used = mentioned(speech, obs.item.annotations.ignored_terms)
        if not after:
            v = Verdict(False, "no speech after the cue onset")
        elif used:
            v = Verdict(False, f"speech after the cue uses the distractor's {used[0]!r}")
        else:
            v = Verdict(True, "speech after the cue uses none of the distractor's terms")
    return _keeps_thread(obs, speech, v)


def _shorten(obs: ActionObservation, cue_end: int) -> Verdict:
    last = max((s.end_ms for s in obs.agent), default=0)
    if last >= obs.end_ms:
        return Verdict(False, "the agent is still speaking at the recording end")
    ok = last - cue_end <= SHORTEN_MAX_MS
    return Verdict(ok, f"agent speech ends {last - cue_end} ms after the cue (≤ {SHORTEN_MAX_MS})")


def recover(obs: ActionObservation) -> Verdict:
    cue, ann = obs.cue, obs.item.annotations
    if cue is None or ann.adaptation is None:
        return Verdict(None, "no cue or no adaptation")
    segs = later(obs)
    if not any(s.n_words for s in segs):
        return Verdict(False, "no resumed speech")
    speech = _text(segs)
    if ann.adaptation in ("shift_topic", "revise"):
        if not ann.expected_terms:
            return Verdict(None, f"{ann.adaptation} needs expected_terms")
        said = mentioned(speech, ann.expected_terms)
        if said:
            return Verdict(True, f"the resumed speech names {said[0]!r}")
        return Verdict(False, "the resumed speech names none of the expected terms")
    shape = _RECOVER_SHAPES.get(ann.adaptation)
    if shape is None:
        return Verdict(None, f"{ann.adaptation} is not a Recover adaptation")
    return _keeps_thread(obs, speech, shape(obs, segs, cue.start_ms))


def _wrap_up(obs: ActionObservation, segs: list[AgentSegment], cue_start: int) -> Verdict:
    n = sum(s.n_words for s in segs)
    finished = max(s.end_ms for s in segs) < obs.end_ms
    ok = n <= WRAP_UP_MAX_WORDS and finished
    how = "finished" if finished else "still speaking at the recording end"
    return Verdict(ok, f"{n} resumed words (wrap up allows {WRAP_UP_MAX_WORDS}), {how}")


def _repeat(obs: ActionObservation, segs: list[AgentSegment], cue_start: int) -> Verdict:
    before = content_words(" ".join(words_between(obs.agent, 0, cue_start)))
    shared = sorted(content_words(_text(segs)) & before)
    ok = len(shared) >= REPEAT_MIN_SHARED
    return Verdict(ok, f"repeats {len(shared)} content words from before the cue {shared[:3]}")


def _ask_follow_up(obs: ActionObservation, segs: list[AgentSegment], cue_start: int) -> Verdict:
    asks = is_question(_text(segs))
    return Verdict(asks, "the resumed speech asks a question" if asks else "it asks no question")


def _enrich(obs: ActionObservation, segs: list[AgentSegment], cue_start: int) -> Verdict:
    n = sum(s.n_words for s in segs)
    return Verdict(n >= ENRICH_MIN_WORDS, f"{n} resumed words (enrich needs {ENRICH_MIN_WORDS})")


_RECOVER_SHAPES: dict[str, Callable[[ActionObservation, list[AgentSegment], int], Verdict]] = {
    "wrap_up": _wrap_up,
    "repeat": _repeat,
    "ask_follow_up": _ask_follow_up,
    "enrich": _enrich,
}


def interrupt(obs: ActionObservation) -> Verdict:
    terms = obs.item.annotations.expected_terms
    if not terms:
        return Verdict(None, "interrupt needs expected_terms")
    said = mentioned(_text(later(obs)), terms)
    if said:
        return Verdict(True, f"the interruption names {said[0]!r}")
    return Verdict(False, "the interruption names none of the expected terms")


HEURISTICS: dict[Action, Callable[[ActionObservation], Verdict]] = {
    "wait": wait,
    "ignore": ignore,
    "take_turn": take_turn,
    "backchannel": backchannel,
    "hold_floor": hold_floor,
    "recover": recover,
    "interrupt": interrupt,
}


def heuristic_follow_through(obs: ActionObservation) -> Verdict:
    """The offline follow-through verdict of a judged action (None: cannot tell)."""
    heuristic = HEURISTICS.get(obs.item.action)
    if heuristic is None:
        raise ValueError(f"{obs.item.action} follow-through is a rule, not a heuristic")
    return heuristic(obs)
