"""The simulated user: act observer, flow-engine policy, realization; and the human
caller's role card and the reading of their words as the same plans."""

from duplexbench.users._caller import (
    CallerConfig,
    FrozenCaller,
    derived_seed,
    freeze_caller,
    missing_engine,
)
from duplexbench.users._caller_acts import CallerReader, Heard
from duplexbench.users._decision import DeciderConfig, FloorMoment
from duplexbench.users._observer import ActObserver, ObserverConfig, check_observer
from duplexbench.users._observer.cues import is_question, is_request, sentences
from duplexbench.users._observer.embedder import DIM, shared_embedder
from duplexbench.users._observer.repairs import REPAIR_KINDS, is_repair
from duplexbench.users._observer.rules import NameFinder
from duplexbench.users._observer.semantic import FEATURES, WEIGHTS_FILE, SlotMatcher, Weights
from duplexbench.users._observer.slots import Slot, item_actions, item_slots
from duplexbench.users._observer.unmatched import unmatched_question
from duplexbench.users._personas import NEUTRAL, PERSONAS, PERSONAS_VERSION, get_persona
from duplexbench.users._policy import Observation, Plan, UserPolicy
from duplexbench.users._readback import plain_value
from duplexbench.users._realization import Realized, Realizer
from duplexbench.users._repairs import (
    RepairDesk,
    RepairTraits,
    repeat_speed,
)
from duplexbench.users._role_card import (
    CallHistory,
    CardLine,
    CardProgress,
    RoleCard,
    due_events,
    role_card,
)
from duplexbench.users._simulator import answers_per_turn, persona_answers, simulator_identity
from duplexbench.users._sounds import OutOfTurnConfig, OutOfTurnSounds, Sound
from duplexbench.users._turntaking import NATURAL, POLITE, TurnTakingConfig
from duplexbench.users._user_floor import Cue, Listening, UserFloor

__all__ = [
    "DIM",
    "FEATURES",
    "NATURAL",
    "NEUTRAL",
    "PERSONAS",
    "PERSONAS_VERSION",
    "POLITE",
    "REPAIR_KINDS",
    "WEIGHTS_FILE",
    "ActObserver",
    "CallHistory",
    "CallerConfig",
    "CallerReader",
    "CardLine",
    "CardProgress",
    "Cue",
    "DeciderConfig",
    "FloorMoment",
    "FrozenCaller",
    "Heard",
    "Listening",
    "NameFinder",
    "Observation",
    "ObserverConfig",
    "OutOfTurnConfig",
    "OutOfTurnSounds",
    "Plan",
    "Realized",
    "Realizer",
    "RepairDesk",
    "RepairTraits",
    "RoleCard",
    "Slot",
    "SlotMatcher",
    "Sound",
    "TurnTakingConfig",
    "UserFloor",
    "UserPolicy",
    "Weights",
    "answers_per_turn",
    "check_observer",
    "derived_seed",
    "due_events",
    "freeze_caller",
    "get_persona",
    "is_question",
    "is_repair",
    "is_request",
    "item_actions",
    "item_slots",
    "missing_engine",
    "persona_answers",
    "plain_value",
    "repeat_speed",
    "role_card",
    "sentences",
    "shared_embedder",
    "simulator_identity",
    "unmatched_question",
]
