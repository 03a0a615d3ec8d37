"""`dmcheck cards`: the card pool, a card file's cards, and the vocabulary a card file may use.

A user writing a scenario or a card file needs to know which cards exist and which words a card's
abilities are made of. Both are read from where the model keeps them, never from a list kept here:
the pool from model/data/cards.yaml (and the card files given), the card words with their arguments
from the instruction registry (model/instructions/registry.py: each word's JSON schema), and the
triggers, replacements and keywords from model/vocabulary.py.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from dmcheck.model.cards import CARD_SCHEMA, CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import card_words
from dmcheck.model.trigger_patterns import EVENTS
from dmcheck.model.vocabulary import KEYWORDS, REPLACES, TRIGGERS
from dmcheck.model.yamlio import load_yaml

from .. import views
from ..cli.exits import HELP, Exit
from ..cli.report import document, flow, print_json
from ..cli.shipped import PATHS_NOTE

EXAMPLES = """examples:
  dmcheck cards                                    # the built-in card pool
  dmcheck cards --words                            # every card word, trigger, replacement and keyword
  dmcheck cards scenarios/rulings/cards/answers.yaml   # a card file's cards
  dmcheck cards scenarios/rulings/Q11e_cannot_be_broken.yaml   # the cards of a scenario's card files
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `cards` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "cards", help="list the card pool, a card file's cards, or (--words) the vocabulary of card files",
        description="List the built-in card pool (model/data/cards.yaml), or the cards of the card files given "
                    "(a scenario file: the card files it names), each with its type, numbers, keywords and "
                    "abilities as a card file writes them. --words lists what a card file may use: every card "
                    "word with its arguments, every trigger and replacement, the engine's keywords and a card's "
                    "keys, read from the model's registry (docs/scenario-extensions.md).",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="FILE", help="card files, or scenario files (their `cards:` files)")
    p.add_argument("--words", action="store_true",
                   help="list the vocabulary of card files instead: card words (instructions) with their arguments, "
                        "triggers, replacements, keywords")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: {schema_version, command, cards | words, errors}")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.words:
        if args.files:
            raise InputError("--words", None, "", "lists the vocabulary of every card file; expected no FILE with it")
        if args.json:
            print_json(document("cards", words=words_json()), out)
        else:
            print("\n".join(words_lines()), file=out)
        return Exit.OK
    cards = [c for file in args.files for c in file_cards(file)] if args.files else builtin_cards()
    if args.json:
        print_json(document("cards", cards=[dict(views.card(c), file=f) for f, c in cards]), out)
    else:
        print("\n".join(pool_lines(cards, bool(args.files))), file=out)
    return Exit.OK


def builtin_cards() -> list[tuple[str, Any]]:
    pool = CardPool.builtin()
    return [("built-in", pool[i]) for i in pool.ids()]


def file_cards(file: str) -> list[tuple[str, Any]]:
    """The cards of a card file, or of the card files a scenario names (each checked as the loader does)."""
    root = load_yaml(file)
    names = root.get("cards") if isinstance(root, dict) else None
    if isinstance(root, dict) and "attack" in root:           # a scenario: its `cards:` files
        return [c for n in names or [] for c in file_cards(str(Path(file).parent / str(n)))]
    if not isinstance(names, list):
        raise InputError(file, 1, "cards", "expected a card file (a `cards:` list of cards) or a scenario naming "
                                           "card files under `cards:`")
    pool = CardPool()
    pool.add_file(file)
    return [(file, pool[i]) for i in pool.ids()]


# ---- the pool as text --------------------------------------------------------------------------------
def pool_lines(cards: list[tuple[str, Any]], by_file: bool) -> list[str]:
    """Each card: its names, type and numbers, keywords, spell effect and abilities."""
    lines = []
    for _file, c in cards:
        data = views.card(c)
        numbers = f"cost {c.cost}" + (f", power {data['power']}" if c.type == "creature" else "") + \
            (f", breaker {c.breaker}" if c.breaker != 1 else "") + \
            "".join(f", {key} {'/'.join(data[key])}" for key in ("civilizations", "races") if key in data)
        names = ", ".join(n for n in (c.id, c.ja) if n)
        kind = data["type"] if c.home else c.type   # psychic_creature, gr_creature: where it lives (model/homes.py)
        lines.append(f"{c.name} ({names}): {kind}, {numbers}" + (f"; {', '.join(c.keywords)}" if c.keywords else ""))
        if "effect" in data:
            lines.append(f"    effect: {flow(data['effect'])}")
        for st in data.get("statics", []):
            lines.append(f"    static: {flow(st)}")
        for a in data.get("abilities", []):
            when = f"trigger {flow(a['trigger'])}" if "trigger" in a else f"replaces {a['replaces']}"
            lines.append(f"    {a['id']}: {when}" + (f" (from the {a['zone']})" if "zone" in a else "")
                         + f": {flow(a['effect'])}")
    where = ", ".join(dict.fromkeys(f for f, _ in cards)) if by_file else "the built-in pool (model/data/cards.yaml)"
    lines.append(f"{len(cards)} card{'s' if len(cards) != 1 else ''} of {where}; a scenario names a card by its "
                 f"English or Japanese name or its id")
    return lines


