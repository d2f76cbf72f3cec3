"""Stateful fuzzing of tool calls: random episodes of valid and invalid calls.

A Hypothesis state machine drives one episode's workbench through
`EpisodeCore.run_tool` (see tests/support/tool_fuzz.py) with a random mix of valid calls
(real record ids, fact values), mutated calls, whole-artifact fills, commits
(fill, ready, maybe approve, act), user approvals and revocations and the
passing of media time. Each call is checked as in test_fuzz_tools.py (defined
outcome, rejected calls change nothing, successful calls change only what
their tool may); after every step:

- the state equals `replay` of the trace and survives `workbench.json`;
- the trace only grows, `seq` counts up, lifecycle moves are legal
  (empty->draft->ready->draft/committed) and a committed artifact never changes;
- approval tokens only accumulate, `used`/`revoked_ms` never revert; every
  gated `action.executed` names a token granted before it, in scope, not
  revoked, and used by that run only;
- nothing an agent holds (its arguments, its result) is shared with the state
  or the logged `tool.result`.

`DUPLEXBENCH_FUZZ_EXAMPLES` (default 40) sequences of up to 30 steps; about 1 s
at the default.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from duplexbench.items._tools import (
    ActionTool,
    ArtifactTransitionTool,
    ArtifactUpdateTool,
    is_gated,
)
from duplexbench.trace._events import (
    ActionExecuted,
    FieldSet,
    LifecycleChanged,
    ToolCall,
    TraceEvent,
)
from duplexbench.workbench._auth import Token
from support.fuzzing import FUZZ
from support.tool_fuzz import (
    SOURCES,
    call_tool,
    check_consistent,
    episode,
    field_candidates,
    item_of,
    mutate,
    scramble,
    snapshot,
    valid_arguments,
)

LEGAL_MOVES = {("empty", "draft"), ("draft", "ready"), ("ready", "draft"), ("ready", "committed")}


class ToolSequence(RuleBasedStateMachine):
    """One episode's workbench under a random mix of calls; invariants after every step."""

    @initialize(source=st.sampled_from(SOURCES))
    def start(self, source: str) -> None:
        self.item = item_of(source)
        self.core = episode(self.item)
        self.t = 0
        self.seen: list[TraceEvent] = []  # the trace as last checked
        self.tokens: dict[str, tuple[Any, ...]] = {}
        self.lifecycle = {a.id: "empty" for a in self.item.artifacts}

    @rule(data=st.data())
    def valid_call(self, data: st.DataObject) -> None:
        tool = data.draw(st.sampled_from(self.item.tools))
        arguments = data.draw(valid_arguments(self.item, tool))
        first = len(self.core.recorder.events)
        out = call_tool(self.core, tool, arguments, self.t)
        if out["ok"]:  # nothing the agent holds is shared with the state or the log
            logged = self.core.recorder.events[first + 1 :]  # tool.call logs what was sent
            before = snapshot(self.core), [e.model_dump() for e in logged]
            scramble(arguments)
            scramble(out["result"])
            assert (snapshot(self.core), [e.model_dump() for e in logged]) == before

    @rule(data=st.data())
    def invalid_call(self, data: st.DataObject) -> None:
        tool = data.draw(st.sampled_from(self.item.tools))
        arguments = mutate(data.draw, data.draw(valid_arguments(self.item, tool)))
        call_tool(self.core, tool, arguments, self.t)

    def fill(self, artifact_id: str) -> None:
        artifact = self.item.artifact(artifact_id)
        names = [f.name for f in artifact.fields] if artifact else []
        pick = {n: field_candidates(self.item, artifact_id, n)[0] for n in names}
        for tool in self.item.tools:
            if isinstance(tool, ArtifactUpdateTool) and tool.artifact == artifact_id:
                call_tool(self.core, tool, {"fields": pick}, self.t)

    @rule(data=st.data())
    def commit(self, data: st.DataObject) -> None:
        """Fill an artifact, mark it ready, maybe get the approval, run its commit action."""
        actions = [t for t in self.item.tools if isinstance(t, ActionTool) and t.artifact]
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        assert action.artifact is not None
        if data.draw(st.booleans()):
            self.fill(action.artifact)
        for tool in self.item.tools:
            ready = isinstance(tool, ArtifactTransitionTool) and tool.to_state == "ready"
            if ready and getattr(tool, "artifact", None) == action.artifact:
                call_tool(self.core, tool, {}, self.t)
        if data.draw(st.booleans()):
            for approval in self.item.user.approvals:
                self.core.bench.grant(approval, self.t)
        call_tool(self.core, action, data.draw(valid_arguments(self.item, action)), self.t)

    @rule(data=st.data())
    def approve_or_revoke(self, data: st.DataObject) -> None:
        if self.item.user.approvals:
            approval = data.draw(st.sampled_from(self.item.user.approvals))
            if data.draw(st.booleans()):
                self.core.bench.grant(approval, self.t)
            else:
                self.core.bench.revoke(approval.id, "revoke-event", self.t)

    @rule(ms=st.integers(0, 3000))
    def wait(self, ms: int) -> None:
        self.t += ms

    @invariant()
    def consistent(self) -> None:
        if hasattr(self, "core"):
            check_consistent(self.core)
            self.check_tokens()
            self.check_new_events()

    def check_tokens(self) -> None:
        """Tokens only accumulate; `used` and `revoked_ms`, once set, never change."""
        for token in self.core.bench.auth.tokens:
            old = self.tokens.get(token.id)
            if old is not None:
                assert old[:5] == dataclasses.astuple(token)[:5]
                assert old[5] is None or old[5] == token.revoked_ms
                assert token.used or not old[6]
            self.tokens[token.id] = dataclasses.astuple(token)
        assert len(self.tokens) == len(self.core.bench.auth.tokens)

    def check_new_events(self) -> None:
        events = self.core.recorder.events
        assert all(a is b for a, b in zip(self.seen, events, strict=False))  # append-only
        assert len(events) >= len(self.seen) and [e.seq for e in events] == list(range(len(events)))
        tokens = {t.id: t for t in self.core.bench.auth.tokens}
        calls = {e.data.call_id: e.data.name for e in events if isinstance(e, ToolCall)}
        for event in events[len(self.seen) :]:
            if isinstance(event, LifecycleChanged):
                move = (event.data.old, event.data.new)
                assert move in LEGAL_MOVES and event.data.old == self.lifecycle[event.data.artifact]
                self.lifecycle[event.data.artifact] = event.data.new
            elif isinstance(event, FieldSet):
                assert self.lifecycle[event.data.artifact] != "committed"
            elif isinstance(event, ActionExecuted):
                tool = self.item.tool(calls[event.data.call_id])
                assert tool is not None and is_gated(tool) is (event.data.token is not None)
                if event.data.token is not None:
                    self.check_token_use(tokens[event.data.token], event)
        used = [e.data.token for e in events if isinstance(e, ActionExecuted) and e.data.token]
        assert len(used) == len(set(used)) == sum(t.used for t in tokens.values())
        self.seen = list(events)

    @staticmethod
    def check_token_use(token: Token, run: ActionExecuted) -> None:
        """The token was granted before the run, covers it and was not revoked by then."""
        assert token.used and token.covers(run.data.action, run.data.target)
        assert token.granted_ms <= run.t_ms
        assert token.revoked_ms is None or run.t_ms < token.revoked_ms


TestToolSequences = ToolSequence.TestCase
TestToolSequences.settings = settings(FUZZ, stateful_step_count=30)
