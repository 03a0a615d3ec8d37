"""Snapshot the JSON output of every command on every scenario of the repository, timing aside.

Why: a refactor must not change behaviour. Run it before and after, then compare:

    python benchmarks/snapshot_outputs.py write /tmp/before
    ... change the code ...
    python benchmarks/snapshot_outputs.py write /tmp/after
    python benchmarks/snapshot_outputs.py compare /tmp/before /tmp/after

`compare` prints every file that differs and exits 1 if any does. Timing fields (seconds, rates)
are removed before writing, so two runs of unchanged code compare equal.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMING = {"seconds", "solver_seconds", "total_seconds", "explore_seconds", "check_seconds", "rate",
          "states_per_second", "elapsed", "time", "wall", "cpu"}


def scenarios() -> list[str]:
    """Every scenario file under scenarios/ and tests/data (not card files, corpora or property files)."""
    found = []
    for base in ("scenarios", "tests/data"):
        for path in sorted((ROOT / base).rglob("*.yaml")):
            rel = path.relative_to(ROOT).as_posix()
            if "/cards/" in rel or "/rulings/" in rel and base == "tests/data" or rel.endswith("corpus.yaml") \
                    or rel.endswith("_cards.yaml") or rel.endswith("user_properties.yaml") \
                    or rel.endswith("false_property.yaml"):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if "statements:" in text and "scenario:" not in text.split("statements:")[0]:
                continue
            found.append(rel)
    return found


ENVELOPE = ("schema_version", "command", "errors")
DERIVED = {"outcomes_total", "outcomes_left_out"}   # counts of `outcomes`, added with schema_version 1


def unwrap(doc):
    """The one-object JSON (schema_version 1) in the shape printed before it, so snapshots written on
    either side of that change compare: explore/check give their one scenario (or the list), verify
    and diff their body, and an errors-only object nothing (the old output printed nothing)."""
    if not isinstance(doc, dict) or "schema_version" not in doc:
        return doc
    body = {k: v for k, v in doc.items() if k not in ENVELOPE}
    if "scenarios" in body:
        found = body["scenarios"]
        return found[0] if len(found) == 1 else found
    return body or None


def strip(value):
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k not in DERIVED}
        return {k: strip(v) for k, v in value.items() if k not in TIMING and not k.endswith("_seconds")}
    if isinstance(value, list):
        return [strip(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"\b\d+\.\d+s\b", "N.NNs", value)   # durations inside report lines
    return value


def run(args: list[str]) -> dict:
    proc = subprocess.run([sys.executable, "-m", "dmcheck", *args], cwd=ROOT, capture_output=True, text=True)
    try:
        body = strip(unwrap(json.loads(proc.stdout))) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        body = {"stdout": proc.stdout}
    return {"args": args, "exit": proc.returncode, "json": body,
            "stderr": proc.stderr.strip().splitlines()[-1:] if proc.returncode == 2 else []}


def jobs() -> list[tuple[str, list[str]]]:
    out = [("verify", ["verify", "--json"])]
    for rulings in sorted((ROOT / "tests/data/rulings").glob("*.yaml")):
        rel = rulings.relative_to(ROOT).as_posix()
        out.append((f"verify__{rel.replace('/', '__')}", ["verify", "--json", "--rulings", rel]))
    for props in ("tests/data/properties/user_properties.yaml", "tests/data/properties/false_property.yaml"):
        out.append((f"check-props__{props.replace('/', '__')}",
                    ["check", "scenarios/rulings/Q06_winter_spiral.yaml", "--json", "--properties", props]))
    for sc in scenarios():
        name = sc.replace("/", "__")
        out.append((f"explore__{name}", ["explore", sc, "--json"]))
        out.append((f"explore-noreduce__{name}", ["explore", sc, "--json", "--no-reduce"]))
        out.append((f"check__{name}", ["check", sc, "--json"]))
        out.append((f"diff__{name}", ["diff", sc, "--json", "--rules", "2023-01-01", "--rules", "2024-06-19"]))
    return out


def write(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    todo = jobs()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for (name, _), result in zip(todo, pool.map(lambda job: run(job[1]), todo)):
            (target / f"{name}.json").write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(list(target.glob('*.json')))} snapshots to {target}")


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.glob("*.json")} | {p.name for p in b.glob("*.json")})
    differ = [n for n in names if not (a / n).exists() or not (b / n).exists()
              or (a / n).read_text() != (b / n).read_text()]
    for n in differ:
        print(f"differs: {n}")
    print(f"{len(names) - len(differ)} of {len(names)} snapshots identical")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
