"""The semantic slot matcher: which of the item's slots a sentence is about.

For a sentence and each slot of the item it computes a few features:

- ``cos``: cosine of the sentence's e5 embedding with the slot's passage
  ("contact person: Main contact at the vendor"), and ``cos_name``, the best
  cosine with the slot's names and aliases alone; both also centred on the
  item's mean, so a slot stands out from its neighbours;
- ``wh``: whether the sentence's wh-word fits the slot's value kind (*who*
  asks for a person, *when* for a date, *how many* for a count, *what number*
  for a phone or an id; +1 fits, -1 does not, 0 no wh-word);
- ``lex``: the share of the slot's distinctive words (name, description,
  aliases; weighted by how rare they are among the item's slots) that the
  sentence uses, after light stemming and a small synonym table;
- ``kindword``: the sentence names the kind of value ("email", "phone",
  "address", "how much", ...);
- ``choice``: the sentence lists the slot's options ("materials, services or
  software");
- ``unheld``: the caller does not hold the slot (a value to look up).

A linear model scores each slot, plus a *none* option scored from the best
cosine, and a softmax turns the scores into probabilities. The weights are
fitted on the development half of the observer corpus
(`python -m duplexbench.suites.observer_fit`) and shipped in
`semantic_weights.json`; the held-out half measures them. The matcher answers
one slot when its probability is high, two (unsure between them) when the
top two together are, and nothing otherwise: it abstains rather than guess.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from duplexbench.users._observer.cues import WH_CLASSES, normalize, wh_class, word_set
from duplexbench.users._observer.embedder import DIM, Embedder
from duplexbench.users._observer.slots import Slot
from duplexbench.users._observer.spotting import shapes_in

FEATURES = (
    "cos",
    "cos_c",
    "cos_wh_c",
    "cos_name",
    "cos_name_c",
    "wh",
    "lex",
    "kindword",
    "choice",
    "shape",
    "unheld",
    "named",
)
WEIGHTS_FILE = Path(__file__).with_name("semantic_weights.json")

_STOP = word_set(
    """
    a an the and or of for to in on at by with from as is are was were be been being it
    its it's this that these those there here what what's which who who's whom whose
    when where how why do does did can could would will shall should may might must i
    i'm i'll i'd i've me my we we'll we're our you you're your yours they they're their
    them he she his her please just so okay ok um uh well also then now next got get
    give tell let let's need want like know have has had any some all one about over up
    out if not no yes yeah sure thanks thank great right going go put down say said e g
    eg
    """
)
_SYNONYMS = {
    "phone": "phone",
    "telephone": "phone",
    "mobile": "phone",
    "cell": "phone",
    "call": "phone",
    "ring": "phone",
    "reach": "phone",
    "line": "phone",
    "email": "email",
    "e-mail": "email",
    "mail": "email",
    "inbox": "email",
    "address": "address",
    "street": "address",
    "located": "address",
    "location": "address",
    "postal": "address",
    "premises": "address",
    "date": "date",
    "day": "date",
    "when": "date",
    "deadline": "date",
    "cost": "money",
    "price": "money",
    "dollar": "money",
    "dollars": "money",
    "budget": "money",
    "spend": "money",
    "fee": "money",
    "amount": "money",
    "percent": "percent",
    "percentage": "percent",
    "people": "count",
    "name": "name",
    "called": "name",
    "code": "code",
    "reference": "reference",
    "ref": "reference",
    "firm": "company",
    "business": "company",
    "organisation": "company",
    "organization": "company",
}
_KINDWORDS = {
    "email": r"\b(e ?mail|email address|inbox)\b",
    "phone": r"\b(phone|number to (?:call|reach|ring)|call (?:you|them|him|her)|reach "
    r"(?:you|them|him|her)|ring|mobile|cell|direct line|extension)\b",
    "address": r"\b(address|where|located|street|postal|premises|site)\b",
    "date": r"\b(date|when|what day|which day|deadline|start|begin)\b",
    "time": r"\b(time|hours|window|when|o'clock|morning|afternoon)\b",
    "person": r"\b(who|whose|name|person|contact)\b",
    "people": r"\b(who|names|people|everyone|anyone)\b",
    "company": r"\b(company|firm|business|organi[sz]ation|vendor|supplier)\b",
    "money": r"\b(how much|cost|dollars?|budget|spend|price|amount|fee|pay)\b",
    "count": r"\b(how many|number of|headcount|count)\b",
    "percent": r"\b(percent|percentage|rate)\b",
    "id": r"\b(number|code|reference|id|identifier)\b",
}


def _stem(word: str) -> str:
    word = word.strip("'")
    if word.endswith("'s"):
        word = word[:-2]
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def content_words(text: str) -> set[str]:
    """Stemmed content words, with synonyms mapped to one class word."""
    out = set()
    for word in normalize(text).split():
        if word in _STOP or len(word) < 2:
            continue
        out.add(_stem(word))
        if word in _SYNONYMS:
            out.add(_SYNONYMS[word])
    return out


@dataclass(frozen=True)
class Weights:
    w: tuple[float, ...]
    metric: tuple[float, ...]
    """A weight per embedding dimension: the learned part of the sentence-slot similarity
    (sum over dimensions of weight x sentence x slot question), fitted with the rest."""
    none_bias: float
    none_cos: float
    accept: float
    """Smallest probability of the best slot to answer it."""
    pair: float
    """Smallest probability of the top two together to be unsure between them."""
    version: str

    @classmethod
    def load(cls, path: Path = WEIGHTS_FILE) -> Weights:
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"{path}: weights are for other features")
        metric = tuple(float(x) for x in data["metric"])
        if len(metric) != DIM:
            raise ValueError(f"{path}: the metric has {len(metric)} weights, not {DIM}")
        return cls(
            tuple(float(x) for x in data["w"]),
            metric,
            float(data["none_bias"]),
            float(data["none_cos"]),
            float(data["accept"]),
            float(data["pair"]),
            str(data["version"]),
        )


@cache
def shipped_weights() -> Weights:
    return Weights.load()


@dataclass(frozen=True)
class Match:
    """The matcher's answer for one sentence: one slot, two it is unsure between, or none."""

    slots: tuple[str, ...]
    unsure: bool
    probabilities: tuple[tuple[str, float], ...]
    """The top slots with their probabilities (best first), for logs and tests."""


