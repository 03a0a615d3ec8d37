"""The conform protocol (docs/conform.md) for dm_engine, the Python rules engine of the public repository
shockwave199129/duel-masters-ai (read at commit 65f22a1).

dmcheck conform starts this program; it imports the engine from a checkout (`--engine-root`, the
repository's `dm_engine/` folder), builds the engine's GameState at each scenario's position, offers the
engine's own legal actions (`engine.action_generator.get_legal_actions`) translated into dmcheck's
choice labels, applies the one dmcheck picks with `engine.action_executor.execute_action`, and reports
the engine's state at the end. No code of the engine is copied here: it is imported and driven.

What maps (the rest is answered `unsupported`, with the reason: it never guesses):
- cards without abilities or spell effects (the engine's effect executor draws and destroys only, and a
  dmcheck card word has no engine counterpart), creatures and spells only (a twinpact's spell side has
  no counterpart), with the rules keywords Blocker, Speed Attacker, S-Trigger, G-Strike, Slayer (the
  rules since 2004-06-26), Cannot Attack, Cannot Attack Players, Unblockable, breakers (double, triple,
  world), civilizations and races (every word that is no rules keyword: adapters/words.py); any other
  rules keyword (S-Back, whose civilization the engine does not read, Wins All Battles, Power Attacker,
  ...) is unsupported; no cards on cards, no face-up shields, no restrictions, attacks that end with the
  attack (`until: end_attack`);
- the engine's actions of an attack: the attack itself (ATTACK_PLAYER / ATTACK_CREATURE with the
  scenario's attacker), DECLARE_BLOCKER and the PASS that declines to block, SELECT_ATTACK_ORDER (the
  shields its batch breaks), the PASS that attacks a player with no shields, the shield-trigger offers.
  Every other PASS that is the only action (after the declaration, before a battle, a shield with
  nothing to declare going to the hand, the end of the attack) is automatic, as dmcheck runs what needs
  no decision inside a step. Card uids are the scenario's labels, so the engine names cards as dmcheck does.

Usage: python adapters/duel_masters_ai/adapter.py --engine-root PATH/TO/duel-masters-ai/dm_engine
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # adapters/words.py
import words  # noqa: E402

PLAYERS = ("A", "B")
CIVS = {"Fire": "FIRE", "Water": "WATER", "Nature": "NATURE", "Light": "LIGHT", "Darkness": "DARKNESS"}
# dmcheck's rules keywords the engine has a word for, with the same meaning (the others: unsupported)
MECHANICS = {"Blocker": "BLOCKER", "Speed Attacker": "SPEED_ATTACKER", "S-Trigger": "SHIELD_TRIGGER",
             "G-Strike": "G_STRIKE", "Slayer": "SLAYER", "Cannot Attack": "CANNOT_ATTACK",
             "Cannot Attack Players": "CANNOT_ATTACK_PLAYERS", "Unblockable": "CANNOT_BE_BLOCKED"}
ZONES = {"battle", "hand", "mana", "shields", "graveyard", "deck", "tapped", "summoned"}
AUTOMATIC = {"post_declare", "battle", "end_of_attack", "shield_to_hand", "block", "direct_attack"}


class Unsupported(Exception):
    """A position the engine cannot be given faithfully."""


class Adapter:
    def __init__(self, root: str):
        sys.path.insert(0, root)
        from core import cards, enums, player_state, state, zones  # the engine's own modules
        from engine import action_executor, action_generator, shield_resolver
        self.cards, self.enums, self.player_state, self.state_mod, self.zones = cards, enums, player_state, state, zones
        self.execute, self.legal = action_executor.execute_action, action_generator.get_legal_actions
        self.batch = shield_resolver._shield_indices_for_batch
        self.game = None

    # ---- setup --------------------------------------------------------------------------------
    def definition(self, number: int, card: dict, rules: str):
        """The engine's CardDefinition of a dmcheck card definition, or Unsupported (with the reason) for
        anything it cannot carry over faithfully: an ability, an effect, a rules keyword it has no word
        for, a twinpact's second side. Races are every other word (adapters/words.py)."""
        E = self.enums
        if card["type"] == "twinpact":
            raise Unsupported(f"{card['name']} is a twinpact (its spell side {card['spell']['name']} has no "
                              "counterpart: the adapter gives the engine one side only)")
        if card.get("abilities") or card.get("effect") or card.get("s_trigger_if"):
            raise Unsupported(f"{card['name']} has abilities or an effect (card words the engine has no "
                              "counterpart for)")
        kinds = {"creature": E.CardType.CREATURE, "spell": E.CardType.SPELL}
        if card["type"] not in kinds:
            raise Unsupported(f"{card['name']} is a card of type {card['type']} (the engine is given creatures "
                              "and spells)")
        rules_words, civs, races = words.split(card["keywords"])
        civs, races = civs + list(card.get("civilizations") or []), races + list(card.get("races") or [])
        if card["type"] == "creature" and not isinstance(card["power"], int):
            raise Unsupported(f"{card['name']} has the power {card['power']!r}: the engine has no infinite power "
                              "(CardDefinition.power is an int, core/cards.py)")
        keywords = set()
        for name, value in rules_words:
            shown = f"{name}:{value}" if value else name
            if name not in MECHANICS:
                raise Unsupported(f"{card['name']} has {shown} (the engine has no such keyword)")
            if name == "Slayer" and rules < words.SLAYER_SINCE:
                raise Unsupported(f"{card['name']} has Slayer, which under the rules of {rules} destroys only "
                                  "when its creature loses (the engine's Slayer destroys whoever wins)")
            keywords.add(E.Keyword[MECHANICS[name]])
        breaker = {2: "DOUBLE_BREAKER", 3: "TRIPLE_BREAKER"}.get(card["breaker"])
        if card["breaker"] >= 4:
            breaker = "WORLD_BREAKER"
        if breaker:
            keywords.add(E.Keyword[breaker])
        return self.cards.CardDefinition(
            id=number, slug=card["id"], name=card["name"], cost=card["cost"],
            power=card["power"] if card["type"] == "creature" else None, card_type=kinds[card["type"]],
            card_subtype=E.CardSubtype.NONE, civilizations=frozenset(E.Civilization[CIVS[c]] for c in civs),
            races=frozenset(races), keywords=frozenset(keywords), effects=(), evolution_source_races=frozenset(),
            evolution_source_types=frozenset(), is_multiface=False)

    def setup(self, request: dict) -> None:
        position = request["position"]
        if position["until"] != "end_attack":
            raise Unsupported(f"the run goes on until {position['until']}: the adapter plays one attack and stops "
                              "at its end (until: end_attack)")
        if position.get("attacks") is not None:
            raise Unsupported(f"the run allows {position['attacks']} attacks in the turn (`attacks`): the adapter "
                              "plays one attack")
        if any(position["restrictions"].values()):
            raise Unsupported("continuous restrictions (no S-Trigger, locked types)")
        defs = {cid: self.definition(n, card, request["rules"])
                for n, (cid, card) in enumerate(sorted(request["cards"].items()), 1)}
        players = tuple(self.player(i, position, defs) for i in range(2))
        E = self.enums
        turn = PLAYERS.index(position["turn"])
        info = self.state_mod.TurnInfo(turn_number=2, active_player=turn, phase=E.Phase.ATTACK, first_player=1 - turn)
        self.game = Game(self.state_mod.GameState(players=players, turn_info=info), position, turn)
        if position["declaration"] == "automatic":   # dmcheck makes the declaration with the position (not
            # for `chosen`: the first choice picks the attack)
            attack = [a for label, a in self.offers() if label["kind"] == "declare_attack"]
            if not attack:
                raise Unsupported("the engine does not let the scenario's attacker attack its target")
            self.apply(attack[0])

    def player(self, i: int, position: dict, defs: dict):
        """One player's zones as the engine keeps them; every card's uid is its scenario label."""
        z, Z = position["zones"].get(PLAYERS[i], {}), self.zones
        if z.get("links") or z.get("face_up") or z.get("attached"):
            raise Unsupported("cards on cards or face-up shields")
        other = sorted(k for k, cards in z.items() if cards and k not in ZONES)
        if other:
            raise Unsupported(f"cards in {', '.join(other)} (zones the engine's position has no place for)")
        card = lambda label: defs[position["cards"][label]]
        for x in z.get("shields", []):
            if any(k.name == "SHIELD_TRIGGER" for k in card(x).keywords):
                # dmcheck declares a shield's S-Trigger, then uses it (two choices); the engine does both in one
                # USE_SHIELD_TRIGGER action (a G-Strike it only declares: it never uses one, a deviation)
                raise Unsupported(f"{x} in a shield has S-Trigger: the engine declares and uses it in one action "
                                  "(USE_SHIELD_TRIGGER); the adapter does not split that into dmcheck's declaration "
                                  "and use")
        sick = set(z.get("summoned", []))   # put into the battle zone this turn (turn 2 of the engine's game)
        battle = [Z.Creature(definition=card(x), uid=x, is_tapped=x in z.get("tapped", []),
                             has_summoning_sickness=x in sick, entered_turn=2 if x in sick else 0, controller=i,
                             owner=i) for x in z.get("battle", [])]
        return self.player_state.PlayerState(
            player_index=i, player_name=PLAYERS[i],
            hand=[Z.HandCard(definition=card(x), uid=x) for x in z.get("hand", [])],
            deck=[card(x) for x in z.get("deck", [])],
            mana_zone=[Z.ManaCard(definition=card(x), uid=x) for x in z.get("mana", [])],
            battle_zone=battle, shield_zone=[Z.ShieldCard(definition=card(x), uid=x) for x in z.get("shields", [])],
            graveyard=[Z.GraveyardCard(definition=card(x), uid=x) for x in z.get("graveyard", [])], abyss_zone=[])

    # ---- choices ------------------------------------------------------------------------------
    def offers(self) -> list[tuple[dict, object]]:
        """The engine's legal actions here as (dmcheck label, engine action); [] once the attack is over."""
        g = self.game
        self.run_automatic()
        if g.over():
            return []
        out = []
        for action in self.legal(g.state):
            label = self.label(action)
            if label is not None:
                out.append((label, action))
        return out

    def run_automatic(self) -> None:
        """Apply the engine's actions that are no decision: a PASS that is the only legal action."""
        g = self.game
        while not g.over():
            actions = self.legal(g.state)
            if len(actions) != 1 or actions[0].action_type != self.enums.ActionType.PASS:
                return
            step = dict(actions[0].extra).get("step", "")
            if step not in AUTOMATIC or self.is_direct_attack(actions[0]):
                return
            self.apply(actions[0])

    def is_direct_attack(self, action) -> bool:
        g, E = self.game, self.enums
        ctx = g.state.attack_context
        return (g.state.current_phase == E.Phase.DIRECT_ATTACK and action.action_type == E.ActionType.PASS
                and ctx is not None and ctx.is_attacking_player
                and g.state.players[ctx.defending_player].shield_count == 0)

    def label(self, action) -> dict | None:
        """dmcheck's label for one engine action, or None for one outside the scenario's attack."""
        g, E, T = self.game, self.enums, self.enums.ActionType
        who = PLAYERS[action.player]
        kind = action.action_type
        phase = g.state.current_phase
        if phase == E.Phase.ATTACK:
            attack = g.position["attack"]
            if g.attacked:
                return None
            if attack.get("choose"):       # the turn player picks the attack, or none (`declaration: chosen`)
                if kind in (T.ATTACK_PLAYER, T.ATTACK_CREATURE):
                    target = action.target_uid if kind == T.ATTACK_CREATURE else None
                    return _label(who, "choose_attack", "choose_attack", [action.card_uid, target])
                return _label(who, "no_attack", "no_attack", []) if kind == T.PASS else None
            target = attack.get("creature")
            if action.card_uid == attack["attacker"] and (
                    (kind == T.ATTACK_PLAYER and target is None)
                    or (kind == T.ATTACK_CREATURE and action.target_uid == target)):
                return _label(who, "declare_attack", "declare_attack", [])
            return None
        if kind == T.DECLARE_BLOCKER:
            return _label(who, "block", "block", [action.card_uid])
        if kind == T.PASS and phase == E.Phase.BLOCK_DECLARE:
            return _label(who, "no_block", "no_block", [])
        if kind == T.SELECT_ATTACK_ORDER:
            return _label(who, "choose_shields", "choose_shields", self.shields_of(action.shield_index))
        if self.is_direct_attack(action):
            return _label(who, "direct_attack", "direct_attack", [])
        return self.shield_check_label(action, who)

    def shield_check_label(self, action, who: str) -> dict | None:
        """A shield's declaration in the engine (one shield at a time) as dmcheck's `declare` of one card."""
        T = self.enums.ActionType
        if action.action_type == T.USE_SHIELD_TRIGGER and action.choice:
            return _label(who, "choose", "declare", [{"declare": "S-Trigger", "card": action.card_uid}])
        if action.action_type == T.USE_G_STRIKE:
            return _label(who, "choose", "declare", [{"declare": "G-Strike", "card": action.card_uid}])
        if action.action_type == T.USE_S_BACK:
            return _label(who, "choose", "declare", [{"declare": "S-Back", "card": action.card_uid,
                                                       "cost": action.discard_uid}])
        if action.action_type in (T.USE_SHIELD_TRIGGER, T.PASS):
            return _label(who, "choose", "declare", [])
        return None

    def shields_of(self, first: int) -> list[str]:
        """The labels of the shields a SELECT_ATTACK_ORDER breaks: the engine's own batch rule."""
        s = self.game.state
        ctx = s.attack_context
        defender = s.players[ctx.defending_player]
        _, attacker = s.find_creature_anywhere(ctx.attacker_uid)
        count = min(attacker.shields_broken_on_attack(), defender.shield_count)
        return sorted(defender.shield_zone[i].uid for i in self.batch(defender.shield_count, first, count))

    def apply(self, action) -> None:
        g, T = self.game, self.enums.ActionType
        if action.action_type in (T.ATTACK_PLAYER, T.ATTACK_CREATURE):
            g.attacked = True
        elif action.action_type == T.PASS and g.state.current_phase == self.enums.Phase.ATTACK and not g.attacked:
            g.declined = True    # no attack: the attack step is over (`no_attack`)
            return
        if action.action_type == T.DECLARE_BLOCKER:
            g.blocked = True
        if action.action_type == T.SELECT_ATTACK_ORDER:
            g.broken += len(self.shields_of(action.shield_index))
        g.state = self.execute(g.state, action)

    # ---- the end --------------------------------------------------------------------------------
    def outcome(self) -> dict:
        """The outcome keys the engine can tell: who won or lost, shields, the zones by card name."""
        s, g = self.game.state, self.game
        winner = s.winner()
        names = lambda cards: sorted(c.definition.name for c in cards)
        both = s.result == self.enums.GameResult.DRAW     # the engine's result when both players lose at once
        return {"winner": PLAYERS[winner] if winner is not None else "none",
                "loser": PLAYERS[1 - winner] if winner is not None else "both" if both else "none",
                "blocked": g.blocked, "shields_broken": g.broken,
                "shields": {p: s.players[i].shield_count for i, p in enumerate(PLAYERS)},
                "battle": {p: names(s.players[i].battle_zone) for i, p in enumerate(PLAYERS)},
                "hand": {p: names(s.players[i].hand) for i, p in enumerate(PLAYERS)},
                "graveyard": {p: names(s.players[i].graveyard) for i, p in enumerate(PLAYERS)},
                "mana": {p: names(s.players[i].mana_zone) for i, p in enumerate(PLAYERS)}}


