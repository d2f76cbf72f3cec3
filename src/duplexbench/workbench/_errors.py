"""Structured tool errors handed back to the agent."""

from __future__ import annotations


class ToolFailure(Exception):
    """Raised inside a tool handler; becomes `{"ok": false, "error": {code, message}}`.

    Codes: unknown_tool, invalid_arguments, too_large (a string over 4,096
    characters or an array over 256 elements), unknown_field, unknown_record,
    lifecycle, missing_fields, not_authorized.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
