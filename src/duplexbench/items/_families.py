"""The item families: the name an item file or a suite manifest gives in `family`.

`workflow` (APEX-Voice workflows; also what an item or manifest without
`family` is) and `action` (DuplexAct interaction actions). The campaign layer
runs each through its `campaign.family.Family`.
"""

from __future__ import annotations

from typing import Literal

Family = Literal["workflow", "action"]
FAMILIES: tuple[Family, ...] = ("workflow", "action")
