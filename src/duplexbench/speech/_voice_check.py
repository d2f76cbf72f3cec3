"""Measuring a voice: real-time factor and round-trip word error rate.

`duplexbench voices` speaks the fixed sentence set :data:`VOICE_SENTENCES`
(codes, phone numbers, a name, a date, an amount and a plain sentence: what a
caller dictates) with every voice and measures two things:

- **real-time factor** (RTF): wall time of synthesis over the duration of the
  audio, summed over the set. Each clip is rendered through the engine itself
  (:func:`~duplexbench.speech._synthesis.synthesize_checked`: the engine's call
  and the conversion to 16 kHz), never taken from the speech bank, so the time
  is real. One untimed warm-up line per voice comes first, so a model that
  loads on first use (piper) does not count its loading.
- **round-trip WER**: each clip is transcribed by the reference ASR (``whisper``)
  and compared with its sentence. The voice's WER is the word edits over the
  set divided by the reference words of the set (not a mean of per-sentence
  rates). Without the ASR it is None, with the reason.

Both texts are first put in one form by :func:`normalize_words`, so a number
counts as heard whether the ASR wrote it in digits or in words:

1. lowercase; ``$N`` / ``£N`` / ``€N`` become ``N dollars`` / ``pounds`` /
   ``euros``, ``%`` becomes ``percent``;
2. thousands commas inside numbers are dropped (``1,250`` -> ``1250``), a
   ``:`` between digits, or a ``.`` in a time before am/pm, is a space
   (``3:30``, ``3.30pm`` -> ``3 30 pm``), any other decimal point is the word
   ``point``, ordinal suffixes go (``14th`` -> ``14``);
3. an apostrophe or a period between letters is dropped (``O'Connor`` ->
   ``oconnor``, ``p.m.`` -> ``pm``); every other punctuation mark is a space;
   letters and digits are split apart (``E1042`` -> ``e 1042``), and a run of
   single letters is joined (``c c 330`` -> ``cc 330``: spelled letters);
4. number words become digits: a run of them is read as one number while each
   word can continue it (``four hundred and fifteen`` -> ``415``, ``nine
   hundred thousand one hundred twenty three`` -> ``900123``), and starts a new
   one when it cannot (``five five five`` -> ``5 5 5``, ``nineteen ninety`` ->
   ``19 90``); ordinal words count as their number and end it (``fourteenth``
   -> ``14``); ``zero`` is ``0``, and ``oh`` / ``o`` are ``0`` next to another
   number;
5. every digit string is spelled as single digits (``1042`` -> ``1 0 4 2``),
   so ``E1042``, ``e 1 0 4 2`` and ``E ten forty two`` are all ``e 1 0 4 2``.

The WER of one sentence is the Levenshtein distance over those words
(substitutions, deletions, insertions) divided by the reference's word count.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duplexbench.audio import SAMPLE_RATE, Int16Array
from duplexbench.speech._asr import ASREngine, ASRError, get_asr
from duplexbench.speech._synthesis import synthesize_checked
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings, TTSError, get_tts
from duplexbench.words import (
    ORDINAL_WORDS,
    SCALE_WORDS,
    TEEN_WORDS,
    TENS_WORDS,
    UNIT_WORDS,
    edits,
)

__all__ = [
    "NEURAL",
    "VOICE_SENTENCES",
    "EngineVoices",
    "Listener",
    "SentenceCheck",
    "VoiceCheck",
    "check_voice",
    "engine_voices",
    "normalize_words",
    "reference_listener",
    "word_edits",
    "word_error_rate",
]

VOICE_SENTENCES: tuple[str, ...] = (
    "Your reference number is E1042.",
    "Please quote the code CC-330 when you call back.",
    "You can reach me on 07700 900123.",
    "Our office number is (415) 555-0134.",
    "My name is Siobhan O'Connor.",
    "The appointment is on March 14th, 2026 at 3:30 pm.",
    "The refund of $1,250 will arrive within 5 working days.",
    "Thank you for calling, and have a lovely afternoon.",
)
"""The fixed sentence set every voice speaks (what a caller dictates, and one plain line)."""

WARM_UP = "Hello."
"""Spoken once, untimed, before a voice is measured (a model loads on first use)."""

NEURAL: dict[str, bool] = {
    "piper": True,
    "hibari": True,
    "espeak": False,
    "flite": False,
    "pico": False,
    "synthetic": False,
}
"""Whether an engine's voices are neural; an engine not listed is unknown (None)."""