class SlotMatcher:
    """Features and decisions for one item's slots (their embeddings computed once)."""

    def __init__(self, slots: tuple[Slot, ...], embedder: Embedder, weights: Weights) -> None:
        self.slots = slots
        self.embedder = embedder
        self.weights = weights
        self._asks = embedder.queries([ask_passage(s) for s in slots])
        self._wh = embedder.queries([wh_passage(s) for s in slots])
        names = [list(s.names) or [s.words] for s in slots]
        flat = [n for group in names for n in group]
        vectors = embedder.queries(flat)
        self._name_rows: list[NDArray[np.float32]] = []
        start = 0
        for group in names:
            self._name_rows.append(vectors[start : start + len(group)])
            start += len(group)
        self._lexicon = [
            content_words(f"{s.words} {s.description} {' '.join(s.names)}") for s in slots
        ]
        counts: dict[str, int] = {}
        for words in self._lexicon:
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        self._idf = {w: math.log(1 + len(slots) / c) for w, c in counts.items()}

    def inputs(
        self, sentence: str, named: frozenset[str] = frozenset()
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """One row of `FEATURES` per slot (`named`: slots the sentence names), and one row
        per slot of the sentence's embedding times the slot question's (for the metric)."""
        q = self.embedder.query(sentence)
        return self._features(q, sentence, named), (self._asks * q).astype(np.float64)

    def _features(
        self, q: NDArray[np.float32], sentence: str, named: frozenset[str]
    ) -> NDArray[np.float64]:
        cos = (self._asks @ q).astype(np.float64)
        cos_wh = (self._wh @ q).astype(np.float64)
        cos_name = np.array([float(np.max(rows @ q)) for rows in self._name_rows])
        wh = wh_class(sentence)
        norm = normalize(sentence)
        said = content_words(sentence)
        shapes = shapes_in(sentence)
        rows = []
        for i, slot in enumerate(self.slots):
            rows.append(
                [
                    cos[i],
                    cos[i] - cos.mean(),
                    cos_wh[i] - cos_wh.mean(),
                    cos_name[i],
                    cos_name[i] - cos_name.mean(),
                    _wh_fit(wh, slot.kind),
                    self._lex(i, said),
                    _kindword(norm, slot.kind),
                    _choices(norm, slot.choices),
                    1.0 if slot.kind in shapes else 0.0,
                    0.0 if slot.held else 1.0,
                    1.0 if slot.id in named else 0.0,
                ]
            )
        return np.array(rows, dtype=np.float64)

    def _lex(self, i: int, said: set[str]) -> float:
        words = self._lexicon[i]
        total = sum(self._idf[w] for w in words)
        if total <= 0:
            return 0.0
        return sum(self._idf[w] for w in words & said) / total

    def probabilities(
        self, sentence: str, named: frozenset[str] = frozenset()
    ) -> NDArray[np.float64]:
        """Softmax over the slots and a last entry for *none*."""
        feats, products = self.inputs(sentence, named)
        w = self.weights
        logits = feats @ np.array(w.w) + products @ np.array(w.metric)
        none = w.none_bias + w.none_cos * float(feats[:, 0].max(initial=0.0))
        scores = np.append(logits, none)
        scores -= scores.max()
        exp = np.exp(scores)
        return np.asarray(exp / exp.sum(), dtype=np.float64)

    def match(self, sentence: str, named: frozenset[str] = frozenset()) -> Match:
        probs = self.probabilities(sentence, named)
        order = [int(i) for i in np.argsort(-probs[:-1], kind="stable")]
        top = [(self.slots[i].id, round(float(probs[i]), 4)) for i in order[:3]]
        if not order:
            return Match((), False, ())
        first = order[0]
        if probs[first] >= self.weights.accept:
            return Match((self.slots[first].id,), False, tuple(top))
        if len(order) > 1 and probs[first] + probs[order[1]] >= self.weights.pair:
            pair = (self.slots[first].id, self.slots[order[1]].id)
            return Match(pair, True, tuple(top))
        return Match((), False, tuple(top))


_WH_OPENERS = {
    "person": "Who is the",
    "people": "Who are the",
    "company": "Which company is the",
    "date": "When is the",
    "time": "What time is the",
    "address": "What is the address of the",
    "count": "How many is the",
    "money": "How much is the",
    "percent": "What percentage is the",
    "phone": "What phone number is the",
    "email": "What email address is the",
    "id": "What number is the",
    "enum": "Which is the",
}


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def ask_passage(slot: Slot) -> str:
    """The slot as a question an agent might ask, embedded as a query (symmetric e5)."""
    what = _lower_first(slot.description) if slot.description else slot.words
    return f"Could you tell me the {slot.words}, that is the {what}?"


def wh_passage(slot: Slot) -> str:
    """The slot as a wh-question of its kind ("Who is the main contact at the vendor?")."""
    what = _lower_first(slot.description) if slot.description else slot.words
    return f"{_WH_OPENERS.get(slot.kind, 'What is the')} {what}?"


def _wh_fit(wh: str | None, kind: str) -> float:
    if wh is None:
        return 0.0
    return 1.0 if kind in WH_CLASSES[wh] else -1.0


@cache
def _kind_pattern(kind: str) -> re.Pattern[str] | None:
    pattern = _KINDWORDS.get(kind)
    return re.compile(pattern) if pattern else None


def _kindword(norm: str, kind: str) -> float:
    pattern = _kind_pattern(kind)
    return 1.0 if pattern is not None and pattern.search(norm) else 0.0


def _choices(norm: str, choices: tuple[str, ...]) -> float:
    if not choices:
        return 0.0
    named = sum(1 for c in choices if f" {normalize(c).strip()} " in norm)
    return min(named, 2) / 2
