"""Dragheart super creatures (808.1-808.1e) and the cells of super creatures (806.1d): the card word `link` on a
fortress, cell escape (`cell_escape`), no summoning sickness (model/legality.py `dragheart_super`) and the
loader's checks of a cell. Expected values come from the rule text of the comprehensive rules Ver.1.48
(2025-12-17, S340) and dmwiki.net's "スーパー龍解" (S600), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import legality
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import hyperspatial
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import Task

PILES = ROOT / "scenarios" / "piles"


def _scenario(stem: str) -> Path:
    (path,) = PILES.glob(f"{stem}_*.yaml")
    return path


@pytest.mark.parametrize("stem", ["DX01", "DX02"])
def test_the_dragheart_super_creature_scenarios_hold(stem):
    assert set(verdicts(_scenario(stem))) == {"holds"}


def test_dx01_fails_when_a_dragheart_super_creature_is_summoning_sick(monkeypatch):
    # 808.1a: not sick; sick like its fortresses' arrival this turn (807.5a), Soul Dragon could never attack
    monkeypatch.setattr(legality.Legality, "dragheart_super", lambda self, s, c: False)
    assert "violated" in verdicts(_scenario("DX01"))


def test_dx01_fails_without_the_link(monkeypatch):
    # 808.1, 701.18a: without the link no fortress turns over and no Soul Dragon ever attacks
    monkeypatch.setattr(hyperspatial, "_partners", lambda m, s, task, ins: None)
    assert "violated" in verdicts(_scenario("DX01"))


def test_dx02_fails_without_cell_escape(monkeypatch):
    # 808.1b: without the split the destruction is replaced by nothing: Soul Dragon stays, never a fortress again
    monkeypatch.setattr(hyperspatial, "split", lambda m, s, owner, top, choice, to, out, kind: s)
    assert "violated" in verdicts(_scenario("DX02"))


def test_dx02_fails_when_the_chosen_card_goes_to_the_graveyard(monkeypatch):
    # 808.1b: the card chosen returns to the hyperspatial zone itself, not by way of the graveyard (806.1b's way)
    real = hyperspatial.split
    monkeypatch.setattr(hyperspatial, "split", lambda m, s, owner, top, choice, to, out, kind:
                        real(m, s, owner, top, choice, "graveyard", out, kind))
    assert "violated" in verdicts(_scenario("DX02"))


def test_the_link_lays_the_dragheart_cell_under_one_creature():
    # 808.1, 701.18b: one creature: the fortress's cell lies under Soul Dragon, no creature of the battle zone
    model = BreakModel(load_scenario(_scenario("DX01")))
    s = model.initial_state()
    red = next(i.id for i in model.instances if i.label == "Soul Fort Red")
    cell = next(i.id for i in model.instances if i.label == "Soul Dragon Cell")
    task = Task(program=(), pc=0, controller="A", source=red, ability="Soul Fort Red/super_dragsolution")
    out: list = []
    after = hyperspatial._link(model, s, task, model.card(red).abilities[0].effect[0], None, out)
    z, top = after.zone("A"), model.faces[red]
    assert top in z.battle and cell in z.attached and (cell, top, "under") in z.links and cell not in z.battle
    assert [e.rule for e in out if e.kind == "link"] == ["R808.1"]
    assert model.dragheart_super(after, top) and not model.dragheart_super(s, red)


_FORT = """cards:
  - id: fort
    name: Fort
    type: {kind}
    cost: 3
    back:
      name: Fort Cell
      cost: {cost}
      cell: true
{extra}"""


@pytest.mark.parametrize("kind,cost,extra,key,rule", [
    ("dragheart_fortress", 2, "", "cards[0].back.cost", "808.1c"),
    ("psychic_creature", 4, "      power: 1000\n", "cards[0].back.cost", "806.1d"),
    ("dragheart_fortress", 0, "      races: [Armored Dragon]\n", "cards[0].back.races", "808.1c"),
])
def test_the_loader_refuses_a_cell_with_a_cost_or_a_dragheart_cell_with_a_race(tmp_path, kind, cost, extra, key,
                                                                                 rule):
    # 806.1d, 808.1c: a cell alone has no cost (0); a dragheart cell alone has no race
    cards = tmp_path / "cards.yaml"
    power = "    power: 1000\n" if kind == "psychic_creature" else ""
    cards.write_text(_FORT.format(kind=kind, cost=cost, extra=extra).replace("    cost: 3\n", "    cost: 3\n" + power),
                     encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    (error,) = caught.value.all()
    assert key in str(error) and rule in str(error), str(error)


def test_the_loader_takes_a_dragheart_cell_of_cost_0(tmp_path):
    # 808.1: a dragheart fortress's back face may be a dragheart cell
    cards = tmp_path / "cards.yaml"
    cards.write_text(_FORT.format(kind="dragheart_fortress", cost=0, extra="      power: 1000\n"), encoding="utf-8")
    pool = CardPool()
    pool.add_file(cards)
    assert pool["fort:back"].cell


def test_fb01_fails_when_forbidden_release_turns_nothing_over(monkeypatch):
    # 701.25a: forbidden release turns the forbidden pulse over to its other face; without it FB01's pulse stays
    from dmcheck.model.instructions import seals
    monkeypatch.setattr(seals, "flip", lambda m, s, card, out, kind=None: s)
    assert "violated" in verdicts(ROOT / "scenarios" / "attack" / "FB01_forbidden_release_when_the_last_seal_leaves"
                                  ".yaml")


# ---- 806.2a, 804.4a: a creature of three cards split in two while attacking -----------------------------------
def test_the_split_scenarios_hold():
    assert set(verdicts(_scenario("PS12"))) == {"holds"}
    assert set(verdicts(_scenario("GD10"))) == {"holds"}


def test_sx01_fails_unless_the_attacker_picks_the_creature_that_goes_on_attacking(monkeypatch):
    # 806.2a: without the pick the attack goes to one fixed card, never to the other creature that stays
    real = hyperspatial._cells_options
    monkeypatch.setattr(hyperspatial, "_cells_options", lambda m, s, task, top, attack=False: real(m, s, task, top))
    assert "violated" in verdicts(_scenario("PS12"))


def test_gd10_fails_unless_the_attacker_picks_the_god_that_goes_on_attacking(monkeypatch):
    # 804.4a: without the pick the part of the card that stood for the God keeps the attack, never the other
    from dmcheck.model import gods
    real = gods.split
    monkeypatch.setattr(gods, "split", lambda s, owner, head, out_card, keeper=-1: real(s, owner, head, out_card))
    assert "violated" in verdicts(_scenario("GD10"))


def test_a_destroy_attempt_on_a_row_of_three_gods_reaches_its_far_end():
    # the property fact `host_attempted` follows a chain of links (Trio God Right lies on Middle, on Left)
    from dmcheck.properties.facts import _host_attempted
    model = BreakModel(load_scenario(_scenario("GD10")))
    s = model.initial_state()
    ids = {i.label: i.id for i in model.instances}
    from dmcheck.model.instructions.registry import instr, push
    s = push(s, Task(program=(instr("_god_leaves", card=ids["Trio God Left"], to="graveyard", destroy=True),), pc=0,
                     controller="A", source=ids["Trio God Left"], ability="x"))
    assert {ids["Trio God Middle"], ids["Trio God Right"]} <= _host_attempted(s)


def test_a_cell_has_the_civilizations_of_its_super_creature():
    # 808.1e (806.1f for psychic cells): Soul Dragon Cell, of no civilization of its own, is Fire under Soul Dragon
    from dmcheck.model.instructions.selection import civilizations
    model = BreakModel(load_scenario(_scenario("DX01")))
    s = model.initial_state()
    red = next(i.id for i in model.instances if i.label == "Soul Fort Red")
    cell = next(i.id for i in model.instances if i.label == "Soul Dragon Cell")
    task = Task(program=(), pc=0, controller="A", source=red, ability="Soul Fort Red/super_dragsolution")
    after = hyperspatial._link(model, s, task, model.card(red).abilities[0].effect[0], None, [])
    assert model.card(cell).civs() == () and civilizations(model, after, cell) == ("Fire",)


def test_a_psychic_cell_has_the_civilizations_of_its_super_creature(tmp_path):
    # 806.1f: Trio Gamma Cell (no civilization of its own) is Light under Trio Super, below Trio Beta Cell
    from dmcheck.model.instructions.selection import civilizations
    model = BreakModel(load_scenario(_scenario("PS12")))
    s = model.initial_state()
    alpha = next(i.id for i in model.instances if i.label == "Trio Alpha")
    gamma = next(i.id for i in model.instances if i.label == "Trio Gamma Cell")
    task = Task(program=(), pc=0, controller="A", source=alpha, ability="Trio Alpha/awakening_link")
    after = hyperspatial._link(model, s, task, model.card(alpha).abilities[0].effect[0], None, [])
    assert model.card(gamma).civs() == () and civilizations(model, after, gamma) == ("Light",)


# ---- 804.3a: a God linking between a tapped and an untapped God ------------------------------------------------
def test_gd11_holds():
    assert set(verdicts(_scenario("GD11"))) == {"holds"}


def test_gd11_fails_when_the_god_of_three_keeps_the_left_sides_untapped_state(monkeypatch):
    # 804.3a: untapped like Trio God Left alone, the God of three could attack again after linking
    from dmcheck.model.instructions import god_links
    real = god_links._between

    def untapped(m, s, player, card, choice, out):
        s = real(m, s, player, card, choice, out)
        z = s.zone(player)
        return s.with_zone(player, god_links.replace(z, tapped=tuple(c for c in z.tapped if c != choice[0])))
    monkeypatch.setattr(god_links, "_between", untapped)
    assert "violated" in verdicts(_scenario("GD11"))

