"""`make demo`, part by part: fresh-clone install, main job cold and warm, peak memory.

Reported, never asserted. Three passes, each command in a fresh process under
`/usr/bin/time` (wall seconds, CPU seconds, the peak RSS of its largest process):

1. **fresh** (`--fresh`, the default; `--no-fresh` skips it): `git clone` of this
   repository's HEAD (committed work only) into a temporary folder, with ``HOME`` an
   empty folder there (no pip cache, no speech bank, no transcript cache), then
   `make install` (the venv and `pip install -e '.[dev]'` from the package registry)
   and `make demo` in that clone: the figure a new user sees.
2. **cold**: the main job's two commands in this checkout's venv, on an empty speech
   bank and transcript cache of their own (``DUPLEXBENCH_SPEECH_CACHE`` in a temporary
   folder; your `~/.cache/duplexbench` is not touched):

       duplexbench run --condition text,clean --out OUT --overwrite --workers 2 -q
       duplexbench report OUT --html OUT/report.html

3. **warm**: the same again, the bank and cache as the cold pass left them.

Targets (issue 36; 2 cores, a quiet machine): the fresh `make demo`, install
included, at most 240 s; the main job cold at most 180 s; warm at most 90 s; no
process (the driver or a worker) above 600 MiB. How busy the machine was is the
1-minute load average before each pass (`load_before`): compare figures only from
a quiet machine (below 0.5 on 2 cores). Prints JSON with each figure and its ratio
to the target (below 1.0 meets it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TARGETS = {"fresh_make_demo_s": 240.0, "cold_s": 180.0, "warm_s": 90.0, "peak_rss_mib": 600.0}
TIME = "/usr/bin/time"


@dataclass(frozen=True)
class Timed:
    """One command or pass: wall and CPU seconds, peak RSS of its largest process."""

    wall_s: float
    cpu_s: float
    peak_rss_mib: float
    exit_codes: tuple[int, ...]

    def __add__(self, other: Timed) -> Timed:
        return Timed(
            round(self.wall_s + other.wall_s, 1),
            round(self.cpu_s + other.cpu_s, 1),
            max(self.peak_rss_mib, other.peak_rss_mib),
            self.exit_codes + other.exit_codes,
        )


def _timed(command: list[str], env: dict[str, str], cwd: Path) -> Timed:
    """Run `command` under /usr/bin/time."""
    report = Path(tempfile.mkstemp(prefix="demo-time-")[1])
    try:
        done = subprocess.run(
            [TIME, "-o", str(report), "-f", "%e %U %S %M", *command],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
        wall, user, system, rss_kib = report.read_text().split()[-4:]
    finally:
        report.unlink(missing_ok=True)
    if done.returncode != 0:
        sys.stderr.write(f"$ {' '.join(command)}\n{done.stderr[-4000:]}\n")
    cpu = round(float(user) + float(system), 1)
    rss = round(int(rss_kib) / 1024, 1)
    return Timed(round(float(wall), 1), cpu, rss, (done.returncode,))


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def main_job(exe: Path, out: Path, env: dict[str, str], cwd: Path) -> dict[str, object]:
    """The demo's two commands, each in a fresh process."""
    load = _load()
    run = ["run", "--condition", "text,clean", "--out", str(out), "--overwrite"]
    ran = _timed([str(exe), *run, "--workers", "2", "-q", "--json"], env, cwd)
    report = _timed([str(exe), "report", str(out), "--html", str(out / "report.html")], env, cwd)
    return asdict(ran + report) | {"load_before": load, "run": asdict(ran)}


def fresh(root: Path) -> dict[str, object]:
    """`git clone` + `make install` + `make demo`'s commands, HOME empty."""
    load = _load()
    clone, home = root / "clone", root / "home"
    home.mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DUPLEXBENCH_", "PIP_"))}
    env |= {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(BIN))
    )
    install = _timed(["make", "install"], env, clone)
    exe = clone / ".venv" / "bin" / "duplexbench"
    demo = main_job(exe, clone / "runs" / "demo", env, clone)
    total = round(install.wall_s + float(demo["wall_s"]), 1)  # type: ignore[arg-type]
    return {"wall_s": total, "load_before": load, "install": asdict(install), "main_job": demo}


def scores(out: Path) -> dict[str, object]:
    """Pass@1 and AFA per condition, so a fast run that broke the agent shows."""
    result: dict[str, object] = {}
    for condition in ("text", "clean"):
        summary = json.loads((out / condition / "summary.json").read_text())
        work = summary["workflows"]
        result[condition] = {
            "pass_at_1": work["pass_at_1"],
            "afa": work["afa"],
            "episodes": summary["episodes"],
            "errors": summary["errors"],
            "agent_errors": summary["agent_errors"],
        }
    return result


def _ratio(value: object, target: str) -> float:
    return round(float(value) / TARGETS[target], 3)  # type: ignore[arg-type]


def main(with_fresh: bool) -> dict[str, object]:
    if not Path(TIME).exists():
        raise SystemExit(f"{TIME} is missing: apt-get install time")
    out: dict[str, object] = {
        "python": sys.version.split()[0],
        "cores": os.cpu_count(),
        "targets": TARGETS,
    }
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="duplexbench-demo-bench-") as tmp:
        root = Path(tmp)
        if with_fresh and shutil.which("make") and shutil.which("git"):
            out["fresh"] = fresh_pass = fresh(root / "fresh")
            ratios["fresh_make_demo"] = _ratio(fresh_pass["wall_s"], "fresh_make_demo_s")
        env = dict(os.environ)
        env["DUPLEXBENCH_SPEECH_CACHE"] = str(root / "speech")
        for beside_the_bank in ("DUPLEXBENCH_TRANSCRIPT_CACHE", "DUPLEXBENCH_EMBEDDING_CACHE"):
            env.pop(beside_the_bank, None)  # under the bank: empty too
        exe = BIN / "duplexbench"
        out["cold"] = cold = main_job(exe, root / "cold", env, ROOT)
        out["warm"] = warm = main_job(exe, root / "warm", env, ROOT)
        passes: list[dict[str, object]] = [cold, warm]
        if with_fresh and isinstance(out.get("fresh"), dict):
            passes.append(fresh_pass["main_job"])  # type: ignore[arg-type]
        peak = max(float(p["peak_rss_mib"]) for p in passes)  # type: ignore[arg-type]
        out["peak_rss_mib_largest_process"] = peak
        ratios |= {
            "cold": _ratio(cold["wall_s"], "cold_s"),
            "warm": _ratio(warm["wall_s"], "warm_s"),
            "peak_rss": _ratio(peak, "peak_rss_mib"),
        }
        out["ratio_to_target"] = ratios
        try:
            out["scores_warm"] = scores(root / "warm")
        except (OSError, ValueError, KeyError) as exc:
            out["scores_warm"] = f"unreadable: {exc}"
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action=argparse.BooleanOptionalAction, default=True)
    print(json.dumps(main(parser.parse_args().fresh), indent=2))
