"""APEX-Voice reference/policy.yaml -> duplexbench reference turns.

Tool calls are renamed to our tool kinds' arguments, the steps duplexbench
needs and APEX does not (pre-filled values, marking an artifact ready, fields
an APEX commit would set) are added, and each turn gets the user plan the
APEX flow says it follows (`expect`). Turns whose words our observer would read
differently from APEX's observer are rephrased (see :func:`adapt_speech`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from duplexbench.items import WorkflowItem
from duplexbench.suites._apex_voice.common import (
    POLICY,
    ApexImportError,
    Ctx,
    mapping,
    seq,
    words,
)
from duplexbench.suites._apex_voice.user_facts import UserParts
from duplexbench.suites._apex_voice.user_flow import (
    ApexObserver,
    Flow,
    Pattern,
    apex_acts,
    simulate,
)
from duplexbench.suites._apex_voice.workspace import WorkParts
from duplexbench.users import ActObserver

_SENTENCE = re.compile(r"[^.?!]+[.?!]?")
_IMPERATIVE = re.compile(
    r"^(tell|describe|walk|give|share|explain|list|talk|let)\b", flags=re.IGNORECASE
)
_LEAD = re.compile(r"^(\s*(?:[A-Za-z']+\s+){0,2}[A-Za-z']+,\s+)(.*)$", flags=re.DOTALL)
EXPECTED_PLAN_KINDS = ("answer:", "event:", "approve:", "decline:", "fix:", "confirm")


@dataclass
class Wanted:
    """An act the APEX observer reads in a turn's words, as our act, with its phrase."""

    act: str
    phrase: str


@dataclass
class RefParts:
    turns: list[dict[str, Any]] = field(default_factory=list)
    wanted: list[list[Wanted]] = field(default_factory=list)


class _Calls:
    """Converts one APEX tool call into ours, tracking artifact lifecycles."""

    def __init__(self, ctx: Ctx, work: WorkParts) -> None:
        self.ctx, self.work = ctx, work
        self.state = {a["id"]: "empty" for a in work.artifacts}
        self.updates = {
            t["artifact"]: t["name"] for t in work.tools if t["kind"] == "artifact_update"
        }

    def convert(self, raw: dict[str, Any], where: str) -> list[dict[str, Any]]:
        name = str(raw.get("name"))
        args = dict(mapping(raw.get("args", raw.get("arguments")), POLICY, f"{where}.args", {}))
        tool = self.work.tool(name)
        if tool is None:
            self.ctx.note(POLICY, where, f"call of {name}", "the tool was not imported; dropped")
            return []
        kind = tool["kind"]
        if kind == "artifact_update":
            self._touch(tool["artifact"])
            return [{"name": name, "arguments": {"fields": dict(args.get("fields") or {})}}]
        if kind == "artifact_transition":
            self.state[tool["artifact"]] = tool["to_state"]
            return [{"name": name, "arguments": {}}]
        if kind == "approval_request":
            if args:
                self.ctx.note(
                    POLICY,
                    f"{where}.args",
                    f"{name} arguments {sorted(args)}",
                    "replaced by the action to approve",
                )
            return [{"name": name, "arguments": {"action": self.work.approval_tools[name]}}]
        if kind == "action":
            return self._commit(tool, args, where)
        return [{"name": name, "arguments": args}]

    def _touch(self, art: str) -> None:
        if self.state.get(art) in ("empty", "ready"):
            self.state[art] = "draft"

    def _commit(self, tool: dict[str, Any], args: dict[str, Any], where: str) -> list[Any]:
        calls: list[dict[str, Any]] = []
        art = tool["artifact"]
        effect = self.work.commit_effects.get(tool["name"])
        if effect is not None and art in self.updates:
            calls.append({"name": self.updates[art], "arguments": {"fields": dict(effect[1])}})
            self._touch(art)
            self.ctx.note(
                POLICY,
                where,
                f"fields set by {tool['name']}",
                "commit effect emulated: the oracle writes them before committing",
            )
        if self.state.get(art) != "ready" and art in self.work.ready_tools:
            calls.append({"name": self.work.ready_tools[art], "arguments": {}})
            self.ctx.note(
                POLICY,
                where,
                f"mark {art} ready",
                "added before the commit (duplexbench commits only ready artifacts)",
            )
        self.state[art] = "committed"
        if "parameters" not in tool:
            args = {}
        calls.append({"name": tool["name"], "arguments": args})
        return calls

    def prefill(self) -> list[dict[str, Any]]:
        calls = []
        for art, values in self.work.prefill.items():
            if art in self.updates:
                calls.append({"name": self.updates[art], "arguments": {"fields": dict(values)}})
                self._touch(art)
        return calls


def _wanted(say: str, patterns: list[Pattern], user: UserParts) -> list[Wanted]:
    wanted: list[Wanted] = []
    for p in patterns:
        act = user.acts.get(f"{p.act}:{p.slot}" if p.slot else p.act)
        found = act is not None and p.phrase.casefold() in say.casefold()
        if act is not None and found and not any(w.act == act for w in wanted):
            wanted.append(Wanted(act, p.phrase))
    return wanted


