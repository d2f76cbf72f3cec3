"""Realization: the deterministic choice and rendering of one text variant per plan.

The variant index is a hash of (item id, simulator seed, repetition seed,
plan id, occurrence): the same inputs always give the same words, and
different repetition seeds can give different words for the same plan.

Verbosity (a caller persona's, :mod:`duplexbench.users._personas`) reshapes
the words without touching the facts:

- ``plain`` (default): the hashed variant, as before.
- ``terse``: always the shortest rendered variant of the plan (ties: the first).
- ``verbose``: the hashed variant inside a discourse frame (:data:`FRAMES`,
  e.g. ``"Um, so... "`` before, ``" If that makes sense."`` after), chosen by
  other bytes of the same hash. The variant's text is kept verbatim, so fact
  values are never altered. Plans of the kinds in :data:`UNFRAMED_KINDS`
  are never framed; a trailing frame only follows a text that ends with ``.``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from duplexbench.items import (
    PLACEHOLDER,
    SLOT_PLACEHOLDERS,
    Fact,
    UserSpec,
    all_plan_ids,
    plan_facts,
)
from duplexbench.users._personas import DEFAULT_SPELLING
from duplexbench.users._plan import Plan
from duplexbench.values import SpelledForm, SpellingStyle, digit_groups, spell

DEFAULT_VARIANTS: dict[str, list[str]] = {
    "confirm": ["Yes, that's right.", "Yes, correct.", "That's correct."],
    "ack": ["Okay.", "Sure.", "Alright."],
    "clarify": [
        "Sorry, could you say that again?",
        "I'm not sure what you mean, could you rephrase?",
    ],
    "unknown": ["I don't have that information right now.", "I'm not sure about that one."],
    "nudge": ["Hello? Are you still there?", "Hello, can you hear me?"],
    "backchannel": ["Mm-hm.", "Uh-huh.", "Right."],
    "end": ["Thanks, goodbye.", "Great, thank you. Bye.", "Thanks for your help, bye."],
    "answer": ["{value}.", "It's {value}.", "That would be {value}."],
    "fix": ["No, the {slot} is {value}.", "That's not right, the {slot} is {value}."],
    "approve": ["Yes, go ahead.", "Yes, please do.", "You have my approval, go ahead."],
    "decline": ["No, not yet.", "Please don't do that yet."],
    "which_slot": [
        "Sorry, do you mean the {slot_a} or the {slot_b}?",
        "Which one do you need, the {slot_a} or the {slot_b}?",
    ],
    "what_value": [
        "What do you have for the {slot}?",
        "What have you got down for the {slot}?",
    ],
    "more_later": [
        "Let's start with those. You also asked about the {slots}.",
        "That's the first part. You wanted the {slots} too.",
    ],
    "ask_readback": [
        "Before you do that, could you read the details back to me?",
        "Can you read me back what you have first, the {slots} and so on?",
    ],
}
REPAIR_VARIANTS: dict[str, list[str]] = {
    "repeat": ["{value}.", "It's {value}.", "I said {value}."],
    "spell": ["Sure.", "Of course.", "Sure thing."],
    "digits": ["Sure.", "Of course.", "Sure thing."],
    "what_need": ["What do you need from me?", "Sorry, what do you need from me?"],
    "not_said": [
        "I haven't given you the {slot} yet.",
        "I don't think I've given you the {slot} yet.",
    ],
    "dont_have": ["I don't have that one.", "Sorry, I don't have that one."],
    "slower": ["Sure, I'll slow down.", "Oh, sorry. I'll go slower."],
    "patience": ["I've said it {times} times now.", "That's {times} times I've said it."],
    "give_up": ["I'm sorry, this isn't working. I'll call back later. Goodbye."],
}
"""The caller's words for repairs (docs/simulator.md, "Repairs"): simulator plans, not
item plans, so items cannot override them. `spell` and `digits` are the lead-in said
before the spelled value; `repeat` has no fillers."""
SPELLED: Final = frozenset({"spell", "digits"})
FIXED_REPAIRS: Final = ("what_need", "dont_have", "slower", "give_up")
"""Repair plans whose words name nothing: rendered ahead with the item's plans."""
REPAIR_SLOT_NAMED: Final = frozenset({"not_said", "patience"})


