"""Strict YAML loading with line numbers, and schema checks whose errors point at a line.

ruamel.yaml keeps the position of every key; jsonschema says what is wrong. Together they turn a
user's mistake into `FILE:LINE: key: what was expected`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import stat
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from . import yamlcache
from .errors import InputError, Mistakes, did_you_mean, raise_all

# Limits on what a file may hold (docs/limits.md); each one turns a hostile or mistaken file into a
# clear error instead of a machine running out of memory or recursion.
MAX_FILE_BYTES = 4_000_000        # a file's size
MAX_NODES = 200_000               # scalars, lists and mappings after every alias is expanded
MAX_DEPTH = 40                    # lists and mappings inside one another
MAX_NUMBER = 10**9                # the magnitude of any whole number in any file
MAX_SHOWN = 60                    # characters of a value quoted in a message

_STANDARD_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_STANDARD_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_PLAIN_TAGS = _SCALAR_TAGS | {_STANDARD_TAG + "map", _STANDARD_TAG + "seq"}
_DATE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")
_TIMESTAMP = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|[ \t]+)\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d*)?"
                        r"(?:[ \t]*(?:Z|[-+]\d{1,2}(?::\d{1,2})?))?$")
_INT = re.compile(r"^[-+]?(0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|0o[0-7_]+)$")


def shown(value: Any) -> str:
    """A value as a message quotes it: its repr, cut to MAX_SHOWN characters (never a whole alias bomb)."""
    if isinstance(value, (dict, list)) and len(value) > 20:
        return f"a {'mapping' if isinstance(value, dict) else 'list'} of {len(value)} items"
    text = repr(_cut(value, 0))
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


def _cut(value: Any, depth: int) -> Any:
    """A small copy of `value` for quoting: nested containers and long lists elided."""
    if isinstance(value, dict):
        return {k: _cut(v, depth + 1) for k, v in list(value.items())[:5]} if depth < 3 else {...: ...}
    if isinstance(value, list):
        return [_cut(v, depth + 1) for v in value[:5]] if depth < 3 else [...]
    if hasattr(value, "tag") and hasattr(value, "value"):       # a ruamel tagged scalar
        return str(value.value)
    if isinstance(value, str) and len(value) > MAX_SHOWN:
        return value[:MAX_SHOWN]
    return value


def _special(mode: int) -> str:
    """What a file that is neither a regular file nor a folder is, in a user's words ("" for those two)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "" if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else "not a regular file"


def file_problem(path: Path) -> str:
    """What keeps `path` from being read as a file ("" when nothing does): for paths written in a file.
    Only its status is looked at: a FIFO or a device is never opened."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "not found"
    except (OSError, ValueError) as exc:      # a name too long, a NUL byte in it, a loop of links, ...
        return f"cannot be used ({getattr(exc, 'strerror', None) or exc})"
    if stat.S_ISDIR(mode):
        return "is a directory"
    special = _special(mode)
    return f"is {special}; expected a regular file" if special else ""


@dataclass(frozen=True)
class Confinement:
    """Where a path written inside a file (a scenario's `cards:`, a rulings file's `scenarios:`) may lead,
    as the command line decides (dmcheck/cli/paths.py; the model knows no flags): below one of `roots`
    (resolved folders), and never to a file the command writes (`written`: resolved path -> its flag).
    Without one in force (the Python API) such a path may lead anywhere a program's own paths may."""

    roots: tuple[Path, ...] = ()
    written: dict[str, str] = field(default_factory=dict)
    allow: str = "--allow-path DIR"     # how a user allows another folder

    def problem(self, real: Path) -> str:
        """Why the resolved path `real` may not be read ("" when it may)."""
        if str(real) in self.written:
            return f"is the file {self.written[str(real)]} writes; expected a file the command only reads"
        if self.roots and not any(real.is_relative_to(root) for root in self.roots):
            return (f"leads outside the folders dmcheck reads from (the current folder, the folder of each file "
                    f"named on the command line, dmcheck's examples, and those of {self.allow}); expected a path "
                    f"inside one of them, or {self.allow} naming its folder")
        return ""


_CONFINEMENT: Confinement | None = None


@contextlib.contextmanager
def confined(confinement: Confinement | None) -> Iterator[None]:
    """Read the paths written inside files under `confinement` while the block runs (forked worker
    processes inherit it)."""
    global _CONFINEMENT
    before, _CONFINEMENT = _CONFINEMENT, confinement
    try:
        yield
    finally:
        _CONFINEMENT = before


