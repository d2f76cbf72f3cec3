"""The scorer version: which scoring rules produced a score or a summary.

Every summary records it (`scorer_version`), and so does every run's
`campaign.json` (the rules the run was first scored with). A rescore under
other rules says so in its trust warnings, a run is never resumed under other
rules, and a report never compares runs scored under different rules without
saying so (docs/metrics.md, "Scorer version").

History:
- `1` (not recorded): before the version was recorded.
- `2`: an unsupported value counts as wrong in AFA and the AV gate (exempt: the
  oracle and privileged agents); the rules every item shares are no source of a
  value; a trace that does not match its item, checksum or folder is a tampered,
  failed episode, never left out; judge prompts carry the agent's values as
  JSON data.
"""

from __future__ import annotations

SCORER_VERSION = "2"
