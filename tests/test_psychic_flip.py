"""Double-sided psychic creatures (805.1-805.6): awakening and release turn the card over, the `flip` card
word (model/instructions/hyperspatial.py). Expected values come from the rule text of the comprehensive rules
Ver.1.48 (2025-12-17, S340) and the pages the scenarios cite, not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import hyperspatial
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import Task, replace

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "psychic.yaml"
FLIPS = sorted(p for p in ATTACK.glob("PS*.yaml") if p.stem[:4] in ("PS04", "PS05", "PS06", "PS07", "PS08"))


_verdicts = verdicts   # tests/conftest.py


def _scenario(stem: str) -> Path:
    (path,) = [p for p in FLIPS if p.stem.startswith(stem)]
    return path


def test_the_four_flip_scenarios_are_there():
    assert [p.stem[:4] for p in FLIPS] == ["PS04", "PS05", "PS06", "PS07", "PS08"]


@pytest.mark.parametrize("path", FLIPS, ids=lambda p: p.stem)
def test_each_flip_scenario_fails_when_nothing_turns_over(path, monkeypatch):
    # without the flip, Bolshack Dragon stays itself (PS04), Mobius stays Mobius (PS05), Waking Probe breaks one
    # shield (PS06), Dozing Probe, put this turn, never attacks (PS07), Mobius is never Bolshack Dragon (PS08)
    monkeypatch.setattr(hyperspatial, "flip", lambda m, s, card, out: s)
    assert "violated" in _verdicts(path)


def test_ps04_fails_when_the_turned_creature_is_untapped(monkeypatch):
    # 805.5: a tapped psychic creature that awakens stays tapped; untapped, Mobius could attack again this turn
    real = hyperspatial.flip

    def untapping(m, s, card, out):
        s = real(m, s, card, out)
        face, owner = m.faces[card], m.owner(card)
        z = s.zone(owner)
        return s.with_zone(owner, replace(z, tapped=tuple(c for c in z.tapped if c != face)))
    monkeypatch.setattr(hyperspatial, "flip", untapping)
    assert "violated" in _verdicts(_scenario("PS04"))


def test_ps07_fails_when_the_awakened_face_is_summoning_sick(monkeypatch):
    # 805.6: an awakened psychic creature is not summoning sick; sick like the face that arrived this turn,
    # Wide-Awake Probe could never attack
    real = hyperspatial.flip

    def sick(m, s, card, out):
        arrived = card in s.entered
        s = real(m, s, card, out)
        return replace(s, entered=tuple(sorted(s.entered + (m.faces[card],)))) if arrived else s
    monkeypatch.setattr(hyperspatial, "flip", sick)
    assert "violated" in _verdicts(_scenario("PS07"))


def test_ps06_fails_when_the_attack_does_not_follow_the_turned_creature(monkeypatch):
    # 805.5's example: the attack of a psychic creature that turns over goes on; kept on the face that left, the
    # attacking creature would be nowhere and Awake Probe would not be the attacker at the end of the attack
    real = hyperspatial.flip

    def lost(m, s, card, out):
        attacker = s.attacker
        s = real(m, s, card, out)
        return replace(s, attacker=attacker)
    monkeypatch.setattr(hyperspatial, "flip", lost)
    assert "violated" in _verdicts(_scenario("PS06"))


def test_the_back_face_is_a_card_of_its_own_that_names_its_front():
    # 805.1, 805.2: both faces are creatures with their own characteristics, each turning into the other
    pool = CardPool.builtin()
    pool.add_file(CARDS)
    front = pool[pool.resolve("Bolshack Dragon of Space-Time")]
    back = pool[pool.resolve("Bolshack Mobius")]
    assert (front.cost, front.power, front.breaker, front.awakened) == (7, 6000, 2, False)
    assert (back.cost, back.power, back.breaker, back.awakened) == (14, 12000, 3, True)
    assert front.flips_to == back.id and back.flips_to == front.id
    assert back.psychic and back.type == "creature"
    assert [a.replaces for a in back.abilities] == ["self_leave"] and not back.abilities[0].optional


def test_each_face_has_an_instance_and_one_of_the_two_is_somewhere(tmp_path):
    # 400.1 with 805.1: the card is in one place, with one face up; the scenario may start with either face
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Vanilla], hyperspatial: [Bolshack Mobius]}}
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    model = BreakModel(load_scenario(path))
    mobius = next(i.id for i in model.instances if i.label == "Bolshack Mobius")
    dragon = model.faces[mobius]
    assert model.label(dragon) == "Bolshack Dragon of Space-Time" and model.faces[dragon] == mobius
    z = model.initial_state().zone("A")
    assert mobius in z.hyperspatial and dragon not in z.hyperspatial
    assert _verdicts(path) == ["holds"]


def test_the_loader_refuses_a_back_face_on_a_card_that_is_no_psychic_creature(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text("""cards:
  - id: two_faced
    name: Two Faced
    type: creature
    cost: 3
    power: 1000
    back: {name: Other Face, cost: 5, power: 5000}
""", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    (error,) = caught.value.all()
    assert error.line == 7 and "cards[0].back" in str(error) and "805.1" in str(error), str(error)


def test_the_loader_refuses_a_back_face_with_a_key_of_the_whole_card(tmp_path):
    # the back face is a creature of the card: it has no id, type or spell side of its own
    cards = tmp_path / "cards.yaml"
    cards.write_text("""cards:
  - id: psy
    name: Psy
    type: psychic_creature
    cost: 3
    power: 1000
    back: {name: Psy Awake, cost: 5, power: 5000, type: creature}
""", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    assert any("back" in str(e) and e.line == 7 for e in caught.value.all()), str(caught.value)


def test_ps08_fails_when_a_released_face_is_summoning_sick(monkeypatch):
    # 805.6a: turned over by release, a psychic creature there since the turn began gets no new sickness
    real = hyperspatial.flip

    def sick(m, s, card, out):
        s = real(m, s, card, out)
        return replace(s, entered=tuple(sorted(s.entered + (m.faces[card],))))
    monkeypatch.setattr(hyperspatial, "flip", sick)
    assert "violated" in _verdicts(_scenario("PS08"))


def test_the_loader_refuses_a_back_face_outside_its_two_zones(tmp_path):
    # 805.4b holds for either face: the awakened side is a psychic creature too
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A:
    battle: [Vanilla]
    graveyard: [Bolshack Mobius]
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 7 and "players.A.graveyard[0]" in str(error) and "805.4b" in str(error), str(error)


def test_two_copies_pair_each_front_with_a_back_of_its_own(tmp_path):
    # 805.1: each physical card has its two faces; two copies never share a face
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Vanilla], hyperspatial: [Bolshack Dragon of Space-Time, Bolshack Dragon of Space-Time]}}
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    model = BreakModel(load_scenario(path))
    fronts = [i.id for i in model.instances if i.card == "bolshack_dragon_psychic"]
    backs = {model.faces[c] for c in fronts}
    assert len(fronts) == 2 and len(backs) == 2
    assert {model.instances[b].card for b in backs} == {"bolshack_dragon_psychic:back"}
    assert {model.label(b) for b in backs} == {"Bolshack Mobius#1", "Bolshack Mobius#2"}


def test_release_replaces_any_leaving_not_only_a_destruction(tmp_path):
    # 805.1b: release applies when the creature would leave the battle zone by any route (here to the mana zone)
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Bolshack Mobius]}}
  B: {{shields: [Natural Trap]}}
attack: {{attacker: Bolshack Mobius, player: B}}
expect:
  - never: {{mana: {{A: [Bolshack Mobius]}}}}
  - never: {{battle: {{A: []}}}}
  - sometimes: {{battle: {{A: [Bolshack Dragon of Space-Time]}}, mana: {{A: 0}}}}
  - possible_order: [{{event: replace, replaced: leave, card: Bolshack Mobius}}, {{event: flip, how: release}}]
""", encoding="utf-8")
    assert _verdicts(path) == ["holds"] * 4


def test_a_power_change_on_the_front_applies_to_the_awakened_face(tmp_path):
    # 805.5's example: a psychic creature with -2000 until the end of the turn keeps it once turned over; the
    # power read is the new face's (805.3): Bolshack Mobius 12000 - 2000
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Vanilla, {{card: Bolshack Dragon of Space-Time, power: -2000, tapped: true}}]}}
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    model = BreakModel(load_scenario(path))
    s = model.initial_state()
    dragon = next(i.id for i in model.instances if i.label == "Bolshack Dragon of Space-Time")
    mobius = model.faces[dragon]
    assert model.power(s, dragon) == 4000
    out: list = []
    after = hyperspatial.flip(model, s, dragon, out)
    assert model.power(after, mobius) == 10000
    z = after.zone("A")
    assert mobius in z.battle and mobius in z.tapped and dragon not in z.battle
    assert [e.kind for e in out] == ["flip"] and out[0].get("how") == "awaken"


