"""Fuzzing: valid scenario, card, property and rulings files and sweep templates, mutated by Hypothesis,
never crash dmcheck. Every run ends with exit 0, 1, 2 or 3 and no traceback (an exception escaping `main`
fails the test with its own traceback); a loader either loads the file or raises an InputError.

Bundles and baselines (JSON) are mutated the same way and read as the commands read them before any
work. tests/test_fuzz_files.py runs every kind through its command, 5,000 cases in forked processes with
time and memory limits (slow). Two kinds of mutation: on the text (cut, insert YAML punctuation or odd
bytes, duplicate or swap lines), and on the parsed document (a node replaced by a value of another
type: a float, a huge or negative number, a long text, a list, a mapping with mixed keys, an alias-like
string). The default
run is bounded to a few seconds; the `slow` run tries many more examples.
"""

from __future__ import annotations

import copy
import functools
import io
import json
from pathlib import Path

import pytest
from conftest import DATA, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from dmcheck.main import main
from dmcheck.model.errors import InputError
from dmcheck.model.scenario_file import load_scenario
from dmcheck.rulings.corpus import builtin_corpus, check_sources, load_corpus

SCENARIO = (ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml").read_text(encoding="utf-8")
Q09 = str(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml")
CARDS = (DATA / "properties" / "counter_break_cards.yaml").read_text(encoding="utf-8")
PROPERTIES = (DATA / "properties" / "false_property.yaml").read_text(encoding="utf-8")
RULINGS = (DATA / "rulings" / "agreeing.yaml").read_text(encoding="utf-8")
WRAPPER = """name: loads a fuzzed card file
cards: [cards.yaml]
turn: A
players:
  A:
    battle: [Vanilla]
    shields: 2
  B:
    shields: [Counter Break]
attack: {attacker: Vanilla, player: B}
"""
LIMITS = ["--max-states", "300", "--max-seconds", "10"]
# two positions as written; a mutation may make it many (refused over the limit) or none
TEMPLATE = """name: a fuzzed sweep template
rules: 2024-06-19
turn: A
players:
  A: {battle: [Kakumeijin], mana: 3}
  B: {shields: 1, battle: [The Watch]}
attack: {attacker: Kakumeijin, player: B}
vary:
  A.hand: {from: [Boil Charger, Texas Storm], size: [0, 1], distinct: true}
compare: {rules: [2023-01-01, 2024-06-19]}
expect:
  - never_order: [{event: cast, card: Texas Storm}, {event: break, frame: 2}]
"""

_PUNCT = list("[]{}:,-&*!|>'\"#%@`?\n\t ") + ["\x00", "\xff", "\u00e9", "2.0", "1e400", "-1", "99999999999999999999",
                                                 "2023-02-30", " 10:00:00", "!tag ", "*a", "&a ", "~", "<<: ", ".nan"]
_text_edit = st.one_of(
    st.tuples(st.just("cut"), st.integers(0, 10_000), st.integers(1, 40)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.lists(st.sampled_from(_PUNCT), min_size=1, max_size=4)),
    st.tuples(st.just("dup"), st.integers(0, 200), st.integers(0, 200)),
    st.tuples(st.just("swap"), st.integers(0, 200), st.integers(0, 200)),
)
_odd_value = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**70, 2**70), st.booleans(), st.none(),
    st.text(max_size=30), st.text(min_size=500, max_size=600).map(lambda t: t or "x" * 500),
    st.lists(st.integers(-3, 3), max_size=3), st.just({1: "one", "foo": "two"}), st.just("A"), st.just("C"),
    st.just("library"), st.just("outer"), st.sampled_from(["2023-02-30", "(exit)", "true) (exit) (assert true"]),
)


