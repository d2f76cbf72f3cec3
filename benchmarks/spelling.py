"""Which spelling style survives TTS -> ASR: letters right per voice, style, audio and kind.

    taskset -c 0 .venv/bin/python benchmarks/spelling.py [--per-kind 30] [--json PATH]
    taskset -c 0 .venv/bin/python benchmarks/spelling.py --variants --clean-only --per-kind 15

Values: real user facts of the packaged suite workflows-v2 (person names, codes
such as tax ids and reference numbers, emails; `--per-kind` of each, the first
by sha256 of the value, so a sample is spread over the suite and fixed). Each
value is spelled (`duplexbench.values.spell`, or a variant), every piece is
taken from the speech bank in each neural voice (`speech.NEURAL`: piper:joe,
hibari:heart) and the pieces are joined by the gap's silence; the audio is
heard by whisper tiny.en (`speech.reference_listener`) clean, and through the
`realistic` condition's line (`audio.UserLine` with the default
`EffectsConfig`: muffling, background noise, bursts, G.711 telephony, frame
drops; seed from the value, so the run is deterministic; the condition's personas
and out-of-turn sounds are left out: each voice at its own rate), and the
transcript is read back by `values.read_spelled`.

Per value: letters right = 1 - (character edits / characters), over the letters
and digits of the value and of what was read, case-insensitive, at least 0;
exact = what was read equals the value, case-insensitive (for `digit_groups`,
which does not say separators: its letters and digits). A cell is their mean
over the values of a kind; "all" weighs letters right by length (edits over
letters of all the values). The table shows letters right (exact rate).
`digit_groups` is measured on the codes and on the suite's phone numbers.
Clips and transcripts are cached (speech bank, transcript cache): a second run
only reads them. Reports; never asserts a time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from duplexbench.audio import EffectsConfig, Int16Array, UserLine, spoken_pieces
from duplexbench.items import load_item
from duplexbench.speech import (
    NEURAL,
    Listener,
    SpeechBank,
    SynthesisSettings,
    engine_voices,
    reference_listener,
    word_edits,
)
from duplexbench.values import (
    SPELL_GAP_MS,
    SPELLING_STYLES,
    SpelledForm,
    SpellingStyle,
    digit_groups,
    read_spelled,
    spell,
)
from duplexbench.values._spelled import FORMS, spell_with

SUITE = Path(__file__).resolve().parents[1] / "src/duplexbench/suites/data/workflows-v2"
KINDS = ("names", "codes", "emails", "phones")


@dataclass(frozen=True)
class Variant:
    """One way of saying a value: its pieces, the gap between them, the speed."""

    name: str
    say: Callable[[str], SpelledForm]
    gap_ms: int = SPELL_GAP_MS
    speed: float = 1.0
    kinds: tuple[str, ...] = ("names", "codes", "emails")
    separators: bool = True
    """Whether the separators are said (else exact compares letters and digits only)."""


def _style(name: str) -> Callable[[str], SpelledForm]:
    style = cast(SpellingStyle, name)
    return lambda value: spell(value, style)


def _form(style: str, **changes: Any) -> Callable[[str], SpelledForm]:
    form = replace(FORMS[style], **changes)
    return lambda value: spell_with(value, form)


def variants(explore: bool) -> list[Variant]:
    """The styles and `digit_groups`; with `explore`, instead, the variations tried."""
    chosen = [Variant(style, _style(style)) for style in SPELLING_STYLES]
    chosen.append(
        Variant("digit_groups", digit_groups, kinds=("codes", "phones"), separators=False)
    )
    if not explore:
        return chosen
    per_word = {"group": None, "merge_single": True}
    return [
        Variant("words (adopted: a clip per letter, gap 250 ms)", _style("words")),
        Variant("words, gap 400 ms", _style("words"), gap_ms=400),
        Variant("words, a piece per word", _form("words", **per_word)),
        Variant("words, a piece per word, gap 400 ms", _form("words", **per_word), gap_ms=400),
        Variant("words, a piece per word, full stops", _form("words", **per_word, end=".")),
        Variant("words, a piece per word, lone pieces apart", _form("words", group=None)),
        Variant("words, a piece per word, speed 0.85", _form("words", **per_word), speed=0.85),
        Variant("words, domain spelled", _form("words", domain_words=False)),
        Variant("letters, whole words", _form("letters", group=None)),
        Variant("letters, spaces between letters", _form("letters", joiner=" ")),
        Variant("letters, one clip per character", _form("letters", group=1, merge_single=False)),
        Variant("phonetic, one clip per letter", _form("phonetic", group=1, merge_single=False)),
        Variant("phonetic, speed 0.85", _style("phonetic"), speed=0.85),
    ]


# ------------------------------------------------------------------ values


def _person(fact_id: str) -> bool:
    return (fact_id.endswith("_name") and fact_id != "legal_name") or fact_id == "contact_person"


def _code(value: str) -> bool:
    plain = value.replace("-", "")
    return plain.isalnum() and plain.isupper() and any(c.isdigit() for c in plain)


def suite_values(per_kind: int) -> dict[str, list[str]]:
    """`per_kind` values of each kind from workflows-v2's user facts (docstring)."""
    found: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for path in sorted(SUITE.glob("*-[0-9]*.yaml")):
        item = load_item(path)
        for fact in item.user.facts:
            value = fact.value
            if not isinstance(value, str):
                continue
            if "@" in value:
                found["emails"].add(value)
            elif _code(value):
                found["codes"].add(value)
            elif _person(fact.id):
                found["names"].add(value)
            elif fact.id.endswith("_phone"):
                found["phones"].add(value)

    def order(value: str) -> str:
        return hashlib.sha256(value.encode()).hexdigest()

    return {kind: sorted(values, key=order)[:per_kind] for kind, values in found.items()}


