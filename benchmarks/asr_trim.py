"""Whisper accuracy and encode time: the full 30 s window vs the trimmed window.

Decides whether the whisper backend may encode only what was said
(``WhisperASR(encode_margin=M)``) instead of the padded 30 s window
(``encode_margin=None``): adopt when the word error rate worsens by at most 0.5
points and slot accuracy does not drop. Reported, never asserted; the decision
and table are recorded in docs/audio.md.

    taskset -c 0 .venv/bin/python benchmarks/asr_trim.py [--per-group 150] [--margins 50 100]

Clips: every (text, voice) the built-in workflow suites can play
(workflows-mini, -v1, -v2): each item's user realizations in the item's
voice ("user" lines) and its reference trajectory's lines in the reference
agent's voice, piper:joe ("agent" lines). Per (voice, role) group the clips
are ordered by sha256 of voice and text and the first ``--per-group`` taken,
so the set is fixed; missing clips are rendered into the speech bank
(``DUPLEXBENCH_SPEECH_CACHE``, default ~/.cache/duplexbench/speech). Each clip
is transcribed by each setting directly (no transcript cache), one after the
other, on ``--threads`` threads.

Words: both the clip's text and the transcript are normalized by
:func:`words`. WER = (substitutions + deletions + insertions) / reference
words, summed over the clips of a row.

Slots: a slot of a clip is a fact of the clip's item whose value (or spoken
form) is an identifier (no spaces; a letter and a digit, or an "@"), a number
(has a digit: amounts, dates, phones, addresses) or a name (no digit, every
word capitalized, not all capitals), and whose normalized value or spoken form
occurs, as a run of words, in the normalized clip text. It is correct when
that run of words occurs in the normalized transcript. Enumerations
("materials", "EUR") and lists are no slots.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplexbench.items._suite import load_suite
from duplexbench.items._user import Fact
from duplexbench.items._workflow import WorkflowItem
from duplexbench.speech._asr import WhisperASR
from duplexbench.speech._bank import SpeechBank
from duplexbench.speech._tts import DEFAULT_VOICE, VoiceRef
from duplexbench.speech._voice_check import word_edits
from duplexbench.suites._package import resolve_suite
from duplexbench.users._realization import Realizer
from duplexbench.values._numbers import int_prefix

SUITES = ("workflows-mini", "workflows-v1", "workflows-v2")
AGENT_VOICE = str(DEFAULT_VOICE)
"""The reference agent's voice (its session speaks in the default voice)."""
MAX_WER_POINTS = 0.5

# --- words --------------------------------------------------------------------------------

_DOLLARS = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)(\s?(?:k|thousand|million|billion)\b)?", re.I)
_CLOCK = re.compile(r"\b([ap])\.\s?m\b\.?", re.I)
_TOKEN = re.compile(r"[^\W_]+(?:\.\d+)?|[,;:!?]|\.(?=\s|$)")
"""Words, and the punctuation that ends a run of code pieces or a spelled number."""
_SPOKEN_MARKS = frozenset({"dash", "hyphen", "dot"})
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_CLOCK_SUFFIX = re.compile(r"^(\d+)(am|pm)$")