def inner_path(file: str, written: Any, root: Any, where: tuple, what: str, about: str = "") -> Path:
    """A path written at `where` inside `file`, relative to the file's folder, checked before anything
    reads it: a regular file (never a FIFO or a device), allowed by the confinement in force. A refusal
    names the file, the line and the path as written, never what the path leads to."""
    path = Path(file).parent / str(written)
    problem = file_problem(path)
    if not problem and _CONFINEMENT is not None:
        problem = _CONFINEMENT.problem(path.resolve())
    if problem:
        raise InputError(file, line_of(root, where), key_path(where),
                         f"{about}{what} {shown(str(written))} {problem} (paths are relative to the folder of "
                         f"{file})")
    return path


def read_bytes(path: str | Path, limit: int | None = None, what: str = "YAML file") -> bytes:
    """A regular file's bytes, at most `limit` of them. A FIFO, a device or a socket is refused from its
    status, before it is opened (reading one would wait forever, or never end); the file is opened
    without blocking and looked at again, so one swapped in meanwhile is refused too."""
    path = Path(path)
    file = str(path)
    limit = MAX_FILE_BYTES if limit is None else limit
    problem = file_problem(path)
    if problem == "not found":
        raise InputError(file, None, "", "file not found")
    if problem:
        raise InputError(file, None, "", problem.replace("a regular file", f"a {what} (a regular file)")
                         if "expected" in problem else f"{problem}; expected a {what}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as handle:
            special = _special(os.fstat(handle.fileno()).st_mode)
            if special:
                raise InputError(file, None, "", f"is {special}; expected a {what} (a regular file)")
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise InputError(file, None, "", f"the file has {size} bytes; the limit is {limit} (docs/limits.md)")
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputError(file, None, "", "file not found") from None
    except IsADirectoryError:
        raise InputError(file, None, "", f"is a directory; expected a {what}") from None
    except OSError as exc:
        raise InputError(file, None, "", f"cannot read: {exc.strerror}") from None
    except ValueError as exc:                 # a NUL byte in the name
        raise InputError(file, None, "", f"cannot read: {exc}") from None
    if len(data) > limit:
        raise InputError(file, None, "", f"the file has more than {limit} bytes; the limit is {limit} "
                                         f"(docs/limits.md)")
    return data


def _text(path: Path) -> str:
    """The file's text: UTF-8 only; a directory, a binary or a wrongly encoded file says so."""
    file = str(path)
    data = read_bytes(path)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(file, None, "", "the file is UTF-16 text; expected UTF-8 (save it as UTF-8)")
    if b"\x00" in data:
        line = data[:data.index(b"\x00")].count(b"\n") + 1
        raise InputError(file, line, "", "the file is binary or UTF-16 (it holds a NUL byte); expected UTF-8 YAML text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError(file, line, "", f"byte 0x{data[exc.start]:02x} is not UTF-8; expected UTF-8 text "
                                         f"(Latin-1 or another encoding? save the file as UTF-8)") from None


def _scan(yaml: YAML, text: str, file: str) -> None:
    """Check the event stream before building anything: nesting depth, alias expansion, tags, dates
    and the size of numbers. Parsing events is iterative, so a hostile file is refused quickly."""
    from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, NodeEvent, ScalarEvent
    sizes: dict[str, int] = {}
    stack: list[list] = []           # [anchor, nodes inside] per open list or mapping
    total = 0
    values = Mistakes()              # impossible dates and huge numbers: each on its line, all together
    for event in yaml.parse(text):
        line = event.start_mark.line + 1 if event.start_mark else None
        if isinstance(event, AliasEvent):
            if any(anchor == event.anchor for anchor, _ in stack):
                raise InputError(file, line, "", f"the alias *{event.anchor[:MAX_SHOWN]} refers to a list or mapping "
                                                 f"that contains it; expected no recursive alias")
            n = sizes.get(event.anchor, 1)
        elif isinstance(event, NodeEvent):
            tag = getattr(event, "tag", None)
            if tag and tag not in _PLAIN_TAGS:
                raise InputError(file, line, "", f"the tag {tag[:MAX_SHOWN]} is not supported; expected plain "
                                                 f"YAML values (remove the tag)")
            if tag and _tag_misfits(event, tag):
                raise InputError(file, line, "", f"the tag !!{tag.removeprefix(_STANDARD_TAG)} does not fit "
                                                 f"the {_node_kind(event)} it is on; expected plain YAML values "
                                                 f"(remove the tag)")
            if isinstance(event, CollectionStartEvent):
                if len(stack) >= MAX_DEPTH:
                    raise InputError(file, line, "", f"lists and mappings are nested more than {MAX_DEPTH} "
                                                     f"deep; the limit is {MAX_DEPTH} (docs/limits.md)")
                stack.append([event.anchor, 1])
                continue
            if isinstance(event, ScalarEvent):
                values.check(_scalar, event, file, line)
            n = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, CollectionEndEvent):
            anchor, n = stack.pop()
            if anchor:
                sizes[anchor] = n
        else:
            continue
        total += n
        if stack:
            stack[-1][1] += n
        if total > MAX_NODES:
            raise InputError(file, line, "", f"the document expands to more than {MAX_NODES} values (aliases "
                                             f"included); the limit is {MAX_NODES} (docs/limits.md)")
    values.raise_all()


