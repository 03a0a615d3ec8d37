"""The model contract: actions are deterministic, step is pure, states are immutable and hashable,
every card stays in exactly one zone — checked with hypothesis over random scenarios."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.cards import CardPool
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario import Expectation, PlayerSetup, Scenario
from dmcheck.properties.expectations import check

POOL = CardPool.builtin()
ATTACKERS = ["kakumeijin", "bolshack_rider", "max_the_johnny", "savark", "jolly", "vanilla_w", "vanilla_t", "vanilla",
             "zardicrica"]
SPELLS = ["texas_storm", "boil_charger", "winter_spiral", "kankuro_blaster", "emergency_typhoon", "gushat_shield",
          "terror_pit", "jester_brain"]
SHIELDS = ["vanilla", "aqua_surfer", "emergency_typhoon", "terror_pit", "vanilla", "bolshack_gs", "sekigan",
           "cambiare", "ochappi", "bucket_bucket", "viola"]
CREATURES = ["kobo", "the_watch", "draw_on_enter", "vanilla", "aqua_surfer"]
DEFENDERS = CREATURES + ["bucket_bucket", "skull_moon", "neverlast", "dark_lupia", "emeraruda"]
ZONES = ("deck", "hand", "mana", "shields", "battle", "graveyard", "resolving", "standby", "attached")


@st.composite
def scenarios(draw) -> Scenario:
    attacker = draw(st.sampled_from(ATTACKERS))
    a = PlayerSetup(
        battle=(attacker,) + tuple(draw(st.lists(st.sampled_from(CREATURES), max_size=2))),
        hand=tuple(draw(st.lists(st.sampled_from(SPELLS), max_size=3))),
        mana=("vanilla",) * draw(st.integers(0, 7)),
        graveyard=tuple(draw(st.lists(st.sampled_from(SPELLS), max_size=1))),
        deck=tuple(draw(st.lists(st.sampled_from(["vanilla", "bolshack_rider", "winter_spiral"]),
                                 min_size=0, max_size=5))),
    )
    b_battle = tuple(draw(st.lists(st.sampled_from(DEFENDERS), max_size=2)))
    b_shields = tuple(draw(st.lists(st.sampled_from(SHIELDS), max_size=4)))
    extras = []
    if b_battle and draw(st.booleans()):
        extras.append(("battle", 0, draw(st.sampled_from(["aura", "seal", "under"])),
                       draw(st.sampled_from(["code_1059", "bolshack_gs", "vanilla"]))))
    if b_shields and draw(st.booleans()):
        extras.append(("shields", 0, "castle", "hustle_castle"))
    b = PlayerSetup(battle=b_battle, shields=b_shields, deck=("vanilla",) * 3, extras=tuple(extras),
                    hand=tuple(draw(st.lists(st.sampled_from(["ochappi", "seisai_z", "vanilla"]), max_size=2))),
                    graveyard=tuple(draw(st.lists(st.sampled_from(["grouljenerade", "aqua_surfer"]), max_size=1))))
    a_extras = (("battle", 0, "ex_life", "vanilla"),) if attacker == "zardicrica" else ()
    a = dataclasses.replace(a, extras=a_extras)
    return Scenario(name="random", turn="A", players={"A": a, "B": b}, attacker=attacker, attacker_index=0,
                    defender="B", pool=POOL,
                    rules=draw(st.sampled_from([None, dt.date(2021, 1, 1), dt.date(2023, 1, 1)])),
                    readings={"break_replacement_timing": draw(st.sampled_from(["at_break", "before_triggers"])),
                                    "nested_other_pending": draw(st.sampled_from(["all", "inner_only"]))})


def _zone_ids(state) -> list[int]:
    return [cid for z in state.zones for zone in ZONES for cid in getattr(z, zone)]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_actions_deterministic_and_step_pure(scenario):
    model = BreakModel(scenario)
    twin = BreakModel(scenario)
    graph = explore(model, Limits(max_states=1500))
    assert model.initial_state() == twin.initial_state()
    for state in graph.states[:300]:
        actions = model.actions(state)
        assert actions == model.actions(state) == twin.actions(state)
        assert bool(actions) != state.over          # terminal exactly when no action is left
        hash(state)
        for action in actions:
            first = model.step(state, action)
            assert first == model.step(state, action) == twin.step(state, action)
            assert first[0].fingerprint() == twin.step(state, action)[0].fingerprint()


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_every_card_is_in_exactly_one_zone(scenario):
    model = BreakModel(scenario)
    graph = explore(model, Limits(max_states=1500))
    everyone = sorted(i.id for i in model.instances)
    for state in graph.states:
        assert sorted(_zone_ids(state)) == everyone


def test_states_are_frozen():
    scenario = Scenario(name="x", turn="A", players={"A": PlayerSetup(battle=("kakumeijin",)), "B": PlayerSetup()},
                        attacker="kakumeijin", attacker_index=0, defender="B", pool=POOL)
    state = BreakModel(scenario).initial_state()
    try:
        state.turn = "B"
    except AttributeError:   # a read-only field (dataclasses' FrozenInstanceError is one too)
        pass
    else:
        raise AssertionError("State must be immutable")


def test_identical_shields_are_chosen_once():
    # five blank shields, W-breaker: one canonical choice, not C(5,2) = 10
    scenario = Scenario(name="x", turn="A", players={"A": PlayerSetup(battle=("vanilla_w",)), "B": PlayerSetup()},
                        attacker="vanilla_w", attacker_index=0, defender="B", pool=POOL)
    model = BreakModel(scenario)
    assert len(model.actions(model.initial_state())) == 1
    # with one Aqua Surfer among them: {Aqua, blank} or {blank, blank}
    scenario = dataclasses.replace(scenario, players={"A": scenario.players["A"],
                                                      "B": PlayerSetup(shields=("aqua_surfer",) + ("vanilla",) * 4)})
    model = BreakModel(scenario)
    assert len(model.actions(model.initial_state())) == 2


def test_identical_cards_with_different_roles_are_offered_apart():
    # Two Ochappi in B's hand, one declared for its S-Back (SC2). When Emergency Typhoon makes B discard,
    # discarding the declared one (its S-Back then fizzles, SC4) and discarding the other (the S-Back
    # is used) are different choices: both must be explored.
    scenario = Scenario(name="roles", turn="A", pool=POOL, attacker="kakumeijin", attacker_index=0, defender="B",
                        players={"A": PlayerSetup(battle=("kakumeijin",), deck=("vanilla",)),
                                 "B": PlayerSetup(hand=("ochappi", "ochappi"), deck=("vanilla",) * 3,
                                                  shields=("emergency_typhoon", "ochappi"))})
    graph = explore(BreakModel(scenario))

    def possible(*patterns) -> bool:
        item = Expectation("possible_order", [dict(p) for p in patterns], {})
        return check(graph, item).holds

    declared = {"event": "declare", "card": "Ochappi#1", "ability": "S-Back"}
    discard = lambda card: {"event": "move", "card": card, "from": "hand", "to": "graveyard"}  # noqa: E731
    assert possible(declared, discard("Ochappi#1"), {"event": "fizzle", "card": "Ochappi#1"})
    assert possible(declared, discard("Ochappi#2"),
                    {"event": "shield_trigger", "card": "Ochappi#1", "ability": "S-Back"})