def _plain(text: str) -> str:
    """NFKC, diacritics dropped, symbols spelled: "$1,200" -> "1200 dollars"."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = _DOLLARS.sub(lambda m: f"{m[1]}{m[2] or ''} dollars", text)
    text = _CLOCK.sub(lambda m: f"{m[1]}m", text)
    text = text.replace("%", " percent ").replace("&", " and ").replace("@", " at ")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    return re.sub(r"['\u2019]", "", text)


def _spelled_numbers(tokens: list[str]) -> list[str]:
    """Number words as digits ("twenty six" -> "26", "thirteenth" -> "13")."""
    out: list[str] = []
    lower = [t.lower() for t in tokens]
    i = 0
    while i < len(tokens):
        parsed = int_prefix(lower, i, allow_ordinal=True, allow_article=False)
        if parsed is None:
            out.append(tokens[i])
            i += 1
        else:
            out.append(str(parsed[0]))
            i = parsed[1]
    return out


def _code_like(token: str) -> bool:
    """A piece of a dictated code: digits, letters mixed with digits, or 1-3 capitals."""
    has_digit = any(c.isdigit() for c in token)
    return has_digit or (token.isalpha() and token.isupper() and len(token) <= 3)


def _joinable(run: list[str]) -> bool:
    """A dictated code, not words that happen to be short: two or more letters and a
    digit ("V S 879"), or nothing but single capitals ("T X") or single digits ("2 8")."""
    letters = sum(c.isalpha() for t in run for c in t)
    digits = sum(c.isdigit() for t in run for c in t)
    single = all(len(t) == 1 for t in run)
    return len(run) > 1 and (
        (letters >= 2 and digits > 0) or (single and (letters == 0 or digits == 0))
    )


def _merged_codes(tokens: list[str]) -> list[str]:
    """Runs of code pieces as one word: "T X 2 8 9 5 Z F" and "TX-2895-ZF" -> "tx2895zf"
    (a comma or a sentence end ends a run); the punctuation is dropped."""
    out: list[str] = []
    run: list[str] = []
    for token in [*tokens, ""]:
        if token and _code_like(token):
            run.append(token)
            continue
        out += ["".join(run)] if _joinable(run) else run
        run = []
        if token and token[0].isalnum():
            out.append(token)
    return [t.lower() for t in out]


def words(text: str) -> list[str]:
    """The words WER and slots compare: lower case, punctuation and diacritics dropped,
    "dash"/"hyphen"/"dot" dropped, numbers as digits (spoken, "1,200", "$", "%" and
    ordinals "13th" -> "13"), "9am" -> "9 am", dictated codes joined into one word
    ("V S dash 8 7 9" and "VS-879" -> "vs879")."""
    tokens: list[str] = []
    for token in _TOKEN.findall(_plain(text)):
        if token.lower() in _SPOKEN_MARKS:
            continue
        if ordinal := _ORDINAL.match(token.lower()):
            tokens.append(ordinal[1])
        elif clock := _CLOCK_SUFFIX.match(token.lower()):
            tokens += [clock[1], clock[2]]
        else:
            tokens.append(token)
    return _merged_codes(_spelled_numbers(tokens))


def contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return n > 0 and any(list(haystack[i : i + n]) == list(needle) for i in range(len(haystack)))


# --- clips and slots ----------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    fact: str
    kind: str  # identifier | number | name
    forms: tuple[tuple[str, ...], ...]  # normalized spoken form and value


@dataclass(frozen=True)
class Clip:
    text: str
    voice: str
    role: str  # user | agent
    item: str
    slots: tuple[Slot, ...] = field(default=())


def slot_kind(value: str) -> str | None:
    if not value.strip():
        return None
    has_digit = any(c.isdigit() for c in value)
    if (" " not in value.strip() and has_digit and any(c.isalpha() for c in value)) or (
        "@" in value
    ):
        return "identifier"
    if has_digit:
        return "number"
    names = value.split()
    if all(w[:1].isupper() for w in names) and not value.replace(" ", "").isupper():
        return "name"
    return None


def _fact_values(fact: Fact) -> list[tuple[str, tuple[str, ...]]]:
    """(value as text, the forms it is said in) of a fact; a list gives each element."""
    if isinstance(fact.value, list):
        return [(v, (v,)) for v in fact.value if isinstance(v, str)]
    if isinstance(fact.value, bool) or not isinstance(fact.value, str | int | float):
        return []
    return [(str(fact.value), (fact.spoken, str(fact.value)))]


def item_slots(item: WorkflowItem) -> list[Slot]:
    """The item's facts that are identifiers, numbers or names (a list: each element)."""
    slots: list[Slot] = []
    for fact in item.user.facts:
        values = _fact_values(fact)
        for n, (text, forms) in enumerate(values):
            kind = slot_kind(text)
            if kind is None:
                continue
            name = f"{fact.id}[{n}]" if isinstance(fact.value, list) else fact.id
            normalized = {tuple(words(f)) for f in forms} - {()}
            slots.append(Slot(name, kind, tuple(sorted(normalized))))
    return slots


