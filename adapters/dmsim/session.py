"""One scenario run played in DMSIM: the position put in place, the attack played in a worker thread, and
every choice DMSIM asks for handed to the protocol loop as a Question.

DMSIM asks its choices by calling its ChoiceManager (`select(player, choices, prompt, ...)`) from deep
inside its game loop. The adapter runs that loop in a thread of its own; the ChoiceManager here posts
each question and waits for the answer the protocol loop gives (dmcheck's `apply`), so DMSIM plays the
attack exactly as it would against a player, one decision at a time. A new `setup` ends the thread of
the run before (its waiting `select` raises Abandoned).

The position is put in place without DMSIM's card mover (a placement is no zone change: nothing
triggers), every card's abilities registered with the event manager as DMSIM's own setup does; the
turn player's attack step is then run by DMSIM's TurnManager.
"""

from __future__ import annotations

import json
import queue
import re
import sys
import threading
import traceback
from dataclasses import dataclass, field
from typing import Any

from card_map import definition
from word_map import Lacks, Unsupported

PLAYERS = ("A", "B")
ZONES = {"battle": "BATTLE", "hand": "HAND", "mana": "MANA", "shields": "SHIELD", "graveyard": "GRAVEYARD",
         "deck": "DECK"}
MARKS = {"tapped", "summoned", "power"}
PILES = {"attached", "links"}   # cards under an evolution creature (`under` links), put as DMSIM's evolution sources
ATTACK_STEP = "Choose attack step action"
DIRECT = "direct attack"    # the adapter's question where DMSIM's attack reaches a player with no shields
RULES_SINCE = "2017-03-25"   # the revision that broke an attack's shields together, as DMSIM does
WAIT = 60.0       # seconds the protocol loop waits for DMSIM's next question (dmcheck's --timeout is shorter)


def request_keywords(request: dict, label: str) -> list[str]:
    """The keywords of the card a position's label names."""
    return request["cards"][request["position"]["cards"][label]]["keywords"]


def _checked(request: dict) -> list[dict]:
    """The DMSIM definitions of the run's cards, once every part of the run is known to carry over; else
    Unsupported with one reason: where DMSIM itself lacks something (Lacks) that reason, since no work on
    the adapter would set the run up, else the first one met."""
    problems: list[Unsupported] = []

    def attempt(check, *args):
        try:
            return check(*args)
        except Unsupported as exc:
            problems.append(exc)
            return None

    defs = [attempt(definition, card, request["rules"]) for _, card in sorted(request["cards"].items())]
    attempt(_rules_and_zones, request)
    attempt(_one_attack, request)
    attempt(_one_replacement_each, request)
    attempt(_hand_keywords, request)
    attempt(_granted_slayer, request)
    if problems:
        raise next((p for p in problems if isinstance(p, Lacks)), problems[0])
    return defs


def _rules_and_zones(request: dict) -> None:
    position = request["position"]
    if request["rules"] < RULES_SINCE:
        raise Lacks(f"the run is under the rules of {request['rules']}; DMSIM has no rules of an earlier date: it "
                    "plays today's, where the shields an attack breaks are broken together "
                    f"(since {RULES_SINCE}, ER05@S016)")
    for player in PLAYERS:
        zones = position["zones"].get(player, {})
        if not zones.get("deck"):
            raise Lacks(f"{player}'s deck is empty at the position: DMSIM has no check of a deck that is empty "
                        "already; it looks at a deck running out only when a card leaves it (core/card_mover.py, "
                        "core/player.py)")
        other = sorted(k for k, v in zones.items() if v and k not in ZONES and k not in MARKS and k not in PILES)
        other += _piles(request, player)
        if other:
            raise Unsupported(f"{player} has {', '.join(other)} (of cards on cards and face-up shields the adapter "
                              "puts only evolution sources and cards stacked on a shield)")
    if any(position["restrictions"].values()):
        raise Unsupported("continuous restrictions (no S-Trigger, locked card types) have no DMSIM counterpart "
                          "in the adapter")


# the `until` values the adapter plays: one attack (then the end step), or every attack of the attack step
PLAYED = ("end_attack", "end_turn", "end_attack_step")


