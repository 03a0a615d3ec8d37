"""The card table of one scenario: every card instance, its owner and label, and the starting zones.

Static information only (nothing here changes during the search): instructions and narration ask
it which card an instance is, whose it is and what to call it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .card_ids import Renaming, record_shape
from .cards import CardDef, CardPool
from .scenario import ZONE_KEYS, Scenario
from .state import PLAYERS, State, Zones


@dataclass(frozen=True, slots=True)
class CardInstance:
    id: int
    card: str      # pool id
    owner: str
    label: str     # English name, with #k when the scenario has several of that name


# marks on a battle-zone entry that are no card: summoned this turn, a power change of this turn
MARKS = ("tapped", "summoned", "power", "hyper_mode")
_CHAINS = ("under", "god_left", "god_right")   # entry keys whose cards lie one beyond the other


class CardTable:
    """Card instances of a scenario (ids are indexes), with the card each one is and its owner."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.pool: CardPool = scenario.pool
        self.instances: list[CardInstance] = []
        self._defs: list[CardDef] = []   # each instance's card definition, by id
        self._labels: list[str] = []     # each instance's label, by id
        self._owners: list[str] = []     # each instance's owner, by id
        self.faces: dict[int, int] = {}   # a double-sided card's instance -> its other face's instance (805.1)
        # the three look-ups the procedure makes most (a dozen a step): the lists' own item getters, kept in
        # step with `instances` by `_build_initial`, the one place instances are made
        self.card: Callable[[int], CardDef] = self._defs.__getitem__
        self.label: Callable[[int], str] = self._labels.__getitem__
        self.owner: Callable[[int], str] = self._owners.__getitem__

    def name(self, cid: int) -> str:
        return self._defs[cid].name

    def ability_label(self, card: str, ability: str) -> str:
        return f"{self.pool[card].name}/{ability}"

    def restriction(self, player: str, key: str):
        """A continuous restriction on `player` given by the scenario (e.g. no_s_trigger, locked_types)."""
        return self.scenario.restrictions.get(player, {}).get(key, () if key == "locked_types" else False)

    def _build_initial(self) -> State:
        sc = self.scenario
        counts = _counts(sc)
        seen: dict[str, int] = {}

        def new(card: str, player: str) -> int:
            seen[card] = seen.get(card, 0) + 1
            name = self.pool[card].name
            made = CardInstance(len(self.instances), card, player, f"{name}#{seen[card]}" if counts[card] > 1 else name)
            self.instances.append(made)
            self._defs.append(self.pool[card])
            self._labels.append(made.label)
            self._owners.append(player)
            return made.id

        zones = []
        attacker, target = -1, -1
        marks: list[tuple[str, int, str]] = []   # summoned this turn, a power change
        for player in PLAYERS:
            setup = sc.players[player]
            content = {zone: [new(card, player) for card in getattr(setup, zone)] for zone in ZONE_KEYS}
            marks += [(kind, content[zone][i], value) for zone, i, kind, value in setup.extras if kind in MARKS[1:]]
            attached, links, face_up, tapped = self._extras(setup.extras, content,
                                                            lambda card, player=player: new(card, player))
            if player == sc.turn and sc.attacker:   # none yet when the attack is chosen (model/legality.py)
                mine = [c for c in content["battle"] if self.instances[c].card == sc.attacker]
                attacker = mine[sc.attacker_index]
            elif sc.target:
                theirs = [c for c in content["battle"] if self.instances[c].card == sc.target]
                target = theirs[sc.target_index]
            zones.append(Zones(
                deck=tuple(content["deck"]), hand=tuple(sorted(content["hand"])),
                mana=tuple(sorted(content["mana"])), shields=tuple(sorted(content["shields"])),
                battle=tuple(sorted(content["battle"])), graveyard=tuple(sorted(content["graveyard"])),
                attached=tuple(sorted(attached)), links=tuple(sorted(links)), face_up=tuple(sorted(face_up)),
                tapped=tuple(sorted(tapped)), hyperspatial=tuple(sorted(content["hyperspatial"])),
                super_gr=tuple(content["super_gr"]),   # the order written, top first (R408.2)
                abyss=tuple(sorted(content["abyss"]))))
        self._other_faces(new)
        # R506: the attack is declared by the first step (procedure.py), so that its events are seen
        summoned = [host for kind, host, _ in marks if kind == "summoned"]
        # R807.5a: a dragheart put this turn arrived this turn whatever face is up later (model/turn.py `arrivals`)
        self.summoned = frozenset(summoned + [self.faces[c] for c in summoned
                                              if c in self.faces and self.card(c).dragheart])
        powers = tuple(sorted((host, int(n)) for kind, host, n in marks if kind == "power"))
        s = State(turn=sc.turn, zones=(zones[0], zones[1]), attacker=attacker, defender=sc.defender,
                  phase=sc.main.first_phase if sc.main else "declare",   # model/main_step.py: 503, 504
                  target=target, powers=powers)
        return self._released(s, [host for kind, host, _ in marks if kind == "hyper_mode"])

    def _released(self, s: State, hosts: list[int]) -> State:
        """R816.2: a creature written with its hyper mode released (`hyper_mode: true`) is its hyper face, the
        front's other face (model/hyper.py), in the front's place and with its marks."""
        if not hosts:
            return s
        mapping = {}
        for host in hosts:
            mapping[host], mapping[self.faces[host]] = self.faces[host], host
        self.summoned = frozenset(mapping.get(c, c) for c in self.summoned)
        return record_shape(State).rename(s, Renaming(mapping, set()))

    def _other_faces(self, new) -> None:
        """R805.1: each double-sided card gets an instance for its other face, in no zone, that a flip puts
        in its place (model/instructions/hyperspatial.py `flip`); it is made last, so the other ids stay."""
        for inst in list(self.instances):
            flips_to = self.pool[inst.card].flips_to
            if flips_to:
                face = new(flips_to, inst.owner)
                self.faces[inst.id], self.faces[face] = face, inst.id

    @staticmethod
    def _extras(extras, content: dict, new) -> tuple[list, list, list, list]:
        """What lies on the cards of one player's zones: the attached cards and their links (the sources
        under a creature as a chain, top to bottom: model/piles.py), face-up shields, tapped creatures."""
        attached, links, face_up, tapped = [], [], [], []
        lowest: dict[tuple[str, int, str], int] = {}   # the bottom card so far of each pile's sources
        for zone, index, kind, card in extras:
            host = content[zone][index]
            if kind == "face_up":
                face_up.append(host)
                continue
            if kind == "tapped":
                tapped.append(host)
                continue
            if kind in MARKS:   # summoned this turn, a power change, hyper mode released: marks, not cards
                continue
            cid = new(card)
            chain = kind in _CHAINS   # sources top to bottom; linked Gods out from the card (model/gods.py)
            links.append((cid, lowest.get((zone, index, kind), host) if chain else host, kind))
            if chain:
                lowest[zone, index, kind] = cid
            if kind == "ex_life":
                content["shields"].append(cid)   # an EX Life shield is a shield of its own
            else:
                attached.append(cid)             # auras, seals, sources under, cross gear, castles, stacks
        return attached, links, face_up, tapped

    def shield_list(self, ids: Iterable[int]) -> str:
        ids = list(ids)
        return ("shield " if len(ids) == 1 else "shields ") + ", ".join(self.label(c) for c in ids)


def _counts(sc: Scenario) -> dict[str, int]:
    """How many cards of each pool id the scenario holds (a card named twice gets `#k` labels)."""
    counts: dict[str, int] = {}
    for player in PLAYERS:
        setup = sc.players[player]
        for zone in ZONE_KEYS:
            for card in getattr(setup, zone):
                counts[card] = counts.get(card, 0) + 1
        for _, _, kind, card in setup.extras:
            if card and kind not in MARKS:
                counts[card] = counts.get(card, 0) + 1
    for card, n in list(counts.items()):   # 805.1: each double-sided card has an instance of its other face too
        flips_to = sc.pool[card].flips_to
        if flips_to:
            counts[flips_to] = counts.get(flips_to, 0) + n
    return counts