def _node_kind(event: Any) -> str:
    from ruamel.yaml.events import MappingStartEvent, SequenceStartEvent
    return "list" if isinstance(event, SequenceStartEvent) else "mapping" if isinstance(event, MappingStartEvent) \
        else "value"


def _tag_misfits(event: Any, tag: str) -> bool:
    """A standard tag on a node of another kind (`!!str` on a list): YAML would drop it or fail later."""
    kind = _node_kind(event)
    fits = {"list": {_STANDARD_TAG + "seq"}, "mapping": {_STANDARD_TAG + "map"}, "value": _SCALAR_TAGS}[kind]
    return tag not in fits


def _syntax(problem: str) -> str:
    """A YAML syntax problem as a message may say it: without the file's text. The parser quotes what it
    met (a duplicate key's values, an alias's name, a tagged value); a file that is not YAML at all (a key
    file, a credentials file) must not see its contents printed in a CI log."""
    if "duplicate key" in problem:
        return "a key is written twice in one mapping; expected each key once"
    return re.sub(r"""(["'])[^"'\n]{3,}?\1""", r"\1...\1", problem)


def _scalar(event: Any, file: str, line: int | None) -> None:
    """A plain scalar that YAML would read as an impossible date or a huge number is an error here."""
    if event.style or (event.tag and event.tag != _STANDARD_TAG + "int"):
        return
    value = event.value.strip()
    if _TIMESTAMP.match(value):
        raise InputError(file, line, "", f"{shown(value)} is a date with a time of day; expected a date YYYY-MM-DD "
                                         f"(quote it if it is text)")
    if _DATE.match(value):
        try:
            dt.date.fromisoformat("-".join(part.zfill(2) for part in value.split("-")))
        except ValueError as exc:
            raise InputError(file, line, "", f"{value} is not a real date ({exc}); expected YYYY-MM-DD") from None
    elif _INT.match(value):
        try:
            number = int(value.replace("_", ""), 0)
        except ValueError:
            return
        if abs(number) > MAX_NUMBER:
            raise InputError(file, line, "", f"the number {shown(number)} is too large; the limit is "
                                             f"{MAX_NUMBER} (docs/limits.md)")


def load_yaml(path: str | Path) -> Any:
    """Load one YAML document keeping line information; every problem becomes an InputError."""
    path = Path(path)
    file = str(path)
    text = _text(path)
    cached = yamlcache.get(text)
    if cached is not None:
        return cached
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        with warnings.catch_warnings():     # ruamel warns (on stderr, quoting the file) of a reused anchor
            warnings.simplefilter("ignore")
            _scan(yaml, text, file)
            root = yaml.load(text)
        yamlcache.put(text, root)
        return root
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        raise InputError(file, line, "", f"YAML syntax: {_syntax(problem)[:200]}") from None
    except InputError:
        raise
    except RecursionError:
        raise InputError(file, None, "", f"nested too deep; the limit is {MAX_DEPTH} (docs/limits.md)") from None
    except Exception as exc:  # ruamel raises a few unmarked errors (a value its tag does not fit: `!!int abc`)
        raise InputError(file, None, "", f"YAML syntax: a value cannot be read ({type(exc).__name__}); expected "
                                         f"plain YAML values (a tag such as !!int must fit its value)") from None


