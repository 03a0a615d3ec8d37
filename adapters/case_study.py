"""The engine-conformance case study, generated: run an engine against the corpus bundle, keep the result,
and write the docs from the kept results only, so that the figures cannot drift from a real run.

    python adapters/case_study.py run --engine CMD --name DMSIM --repository wabisabinuki/DMSIM \\
        --commit 686c63e... --out adapters/dmsim/result.json
    python adapters/case_study.py render            # rewrite the generated parts of the docs
    python adapters/case_study.py render --check    # exit 1 when a doc differs from its results

`run` exports the corpus bundle (`dmcheck export --corpus`), runs `dmcheck conform --json` with the engine
and writes one JSON result: the engine's repository and commit, the date, dmcheck's version, the bundle's
figures and digest, and per scenario run its status, reason, rulings and findings. `render` reads every
adapters/*/result.json with the readings of its deviations (adapters/*/readings.yaml: each deviating run
read and classed as a real engine deviation, with the ruling it breaks, or an adapter limit) and writes
the tables between the markers of docs/conform-case-study.md and README.md, and the whole of
docs/conform-matrix.md (each ruling against each engine). tests/test_case_study.py renders again and
fails when a doc differs, or when a deviation has no reading. When the corpus changes, run again and
render: nothing here is written by hand.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import io
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = sorted(ROOT.glob("adapters/*/result.json"))
STUDY, MATRIX, README = ROOT / "docs" / "conform-case-study.md", ROOT / "docs" / "conform-matrix.md", ROOT / "README.md"
SET_UP = ("conforms", "deviates", "failed")


# ---- run ---------------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    """Export the corpus bundle, run the engine against it, and write the result (see the docstring)."""
    from dmcheck.main import main as dmcheck

    bundle = Path(args.bundle) if args.bundle else Path(args.out).with_name("dm-bundle.json.tmp")
    if not args.bundle:
        err = io.StringIO()
        if dmcheck(["export", "--corpus", "--out", str(bundle)], io.StringIO(), err) != 0:
            sys.exit(f"dmcheck export failed: {err.getvalue()}")
    data = json.loads(bundle.read_bytes())
    out, err = io.StringIO(), io.StringIO()
    began = time.monotonic()
    argv = ["conform", "--engine", args.engine, "--bundle", str(bundle), "--json", "--timeout", str(args.timeout)]
    code = dmcheck(argv + ["--scenario-budget", str(args.budget)], out, err)
    seconds = time.monotonic() - began
    if code not in (0, 1, 3):
        sys.exit(f"dmcheck conform failed (exit {code}): {err.getvalue()}")
    report = json.loads(out.getvalue())
    result = {
        "engine": {"name": args.name, "repository": args.repository, "commit": args.commit,
                   "said": report["engine"].get("engine"), "adapter": args.adapter},
        "date": args.date or dt.date.today().isoformat(), "dmcheck": data["dmcheck"],
        "bundle": {"runs": len(data["scenarios"]), "files": len({e["file"] for e in data["scenarios"]}),
                   "states": sum(len(e["nodes"]) for e in data["scenarios"]),
                   "outcomes": sum(len(e["outcomes"]) for e in data["scenarios"]),
                   "bytes": bundle.stat().st_size, "sha256": hashlib.sha256(bundle.read_bytes()).hexdigest()},
        "seconds": round(seconds, 1), "exit": code, "summary": report["summary"],
        "rulings": {r["ref"]: r["text"] for e in data["scenarios"] for r in e["rulings"]},
        "cards": sorted({c["name"] for c in data["cards"].values()}),
        "runs": [_run_json(s) for s in report["scenarios"]],
    }
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                              encoding="utf-8")
    if not args.bundle:
        bundle.unlink()
    print(f"{args.out}: {report['summary']} ({seconds:.0f} s)")
    return 0


def _run_json(s: dict) -> dict:
    """One scenario run as the result keeps it: the rulings it stands for under its own rules only."""
    return {"id": s["id"], "file": s["file"], "rules": s["rules"], "status": s["status"], "reason": s["reason"],
            "rulings": sorted(r["ref"] for r in s["rulings"] if r["rules"] == s["rules"]),
            "states_asked": s["states_asked"], "outcomes_compared": s["outcomes_compared"],
            "findings": [{"kind": f["kind"], "message": f["message"], "replay": f["replay"], "count": f["count"]}
                         for f in s["findings"]]}


# ---- render ------------------------------------------------------------------------------------------
def load(paths: list[Path] | None = None) -> list[dict]:
    """Each result with its readings (the file beside it), engines in the order of their names."""
    from ruamel.yaml import YAML

    out = []
    for path in paths or RESULTS:
        result = json.loads(path.read_text(encoding="utf-8"))
        readings_file = path.with_name("readings.yaml")
        result["readings"] = YAML(typ="safe").load(readings_file.read_text(encoding="utf-8")) \
            if readings_file.is_file() else {}
        result["key"] = path.parent.name
        out.append(result)
    return sorted(out, key=lambda r: r["engine"]["name"].lower())


def unread(result: dict) -> list[str]:
    """Deviating or failed runs with no reading, and readings of runs that are not (any more) so."""
    runs = {r["id"] for r in result["runs"] if r["status"] in ("deviates", "failed")}
    read = set((result["readings"] or {}).get("runs", {}))
    return [f"{run}: no reading" for run in sorted(runs - read)] + \
        [f"{run}: read, but it does not deviate in the result" for run in sorted(read - runs)]


def render(results: list[dict]) -> dict[str, str]:
    """The generated text: {marker name: text} for the case study and README, and `matrix` for the matrix."""
    blocks = {f"engine-{r['key']}": _engine_block(r) for r in results}
    blocks["figures"] = _readme_block(results)
    b = results[0]["bundle"]
    blocks["export"] = ("  ```text\n  $ dmcheck export --corpus --out dm-bundle.json\n"
                        f"  dmcheck export: {b['runs']} scenario runs, {b['states']} states, {b['outcomes']} outcomes; "
                        f"{b['bytes']} bytes written to dm-bundle.json\n  ```\n")
    blocks["matrix"] = _matrix(results)
    return blocks


def _counts(result: dict) -> Counter:
    return Counter(r["status"] for r in result["runs"])


def _head(result: dict) -> str:
    e, b, n = result["engine"], result["bundle"], _counts(result)
    set_up = sum(n[s] for s in SET_UP)
    return (f"{e['name']} ({e['repository']} at `{e['commit'][:7]}`), run on {result['date']} with dmcheck "
            f"{result['dmcheck']} against the corpus bundle ({b['runs']} scenario runs of {b['files']} files, "
            f"{b['states']} states; sha256 `{b['sha256'][:12]}`) in {result['seconds']:g} s: {set_up} runs set up, "
            f"{n['conforms']} conform, {n['deviates']} deviate, {n['failed']} engine failures, "
            f"{n['unsupported']} not supported.")


def _engine_block(result: dict) -> str:
    readings = result["readings"] or {}
    causes, by_run = readings.get("causes", {}), readings.get("runs", {})
    lines = [_head(result), "", "| | runs |", "| --- | ---: |"]
    n = _counts(result)
    for status, shown in (("conforms", "set up, conforming"), ("deviates", "set up, deviating"),
                          ("failed", "set up, engine failure"), ("unsupported", "not supported")):
        lines.append(f"| {shown} | {n[status]} |")
    lines += ["", "**Deviations**, each read: a real deviation of the engine (with the ruling it breaks) or a "
              "limit of the adapter.", ""]
    lines += ["| run | finding (replay key) | class | ruling broken | why |", "| --- | --- | --- | --- | --- |"]
    for r in result["runs"]:
        if r["status"] not in ("deviates", "failed"):
            continue
        reading = by_run.get(r["id"], {})
        cause = causes.get(reading.get("cause"), {})
        kinds = ", ".join(f"{f['kind']} ({f['replay']})" for f in r["findings"][:3]) + \
            (f", … {len(r['findings']) - 3} more" if len(r["findings"]) > 3 else "")
        lines.append(f"| `{r['id']}` | {kinds} | {cause.get('class', '?')} | {reading.get('ruling', '')} | "
                     f"{_cell(cause.get('text', ''))} |")
    lines += ["", "**Conforming runs**: " + ", ".join(f"`{r['id']}`" for r in result["runs"]
                                                     if r["status"] == "conforms") + ".", ""]
    groups = _groups(result)
    lines += ["**Not supported**, grouped by reason (a card's name replaced by X):", ""]
    lacks = f"{result['engine']['name']} has no "
    blocked = sum(len(runs) for reason, runs in groups if lacks in reason)
    if blocked:
        lines += [f"{blocked} of the {n['unsupported']} for what the engine itself lacks (a reason saying "
                  f"\"{lacks}...\"), {n['unsupported'] - blocked} for what the adapter does not translate.", ""]
    lines += ["| reason | runs | e.g. |", "| --- | ---: | --- |"]
    for reason, runs in groups:
        lines.append(f"| {_cell(reason)} | {len(runs)} | `{runs[0]}` |")
    return "\n".join(lines) + "\n"


def _groups(result: dict) -> list[tuple[str, list[str]]]:
    """The unsupported runs grouped by reason, each card name (of the bundle) in a reason replaced by X."""
    names = sorted(result.get("cards", []), key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?:#\d+)?(?![\w-])" for n in names)) if names else None
    groups: dict[str, list[str]] = defaultdict(list)
    for r in result["runs"]:
        if r["status"] == "unsupported":
            reason = pattern.sub("X", r["reason"]) if pattern else r["reason"]
            groups[reason].append(r["id"])
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def _readme_block(results: list[dict]) -> str:
    lines = []
    for r in results:
        n = _counts(r)
        lines.append(f"  - {r['engine']['name']} ({r['engine']['repository']} at `{r['engine']['commit'][:7]}`, "
                     f"{r['date']}): {sum(n[s] for s in SET_UP)} of {r['bundle']['runs']} runs set up, "
                     f"{n['conforms']} conform, {n['deviates']} deviate, {n['failed']} engine failures;")
    return "\n".join(lines) + "\n"


def _matrix(results: list[dict]) -> str:
    """Every ruling of the corpus bundle against every engine: conforms, deviates or not set up."""
    rulings = sorted({ref for r in results for ref in r["rulings"]}, key=_ref_order)
    texts = {ref: text for r in results for ref, text in r["rulings"].items()}
    cells: dict[str, dict[str, str]] = {ref: {} for ref in rulings}
    for r in results:
        per: dict[str, list[str]] = defaultdict(list)
        for run in r["runs"]:
            for ref in run["rulings"]:
                per[ref].append(run["status"])
        for ref in rulings:
            cells[ref][r["key"]] = _verdict(per.get(ref, []))
    names = [r["engine"]["name"] for r in results]
    lines = ["# Engine × ruling matrix", "",
             "Generated by `adapters/case_study.py render` from " + ", ".join(
                 f"`adapters/{r['key']}/result.json` ({r['engine']['name']} at `{r['engine']['commit'][:7]}`, "
                 f"{r['date']})" for r in results) + "; do not edit (tests/test_case_study.py). For each ruling of "
             "the corpus (a statement, `ID@SOURCE`), what each engine does on the scenario runs that stand for it "
             "under the rules of the statement's date: **conforms** (every run set up conforms), **deviates** "
             "(a run deviates or the engine failed; the case study reads each one), **not set up** (no run could "
             "be given to the engine: the case study groups the reasons), **no run** (the ruling's scenarios run "
             "under other rules in the bundle). The figures: [conform-case-study.md](conform-case-study.md).", "",
             "| ruling | " + " | ".join(names) + " | statement |", "| --- | " + " | ".join("---" for _ in names)
             + " | --- |"]
    for ref in rulings:
        row = [cells[ref][r["key"]] for r in results]
        lines.append(f"| {ref} | " + " | ".join(row) + f" | {_cell(_short(texts.get(ref, '')))} |")
    totals = [Counter(cells[ref][r["key"]].split(" (")[0] for ref in rulings) for r in results]
    lines += ["", "| engine | conforms | deviates | not set up | no run |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, t in zip(names, totals, strict=True):
        lines.append(f"| {name} | {t['conforms']} | {t['deviates']} | {t['not set up']} | {t['no run']} |")
    return "\n".join(lines) + "\n"


def _verdict(statuses: list[str]) -> str:
    if not statuses:
        return "no run"
    if any(s in ("deviates", "failed") for s in statuses):
        return "deviates"
    done = sum(s == "conforms" for s in statuses)
    if done:
        return "conforms" if done == len(statuses) else f"conforms ({done} of {len(statuses)} runs)"
    return "not set up"


def _ref_order(ref: str) -> tuple:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", ref))


def _short(text: str, n: int = 110) -> str:
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0] + " …"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write(results: list[dict], check: bool) -> list[str]:
    """Put the generated text in place (or, with `check`, only say which files differ)."""
    blocks = render(results)
    stale = []
    targets = {STUDY: [k for k in blocks if k.startswith("engine-")], README: ["figures", "export"]}
    for path, names in targets.items():
        text = path.read_text(encoding="utf-8")
        new = text
        for name in names:
            new = replace_block(new, name, blocks[name], path)
        if new != text:
            stale.append(str(path.relative_to(ROOT)))
            if not check:
                path.write_text(new, encoding="utf-8")
    if not MATRIX.is_file() or MATRIX.read_text(encoding="utf-8") != blocks["matrix"]:
        stale.append(str(MATRIX.relative_to(ROOT)))
        if not check:
            MATRIX.write_text(blocks["matrix"], encoding="utf-8")
    return stale


def markers(name: str) -> tuple[str, str]:
    return f"<!-- case-study:{name}:start -->\n", f"<!-- case-study:{name}:end -->"


def block(text: str, name: str) -> str | None:
    start, end = markers(name)
    if start not in text or end not in text:
        return None
    return text[text.index(start) + len(start):text.index(end)]


def replace_block(text: str, name: str, body: str, path: Path) -> str:
    start, end = markers(name)
    if start not in text or end not in text:
        raise SystemExit(f"{path}: expected the markers {start.strip()} and {end}")
    return text[:text.index(start) + len(start)] + body + text[text.index(end):]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run an engine against the corpus bundle and write its result")
    r.add_argument("--engine", required=True, help="the engine command, as dmcheck conform takes it")
    r.add_argument("--name", required=True)
    r.add_argument("--repository", required=True, help="owner/name of its public repository")
    r.add_argument("--commit", required=True, help="the commit of the checkout the engine ran from")
    r.add_argument("--adapter", required=True, help="the adapter's path in this repository")
    r.add_argument("--out", required=True, help="where to write the result (adapters/NAME/result.json)")
    r.add_argument("--bundle", help="a corpus bundle already written (default: export it now)")
    r.add_argument("--date", help="the date to record (default: today)")
    r.add_argument("--timeout", type=float, default=30.0)
    r.add_argument("--budget", type=float, default=300.0, help="--scenario-budget of the run")
    g = sub.add_parser("render", help="write the generated parts of the docs from the results")
    g.add_argument("--check", action="store_true", help="write nothing; exit 1 when a doc differs")
    args = parser.parse_args()
    if args.command == "run":
        return run(args)
    results = load()
    problems = [f"{r['key']}: {p}" for r in results for p in unread(r)]
    if problems:
        print("deviations not read (adapters/*/readings.yaml):\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    stale = write(results, args.check)
    if stale:
        print(("differs from its results: " if args.check else "written: ") + ", ".join(stale))
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
