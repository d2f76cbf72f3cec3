"""`duplexbench import apex-voice`: APEX-Voice task packages as duplexbench workflow items.

`convert.py` converts one package (`import_package`) or a folder of them and
writes the items, `import-report.json` and `suite.yaml`, all or nothing
(`import_apex`). Its parts, one per package part: `common.py` (package file
names, safe reading, the conversion context, errors and notes),
`taxonomy_labels.py` + `taxonomy_tables.py` (taxonomy labels -> our
vocabularies), `tool_spec.py` (tools), `workspace.py` (artifacts, knowledge,
database), `gold.py` (gold predicates), `simulated_user.py` (the user: persona,
goal, approvals) with `user_facts.py`, `duplex_events.py`, `realizations.py`
and `user_flow.py` (APEX's user flow, read for what it implies), and
`reference_turns.py` (the reference turns). docs/formats/apex-voice-import.md
documents the mapping.
"""

from duplexbench.suites._apex_voice.common import ApexImportError, Unmapped
from duplexbench.suites._apex_voice.convert import (
    REPORT_NAME,
    ImportResult,
    PackageReport,
    Report,
    find_packages,
    import_apex,
    import_package,
)

__all__ = [
    "REPORT_NAME",
    "ApexImportError",
    "ImportResult",
    "PackageReport",
    "Report",
    "Unmapped",
    "find_packages",
    "import_apex",
    "import_package",
]