Tick = Callable[[str, int], None]
"""Called with (voice label, sentences done since the last call)."""

# ------------------------------------------------------------- normalizer

_UNITS = {"zero": 0, **UNIT_WORDS}
"""Zero to nine: the shared units (`duplexbench.words`) and "zero"."""
_SCALES = {word: SCALE_WORDS[word] for word in ("thousand", "million")}
"""The scales read here (not "billion" or "trillion": they stay words)."""
_TH_STEMS = {*_UNITS, *TEEN_WORDS, "hundred", *_SCALES}
"""Number words whose ordinal may be written with "th" added: besides the ordinals of
`duplexbench.words`, "zeroth" and what an ASR may write ("nineth", "fiveth") count."""
_OH = {"oh", "o"}
_CURRENCY = {"$": "dollars", "£": "pounds", "€": "euros"}

_MONEY = re.compile(r"([$£€])\s*(\d[\d,]*(?:\.\d+)?)")
_GROUPING_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_CLOCK = re.compile(r"\b(\d{1,2})[.:](\d\d)\s*([ap])\.?\s?m\b\.?")
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_CLOCK_COLON = re.compile(r"(?<=\d):(?=\d)")
_ORDINAL_SUFFIX = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b")
_INSIDE_WORD = re.compile(r"(?<=[^\W\d_])['’.](?=[^\W\d_])")
_PUNCTUATION = re.compile(r"[^\w\s]|_")
_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")


def _cardinal(word: str) -> tuple[str, bool]:
    """(the cardinal number word, True) for an ordinal word; (word, False) otherwise."""
    if word in ORDINAL_WORDS:
        return ORDINAL_WORDS[word], True
    if word.endswith("th") and word[:-2] in _TH_STEMS:
        return word[:-2], True
    return word, False


def _kind(word: str) -> tuple[str, int] | None:
    """The kind of a cardinal number word and its value, or None for other words."""
    tables = (("unit", _UNITS), ("teen", TEEN_WORDS), ("tens", TENS_WORDS), ("scale", _SCALES))
    for kind, table in tables:
        if word in table:
            return kind, table[word]
    return ("hundred", 100) if word == "hundred" else None


class _Number:
    """A number being read from words (module docstring, rule 4)."""

    def __init__(self) -> None:
        self.total, self.current, self.last = 0, 0, ""

    def fits(self, kind: str, value: int) -> bool:
        """Whether the word continues this number (else it starts a new one)."""
        if not self.last:
            return True
        if kind == "unit":
            return self.last in ("tens", "hundred", "scale")
        if kind in ("teen", "tens"):
            return self.last in ("hundred", "scale")
        if kind == "hundred":
            return self.last in ("unit", "teen", "tens") and self.current < 100
        return self.last != "scale" and self.total % (value * 1000) == 0

    def add(self, kind: str, value: int) -> None:
        if kind == "hundred":
            self.current = (self.current or 1) * 100
        elif kind == "scale":
            self.total, self.current = self.total + (self.current or 1) * value, 0
        else:
            self.current += value
        self.last = kind

    def take(self, out: list[str]) -> None:
        """Append the number read so far (if any) to `out` and start afresh."""
        if self.last:
            out.append(str(self.total + self.current))
        self.total, self.current, self.last = 0, 0, ""


def _is_numeric(token: str | None) -> bool:
    return token is not None and (token.isdigit() or _kind(_cardinal(token)[0]) is not None)


def _number_words(tokens: list[str]) -> list[str]:
    """Runs of number words as digit strings; every other token as it is."""
    out: list[str] = []
    number = _Number()
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        word, ordinal = _cardinal(token)
        found = _kind(word)
        if token in _OH and (_is_numeric(before) or _is_numeric(after)):
            found = ("unit", 0)
        elif token == "and" and number.last in ("hundred", "scale") and _is_numeric(after):
            continue  # "four hundred and fifteen"
        elif token == "a" and not number.last and after in ("hundred", *_SCALES):
            found = ("unit", 1)  # "a hundred"
        if found is None:
            number.take(out)
            out.append(token)
            continue
        kind, value = found
        if value == 0 and kind == "unit":
            number.take(out)
            out.append("0")
            continue
        if not number.fits(kind, value):
            number.take(out)
        number.add(kind, value)
        if ordinal:
            number.take(out)
    number.take(out)
    return out