def test_ps09_fails_when_the_awakening_link_makes_nothing(monkeypatch):
    # 805.1c: without the link, Link Probe Alpha attacks as itself and breaks one shield, not Super Probe's three
    monkeypatch.setattr(hyperspatial, "_partners", lambda m, s, task, ins: None)
    assert "violated" in _verdicts(ATTACK / "PS09_linked_super_creature_leaves_as_one_and_its_cards_go_home.yaml")


def test_the_link_makes_one_creature_of_two_cards(tmp_path):
    # 806.1: the psychic super creature is one creature: the partner's other face lies under it as a cell, no
    # creature of the battle zone; the link needs every partner in the battle zone (805.1c)
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Link Probe Alpha], hyperspatial: [Link Probe Beta]}}
  B: {{shields: 3}}
attack: {{attacker: Link Probe Alpha, player: B}}
expect:
  - never_order: [{{event: flip}}]
  - always: {{shields_broken: 1, battle: {{A: [Link Probe Alpha]}}}}
""", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds"]
    model = BreakModel(load_scenario(ATTACK / "PS09_linked_super_creature_leaves_as_one_and_its_cards_go_home.yaml"))
    s = model.initial_state()
    alpha = next(i.id for i in model.instances if i.label == "Link Probe Alpha")
    task = Task(program=(), pc=0, controller="A", source=alpha, ability="Link Probe Alpha/awakening_link")
    ins = model.card(alpha).abilities[0].effect[0]
    after = hyperspatial._link(model, s, task, ins, None, [])
    z = after.zone("A")
    top, cell = model.faces[alpha], next(i.id for i in model.instances if i.label == "Super Probe Cell")
    assert z.battle == (top,) and cell in z.attached and (cell, top, "under") in z.links


# ---- a lone psychic cell (806.1a, 703.4g) -------------------------------------------------------------------
def _lone_cell_scenario(tmp_path: Path) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A:
    battle: [Vanilla]
    hyperspatial: [Link Probe Beta]
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    return path


def test_a_psychic_cell_left_alone_returns_to_the_hyperspatial_zone_between_steps(tmp_path):
    # 806.1a, 703.4g: a cell alone in the battle zone (put there by hand: no card word of the model leaves one
    # alone) goes to its owner's hyperspatial zone before the next step of the procedure
    model = BreakModel(load_scenario(_lone_cell_scenario(tmp_path)))
    s = model.initial_state()
    beta = next(c for c in s.zone("A").hyperspatial if model.label(c) == "Link Probe Beta")
    cell = model.faces[beta]
    z = s.zone("A").remove("hyperspatial", beta).add("battle", cell)
    out: list = []
    after = model._between_steps(s.with_zone("A", z), out)
    assert after is not None and cell in after.zone("A").hyperspatial and cell not in after.zone("A").battle
    assert [(e.kind, e.get("card"), e.get("from"), e.get("to"), e.rule) for e in out] == \
        [("move", "Super Probe Cell", "battle", "hyperspatial", "R806.1a")]


def test_ps10_fails_when_a_psychic_cell_may_stand_alone(monkeypatch):
    # without 806.1a (neither the loader's repair nor the rules' step), the cell would stay beside Vanilla
    from dmcheck.model import homes, positions
    real = homes.strays
    monkeypatch.setattr(positions, "CHECKS", [c for c in positions.CHECKS if c.name != "lone_cell"])
    monkeypatch.setattr(homes, "strays", lambda m, s: tuple(x for x in real(m, s) if not m.card(x[2]).cell))
    (path,) = ATTACK.glob("PS10*.yaml")
    assert "violated" in _verdicts(path)


def test_the_loader_refuses_a_cell_that_is_no_psychic_creatures_back_face(tmp_path):
    # 806.1: a psychic cell is the other face of a psychic creature that links
    cards = tmp_path / "cards.yaml"
    cards.write_text("""cards:
  - id: psy
    name: Psy
    type: psychic_creature
    cost: 3
    power: 1000
    cell: true
""", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    (error,) = caught.value.all()
    assert error.line == 7 and "cards[0].cell" in str(error) and "806.1" in str(error), str(error)


# ---- link release (806.1b, 806.2) ----------------------------------------------------------------------------
def _ps11() -> Path:
    (path,) = ATTACK.glob("PS11*.yaml")
    return path


def test_ps11_fails_without_link_release(monkeypatch):
    # 806.1b: without it, Release Super Probe is destroyed whole and nothing stays in A's battle zone
    from dmcheck.model.instructions import destruction
    monkeypatch.setattr(destruction, "LINK_RELEASE", "no such keyword")
    assert "violated" in _verdicts(_ps11())


def test_ps11_fails_when_the_cards_that_turn_over_are_untapped(monkeypatch):
    # 806.2: the creatures a link release leaves are the same creature, tapped as it was; untapped, the one that
    # stays could attack again this turn
    real = hyperspatial.flip

    def untapping(m, s, card, out, kind=None):
        s = real(m, s, card, out, kind)
        if kind is None:
            return s
        face, owner = m.faces[card], m.owner(card)
        z = s.zone(owner)
        return s.with_zone(owner, replace(z, tapped=tuple(c for c in z.tapped if c != face)))
    monkeypatch.setattr(hyperspatial, "flip", untapping)
    assert "violated" in _verdicts(_ps11())


def test_link_release_hands_the_effects_on_the_super_creature_to_what_stays(tmp_path):
    # 806.2: a power change on the super creature applies to the psychic creature left by the link release
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A:
    battle: [Release Probe Alpha, Release Probe Beta]
  B: {{shields: 1}}
attack: {{attacker: Release Probe Alpha, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    model = BreakModel(load_scenario(path))
    s = model.initial_state()
    z = s.zone("A")
    alpha, beta = sorted(z.battle, key=model.label)
    s = hyperspatial._link(model, s, Task(program=(), pc=0, controller="A", source=alpha, ability="x"),
                           {"with": ["Release Probe Beta"]}, None, [])
    top = model.faces[alpha]
    s = replace(s, powers=((top, -2000),))
    out: list = []
    task = Task(program=(), pc=0, controller="A", source=top, ability="link release")
    after = hyperspatial._link_release(model, s, task, {"card": top, "to": "graveyard"}, (top,), out)
    assert after.zone("A").battle == (beta,) and after.powers == ((beta, -2000),)
    assert model.faces[alpha] in after.zone("A").graveyard
    assert [(e.kind, e.get("how") or e.get("to")) for e in out] == [("move", "graveyard"), ("flip", "link_release")]


def test_link_release_applies_to_a_return_to_the_hand_too(tmp_path):
    # 806.1b: "when it would leave the battle zone", whatever the route: B's Tidal Recall instead of Terror Pit
    text = _ps11().read_text(encoding="utf-8").replace("cards: [cards/psychic.yaml]", f"cards: [{CARDS.as_posix()}]")
    for old, new in (("[Terror Pit, Vanilla, Vanilla]", "[Tidal Recall, Vanilla, Vanilla]"),
                     ("graveyard: {B: [Terror Pit]}", "graveyard: {B: [Tidal Recall]}"),
                     ("to: graveyard}", "to: hand}"),
                     ("from: graveyard, to: hyperspatial", "from: hand, to: hyperspatial")):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    assert set(_verdicts(path)) == {"holds"}


def test_link_release_keeps_pile_cards_follow_under_the_old_destruction_rule():
    """806.1b: the card link release sends away leaves alone and the others stay, turned over; the property
    that a pile's cards follow it (801, 310.8) must read that as a top-only leaving, not a pile torn apart.
    Before 2022-04-08 the leaving card is moved, not destroyed, which is where `verify` found it broken."""
    import json
    import subprocess
    import sys
    path = ROOT / "scenarios/attack/PS11_link_release_returns_one_cell_and_turns_the_rest_over.yaml"
    run = subprocess.run([sys.executable, "-m", "dmcheck", "check", str(path), "--rules", "2022-01-01", "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    verdicts = {p["id"]: p["verdict"] for p in json.loads(run.stdout)["scenarios"][0]["properties"]}
    assert verdicts["pile-cards-follow"] == "holds"
