"""`duplexbench voices`: every voice and caller persona measured, as JSON and as one page.

Each voice of each registered TTS engine, and each caller persona (its voice at
its speed and pitch), speaks the fixed sentence set and is heard back by the
reference ASR (:func:`duplexbench.speech.check_voice`: real-time factor and
round-trip WER). An engine that is not installed is a row saying so, never a
failure.

The page is self-contained and offline: each row's sample (the first sentence)
is a WAV ``data:`` URI in an ``<audio controls>`` player, the style is inline,
there is no script at all, and a Content-Security-Policy (:data:`CSP`) forbids
every request but those ``data:`` media. Every string (engine, voice, persona,
description, what the ASR heard) goes through ``esc``.
"""

from __future__ import annotations

import base64
import io
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from duplexbench.audio import SAMPLE_RATE, Int16Array
from duplexbench.files import write_text_atomic
from duplexbench.report._html.charts import esc
from duplexbench.speech import (
    VOICE_SENTENCES,
    EngineVoices,
    Listener,
    SynthesisSettings,
    VoiceCheck,
    VoiceRef,
    check_voice,
)
from duplexbench.users import PERSONAS

__all__ = [
    "CSP",
    "FORMAT",
    "Persona",
    "PersonaCheck",
    "Tick",
    "VoicesReport",
    "measure_voices",
    "voices_page",
    "wav_data_uri",
    "write_voices_page",
]

FORMAT = "duplexbench-voices/1"
CSP = (
    "default-src 'none'; media-src data:; style-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'"
)
"""The page's Content-Security-Policy: no script, no request, only inline style and
``data:`` audio."""

Tick = Callable[[str, int], None]
"""Called with (voice or persona, sentences done since the last call)."""


class Persona(Protocol):
    """What the page reads of a caller persona (``duplexbench.users.PERSONAS``)."""

    @property
    def name(self) -> str: ...
    @property
    def voice(self) -> str: ...
    @property
    def speed(self) -> float: ...
    @property
    def pitch_semitones(self) -> float: ...
    @property
    def description(self) -> str: ...
    @property
    def accent(self) -> str: ...
    def settings(self) -> SynthesisSettings: ...


@dataclass(frozen=True)
class PersonaCheck:
    """A caller persona and the measurements of its voice at its speed and pitch."""

    persona: Persona
    check: VoiceCheck

    def to_dict(self) -> dict[str, Any]:
        """The persona in `duplexbench voices --json`."""
        p, c = self.persona, self.check
        return {
            "name": p.name,
            "voice": p.voice,
            "speed": p.speed,
            "pitch_semitones": p.pitch_semitones,
            "accent": p.accent,
            "description": p.description,
            **{key: c.to_dict()[key] for key in ("rtf", "wer", "error", "wer_error")},
        }