def _joined_letters(tokens: list[str]) -> list[str]:
    """Runs of two or more single letters joined into one token (spelled letters)."""
    out: list[str] = []
    run: list[str] = []
    for token in [*tokens, ""]:
        if len(token) == 1 and token.isalpha():
            run.append(token)
            continue
        out.extend(["".join(run)] if len(run) > 1 else run)
        run = []
        if token:
            out.append(token)
    return out


def normalize_words(text: str) -> list[str]:
    """The words of `text` in the one form WER compares (module docstring: lowercase,
    no punctuation, numbers as single digits whether written in digits or words)."""
    text = text.casefold()
    text = _MONEY.sub(lambda m: f"{m.group(2)} {_CURRENCY[m.group(1)]}", text)
    text = text.replace("%", " percent ")
    text = _GROUPING_COMMA.sub("", text)
    text = _CLOCK.sub(r"\1 \2 \3m ", text)
    text = _DECIMAL_POINT.sub(" point ", text)
    text = _CLOCK_COLON.sub(" ", text)
    text = _ORDINAL_SUFFIX.sub("", text)
    text = _INSIDE_WORD.sub("", text)
    text = _PUNCTUATION.sub(" ", text)
    text = _LETTER_DIGIT.sub(" ", text)
    tokens = _number_words(_joined_letters(text.split()))
    return [part for token in tokens for part in (list(token) if token.isdigit() else [token])]