def _one_attack(request: dict) -> None:
    """The adapter plays one attack (and the end of the turn), or the whole attack step: a limit on the
    attacks and the next turn's start or draw are not played (DMSIM's TurnManager would, but the adapter
    does not drive it there)."""
    position = request["position"]
    if position["until"] not in PLAYED:
        raise Unsupported(f"the run goes on until {position['until']}: the adapter does not translate a run past "
                          "the attack step and the end of its turn into DMSIM")
    if position.get("attacks") is not None:
        raise Unsupported(f"the run allows {position['attacks']} attacks in the turn (`attacks`): the adapter does "
                          "not translate several attacks in a turn into DMSIM")


def _piles(request: dict, player: str) -> list[str]:
    """What of `player`'s cards on cards the adapter cannot put in DMSIM: only the cards under an evolution
    creature in the battle zone (links `[card, evolution creature, under]`) become its evolution sources,
    and the cards stacked on a shield (`[card, shield, stack]`) cards of that shield's slot."""
    position = request["position"]
    zones = position["zones"].get(player, {})
    evolution = lambda label: "Evolution" in request["cards"][position["cards"][label]]["keywords"]
    links = zones.get("links", [])
    kept = [src for src, top, kind in links
            if kind == "under" and top in zones.get("battle", []) and evolution(top)
            or kind == "stack" and top in zones.get("shields", [])]
    if len(kept) != len(links) or sorted(kept) != sorted(zones.get("attached", [])):
        return ["links other than cards under an evolution creature or stacked on a shield"]
    return []


def _one_replacement_each(request: dict) -> None:
    """Two replacement effects of one player that could replace the same event: DMSIM first asks which
    applies (ReplacementManager, without a `none`), then whether to use it; dmcheck asks it as one
    decision, with `none`. The adapter does not translate the one into the other."""
    for player, zones in request["position"]["zones"].items():
        cards = [request["cards"][request["position"]["cards"][label]] for label in zones.get("battle", [])]
        kinds = [a["replaces"] for card in cards for a in card.get("abilities", []) if a.get("replaces")]
        twice = sorted({k for k in kinds if k == "own_shield_break" and kinds.count(k) > 1})
        if twice:
            raise Unsupported(f"{player} has two `replaces {twice[0]}` abilities: DMSIM asks which replacement "
                              "applies, then whether to use it; the adapter does not translate that into dmcheck's "
                              "one decision")


NINJA_MANA_ON_RESOLUTION = "2022-08-10"   # S156: since then Ninja Strike's mana is counted on resolution only


def _hand_keywords(request: dict) -> None:
    """What DMSIM's Ninja Strike and Attack Chance would do otherwise than dmcheck's in this run."""
    position, cards = request["position"], request["cards"]
    for player, zones in position["zones"].items():
        for label in zones.get("hand", []):
            card = cards[position["cards"][label]]
            triggers = {a.get("trigger") for a in card.get("abilities", [])}
            if "ninja_strike" in triggers and player == position["turn"]:
                raise Unsupported(f"the turn player has {card['name']} (Ninja Strike) in the hand: DMSIM's Ninja "
                                  "Strike is also declared when an opponent's creature blocks, dmcheck's at an attack "
                                  "only")
            if "ninja_strike" in triggers and request["rules"] < NINJA_MANA_ON_RESOLUTION:
                raise Lacks(f"the run is under the rules of {request['rules']}, when Ninja Strike's mana was counted "
                            "at its declaration; DMSIM has no such count: it counts the mana on resolution only, as "
                            f"the rules have since {NINJA_MANA_ON_RESOLUTION} (S156)")
            for a in card.get("abilities", []):
                if a.get("trigger") in ("attack_chance", "revolution_change"):
                    cond = a["effect"][0][a["trigger"]] or {}
                    _races_told_apart(request, [*(cond.get("any_of") or []), *(cond.get("all_of") or [])])


def _granted_slayer(request: dict) -> None:
    """A Slayer granted by an effect plays as DMSIM's Slayer, which destroys whoever wins: before
    words.SLAYER_SINCE, Slayer destroyed only when its creature lost (card_map refuses the keyword so too)."""
    import words

    if request["rules"] >= words.SLAYER_SINCE:
        return
    for card in request["cards"].values():
        if '"keyword": "Slayer"' in json.dumps(card.get("abilities", [])) + json.dumps(card.get("effect", [])):
            raise Lacks(f"{card['name']} gives Slayer, which under the rules of {request['rules']} destroys only when "
                        "its creature loses; DMSIM has no such Slayer (its Slayer destroys whoever wins)")


