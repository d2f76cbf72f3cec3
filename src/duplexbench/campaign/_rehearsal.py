"""Rehearsal: the clips one audio episode will ask the speech bank for.

The episode is played first on the text channel (no audio, no ASR), with the
caller the audio episode will have (:func:`~duplexbench.users._caller.freeze_caller`:
persona, voice, rate, pitch, verbosity) and the same seeds, so the user's
policy and realizer pick the same plans and words. What it yields:

- every text the user realizes, in the caller's voice and settings (one clip
  per plan, as the audio loop renders them);
- every line the agent says, in the agent's voice with default settings (what
  :class:`~duplexbench.orchestrator._audio_loop.BankSpeech` renders), when the
  agent is one of :data:`REHEARSED_AGENTS`: built-in offline agents whose
  text form says exactly what their audio form speaks. Any other agent
  brings its own audio (or an LLM brain nobody can predict); the user's
  side is then rehearsed with the ``oracle``, the path of a competent agent;
- a few lines timing alone decides (nudges, backchannels and, on a noisy
  line, the caller's side remarks), in every variant.

When the audio agent understands the user as the text one does, its episode
needs no clip beyond these. A mishearing can make it say something else; that
clip is rendered during the episode, as before.

Rehearsals are cached beside the speech bank (``<bank>/rehearsals/``), keyed
by the item's checksum, the agent spec, condition, seed, repetition,
observer and a fingerprint of the source that decides what is said
(:data:`SPEAKING_CODE`: agents, users, items, ...; so changed code never
reuses an old rehearsal). An entry that does not parse is recomputed; a
failed write is a warning. A stale or wrong prediction only costs a render
during the episode, never a different result: clips are keyed by their text.
"""

from __future__ import annotations

import functools
import hashlib
import json
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from duplexbench.agents import AgentInput, AgentSession, AgentTurn, TextAgent, get_agent
from duplexbench.campaign._conditions import Condition
from duplexbench.files import write_text_atomic
from duplexbench.items import WorkflowItem, item_checksum
from duplexbench.orchestrator import EpisodeSetup, TextEpisode
from duplexbench.speech import (
    DEFAULT_VOICE,
    ClipRequest,
    SynthesisSettings,
    Transcript,
    TranscriptSegment,
    VoiceRef,
)
from duplexbench.users import (
    NEUTRAL,
    CallerConfig,
    FrozenCaller,
    ObserverConfig,
    Plan,
    Realized,
    Realizer,
    RepairTraits,
    answers_per_turn,
    freeze_caller,
    get_persona,
    missing_engine,
)

__all__ = [
    "REHEARSAL_FORMAT",
    "REHEARSED_AGENTS",
    "SPEAKING_CODE",
    "Rehearsal",
    "RehearsalCache",
    "code_fingerprint",
    "rehearse",
    "user_voice",
]

REHEARSAL_FORMAT = 1
REHEARSED_AGENTS = frozenset({"reference", "oracle", "noop", "silent"})
"""Agents whose text form says what their audio form speaks through the bank
(the reference agent only with its rule-based brain, not ``llm=...``)."""
TIMED_PLANS = ("nudge", "backchannel")
"""User plans that timing alone triggers: every variant is rendered ahead."""


@dataclass(frozen=True)
class Rehearsal:
    """One episode to rehearse: the item and everything that decides its words."""

    item: WorkflowItem
    agent: str
    condition: Condition
    seed: int = 0
    repetition: int = 0
    observer: ObserverConfig = field(default_factory=ObserverConfig)
    voice_fallback: bool = False
    """Personas whose engine is missing speak with their fallback voice, as in the run."""

    @property
    def caller(self) -> CallerConfig:
        return replace(self.condition.caller, voice_fallback=self.voice_fallback)

    @property
    def own_agent(self) -> bool:
        """Whether the agent itself is rehearsed (else the oracle, for the user's side)."""
        spec = get_agent(self.agent)[1]
        return spec.name in REHEARSED_AGENTS and "llm" not in spec.options

    @property
    def rehearsed_agent(self) -> str:
        return self.agent if self.own_agent else "oracle"

    @property
    def offline_observer(self) -> ObserverConfig:
        """The run's observer without its LLM layer (a rehearsal never calls a network)."""
        return replace(self.observer, llm_model=None, llm_base_url=None, llm_cache=None)


def user_voice(condition: Condition, item: WorkflowItem) -> str:
    """The item's voice in this condition (the neutral caller's and local agents' voice)."""
    voice = condition.user_voice or item.user.persona.voice
    return str(DEFAULT_VOICE if voice in ("", "default") else VoiceRef.parse(voice))