def _edit_text(text: str, edits: list) -> str:
    for kind, a, b in edits:
        lines = text.split("\n")
        if kind == "cut":
            a %= max(len(text), 1)
            text = text[:a] + text[a + b:]
        elif kind == "insert":
            a %= max(len(text), 1)
            text = text[:a] + "".join(b) + text[a:]
        elif kind == "dup":
            text = "\n".join(lines[:a % len(lines) + 1] + [lines[a % len(lines)]] + lines[a % len(lines) + 1:])
        else:
            i, j = a % len(lines), b % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def _nodes(node, path=()):
    """Every (container, key) pair of a parsed document, in document order."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield node, key
        yield from _nodes(value, path + (key,))


def _edit_tree(text: str, picks: list[tuple[int, object]]) -> str:
    yaml = YAML(typ="rt")
    root = yaml.load(text)
    for index, value in picks:
        spots = list(_nodes(root))
        if not spots:
            break
        container, key = spots[index % len(spots)]
        container[key] = copy.deepcopy(value)   # a shared value placed inside itself would be recursive
    out = io.StringIO()
    yaml.dump(root, out)
    return out.getvalue()


@st.composite
def mutated(draw, text: str) -> str:
    if draw(st.booleans()):
        return _edit_text(text, draw(st.lists(_text_edit, min_size=1, max_size=4)))
    return _edit_tree(text, draw(st.lists(st.tuples(st.integers(0, 10_000), _odd_value), min_size=1, max_size=3)))


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


def _exits_cleanly(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    assert code in (0, 1, 2, 3), (code, err.getvalue())
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert err.getvalue().startswith("dmcheck: "), err.getvalue()


def _run_scenario(folder: Path, text: str) -> None:
    _exits_cleanly(["explore", str(_write(folder, "scenario.yaml", text)), *LIMITS])


def _run_cards(folder: Path, text: str) -> None:
    _write(folder, "cards.yaml", text)
    _exits_cleanly(["explore", str(_write(folder, "wrapper.yaml", WRAPPER)), *LIMITS])


def _run_properties(folder: Path, text: str) -> None:
    _exits_cleanly(["check", Q09, "--properties", str(_write(folder, "props.yaml", text)), *LIMITS])


def _load_rulings(folder: Path, text: str) -> None:
    """A fuzzed rulings file goes through what `verify --rulings` reads before any work: the file, merged
    with the built-in corpus (ids, sources), and its statements' scenarios; it loads or is refused with an
    InputError (verify itself is too slow to fuzz)."""
    path = _write(folder, "rulings.yaml", text.replace("../../../", str(ROOT) + "/"))
    try:
        corpus = _builtin().merged(load_corpus(path))     # what rulings.verify.load does, the built-in read once
        check_sources(corpus)
        for statement in corpus.statements:
            if statement.file == str(path):
                for scenario in statement.scenarios:
                    load_scenario(scenario)
    except InputError as exc:
        assert str(exc).startswith(str(path)) or ".yaml" in str(exc), str(exc)


@functools.lru_cache(maxsize=1)
def _builtin():
    return builtin_corpus()


def _run_template(folder: Path, text: str) -> None:
    template = _write(folder, "template.yaml", text)
    _exits_cleanly(["sweep", str(template), "--db", str(folder / "t.sqlite"), "--jobs", "1", "--max-seconds", "3",
                    "--max-states", "300"])


BUNDLE = json.dumps({"bundle_version": 1, "protocol_version": 1, "dmcheck": "0", "cards": {}, "scenarios": []})
BASELINE = json.dumps({"dmcheck_baseline": 1, "findings": [{"id": "ruling:A1@TEST", "kind": "ruling", "message": "m"}]})


def _read_json_kind(reader, folder: Path, name: str, text: str) -> None:
    """A bundle or a baseline is read (the command reads it before any work) or refused with an InputError
    naming it; tests/test_fuzz_files.py runs the commands themselves."""
    path = _write(folder, name, text)
    try:
        reader(str(path))
    except InputError as exc:
        assert str(exc).startswith(str(path)), str(exc)


def _read_bundle(folder: Path, text: str) -> None:
    from dmcheck.engines.bundle import read_bundle
    _read_json_kind(read_bundle, folder, "bundle.json", text)


def _read_baseline(folder: Path, text: str) -> None:
    from dmcheck.cli.ci_formats import read_baseline
    _read_json_kind(read_baseline, folder, "known.json", text)


KINDS = [("scenario", SCENARIO, _run_scenario), ("cards", CARDS, _run_cards),
         ("properties", PROPERTIES, _run_properties), ("rulings", RULINGS, _load_rulings),
         ("sweep", TEMPLATE, _run_template), ("bundle", BUNDLE, _read_bundle), ("baseline", BASELINE, _read_baseline)]
_QUICK = settings(max_examples=5, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
_LARGE = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _fuzz(kind: str, tmp_path_factory, conf):
    _, text, run = next(k for k in KINDS if k[0] == kind)

    @conf
    @given(mutated(text))
    def one(mutant: str) -> None:
        run(tmp_path_factory.mktemp(kind), mutant)
    one()


@pytest.mark.parametrize("kind", [k[0] for k in KINDS])
def test_fuzz_quick(kind, tmp_path_factory):
    _fuzz(kind, tmp_path_factory, _QUICK)


@pytest.mark.slow
@pytest.mark.parametrize("kind", [k[0] for k in KINDS])
def test_fuzz_large(kind, tmp_path_factory):
    _fuzz(kind, tmp_path_factory, _LARGE)
