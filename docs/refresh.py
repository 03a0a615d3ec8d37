"""Every command output and count README.md and docs/ show, produced from a real run: the docs cannot drift.

    python docs/refresh.py            # run the commands and rewrite every generated part of the docs
    python docs/refresh.py --check    # exit 1, naming each part, when a doc is not what a run gives
    python docs/refresh.py --fast     # only the parts that need no whole-corpus run (what the default
                                      # test suite checks; tests/test_docs_drift.py runs the rest as slow)

A generated part sits between two markers, `<!-- refresh:NAME -->` and `<!-- /refresh:NAME -->`, on one line
(a count) or around a block (a command's output). NAME is one of the parts below, each a function of the
commands' real outputs (run once each, in this process, from the repository's root or a scratch folder).
A part named `timing.*` holds a machine-dependent figure: it is written with the date and the machine it
was measured on, and a check only asks that it says so. The rules table between `<!-- rules-table:start -->`
and `<!-- rules-table:end -->` is `dmcheck rules --markdown`, and the engine case study's parts are rendered
by adapters/case_study.py from its kept results: this script writes both too, so that one command brings
every doc up to date.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PART = re.compile(r"<!-- refresh:(?P<name>[\w.-]+) -->(?P<body>.*?)<!-- /refresh:(?P=name) -->", re.S)
TIMING = re.compile(r"\b\d+\.\d\ds\b")          # a search's seconds inside an output (0.01s)
CUT = "…"


class Runs:
    """The commands' outputs, each run once (in this process, English output, no result cache)."""

    def __init__(self) -> None:
        self.found: dict[tuple, tuple[int, str, str]] = {}
        self.scratch = Path(tempfile.mkdtemp(prefix="dmcheck-docs-"))

    def __call__(self, *argv: str, here: str = "root", before: tuple[tuple[str, ...], ...] = ()) -> str:
        """The standard output of `dmcheck ARGV...` (from the repository's root, or the scratch folder)."""
        key = (argv, here, before)
        if key not in self.found:
            from dmcheck.main import main
            cwd = os.getcwd()
            os.chdir(ROOT if here == "root" else self.scratch)
            try:
                for first in before:
                    main(list(first), io.StringIO(), io.StringIO())
                out, err = io.StringIO(), io.StringIO()
                code = main(list(argv), out, err)
            finally:
                os.chdir(cwd)
            self.found[key] = (code, out.getvalue(), err.getvalue())
        return self.found[key][1]

    def json(self, *argv: str, **kw) -> dict:
        return json.loads(self(*argv, "--json", **kw))


def cut(line: str, width: int) -> str:
    """A long line as the docs show it: cut at `width` characters, ending in `…`."""
    return line if len(line) <= width else line[:width - 1] + CUT


def fenced(lines: list[str], prompt: str = "", indent: str = "") -> str:
    """A ```text block (its command first, after `$ `, when given), each line with `indent`."""
    body = ([f"$ {prompt}"] if prompt else []) + lines
    return "\n" + "\n".join(indent + x for x in ["```text", *body, "```"]) + "\n"


def between(lines: list[str], first: str, last: str) -> list[str]:
    """The lines from the first that holds `first` to the next that holds `last`, both included."""
    start = next(i for i, x in enumerate(lines) if first in x)
    end = next(i for i in range(start, len(lines)) if last in lines[i])
    return lines[start:end + 1]


# ---- the parts ---------------------------------------------------------------------------------------
Q09 = "scenarios/rulings/Q09_the_watch.yaml"


def _explore_q09(run: Runs) -> str:
    lines = run("explore", Q09).splitlines()
    return fenced([cut(x, 110) for x in lines], f"dmcheck explore {Q09}")


def _explore_q09_old(run: Runs) -> str:
    lines = run("explore", Q09, "--rules", "2023-01-01").splitlines()
    return fenced(between(lines, "FAIL never: {turn_skipped: true, shields_broken: 2}", "(replay key"))


