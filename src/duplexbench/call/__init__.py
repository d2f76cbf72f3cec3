"""Live caller mode: a person takes the caller's seat in the browser (docs/human-caller.md)."""

from duplexbench.call._assets import CSP
from duplexbench.call._mic import MicBuffer
from duplexbench.call._phone import BrowserPhone, artifact_message
from duplexbench.call._plan import AuditPlan, AuditPlanError, load_audit_plan
from duplexbench.call._server import CallServer
from duplexbench.call._session import CallOptions, CallOutcome, run_calls

__all__ = [
    "CSP",
    "AuditPlan",
    "AuditPlanError",
    "BrowserPhone",
    "CallOptions",
    "CallOutcome",
    "CallServer",
    "MicBuffer",
    "artifact_message",
    "load_audit_plan",
    "run_calls",
]
