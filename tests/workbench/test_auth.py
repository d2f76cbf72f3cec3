"""Authorization rules: premature, post-revocation, wrong scope, onset timing."""

from __future__ import annotations

from duplexbench.workbench._auth import Authorizer


def test_premature_without_any_approval() -> None:
    assert Authorizer().check("submit", "form", 100) == "premature"


def test_valid_token_authorizes_and_is_single_use() -> None:
    auth = Authorizer()
    token = auth.grant("ap", "submit", None, 100)
    got = auth.check("submit", "form", 150)
    assert got is token
    token.used = True
    assert auth.check("submit", "form", 200) == "premature"


def test_approval_takes_effect_at_its_onset() -> None:
    auth = Authorizer()
    auth.grant("ap", "submit", None, 100)
    assert auth.check("submit", None, 99) == "premature"
    assert auth.check("submit", None, 100) != "premature"


def test_revocation_invalidates_at_its_onset() -> None:
    auth = Authorizer()
    auth.grant("ap", "submit", None, 100)
    auth.revoke("ap", 500)
    assert not isinstance(auth.check("submit", None, 499), str)  # before "no" started
    assert auth.check("submit", None, 500) == "post_revocation"
    assert auth.check("submit", None, 9000) == "post_revocation"


def test_wrong_scope_action_or_target() -> None:
    auth = Authorizer()
    auth.grant("ap", "submit", "form-1", 100)
    assert auth.check("submit", "form-2", 200) == "wrong_scope"
    assert auth.check("delete", "form-1", 200) == "wrong_scope"
    assert not isinstance(auth.check("submit", "form-1", 200), str)


def test_regrant_after_revocation() -> None:
    auth = Authorizer()
    auth.grant("ap", "submit", None, 100)
    auth.revoke("ap", 200)
    second = auth.grant("ap", "submit", None, 300)
    assert auth.check("submit", None, 350) is second
