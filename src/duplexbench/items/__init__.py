"""Item formats: workflow items, their loading, validation and JSON Schema."""

from duplexbench.items.errors import ItemError, Problem
from duplexbench.items.load import item_checksum, load_item, parse_item
from duplexbench.items.suite import Suite, load_suite
from duplexbench.items.workflow import WorkflowItem

__all__ = [
    "ItemError",
    "Problem",
    "Suite",
    "WorkflowItem",
    "item_checksum",
    "load_item",
    "load_suite",
    "parse_item",
]
