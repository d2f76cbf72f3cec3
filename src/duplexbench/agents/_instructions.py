"""The instruction text every agent gets: the item's delegation plus general rules."""

from __future__ import annotations

from duplexbench.items import WorkflowItem

GENERAL_RULES = """\
You are a voice assistant on a live call, working in a workbench of tools.
- Use the tools to record work; a value only counts once it is written.
- Ask for one missing piece of information at a time and listen to corrections.
- Before any action that needs approval, ask the caller and wait for an explicit yes.
- If the caller withdraws an approval, do not perform the action.
- When the work is done, tell the caller and say goodbye."""


def build_instructions(item: WorkflowItem) -> str:
    """Delegation context from the item plus the shared rules; no task-specific coaching."""
    return f"{GENERAL_RULES}\n\nTask: {item.title}\n{item.instructions.strip()}"
