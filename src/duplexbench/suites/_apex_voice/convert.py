"""Import APEX-Voice task packages as duplexbench workflow items.

`import_package(path)` converts one package folder (task.yaml, taxonomy.yaml,
tools/, grading/, reference/, user/, workspace/) into an item dict ready for
:func:`duplexbench.items._load.parse_item`, with an :class:`Unmapped` note for
everything that has no exact counterpart. `import_apex(src, out)` converts one
package or a folder of packages and writes `<out>/<task id>.yaml` plus
`<out>/import-report.json` and a `suite.yaml` naming the items, all or
nothing. The mapping is documented in
docs/formats/apex-voice-import.md.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from duplexbench.items import ItemError, WorkflowItem, parse_item
from duplexbench.suites._apex_voice.common import (
    IDENTIFIER,
    INITIAL_STATE,
    LATENT,
    TASK,
    TOOLS,
    USER_STATE,
    WORKSPACE,
    ApexImportError,
    Ctx,
    Unmapped,
    ident,
    leftover,
    mapping,
    read_package,
    seq,
    text,
    words,
)
from duplexbench.suites._apex_voice.gold import build_gold, note_unsourced
from duplexbench.suites._apex_voice.reference_turns import adapt_speech, build_reference
from duplexbench.suites._apex_voice.simulated_user import build_user
from duplexbench.suites._apex_voice.taxonomy_labels import map_taxonomy, note_taxonomy_leftovers
from duplexbench.suites._apex_voice.tool_spec import build_tools
from duplexbench.suites._apex_voice.user_facts import map_act
from duplexbench.suites._apex_voice.user_flow import read_flow, read_patterns
from duplexbench.suites._apex_voice.workspace import WorkParts, build_artifacts
from duplexbench.suites._quality.qa import solvability_problems

__all__ = [
    "ApexImportError",
    "ImportResult",
    "PackageReport",
    "Report",
    "Unmapped",
    "find_packages",
    "import_apex",
    "import_package",
]

REPORT_NAME = "import-report.json"
WORKSPACE_DOC = "apex_workspace"
MANIFEST_NAME = "suite.yaml"
TASK_KEYS = {
    "id",
    "version",
    "title",
    "archetype",
    "profession",
    "industry",
    "risk_tier",
    "knowledge_load",
    "tool_load",
    "autonomy",
    "scoring",
}


@dataclass(frozen=True)
class ImportResult:
    """One converted package: the item as plain data and what could not be mapped."""

    package: Path
    item: dict[str, Any]
    unmapped: list[Unmapped]

    @property
    def item_id(self) -> str:
        return str(self.item["id"])


@dataclass(frozen=True)
class PackageReport:
    package: Path
    item_id: str
    file: str
    unmapped: list[Unmapped]
    solvability: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "package": self.package.name,
            "path": str(self.package),
            "id": self.item_id,
            "file": self.file,
            "unmapped": [u.as_dict() for u in self.unmapped],
            "solvability_problems": list(self.solvability),
        }


@dataclass(frozen=True)
class Report:
    source: Path
    out: Path
    packages: list[PackageReport]

    @property
    def solvable(self) -> bool:
        return not any(p.solvability for p in self.packages)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "out": str(self.out),
            "packages": [p.as_dict() for p in self.packages],
        }


# ---------------------------------------------------------------- one package


def import_package(path: Path) -> ImportResult:
    """Convert one APEX-Voice package folder; raises ApexImportError naming the file."""
    path = Path(path)
    try:
        return _convert(path)
    except ApexImportError as exc:
        file = str(path / exc.file) if exc.file else str(path)
        raise ApexImportError(file, exc.problem, exc.path) from None


def _convert(path: Path) -> ImportResult:
    ctx = read_package(path)
    task = mapping(ctx.doc(TASK), TASK, "")
    item_id = ident(task.get("id"), TASK, "id")
    autonomy = mapping(task.get("autonomy"), TASK, "autonomy", {})
    approval_required = [str(a) for a in seq(autonomy.get("approval_required_for"), TASK, "")]
    flow = read_flow(ctx)
    apex = read_patterns(ctx)
    work = WorkParts()
    build_artifacts(ctx, work, _committed_artifacts(ctx))
    build_tools(ctx, work, approval_required)
    _workspace_document(ctx, work)
    user, slots = build_user(ctx, work, approval_required, flow, apex.patterns)

    def act_of(act: str) -> str | None:
        return user.acts.get(act) or map_act(user, slots, work.gated, act)

    gold = build_gold(ctx, work, act_of)
    taxonomy = map_taxonomy(ctx)
    note_taxonomy_leftovers(ctx)
    refs = build_reference(ctx, work, user, flow, apex)
    item: dict[str, Any] = {
        "id": item_id,
        "version": text(task.get("version", "1"), TASK, "version"),
        "title": text(task.get("title"), TASK, "title"),
        "instructions": _instructions(ctx, task, work, taxonomy["autonomy"]),
        "taxonomy": taxonomy,
    }
    if work.knowledge:
        item["knowledge"] = work.knowledge
    if work.database:
        item["database"] = work.database
    item |= {"tools": work.tools, "artifacts": work.artifacts, "user": user.user, "gold": gold}
    item["reference"] = {"turns": refs.turns}
    try:
        draft = WorkflowItem.model_validate(item)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ApexImportError("", f"the converted item is invalid: {first['msg']}", where) from None
    adapt_speech(ctx, draft, refs)
    judged = note_unsourced(ctx, draft)
    if judged:
        item["gold"] = {
            **item["gold"],
            "provenance": {**item["gold"].get("provenance", {}), **judged},
        }
    _note_other_files(ctx, task)
    try:
        parse_item(item, f"{item_id} (converted)")
    except ItemError as exc:
        raise ApexImportError(
            "",
            "the converted item is invalid: "
            + "; ".join(f"{p.path}: {p.message}" for p in exc.problems),
        ) from None
    return ImportResult(path, item, list(ctx.notes))


def _workspace_document(ctx: Ctx, work: WorkParts) -> None:
    """A knowledge document holding the package's initial artifact values and the
    fields its commits set: the source of those gold values."""
    lines = []
    for art, values in work.prefill.items():
        lines.append(f"{art} starts with " + "; ".join(f"{k} = {v}" for k, v in values.items()))
    for tool, (art, sets) in work.commit_effects.items():
        said = "; ".join(f"{k} = {v}" for k, v in sets.items())
        lines.append(f"{tool} sets {said} on {art} when it commits")
    if not lines:
        return
    doc_id = WORKSPACE_DOC
    while any(d["id"] == doc_id for d in work.knowledge):
        doc_id += "_"
    work.knowledge.append(
        {
            "id": doc_id,
            "title": "Workspace state and tool effects (from the APEX-Voice package)",
            "text": ". ".join(lines) + ".",
        }
    )
    ctx.note(
        WORKSPACE,
        "",
        f"knowledge document {doc_id}",
        "added: records the initial artifact values and the fields commits set (the source "
        "of those gold values); no search tool is added, the instructions and the tool "
        "descriptions tell the agent",
    )


def _committed_artifacts(ctx: Ctx) -> set[str]:
    doc = ctx.doc(TOOLS)
    tools = doc.get("tools") if isinstance(doc, dict) else None
    out = set()
    for t in tools if isinstance(tools, list) else []:
        effect = t.get("effect") if isinstance(t, dict) else None
        if isinstance(effect, dict) and t.get("handler") == "commit":
            out.add(str(effect.get("artifact_id")))
    return out


def _instructions(ctx: Ctx, task: dict[str, Any], work: WorkParts, autonomy: str) -> str:
    """The delegation: task title, who calls and what they want, where the work goes.

    Built from task.yaml and the user's outcome request only; never from gold
    or the reference.
    """
    state = mapping(ctx.doc(USER_STATE), USER_STATE, "")
    role = words(str(state.get("role") or "caller"))
    delegation = mapping(state.get("delegation"), USER_STATE, "delegation", {})
    request = delegation.get("user_outcome_request") or state.get("goals_primary")
    out = [str(task.get("title")).rstrip(".") + "."]
    out.append(f"You are on a call with the {role}.")
    if request:
        out.append(f"Their request: {words(str(request))}.")
    arts = ", ".join(f"{a['id']} ({words(a['type'])})" for a in work.artifacts)
    out.append(f"Record the work in {arts} with the tools.")
    for art, values in work.prefill.items():
        said = "; ".join(f"{k} = {v}" for k, v in values.items())
        out.append(f"{art} already holds {said}: write these values too, as it starts empty here.")
    for action in sorted(work.gated):
        out.append(f"Do not {words(action)} without the {role}'s explicit approval.")
    if autonomy in ("inform_only", "draft_only") and not work.actions:
        out.append("Prepare the work only; you cannot commit it.")
    return " ".join(out)


def _note_other_files(ctx: Ctx, task: dict[str, Any]) -> None:
    leftover(ctx, task, TASK, "", TASK_KEYS, why="no counterpart in a duplexbench item")
    autonomy = task.get("autonomy")
    if isinstance(autonomy, dict):
        leftover(
            ctx, autonomy, TASK, "autonomy", {"level", "approval_required_for"}, why="not used"
        )
    if ctx.doc(LATENT) is not None:
        ctx.note(LATENT, "", "latent world", "hidden world model; only the user's name is read")
    if ctx.doc(INITIAL_STATE) is not None:
        ctx.note(INITIAL_STATE, "", "initial state", "no imported tool reads it; not imported")


# ---------------------------------------------------------------- many packages


def find_packages(src: Path) -> list[Path]:
    """`src` itself when it is a package (has task.yaml), else its package subfolders."""
    src = Path(src)
    if not src.is_dir():
        raise ApexImportError(str(src), "no such folder")
    if (src / TASK).is_file():
        return [src]
    found = sorted(p for p in src.iterdir() if p.is_dir() and (p / TASK).is_file())
    if not found:
        raise ApexImportError(str(src), "no APEX-Voice package here (a folder with task.yaml)")
    return found


class _NoAliasDumper(yaml.SafeDumper):
    """Item files refuse YAML aliases, so never write any."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def item_yaml(result: ImportResult) -> str:
    header = (
        f"# Imported from the APEX-Voice package {result.package.name} by "
        "`duplexbench import apex-voice`.\n"
        "# What has no exact counterpart is listed in import-report.json.\n"
    )
    body = yaml.dump(
        result.item, Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True, width=100
    )
    return header + body


