"""Sentence forms the act logic reads, item-independent: words of checking and of
tag questions, go-ahead words and verbs of carrying an action out, bare tags,
short follow-ups, offered alternatives."""

from __future__ import annotations

import re

from duplexbench.users._observer.cues import normalize, word_set
from duplexbench.users._observer.slots import Slot

CHECK_WORDS = (
    " confirm ",
    " confirming ",
    " still ",
    " correct ",
    " right ",
    " on file ",
    " on record ",
    " we have ",
    " accurate ",
    " changed ",
    " change ",
    " up to date ",
    " current ",
    " double check ",
    " verify ",
    " same ",
    " valid ",
)
CONFIRM_TAG = (
    " right ",
    " correct ",
    " yes ",
    " yeah ",
    " yep ",
    " confirm ",
    " is that it ",
    " ok ",
    " okay ",
)
GENERIC_ACTION = (
    " go ahead ",
    " proceed ",
    " approve ",
    " approval ",
    " sign off ",
    " green light ",
    " finalize ",
    " finalise ",
    " permission ",
    " authorize ",
    " authorise ",
    " your ok ",
    " your okay ",
    " the ok ",
    " the okay ",
    " the go ahead ",
    " go-ahead ",
    " send it ",
    " send this ",
    " put that through ",
    " put it through ",
    " get it opened ",
)


COMMIT_VERBS = word_set(
    """
    send submit file issue release publish book place open dispatch lock finalize lodge
    finalise process log register circulate share forward pass fire schedule order apply
    launch complete confirm make
    """
)
"""Verbs of carrying an action out: with a permission question, a go-ahead request for
the item's one gated action ("shall I lock it in?")."""
_NOUN_BEFORE = word_set(
    """
    the your my our their a an this that on in of
    """
)


def verb_in(norm: str, verbs: set[str] | frozenset[str]) -> bool:
    """One of `verbs` (or its -s/-ing/-ed form) used as a verb: not right after a
    determiner ("on your file" is not "file it")."""
    words = norm.split()
    for i, word in enumerate(words):
        if any(s in verbs for s in verb_stems(word)) and (
            i == 0 or words[i - 1] not in _NOUN_BEFORE
        ):
            return True
    return False


def verb_stems(word: str) -> set[str]:
    """The word and the verbs it may inflect: "submitting" -> submit, "lodging" -> lodge,
    "filed" -> file, "sends" -> send."""
    stems = {word}
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            stems |= {stem, stem + "e"}
            if len(stem) > 2 and stem[-1] == stem[-2]:
                stems.add(stem[:-1])  # submitting, shipped
    return stems


_TAG_ONLY = re.compile(
    r"^ (?:(?:and|so|okay|ok|just|now) )*(?:"
    r"(?:is|was) (?:all )?(?:that|this|everything|it) (?:all )?(?:right|correct|accurate|ok|okay|"
    r"good|still good|still right|it)|(?:is that )?correct|right|yes|yeah|"
    r"(?:did|have) i (?:get|got|hear|heard) (?:that|all that|everything|it all|it) right|"
    r"(?:does|do) (?:that|all that|everything|this|it) (?:all )?(?:sound|look|seem) "
    r"(?:right|correct|good|okay)(?: to you)?|am i right|anything to (?:fix|change|correct)|"
    r"(?:can|could) you confirm(?: that| that for me)?) $"
)


def bare_tag(raw: str) -> bool:
    """A sentence that only asks to confirm what was just said ("Is all that right?")."""
    return bool(_TAG_ONLY.match(normalize(raw)))


_ANAPHORA = re.compile(r" (that|it|this|those|these|they|them|one) ")
MAX_FOLLOW_UP_WORDS = 8


def follow_up(raw: str) -> bool:
    """A short question that leans on the sentence before it ("What day would that be?",
    "What are they coming to do?")."""
    norm = normalize(raw)
    return len(norm.split()) <= MAX_FOLLOW_UP_WORDS and bool(_ANAPHORA.search(norm))


def alternatives(norm: str, slot: Slot) -> bool:
    """An either-or question over the slot's options ("net 30 or net 60?") asks, it does
    not confirm."""
    named = [c for c in slot.choices if f" {normalize(c).strip()} " in norm]
    return len(named) >= 2


INFO_REQUEST = re.compile(
    r"\b(?:could|can|may) i (?:get|have|grab|take|ask for|ask you for|check) "
    r"(?:the|your|their|a|an|his|her|its)\b"
)
"""Asking for a detail, not for a go-ahead ("could I get the booking reference?")."""
NOT_CHECKING = re.compile(r" right (?:now|away|here|there|off) ")
"""\"Right\" that is not about being correct ("where they live right now")."""
_RECORD = re.compile(
    r" (?:on file|on record|we have|we've got|i have|same|changed?|up to date|still the) "
)


def either_or(norm: str) -> bool:
    """A question that offers alternatives ("on paper, or should we go paperless?",
    "still covered, extended, or expired?"), not one that checks the record ("is it still
    the same as on file, or has it changed?")."""
    return " or " in norm and not _RECORD.search(norm)
