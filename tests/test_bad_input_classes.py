"""One test per class of bad input, each on what used to go wrong: a traceback, a run
that never ends, a message nobody can read, or a typo that made a check pass."""

from __future__ import annotations

import io
import time

import pytest
from conftest import ROOT

from dmcheck.main import main
from dmcheck.model import yamlio
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.property_file import load_properties
from dmcheck.properties.symbols import FormulaError, one_term
from dmcheck.rulings.corpus import load_corpus

Q09 = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"
PROPERTY = """properties:
  - id: my-prop
    text: Nothing odd happens.
    citations: [D4]
    kind: always
    over: transitions
    formula: {formula}
"""
STATEMENT = """statements:
  - id: T1
    source: TEST
    date: 2024-01-10
    text: A statement written for the bad-input tests.
{extra}"""
LOADERS = {
    "scenario": load_scenario,
    "cards": lambda path: CardPool().add_file(path),
    "properties": load_properties,
    "rulings": load_corpus,
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def refused(loader, path) -> InputError:
    with pytest.raises(InputError) as caught:
        LOADERS[loader](path)
    assert str(path) in str(caught.value)
    return caught.value


# ---- encodings -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(LOADERS))
@pytest.mark.parametrize("encoding,words", [("latin-1", "byte 0xe9 is not UTF-8"), ("utf-16", "UTF-16"),
                                            ("utf-16-le", "binary or UTF-16")])
def test_a_file_not_in_utf8_is_named_not_a_traceback(kind, encoding, words, tmp_path):
    path = tmp_path / f"{kind}.yaml"
    path.write_bytes("name: café\n".encode(encoding))
    assert words in str(refused(kind, path))


# ---- numbers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("item", ["always: {shields: {B: 2.0}}", "always: {mana: {A: 2.0}}",
                                  "never: {shields_broken: 1.0}"])
def test_a_float_count_in_an_expectation_is_an_error(item, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("  - never: {turn_skipped: true, shields_broken: 1}", "  - " + item))
    error = refused("scenario", path)
    assert "expected" in str(error) and ".0" in str(error)


@pytest.mark.parametrize("value,words", [("1000000000", "<= 100"), ("9223372036854775808", "too large")])
def test_a_huge_count_is_refused_at_once(value, words, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("shields: 2", f"shields: {value}"))
    start = time.monotonic()
    error = refused("scenario", path)
    assert words in str(error) and "docs/limits.md" in str(error)
    assert time.monotonic() - start < 10


def test_a_count_that_fits_still_loads(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("shields: 2", "shields: 100"))
    assert len(load_scenario(path).players["B"].shields) == 100


# ---- YAML aliases ----------------------------------------------------------------------------------
def _bomb(key: str) -> str:
    text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 9):
        text += f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join(["*" + chr(96 + i)] * 10) + "]\n"
    return text + f"{key}: *i\n"


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_an_alias_bomb_is_refused_quickly(kind, tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb("properties" if kind == "properties" else "statements"))
    start = time.monotonic()
    error = refused(kind, path)
    assert "expands to more than" in str(error)
    assert time.monotonic() - start < 10


def test_a_value_in_a_message_is_cut(tmp_path):
    path = tmp_path / "s.yaml"
    text = Q09.read_text()
    source = next(line for line in text.splitlines() if line.startswith("source:"))
    path.write_text(text.replace(source, "source: *s").replace("name: Q09", "name: &s [" + ", ".join(["w"] * 500)
                                                                 + "]\n# Q09", 1))
    error = refused("scenario", path)
    assert "a list of 500 items" in str(error) and len(str(error)) < 300


# ---- messages that crashed -----------------------------------------------------------------------
def test_unknown_keys_of_mixed_types_are_reported(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text() + "1: one\nfoo: two\n")
    assert "unknown key 1" in str(refused("scenario", path))


# ---- patterns -------------------------------------------------------------------------------------
@pytest.mark.parametrize("pattern", ["{event: skip_turn, player: C}", "{event: move, to: library}",
                                     "{event: break, frame: outer}", "{event: choose_shields, shields: 5}",
                                     "{event: shield_trigger, ability: S-Triger}"])
def test_a_typo_in_a_pattern_is_an_error_not_a_pass(pattern, tmp_path):
    """A typo in a pattern is refused: it would make `never_order` hold vacuously (exit 0), or crash."""
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("      - {event: skip_turn}", "      - " + pattern))
    code, _, err = run("explore", str(path))
    assert code == 2, err
    assert f"{path}:20:" in err