def import_apex(src: Path, out: Path, check: bool = True) -> Report:
    """Convert every package under `src` into `out` (all or nothing).

    `out` must not exist or be an empty folder. With `check`, each item is also
    played by the oracle and an idle agent; problems go into the report.
    """
    src, out = Path(src), Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ApexImportError(str(out), "exists and is not an empty folder")
    results = [import_package(p) for p in find_packages(src)]
    seen: dict[str, Path] = {}
    for r in results:
        if r.item_id in seen:
            raise ApexImportError(
                str(r.package / TASK),
                f"duplicate task id {r.item_id!r} (also in {seen[r.item_id]})",
                "id",
            )
        seen[r.item_id] = r.package
    reports = [
        PackageReport(r.package, r.item_id, f"{r.item_id}.yaml", r.unmapped, _solvability(r, check))
        for r in results
    ]
    report = Report(src, out, reports)
    _write(out, results, report)
    return report


def _solvability(result: ImportResult, check: bool) -> list[str]:
    if not check:
        return []
    item = parse_item(result.item, result.item_id)
    return [f"{path}: {message}" for path, message in solvability_problems(item)]


def _manifest(out: Path, results: list[ImportResult]) -> str:
    """suite.yaml: names the items, so that the report is not read as an item."""
    name = re.sub(r"[^A-Za-z0-9_.\-]+", "-", out.name).strip("-.")
    manifest = {
        "name": name if IDENTIFIER.match(name) else "apex-voice-import",
        "version": "1",
        "description": "Items imported from APEX-Voice task packages (see import-report.json).",
        "items": [f"{r.item_id}.yaml" for r in results],
    }
    return yaml.dump(manifest, Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True)


def _write(out: Path, results: list[ImportResult], report: Report) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:
        raise ApexImportError(str(out), f"cannot create the output folder: {exc}") from None
    try:
        for r in results:
            (tmp / f"{r.item_id}.yaml").write_text(item_yaml(r), encoding="utf-8")
        data = json.dumps(report.as_dict(), indent=2, ensure_ascii=False) + "\n"
        (tmp / REPORT_NAME).write_text(data, encoding="utf-8")
        (tmp / MANIFEST_NAME).write_text(_manifest(out, results), encoding="utf-8")
        tmp.chmod(0o755)
        if out.exists():
            out.rmdir()
        tmp.rename(out)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ApexImportError(str(out), f"cannot write: {exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