def clip_slots(text: str, slots: Iterable[Slot]) -> tuple[Slot, ...]:
    """The slots whose value occurs in `text` (only the forms that occur are kept)."""
    said = words(text)
    found = []
    for slot in slots:
        forms = tuple(f for f in slot.forms if contains(said, f))
        if forms:
            found.append(Slot(slot.fact, slot.kind, forms))
    return tuple(found)


def candidate_clips() -> list[Clip]:
    """Every distinct (text, voice) of the built-in workflow suites, first item wins."""
    seen: dict[tuple[str, str], Clip] = {}
    for name in SUITES:
        for item in load_suite(resolve_suite(name)).items:
            assert isinstance(item, WorkflowItem)
            slots = item_slots(item)
            persona = item.user.persona.voice
            user_voice = AGENT_VOICE if persona in (None, "", "default") else persona
            user_voice = str(VoiceRef.parse(user_voice))
            lines = [
                (t, user_voice, "user") for t in Realizer(item.id, item.user, 0, 0).all_texts()
            ]
            lines += [(t.say, AGENT_VOICE, "agent") for t in item.reference.turns if t.say.strip()]
            for text, voice, role in lines:
                if (text, voice) not in seen:
                    seen[(text, voice)] = Clip(text, voice, role, item.id, clip_slots(text, slots))
    return list(seen.values())


def sample(clips: list[Clip], per_group: int) -> list[Clip]:
    """The first `per_group` clips of each (voice, role) by sha256 of voice and text."""
    groups: dict[tuple[str, str], list[Clip]] = {}
    for clip in clips:
        groups.setdefault((clip.voice, clip.role), []).append(clip)
    chosen: list[Clip] = []
    for key in sorted(groups):
        ranked = sorted(
            groups[key], key=lambda c: hashlib.sha256(f"{c.voice}\n{c.text}".encode()).hexdigest()
        )
        chosen += ranked[:per_group]
    return chosen


# --- transcription and scoring ------------------------------------------------------------


@dataclass
class Tally:
    clips: int = 0
    ref_words: int = 0
    errors: int = 0
    slots: int = 0
    slots_ok: int = 0
    encode_s: float = 0.0
    transcribe_s: float = 0.0
    by_kind: dict[str, list[int]] = field(default_factory=dict)

    def add(self, clip: Clip, hypothesis: str, encode_s: float, transcribe_s: float) -> None:
        ref, hyp = words(clip.text), words(hypothesis)
        self.clips += 1
        self.ref_words += len(ref)
        self.errors += word_edits(ref, hyp)
        self.encode_s += encode_s
        self.transcribe_s += transcribe_s
        for slot in clip.slots:
            ok = any(contains(hyp, form) for form in slot.forms)
            self.slots += 1
            self.slots_ok += ok
            kind = self.by_kind.setdefault(slot.kind, [0, 0])
            kind[0] += 1
            kind[1] += ok

    def summary(self) -> dict[str, Any]:
        return {
            "clips": self.clips,
            "words": self.ref_words,
            "wer_pct": round(100 * self.errors / max(1, self.ref_words), 2),
            "slots": self.slots,
            "slot_acc_pct": round(100 * self.slots_ok / max(1, self.slots), 2),
            "slot_acc_by_kind_pct": {
                k: [n, round(100 * ok / max(1, n), 2)]
                for k, (n, ok) in sorted(self.by_kind.items())
            },
            "encode_ms_per_clip": round(1000 * self.encode_s / max(1, self.clips), 1),
            "transcribe_ms_per_clip": round(1000 * self.transcribe_s / max(1, self.clips), 1),
        }


def timed(engine: WhisperASR, clip_samples: Any) -> tuple[str, float, float]:
    """(text, encode seconds, transcribe seconds) of one clip."""
    encode_before = engine.encoder.seconds
    start = time.perf_counter()
    text = engine.transcribe(clip_samples).text
    return text, engine.encoder.seconds - encode_before, time.perf_counter() - start


