"""The bad-input corpus: malformed and hostile scenario, card, property, rulings and sweep template
files, and flags, including names that refer to nothing, output paths that cannot be written and
absurd sizes. Every case must exit 2 with the file (and its line where there is one) in the message,
never a traceback, never a silent default.

The files live under tests/data/bad/corpus/<kind>/. Card files are loaded through a small scenario
written in a temporary folder that lists them; property files through `check --properties`;
rulings files through `verify --rulings`; sweep templates through `sweep --db` (never written).
"""

from __future__ import annotations

import io

import pytest
from conftest import DATA, ROOT

from dmcheck.main import main

# slow: the whole corpus of 225 bad inputs (test_bad_input_classes.py keeps one per class in the default
# run); CI runs it (pytest -m slow)
pytestmark = pytest.mark.slow

CORPUS = DATA / "bad" / "corpus"
Q09 = str(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml")

# (kind, file, line or None, words the message must contain)
CASES = [
    ('scenario', 'latin1.yaml', 1, ['not UTF-8']),
    ('scenario', 'utf16.yaml', None, ['UTF-16']),
    ('scenario', 'utf16_no_bom.yaml', 1, ['binary or UTF-16']),
    ('scenario', 'binary.yaml', 3, ['binary']),
    ('scenario', 'custom_tag.yaml', 14, ['tag !custom', 'not supported']),
    ('scenario', 'python_tag.yaml', 14, ['tag', 'not supported']),
    ('scenario', 'alias_bomb.yaml', 5, ['expands to more than']),
    ('scenario', 'recursive_alias.yaml', 14, ['recursive alias']),
    ('scenario', 'deep_nesting.yaml', 1, ['nested more than']),
    ('scenario', 'mixed_keys.yaml', 14, ['unknown key 1']),
    ('scenario', 'impossible_date.yaml', 14, ['2023-02-30 is not a real date']),
    ('scenario', 'timestamp.yaml', 14, ['time of day']),
    ('scenario', 'huge_number.yaml', 14, ['too large']),
    ('scenario', 'yaml_syntax.yaml', None, ['YAML syntax']),
    ('scenario', 'duplicate_key.yaml', 14, ['YAML syntax']),
    ('scenario', 'empty.yaml', None, ['']),
    ('scenario', 'top_list.yaml', 1, ['']),
    ('scenario', 'a_directory', None, ['a directory with no *.yaml file']),
    ('cards', 'latin1.yaml', 1, ['not UTF-8']),
    ('cards', 'utf16.yaml', None, ['UTF-16']),
    ('cards', 'utf16_no_bom.yaml', 1, ['binary or UTF-16']),
    ('cards', 'binary.yaml', 3, ['binary']),
    ('cards', 'custom_tag.yaml', 7, ['tag !custom', 'not supported']),
    ('cards', 'python_tag.yaml', 7, ['tag', 'not supported']),
    ('cards', 'alias_bomb.yaml', 5, ['expands to more than']),
    ('cards', 'recursive_alias.yaml', 7, ['recursive alias']),
    ('cards', 'deep_nesting.yaml', 1, ['nested more than']),
    ('cards', 'mixed_keys.yaml', 7, ['unknown key 1']),
    ('cards', 'impossible_date.yaml', 7, ['2023-02-30 is not a real date']),
    ('cards', 'timestamp.yaml', 7, ['time of day']),
    ('cards', 'huge_number.yaml', 7, ['too large']),
    ('cards', 'yaml_syntax.yaml', None, ['YAML syntax']),
    ('cards', 'duplicate_key.yaml', 7, ['YAML syntax']),
    ('cards', 'empty.yaml', None, ['']),
    ('cards', 'top_list.yaml', 1, ['']),
    ('cards', 'a_directory', None, ['is a directory']),
    ('properties', 'latin1.yaml', 1, ['not UTF-8']),
    ('properties', 'utf16.yaml', None, ['UTF-16']),
    ('properties', 'utf16_no_bom.yaml', 1, ['binary or UTF-16']),
    ('properties', 'binary.yaml', 3, ['binary']),
    ('properties', 'custom_tag.yaml', 8, ['tag !custom', 'not supported']),
    ('properties', 'python_tag.yaml', 8, ['tag', 'not supported']),
    ('properties', 'alias_bomb.yaml', 5, ['expands to more than']),
    ('properties', 'recursive_alias.yaml', 8, ['recursive alias']),
    ('properties', 'deep_nesting.yaml', 1, ['nested more than']),
    ('properties', 'mixed_keys.yaml', 8, ['unknown key 1']),
    ('properties', 'impossible_date.yaml', 8, ['2023-02-30 is not a real date']),
    ('properties', 'timestamp.yaml', 8, ['time of day']),
    ('properties', 'huge_number.yaml', 8, ['too large']),
    ('properties', 'yaml_syntax.yaml', None, ['YAML syntax']),
    ('properties', 'duplicate_key.yaml', 8, ['YAML syntax']),
    ('properties', 'empty.yaml', None, ['']),
    ('properties', 'top_list.yaml', 1, ['']),
    ('properties', 'a_directory', None, ['is a directory']),
    ('rulings', 'latin1.yaml', 1, ['not UTF-8']),
    ('rulings', 'utf16.yaml', None, ['UTF-16']),
    ('rulings', 'utf16_no_bom.yaml', 1, ['binary or UTF-16']),
    ('rulings', 'binary.yaml', 3, ['binary']),
    ('rulings', 'custom_tag.yaml', 7, ['tag !custom', 'not supported']),
    ('rulings', 'python_tag.yaml', 7, ['tag', 'not supported']),
    ('rulings', 'alias_bomb.yaml', 5, ['expands to more than']),
    ('rulings', 'recursive_alias.yaml', 7, ['recursive alias']),
    ('rulings', 'deep_nesting.yaml', 1, ['nested more than']),
    ('rulings', 'mixed_keys.yaml', 7, ['unknown key 1']),
    ('rulings', 'impossible_date.yaml', 7, ['2023-02-30 is not a real date']),
    ('rulings', 'timestamp.yaml', 7, ['time of day']),
    ('rulings', 'huge_number.yaml', 7, ['too large']),
    ('rulings', 'yaml_syntax.yaml', None, ['YAML syntax']),
    ('rulings', 'duplicate_key.yaml', 7, ['YAML syntax']),
    ('rulings', 'empty.yaml', None, ['']),
    ('rulings', 'top_list.yaml', 1, ['']),
    ('rulings', 'a_directory', None, ['is a directory']),
    ('scenario', 'float_shields.yaml', 10, ['players.B.shields', '2.0']),
    ('scenario', 'float_mana_zone.yaml', 7, ['players.A.mana', '5.0']),
    ('scenario', 'float_expect_mana.yaml', 13, ['mana.A', '2.0']),
    ('scenario', 'float_expect_shields.yaml', 13, ['shields.B', '1.5']),
    ('scenario', 'float_shields_broken.yaml', 13, ['shields_broken', '1.0']),
    ('scenario', 'float_uses.yaml', 13, ['uses', '2.0']),
    ('scenario', 'inf_shields.yaml', 10, ['players.B.shields', 'inf']),
    ('scenario', 'nan_mana.yaml', 7, ['players.A.mana', 'nan']),
    ('scenario', 'bool_shields.yaml', 10, ['players.B.shields', 'True']),
    ('scenario', 'negative_shields.yaml', 10, ['players.B.shields']),
    ('scenario', 'billion_shields.yaml', 10, ['players.B.shields', '100']),
    ('scenario', 'over_2_63_shields.yaml', 10, ['too large']),
    ('scenario', 'hex_huge_mana.yaml', 7, ['too large']),
    ('scenario', 'deck_101.yaml', 11, ['players.B.deck', '100']),
    ('scenario', 'hand_list_101.yaml', 6, ['players.A.hand', 'at most 100']),
    ('scenario', 'shields_broken_huge.yaml', 13, ['shields_broken', '10000']),
    ('scenario', 'uses_huge.yaml', 13, ['uses', '10000']),
    ('scenario', 'choose_shields_number.yaml', 13, ['shields', 'a list']),
    ('scenario', 'player_c.yaml', 13, ['player', 'A, B', "'C'"]),
    ('scenario', 'to_library.yaml', 13, ['to', 'library', 'graveyard']),
    ('scenario', 'from_library.yaml', 13, ['from', 'library']),
    ('scenario', 'frame_outer.yaml', 13, ['frame', 'whole number', 'outer']),
    ('scenario', 'frame_negative.yaml', 13, ['frame']),
    ('scenario', 'frame_float.yaml', 13, ['frame', '1.0']),
    ('scenario', 'controller_x.yaml', 13, ['controller', "'X'"]),
    ('scenario', 'replaced_typo.yaml', 13, ['replaced', 'breaks']),
    ('scenario', 'face_down_text.yaml', 13, ['face_down', 'true or false']),
    ('scenario', 'declared_ability_typo.yaml', 13, ['ability', 'S-Trigger', 'S-Triger']),
    ('scenario', 'unknown_event.yaml', 13, ['event', 'explode']),
    ('scenario', 'event_wrong_key.yaml', 13, ["unknown key 'card' for a win event"]),
    ('scenario', 'declare_unknown_ability.yaml', 12,
     ['Revolution Chnage', 'Revolution Change', 'Invasion', 'Ninja Change']),
    ('scenario', 'pattern_not_mapping.yaml', 13, ['never_order[0]']),
    ('scenario', 'pattern_unknown_card.yaml', 13, ["unknown card 'Nope Card'"]),
    ('scenario', 'pattern_ability_no_slash.yaml', 13, ['Card/ability']),
    ('scenario', 'pattern_mixed_keys.yaml', 13, ['unknown key']),
    ('scenario', 'players_mixed_keys.yaml', 8, ['players', 'unknown key 1']),
    ('scenario', 'outcome_mixed_keys.yaml', 13, ['unknown key']),
    ('scenario', 'outcome_unknown_key.yaml', 13, ['winnr']),
    ('scenario', 'outcome_empty.yaml', 13, ['at least one key']),
    ('scenario', 'expect_two_kinds.yaml', 13, ['one of always']),
    ('scenario', 'expect_not_list.yaml', 12, ['expect', 'a list']),
    ('scenario', 'expect_mana_unknown_card.yaml', 13, ['unknown card']),
    ('scenario', 'alias_type_error.yaml', 2, ['expected text', 'a list of 500 items']),
    ('scenario', 'long_value_cut.yaml', 7, ['players.A.mana', '...']),
    ('scenario', 'impossible_rules_date.yaml', 2, ['2023-02-30 is not a real date']),
    ('scenario', 'quoted_impossible_rules_date.yaml', 2, ['rules', 'YYYY-MM-DD']),
    ('scenario', 'rules_with_time.yaml', 2, ['time of day']),
    ('scenario', 'rules_list.yaml', 2, ['rules', 'YYYY-MM-DD']),
    ('scenario', 'missing_card_file.yaml', 2, ['cards[0]', 'no_such_cards.yaml', 'not found']),
    ('scenario', 'card_file_is_directory.yaml', 2, ['cards[0]', 'is a directory']),
    ('scenario', 'turn_c.yaml', 2, ['turn', 'A, B']),
    ('scenario', 'name_number.yaml', 1, ['name', 'expected text']),
    ('scenario', 'interpretation_unknown.yaml', 2, ['no_such_choice']),
    ('scenario', 'restriction_locked_type.yaml', 14, ['locked_types', 'monster']),
    ('scenario', 'aura_number.yaml', 9, ['battle']),
    ('scenario', 'undefined_alias.yaml', 1, ['YAML syntax']),
    ('scenario', 'tab_indent.yaml', 7, ['YAML syntax']),
    ('scenario', 'complex_key.yaml', 14, ['unknown key']),
    ('scenario', 'two_documents.yaml', 14, ['YAML syntax']),
    ('scenario', 'null_root.yaml', 1, ['empty']),
    ('scenario', 'attack_self.yaml', 11, ['non-turn player']),
    ('scenario', 'source_mapping.yaml', 2, ['source']),
    # names that refer to nothing the scenario holds: each would make a pattern match nothing
    ('scenario', 'declare_ability_card_lacks.yaml', 13, ['Kakumeijin has no Ninja Strike', 'with Ninja Strike: none']),
    ('scenario', 'declare_ability_nobody_has.yaml', 13, ['no card of the scenario has S-Trigger']),
    ('scenario', 'declare_engine_keyword.yaml', 13, ['ability', "'Charger'", 'S-Trigger']),
    ('scenario', 'pattern_card_not_in_scenario.yaml', 13, ['no Aqua Surfer', 'Boil Charger, Kakumeijin, The Watch']),
    ('scenario', 'pattern_copy_missing.yaml', 13, ['32 copies of Vanilla', 'Vanilla#32']),
    ('scenario', 'pattern_copy_of_single_card.yaml', 13, ['one Boil Charger', 'named Boil Charger']),
    ('scenario', 'outcome_card_not_in_scenario.yaml', 13, ['hand.B[0]', 'no Aqua Surfer']),
    ('scenario', 'uses_card_not_in_scenario.yaml', 13, ['uses', 'no Bucket Bucket']),
    ('scenario', 'replace_by_triggered.yaml', 13, ['no replacement ability', 'triggered ability']),
    ('scenario', 'replace_by_free_text.yaml', 13, ['by', "'Shield Saver'", 'cannot be broken']),
    ('scenario', 'frame_no_nested_break.yaml', 13, ['frame', 'R603.7b']),
    ('scenario', 'expire_effect_typo.yaml', 13, ['effect', "'Power Atacker'", 'Power Attacker']),
    ('scenario', 'cast_a_creature.yaml', 13, ['Kakumeijin is a creature', 'spell']),
    ('cards', 'float_cost.yaml', 5, ['cost', '2.0']),
    ('cards', 'huge_cost.yaml', 5, ['cost', '1000']),
    ('cards', 'over_2_63_power.yaml', 6, ['too large']),
    ('cards', 'breaker_thousand.yaml', 7, ['breaker', '100']),
    ('cards', 'negative_cost.yaml', 5, ['cost']),
    ('cards', 'draw_huge.yaml', 7, ['draw.count', '1000']),
    ('cards', 'draw_float.yaml', 7, ['count', '1.0']),
    ('cards', 'unknown_instruction.yaml', 7, ["unknown instruction 'teleport'"]),
    ('cards', 'instruction_number_key.yaml', 7, ['unknown instruction 5']),
    ('cards', 'instruction_mixed_keys.yaml', 7, ['unknown key']),
    ('cards', 'instruction_not_mapping.yaml', 7, ['one instruction']),
    ('cards', 'effect_on_creature.yaml', 7, ['only a spell']),
    ('cards', 'ability_without_trigger.yaml', 7, ['trigger or replaces']),
    ('cards', 'ability_unknown_trigger.yaml', 7, ['sneeze']),
    # hidden-zone declarations: a malformed condition, an ability without its condition
    ('cards', 'revolution_change_condition_not_a_list.yaml', 11, ['revolution_change.any_of', 'expected a list']),
    ('cards', 'invasion_condition_unknown_key.yaml', 11, ["unknown key 'colour'", 'all_of, any_of, cost_min']),
    ('cards', 'invasion_without_condition.yaml', 10, ['needs a `invade` instruction']),
    ('cards', 'bad_id.yaml', 2, ['id']),
    ('cards', 'duplicate_id.yaml', 7, ['defined twice']),
    ('cards', 'name_clash_builtin.yaml', 2, ['already belongs']),
    ('cards', 's_trigger_if_float.yaml', 7, ['shields_at_most', '1.0']),
    ('cards', 'keywords_not_list.yaml', 7, ['keywords', 'a list']),
    ('cards', 'type_monster.yaml', 4, ['type', 'monster']),
    ('cards', 'cards_not_list.yaml', 1, ['cards', 'a list']),
    # names a card file uses that refer to nothing: the instruction or keyword would do nothing
    ('cards', 'bind_unbound.yaml', 7, ['hand_to_deck_bottom.count', "'recoverd'", 'bound by no earlier']),
    ('cards', 'bind_in_if_done.yaml', 8, ['if_done[0]', "'recovered'", 'runs on its own']),
    ('cards', 'break_by_it_unbound.yaml', 7, ['break_shields.by', "'it'", 'deck_top_and_back']),
    ('cards', 'keyword_lowercase.yaml', 7, ["'s-trigger'", "'S-Trigger' exactly"]),
    ('cards', 's_back_without_civilization.yaml', 7, ["'S-Back'", 'S-Back:<civ>']),
    ('cards', 'keyword_misspelt.yaml', 7, ["'Blockr'", "'Blocker'"]),
    ('properties', 'formula_exit_injection.yaml', 7, ['formula', 'exactly one term']),
    ('properties', 'formula_two_terms.yaml', 7, ['formula', 'exactly one term']),
    ('properties', 'formula_unbalanced.yaml', 7, ['formula', 'not closed']),
    ('properties', 'formula_extra_paren.yaml', 7, ['formula', 'exactly one term']),
    ('properties', 'formula_empty.yaml', 7, ['formula', 'empty']),
    ('properties', 'formula_unknown_symbol.yaml', 7, ['formula']),
    ('properties', 'formula_too_deep.yaml', 7, ['formula', 'nested more than']),
    ('properties', 'formula_number.yaml', 7, ['formula', 'expected text']),
    ('properties', 'formula_set_option.yaml', 7, ['formula', 'exactly one term']),
    ('properties', 'kind_unknown.yaml', 5, ['kind', 'usually']),
    ('properties', 'over_unknown.yaml', 6, ['over', 'moments']),
    ('properties', 'id_with_space.yaml', 2, ['id']),
    ('properties', 'citations_empty.yaml', 4, ['citations']),
    ('properties', 'since_impossible_date.yaml', 8, ['2023-02-30 is not a real date']),
    ('properties', 'since_text.yaml', 8, ['rules.since', 'YYYY-MM-DD']),
    ('properties', 'duplicate_id.yaml', 8, ['already taken']),
    ('properties', 'builtin_id.yaml', 2, ['already taken']),
    ('properties', 'unknown_key.yaml', 8, ['colour']),
    ('properties', 'needs_unknown.yaml', 8, ['needs', 'magic']),
    # a card in no pool is a typo, not "not applicable"
    ('properties', 'formula_unknown_card.yaml', 7, ['formula', 'unknown card |Nope|', 'built-in pool']),
    ('properties', 'formula_card_pool_id.yaml', 7, ['formula', '|kakumeijin|', 'write |Kakumeijin|']),
    ('properties', 'formula_card_copy_zero.yaml', 7, ['formula', '|Vanilla#0|', 'copy number']),
    ('rulings', 'until_before_from.yaml', 8, ['until', 'T1@TEST', 'not after']),
    ('rulings', 'until_equals_from.yaml', 8, ['until', 'not after']),
    ('rulings', 'missing_scenario.yaml', 6, ['T1@TEST', 'no_such_scenario.yaml', 'not found']),
    ('rulings', 'scenario_is_directory.yaml', 6, ['T1@TEST', 'is a directory']),
    ('rulings', 'impossible_statement_date.yaml', 4, ['2023-02-30 is not a real date']),
    ('rulings', 'date_with_time.yaml', 4, ['time of day']),
    ('rulings', 'date_text.yaml', 4, ['date', 'YYYY-MM-DD']),
    ('rulings', 'from_quoted_impossible.yaml', 7, ['from', 'YYYY-MM-DD']),
    ('rulings', 'bad_constraint.yaml', 6, ['order[0]', 'MILESTONE']),
    ('rulings', 'unknown_milestone.yaml', 6, ['explosion']),
    ('rulings', 'order_if_unknown_choice.yaml', 6, ['no_such_choice']),
    ('rulings', 'text_too_short.yaml', 5, ['text']),
    ('rulings', 'duplicate_statement.yaml', 7, ['already stated']),
    ('rulings', 'unknown_key.yaml', 7, ['colour']),
    ('rulings', 'order_scope_bad.yaml', 7, ['order_scope', 'some']),
    ('rulings', 'not_checked.yaml', 2, ['how it is checked']),
    ('rulings', 'id_bad.yaml', 2, ['id']),
    ('rulings', 'statements_empty.yaml', 1, ['statements']),
    ('sweep', 'expect_card_in_no_position.yaml', 10, ['the template (in any position) has no Winter Spiral']),
    ('sweep', 'from_card_typo.yaml', 9, ['vary.B.shields.from[0]', "did you mean 'Vanilla'"]),
    ('sweep', 'compare_choice_typo.yaml', 9, ["did you mean 'nested_other_pending'"]),
    ('sweep', 'three_zones_of_40.yaml', 7, ['1,879,537,767,821 positions', 'the limit is 1,000,000']),
    ('sweep', 'mixed_keys.yaml', 12, ['compare.rules[1]', 'expected a date']),
    ('sweep', 'battle_evolution_alone.yaml', 8, ['vary.B.battle.from[1]', 'nothing to evolve onto (801.1a)']),
    # names a rulings file uses that refer to nothing
    ('rulings', 'milestone_typo.yaml', 6, ["unknown milestone 'brake'", "did you mean 'break'"]),
    ('rulings', 'order_if_reading_typo.yaml', 6, ['nested_other_pending', "'al'", "did you mean 'all'"]),
    ('rulings', 'undeclared_source.yaml', 2, ['source S777 is not declared', 'sources:']),
    # cards made of several cards: what a pile and a twinpact must be
    ('scenario', 'pile_on_a_spell.yaml', 9, ['battle[0].card', 'expected a creature at the base of a pile',
                                             'Terror Pit is a spell']),
    ('scenario', 'pile_base_not_a_creature.yaml', 9, ['under[1]', 'a creature at the bottom of the pile', '801']),
    ('scenario', 'evolution_without_source.yaml', 9, ['battle[1]', 'nothing to evolve onto',
                                                      '{card: Ladia Bale, under: [a creature]}']),
    ('scenario', 'aura_not_an_aura.yaml', 9, ['aura[0]', 'expected an aura', 'Terror Pit is a spell']),
    # a position no game reaches (model/positions.py): every mistake of the position in one run, each with its rule
    ('scenario', 'position_mistakes_together.yaml', 10, ['players.B.battle[0]', '(801.1a)', 'under[1]',
                                                         'expected a castle, Aqua Surfer is a creature (304.2)',
                                                         "unknown key 'winnr'"]),
    ('cards', 'twinpact_without_spell_side.yaml', 4, ['a twinpact has two sides', 'its spell side', 'is missing']),
    ('cards', 'twinpact_without_creature_power.yaml', 4, ["its creature side's power", 'is missing']),
    ('cards', 'spell_side_on_a_creature.yaml', 7, ['only a twinpact has a spell side', 'type: twinpact']),
    ('cards', 'twinpact_spell_side_without_effect.yaml', 7, ['cards[0].spell', "'effect'"]),
    # the rest of the game an attack touches: a power that is not a number, a trigger the card's
    # type cannot have, a hidden-zone use from a zone the card is not used from, no legal attack to choose
    ('scenario', 'power_not_a_number.yaml', 7, ['players.B.battle[0].power', 'whole number', 'minus two thousand']),
    ('scenario', 'choose_no_legal_attack.yaml', 8,
     ['attack.choose', 'no legal attack', 'summoning sickness', 'tapped']),
    ('scenario', 'choose_with_attacker.yaml', 6, ['attack.attacker', '`choose: true`']),
    ('cards', 'evasion_power_not_a_number.yaml', 7, ['keywords[0]', 'Evasion:power<=5000', "'Evasion:power<=lots'"]),
    ('cards', 'power_amount_not_a_number.yaml', 7, ['power.amount', 'whole number', "'-2k'"]),
    ('cards', 'spell_is_attacked.yaml', 8, ['abilities[0].trigger', "a spell cannot have the trigger 'attacked'"]),
    ('cards', 'kirifu_dash_from_graveyard.yaml', 10, ['abilities[0].zone', 'used from the hand', 'graveyard']),
    ('cards', 'oni_end_on_a_creature.yaml', 9, ['abilities[0].trigger', "cannot be used by 'oni_end'", 'spell']),
]

WRAPPER = """name: loads a card file of the bad-input corpus
cards: [{path}]
turn: A
players:
  A:
    battle: [Kakumeijin]
attack: {{attacker: Kakumeijin, player: B}}
"""


def _argv(kind: str, path, tmp_path) -> list[str]:
    if kind == "scenario":
        return ["explore", str(path)]
    if kind == "cards":
        wrapper = tmp_path / "wrapper.yaml"
        wrapper.write_text(WRAPPER.format(path=path), encoding="utf-8")
        return ["explore", str(wrapper)]
    if kind == "properties":
        return ["check", Q09, "--properties", str(path)]
    if kind == "sweep":
        return ["sweep", str(path), "--db", str(tmp_path / "never_written.sqlite")]
    return ["verify", "--summary", "--rulings", str(path)]


def run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, err.getvalue()


@pytest.mark.parametrize("kind,name,line,words", CASES, ids=[f"{c[0]}/{c[1]}" for c in CASES])
def test_bad_file(kind, name, line, words, tmp_path):
    path = CORPUS / kind / name
    code, message = run(_argv(kind, path, tmp_path))
    assert not (tmp_path / "never_written.sqlite").exists()   # a bad template is refused before its database
    assert code == 2, message
    assert "Traceback" not in message
    assert (f"{path}:{line}:" if line else str(path)) in message, message
    for word in words:
        assert word in message, (word, message)
    assert len(message) < 2000, "a message quotes a whole value"


FLAGS = [
    # argv (after the command), words the message must contain
    (["explore", Q09, "--max-states", "-1"], ["--max-states", ">= 1", "-1"]),
    (["explore", Q09, "--max-states", "0"], ["--max-states", ">= 1"]),
    (["explore", Q09, "--max-depth", "-1"], ["--max-depth", ">= 0"]),
    (["explore", Q09, "--max-seconds", "-5"], ["--max-seconds", "> 0"]),
    (["explore", Q09, "--max-seconds", "nan"], ["--max-seconds", "nan"]),
    (["explore", Q09, "--max-seconds", "inf"], ["--max-seconds", "inf"]),
    (["explore", Q09, "--max-seconds", "0"], ["--max-seconds"]),
    (["explore", Q09, "--graph", "/no/such/folder/g.graphml"], ["--graph", "does not exist"]),
    (["explore", Q09, "--graph", str(CORPUS)], ["--graph", "is a directory"]),
    (["explore", Q09, "--rules", "2023-02-30"], ["--rules", "YYYY-MM-DD"]),
    (["explore", Q09, "--rules", "banana"], ["--rules", "banana"]),
    (["explore", Q09, "--interpretation", "no_such=thing"], ["--interpretation", "NAME=READING"]),
    (["explore", Q09, "--replay", "9/9/9"], ["--replay", "step 1"]),
    (["explore", Q09, Q09, "--replay", "0"], ["--replay", "exactly one"]),
    (["explore", str(CORPUS / "scenario")], [str(CORPUS / "scenario"), "is a directory"]),
    (["explore", "/no/such/scenario.yaml"], ["/no/such/scenario.yaml", "not found"]),
    (["check", Q09, "--solver-timeout", "-1"], ["--solver-timeout", ">= 1"]),
    (["check", Q09, "--solver-timeout", "0"], ["--solver-timeout", ">= 1"]),
    (["check", Q09, "--max-seconds", "-1"], ["--max-seconds"]),
    (["check", Q09, "--property", "no-such-property"], ["--property", "unknown property id"]),
    (["check", Q09, "--properties", "/no/such/props.yaml"], ["/no/such/props.yaml", "not found"]),
    (["check"], ["expected at least one scenario"]),
    (["verify", "--max-states", "-1"], ["--max-states"]),
    (["verify", "--max-seconds", "nan"], ["--max-seconds"]),
    (["verify", "--rules", "2023-13-01"], ["--rules", "YYYY-MM-DD"]),
    (["verify", "--rulings", "/no/such/rulings.yaml"], ["/no/such/rulings.yaml", "not found"]),
    (["diff", Q09, "--rules", "2023-01-01", "--rules", "2024-06-19", "--max-seconds", "-1"], ["--max-seconds"]),
    (["diff", Q09, "--rules", "2023-01-01", "--rules", "2024-06-19", "--max-states", "-7"], ["--max-states"]),
    (["diff", Q09, "--rules", "2024-06-19"], ["two different settings"]),
    (["diff", Q09, "--rules", "2024-02-31", "--rules", "2024-06-19"], ["--rules", "YYYY-MM-DD"]),
    # every output path is checked before any work
    (["verify", "--sarif", "/nonexistent/x.sarif"], ["--sarif", "does not exist"]),
    (["verify", "--junit", "/proc/dmcheck.xml"], ["--junit", "no file can be created"]),
    (["verify", "--write-baseline", str(CORPUS)], ["--write-baseline", "is a directory"]),
    (["check", Q09, "--html", "/no/such/folder/page.html"], ["--html", "does not exist"]),
    (["explore", Q09, "--html", Q09], ["--html", "also an input file"]),
    (["sweep", str(CORPUS / "sweep" / "from_card_typo.yaml"), "--db", "/proc/x.sqlite"], ["--db", "/proc"]),
    (["explore", Q09, "--interpretation", "nested_other_pending=al"], ["--interpretation", "did you mean 'all'"]),
]


@pytest.mark.parametrize("argv,words", FLAGS, ids=[" ".join(a[:1] + a[2:] if len(a) > 2 else a) for a, _ in FLAGS])
def test_bad_flag(argv, words):
    code, message = run(argv)
    assert code == 2, message
    assert "Traceback" not in message
    for word in words:
        assert word in message, (word, message)


PARSER_ERRORS = [
    ["explore", Q09, "--max-states", "many"],
    ["explore", Q09, "--max-seconds", "soon"],
    ["check", Q09, "--solver-timeout", "1.5"],
    ["verify", "--max-depth", "3"],
]


@pytest.mark.parametrize("argv", PARSER_ERRORS, ids=[" ".join(a[2:] if len(a) > 2 else a) for a in PARSER_ERRORS])
def test_flag_the_parser_refuses(argv, capsys):
    """argparse refuses what is not a number at all: exit 2 and the flag named, no traceback."""
    with pytest.raises(SystemExit) as stop:
        main(argv, io.StringIO(), io.StringIO())
    assert stop.value.code == 2
    message = capsys.readouterr().err
    assert "Traceback" not in message
    assert argv[-2] in message or "unrecognized" in message


def test_the_corpus_is_large_enough():
    assert len(CASES) + len(FLAGS) + len(PARSER_ERRORS) >= 100
    assert {kind for kind, *_ in CASES} == {"scenario", "cards", "properties", "rulings", "sweep"}