def build_reference(
    ctx: Ctx, work: WorkParts, user: UserParts, flow: Flow, apex: ApexObserver
) -> RefParts:
    doc = mapping(ctx.doc(POLICY), POLICY, "")
    calls = _Calls(ctx, work)
    out = RefParts()
    apex_turn_acts: list[list[str]] = []
    requests: list[list[str]] = []
    for i, value in enumerate(seq(doc.get("turns"), POLICY, "turns")):
        raw = mapping(value, POLICY, f"turns[{i}]")
        say = str(raw.get("text") or raw.get("say") or "")
        turn_calls = calls.prefill() if i == 0 else []
        asked: list[str] = []
        for k, c in enumerate(seq(raw.get("tool_calls"), POLICY, f"turns[{i}].tool_calls")):
            call = mapping(c, POLICY, f"turns[{i}].tool_calls[{k}]")
            turn_calls += calls.convert(call, f"turns[{i}].tool_calls[{k}]")
            name = str(call.get("name"))
            if apex.tool_acts.get(name) == "REQUEST_APPROVAL" or name in work.approval_tools:
                asked.append(work.approval_tools.get(name, ""))
        turn: dict[str, Any] = {"say": say}
        if turn_calls:
            turn["tool_calls"] = turn_calls
        if raw.get("end_call"):
            turn["end_call"] = True
        out.turns.append(turn)
        acts = apex_acts(say, apex.patterns)
        apex_turn_acts.append(acts)
        requests.append(asked + [a.partition(":")[2] for a in acts if a.startswith("REQUEST_APPR")])
        out.wanted.append(_wanted(say, apex.patterns, user))
    if not out.turns:
        raise ApexImportError(POLICY, "the reference has no turns", "turns")
    if flow.start is not None:
        after = simulate(flow, apex_turn_acts, user.event_triggers, requests)
        for i, plans in enumerate(after[:-1]):
            ours = [user.plans[p] for p in plans if p in user.plans]
            ours = [p for p in ours if p.startswith(EXPECTED_PLAN_KINDS)]
            if ours:
                out.turns[i + 1] = {"expect": ours[0], **out.turns[i + 1]}
    return out


def _question(sentence: str) -> str:
    """`To start, tell me about X.` -> `To start, could you tell me about X?`"""
    body = sentence.strip().rstrip(".!")
    lead, rest = "", body
    match = _LEAD.match(body)
    if match is not None:
        lead, rest = match.group(1), match.group(2)
    if _IMPERATIVE.match(rest):
        rest = (
            "could you " + rest[:1].lower() + rest[1:]
            if lead
            else "Could you " + rest[:1].lower() + rest[1:]
        )
    return f"{lead}{rest}?"


def _fallback(act: str, phrase: str) -> str:
    kind, _, ref = act.partition(":")
    if kind == "ASK":
        return f"Could you tell me about the {phrase}?"
    if kind == "CONFIRM":
        return f"Can you confirm the {phrase}?"
    if kind == "REQUEST_APPROVAL":
        return f"Shall I {words(ref)} now?"
    if kind == "CLOSE":
        return "Goodbye."
    return ""


def adapt_speech(ctx: Ctx, item: WorkflowItem, refs: RefParts) -> None:
    """Rephrase turns whose acts (by APEX's observer) our observer does not read the same."""
    observer = ActObserver(item)
    for i, (turn, wanted) in enumerate(zip(refs.turns, refs.wanted, strict=True)):
        tool_acts = {f"REQUEST_APPROVAL:{refs_action}" for refs_action in _requested(turn, item)}
        for want in wanted:
            say = str(turn["say"])
            if want.act in observer.acts(say) or want.act in tool_acts:
                continue
            new = say
            for sent in _SENTENCE.findall(say):
                if want.phrase.casefold() in sent.casefold() and want.act.startswith("ASK:"):
                    new = say.replace(sent.strip(), _question(sent), 1)
                    break
            if want.act not in observer.acts(new):
                extra = _fallback(want.act, want.phrase)
                new = f"{say.rstrip()} {extra}".strip() if extra else say
            if want.act in observer.acts(new):
                turn["say"] = new
                ctx.note(
                    POLICY,
                    f"turns[{i}].text",
                    say,
                    f"rephrased as {new!r} so that our observer reads {want.act}",
                )
            else:
                ctx.note(
                    POLICY,
                    f"turns[{i}].text",
                    say,
                    f"our observer does not read {want.act} here (APEX's does)",
                )


def _requested(turn: dict[str, Any], item: WorkflowItem) -> list[str]:
    out = []
    for call in turn.get("tool_calls", []):
        tool = item.tool(call["name"])
        if tool is not None and tool.kind == "approval_request":
            out.append(str(call["arguments"].get("action")))
    return out