# ---- formulas -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["true) (exit) (assert true", "true) (set-option :timeout 1", "true false",
                                  "(and true", ")", ""])
def test_a_formula_is_one_term_and_nothing_after_it(text):
    with pytest.raises(FormulaError):
        one_term(text)


@pytest.mark.parametrize("text", ["true", "(>= breaks_now 0)", "(= x \"a ) b\")", "|odd ) name|", "; note\ntrue"])
def test_one_term_accepts_strings_quoted_symbols_and_comments(text):
    one_term(text)


def test_a_smuggled_command_in_a_property_file_is_refused(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PROPERTY.format(formula="'true) (exit) (assert true'"))
    code, _, err = run("check", str(Q09), "--properties", str(path))
    assert code == 2 and f"{path}:7:" in err and "exactly one term" in err


# ---- flags --------------------------------------------------------------------------------------
@pytest.mark.parametrize("flag,value", [("--max-states", "-1"), ("--max-depth", "-1"), ("--max-seconds", "-1"),
                                        ("--max-seconds", "nan"), ("--solver-timeout", "-5")])
def test_a_negative_or_nan_limit_is_refused_before_any_work(flag, value):
    code, out, err = run("check", str(Q09), flag, value)
    assert code == 2 and flag in err and out == ""


def test_graph_into_a_missing_folder_is_refused_before_any_work(tmp_path):
    code, out, err = run("explore", str(Q09), "--graph", str(tmp_path / "nowhere" / "g.graphml"))
    assert code == 2 and "does not exist" in err and out == ""


# ---- rulings ------------------------------------------------------------------------------------
def test_a_statement_that_ends_before_it_starts_is_an_error(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(STATEMENT.format(extra="    unchecked: test\n    from: 2024-01-01\n    until: 2023-06-01\n"))
    error = refused("rulings", path)
    assert error.line == 8 and "T1@TEST" in str(error)


def test_a_bad_scenario_path_names_the_rulings_file_and_the_statement(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(STATEMENT.format(extra="    scenarios: [missing.yaml]\n"))
    error = refused("rulings", path)
    assert error.line == 6 and "T1@TEST" in str(error) and "missing.yaml" in str(error)


# ---- unclear messages ----------------------------------------------------------------------------
def test_a_custom_tag_is_named_without_ruamel_internals(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("name: Q09", "name: !custom Q09"))
    error = str(refused("scenario", path))
    assert "!custom" in error and "Tagged" not in error and ":1:" in error


def test_an_impossible_date_says_so(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("rules: 2024-06-19", "rules: 2023-02-30"))
    assert "2023-02-30 is not a real date" in str(refused("scenario", path))


def test_deep_nesting_is_refused_fast_with_its_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: x\nturn: A\nplayers: " + "[" * 50_000 + "]" * 50_000 + "\n")
    start = time.monotonic()
    error = refused("scenario", path)
    assert error.line == 3 and "nested more than" in str(error)
    assert time.monotonic() - start < 10


def test_a_missing_card_file_names_the_scenario_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("turn: A", "cards: [mine.yaml]\nturn: A"))
    error = refused("scenario", path)
    assert error.line == 4 and "mine.yaml" in str(error) and "not found" in str(error)


def test_a_directory_is_called_a_directory(tmp_path):
    # a directory is accepted as scenario FILE (its *.yaml); with none in it, it is named
    code, _, err = run("explore", str(tmp_path))
    assert code == 2 and str(tmp_path) in err and "directory" in err
    # where one file is expected (a property file), a directory is called what it is
    code, _, err = run("check", str(Q09), "--properties", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_a_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlio, "MAX_FILE_BYTES", 100)
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text())
    assert "the limit is 100" in str(refused("scenario", path))


# ---- names that refer to nothing ------------------------------------------------------------------
@pytest.mark.parametrize("pattern,words", [
    ("{event: declare, card: Kakumeijin, ability: Ninja Strike}", "Kakumeijin has no Ninja Strike ability"),
    ("{event: declare, ability: Blocker}", "'Blocker'"),
    ("{event: fizzle, ability: G-Strike}", "'G-Strike'"),
    ("{event: shield_trigger, ability: S-Trigger}", "no card of the scenario has S-Trigger"),
    ("{event: cast, card: Aqua Surfer}", "the scenario has no Aqua Surfer"),
    ("{event: cast, card: Boil Charger#2}", "one Boil Charger"),
    ("{event: break, shield: Vanilla#33}", "32 copies of Vanilla"),
    ("{event: break, shield: Vanilla#02}", "copy number"),
    ("{event: resolve, ability: Bucket Bucket/shield_saver}", "the scenario has no Bucket Bucket"),
    ("{event: replace, by: cannot be broken}", "Unbreakable"),
    ("{event: replace, by: The Watch}", "expected Card/ability"),
    ("{event: break, frame: 2}", "no frame 2"),
    ("{event: choose_shields, frame: 0}", "frame >= 1"),
    ("{event: expire, effect: Power Attacker}", "no card of the scenario has Power Attacker"),
])
def test_a_pattern_naming_nothing_of_the_scenario_is_an_error(pattern, words, tmp_path):
    """Each of these would match no event, so the `never_order` would hold: exit 0, 'every trace checked'."""
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("      - {event: skip_turn}", "      - " + pattern))
    code, out, err = run("explore", str(path))
    assert code == 2 and out == "", err
    assert f"{path}:20: expect[3].never_order[0]." in err and words in err, err


