"""What every report shares: the JSON document every command prints, an expectation verdict as JSON,
an outcome and an expectation as one line."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Set as AbstractSet
from typing import Any, TextIO

from dmcheck.model.errors import InputError, ModelError
from dmcheck.model.lang import japanese, term, tr
from dmcheck.properties.expectations import Verdict

from . import output

# The version of the JSON every command prints (dmcheck/cli/schemas/*.json, docs/scenario-format.md
# "Output"). Raise it when a key is removed or changes meaning; adding a key keeps it.
SCHEMA_VERSION = 1


def schema() -> dict[str, Any]:
    """The published JSON Schema of `document` (shipped as package data, dmcheck/cli/schemas/)."""
    from importlib.resources import files
    return json.loads((files("dmcheck.cli") / "schemas" / f"output-{SCHEMA_VERSION}.schema.json").read_text("utf-8"))


def document(command: str, errors: list[dict[str, Any]] | None = None, **body: Any) -> dict[str, Any]:
    """One command's JSON: always one object with `schema_version`, `command` and `errors`."""
    return {"schema_version": SCHEMA_VERSION, "command": command, **body, "errors": list(errors or [])}


def error_json(exc: InputError) -> dict[str, Any]:
    """A file or flag that could not be used, as an entry of a document's `errors`."""
    message = f"{exc.key}: {exc.expected}" if exc.key else exc.expected
    return {"file": exc.file, "line": exc.line, "message": message}


def errors_json(exc: InputError) -> list[dict[str, Any]]:
    """Every mistake an InputError carries (several found in one file are reported together)."""
    return [error_json(e) for e in exc.all()]


def print_errors(exc: InputError, err: TextIO) -> None:
    """Every mistake an InputError carries, one `dmcheck: FILE:LINE: key: expected` line each."""
    for e in exc.all():
        print(f"dmcheck: {e}", file=err)


def model_error_lines(exc: ModelError) -> list[str]:
    """A model error as the command prints it: what went wrong, where (the file, the replay key of the
    step), the way there and what the failing step did (`locate_model_error` fills them in)."""
    where = getattr(exc, "file", "")
    key = getattr(exc, "search_key", None)
    head = f"dmcheck: {where + ': ' if where else ''}model error: {exc.message}"
    lines = [head + (f" (replay key {key}, its last index the step that failed)" if key else "")]
    lines += [f"  {line}" for line in getattr(exc, "trace_lines", ())]
    return lines


def model_error_json(exc: ModelError) -> dict[str, Any]:
    """A model error as an entry of a document's `errors` (no line: it is no mistake of the file)."""
    return {"file": getattr(exc, "file", "") or None, "line": None,
            "message": "model error: " + exc.message
                       + (f" (replay key {exc.search_key})" if getattr(exc, "search_key", None) else "")}


def locate_model_error(exc: ModelError, model: Any, file: str) -> None:
    """Add to a model error what only the command knows: its file, and the trace its replay key names
    (the steps there, then the failing step with the events it made before it was stopped)."""
    from dmcheck.explorer.replay import replay
    exc.file = file
    key = getattr(exc, "search_key", None)
    if not key or key == "-":
        return
    indexes = key.split("/")
    try:
        before = replay(model, "/".join(indexes[:-1]) or "-")
        lines = before.trace.lines()[:-1]
        action = model.actions(before.state)[int(indexes[-1])]
    except Exception:   # the way there cannot be replayed: the key and the message say what is known
        return
    header, events = model.narrate(action, tuple(exc.events))
    lines.append(f"{len(indexes)}. {header}   <- this step never ends; one round of it:")
    lines += [f"     - {text}" for text in events]
    exc.trace_lines = tuple(lines)


INDENTED_UP_TO = 1_000_000   # characters of compact JSON


def print_json(doc: dict[str, Any], out: TextIO) -> None:
    """The command's one JSON document, made first and then written whole (dmcheck/cli/output.py);
    indented for people up to INDENTED_UP_TO characters, compact above (the compact form is made by
    json's C encoder, the indented one by its Python encoder at several times the cost: 1 s for the
    20 MB of a Kakumeijin L8 partial search)."""
    text = json.dumps(doc, ensure_ascii=False)
    if len(text) <= INDENTED_UP_TO:
        text = json.dumps(doc, indent=2, ensure_ascii=False)
    text = output.visible(text) + "\n"     # DEL, C1 controls and bidi overrides as \uXXXX too (json leaves them)
    with output.writing():
        out.write(text)
        out.flush()
        output.written()


def expectation_json(v: Verdict) -> dict[str, Any]:
    out: dict[str, Any] = {"expect": v.expectation.raw, "holds": v.holds, "verdict": v.verdict, "reason": v.reason}
    if v.trace is not None:
        out["trace" if not v.holds else "witness"] = v.trace.to_json()
        out["replay"] = v.trace.key()
    return out


