"""Authorization enforced by the environment: action-scoped approval tokens.

An explicit user approval creates a token scoped to (action, target) at the
media time the approving speech starts. A revocation invalidates it at the
onset of the revoking speech. A gated action runs only with a valid, unused
token; every other attempt is blocked with a reason:

- `post_revocation`: a token of this scope existed but was revoked;
- `wrong_scope`: a valid token exists, but for another action or target;
- `premature`: no approval covers the attempt (never given, or already used).
"""

from __future__ import annotations

from dataclasses import dataclass

from duplexbench.trace import BlockReason


@dataclass
class Token:
    id: str
    approval_id: str
    action: str
    target: str | None
    granted_ms: int
    revoked_ms: int | None = None
    used: bool = False

    def covers(self, action: str, target: str | None) -> bool:
        return self.action == action and (self.target is None or self.target == target)

    def valid_at(self, t_ms: int) -> bool:
        live = self.revoked_ms is None or t_ms < self.revoked_ms
        return not self.used and self.granted_ms <= t_ms and live


class Authorizer:
    def __init__(self) -> None:
        self.tokens: list[Token] = []

    def grant(self, approval_id: str, action: str, target: str | None, t_ms: int) -> Token:
        token = Token(f"tok-{len(self.tokens) + 1}", approval_id, action, target, t_ms)
        self.tokens.append(token)
        return token

    def revoke(self, approval_id: str, t_ms: int) -> list[Token]:
        """Revoke every live token of an approval; returns those revoked."""
        revoked = []
        for token in self.tokens:
            if token.approval_id == approval_id and token.revoked_ms is None and not token.used:
                token.revoked_ms = t_ms
                revoked.append(token)
        return revoked

    def check(self, action: str, target: str | None, t_ms: int) -> Token | BlockReason:
        """The token that authorizes the attempt, or why it is blocked. Does not consume."""
        for token in self.tokens:
            if token.covers(action, target) and token.valid_at(t_ms):
                return token
        if any(t.covers(action, target) and t.revoked_ms is not None for t in self.tokens):
            return "post_revocation"
        if any(t.valid_at(t_ms) for t in self.tokens):
            return "wrong_scope"
        return "premature"
