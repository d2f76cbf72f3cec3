"""Shared test code: everything under tests/ that is not a test, a fixture or a hook.

Tests import it as `from support.<module> import ...` (pyproject's pytest
`pythonpath = ["tests"]`, mypy's `mypy_path`); see docs/testing.md.
"""