def word_edits(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """Levenshtein distance over words: the fewest substitutions, deletions and insertions
    that turn `reference` into `hypothesis` (`duplexbench.words.edits`)."""
    return edits(reference, hypothesis)


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word edits over the reference's word count, both normalized (:func:`normalize_words`);
    an empty reference: 0.0 if nothing was heard, else 1.0."""
    ref, hyp = normalize_words(reference), normalize_words(hypothesis)
    if not ref:
        return 0.0 if not hyp else 1.0
    return word_edits(ref, hyp) / len(ref)


# -------------------------------------------------------------- measuring


@dataclass(frozen=True)
class Listener:
    """The reference ASR, or why there is none (then every WER is None with that reason)."""

    asr: ASREngine | None
    missing: str | None = None


def reference_listener(name: str = "whisper") -> Listener:
    """The reference ASR ``name``; a :class:`Listener` saying why when it is not installed."""
    try:
        return Listener(get_asr(name))
    except SpeechUnavailable as exc:
        return Listener(None, f"ASR {name!r} unavailable: {exc}")


def _rounded(value: float | None) -> float | None:
    """A measurement as JSON shows it (4 decimals: more is noise)."""
    return None if value is None else round(value, 4)


@dataclass(frozen=True)
class SentenceCheck:
    """One sentence spoken and heard back: times in seconds, WER None when not heard."""

    text: str
    synth_s: float
    audio_s: float
    heard: str | None = None
    wer: float | None = None
    edits: int | None = None
    words: int = 0
    """Normalized words of `text` (the WER's denominator)."""

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "heard": self.heard, "wer": _rounded(self.wer)}


@dataclass(frozen=True)
class VoiceCheck:
    """The measurements of one voice (``voice`` None: its engine lists no voice, because
    it is unavailable or broken; ``error`` says why)."""

    voice: str | None
    engine: str
    available: bool
    neural: bool | None
    rtf: float | None = None
    wer: float | None = None
    sentences: tuple[SentenceCheck, ...] = ()
    error: str | None = None
    wer_error: str | None = None
    sample: Int16Array | None = field(default=None, repr=False, compare=False)
    """The first sentence's audio (16 kHz mono int16), to listen to."""

    def to_dict(self) -> dict[str, Any]:
        """The voice in `duplexbench voices --json` (without the audio)."""
        return {
            "voice": self.voice,
            "engine": self.engine,
            "available": self.available,
            "neural": self.neural,
            "rtf": _rounded(self.rtf),
            "wer": _rounded(self.wer),
            "per_sentence": [s.to_dict() for s in self.sentences],
            "error": self.error,
            "wer_error": self.wer_error,
        }


@dataclass(frozen=True)
class EngineVoices:
    """A registered engine and its voices; ``error`` when it cannot list them
    (``available`` False: its package or binary is missing)."""

    engine: str
    voices: tuple[str, ...] = ()
    available: bool = True
    error: str | None = None

    def unlisted(self) -> VoiceCheck:
        """The row of an engine without voices to measure."""
        return VoiceCheck(
            None, self.engine, self.available, NEURAL.get(self.engine), error=self.error
        )


def english(voices: Sequence[str]) -> tuple[str, ...]:
    """The English voices of a list (callers speak English): espeak-ng lists 130
    languages; `en`, `en-gb-x-rp`, `en-us+f3` and the like are kept."""
    kept = tuple(v for v in voices if v.split("+")[0].split("-")[0].lower() in ("en", "en_us"))
    return kept if kept else tuple(voices)


def engine_voices(engines: Sequence[str]) -> list[EngineVoices]:
    """Each engine's English voices (`english`), or why it has none here; never raises
    for a missing engine."""
    found = []
    for name in engines:
        try:
            voices = english(get_tts(name).voices())
        except SpeechUnavailable as exc:
            found.append(EngineVoices(name, available=False, error=str(exc)))
        except (RuntimeError, OSError) as exc:
            found.append(EngineVoices(name, error=f"{type(exc).__name__}: {exc}"))
        else:
            found.append(EngineVoices(name, voices))
    return found


def _spoken(
    engine: str, voice: str, settings: SynthesisSettings, sentences: Sequence[str]
) -> list[tuple[str, Int16Array, float]]:
    """Each sentence rendered by the engine itself, with its wall time (after a warm-up).
    An engine that is not registered here is as unavailable as a missing package."""
    try:
        tts = get_tts(engine)
    except ValueError as exc:
        raise SpeechUnavailable(str(exc)) from None
    synthesize_checked(tts, engine, WARM_UP, voice, settings)
    out = []
    for text in sentences:
        start = time.perf_counter()
        samples = synthesize_checked(tts, engine, text, voice, settings)
        out.append((text, samples, time.perf_counter() - start))
    return out


def check_voice(
    engine: str,
    voice: str,
    listener: Listener,
    *,
    settings: SynthesisSettings | None = None,
    sentences: Sequence[str] = VOICE_SENTENCES,
    tick: Tick | None = None,
) -> VoiceCheck:
    """Speak `sentences` with ``engine:voice`` at `settings` and hear them back with
    `listener`: RTF and WER (module docstring). A missing engine, or one that fails,
    gives a row with ``error`` (``available`` False when it is not installed)."""
    label, neural = f"{engine}:{voice}", NEURAL.get(engine)
    advance = tick or (lambda _label, _n: None)
    try:
        spoken = _spoken(engine, voice, settings or SynthesisSettings(), sentences)
    except SpeechUnavailable as exc:
        advance(label, len(sentences))
        return VoiceCheck(label, engine, False, neural, error=str(exc))
    except (TTSError, ValueError) as exc:
        advance(label, len(sentences))
        return VoiceCheck(label, engine, True, neural, error=str(exc))
    checks: list[SentenceCheck] = []
    asr, wer_error = listener.asr, listener.missing
    for text, samples, seconds in spoken:
        check = SentenceCheck(text, seconds, samples.size / SAMPLE_RATE)
        if asr is not None:
            try:
                heard = asr.transcribe(samples).text
            except (ASRError, SpeechUnavailable) as exc:
                asr, wer_error = None, str(exc)
            else:
                ref, hyp = normalize_words(text), normalize_words(heard)
                edits = word_edits(ref, hyp)
                rate = edits / len(ref) if ref else float(bool(hyp))
                check = SentenceCheck(
                    check.text, seconds, check.audio_s, heard, rate, edits, len(ref)
                )
        checks.append(check)
        advance(label, 1)
    audio_s = sum(c.audio_s for c in checks)
    rtf = sum(c.synth_s for c in checks) / audio_s if audio_s > 0 else None
    wer = None
    if asr is not None and checks:
        edits = sum(c.edits or 0 for c in checks)
        wer = edits / max(1, sum(c.words for c in checks))
    else:
        checks = [SentenceCheck(c.text, c.synth_s, c.audio_s) for c in checks]
    sample = spoken[0][1] if spoken else None
    return VoiceCheck(label, engine, True, neural, rtf, wer, tuple(checks), None, wer_error, sample)
