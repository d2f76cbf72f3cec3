"""API keys for network adapters: from the environment or a local secrets file.

A key is looked up by the name of its environment variable (an adapter's
`api_key_env` option): first the environment, then the first secrets file
that defines it: `.duplexbench-secrets` in the working directory, then
`~/.config/duplexbench/secrets`. A secrets file has lines `NAME=value`
(blank lines and `#` comments are skipped; `export NAME=value` and quoted
values are accepted). Keep these files out of version control.

Errors name the variable, never the value; :func:`redact` scrubs key values
(also URL-encoded) from text before it reaches a trace, a log or an error.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote, quote_plus

from duplexbench.agents._protocol import AgentError

SECRETS_FILENAME = ".duplexbench-secrets"
USER_SECRETS_FILE = Path("~") / ".config" / "duplexbench" / "secrets"
REDACTED = "***"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SecretError(AgentError):
    """A key is missing (or its variable name is malformed); names the variable only."""


class Secret:
    """Holds a key for redaction; never shows it (repr, `vars()` of its holder)."""

    __slots__ = ("value",)

    def __init__(self, value: str | None = None) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "Secret(***)"


def secret_files() -> list[Path]:
    """Where keys are looked up after the environment, in order."""
    return [Path.cwd() / SECRETS_FILENAME, USER_SECRETS_FILE.expanduser()]


def read_secrets_file(path: Path) -> dict[str, str]:
    """`NAME=value` lines of a secrets file; an unreadable or missing file is empty."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.partition("=")
        name = name.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if _NAME.match(name) and value:
            values[name] = value
    return values


def api_key(env_var: str, files: Sequence[Path] | None = None) -> str:
    """The key held by `env_var` (environment first, then the secrets files).

    Raises :class:`SecretError` naming the variable and where it was looked for.
    """
    if not _NAME.match(env_var):
        raise SecretError(f"bad API key variable name {env_var!r}")
    value = os.environ.get(env_var, "").strip()
    if value:
        return value
    places = list(files) if files is not None else secret_files()
    for path in places:
        found = read_secrets_file(path).get(env_var)
        if found:
            return found
    where = " or ".join(str(p) for p in places)
    raise SecretError(
        f"no API key: set the environment variable {env_var}"
        + (f" or add a line {env_var}=... to {where}" if where else "")
    )


def redact(text: str, keys: Iterable[str | None]) -> str:
    """`text` with every key value (plain or URL-encoded) replaced by `***`."""
    variants: set[str] = set()
    for key in keys:
        if key:
            variants.update({key, quote(key, safe=""), quote_plus(key)})
    for variant in sorted(variants, key=len, reverse=True):
        text = text.replace(variant, REDACTED)
    return text