def outcome_line(o: dict[str, Any], varying: AbstractSet[tuple[str, str]] = frozenset(), names: Any = None) -> str:
    """An outcome in one line (`names`: the model's lang.Names, for the cards in Japanese)."""
    card = names.card if names is not None else str
    ability = names.ability if names is not None else str
    parts = [tr("winner {who}", who=_who(o["winner"])), tr("shields broken {n}", n=o["shields_broken"])]
    if o.get("loop"):
        parts.insert(0, tr("LOOP: the game repeats with no choice (A27), as at its first repeat"))
    if o["attack_stopped"]:
        parts.append(tr("attack stopped"))
    if o["turn_skipped"]:
        parts.append(tr("turn skipped"))
    parts.append(tr("shields left {counts}", counts=", ".join(f"{p}:{n}" for p, n in o["shields"].items())))
    if o["uses"]:
        parts.append(tr("uses {list}", list=", ".join(f"{ability(k)} x{n}" for k, n in sorted(o["uses"].items()))))
    for zone, player in sorted(varying):
        counts = Counter(o[zone][player])
        cards = ", ".join(card(name) if n == 1 else f"{card(name)} x{n}" for name, n in sorted(counts.items()))
        parts.append(tr("{player} {zone}: {cards}", player=player, zone=zone_name(zone), cards=cards or "-"))
    return tr("; ").join(parts)


def _who(player: str) -> str:
    return tr("none") if player == "none" else player


def zone_name(zone: str) -> str:
    """`deck bottom` for deck_bottom; in Japanese, the rules' name of the zone."""
    return term("zones", zone) if japanese() else zone.replace("_", " ")


VERDICT_MARK = {"holds": "ok  ", "violated": "FAIL", "inconclusive": "??  "}


def mark(verdict: str) -> str:
    """A verdict as a report's first column marks it."""
    return tr(VERDICT_MARK.get(verdict, verdict))


def trace_text(trace) -> list[str]:
    """A trace's numbered lines, the replay key's line in the current language."""
    lines = trace.lines()
    if lines and lines[-1].lstrip().startswith("(replay key"):
        lines[-1] = "   " + tr("(replay key {key})", key=trace.key())
    return lines


def flow(value: Any) -> str:
    """A value as YAML's flow style writes it, as a scenario file would: `{B: 2}`, `[hand, graveyard]`,
    `true` (never Python's `{'B': 2}` or `True`)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def expect_text(raw: dict) -> str:
    """An `expect` item as the scenario file writes it: `never: {turn_skipped: true, shields: {B: 2}}`."""
    kind, value = next(iter(raw.items()))
    return f"{kind}: {flow(value)}"


# ---- outcomes told apart -------------------------------------------------------------------------
_OUTCOME_ZONES = ("hand", "battle", "graveyard", "mana", "deck_bottom")


def _cards(names) -> str:
    counts = Counter(names)
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in sorted(counts.items())) or "-"


def outcome_parts(o: dict[str, Any]) -> dict[str, str]:
    """Each thing an outcome says, by key, in words (what `distinct_lines` compares)."""
    yes_no = (("attack_stopped", "attack stopped", "attack not stopped"),
              ("turn_skipped", "turn skipped", "turn not skipped"), ("blocked", "blocked", "not blocked"),
              ("loop", "a forced loop", "no loop"))
    parts = {"winner": f"winner {o['winner']}"}
    if "loser" in o:
        parts["loser"] = f"loser {o['loser']}"
    parts["shields_broken"] = f"shields broken {o['shields_broken']}"
    for key, yes, no in yes_no:
        if key in o:
            parts[key] = yes if o[key] else no
    parts.update((f"shields:{p}", f"{p} shields left {n}") for p, n in o["shields"].items())
    parts.update((f"uses:{k}", f"uses {k} x{n}") for k, n in sorted(o["uses"].items()))
    for zone in _OUTCOME_ZONES:
        for p, cards in sorted(o.get(zone, {}).items()):
            parts[f"{zone}:{p}"] = f"{p} {zone.replace('_', ' ')}: {_cards(cards)}"
    return parts


def distinct_lines(outcomes: list[dict[str, Any]]) -> list[str]:
    """A line per outcome naming only what tells the outcomes apart (a single outcome: all of it)."""
    if len(outcomes) < 2:
        return [outcome_line(o) for o in outcomes]
    parts = [outcome_parts(o) for o in outcomes]
    keys = list(dict.fromkeys(k for p in parts for k in p))
    varying = [k for k in keys if len({p.get(k) for p in parts}) > 1]
    return ["; ".join(p.get(k) or _absent(k) for k in varying) for p in parts]


def _absent(key: str) -> str:
    """What an outcome that does not give `key` says of it (an ability it never used: x0)."""
    kind, _, what = key.partition(":")
    return f"uses {what} x0" if kind == "uses" else f"no {kind}"


def trace_lines(trace, scenario: Any, rules: str, readings: dict[str, str] | None = None) -> list[str]:
    """A trace's numbered lines, its replay key naming the scenario file and rules date it is a path of
    (as the command that replays it)."""
    from .shipped import replay_command
    lines = trace.lines()
    if lines and lines[-1].lstrip().startswith("(replay key"):
        lines[-1] = "   " + tr("(replay key {key}: {command})", key=trace.key(),
                                command=replay_command(scenario, rules, trace.key(), readings))
    return lines


def run_lines(trace, run: Any, combo: tuple | None = None) -> list[str]:
    """`trace_lines` of a trace of a verify run (a scenario under a rules version and readings)."""
    from dmcheck.model.readings import CHOICES
    combo = combo if combo is not None else run.combo
    readings = {c.name: r for c, r in zip(CHOICES, combo) if r != c.default}
    return trace_lines(trace, run.file, run.version.date.isoformat(), readings)
