"""Repair requests: the agent asks the caller to say something again, differently.

Item-independent cues, read before every other act (a repair request is never
a read-back, a confirmation, a check, an approval request or a leave-taking):

- `REPEAT`: say it again ("sorry?", "could you repeat that", "I didn't catch
  that", "you broke up there", "what was the last part?", "what was the
  reference again?");
- `SPELL`: spell a value ("how do you spell that", "letter by letter");
- `PHONETIC`: words for the letters ("A as in alpha", "using the phonetic
  alphabet"); it always comes with `SPELL`;
- `DIGITS`: one digit at a time ("digit by digit", "read the number slowly");
- `SLOWER`: slow down ("a little slower please", "you're going a bit fast").

`REPEAT` is dropped when `SPELL` or `DIGITS` is asked (a spelling is a
repetition). The agent's own offers and announcements ("let me repeat that
back", "I'll spell out the next steps", "shall I read the number back?") are
no requests, nor is an action done again ("could you restart it again?").
Which slot a request names (`REPEAT:<slot>`, `SPELL:<slot>`, `DIGITS:<slot>`)
the observer decides with its slot layers (`layered.py`); this module says
only whether the rest of the sentence could name one
(:attr:`RepairCues.names_something`) and whether it asks for a person's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duplexbench.users._observer.cues import is_question, is_request, normalize
from duplexbench.users._observer.repair_words import (
    AGENT_SPELLS,
    AS_IN,
    BARE,
    DIGITS_CUES,
    FILLER,
    KIND_WORDS,
    MAX_LETTER_CHECK_WORDS,
    NAME_WORDS,
    NATO,
    NATO_WORD,
    NEGATED,
    NOT_DIGITS,
    NOT_SLOWER,
    NOT_SPELL,
    OFFER,
    OPENERS,
    PERSON_NAME,
    PHONETIC_STRONG,
    PHONETIC_WEAK,
    REPEAT_CUES,
    SELF,
    SLOWER_CUES,
    SPELL_CUES,
    TO_YOU,
    UNSPELLED,
    Cue,
)

REPAIR_KINDS = ("REPEAT", "SPELL", "PHONETIC", "DIGITS", "SLOWER")
"""The repair acts (docs/simulator.md, "Repair acts")."""
SLOTTED = ("REPEAT", "SPELL", "DIGITS")
"""Repair acts that may name the slot they are about."""


def is_repair(act: str) -> bool:
    """Whether an act (`SPELL:contact_email`, `SLOWER`, ...) is a repair request."""
    return act.partition(":")[0] in REPAIR_KINDS


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class RepairCues:
    """The repair acts a sentence asks for (without slots) and what is left of it."""

    kinds: tuple[str, ...]
    rest: str
    """The normalized sentence without the letters spelled in it ("A as in alpha")."""

    @property
    def slotted(self) -> bool:
        return any(k in SLOTTED for k in self.kinds)

    @property
    def names_something(self) -> bool:
        """Words beyond the request itself: a slot may be named ("the email")."""
        return any(w not in FILLER and len(w) > 1 for w in self.rest.split())

    @property
    def beyond_name(self) -> bool:
        """Words beyond the request and a name: whose name ("the inspector's last name")."""
        return any(
            w not in FILLER and w not in NAME_WORDS and len(w) > 1 for w in self.rest.split()
        )

    @property
    def person_name(self) -> bool:
        """The request is about a name ("could you spell your last name?")."""
        return bool(PERSON_NAME.search(self.rest))

    @property
    def value_kinds(self) -> tuple[str, ...]:
        """Value kinds the request names outright ("the email", "your phone number")."""
        return tuple(kind for pattern, kind in KIND_WORDS if pattern.search(self.rest))

    def fits(self, kind: str) -> bool:
        """Whether a slot of this value kind can be what is asked to be spelled or read
        digit by digit (anything can be repeated)."""
        return "REPEAT" in self.kinds or kind not in UNSPELLED

    def acts(self, slot: str | None) -> list[str]:
        return [f"{k}:{slot}" if slot and k in SLOTTED else k for k in self.kinds]


def repair_cues(raw: str) -> RepairCues | None:
    """The repair request in one sentence, or None (see the module docstring)."""
    norm = normalize(raw)
    if not norm.strip():
        return None
    if BARE.match(norm):
        return RepairCues(("REPEAT",), "") if _bare_punctuation(raw) else None
    found: list[tuple[int, str]] = []
    masked = norm
    cues = (
        *(() if NOT_DIGITS.search(norm) else DIGITS_CUES),
        *SPELL_CUES,
        *REPEAT_CUES,
        *SLOWER_CUES,
    )
    for cue in cues:
        match = next(
            (m for m in cue.pattern.finditer(masked) if _holds(cue, norm, masked, m)), None
        )
        if match is None:
            continue
        found.append((match.start(), cue.kind))
        if cue.kind == "DIGITS":  # "read the number slowly": digits, not also slower
            blank = " " * (match.end() - match.start())
            masked = masked[: match.start()] + blank + masked[match.end() :]
    if not any(k == "SPELL" for _, k in found):
        found += _asks_spelling(raw, norm)
    spell = any(k == "SPELL" for _, k in found)
    phonetic = _phonetic(norm, spell)
    if phonetic and not spell:  # "N as in Nancy?": a letter of what was just spelled
        return RepairCues(_ordered([*found, (phonetic, "SPELL")], True), "")
    if not found:
        return None
    rest = NATO_WORD.sub(" ", AS_IN.sub(" ", norm))
    return RepairCues(_ordered(found, bool(phonetic)), " ".join(rest.split()))


_SPELL_WORD = re.compile(
    r"\b(?:spell|spells|spelled|spelt|spelling)\b(?! out (?!(?:it|that|this|them|for)\b))"
)
"""A spelling word, but not "spell out what went wrong" (explain)."""


def _asks_spelling(raw: str, norm: str) -> list[tuple[int, str]]:
    """Any other question or request about a spelling, said to the caller ("could you
    tell me how it's spelled?", "do you mind giving me the spelling?"): the general rule
    behind the cues' common frames; never a spell-check or the agent spelling."""
    match = _SPELL_WORD.search(norm)
    if match is None or NOT_SPELL.search(norm) or _by_agent(norm[: match.start()]):
        return []
    if offers_repair(raw) or not (is_question(raw) or is_request(raw)):
        return []
    return [(match.start(), "SPELL")]


def offers_repair(raw: str) -> bool:
    """The agent offers to repeat, spell or read back itself ("Shall I read the number
    back to you?", "Would you like me to repeat any of that?"): it asks the caller for
    nothing."""
    return bool(OFFER.search(normalize(raw)))


def _holds(cue: Cue, norm: str, masked: str, match: re.Match[str]) -> bool:
    before = masked[: match.start()]
    if cue.agent_blocks and _by_agent(before):
        return False
    if cue.to_caller and not _to_caller(before):
        return False
    if cue.kind == "SPELL" and NOT_SPELL.search(norm):
        return False
    if cue.kind == "SLOWER" and NOT_SLOWER.search(norm):
        return False
    return not (cue.kind == "REPEAT" and NEGATED.search(before))


def _ordered(found: list[tuple[int, str]], phonetic: bool) -> tuple[str, ...]:
    kinds = list(dict.fromkeys(k for _, k in sorted(found, key=lambda f: f[0])))
    if "SPELL" in kinds or "DIGITS" in kinds:
        kinds = [k for k in kinds if k != "REPEAT"]
    if phonetic:
        kinds.insert(kinds.index("SPELL") + 1, "PHONETIC")
    return tuple(kinds)


def _bare_punctuation(raw: str) -> bool:
    """A bare "sorry" asks only with a question mark or without punctuation (ASR)."""
    end = raw.rstrip()[-1:]
    return end == "?" or end.isalnum()


def _window(before: str) -> str:
    return " " + " ".join(before.split()[-7:]) + " "


def _by_agent(before: str) -> bool:
    """The nearest subject before a cue is the agent ("let me", "I'll", "shall I",
    "would you like me to"), not the caller ("could you", "please")."""
    window = _window(before)
    agent = [m.end() for m in SELF.finditer(window)]
    if not agent or re.search(r"\bhow\b", window):  # "how do I spell that?" asks
        return False
    caller = [m.end() for m in TO_YOU.finditer(window)]
    return not caller or max(agent) > max(caller)


def _to_caller(before: str) -> bool:
    """Said to the caller ("could you", "please", "sorry") or an imperative: nothing but
    openers before the cue."""
    if TO_YOU.search(_window(before)):
        return True
    return all(re.fullmatch(OPENERS, w) for w in before.split())


def _phonetic(norm: str, spell: bool) -> int:
    """Where words for letters are asked for (0: nowhere): with a request to spell, or on
    its own as a short letter check ("N as in Nancy?"), never the agent spelling."""
    if AGENT_SPELLS.search(norm):
        return 0
    alone = len(norm.split()) <= MAX_LETTER_CHECK_WORDS
    strong = PHONETIC_STRONG.search(norm)
    if strong and not _by_agent(norm[: strong.start()]):
        return strong.start() or 1
    for match in AS_IN.finditer(norm):
        letter, word = match.group(1), match.group(2)
        if (spell or alone) and (word in NATO or (word[0] == letter and len(word) >= 3)):
            return match.start() or 1
    weak = PHONETIC_WEAK.search(norm)
    return (weak.start() or 1) if weak and spell else 0