def evaluate(clips: list[Clip], margins: list[int], threads: int) -> dict[str, Any]:
    bank = SpeechBank()
    settings: dict[str, int | None] = {"full": None, **{f"trim{m}": m for m in margins}}
    engines = {
        name: WhisperASR(cpu_threads=threads, encode_margin=m) for name, m in settings.items()
    }
    warm = bank.clip("Hello, can you hear me?", AGENT_VOICE).samples
    for engine in engines.values():
        engine.transcribe(warm)  # load the model (and the padding output) before timing
    tallies = {name: {} for name in engines}  # type: dict[str, dict[str, Tally]]
    rows: list[dict[str, Any]] = []
    for n, clip in enumerate(clips, 1):
        samples = bank.clip(clip.text, clip.voice).samples
        row: dict[str, Any] = {"text": clip.text, "voice": clip.voice, "role": clip.role}
        for name, engine in engines.items():
            text, encode_s, total_s = timed(engine, samples)
            row[name] = text
            for group in (f"{clip.voice} {clip.role}", clip.voice, "all"):
                tallies[name].setdefault(group, Tally()).add(clip, text, encode_s, total_s)
        rows.append(row)
        if n % 25 == 0:
            print(f"{n}/{len(clips)} clips", file=sys.stderr, flush=True)
    table = {name: {g: t.summary() for g, t in groups.items()} for name, groups in tallies.items()}
    return {"settings": settings, "table": table, "clips": rows}


def decide(result: dict[str, Any], name: str) -> dict[str, Any]:
    """The decision rule for setting `name` against "full", and how its clips differ."""
    full, trim = result["table"]["full"]["all"], result["table"][name]["all"]
    wer_delta = round(trim["wer_pct"] - full["wer_pct"], 2)
    slot_delta = round(trim["slot_acc_pct"] - full["slot_acc_pct"], 2)
    better = worse = 0
    for row in result["clips"]:
        ref = words(row["text"])
        errors = word_edits(ref, words(row[name])) - word_edits(ref, words(row["full"]))
        better, worse = better + (errors < 0), worse + (errors > 0)
    return {
        "wer_delta_points": wer_delta,
        "slot_acc_delta_points": slot_delta,
        "adopt": wer_delta <= MAX_WER_POINTS and slot_delta >= 0,
        "clips_differ": sum(row[name] != row["full"] for row in result["clips"]),
        "clips_fewer_errors": better,
        "clips_more_errors": worse,
        "empty": [row["text"] for row in result["clips"] if not row[name].strip()],
        "empty_full": [row["text"] for row in result["clips"] if not row["full"].strip()],
    }


def markdown(table: dict[str, dict[str, dict[str, Any]]]) -> str:
    names = list(table)
    head = (
        "| clips | setting | words | WER % | slots | slot acc. % | encode ms/clip | ASR ms/clip |"
    )
    lines = [head, "|---|---|---:|---:|---:|---:|---:|---:|"]
    voices = {g for g in table["full"] if " " not in g and g != "all"}
    groups = sorted(g for g in table["full"] if " " in g) + sorted(
        voices if len(voices) > 1 else []
    )
    for group in [*groups, "all"]:
        for name in names:
            s = table[name][group]
            lines.append(
                f"| {group} ({s['clips']}) | {name} | {s['words']} | {s['wer_pct']:.2f} "
                f"| {s['slots']} | {s['slot_acc_pct']:.2f} | {s['encode_ms_per_clip']:.0f} "
                f"| {s['transcribe_ms_per_clip']:.0f} |"
            )
    for name in names:
        kinds = ", ".join(
            f"{k} {acc:.1f}% of {n}"
            for k, (n, acc) in table[name]["all"]["slot_acc_by_kind_pct"].items()
        )
        lines.append(f"\n{name} slot accuracy by kind: {kinds}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-group", type=int, default=150, help="clips per (voice, role)")
    parser.add_argument("--margins", type=int, nargs="+", default=[50], help="frames after speech")
    parser.add_argument("--threads", type=int, default=1, help="whisper CPU threads")
    parser.add_argument("--json", type=Path, help="also write the table and every transcript here")
    args = parser.parse_args(argv)
    clips = sample(candidate_clips(), args.per_group)
    result = evaluate(clips, args.margins, args.threads)
    result["decision"] = {f"trim{m}": decide(result, f"trim{m}") for m in args.margins}
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    print(markdown(result["table"]))
    print(json.dumps(result["decision"], indent=1))
    return result


if __name__ == "__main__":
    main()
