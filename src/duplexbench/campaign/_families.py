"""The item families by name: the one place that knows which families exist.

Each family's module is imported when first asked for (start-up time) and
registers itself (`_family.register_family`). This module sits above the
families, so a family's own modules never import it.
"""

from __future__ import annotations

import importlib

from duplexbench.campaign._family import Family, registered_family

_MODULES: dict[str, str] = {
    "workflow": "duplexbench.campaign._workflow_family",
    "action": "duplexbench.campaign._action_family",
}


def get_family(name: str) -> Family:
    """The family of that name; ValueError naming the known ones."""
    family = registered_family(name)
    if family is None and name in _MODULES:
        importlib.import_module(_MODULES[name])
        family = registered_family(name)
    if family is None:
        raise ValueError(f"unknown item family {name!r}; known: {', '.join(_MODULES)}")
    return family