@pytest.mark.parametrize("item,words", [
    ("never: {hand: {B: [Aqua Surfer]}}", "the scenario has no Aqua Surfer"),
    ("never: {uses: {The Watch/skip: 1}}", "did you mean 'skip_turn'"),
    ("always: {graveyard: {A: [Boil Chargr]}}", "did you mean 'Boil Charger'"),
])
def test_an_outcome_naming_nothing_of_the_scenario_is_an_error(item, words, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(Q09.read_text().replace("  - never: {turn_skipped: true, shields_broken: 1}", "  - " + item))
    code, _, err = run("explore", str(path))
    assert code == 2 and f"{path}:16:" in err and words in err, err


def test_the_scenario_s_own_names_still_load():
    """The names a ruling's patterns use are all there: the Q09 file itself loads unchanged."""
    scenario = load_scenario(Q09)
    assert [e.kind for e in scenario.expect][-1] == "never_order"


@pytest.mark.parametrize("card,words", [("Nope", "unknown card |Nope|"), ("Kakumeijn", "did you mean 'Kakumeijin'"),
                                        ("kakumeijin", "write |Kakumeijin|"), ("Vanilla#x", "copy number")])
def test_a_property_naming_a_card_of_no_pool_is_an_error(card, words, tmp_path):
    """`|Nope|` would make the property 'not applicable' to every scenario: nothing checked, exit 0."""
    path = tmp_path / "p.yaml"
    path.write_text(PROPERTY.format(formula=f"'(= (post.zone_of |{card}|) hand)'"))
    code, out, err = run("check", str(Q09), "--properties", str(path))
    assert code == 2 and out == "" and f"{path}:7: properties[0].formula:" in err and words in err, err


def test_a_property_naming_a_real_card_a_scenario_lacks_is_not_applicable_there(tmp_path):
    """A property file serves many scenarios (docs/properties.md): a card of a scenario's own card file
    is known when that scenario is checked too, and another scenario without it is simply not concerned."""
    path = tmp_path / "p.yaml"
    path.write_text(PROPERTY.format(formula="'(=> (post.in_shields |Stone Shield|) true)'"))
    stone = ROOT / "scenarios" / "rulings" / "Q11e_cannot_be_broken.yaml"
    code, out, err = run("check", str(Q09), str(stone), "--properties", str(path), "--property", "my-prop",
                         "--jobs", "1")
    assert code == 0, err
    assert "my-prop: not applicable (the scenario has no card |Stone Shield|" in out
    assert "ok   my-prop [D4] always/transitions — all" in out, out
    code, _, err = run("check", str(Q09), "--properties", str(path))
    assert code == 2 and "unknown card |Stone Shield|" in err


CARD = """cards:
  - id: test_spell
    name: Test Spell
    type: spell
    cost: 2
    keywords: [{keyword}]
    effect:
{effect}"""


@pytest.mark.parametrize("keyword,effect,words", [
    ("Fire", "      - hand_to_deck_bottom: {count: recovred}", "'recovred' is bound by no earlier instruction"),
    ("Fire", "      - break_shields: {count: 1, by: it}", "'it' is bound by no earlier instruction"),
    ("S-trigger", "      - draw: {count: 1}", "expected 'S-Trigger' exactly"),
    ("Chargr", "      - draw: {count: 1}", "expected 'Charger' exactly"),
])
def test_a_card_file_name_that_refers_to_nothing_is_an_error(keyword, effect, words, tmp_path):
    """Unrefused, the instruction would silently do nothing (an unbound name) and the keyword be read by nothing."""
    path = tmp_path / "cards.yaml"
    path.write_text(CARD.format(keyword=keyword, effect=effect))
    error = refused("cards", path)
    assert words in str(error) and error.line in (6, 8), str(error)


def test_a_race_and_a_bound_name_still_load(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(CARD.format(keyword="Armored Dragon",
                                effect="      - shield_to_hand: {whose: opponent, count: 1, "
                                       "bind: got}\n      - hand_to_deck_bottom: {count: got}"))
    pool = CardPool()
    pool.add_file(path)
    assert pool[pool.resolve("Test Spell")].keywords == ("Armored Dragon",)


def test_a_rulings_file_citing_an_undeclared_public_source_is_an_error(tmp_path):
    """`source: S777` must not load as if a public source of that id existed."""
    from dmcheck.rulings.corpus import builtin_corpus, check_sources
    builtin = builtin_corpus()           # what rulings.verify.load merges a user's file into
    path = tmp_path / "r.yaml"
    path.write_text(STATEMENT.format(extra="    order: [shields_chosen < break]\n").replace("TEST", "S777"))
    with pytest.raises(InputError) as caught:
        check_sources(builtin.merged(load_corpus(path)))
    assert str(path) in str(caught.value) and "S777 is not declared" in str(caught.value)
    path.write_text(STATEMENT.format(extra="    order: [shields_chosen < break]\n").replace("TEST", "S005"))
    check_sources(builtin.merged(load_corpus(path)))    # a declared one is fine


def test_a_misspelt_milestone_or_reading_says_what_was_meant(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(STATEMENT.format(extra="    order: [shields_chosen < brake]\n"))
    assert "did you mean 'break'" in str(refused("rulings", path))
    path.write_text(STATEMENT.format(extra="    order_if: [{when: {nested_other_pendng: all}, order: []}]\n"))
    assert "did you mean 'nested_other_pending'" in str(refused("rulings", path))


# ---- output paths, refused before any work --------------------------------------------------------
SWEEP = ROOT / "scenarios" / "sweeps" / "kakumeijin_nested.yaml"


@pytest.mark.parametrize("argv,words", [
    (["verify", "--sarif", "/nonexistent/x.sarif"], ["--sarif", "/nonexistent", "does not exist"]),
    (["verify", "--junit", "{tmp}"], ["--junit", "is a directory"]),
    (["verify", "--write-baseline", "/proc/dmcheck-known.json"],
     ["--write-baseline", "no file can be created in /proc"]),
    (["verify", "--sarif", "{tmp}/a.out", "--junit", "{tmp}/a.out"], ["--junit", "also written by --sarif"]),
    (["explore", str(Q09), "--html", "{tmp}/no/page.html"], ["--html", "does not exist"]),
    (["check", str(Q09), "--html", "/proc/version"], ["--html", "cannot be opened for writing"]),
    (["explore", str(Q09), "--html", str(Q09)], ["--html", "also an input file"]),
    (["sweep", str(SWEEP), "--db", "/proc/dmcheck.sqlite"], ["--db", "/proc"]),
    (["sweep", str(SWEEP), "--db", "{tmp}"], ["--db", "is a directory"]),
    (["sweep", str(SWEEP), "--db", str(SWEEP)], ["--db", "also an input file"]),
])
def test_an_output_path_that_cannot_be_written_is_refused_before_any_work(argv, words, tmp_path):
    """`verify --sarif /nonexistent/x.sarif` must not run the whole verify and then end in a traceback."""
    start = time.monotonic()
    code, out, err = run(*[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("dmcheck: ") and all(w in err for w in words), err
    assert time.monotonic() - start < 5, "refused only after the work"
    assert list(tmp_path.iterdir()) == []      # nothing created, not even a trial file


def test_a_folder_without_write_permission_is_named(tmp_path, monkeypatch):
    """As root every folder is writable, so the permission check is made to see a read-only folder."""
    import dmcheck.cli.options as options
    real = options.os.access
    monkeypatch.setattr(options.os, "access", lambda p, mode: False if str(p) == str(tmp_path) else real(p, mode))
    code, out, err = run("verify", "--junit", str(tmp_path / "out.xml"))
    assert code == 2 and f"no permission to create files in {tmp_path}" in err, err
    template = tmp_path / "t.yaml"
    template.write_text(SWEEP.read_text())
    code, out, err = run("sweep", str(template))            # the default --db, beside the template
    assert code == 2 and "the default database, beside the template; give --db" in err, err


def test_a_writable_output_is_still_written(tmp_path):
    code, _, err = run("explore", str(Q09), "--graph", str(tmp_path / "g.dot"))
    assert code == 0 and (tmp_path / "g.dot").read_text().startswith("digraph"), err
