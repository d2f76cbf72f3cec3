"""API keys: environment first, then the secrets files; errors never carry a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplexbench.agents import AgentError
from duplexbench.agents._providers.secrets import (
    SECRETS_FILENAME,
    SecretError,
    api_key,
    read_secrets_file,
    redact,
    secret_files,
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean working directory and home for the lookup."""
    work, user = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    user.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.delenv("DB_TEST_KEY", raising=False)
    return user


def test_environment_wins(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Path(SECRETS_FILENAME).write_text("DB_TEST_KEY=from-file\n")
    monkeypatch.setenv("DB_TEST_KEY", "  from-env  ")
    assert api_key("DB_TEST_KEY") == "from-env"


def test_local_file_then_user_file(home: Path) -> None:
    user_file = home / ".config" / "duplexbench" / "secrets"
    user_file.parent.mkdir(parents=True)
    user_file.write_text("DB_TEST_KEY=from-user\nOTHER=x\n")
    assert api_key("DB_TEST_KEY") == "from-user"
    Path(SECRETS_FILENAME).write_text('# keys\n\nexport DB_TEST_KEY = "from-local"\n')
    assert api_key("DB_TEST_KEY") == "from-local"
    assert secret_files() == [Path.cwd() / SECRETS_FILENAME, user_file]


def test_missing_key_names_the_variable_only(home: Path) -> None:
    Path(SECRETS_FILENAME).write_text("SOMETHING_ELSE=hunter2\nDB_TEST_KEY=\n")
    with pytest.raises(SecretError) as caught:
        api_key("DB_TEST_KEY")
    message = str(caught.value)
    assert "DB_TEST_KEY" in message and SECRETS_FILENAME in message
    assert "hunter2" not in message
    assert isinstance(caught.value, AgentError)  # an episode error, not a failure
    with pytest.raises(SecretError, match="bad API key variable"):
        api_key("not a name")


def test_read_secrets_file_tolerates_junk(tmp_path: Path) -> None:
    path = tmp_path / "s"
    path.write_text("junk line\n=novalue\nA='quoted value'\nB=x=y\n 1BAD=z\n")
    assert read_secrets_file(path) == {"A": "quoted value", "B": "x=y"}
    assert read_secrets_file(tmp_path / "missing") == {}


def test_redact() -> None:
    key = "sk/abc+def="
    text = f"GET wss://host/ws?key=sk%2Fabc%2Bdef%3D failed; header Bearer {key}"
    out = redact(text, [key, None, ""])
    assert key not in out and "sk%2F" not in out and out.count("***") == 2
    assert redact("nothing here", []) == "nothing here"