def _rules_summary(run: Runs) -> str:
    lines = run("rules").splitlines()
    keep = [lines[0], "", *[x for x in lines if x.lstrip().startswith(("modelled", "0 introduction", "5 the turn",
                                                                        "509 the direct", "all chapters", "in scope"))]]
    keep.insert(4, "  ...")
    return fenced(keep)


def _conform_q09(run: Runs) -> str:
    engine = f"python3 {ROOT / 'tests' / 'engines' / 'tp_order.py'} q09.json"
    out = run("conform", "--engine", engine, "--bundle", "q09.json", here="scratch",
              before=(("export", Q09, "--out", "q09.json"),))
    lines = out.replace(str(ROOT) + "/", "").splitlines()
    shown = lines[:2] + [CUT] + between(lines, "EXTRA choice", "(replay key")
    return fenced(shown, 'dmcheck export scenarios/rulings/Q09_the_watch.yaml --out q09.json\n'
                         '  $ dmcheck conform --engine "python3 tests/engines/tp_order.py q09.json" --bundle q09.json',
                  indent="  ")


def _verify_summary(run: Runs) -> str:
    lines = run("verify", "--summary", "--jobs", "2").splitlines()
    return fenced([cut(x, 150) for x in lines])


def _your_statements(run: Runs) -> str:
    lines = run("verify", "--rulings", "tests/data/rulings/contradicting.yaml", "--summary", "--jobs", "2").splitlines()
    mine = between(lines, "your statements", "your statements")
    start = lines.index(mine[0])
    while start + len(mine) < len(lines) and lines[start + len(mine)].startswith("  "):
        mine.append(lines[start + len(mine)])
    return fenced([cut(x.replace("tests/data/rulings/", ""), 115) for x in mine])


def _tally(run: Runs) -> str:
    return f'`{run("explore", "scenarios/rulings/", "--rules", "2023-01-01").splitlines()[-1]}`'


def _tally_block(run: Runs) -> str:
    return fenced([run("explore", "scenarios/rulings/", "--rules", "2023-01-01").splitlines()[-1]])


def _export(run: Runs) -> dict:
    """The corpus bundle's figures (dmcheck export --corpus, written in the scratch folder)."""
    import gzip
    run("export", "--corpus", "--out", "dm-bundle.json", here="scratch")
    data = (run.scratch / "dm-bundle.json").read_bytes()
    runs = json.loads(data)["scenarios"]
    return {"runs": len(runs), "files": len({r["file"] for r in runs}),
            "states": sum(len(r["nodes"]) for r in runs),
            "choices": sum(len(n["choices"]) for r in runs for n in r["nodes"]),
            "outcomes": sum(len(r["outcomes"]) for r in runs), "bytes": len(data),
            "gzipped": len(gzip.compress(data, mtime=0))}


def _export_fact(what: str) -> Callable[[Runs], str]:
    return lambda run: f"{_export(run)[what]:,}"


def _sweep(template: str) -> Callable[[Runs], dict]:
    def found(run: Runs) -> dict:
        db = run.scratch / (Path(template).stem + ".sqlite")
        return run.json("sweep", template, "--db", str(db))
    return found


SWEEPS = {"nested": "scenarios/sweeps/kakumeijin_nested.yaml", "timing": "scenarios/sweeps/shield_saver_timing.yaml",
          "rules": "scenarios/sweeps/rules_2023_04_19.yaml"}


def _sweep_fact(which: str, what: str) -> Callable[[Runs], str]:
    """A built-in template's sweep: how many positions, how many differ between the two settings, the
    smallest that differs."""
    def fact(run: Runs) -> str:
        found = _sweep(SWEEPS[which])(run)
        if what == "smallest":
            return f'`{next(s["position"] for s in found["smallest"] if s["what"] == "difference")}`'
        return str(found[{"differ": "differences", "positions": "positions"}[what]])
    return fact


def _measured(run: Runs) -> str:
    """The main job's time and memory, as a user runs it, labelled with the day and the machine."""
    began = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--summary"], cwd=run.scratch,
                   capture_output=True, env=dict(os.environ, PYTHONPATH=str(ROOT), DMCHECK_CACHE_DIR="off"))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - began
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    peak = after.ru_maxrss / 1024
    load = os.getloadavg()[0]
    return (f"about {wall:.0f} s ({cpu:.0f} s of CPU over its processes) and {peak:.0f} MB of memory at most, "
            f"measured on {dt.date.today().isoformat()} on {os.cpu_count()} cores of {platform.machine()} "
            f"(load average {load:.1f})")