class _Realizer(Realizer):
    """A realizer that keeps every text it realizes (a spelled value piece by piece),
    with the speech rate it is said at."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # Realizer's own arguments
        self.said: list[tuple[str, float]] = []

    def realize_plan(self, plan: Plan) -> Realized:
        realized = super().realize_plan(plan)
        pieces = realized.pieces or (realized.text,)
        self.said += [(p, realized.speed) for p in pieces]
        return realized


class _Listener:
    """A text agent whose every spoken line is kept. An agent that takes the cascade's
    `heard(transcript)` hook gets each caller line as a sure transcript first, as its
    audio form does (the reference agent then listens as carefully as in audio: its
    spelling requests and read-backs, and the caller's spellings, are rehearsed too)."""

    def __init__(self, agent: TextAgent) -> None:
        self.agent = agent
        self.said: list[str] = []

    def start(self, session: AgentSession) -> None:
        self.agent.start(session)

    def respond(self, observation: AgentInput) -> AgentTurn:
        hook = getattr(self.agent, "heard", None)
        if callable(hook) and observation.user_text is not None:
            text = observation.user_text
            hook(Transcript(text, (), (TranscriptSegment(text, 0, 0, 0.0, 0.0),)))
        turn = self.agent.respond(observation)
        if isinstance(turn, AgentTurn) and isinstance(turn.say, str) and turn.say.strip():
            self.said.append(turn.say)
        return turn

    def close(self) -> None:
        self.agent.close()


def _timed_lines(realizer: Realizer, caller: FrozenCaller) -> list[str]:
    """Every variant of the plans timing triggers, and the caller's side remarks."""
    texts: list[str] = []
    for plan_id in TIMED_PLANS:
        rendered = [realizer.render(v, []) for v in realizer.variants(plan_id)]
        texts += [min(rendered, key=len)] if realizer.verbosity == "terse" else rendered
    if caller.out_of_turn is not None:
        texts += list(caller.out_of_turn.remarks)
    return texts


def _at(settings: SynthesisSettings, rate: float) -> SynthesisSettings:
    """The caller's settings at a speech rate (as `CallerLine.clip` renders it)."""
    return settings if rate == 1.0 else replace(settings, speed=round(settings.speed * rate, 3))


def rehearse(r: Rehearsal) -> list[ClipRequest]:
    """The clips the audio episode of `r` will ask for (module docstring), in order.

    Never raises for the episode's sake: an agent that fails ends the rehearsal
    with what it said so far.
    """
    condition = r.condition
    info, spec = get_agent(r.rehearsed_agent)
    item = r.item
    setup = EpisodeSetup(
        item, item_checksum(item), "rehearsal", r.agent, condition.name, r.repetition, r.seed,
        r.offline_observer,
    )  # fmt: skip
    voice = user_voice(condition, item)
    caller = freeze_caller(r.caller, condition.turn_taking, item.id, setup.repetition_seed, voice)
    listener = _Listener(info.create(spec, "text"))  # type: ignore[arg-type]  # text: a TextAgent
    episode = TextEpisode(setup, listener, privileged=info.privileged)
    realizer = _Realizer(
        item.id, item.user, r.seed, setup.repetition_seed, verbosity=caller.persona.verbosity
    )
    episode.realizer = realizer
    episode.policy.fit_caller(
        answers_per_turn(caller.persona.verbosity)
        if caller.persona.name != NEUTRAL
        else episode.policy.max_answers,
        RepairTraits.of(caller.persona),
    )
    try:
        episode.run()
    except Exception as exc:  # a rehearsal predicts; it must never stop a run
        warnings.warn(f"rehearsal of {item.id} stopped: {exc}", RuntimeWarning, stacklevel=2)
    settings = caller.settings()
    user = realizer.said + [(t, 1.0) for t in _timed_lines(realizer, caller)]
    clips = [ClipRequest(t, caller.voice, _at(settings, rate)) for t, rate in user if t.strip()]
    if r.own_agent:
        agent = caller.agent_voice(voice)  # as the audio episode lends it
        clips += [ClipRequest(t, agent) for t in listener.said]
    return list(dict.fromkeys(clips))


# ------------------------------------------------------------------ cache


SPEAKING_CODE = (
    "agents", "items", "orchestrator", "users", "values", "workbench",
    "words.py", "yesno.py", "campaign/_conditions.py", "campaign/_rehearsal.py",
    "speech/_agent_voice.py",
)  # fmt: skip
"""duplexbench's modules that decide what an episode says (relative to the package)."""


@functools.cache
def code_fingerprint() -> str:
    """sha256 over the Python source of :data:`SPEAKING_CODE` (paths and bytes)."""
    import duplexbench  # noqa: PLC0415 - the package's own folder

    root = Path(duplexbench.__file__).parent
    files: list[Path] = []
    for name in SPEAKING_CODE:
        path = root / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class _Clip(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    voice: str
    settings: dict[str, float]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str
    clips: list[_Clip]


class RehearsalCache:
    """Rehearsed clip lists on disk, one JSON file per episode key."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def key(self, r: Rehearsal) -> str:
        ident = {
            "format": REHEARSAL_FORMAT,
            "code": code_fingerprint(),
            "item": item_checksum(r.item),
            "agent": r.rehearsed_agent,
            "condition": r.condition.name,
            "seed": r.seed,
            "repetition": r.repetition,
            "observer": asdict(r.offline_observer),
        }
        if r.voice_fallback:  # who stands in depends on what this machine lacks
            voices = {get_persona(p).voice for p in r.caller.personas}
            ident["fallback_for"] = sorted(v for v in voices if missing_engine(v))
        canonical = json.dumps(ident, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> list[ClipRequest] | None:
        """The stored clips of `key`; None when absent or unreadable (then recomputed)."""
        try:
            entry = _Entry.model_validate_json(self.path(key).read_bytes())
            if entry.key != key:
                return None
            return [
                ClipRequest(c.text, c.voice, SynthesisSettings(**c.settings)) for c in entry.clips
            ]
        except (OSError, ValueError, TypeError, ValidationError):
            return None

    def put(self, key: str, clips: list[ClipRequest]) -> None:
        """Store `clips` under `key` (atomic); a failed write is a warning."""
        rows = [_Clip(text=c.text, voice=c.voice, settings=c.settings.as_dict()) for c in clips]
        try:
            write_text_atomic(self.path(key), _Entry(key=key, clips=rows).model_dump_json())
        except OSError as exc:
            warnings.warn(f"rehearsal cache: cannot write {self.path(key)}: {exc}",
                          RuntimeWarning, stacklevel=2)  # fmt: skip