@dataclass(frozen=True)
class VoicesReport:
    """Every voice and persona measured on one sentence set."""

    sentences: tuple[str, ...]
    voices: tuple[VoiceCheck, ...]
    personas: tuple[PersonaCheck, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of `duplexbench voices --json` (format :data:`FORMAT`)."""
        return {
            "format": FORMAT,
            "sentences": list(self.sentences),
            "voices": [v.to_dict() for v in self.voices],
            "personas": [p.to_dict() for p in self.personas],
        }


def measure_voices(
    engines: Sequence[EngineVoices],
    personas: Sequence[Persona] | None,
    listener: Listener,
    sentences: Sequence[str] = VOICE_SENTENCES,
    tick: Tick | None = None,
) -> VoicesReport:
    """Measure every voice of `engines` (an engine without voices is one row with its
    error) and every persona of `personas` (None: every built-in one), each on
    `sentences`. `tick` is called after each sentence with the voice's or persona's
    name (a progress bar)."""
    voices: list[VoiceCheck] = []
    for entry in engines:
        if not entry.voices:
            voices.append(entry.unlisted())
        for voice in entry.voices:
            voices.append(
                check_voice(entry.engine, voice, listener, sentences=sentences, tick=tick)
            )
    checked = []
    for persona in list(PERSONAS.values()) if personas is None else personas:
        ref = VoiceRef.parse(persona.voice)
        check = check_voice(
            ref.engine,
            ref.voice,
            listener,
            settings=persona.settings(),
            sentences=sentences,
            tick=None if tick is None else _relabel(tick, persona.name),
        )
        checked.append(PersonaCheck(persona, check))
    return VoicesReport(tuple(sentences), tuple(voices), tuple(checked))


def _relabel(tick: Tick, label: str) -> Tick:
    return lambda _voice, n: tick(label, n)


# ------------------------------------------------------------------ page

_STYLE = """
*{box-sizing:border-box}
body{margin:0;font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;
  background:#f1f5f9}
main{max-width:1400px;margin:0 auto;padding:12px 18px 40px}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:15px;margin:20px 0 6px}
p,ol{color:#334155}
table{border-collapse:collapse;background:#fff;width:100%}
th,td{border:1px solid #e2e8f0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f8fafc;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.err{color:#b91c1c}
audio{height:28px;width:220px}
details{color:#475569}
details table{margin-top:4px;font-size:12px}
"""


def wav_data_uri(samples: Int16Array) -> str:
    """16 kHz mono int16 as a WAV ``data:`` URI (what an ``<audio>`` plays offline)."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(samples.astype("<i2").tobytes())
    return "data:audio/wav;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _num(value: float | None, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _neural(value: bool | None) -> str:
    return {True: "yes", False: "no", None: "?"}[value]


def _sample(check: VoiceCheck) -> str:
    if check.sample is None:
        return ""
    return f'<audio controls preload="none" src="{wav_data_uri(check.sample)}"></audio>'


def _heard(check: VoiceCheck) -> str:
    """What the ASR heard of each sentence, folded away; the error when there is one."""
    if check.error:
        return f'<td class="err">{esc(check.error)}</td>'
    note = f"<div>{esc(check.wer_error)}</div>" if check.wer_error else ""
    if not any(s.heard is not None for s in check.sentences):
        return f"<td>{note}</td>"
    rows = "".join(
        f"<tr><td>{esc(s.text)}</td><td>{esc(s.heard or '')}</td>"
        f'<td class="num">{_num(s.wer, 2)}</td></tr>'
        for s in check.sentences
    )
    return (
        f"<td>{note}<details><summary>heard</summary><table><tr><th>said</th>"
        f"<th>heard</th><th>WER</th></tr>{rows}</table></details></td>"
    )


def _measures(check: VoiceCheck) -> str:
    return (
        f'<td class="num">{_num(check.rtf, 3)}</td><td class="num">{_num(check.wer, 2)}</td>'
        f"<td>{_sample(check)}</td>{_heard(check)}"
    )


def _voice_rows(voices: Sequence[VoiceCheck]) -> str:
    rows = "".join(
        f'<tr class="voice"><td>{esc(v.engine)}</td><td>{esc(v.voice or "–")}</td>'
        f"<td>{_neural(v.neural)}</td><td>{'yes' if v.available else 'no'}</td>"
        f"{_measures(v)}</tr>\n"
        for v in voices
    )
    return (
        '<table id="voices"><thead><tr><th>engine</th><th>voice</th><th>neural</th>'
        "<th>installed</th><th>RTF</th><th>WER</th><th>sample</th><th>heard / error</th>"
        f"</tr></thead><tbody>\n{rows}</tbody></table>"
    )


def _persona_rows(personas: Sequence[PersonaCheck]) -> str:
    rows = "".join(
        f'<tr class="persona"><td>{esc(p.persona.name)}</td><td>{esc(p.persona.accent)}</td>'
        f'<td>{esc(p.persona.voice)}</td><td class="num">{p.persona.speed:g}</td>'
        f'<td class="num">{p.persona.pitch_semitones:+g}</td>'
        f"<td>{esc(p.persona.description)}</td>{_measures(p.check)}</tr>\n"
        for p in personas
    )
    return (
        '<table id="personas"><thead><tr><th>persona</th><th>accent</th><th>voice</th>'
        "<th>speed</th><th>pitch (st)</th><th>description</th><th>RTF</th><th>WER</th>"
        f"<th>sample</th><th>heard / error</th></tr></thead><tbody>\n{rows}</tbody></table>"
    )


def voices_page(report: VoicesReport) -> str:
    """The whole page: the sentence set, a table of voices and one of personas."""
    sentences = "".join(f"<li>{esc(s)}</li>" for s in report.sentences)
    personas = (
        f"<h2>Caller personas · {len(report.personas)}</h2>{_persona_rows(report.personas)}"
        if report.personas
        else ""
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>duplexbench voices</title>\n<style>{_STYLE}</style></head>\n<body><main>\n"
        "<h1>Voices</h1>\n<p>Each voice speaks the sentences below; the sample plays the "
        "first. RTF: synthesis time over audio duration (below 1 is faster than real "
        "time). WER: word error rate of the reference ASR's transcript against the "
        "sentences, both normalized (lowercase, no punctuation, numbers as single "
        "digits, docs/audio.md).</p>\n"
        f"<ol>{sentences}</ol>\n<h2>Voices · {len(report.voices)}</h2>"
        f"{_voice_rows(report.voices)}\n{personas}\n</main></body></html>\n"
    )


def write_voices_page(report: VoicesReport, path: Path) -> Path:
    """Write the page atomically to `path` and return it (OSError when it cannot)."""
    write_text_atomic(path, voices_page(report))
    return path