def line_of(root: Any, path: tuple) -> int | None:
    """The 1-based line of the node at `path` (keys and indexes), or of its nearest ancestor."""
    node, line = root, 1
    for part in path:
        if isinstance(node, CommentedMap) and part in node:
            at = node.lc.key(part)
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            at = node.lc.item(part)
        else:
            break
        if at:           # a node built without positions (a tagged one) keeps its parent's line
            line = at[0] + 1
        node = node[part]
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
        return f"expected {' or '.join(names.get(k, str(k)) for k in kinds)}, got {shown(error.instance)}"
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = _extra(error)
        if not allowed:
            return f"unknown key {shown(extra[0])}; this takes no keys (write {{}})"
        return (f"unknown key {shown(extra[0])}{did_you_mean(str(extra[0]), allowed)}; "
                f"expected one of {', '.join(allowed)}")
    if v == "required":
        return f"missing key {error.message.split(' ')[0]}"
    if v == "enum":
        hint = did_you_mean(error.instance, error.validator_value) if isinstance(error.instance, str) else ""
        return f"expected one of {', '.join(map(str, error.validator_value))}, got {shown(error.instance)}{hint}"
    if v == "minimum":
        return f"expected a number >= {error.validator_value}, got {shown(error.instance)}"
    if v == "maximum":
        return (f"expected a number <= {error.validator_value}, got {shown(error.instance)}; the limit is "
                f"{error.validator_value} (docs/limits.md)")
    if v == "maxItems":
        return (f"expected at most {error.validator_value} items, got {len(error.instance)}; the limit is "
                f"{error.validator_value} (docs/limits.md)")
    if v == "pattern":
        return f"expected text matching {error.validator_value}, got {shown(error.instance)}"
    if v in ("oneOf", "anyOf"):
        return f"expected {error.schema.get('description', 'a valid value')}, got {shown(error.instance)}"
    if v == "minProperties" or v == "maxProperties":
        return f"expected {error.schema.get('description', 'a mapping with one key')}"
    return error.message[:200]


def _extra(error: jsonschema.ValidationError) -> list:
    """The unknown keys of a mapping, in a stable order even when keys of different types mix (`1:`, `foo:`)."""
    known = set(error.schema.get("properties", {}))
    return sorted((k for k in error.instance if k not in known), key=lambda k: (type(k).__name__, str(k)))


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number as written: `2` is one, `2.0` and `true` are not (a count is never a float)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


def _not_of_kind(root: Any, schema: dict) -> str:
    """Why a document is not of the kind a schema of a mapping describes at all ("" when it may be): its top
    is no mapping, or none of its keys is one of the schema's. Such a file is refused without quoting it: it
    may be any file a path led to (a key file, /etc/passwd), and its mistakes would print its contents."""
    known = schema.get("properties")
    if schema.get("type") != "object" or not known:
        return ""
    if not isinstance(root, dict):
        kind = ("text" if isinstance(root, str) else "a list" if isinstance(root, list)
                else "a number" if isinstance(root, (int, float)) else "a single value")
        return f"its top is {kind}, not a mapping"
    if root and not any(isinstance(k, str) and k in known for k in root):
        return "none of its keys is a key of such a file"
    return ""


def schema_errors(root: Any, schema: dict, file: str, whole: bool = True) -> list[InputError]:
    """Every schema violation in `root`, the most telling one per place, in the file's order. `whole`:
    `root` is a whole file, refused at once and unquoted (raised) when it is no file of this kind at all;
    a part of a file (`whole=False`) has its mistakes told like any other."""
    alien = _not_of_kind(root, schema) if whole else ""
    if alien:
        keys = schema.get("required") or sorted(schema.get("properties", {}))
        raise InputError(file, line_of(root, ()), "(top)",
                         f"not a file of this kind: {alien}; expected a YAML mapping with the "
                         f"keys {', '.join(keys)} (the file's contents are not shown)")
    validator = _Validator(schema)
    found: dict[tuple, InputError] = {}
    for error in validator.iter_errors(root):
        best = jsonschema.exceptions.best_match([error])
        path = tuple(best.absolute_path)
        if best.validator == "additionalProperties":
            extra = _extra(best)
            if extra:
                path = path + (extra[0],)
        found.setdefault(tuple(map(str, path)), InputError(file, line_of(root, path), key_path(path) or "(top)",
                                                           _expected(best)))
    return sorted(found.values(), key=lambda e: (e.line or 0, e.key))


def validate(root: Any, schema: dict, file: str, whole: bool = True) -> None:
    """Raise an InputError for every schema violation in `root` (in the file's order, at most
    MAX_REPORTED listed, then "and N more"): a user fixes a file in one pass, not one error a run."""
    raise_all(schema_errors(root, schema, file, whole))


def spoilt(errors: list[InputError], path: tuple) -> bool:
    """Whether a schema mistake lies at or under `path` (its value cannot be read further)."""
    prefix = key_path(path)
    return any(e.key == prefix or e.key.startswith(prefix + ".") or e.key.startswith(prefix + "[")
               or e.key == "(top)" for e in errors)


def plain(node: Any) -> Any:
    """Convert ruamel containers into plain dicts and lists (after validation)."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (int, bool)) else k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node