VERBOSITIES: Final = ("terse", "plain", "verbose")
_VERBOSITY_ALIASES: Final = {"normal": "plain"}  # how item personas spell "plain"
UNFRAMED_KINDS: Final = frozenset({"backchannel", "nudge", "end", "ack", "again", *REPAIR_VARIANTS})
SLOT_NAMED: Final = frozenset(SLOT_PLACEHOLDERS)
"""Plans whose words name slots (not facts): rendered at run time, never pre-rendered."""
FRAMES: Final[tuple[tuple[str, str], ...]] = (
    ("Um, so... ", ""),
    ("Right, well... ", ""),
    ("Hmm, let me see. ", ""),
    ("", " If that makes sense."),
    ("Um, so... ", " If that makes sense."),
    ("Okay, so... ", ""),
)
"""Verbose discourse frames: (prefix, suffix) around the unchanged variant text."""


def variant_index(key: str, n: int) -> int:
    """Index in [0, n) from a key `item|simulator_seed|repetition_seed|plan|occurrence`."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % n


def _frame_index(key: str, n: int) -> int:
    """Index in [0, n) from the same key, independent of :func:`variant_index`."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[8:16], "big") % n


def frames_for(text: str) -> list[int]:
    """Indexes of the :data:`FRAMES` that fit ``text`` (a suffix needs a final ``.``)."""
    return [i for i, (_, suffix) in enumerate(FRAMES) if not suffix or text.endswith(".")]


def framed(text: str, frame: int) -> str:
    prefix, suffix = FRAMES[frame]
    return f"{prefix}{text}{suffix}"


def _canonical_verbosity(verbosity: str) -> str:
    value = _VERBOSITY_ALIASES.get(verbosity, verbosity)
    if value not in VERBOSITIES:
        expected = ", ".join(VERBOSITIES)
        raise ValueError(f"unknown verbosity {verbosity!r}; expected one of {expected}")
    return value


@dataclass(frozen=True)
class Realized:
    plan_id: str
    variant_id: str
    text: str
    pieces: tuple[str, ...] = ()
    """A spelled value: the words to speak one by one with a pause between them (the
    audio channel renders a clip per piece); empty: `text` in one clip."""
    speed: float = 1.0
    """The caller's speech rate, a factor of its persona's speed."""