PARTS: dict[str, tuple[Callable[[Runs], str], bool]] = {    # name: (what the doc shows, whole-corpus run)
    "explore-q09": (_explore_q09, False),
    "explore-q09-old": (_explore_q09_old, False),
    "rules-summary": (_rules_summary, False),
    "conform-q09": (_conform_q09, False),
    "verify-summary": (_verify_summary, True),
    "your-statements": (_your_statements, True),
    "tally-old-rules": (_tally, True),
    "tally-old-rules-block": (_tally_block, True),
    **{f"export.{what}": (_export_fact(what), True)
       for what in ("runs", "files", "states", "choices", "outcomes", "bytes", "gzipped")},
    **{f"sweep.{w}.{what}": (_sweep_fact(w, what), True) for w in SWEEPS
       for what in ("differ", "positions", "smallest")},
    "timing.verify": (_measured, True),
}


# ---- the docs -----------------------------------------------------------------------------------------
@dataclass
class Stale:
    file: Path
    name: str
    shown: str
    real: str


def _same(name: str, shown: str, real: str) -> bool:
    if name.startswith("timing."):      # measured: it only has to say when and where
        return bool(re.search(r"measured on \d{4}-\d\d-\d\d on \d+ cores", shown))
    return TIMING.sub("0.00s", shown) == TIMING.sub("0.00s", real)


def refresh(write: bool, slow: bool = True, run: Runs | None = None) -> list[Stale]:
    """Every generated part of every doc against a real run: rewritten (`write`), or listed when stale."""
    run = run or Runs()
    stale: list[Stale] = []
    made: dict[str, str] = {}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        new = PART.sub(lambda m, path=path: _part(m, path, run, made, stale, slow), text)
        if path.name == "README.md":
            new = _rules_table(new, stale, path)
        if write and new != text:
            path.write_text(new, encoding="utf-8")
    if write:
        _case_study()
    shutil.rmtree(run.scratch, ignore_errors=True)
    return stale


def _part(m: re.Match, path: Path, run: Runs, made: dict[str, str], stale: list[Stale], slow: bool) -> str:
    """One generated part: what a real run gives (a stale one noted)."""
    name = m["name"]
    if name not in PARTS:
        raise SystemExit(f"{path.name}: no part {name!r} in docs/refresh.py")
    make, whole = PARTS[name]
    if whole and not slow:
        return m.group(0)
    if name not in made:
        made[name] = make(run)
    if not _same(name, m["body"], made[name]):
        stale.append(Stale(path, name, m["body"], made[name]))
    return f"<!-- refresh:{name} -->{made[name]}<!-- /refresh:{name} -->"


def _rules_table(text: str, stale: list[Stale], path: Path) -> str:
    """README's rules table: `dmcheck rules --markdown` (tests/test_rules_index.py checks it too)."""
    from dmcheck.commands.rules import markdown
    from dmcheck.model.rules_index import load_index
    start, end = "<!-- rules-table:start -->\n", "<!-- rules-table:end -->"
    i, j = text.index(start) + len(start), text.index(end)
    real = markdown(load_index())
    if text[i:j] != real:
        stale.append(Stale(path, "rules-table", text[i:j], real))
    return text[:i] + real + text[j:]


def _case_study() -> None:
    """The engine case study's parts, rendered from its kept results (adapters/case_study.py)."""
    subprocess.run([sys.executable, str(ROOT / "adapters" / "case_study.py"), "render"], check=True,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each stale part")
    ap.add_argument("--fast", action="store_true", help="only the parts that need no whole-corpus run")
    args = ap.parse_args()
    os.environ["DMCHECK_LANG"] = "en"
    stale = refresh(write=not args.check, slow=not args.fast)
    for s in stale:
        print(f"{s.file.relative_to(ROOT)}: {s.name} {'is stale' if args.check else 'rewritten'}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