# ---- the vocabulary ----------------------------------------------------------------------------------
_TYPES = {"integer": "a whole number", "string": "text", "boolean": "true or false", "array": "a list",
          "object": "a mapping"}


def describe(schema: dict) -> str:
    """What a JSON schema of an argument accepts, in a user's words."""
    if "description" in schema and ("anyOf" in schema or "oneOf" in schema):
        return schema["description"]
    if "then" in schema and "else" in schema:   # a word or a mapping (a trigger's pattern, model/trigger_patterns.py)
        return f"{describe(schema['then'])}; or {describe(schema['else'])}"
    if "enum" in schema:
        return " or ".join(map(str, schema["enum"]))
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        text = f"a list of ({describe(items)})" if items else "a list of instructions"
        return text + (f", at least {schema['minItems']}" if schema.get("minItems") else "")
    text = _TYPES.get(str(kind), str(kind))
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        text += f" {low} to {high}"
    elif low is not None:
        text += f" >= {low}"
    if "pattern" in schema:
        text += f" matching {schema['pattern']}"
    return text + (f" ({schema['description']})" if "description" in schema else "")


def instructions() -> list[dict[str, Any]]:
    """Every card word with its doc and arguments, from the registry."""
    out = []
    for name, spec in card_words().items():
        required = set(spec.get("required", []))
        out.append({"word": name, "doc": spec.get("doc", ""),
                    "arguments": [{"name": a, "required": a in required, "accepts": describe(s), "schema": s}
                                  for a, s in spec["properties"].items()]})
    return out


def words_json() -> dict[str, Any]:
    card: dict[str, Any] = CARD_SCHEMA
    ability = card["properties"]["abilities"]["items"]
    return {"instructions": instructions(),
            "triggers": [{"word": k, "doc": v} for k, v in TRIGGERS.items()],
            "events": [{"word": k, "doc": doc, "rule": rule} for k, (doc, rule) in EVENTS.items()],
            "replacements": [{"word": k, "doc": v} for k, v in REPLACES.items()],
            "keywords": [{"word": k, "doc": v} for k, v in KEYWORDS.items()],
            "card_keys": {"card": sorted(card["properties"]), "required": card["required"],
                          "ability": sorted(ability["properties"])}}


def words_lines() -> list[str]:
    data = words_json()
    keys = data["card_keys"]
    lines = [f"a card: {', '.join(keys['card'])} (required: {', '.join(keys['required'])}); an ability: "
             f"{', '.join(keys['ability'])} (a `trigger` or a `replaces`)", "",
             "card words: the instructions of an `effect:` list, each {word: {argument: value}} "
             "(model/instructions/, registry.py):"]
    for w in data["instructions"]:
        lines.append(f"  {w['word']}: {w['doc']}")
        lines += [f"      {a['name']}{' (required)' if a['required'] else ''}: {a['accepts']}" for a in w["arguments"]]
    for title, key, where in (("triggers", "triggers", "an ability's `trigger:`, a word"),
                              ("events", "events", "what a `trigger: {on: ...}` pattern watches, with `player`, "
                                                   "`card`, `has`, `type`"),
                              ("replacements", "replacements", "an ability's `replaces:`"),
                              ("keywords", "keywords", "a card's `keywords:` the engine reads (any other word: a race "
                                                       "or civilization)")):
        module = "model/trigger_patterns.py" if key == "events" else "model/vocabulary.py"
        lines += ["", f"{title}: {where} ({module}):"]
        lines += [f"  {w['word']}: {w['doc']}" for w in data[key]]
    lines += ["", f"{len(data['instructions'])} card words, {len(data['triggers'])} triggers, "
                  f"{len(data['replacements'])} replacements, {len(data['keywords'])} keywords"]
    return lines
