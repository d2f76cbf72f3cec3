"""The caller: private facts with reveal rules, approvals, events and realizations."""

from __future__ import annotations

from typing import Any

from duplexbench.suites.workflows import speech
from duplexbench.suites.workflows.draft import Draft
from duplexbench.suites.workflows.world import Value

CORRECTABLE = ("money", "count", "percent", "id", "date", "phone", "text", "enum")
APPROVAL_ID = "approve"
EVENT_IDS = {
    "barge_in": "interrupt",
    "clarification": "ask_why",
    "backchannel": "listening",
    "revocation": "hold",
    "cancellation": "call_off",
}


def words(name: str) -> str:
    return name.replace("_", " ")


def record_fact(draft: Draft) -> str:
    return draft.record_words.replace(" ", "_")


def _fact(name: str, value: Value, reveal: str = "when_asked", **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": name, "value": value.stored}
    if value.spoken != str(value.stored):
        entry["say"] = value.spoken
    if reveal != "when_asked":
        entry["reveal"] = reveal
    entry.update({k: v for k, v in extra.items() if v})
    return entry


def _link(draft: Draft, name: str) -> dict[str, Any]:
    """Artifact mode links a fact to its field (whose description says what it is);
    database mode names the slot by aliases and describes it on the fact."""
    if draft.database_mode:
        spec = draft.specs[name]
        return {"aliases": list(spec.aliases), "description": spec.description}
    return {"field": f"{draft.arch.tool_noun}.{name}"}


def record_description(draft: Draft) -> str:
    """What the caller's record number is (the slot has no artifact field)."""
    return f"The {draft.record_words} the caller's existing {draft.arch.noun} is filed under"


def build_facts(draft: Draft) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    if draft.record_id is not None:
        facts.append(
            _fact(record_fact(draft), draft.record_id, description=record_description(draft))
        )
    for name in [*draft.volunteered, *([draft.changed] if draft.changed else [])]:
        facts.append(_fact(name, draft.values[name], "volunteer", **_link(draft, name)))
    for name in draft.asked:
        first = draft.first.get(name, draft.values[name])
        facts.append(_fact(name, first, **_link(draft, name)))
        if name in draft.first:
            later = _fact(
                f"{name}_v2", draft.values[name], "on_event", supersedes=name, **_link(draft, name)
            )
            later.pop("aliases", None)
            later.pop("description", None)
            facts.append(later)
    return facts


READBACK_KINDS = ("money", "count", "percent", "id", "enum", "text", "company", "person", "phone")
KEY_DETAILS = 3


def key_details(draft: Draft) -> list[str]:
    """The slots the agent must read back before a gated action (the instructions ask
    for "the key details"): the revised one first, then asked ones of a checkable kind."""
    shown = [n for n in draft.asked if draft.specs[n].kind in READBACK_KINDS and n != draft.revised]
    return ([draft.revised] if draft.revised else []) + shown[: KEY_DETAILS - bool(draft.revised)]


def build_approvals(draft: Draft) -> list[dict[str, Any]]:
    if not draft.gated:
        return []
    action = draft.arch.action
    return [
        {
            "id": APPROVAL_ID,
            "action": action.tool,
            "max_grants": 2 if draft.revised else 1,
            "aliases": [action.verb, *action.aliases],
            "readback": key_details(draft),
        }
    ]


def build_events(draft: Draft) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for name in draft.corrected:
        events.append(
            {
                "id": f"fix_{name}",
                "kind": "correction",
                "trigger": {"after_plan": f"answer:{name}", "offset_ms": 1500},
                "reveals": [f"{name}_v2"],
                "delivery": "barge_in",
                "expected_floor_action": "yield",
                "max_stop_latency_ms": 650,
            }
        )
    anchors = draft.anchors
    if "barge_in" in anchors:
        events.append(_barge("barge_in", {"after_plan": f"answer:{anchors['barge_in']}"}, 1200))
    if "clarification" in anchors:
        trigger = {"act": f"ASK:{anchors['clarification']}"}
        events.append(
            {"id": EVENT_IDS["clarification"], "kind": "clarification", "trigger": trigger}
        )
    if "backchannel" in anchors:
        event = _barge("backchannel", {"after_plan": "open"}, 1800)
        event["expected_floor_action"] = "continue"
        event.pop("max_stop_latency_ms")
        events.append(event)
    request = {"act": f"REQUEST_APPROVAL:{draft.arch.action.tool}"}
    if draft.revised is not None:
        event = _barge("revocation", request, 0)
        event.update(revokes=APPROVAL_ID, reveals=[f"{draft.revised}_v2"])
        events.append(event)
    if "cancellation" in anchors:
        event = _barge("cancellation", request, 0)
        event["revokes"] = APPROVAL_ID
        events.append(event)
    return events


def _barge(kind: str, trigger: dict[str, Any], offset_ms: int) -> dict[str, Any]:
    if offset_ms:
        trigger = {**trigger, "offset_ms": offset_ms}
    return {
        "id": EVENT_IDS[kind],
        "kind": kind,
        "trigger": trigger,
        "delivery": "barge_in",
        "expected_floor_action": "yield",
        "max_stop_latency_ms": 800,
    }


def _opening(draft: Draft) -> list[str]:
    plan = draft.plan
    task = draft.arch.task
    extra = []
    if plan.delegation == "follow_through":
        extra.append(speech.FOLLOW_UP)
    if draft.changed:
        extra.append(speech.CHANGE[0].format(slot=words(draft.changed), fact=draft.changed))
    for i, name in enumerate(draft.volunteered):
        template = speech.VOLUNTEER[i % len(speech.VOLUNTEER)]
        extra.append(template.format(slot=words(name), fact=name))
    tail = (" " + " ".join(extra)) if extra else ""
    return [t.replace("{task}", task) + tail for t in speech.OPEN[plan.behavior]]


def _answers(draft: Draft, name: str) -> list[str]:
    variants = list(speech.ANSWER[draft.plan.behavior])
    prefix = ""
    if draft.anchors.get("side_speech") == name:
        prefix = speech.SIDE_SPEECH
    elif draft.anchors.get("long_pause") == name:
        prefix = speech.LONG_PAUSE
    if prefix:
        variants = [prefix + v[0].lower() + v[1:] for v in variants]
    return variants


def build_realizations(draft: Draft) -> dict[str, list[str]]:
    verb = draft.arch.action.verb
    bank: dict[str, list[str]] = {"open": _opening(draft)}
    if draft.record_id is not None:
        bank[f"answer:{record_fact(draft)}"] = _answers(draft, "")
    for name in draft.asked:
        bank[f"answer:{name}"] = _answers(draft, name)
    for name in draft.corrected:
        bank[f"event:fix_{name}"] = [t.replace("{slot}", words(name)) for t in speech.CORRECT]
    if "barge_in" in draft.anchors:
        bank["event:interrupt"] = list(speech.BARGE)
    if "clarification" in draft.anchors:
        slot = words(draft.anchors["clarification"])
        bank["event:ask_why"] = [t.replace("{slot}", slot) for t in speech.CLARIFY]
    if "backchannel" in draft.anchors:
        bank["event:listening"] = list(speech.BACKCHANNEL)
    if draft.revised is not None:
        slot = words(draft.revised)
        bank["event:hold"] = [
            t.replace("{slot}", slot).replace("{verb}", verb) for t in speech.REVOKE
        ]
    if "cancellation" in draft.anchors:
        bank["event:call_off"] = [t.replace("{verb}", verb) for t in speech.CANCEL]
    return bank


def build_user(draft: Draft) -> dict[str, Any]:
    return {
        "persona": {
            "name": draft.world.person(),
            "voice": "default",
            "behavior": draft.plan.behavior,
            "verbosity": {"verbose": "verbose", "expert": "terse", "time_pressured": "terse"}.get(
                draft.plan.behavior, "normal"
            ),
        },
        "goal": draft.arch.goal,
        "facts": build_facts(draft),
        "approvals": build_approvals(draft),
        "events": build_events(draft),
        "realizations": build_realizations(draft),
    }
