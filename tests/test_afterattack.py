"""The rest of the attack: the tapped attacker (R506.1), end-of-attack
abilities (R510), "while attacking" effects, blocks and "not blocked", shields moved by effects,
attacker-side break replacements and loops. Expected values are derived by hand from the rulings
(their sources are declared in scenarios/corpus.d/afterattack.yaml and attack.yaml), not copied from the program."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.model.errors import InputError
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

ATTACK = ROOT / "scenarios" / "attack"


def graph_of(path: Path):
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    scenario = load_scenario(path)
    model = BreakModel(scenario)
    return scenario, model, explore(model)


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _holds(path: Path):
    scenario, _, graph = graph_of(path)
    assert graph.complete
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (item.raw, verdict.reason)


# ---- 1. R506.1 (A01): the attack taps the attacker ------------------------------------------------
def test_the_attacker_is_tapped_in_every_end_state():
    _, model, graph = graph_of(ATTACK / "A01_declaration_then_end.yaml")
    assert graph.terminals
    for node in graph.terminals:
        s = graph.state(node)
        assert s.attacker in s.zone(s.turn).tapped


def test_a_tapped_creature_cannot_attack(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nplayers:\n  A: {battle: [{card: Vanilla, tapped: true}]}\n"
                            "attack: {attacker: Vanilla, player: B}\n")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    assert (info.value.line, info.value.key) == (5, "attack.attacker") and "untapped" in info.value.expected


def test_of_two_copies_the_untapped_one_attacks(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nplayers:\n  A: {battle: [{card: Vanilla, tapped: true}, Vanilla]}\n"
                            "  B: {shields: 1}\nattack: {attacker: Vanilla, player: B}\n")
    _, model, graph = graph_of(path)
    s0 = model.initial_state()
    assert s0.attacker not in s0.zone("A").tapped
    for node in graph.terminals:
        s = graph.state(node)
        assert sorted(s.zone("A").tapped) == sorted(s.zone("A").battle)   # both tapped now


# ---- 2. R510 (A12): "at the end of this creature's attack" -------------------------------------------
@pytest.mark.parametrize("name", ["A12a_bolbalzak_end_of_attack.yaml", "A12b_stopped_attack_still_ends.yaml",
                                  "A12f_turn_skipped_no_end_of_attack_ability.yaml"])
def test_end_of_attack_scenarios_hold(name):
    _holds(ATTACK / name)


def _kinds(graph, node):
    return [e.kind for e in graph.trace(node).events()]


def test_the_end_of_attack_ability_resolves_after_the_end_of_attack_event_and_only_then(tmp_path):
    # not blocked (no blocker): every trace is attack ... end_attack, trigger, resolve, then the choice
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n"
                            "  A: {battle: [King Bolbalzak, Bolshack Dragon GS]}\n  B: {shields: 1}\n"
                            "attack: {attacker: King Bolbalzak, player: B}\n")
    _, _, graph = graph_of(path)
    assert len(graph.terminals) == 2   # takes the extra turn or not (optional)
    for node in graph.terminals:
        kinds = _kinds(graph, node)
        end = kinds.index("end_attack")
        assert kinds[end + 1:end + 3] == ["trigger", "resolve"]
        s = graph.state(node)
        assert s.extra_turns in ((), ("A",))
        assert (s.extra_turns == ("A",)) == ("extra_turn" in kinds) == (not s.zone("A").battle)


def test_without_another_dragon_nothing_happens_on_resolution(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n"
                            "  A: {battle: [King Bolbalzak, Vanilla]}\n  B: {shields: 1}\n"
                            "attack: {attacker: King Bolbalzak, player: B}\n")
    _, _, graph = graph_of(path)
    (node,) = graph.terminals
    kinds = _kinds(graph, node)
    assert "resolve" in kinds and "extra_turn" not in kinds
    assert len(graph.state(node).zone("A").battle) == 2


def test_no_end_of_attack_trigger_after_a_turn_skip(tmp_path):
    # Q09's setup (The Watch skips the rest of A's turn when A casts Boil Charger with Kakumeijin's
    # before-break ability), with an attacker that also has an end-of-attack ability
    _write(tmp_path, "cards:\n  - id: eoa_caster\n    name: EOA Caster\n    type: creature\n    cost: 7\n"
                     "    power: 10000\n    breaker: 2\n    modelled: a test probe\n    abilities:\n"
                     "      - id: before_break\n        trigger: before_break\n        effect:\n"
                     "          - cast_free: {from: [hand, graveyard], cost_max: mana, then: deck_bottom, "
                     "optional: true}\n"
                     "      - id: end_of_attack\n        trigger: end_of_attack\n        effect:\n"
                     "          - draw: {count: 1}\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\ncards: [cards.yaml]\nplayers:\n"
                            "  A: {battle: [EOA Caster], hand: [Boil Charger], mana: 5}\n"
                            "  B: {battle: [The Watch], shields: 2}\nattack: {attacker: EOA Caster, player: B}\n")
    _, _, graph = graph_of(path)
    kinds = [_kinds(graph, n) for n in graph.terminals]
    skipped = [k for k in kinds if "skip_turn" in k]
    assert skipped and any("skip_turn" not in k for k in kinds)
    for k in skipped:
        assert "end_attack" not in k and "resolve" not in k[k.index("skip_turn"):]
    for k in kinds:
        if "skip_turn" not in k:   # otherwise the end of the attack comes and the ability resolves
            assert k[k.index("end_attack") + 1:k.index("end_attack") + 3] == ["trigger", "resolve"]


def test_a_malformed_extra_turn_word_exits_2_with_file_line_and_what_is_allowed(tmp_path):
    from dmcheck.main import main
    _write(tmp_path, "cards:\n  - id: probe\n    name: Probe\n    type: creature\n    cost: 1\n    power: 1000\n"
                     "    abilities:\n      - id: eoa\n        trigger: end_of_attack\n        effect:\n"
                     "          - extra_turn: {cost: sacrifice_everything}\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\ncards: [cards.yaml]\nplayers:\n  A: {battle: [Probe]}\n"
                            "attack: {attacker: Probe, player: B}\n")
    err = io.StringIO()
    assert main(["explore", str(path)], io.StringIO(), err) == 2
    text = err.getvalue()
    assert "cards.yaml:11:" in text and "own_creatures_to_deck_bottom" in text, text


# ---- 3. "while attacking" and "until the end of the attack" (A12c, A25) --------------------------------
@pytest.mark.parametrize("name", ["A12g_power_attacker.yaml", "A12c_boost_until_end_of_attack.yaml"])
def test_while_attacking_scenarios_hold(name):
    _holds(ATTACK / name)


def test_power_attacker_applies_while_attacking_and_not_at_the_end_of_the_attack(tmp_path):
    # attacking the player: 3000 + 3000 during the attack; 3000 once the end-of-attack step has come
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n  A: {battle: [Power Attacker Probe]}\n"
                            "  B: {shields: 1}\nattack: {attacker: Power Attacker Probe, player: B}\n")
    _, model, graph = graph_of(path)
    (node,) = graph.terminals
    end = graph.state(node)
    assert end.phase == "end_attack" and model.power(end, end.attacker) == 3000
    first = model.declared(model.initial_state())[0]
    assert first.phase in ("", "attack") and model.power(first, first.attacker) == 6000
    kinds = _kinds(graph, node)
    assert kinds[kinds.index("end_attack") + 1] == "expire"


def test_a_boost_applies_in_the_battle_and_is_gone_at_the_end(tmp_path):
    # 4000 + 3000 = 7000 against a tapped 6000 Vanilla W-breaker: the attacker wins (R508)
    _, model, graph = graph_of(ATTACK / "A12c_boost_until_end_of_attack.yaml")
    (node,) = graph.terminals
    s = graph.state(node)
    assert s.boosts == () and model.power(s, s.attacker) == 4000
    battle = [e for e in graph.trace(node).events() if e.kind == "battle"]
    assert [e.get("winner") for e in battle] == ["Attack Boost Probe"]


@pytest.mark.parametrize("word", ["Power Attacker:+3k", "Power Attacker", "Power Attacker:-1000"])
def test_a_malformed_power_attacker_keyword_names_its_line(tmp_path, word):
    _write(tmp_path, f"cards:\n  - id: probe\n    name: Probe\n    type: creature\n    cost: 1\n    power: 1000\n"
                     f"    keywords: [Fire, '{word}']\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\ncards: [cards.yaml]\nplayers:\n  A: {battle: [Probe]}\n"
                            "attack: {attacker: Probe, player: B}\n")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    assert info.value.line == 7 and "Power Attacker:+N" in info.value.expected


def test_add_power_until_an_unknown_step_is_refused(tmp_path):
    _write(tmp_path, "cards:\n  - id: probe\n    name: Probe\n    type: creature\n    cost: 1\n    power: 1000\n"
                     "    abilities:\n      - id: a\n        trigger: attacks\n        effect:\n"
                     "          - add_power: {power: 2000, until: end_battle}\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\ncards: [cards.yaml]\nplayers:\n  A: {battle: [Probe]}\n"
                            "attack: {attacker: Probe, player: B}\n")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    assert info.value.line == 11 and "end_attack" in info.value.expected, str(info.value)


# ---- 4. R507.3c (A26): "when it blocks", "attacks and is not blocked" ----------------------------------
@pytest.mark.parametrize("name", ["A26_not_blocked.yaml", "A26b_when_it_blocks.yaml"])
def test_block_scenarios_hold(name):
    _holds(ATTACK / name)


def test_not_blocked_triggers_also_when_there_is_no_blocker_at_all(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n  A: {battle: [Unblocked Probe]}\n"
                            "  B: {battle: [Vanilla], shields: 1}\nattack: {attacker: Unblocked Probe, player: B}\n")
    _, _, graph = graph_of(path)
    (node,) = graph.terminals
    kinds = _kinds(graph, node)
    assert kinds[:3] == ["attack", "trigger", "resolve"] and kinds.index("resolve") < kinds.index("break")


def test_not_blocked_never_triggers_for_an_attack_on_a_creature(tmp_path):
    # the wording is "attacks a player and is not blocked": a battle with a tapped creature is not that
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n  A: {battle: [Unblocked Probe]}\n"
                            "  B: {battle: [{card: Vanilla, tapped: true}]}\n"
                            "attack: {attacker: Unblocked Probe, creature: Vanilla}\n")
    _, _, graph = graph_of(path)
    (node,) = graph.terminals
    assert "trigger" not in _kinds(graph, node)
    assert dict(graph.state(node).uses) == {}


def test_a_blocker_whose_block_ability_removes_it_ends_the_attack_without_a_battle(tmp_path):
    # R505.6a: the attack is on the blocker; if the blocker has left when the battle would come, the
    # attack ends at once (the end-of-attack step still comes)
    _write(tmp_path, "cards:\n  - id: shy\n    name: Shy Blocker\n    type: creature\n    cost: 2\n    power: 9000\n"
                     "    keywords: [Blocker]\n    modelled: test probe\n    abilities:\n      - id: leave\n"
                     "        trigger: blocks\n        effect:\n          - destroy_self: {}\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\ncards: [cards.yaml]\nplayers:\n"
                            "  A: {battle: [Vanilla W-breaker]}\n  B: {battle: [Shy Blocker], shields: 2}\n"
                            "attack: {attacker: Vanilla W-breaker, player: B}\n")
    _, _, graph = graph_of(path)
    blocked = [n for n in graph.terminals if graph.state(n).blocked]
    assert len(blocked) == 1
    kinds = _kinds(graph, blocked[0])
    assert "battle" not in kinds and "break" not in kinds and kinds[-1] == "end_attack"


# ---- 5. A20: a card leaving the shield zone by an effect ------------------------------------------------
def test_recovered_shield_scenario_holds():
    _holds(ATTACK / "A20b_recovered_shield_leaves.yaml")


def test_a_shield_put_into_the_hand_by_an_s_trigger_counts_once_and_waits_for_the_uses(tmp_path):
    # 5 shields, no castle: every card that leaves B's shield zone is a shield, so the probe's ability
    # resolves exactly 5 - (shields left) times; the S-Trigger's own shield_to_hand adds one
    _write(tmp_path, "cards:\n  - id: shield_return\n    name: Shield Return\n    type: spell\n    cost: 2\n"
                     "    keywords: [S-Trigger]\n    modelled: test probe\n    effect:\n"
                     "      - shield_to_hand: {whose: own, count: 1}\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\ncards: [cards.yaml]\nplayers:\n"
                            "  A: {battle: [Shield Leave Probe]}\n"
                            "  B: {shields: [Shield Return, Vanilla, Vanilla, Vanilla, Vanilla]}\n"
                            "attack: {attacker: Shield Leave Probe, player: B}\n")
    _, _, graph = graph_of(path)
    counts = set()
    for node in graph.terminals:
        s = graph.state(node)
        n = dict(s.uses).get("Shield Leave Probe/opp_shield_left", 0)
        assert n == 5 - len(s.zone("B").shields)
        counts.add(n)
        events = list(graph.trace(node).events())
        resolves = [i for i, e in enumerate(events) if e.kind == "resolve"]
        uses = [i for i, e in enumerate(events) if e.kind in ("shield_trigger", "cast")]
        assert not uses or not resolves or max(uses) < min(resolves)   # R509.5e: they wait for the uses
    assert counts == {3, 4}   # 3 broken; + 1 when Shield Return is used


# ---- 6. A19, D-6: the attacker's break replacement comes first -------------------------------------------
def test_shield_burn_scenario_holds():
    _holds(ATTACK / "A19_shield_burn_beats_castle.yaml")


def _explore(path: Path, readings: dict | None = None):
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.readings import Readings
    scenario = load_scenario(path)
    return explore(BreakModel(scenario, Readings.make(readings) if readings else None))


@pytest.mark.parametrize("timing", ["at_break", "before_triggers"])
def test_a_shield_saver_cannot_take_a_burnt_shield_under_either_timing(tmp_path, timing):
    # B's Bucket Bucket (Shield Saver: destroy itself instead) would save a shield, but A's burn is
    # decided first (turn player) and one break takes one replacement: the saver stays, no shield
    # reaches the hand, both shields are in B's graveyard
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n  A: {battle: [Bolmeteus White Dragon]}\n"
                            "  B: {battle: [Bucket Bucket], shields: 2}\n"
                            "attack: {attacker: Bolmeteus White Dragon, player: B}\n")
    graph = _explore(path, {"break_replacement_timing": timing})
    assert graph.complete
    for node in graph.terminals:
        z = graph.state(node).zone("B")
        assert len(z.battle) == 1 and not z.shields and not z.hand and len(z.graveyard) == 2


def test_without_the_burn_the_castle_replacement_is_offered(tmp_path):
    # the same position with a plain W-breaker: Silver Glory may replace the break (control case)
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n  A: {battle: [Vanilla W-breaker]}\n"
                            "  B: {shields: [{card: Vanilla, castle: Silver Glory}, Vanilla, Vanilla]}\n"
                            "attack: {attacker: Vanilla W-breaker, player: B}\n")
    graph = _explore(path)
    replaced = {e.get("by") for n in graph.terminals for e in graph.trace(n).events() if e.kind == "replace"}
    assert "Silver Glory/break_replacement" in replaced


def test_a_burnt_shield_leaves_the_shield_zone_once_with_its_castle(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n"
                            "  A: {battle: [Bolmeteus White Dragon, Shield Leave Probe]}\n"
                            "  B: {shields: [{card: Vanilla, castle: Silver Glory}, Vanilla]}\n"
                            "attack: {attacker: Bolmeteus White Dragon, player: B}\n")
    graph = _explore(path)
    for node in graph.terminals:
        assert dict(graph.state(node).uses) == {"Shield Leave Probe/opp_shield_left": 3}   # 2 shields + castle


# ---- 7. loops (A27, D-8) ---------------------------------------------------------------------------------
def test_forced_loop_scenario_holds():
    _holds(ATTACK / "A27_forced_loop.yaml")


def test_the_forced_loop_is_found_with_one_round_of_single_choices():
    _, model, graph = graph_of(ATTACK / "A27_forced_loop.yaml")
    assert graph.complete and not graph.terminals
    (loop,) = graph.loops
    assert loop.forced
    for node, index in loop.path:
        assert len(model.actions(graph.state(node))) == 1 and index == 0
    # one round: each Phoenix comes back once and destroys the other once (2 resolutions), then the
    # position is the one the round started from, with the two resolutions counted on top
    trace = graph.trace(loop.entry, list(loop.path))
    steps = trace.steps[-len(loop.path):]
    resolved = [e.get("ability") for s in steps for e in s.events if e.kind == "resolve"]
    assert resolved == ["Phoenix Probe/rebirth", "Phoenix Probe/rebirth"]
    last, index = loop.path[-1]
    after = model.step(graph.state(last), model.actions(graph.state(last))[index])[0]
    start = graph.state(loop.entry)
    assert model.position(after) == model.position(start) and after != start
    assert dict(after.uses)["Phoenix Probe/rebirth"] == dict(start.uses)["Phoenix Probe/rebirth"] + 2


def test_a_loop_a_player_can_leave_is_not_an_outcome(tmp_path):
    # the same probes but "may come back": the owner can stop the loop, so every run ends in a state
    _write(tmp_path, "cards:\n  - id: may_phoenix\n    name: May Phoenix\n    type: creature\n    cost: 5\n"
                     "    power: 5000\n    modelled: test probe\n    abilities:\n      - id: rebirth\n"
                     "        trigger: destroyed\n        effect:\n          - put_self_into_battle: {}\n"
                     "          - destroy: {whose: opponent}\n", "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\ncards: [cards.yaml]\nplayers:\n"
                            "  A: {battle: [May Phoenix]}\n  B: {battle: [{card: May Phoenix, tapped: true}]}\n"
                            "attack: {attacker: May Phoenix, creature: May Phoenix}\n")
    _, _, graph = graph_of(path)
    assert graph.complete and graph.terminals
    assert graph.loops and not any(loop.forced for loop in graph.loops)
    assert all(o["loop"] is False for o, _, _ in graph.outcomes())


class _Toy:
    """A toy model (no game): 0 -> 1 -> 2 -> 1 with one action each, and 0 -> 3 (terminal)."""
    succ = {0: [1, 3], 1: [2], 2: [1], 3: []}

    def initial_state(self):
        return 0

    def actions(self, s):
        return tuple(range(len(self.succ[s])))

    def step(self, s, a):
        return self.succ[s][a], ()

    def outcome(self, s):
        return {"state": s, "loop": False}


def test_the_explorer_finds_an_exact_forced_cycle_in_any_model():
    from dmcheck.explorer.bfs import explore
    graph = explore(_Toy())
    (loop,) = graph.loops
    assert loop.forced and loop.entry == graph.states.index(1)
    assert [graph.states[n] for n, _ in loop.path] == [1, 2]
    assert sorted((o["state"], o["loop"]) for o, _, _ in graph.outcomes()) == [(1, True), (3, False)]


class _Counter(_Toy):
    """0 -> (1, k) -> (2, k) -> (1, k + 1) ...: a counter grows each round; `position` drops it."""

    def initial_state(self):
        return (0, 0)

    def actions(self, s):
        return (0,)

    def step(self, s, a):
        place, k = s
        return ((1, k) if place == 0 else (2, k) if place == 1 else (1, k + 1)), ()

    def position(self, s):
        return s[0]

    def outcome(self, s):
        return {"state": s[0], "loop": False}


def test_a_loop_that_only_grows_a_counter_does_not_hang():
    from dmcheck.explorer.bfs import explore
    from dmcheck.explorer.limits import Limits
    graph = explore(_Counter(), Limits(max_states=10_000, max_seconds=20))
    assert graph.complete and graph.count < 100
    (loop,) = graph.loops
    # the round is found where the position first was: (1, 0) or (2, 0), depending on which step of a
    # round reaches the depth where the explorer starts to look (explorer/loops.LOOP_CHECK_DEPTH)
    assert loop.forced and graph.states[loop.entry] in ((1, 0), (2, 0)) and len(loop.path) == 2


# ---- bad input for the new card words -------------------------------------------------------------------
@pytest.mark.parametrize("ability, line, hint", [
    ("      - id: a\n        trigger: end_of_attack\n        effect:\n          - burn_shield: {}\n", 10, "self_break"),
    ("      - id: a\n        replaces: self_break\n        effect:\n          - burn_shield: {shield: 1}\n", 11,
     "burn_shield"),
    ("      - id: a\n        trigger: not_blockd\n        effect:\n          - draw: {count: 1}\n", 9, "not_blocked"),
])
def test_malformed_new_card_words_name_file_line_and_what_is_allowed(tmp_path, ability, line, hint):
    from dmcheck.main import main
    _write(tmp_path, "cards:\n  - id: probe\n    name: Probe\n    type: creature\n    cost: 1\n    power: 1000\n"
                     "    abilities:\n" + ability, "cards.yaml")
    path = _write(tmp_path, "name: x\nturn: A\ncards: [cards.yaml]\nplayers:\n  A: {battle: [Probe]}\n"
                            "attack: {attacker: Probe, player: B}\n")
    err = io.StringIO()
    assert main(["explore", str(path)], io.StringIO(), err) == 2
    text = err.getvalue()
    assert f"cards.yaml:{line}:" in text and hint in text and "Traceback" not in text, text


def test_in_the_opponents_turn_the_defenders_castle_comes_first(tmp_path):
    # A19 (dmwiki "シールド焼却"): a break in the opponent's turn reverses the priority. Turn A; B's
    # Bolmeteus breaks A's fortified shield by an effect: A (the turn player) decides first and may use
    # Silver Glory; once A has, B's burn has nothing left to replace
    from dmcheck.model.instructions import breaking
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.state import Frame, replace
    path = _write(tmp_path, "name: x\nturn: A\nrules: 2024-06-19\nplayers:\n"
                            "  A: {battle: [Vanilla], shields: [{card: Vanilla, castle: Silver Glory}, Vanilla]}\n"
                            "  B: {battle: [{card: Bolmeteus White Dragon, tapped: true}]}\n"
                            "attack: {attacker: Vanilla, player: B}\n")
    model = BreakModel(load_scenario(path))
    s = model.initial_state()
    bolmeteus = s.zone("B").battle[0]
    fortified = next(h for c, h, k in s.zone("A").links if k == "castle")
    frame = Frame(by=bolmeteus, by_creature=True, defender="A", chosen=(fortified,), is_attack=False)
    s = replace(s, frames=(frame,))
    order = [ins.get("who") for ins in breaking.decision_program(model, s, frame)]
    assert order == ["A", "B"]
    castle = breaking.replace_options(model, s, frame, fortified, "A")
    assert [o[0][0].label for o in castle if o[0] != breaking.NONE] == ["Silver Glory/break_replacement"]
    burn = breaking.replace_options(model, s, frame, fortified, "B")
    assert [o[0][0].label for o in burn] == ["Bolmeteus White Dragon/shield_burn"]   # mandatory: no "none"
    done = replace(frame, replaced=((fortified, castle[0][0][0]),))
    assert breaking.replace_options(model, replace(s, frames=(done,)), done, fortified, "B") == []
