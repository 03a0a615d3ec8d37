"""The model contract: actions are deterministic, step is pure, states are immutable and hashable,
every card stays in exactly one zone — checked with hypothesis over random scenarios."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.bfs import explore
from explorer.limits import Limits
from model.cards import CardPool
from model.procedure import BreakModel
from model.scenario import PlayerSetup, Scenario

POOL = CardPool.builtin()
ATTACKERS = ["kakumeijin", "bolshack_rider", "max_the_johnny", "savark", "jolly", "vanilla_w", "vanilla_t", "vanilla"]
SPELLS = ["texas_storm", "boil_charger", "winter_spiral", "kankuro_blaster", "emergency_typhoon", "gushat_shield",
          "terror_pit"]
SHIELDS = ["vanilla", "aqua_surfer", "emergency_typhoon", "terror_pit", "vanilla"]
CREATURES = ["kobo", "the_watch", "draw_on_enter", "vanilla", "aqua_surfer"]


@st.composite
def scenarios(draw) -> Scenario:
    attacker = draw(st.sampled_from(ATTACKERS))
    a = PlayerSetup(
        battle=(attacker,) + tuple(draw(st.lists(st.sampled_from(CREATURES), max_size=2))),
        hand=tuple(draw(st.lists(st.sampled_from(SPELLS), max_size=3))),
        mana=("vanilla",) * draw(st.integers(0, 7)),
        graveyard=tuple(draw(st.lists(st.sampled_from(SPELLS), max_size=1))),
        deck=tuple(draw(st.lists(st.sampled_from(["vanilla", "bolshack_rider", "winter_spiral"]), min_size=0, max_size=5))),
    )
    b = PlayerSetup(
        battle=tuple(draw(st.lists(st.sampled_from(CREATURES), max_size=2))),
        shields=tuple(draw(st.lists(st.sampled_from(SHIELDS), max_size=4))),
        deck=("vanilla",) * 3,
    )
    return Scenario(name="random", turn="A", players={"A": a, "B": b}, attacker=attacker, attacker_index=0,
                    defender="B", pool=POOL)


def _zone_ids(state) -> list[int]:
    out = []
    for z in state.zones:
        for field in dataclasses.fields(z):
            value = getattr(z, field.name)
            if isinstance(value, tuple):
                out.extend(value)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    except dataclasses.FrozenInstanceError:
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
