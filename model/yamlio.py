"""Strict YAML loading with line numbers, and schema checks whose errors point at a line.

ruamel.yaml keeps the position of every key; jsonschema says what is wrong. Together they turn a
user's mistake into `FILE:LINE: key: what was expected`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from .errors import InputError, did_you_mean


def load_yaml(path: str | Path) -> Any:
    """Load one YAML document keeping line information; a syntax error becomes an InputError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), None, "", "file not found") from None
    except OSError as exc:
        raise InputError(str(path), None, "", f"cannot read: {exc.strerror}") from None
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        raise InputError(str(path), line, "", f"YAML syntax: {problem}") from None
    except Exception as exc:  # ruamel raises a few unmarked errors (e.g. duplicate keys)
        raise InputError(str(path), None, "", f"YAML syntax: {exc}") from None


def line_of(root: Any, path: tuple) -> int | None:
    """The 1-based line of the node at `path` (keys and indexes), or of its nearest ancestor."""
    node, line = root, 1
    for part in path:
        if isinstance(node, CommentedMap) and part in node:
            line = node.lc.key(part)[0] + 1
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            break
    return line


def key_path(path: tuple) -> str:
    """`players.A.hand[2]` for the path ('players', 'A', 'hand', 2)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _expected(error: jsonschema.ValidationError) -> str:
    """Say what the schema expected, in a user's words."""
    v = error.validator
    if v == "type":
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        names = {"integer": "a whole number", "string": "text", "array": "a list", "object": "a mapping",
                 "boolean": "true or false", "number": "a number", "null": "nothing"}
        return f"expected {' or '.join(names.get(k, k) for k in kinds)}, got {error.instance!r}"
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        return f"unknown key {extra[0]!r}{did_you_mean(extra[0], allowed)}; expected one of {', '.join(allowed)}"
    if v == "required":
        return f"missing key {error.message.split(' ')[0]}"
    if v == "enum":
        return f"expected one of {', '.join(map(str, error.validator_value))}, got {error.instance!r}"
    if v == "minimum":
        return f"expected a number >= {error.validator_value}, got {error.instance!r}"
    if v == "pattern":
        return f"expected text matching {error.validator_value}, got {error.instance!r}"
    if v in ("oneOf", "anyOf"):
        return f"expected {error.schema.get('description', 'a valid value')}, got {error.instance!r}"
    if v == "minProperties" or v == "maxProperties":
        return f"expected {error.schema.get('description', 'a mapping with one key')}"
    return error.message


def validate(root: Any, schema: dict, file: str) -> None:
    """Raise an InputError for the first (deepest, then earliest) schema violation in `root`."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(validator.iter_errors(root))
    if not errors:
        return
    best = jsonschema.exceptions.best_match(errors)
    path = tuple(best.absolute_path)
    if best.validator == "additionalProperties":
        extra = sorted(set(best.instance) - set(best.schema.get("properties", {})))
        if extra:
            path = path + (extra[0],)
    raise InputError(file, line_of(root, path), key_path(path) or "(top)", _expected(best))


def plain(node: Any) -> Any:
    """Convert ruamel containers into plain dicts and lists (after validation)."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (int, bool)) else k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node
