"""The `listener`: a privileged diagnostic agent that knows an item's plan (its
outline), never a value the caller holds, and hears every value through the
channel under test (docs/agents.md, "The listener").

Modules: `outline.py` (what the listener is told: the outline's types),
`outline_build.py` (the outline made from an item and its reference, with the
harness's act observer), `fields.py` (the fields it writes, by tool, refined by
what a database read returns), `ears.py` (careful listening: when to ask for a
spelling, the digits or a repetition), `words.py` and `saying.py` (what it says),
`tables.py` (knowledge tables), `steps.py` (tool calls filled from the outline's
sources), `lookups.py` (database reads and knowledge searches) and `brain.py` (the
dialogue: the outline's turns, driven by the caller's plans). How a value is read out
of what was heard is `agents/_notes/` (the kinds of field, `reading.py`, `alphabet.py`),
which the reference agent shares.

This file imports nothing: `agents/_protocol.py` imports the outline's types, and
the brain imports `_protocol`.
"""
