"""User plan ids: the semantic plans a user can emit, and the facts each carries.

Plan ids are keys of the realization bank:

- `open`: the opening request; carries every `volunteer` fact.
- `answer:<fact>`: answers with one fact version.
- `fix:<fact>`: corrects a value the agent read back wrong (facts with a `field`).
- `event:<event>`: an authored duplex event; carries the facts it reveals.
- `approve:<approval>`, `decline:<approval>`: answers to an approval request.
- generic: `confirm`, `ack`, `clarify`, `unknown`, `nudge`, `end`, `backchannel`.
- generic, naming slots without revealing them: `which_slot` (unsure which of two
  slots the agent means: `{slot_a}`, `{slot_b}`), `what_value` (a confirmation
  without a value: `{slot}`), `more_later` (asked for more facts than the caller
  gives at once: `{slots}`, the ones left), `ask_readback` (an approval asked
  before the key details were read back: `{slots}`).
"""

from __future__ import annotations

import re

from duplexbench.items._user import UserSpec

GENERIC_PLANS: tuple[str, ...] = (
    "confirm",
    "ack",
    "clarify",
    "unknown",
    "nudge",
    "end",
    "backchannel",
    "which_slot",
    "what_value",
    "more_later",
    "ask_readback",
)
SLOT_PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "which_slot": ("slot_a", "slot_b"),
    "what_value": ("slot",),
    "more_later": ("slots",),
    "ask_readback": ("slots",),
}
"""Placeholders the slot-naming generic plans may use (filled with the slots' words)."""
PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_.\-]*)\}")
REQUIRES_EXPLICIT = ("open", "event:")
"""Plans that have no built-in default realization and must be written by the item."""


def plan_facts(user: UserSpec, plan_id: str) -> list[str] | None:
    """Facts a plan carries, or None if the plan id is not valid for this user."""
    if plan_id in GENERIC_PLANS:
        return []
    if plan_id == "open":
        return [f.id for f in user.facts if f.reveal == "volunteer"]
    kind, _, ref = plan_id.partition(":")
    if kind == "answer" and user.fact(ref) is not None:
        return [ref]
    if kind == "fix" and (fact := user.fact(ref)) is not None and fact.field is not None:
        return [ref]
    if kind == "event":
        event = next((e for e in user.events if e.id == ref), None)
        return None if event is None else list(event.reveals)
    if kind in ("approve", "decline") and any(a.id == ref for a in user.approvals):
        return []
    return None


def all_plan_ids(user: UserSpec) -> list[str]:
    """Every plan id this user can emit."""
    ids = ["open", *GENERIC_PLANS]
    ids += [f"answer:{f.id}" for f in user.facts]
    ids += [f"fix:{f.id}" for f in user.facts if f.field is not None]
    ids += [f"event:{e.id}" for e in user.events]
    for approval in user.approvals:
        ids += [f"approve:{approval.id}", f"decline:{approval.id}"]
    return ids


def needs_explicit_realization(plan_id: str) -> bool:
    return plan_id == "open" or plan_id.startswith("event:")