def _races_told_apart(request: dict, races: list[str]) -> None:
    """DMSIM's race_ja filter matches any part of a race's name, dmcheck whole words of it (203.2): refuse a
    run where a creature would meet a race of `races` in one of them only."""
    for cid in request["position"]["cards"].values():
        card = request["cards"][cid]
        if card["type"] != "creature":
            continue
        own = [*card["keywords"], *(card.get("races") or [])]
        joined = "/".join(own)
        for race in races:
            if (race in joined) != any(_whole_words(r, race) for r in own):
                raise Unsupported(f"{card['name']} meets {race!r} in one of DMSIM and dmcheck only: the adapter "
                                  "gives DMSIM the English race names, which DMSIM's race_ja filter matches by any "
                                  "part (effects/composition/card_predicates.py), dmcheck by whole words (203.2); "
                                  "the Japanese names DMSIM is made for would not be cut so")


def _whole_words(whole: str, part: str) -> bool:
    """Whether `part` is a run of whole words of `whole` ("Dragon" of "Armored Dragon", 203.2)."""
    w, p = ([x for x in re.split(r"[\s・･/]+", text.casefold()) if x] for text in (whole, part))
    return bool(p) and any(w[i:i + len(p)] == p for i in range(len(w) - len(p) + 1))


class Abandoned(BaseException):
    """The run was left (a new setup, or the end): the worker thread unwinds out of DMSIM."""


@dataclass
class Question:
    """One call of DMSIM's ChoiceManager.select: who chooses, among what, and what DMSIM asked."""

    player: Any
    choices: list
    prompt: str
    min_count: int = 1
    max_count: int = 1
    asker: Any = None      # the DMSIM ability or effect whose code asked (the nearest one on the stack)


@dataclass
class Tally:
    """What the adapter counts along the run, for the outcome keys DMSIM keeps no record of."""

    broken: int = 0
    slots: list = field(default_factory=list)   # the shield slots counted in `broken` (kept: no id reused)
    blocked: bool = False
    frame: int = 0          # break frames open (dmcheck's `frame` of a waiting effect): none in DMSIM's batch
    tags: dict = field(default_factory=dict)   # id(effect) -> (dmcheck ability label, frame)