class Game:
    """One scenario being played in the engine, and what the adapter counts along the way."""

    def __init__(self, state, position: dict, turn: int):
        self.state, self.position, self.turn = state, position, turn
        self.attacked = self.blocked = self.declined = False
        self.broken = 0

    def over(self) -> bool:
        """The game ended, or the attack did: the engine is back in the attack step with no attack."""
        s = self.state
        return self.declined or s.is_terminal() or (self.attacked and s.attack_context is None
                                                    and not s.effect_stack.shield_trigger_queue)


def _label(player: str, kind: str, decision: str, what: list) -> dict:
    return {"player": player, "kind": kind, "decision": decision, "what": what}


def answer(adapter: Adapter, request: dict) -> dict:
    kind = request.get("type")
    if kind == "hello":
        return {"type": "hello", "protocol": "dmcheck-conform", "version": 1,
                "engine": "shockwave199129/duel-masters-ai dm_engine (adapter)"}
    if kind == "setup":
        try:
            adapter.setup(request)
        except Unsupported as exc:
            return {"type": "unsupported", "reason": str(exc)}
        return {"type": "ready"}
    if kind == "choices":
        return {"type": "choices", "choices": [label for label, _ in adapter.offers()]}
    if kind == "apply":
        return apply(adapter, request.get("choice") or {})
    if kind == "state":
        adapter.run_automatic()
        over = adapter.game.over()
        return {"type": "state", "terminal": over, "outcome": adapter.outcome() if over else None}
    return {"type": "error", "message": f"unknown request {kind!r}"}


def apply(adapter: Adapter, choice: dict) -> dict:
    """Apply the engine action whose label is the choice's (the engine may name another copy)."""
    want = [choice.get(k) for k in ("player", "kind", "decision")]
    offers = adapter.offers()
    for label, action in offers:
        if [label[k] for k in ("player", "kind", "decision")] == want and _same(label["what"], choice.get("what")):
            adapter.apply(action)
            return {"type": "applied"}
    cards = adapter.game.position["cards"]
    same_cards = lambda what: sorted(cards.get(x, x) if isinstance(x, str) else json.dumps(x) for x in what or [])
    for label, action in offers:   # other copies of the same cards (dmcheck names the lowest copies)
        if [label[k] for k in ("player", "kind", "decision")] == want and \
                same_cards(label["what"]) == same_cards(choice.get("what")):
            adapter.apply(action)
            return {"type": "applied"}
    return {"type": "refused", "reason": "the engine has no such action here"}


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-root", required=True, help="the dm_engine folder of a duel-masters-ai checkout")
    adapter = Adapter(parser.parse_args().engine_root)
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "bye":
            return
        sys.stdout.write(json.dumps(answer(adapter, request)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
