"""What every report shares: the JSON document every command prints, an expectation verdict as JSON,
an outcome and an expectation as one line."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from model.errors import InputError
from properties.expectations import Verdict

from . import output

# The version of the JSON every command prints (dmcheck/schemas/*.json, docs/scenario-format.md
# "Output"). Raise it when a key is removed or changes meaning; adding a key keeps it.
SCHEMA_VERSION = 1


def schema() -> dict[str, Any]:
    """The published JSON Schema of `document` (shipped as package data, dmcheck/schemas/)."""
    from importlib.resources import files
    return json.loads((files("dmcheck") / "schemas" / f"output-{SCHEMA_VERSION}.schema.json").read_text("utf-8"))


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


INDENTED_UP_TO = 1_000_000   # characters of compact JSON


def print_json(doc: dict[str, Any], out: TextIO) -> None:
    """The command's one JSON document, made first and then written whole (dmcheck/output.py);
    indented for people up to INDENTED_UP_TO characters, compact above (the compact form is made by
    json's C encoder, the indented one by its Python encoder at several times the cost: 1 s for the
    20 MB of a Kakumeijin L8 partial search)."""
    text = json.dumps(doc, ensure_ascii=False)
    if len(text) <= INDENTED_UP_TO:
        text = json.dumps(doc, indent=2, ensure_ascii=False)
    text += "\n"
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


def outcome_line(o: dict[str, Any], varying: set[tuple[str, str]] = frozenset()) -> str:
    parts = [f"winner {o['winner']}", f"shields broken {o['shields_broken']}"]
    if o.get("loop"):
        parts.insert(0, "LOOP: the game repeats with no choice (A27), as at its first repeat")
    if o["attack_stopped"]:
        parts.append("attack stopped")
    if o["turn_skipped"]:
        parts.append("turn skipped")
    parts.append("shields left " + ", ".join(f"{p}:{n}" for p, n in o["shields"].items()))
    if o["uses"]:
        parts.append("uses " + ", ".join(f"{k} x{n}" for k, n in sorted(o["uses"].items())))
    for zone, player in sorted(varying):
        counts = Counter(o[zone][player])
        cards = ", ".join(name if n == 1 else f"{name} x{n}" for name, n in sorted(counts.items()))
        parts.append(f"{player} {zone.replace('_', ' ')}: {cards or '-'}")
    return "; ".join(parts)


def expect_text(raw: dict) -> str:
    kind, value = next(iter(raw.items()))
    if isinstance(value, list):
        pats = ["{" + ", ".join(f"{k}: {v}" for k, v in p.items()) + "}" for p in value]
        return f"{kind}: [{', '.join(pats)}]"
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in value.items())