class Session:
    """A scenario run: `question()` is DMSIM's next question (None once the attack is over), `answer(value)`
    hands DMSIM the value it asked for."""

    def __init__(self, request: dict):
        from card_db.database import CardDatabase
        from card_db.factory import CardFactory
        from core.game_controller import GameController
        from core.player import Player

        position = request["position"]
        defs = _checked(request)
        self.position, self.request = position, request
        self.factory = CardFactory(CardDatabase(defs))
        self.players = (Player("A"), Player("B"))
        self.game = GameController(list(self.players), _Chooser(self))
        self.tally = Tally()
        self.labels: dict[int, str] = {}      # id(DMSIM card) -> dmcheck label
        self.asked: queue.Queue = queue.Queue()
        self.answers: queue.Queue = queue.Queue()
        self.now: tuple | None = None
        self.attacked = False
        self.split: dict[int, bool] = {}      # id(Question) -> its first half answered (labels.SPLIT)
        self._place()
        self._watch()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    # ---- the position ----------------------------------------------------------------------------
    def _place(self) -> None:
        from zones.zone_type import ZoneType

        state = self.game.state
        state.turn_player_index = PLAYERS.index(self.position["turn"])
        state.turn = 2
        for i, player in enumerate(self.players):
            zones = self.position["zones"].get(PLAYERS[i], {})
            for zone, name in ZONES.items():
                for label in zones.get(zone, []):
                    card = self.factory.create(self.position["cards"][label], game=self.game.context)
                    card.owner = player
                    player.get_zone(getattr(ZoneType, name)).add(card)
                    card.zone = getattr(ZoneType, name)
                    card.tapped = label in zones.get("tapped", [])
                    if hasattr(card, "summoning_sick"):   # as DMSIM's summon sets it: never for an evolution
                        card.summoning_sick = label in zones.get("summoned", []) and not getattr(card, "is_evolution",
                                                                                                 False)
                    card.register_abilities(self.game.context.event_manager)
                    self.labels[id(card)] = label
                    if "Wins All Battles" in request_keywords(self.request, label):
                        card.wins_all_battles_this_turn = True   # DMSIM's WinsAllBattlesEffect's flag (this turn)
            for source, top, kind in zones.get("links", []):   # checked by _piles
                self._under(player, source, top) if kind == "under" else self._stack(player, source, top)
            for label, amount in zones.get("power", []):   # a power change until the end of the turn (R511.2)
                self._power(label, amount)

    def _stack(self, player: Any, card_label: str, shield: str) -> None:
        """Put `card_label` on the shield `shield`: one slot of DMSIM's shield zone (zones/shield_zone.py),
        one shield of several cards, named by dmcheck after its first card (`shield_label`)."""
        from zones.zone_type import ZoneType

        card = self.factory.create(self.position["cards"][card_label], game=self.game.context)
        card.owner = player
        base = next(c for c in player.shield_zone.cards if self.labels.get(id(c)) == shield)
        player.shield_zone.add(card, stack_on=base)
        card.zone = ZoneType.SHIELD
        card.register_abilities(self.game.context.event_manager)
        self.labels[id(card)] = card_label

    def shield_label(self, card: Any) -> str:
        """A shield's dmcheck label: that of the first card of its slot (DMSIM offers the top one)."""
        owner = card.owner
        slot = owner.shield_zone.slot_for(card) if owner is not None else None
        return self.label(slot.cards[0] if slot is not None and slot.cards else card)

    def _under(self, player: Any, source: str, top: str) -> None:
        """Put `source` under the evolution creature `top` as DMSIM's summon does (core/evolution_support.py,
        stack_evolution_sources): out of the zone's list, in the creature's evolution sources, in the battle
        zone; its abilities registered as every card's are (DMSIM's setup registers all of them)."""
        from zones.zone_type import ZoneType

        card = self.factory.create(self.position["cards"][source], game=self.game.context)
        card.owner = player
        parent = next(c for c in player.battle_zone.cards if self.labels.get(id(c)) == top)
        parent.add_evolution_source(card)
        card.zone = ZoneType.BATTLE
        card.register_abilities(self.game.context.event_manager)
        self.labels[id(card)] = source

    def _power(self, label: str, amount: int) -> None:
        from core.duration_type import DurationType
        from effects.modifiers.timed_power_modifier_effect import TimedPowerModifierEffect

        card = next(c for p in self.players for c in p.battle_zone.cards if self.labels.get(id(c)) == label)
        TimedPowerModifierEffect(source_card=card, target_card=card, modifier_amount=amount,
                                 duration_type=DurationType.UNTIL_END_OF_TURN, game=self.game.context).resolve()

    def label(self, card: Any) -> str:
        return self.labels[id(card)]

    def who(self, player: Any) -> str:
        return player.name

    def _watch(self) -> None:
        """Count broken shields and blocks; tag each effect a triggered ability queues with its dmcheck
        ability label and the break frames open when it triggered."""
        from events.block_event import BlockDeclaredEvent
        from events.shield_break_event import ShieldBreakEvent

        ctx = self.game.context
        def broken(event: Any) -> None:   # one ShieldBreakEvent per card: a shield of several cards counts once
            slot = event.player.shield_zone.slot_for(event.shield_card)
            if slot is None or all(s is not slot for s in self.tally.slots):
                self.tally.broken += 1
                if slot is not None:
                    self.tally.slots.append(slot)

        ctx.event_manager.subscribe(ShieldBreakEvent, broken)
        ctx.event_manager.subscribe(BlockDeclaredEvent, lambda e: setattr(self.tally, "blocked", True))
        triggers = ctx.rules.trigger_manager
        original = triggers.process_trigger
        resolver = ctx.rules.effect_resolver

        def process_trigger(ability: Any, event: Any) -> None:
            before = {id(e) for e in resolver.effects}
            original(ability, event)
            name = ability.owner_card.name
            for effect in resolver.effects:
                if id(effect) not in before:
                    self.tally.tags[id(effect)] = (f"{name}/{getattr(ability, 'ability_id', '?')}", self.tally.frame)

        triggers.process_trigger = process_trigger
        combat = ctx.actions.combat_manager
        attack_player = combat.process_player_attack

        def process_player_attack(attacker: Any, target: Any) -> None:
            if not combat._shield_options(target):   # dmcheck's D0 step: the attack reaches a player without
                self.ask(Question(attacker.owner, [DIRECT], DIRECT))   # shields (one choice, as dmcheck has it)
            attack_player(attacker, target)

        combat.process_player_attack = process_player_attack

    # ---- the worker thread -------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            player = self.players[PLAYERS.index(self.position["turn"])]
            from core.game_step import GameStep

            self.game.state.step = GameStep.ATTACK
            turns = self.game.context.turn_manager
            turns.attack_step(player)
            if self.position["until"] == "end_turn" and not self.game.state.game_over:   # not end_attack_step
                turns.turn_end_step(player)   # the end step: "at the end of the turn" abilities, durations end
            self.asked.put(("done", None))
        except Abandoned:
            pass
        except BaseException:   # DMSIM failed: the protocol loop crashes with its traceback (a `crash` finding)
            self.asked.put(("error", traceback.format_exc()))

    def ask(self, q: Question) -> Any:
        """In the worker: post the question and wait for its answer."""
        self.asked.put(("question", q))
        value = self.answers.get()
        if value is _ABANDON:
            raise Abandoned
        return value

    # ---- the protocol loop's side -------------------------------------------------------------------
    def question(self) -> Question | None:
        if self.now is None:
            try:
                self.now = self.asked.get(timeout=WAIT)
            except queue.Empty:
                raise RuntimeError(f"DMSIM asked nothing and did not end within {WAIT:g}s") from None
        kind, value = self.now
        if kind == "error":
            raise RuntimeError("DMSIM failed:\n" + value)
        if kind == "question" and value.prompt == ATTACK_STEP and self.attacked and not self.game.state.game_over \
                and self.position["until"] == "end_turn":
            # the attack is over and the run goes on to the end of the turn: the attack step ends (DMSIM's
            # FinishAttackStepAction), then its end step is played (_run)
            self.answer(next(c for c in value.choices if type(c).__name__ == "FinishAttackStepAction"))
            return self.question()
        if kind == "question" and value.prompt == ATTACK_STEP and self.attacked and not self.game.state.game_over \
                and self.position["until"] == "end_attack_step":
            if any(type(c).__name__ == "AttackAction" for c in value.choices):
                return value   # another attack, or none: labels.py offers them as dmcheck's choose_attack
            # no creature can attack: the attack step ends with no choice (505.5), as dmcheck has it
            self.answer(next(c for c in value.choices if type(c).__name__ == "FinishAttackStepAction"))
            return self.question()
        if kind == "question" and (self.game.state.game_over or value.prompt == ATTACK_STEP and self.attacked):
            # the game is over (DMSIM's own record: its turn loop stops there, though its combat manager may
            # still ask), or the attack is: DMSIM's attack step asks for the next one
            self.now = ("done", None)
            self.close()
        return value if self.now[0] == "question" else None

    def answer(self, value: Any) -> None:
        self.now = None
        self.answers.put(value)

    def close(self) -> None:
        if self.thread.is_alive():
            self.answers.put(_ABANDON)
            self.thread.join(timeout=2)

    # ---- the end -------------------------------------------------------------------------------------
    def outcome(self) -> dict:
        """The outcome keys DMSIM's state tells (docs/scenario-format.md, outcomes), cards by name."""
        state = self.game.state
        names = lambda zone: sorted(c.name for c in zone.cards)
        out = {"winner": state.winner.name if state.game_over and state.winner else "none",
               "loser": state.loser.name if state.game_over and state.loser else "none",
               "shields_broken": self.tally.broken, "blocked": self.tally.blocked,
               "shields": {p.name: len(p.shield_zone.visible_shields()) for p in self.players}}
        for key, attr in (("hand", "hand"), ("battle", "battle_zone"), ("graveyard", "graveyard"),
                          ("mana", "mana_zone")):
            out[key] = {p.name: names(getattr(p, attr)) for p in self.players}
        return out


_ABANDON = object()


def _asker() -> Any:
    """The DMSIM ability or effect whose method is asking (the nearest `self` on the stack that has an
    owner card or a source card): a prompt such as "Use Shield Saver?" does not name its card."""
    frame = sys._getframe(2)
    while frame is not None:
        me = frame.f_locals.get("self")
        if me is not None and (hasattr(me, "owner_card") or hasattr(me, "source_card")):
            return me
        frame = frame.f_back
    return None


class _Chooser:
    """DMSIM's ChoiceManager: every choice becomes a Question for the protocol loop (session.ask)."""

    def __init__(self, session: Session):
        self.session = session

    def select(self, player, choices, prompt, min_count=1, max_count=1, auto_choose_single=True):
        return self.session.ask(Question(player, list(choices), str(prompt), min_count, max_count, _asker()))

    def format_choice(self, choice) -> str:
        return str(choice)