# ------------------------------------------------------------------ audio


def neural_voices() -> list[str]:
    engines = [name for name, neural in NEURAL.items() if neural]
    return [f"{e.engine}:{v}" for e in engine_voices(engines) if e.available for v in e.voices]


def spoken(bank: SpeechBank, voice: str, form: SpelledForm, variant: Variant) -> Int16Array:
    """The pieces in `voice`, joined by the variant's gap of silence, as the audio
    channel joins them (`duplexbench.audio.spoken_pieces`)."""
    settings = SynthesisSettings(speed=variant.speed)
    clips = [bank.clip(piece, voice, settings).samples for piece in form.pieces]
    return spoken_pieces(clips, variant.gap_ms)  # as the caller says them


def on_the_line(samples: Int16Array, value: str) -> Int16Array:
    """`samples` through the realistic condition's line effects (seeded by the value)."""
    seed = int.from_bytes(hashlib.sha256(value.encode()).digest()[:4], "big")
    line = UserLine(EffectsConfig(), seed)
    line.note_speech(samples)
    return line.process(samples)


def _alnum(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _exact(value: str, read: str, variant: Variant) -> bool:
    if variant.separators:
        return read.casefold() == value.casefold()
    return _alnum(read) == _alnum(value)


def letters_right(value: str, read: str) -> float:
    truth = _alnum(value)
    return max(0.0, 1.0 - word_edits(truth, _alnum(read)) / max(1, len(truth)))


# ------------------------------------------------------------------ measuring


def measure(
    values: dict[str, list[str]],
    voices: Iterable[str],
    chosen: list[Variant],
    listener: Listener,
    audios: tuple[str, ...],
) -> list[dict[str, Any]]:
    """Every value heard: its transcript, what was read and its scores."""
    assert listener.asr is not None, listener.missing
    bank = SpeechBank()
    heard: list[dict[str, Any]] = []
    for voice in voices:
        for variant in chosen:
            for kind in variant.kinds:
                clips = [(v, spoken(bank, voice, variant.say(v), variant)) for v in values[kind]]
                for audio in audios:
                    for value, samples in clips:
                        line = samples if audio == "clean" else on_the_line(samples, value)
                        text = listener.asr.transcribe(line).text if line.size else ""
                        read = read_spelled(text)
                        truth = _alnum(value)
                        edits = min(len(truth), word_edits(truth, _alnum(read)))
                        heard.append({
                            "voice": voice, "style": variant.name, "audio": audio, "kind": kind,
                            "value": value, "heard": text, "read": read,
                            "letters_right": letters_right(value, read),
                            "exact": _exact(value, read, variant),
                            "edits": edits, "letters": len(truth),
                        })  # fmt: skip
                    print(voice, variant.name, kind, audio, file=sys.stderr, flush=True)
    return heard


def cells(heard: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean letters right and exact rate per voice, style, audio and kind, and over all
    kinds ("all": letters right weighted by the values' lengths, edits over letters)."""
    groups: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for row in heard:
        for kind in (row["kind"], "all"):
            groups.setdefault((row["voice"], row["style"], row["audio"], kind), []).append(row)
    out = []
    for (voice, style, audio, kind), rows in groups.items():
        if kind == "all":
            right = 1 - sum(r["edits"] for r in rows) / max(1, sum(r["letters"] for r in rows))
        else:
            right = float(np.mean([r["letters_right"] for r in rows]))
        exact = float(np.mean([r["exact"] for r in rows]))
        out.append({"voice": voice, "style": style, "audio": audio, "kind": kind,
                    "values": len(rows), "letters_right": round(right, 3),
                    "exact": round(exact, 3)})  # fmt: skip
    return out


def table(found: list[dict[str, Any]]) -> str:
    """One row per voice and style: letters right (exact rate) per audio and kind."""
    index = {(c["voice"], c["style"], c["audio"], c["kind"]): c for c in found}
    audios = list(dict.fromkeys(c["audio"] for c in found))
    kinds = [*dict.fromkeys(c["kind"] for c in found if c["kind"] != "all"), "all"]
    head = [f"{audio} {kind}" for audio in audios for kind in kinds]
    lines = ["| voice | style | " + " | ".join(head) + " |", "|---|---|" + "---:|" * len(head)]
    for voice, style in dict.fromkeys((c["voice"], c["style"]) for c in found):
        row = []
        for audio in audios:
            for kind in kinds:
                cell = index.get((voice, style, audio, kind))
                row.append(f"{cell['letters_right']:.3f} ({cell['exact']:.2f})" if cell else "–")
        lines.append(f"| `{voice}` | {style} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-kind", type=int, default=30, help="values of each kind")
    parser.add_argument("--variants", action="store_true", help="the variations tried instead")
    parser.add_argument("--clean-only", action="store_true", help="skip the realistic line")
    parser.add_argument("--voice", action="append", help="only these voices (repeatable)")
    parser.add_argument("--only", action="append", help="only the variants named (repeatable)")
    parser.add_argument("--json", type=Path, help="write cells and transcripts here")
    args = parser.parse_args()
    start = time.perf_counter()
    values = suite_values(args.per_kind)
    audios = ("clean",) if args.clean_only else ("clean", "realistic")
    voices = args.voice or neural_voices()
    chosen = [v for v in variants(args.variants) if not args.only or v.name in args.only]
    heard = measure(values, voices, chosen, reference_listener(), audios)
    found = cells(heard)
    print(table([c for c in found if c["style"] != "digit_groups"]))
    if any(c["style"] == "digit_groups" for c in found):
        print()
        print(table([c for c in found if c["style"] == "digit_groups"]))
    seconds = time.perf_counter() - start
    print(f"{len(heard)} transcripts in {seconds:.0f} s", file=sys.stderr)
    if args.json:
        report = {"format": "duplexbench-spelling/1", "argv": sys.argv[1:], "values": values,
                  "cells": found, "heard": heard, "wall_s": round(seconds, 1)}  # fmt: skip
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