class Realizer:
    """Turns plan ids into text using the item's bank, or the built-in defaults."""

    def __init__(
        self,
        item_id: str,
        user: UserSpec,
        simulator_seed: int,
        repetition_seed: int,
        *,
        verbosity: str = "plain",
    ) -> None:
        self.item_id = item_id
        self.user = user
        self.simulator_seed = simulator_seed
        self.repetition_seed = repetition_seed
        self.verbosity = _canonical_verbosity(verbosity)
        self._counts: dict[str, int] = {}

    def variants(self, plan_id: str) -> list[str]:
        kind, _, rest = plan_id.partition(":")
        if kind == "again":  # a turn said again: the words of the plan it repeats
            return self.variants(rest)
        if kind in REPAIR_VARIANTS:
            return REPAIR_VARIANTS[kind]
        if plan_id in self.user.realizations:
            return self.user.realizations[plan_id]
        return DEFAULT_VARIANTS[kind]

    def realize_plan(self, plan: Plan) -> Realized:
        """The words of one plan (a spelled value in pieces), at the plan's speech rate."""
        kind = plan.plan_id.partition(":")[0]
        style = plan.repair.style if plan.repair is not None else None
        realized = self.realize(plan.plan_id, list(plan.facts), plan.slots, times=plan.times)
        fact = self.user.fact(plan.facts[0]) if plan.facts else None
        if kind in SPELLED and fact is not None:
            form = _spelled(fact, kind, style)
            text = f"{realized.text} {form.text}"
            realized = replace(realized, text=text, pieces=(realized.text, *form.pieces))
        return replace(realized, speed=plan.speed)

    def realize(
        self, plan_id: str, facts: list[str], slots: tuple[str, ...] = (), *, times: int = 0
    ) -> Realized:
        variants = self.variants(plan_id)
        occurrence = self._counts.get(plan_id, 0)
        self._counts[plan_id] = occurrence + 1
        key = "|".join(
            str(p)
            for p in (self.item_id, self.simulator_seed, self.repetition_seed, plan_id, occurrence)
        )
        if self.verbosity == "terse":
            rendered = [self.render(v, facts, slots, times) for v in variants]
            index = _shortest(rendered)
            text = rendered[index]
        else:
            index = variant_index(key, len(variants))
            text = self.render(variants[index], facts, slots, times)
        variant_id = f"{plan_id}#v{index + 1}"
        if self._frames(plan_id):
            fits = frames_for(text)
            frame = fits[_frame_index(key, len(fits))]
            text = framed(text, frame)
            variant_id += f"+f{frame + 1}"
        return Realized(plan_id, variant_id, text)

    def all_texts(self) -> list[str]:
        """Every text this user can say at its verbosity: each variant of each plan
        (terse: the shortest; verbose: each variant in each frame that fits), rendered,
        and the repair lines that name no slot (said at the caller's rate)."""
        texts: list[str] = []
        for plan_id in [*all_plan_ids(self.user), *FIXED_REPAIRS]:
            if plan_id in SLOT_NAMED:
                continue
            facts = plan_facts(self.user, plan_id) or []
            rendered = [self.render(v, facts) for v in self.variants(plan_id)]
            if self.verbosity == "terse":
                rendered = [rendered[_shortest(rendered)]]
            if self._frames(plan_id):
                rendered = [framed(t, f) for t in rendered for f in frames_for(t)]
            texts += rendered
        return list(dict.fromkeys(texts))

    def repair_texts(self, spelling: Sequence[SpellingStyle]) -> list[str]:
        """What the caller says repairing a value (at its repeat rate, `repeat_speed`):
        each fact said again, spelled in `spelling` and read digit by digit, piece by
        piece, with the lead-ins."""
        texts = [self.render(v, []) for k in SPELLED for v in REPAIR_VARIANTS[k]]
        for fact in self.user.facts:
            texts += [self.render(v, [fact.id]) for v in REPAIR_VARIANTS["repeat"]]
            texts += spelled_texts(fact, spelling)
        return list(dict.fromkeys(texts))

    def _frames(self, plan_id: str) -> bool:
        """Whether this plan's words get a verbose discourse frame."""
        return self.verbosity == "verbose" and plan_id.partition(":")[0] not in UNFRAMED_KINDS

    def _slot_words(self, fact_id: str) -> str:
        """How the user names a fact aloud: its field's name, else its first alias."""
        fact = self.user.fact(fact_id)
        if fact is not None and fact.field:
            return fact.field.partition(".")[2].replace("_", " ")
        if fact is not None and fact.aliases:
            return fact.aliases[0]
        return self.user.slot_of(fact_id).replace("_", " ")

    def slot_words(self, slot: str) -> str:
        """How the user names a slot aloud: its first fact's field name or alias, else
        the slot's own words (an artifact field the user does not hold)."""
        if self.user.fact(slot) is not None:
            return self._slot_words(slot)
        return slot.rpartition(".")[2].replace("_", " ")

    def render(
        self, text: str, facts: list[str], slots: tuple[str, ...] = (), times: int = 0
    ) -> str:
        """Fill `{fact_id}` and `{value}` (the plan's first fact) with spoken forms, the
        slot placeholders (`{slot}`, `{slot_a}`, `{slot_b}`, `{slots}`) with words and
        `{times}` with a count in words."""
        named = [self.slot_words(s) for s in slots]
        by_slot = {"slot_a": named[:1], "slot_b": named[1:2], "slot": named[:1]}

        def spoken(name: str) -> str:
            if name == "times" and times:
                return count_words(times)
            if name == "slots" and named:
                return _joined(named)
            if by_slot.get(name):
                return by_slot[name][0]
            if name == "slot" and facts:
                return self._slot_words(facts[0])
            fact_id = facts[0] if name == "value" and facts else name
            fact = self.user.fact(fact_id)
            return fact.spoken if fact is not None else "{" + name + "}"

        rendered = PLACEHOLDER.sub(lambda m: spoken(m.group(1)), text)
        return rendered[:1].upper() + rendered[1:]


_COUNTS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]


def count_words(n: int) -> str:
    """ "three" for 3 (numbers past twelve as digits)."""
    return _COUNTS[n] if 0 <= n < len(_COUNTS) else str(n)


def value_text(fact: Fact) -> str:
    """The written value a caller spells or reads digit by digit (not its spoken form:
    "TX-2895-ZF", not "T X dash 2 8 9 5 dash Z F")."""
    value = fact.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _spelled(fact: Fact, kind: str, style: SpellingStyle | None) -> SpelledForm:
    if kind == "digits":
        return digit_groups(value_text(fact))
    return spell(value_text(fact), style or DEFAULT_SPELLING)


def spelled_texts(fact: Fact, styles: Sequence[SpellingStyle]) -> list[str]:
    """Every piece a caller may say spelling `fact` in `styles` or reading its digits
    (for `suite build` and rehearsals)."""
    forms = [spell(value_text(fact), s) for s in styles] + [digit_groups(value_text(fact))]
    return [p for form in forms for p in form.pieces]


def _joined(words: list[str]) -> str:
    """ "a", "a and the b", "a, the b and the c" (each after an implied "the")."""
    if len(words) == 1:
        return words[0]
    return ", the ".join(words[:-1]) + f" and the {words[-1]}"


def _shortest(texts: list[str]) -> int:
    """Index of the shortest text; ties go to the first."""
    return min(range(len(texts)), key=lambda i: (len(texts[i]), i))
