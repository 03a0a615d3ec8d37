"""The fact vocabulary properties are written in: typed facts read from states, transitions and outcomes.

A property never looks at the model's Python objects. It is a Z3 formula over a small set of named,
typed facts — `depth`, `broken_now(c)`, `pending(k, p, f)`, ... — and this module says what each
fact means and how it is read from a state (`model.state.State`), a transition (the state before,
the action, the events it emitted, the state after) or an outcome (a terminal state).

Types are Bool, Int and finite sorts: `Player` (A, B, nobody), `Zone` (deck, hand, mana, shields,
battle, graveyard, resolving, standby, attached, nowhere), `Kind` (before_break, triggered: the two
kinds of pending effect, R509.3 / R509.4), `ActionKind` (direct_attack, choose_shields, resolve,
choose) and `Card` (one value per card instance of the scenario, `c0`, `c1`, ...). Frame positions
(R603.7b: 1 is the attack's own break, 2 a break made inside it, ...) are Ints between 0 and the
deepest stack of the scenario. A fact may be a function over these finite domains, e.g.
`zone_of(Card) -> Zone`; quantifiers over cards and positions are therefore decidable.

The facts come in two groups: those of the break procedure (S000-S002) and those of the shield check,
replacement effects and destruction (S003, S004: `checking`, `declared_now`, `destroyed_at`, ...).
Where the order of a transition's events matters (a `destroy` before its `destroyed`), a fact gives
an event's position in the transition (1 = first, 0 = none) rather than a yes or no.

In a state or outcome property the state facts are used by their name (`depth`). In a transition
property they come twice, `pre.X` (before the action) and `post.X` (after the action and everything
automatic it set off), next to the transition facts (`broken_now`, `resolves`, ...).

Facts are read only if some property mentions them, once per state or transition, and each is
narrow on purpose (`in_shields(c)` rather than a whole zone map) so that many states share one
projection. A function's value is kept sparse — the points where it differs from its default — so
projections stay cheap to hash; `table` expands it when the solver needs every point.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..model.positions import problems
from ..model.state import PLAYERS, State, other

PLAYER_VALUES = ("A", "B", "nobody", "both")   # both: the loser of a draw (S109)
ZONE_VALUES = ("deck", "hand", "mana", "shields", "battle", "graveyard", "resolving", "standby", "attached",
               "hyperspatial", "super_gr", "abyss", "nowhere")
KIND_VALUES = ("before_break", "triggered")
ACTION_VALUES = ("direct_attack", "choose_shields", "resolve", "choose",
                 # the whole attack (model/attack.py)
                 "declare_attack", "block", "no_block", "ninja_declare", "no_ninja_declare",
                 # the turn player's declarations (model/declarations.py)
                 "tp_declare", "no_tp_declare",
                 # a scenario that starts before the declaration (model/legality.py)
                 "choose_attack", "no_attack",
                 # the charge and main steps (model/main_step.py)
                 "mana_charge", "no_charge", "execute", "end_main")
ENUMS = {"Player": PLAYER_VALUES, "Zone": ZONE_VALUES, "Kind": KIND_VALUES, "ActionKind": ACTION_VALUES}
_ZONES = ZONE_VALUES[:-1]   # the real zones a card can be in


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact: its name, argument sorts (empty for a constant), result sort and meaning.

    `read(domains, item, memo)` returns a constant's value. For a function it returns a frozenset:
    of the points where it is true (Bool result), or of the (point, value) pairs whose value is not
    `default` (any other result). A point is the argument itself for one argument, else the tuple
    of arguments. `memo` is shared by the facts of one state or transition, for work they share.
    """

    name: str
    args: tuple[str, ...]
    result: str
    meaning: str
    read: Callable[..., Any]
    default: Any = 0


class Domains:
    """The finite domains of one scenario (its cards, frame positions 0..positions) and a cache of
    what several facts read from the same state."""

    def __init__(self, model: Any, positions: int):
        self.model = model
        self.cards = len(model.instances)
        self.positions = max(1, positions)
        self.labels = tuple(i.label for i in model.instances)
        self.by_label = {label: cid for cid, label in enumerate(self.labels)}
        self.everyone = frozenset(range(self.cards))
        # id(state) -> (the state, its open frames) (states live in the graph)
        self._open: dict[int, tuple[State, list[tuple[int, Any]]]] = {}
        self._points: dict[tuple, list] = {}
        self._static: dict[str, Any] = {}     # facts read from the card definitions alone, once

    def values(self, sort: str) -> tuple:
        if sort == "Card":
            return tuple(range(self.cards))
        if sort == "Pos":
            return tuple(range(self.positions + 1))
        return ENUMS[sort]

    def points(self, args: tuple[str, ...]) -> list[tuple]:
        found = self._points.get(args)
        if found is None:
            found = self._points[args] = list(product(*(self.values(a) for a in args)))
        return found

    def card(self, label: str) -> int | None:
        return self.by_label.get(label)

    def static(self, name: str, read: Callable[[Domains], Any]) -> Any:
        """A value that depends only on the scenario (its cards and their owners), read once."""
        if name not in self._static:
            self._static[name] = read(self)
        return self._static[name]

    def open_frames(self, s: State) -> list[tuple[int, Any]]:
        """(stack position, frame) of every frame not yet broken, outermost first (R603.7b)."""
        if not s.frames:
            return []
        # keyed by identity, so the entry keeps the state alive: an id is never reused while cached
        entry = self._open.get(id(s))
        if entry is None or entry[0] is not s:
            entry = self._open[id(s)] = (s, [(i + 1, f) for i, f in enumerate(s.frames) if not f.broken])
        return entry[1]


# ---- state facts --------------------------------------------------------------------------------
def _scan(s: State, memo: dict) -> dict[int, list[tuple[str, str]]]:
    """Every (player, zone) each card id occupies, once per occurrence."""
    found = memo.get("_scan")
    if found is None:
        found = {}
        for player in PLAYERS:
            z = s.zone(player)
            for zone in _ZONES:
                for cid in getattr(z, zone):
                    found.setdefault(cid, []).append((player, zone))
        memo["_scan"] = found
    return found


def _all_cards(s: State, memo: dict) -> tuple[int, ...]:
    """Every card id in every zone of both players, once per occurrence."""
    found = memo.get("_all")
    if found is None:
        found = ()
        for z in s.zones:
            found += z.deck + z.hand + z.mana + z.shields + z.battle + z.graveyard + z.resolving
        memo["_all"] = found
    return found


def _attack_frame(d: Domains, s: State):
    return next((f for _, f in d.open_frames(s) if f.is_attack), None)


def _innermost(d: Domains, s: State):
    frames = d.open_frames(s)
    return frames[-1][1] if frames else None


def _chosen_by(frame) -> frozenset[int]:
    return frozenset(frame.chosen) if frame is not None else frozenset()


def _in_shields(s: State) -> frozenset[int]:
    return frozenset(s.zones[0].shields + s.zones[1].shields)


def _places(d: Domains, s: State, memo: dict) -> frozenset:
    every = _all_cards(s, memo)
    if len(every) == d.cards and frozenset(every) == d.everyone:
        return frozenset()            # each card exactly once: no exception to the default 1
    scan = _scan(s, memo)
    faces = getattr(d.model, "faces", {})   # 805.1: a double-sided card is one card, one face up (model/table.py)

    def places(c: int) -> int:
        face = faces.get(c)
        return len(scan.get(c, ())) + (len(scan.get(face, ())) if face is not None else 0)
    return frozenset((c, n) for c in range(d.cards) if (n := places(c)) != 1)


def _strangers(d: Domains, s: State, memo: dict) -> int:
    return sum(1 for c in _all_cards(s, memo) if not 0 <= c < d.cards)


def _extra_per_player(d: Domains, s: State) -> tuple[int, int]:
    a = sum(n for c, n in s.extra_breaks if d.model.owner(c) == "A")
    return a, sum(n for _, n in s.extra_breaks) - a


def _per_player(values: tuple[int, int]) -> frozenset:
    return frozenset((p, v) for p, v in zip(PLAYERS, values) if v)


BREAK_STATE_FACTS: tuple[Fact, ...] = (
    Fact("turn", (), "Player", "the turn player", lambda d, s, m: s.turn),
    Fact("nonturn", (), "Player", "the non-turn player", lambda d, s, m: other(s.turn)),
    Fact("defender", (), "Player", "the attacked player", lambda d, s, m: s.defender),
    Fact("started", (), "Bool", "the direct attack step has begun (D0 or D1 happened)", lambda d, s, m: s.started),
    Fact("over", (), "Bool", "the step is over: a terminal state", lambda d, s, m: s.over),
    Fact("turn_skipped", (), "Bool", "the rest of the turn was skipped (Q09)", lambda d, s, m: s.turn_skipped),
    Fact("stop_attack", (), "Bool", "every chosen shield left before the attack's break; the attack will be "
         "stopped once the pending effects resolved (Q10)", lambda d, s, m: s.stop_attack),
    Fact("attack_stopped", (), "Bool", "the attack was stopped (Q10)", lambda d, s, m: s.attack_stopped),
    Fact("attacker_left", (), "Bool", "the attacking creature has left the battle zone (R509.4c)",
         lambda d, s, m: s.attacker_left),
    Fact("attacker_in_battle", (), "Bool", "the attacking creature is in its controller's battle zone",
         lambda d, s, m: s.attacker in s.zone(s.turn).battle),
    Fact("winner", (), "Player", "who won the game (nobody so far)", lambda d, s, m: s.winner or "nobody"),
    Fact("depth", (), "Int", "how many break frames are open (chosen, not yet broken; R603.7b)",
         lambda d, s, m: len(d.open_frames(s))),
    Fact("frames", (), "Int", "how many break frames are on the stack, broken ones whose shield check is "
         "under way included", lambda d, s, m: len(s.frames)),
    Fact("frame_open", ("Pos",), "Bool", "the frame at this stack position (1 = outermost) is open",
         lambda d, s, m: frozenset(i for i, _ in d.open_frames(s))),
    Fact("chosen", ("Card",), "Bool", "the innermost open frame chose this shield to break (R509.3)",
         lambda d, s, m: _chosen_by(_innermost(d, s))),
    Fact("attack_chosen", ("Card",), "Bool", "the attack's own frame is open and chose this shield (D1)",
         lambda d, s, m: _chosen_by(_attack_frame(d, s))),
    Fact("in_shields", ("Card",), "Bool", "the card is in a shield zone", lambda d, s, m: _in_shields(s)),
    Fact("broken", ("Card",), "Bool", "the shield was broken earlier in this step",
         lambda d, s, m: frozenset(s.broken)),
    Fact("zone_of", ("Card",), "Zone", "the zone the card is in (nowhere if none)",
         lambda d, s, m: frozenset((c, where[0][1]) for c, where in _scan(s, m).items()), default="nowhere"),
    Fact("holder", ("Card",), "Player", "whose zone the card is in (nobody if none)",
         lambda d, s, m: frozenset((c, where[0][0]) for c, where in _scan(s, m).items()), default="nobody"),
    Fact("places", ("Card",), "Int", "in how many zone slots the card appears (1 when all is well)", _places,
         default=1),
    Fact("strangers", (), "Int", "zone slots holding a card id the scenario never had", _strangers),
    Fact("count", ("Player", "Zone"), "Int", "how many cards the player has in the zone",
         lambda d, s, m: frozenset(((p, z), len(getattr(s.zone(p), z))) for p in PLAYERS for z in _ZONES
                                   if getattr(s.zone(p), z))),
    Fact("shields_of", ("Player",), "Int", "how many shields the player has",
         lambda d, s, m: _per_player((len(s.zones[0].shields), len(s.zones[1].shields)))),
    Fact("pending", ("Kind", "Player", "Pos"), "Int", "how many pending effects of this kind the player "
         "controls that belong to this frame depth (0: triggered outside any frame)",
         lambda d, s, m: frozenset(Counter((p.kind, p.controller, p.frame) for p in s.pending).items())),
    Fact("pending_total", (), "Int", "how many effects are pending", lambda d, s, m: len(s.pending)),
    Fact("running", (), "Bool", "an effect is being carried out and waits for a choice",
         lambda d, s, m: bool(s.running)),
    Fact("checks", (), "Int", "shield checks in progress (SC1-SC5); nothing unrelated resolves meanwhile (R509.5e)",
         lambda d, s, m: len(s.checks)),
    Fact("spells_cast", ("Player",), "Int", "spells the player cast this turn",
         lambda d, s, m: _per_player(s.spells_cast)),
    Fact("extra_breaks", ("Player",), "Int", "extra breaks that effects gave the player's creatures this turn, "
         "summed over them (110.2e: each effect reaches the creatures there when it resolves)",
         lambda d, s, m: _per_player(_extra_per_player(d, s))),
    Fact("extra_breaks_of", ("Card",), "Int", "extra breaks that effects gave this creature this turn (it "
         "loses them when it leaves the battle zone)", lambda d, s, m: frozenset(s.extra_breaks)),
    Fact("breaker", (), "Int", "how many shields the attacker would break if chosen now (Q07: the count "
         "used is the one at D1)", lambda d, s, m: d.model.breaker_count(s)),
)


# ---- state facts of the shield check and destruction (S003, S004) ---------------------------------
DESTROY_TRIGGERS = ("destroyed", "own_dragon_destroyed")   # model/vocabulary.py TRIGGERS watching R701.6b


def _checking(s: State) -> frozenset[int]:
    """The cards of the shield checks in progress that have not reached the hand (SC1-SC2)."""
    if not s.checks:
        return frozenset()
    return frozenset(c for check in s.checks for c in check.cards if c not in check.arrived)


def _declared(s: State) -> frozenset[int]:
    """The cards whose declared ability (SC2/SC3) is not used yet (SC4), queued ones included (Q14)."""
    if not s.checks and not s.queued:
        return frozenset()
    return frozenset([d.card for check in s.checks for d in check.declared] + [d.card for d in s.queued])


def _castled(s: State) -> frozenset[int]:
    """The shields a castle is on: fortifying them, or waiting for their S-Trigger after they went to
    the hand (R304.3)."""
    found: set[int] = set()
    for z in s.zones:
        found.update(h for _, h, k in z.links if k == "castle")
    for check in s.checks:
        if check.castles:
            z = s.zone(check.player)
            found.update(shield for shield, castle in check.castles if castle in z.attached)
    return frozenset(found)


def _attempted_on(s: State) -> set[int]:
    """The cards a destroy attempt (R701.6a) is under way on: their owner's replacement choice waits, or for a
    linked God his choice of the one card that leaves (804.7)."""
    found = set()
    for task in s.running:
        if task.pc < len(task.program):
            ins = task.program[task.pc]
            if ins.op in ("_leave", "_god_leaves") and ins.get("destroy"):
                found.add(ins.get("card"))
    return found


def _attempted(s: State) -> frozenset[int]:
    return frozenset(_attempted_on(s)) if s.running else frozenset()


def _host_attempted(s: State) -> frozenset[int]:
    """The cards lying on a card a destroy attempt is under way on, or on such a card in turn (a row of three
    linked Gods, 804.4a; a chain of cards under a creature)."""
    if not s.running:
        return frozenset()
    on = set(_attempted_on(s))
    found: set[int] = set()
    while on:
        new = {c for z in s.zones for c, h, _ in z.links if h in on} - found
        found |= new
        on = new
    return frozenset(found)


def _zone_cards(zone: str) -> Callable[..., frozenset[int]]:
    def read(d: Domains, s: State, m: dict) -> frozenset[int]:
        return frozenset(getattr(s.zones[0], zone) + getattr(s.zones[1], zone))
    return read


SHIELD_STATE_FACTS: tuple[Fact, ...] = (
    Fact("in_standby", ("Card",), "Bool", "the card is in standby: in the shield zone on its way to the hand, not "
         "counted as a shield (R113.6a)", _zone_cards("standby")),
    Fact("in_resolving", ("Card",), "Bool", "the card is a spell being cast, on its way to resolution",
         _zone_cards("resolving")),
    Fact("checking", ("Card",), "Bool", "a shield check in progress is checking the card and has not moved it to "
         "the hand yet (SC1-SC2; read from the check, not from the zones)", lambda d, s, m: _checking(s)),
    Fact("declared", ("Card",), "Bool", "an ability declared for the card in a shield check (SC2/SC3) waits to be "
         "used (SC4), in its check or queued until an Escape chain ends (Q14)", lambda d, s, m: _declared(s)),
    Fact("queued", (), "Int", "declared abilities waiting for an Escape chain to end before they are used (Q14)",
         lambda d, s, m: len(s.queued)),
    Fact("castled", ("Card",), "Bool", "a castle is on this shield: fortifying it, or waiting for its S-Trigger to "
         "be used after it went to the hand (R304.3)", lambda d, s, m: _castled(s)),
    Fact("attempted", ("Card",), "Bool", "a destroy attempt on the card (R701.6a) is under way: its owner's "
         "replacement choice waits (for a linked God, his choice of the card that leaves, 804.7)",
         lambda d, s, m: _attempted(s)),
    Fact("host_attempted", ("Card",), "Bool", "the card lies on a card (an aura, a seal, a card under an evolution "
         "creature) a destroy attempt is under way on", lambda d, s, m: _host_attempted(s)),
)

# ---- the whole attack (model/attack.py) ----------------------------------------------------------------
ATTACK_STATE_FACTS: tuple[Fact, ...] = (
    Fact("attack_ended", (), "Bool", "the end-of-attack step has come (R510), or the end step after it (R511), "
         "or the next turn (R512, model/turn.py)",
         lambda d, s, m: s.phase in ("end_attack", "end_turn", "start_turn", "draw")),
    Fact("loser", (), "Player", "who lost the game (nobody so far, both after a draw; R104.2a, R509.1, S109)",
         lambda d, s, m: s.loser or "nobody"),
)

# ---- cards made of several cards (model/piles.py) ----------------------------------------------------
_FOLLOW = ("under", "aura")   # the cards that go where their creature goes (801, 310.8)


def _links(s: State, kinds: tuple[str, ...]) -> frozenset:
    """(card, the card it lies on) of every link of these kinds, both players."""
    return frozenset((c, h) for z in s.zones for c, h, k in z.links if k in kinds) if \
        (s.zones[0].links or s.zones[1].links) else frozenset()


PILE_STATE_FACTS: tuple[Fact, ...] = (
    Fact("lies_on", ("Card", "Card"), "Bool", "the first card lies on or under the second (a card under an evolution "
         "creature under the one right above it, an aura, a seal or a cross gear on its creature, a card stacked in "
         "a shield under the shield's card)",
         lambda d, s, m: _links(s, ("under", "aura", "seal", "cross", "stack"))),
    Fact("follows", ("Card",), "Bool", "the card goes where the card it lies on goes: a card under a creature, or "
         "an aura (801, 310.8)", lambda d, s, m: frozenset(c for c, _ in _links(s, _FOLLOW))),
    Fact("stacked", ("Card",), "Bool", "the card is stacked in a shield with other cards, under the shield's own "
         "card (shield plus, S212)", lambda d, s, m: frozenset(c for c, _ in _links(s, ("stack",)))),
)

# ---- the rest of the game an attack touches (model/power.py, model/touch.py) --------------------------
def _for_the_turn(s: State) -> list:
    """The keywords of `granted` given for the turn only (not until a player's next turn, model/turn.py)."""
    longer = {(c, w) for c, w, _ in s.lasting}
    return [g for g in s.granted if (g[0], g[1]) not in longer]


TOUCH_STATE_FACTS: tuple[Fact, ...] = (
    Fact("after_declaration", (), "Bool",
         "the attack is declared: the state is not the position before the declaration",
         lambda d, s, m: s.phase != "declare"),
    Fact("zero_power", (), "Int", "how many creatures the state-based check would destroy now (power 0 or less, "
         "able to be destroyed, no destruction under way; R703.4c)", lambda d, s, m: len(d.model.zero_power(s))),
    Fact("turn_effects", (), "Int", "how many power changes and keywords given for the turn apply (R511.2; a "
         "keyword given until a player's next turn begins is not one)",
         lambda d, s, m: len(s.powers) + len(s.traits) + len(_for_the_turn(s))),
    Fact("turn_over", (), "Bool", "the turn is over: a terminal state after the end step (R511), or in the next "
         "turn (R512, model/turn.py)",
         lambda d, s, m: s.over and s.phase in ("end_turn", "start_turn", "draw")),
)

# ---- the position itself (model/positions.py) ------------------------------------------------------------
POSITION_STATE_FACTS: tuple[Fact, ...] = (
    Fact("unreachable", (), "Int", "how many problems make the state a position no game reaches, each one the "
         "scenario loader would refuse (model/positions.py: a card in two zones, an evolution creature with nothing "
         "under it, a card lying on a card that is not there, ...)", lambda d, s, m: len(problems(s, d.model))),
)

STATE_FACTS: tuple[Fact, ...] = BREAK_STATE_FACTS + SHIELD_STATE_FACTS + ATTACK_STATE_FACTS + PILE_STATE_FACTS + \
    TOUCH_STATE_FACTS + POSITION_STATE_FACTS


# ---- transition facts -----------------------------------------------------------------------------
@dataclass
class Transition:
    """One edge of the graph: the state before, the action's index, the events, the state after."""

    pre: State
    index: int
    events: tuple
    post: State
    action_of: Callable[[], Any]    # the Action (computed only when a fact needs it)


@dataclass(slots=True)
class _Summary:
    """What the events of one transition say, read in one pass."""

    breaks: list            # (stack position, shield label), in order
    chosen: list            # shield labels of every choose_shields
    opened_depth: int       # deepest choose_shields frame (0: none)
    resolve: Any            # the resolve event, if any
    skipped: bool
    breaks_after_skip: int
    won: bool


def _summary(t: Transition, memo: dict) -> _Summary:
    found = memo.get("_summary")
    if found is None:
        breaks: list[tuple[Any, Any]] = []
        chosen: list[Any] = []
        resolve: Any = None
        opened, skipped, after, won = 0, False, 0, False
        for e in t.events:
            kind = e.kind
            if kind == "break":
                breaks.append((e.get("frame"), e.get("shield")))
                after += skipped
            elif kind == "choose_shields":
                chosen.extend(e.get("shields") or ())
                opened = max(opened, e.get("frame") or 0)
            elif kind == "resolve" and resolve is None:
                resolve = e
            elif kind == "skip_turn":
                skipped = True
            elif kind == "win":
                won = won or e.rule == "D0"   # the direct attack's win; "you win the game" effects are R104.2
        found = memo["_summary"] = _Summary(breaks, chosen, opened, resolve, skipped, after, won)
    return found


def _action(t: Transition, memo: dict):
    if "_action" not in memo:
        memo["_action"] = t.action_of()
    return memo["_action"]


def _resolved(d: Domains, t: Transition, memo: dict):
    """The pending effect this transition resolved (R509.4a-b), or None.

    Read from the transition's `resolve` event, matched against the effects pending before it; only
    when several pending effects fit the event equally is the action itself asked.
    """
    if "_resolved" in memo:
        return memo["_resolved"]
    event = _summary(t, memo).resolve
    found = None
    if event is not None:
        m = d.model
        fits = {p for p in t.pre.pending
                if p.controller == event.get("controller") and p.frame == event.get("frame")
                and m.ability_label(p.card, p.ability) == event.get("ability")
                and m.label(p.source) == event.get("source")}
        if len(fits) == 1:
            found = next(iter(fits))
        else:
            a = _action(t, memo)
            found = a.choice[0] if a.kind == "resolve" and a.choice else None
    memo["_resolved"] = found
    return found


def _cards(d: Domains, labels) -> set[int]:
    if not labels:
        return set()
    by_label = d.by_label
    return {by_label[label] for label in labels if label in by_label}


def _broken_now(d: Domains, t: Transition, memo: dict) -> frozenset[int]:
    found = memo.get("_broken_now")
    if found is None:
        found = frozenset(_cards(d, [shield for _, shield in _summary(t, memo).breaks]))
        if t.post.broken != t.pre.broken:
            found |= set(t.post.broken) - set(t.pre.broken)
        memo["_broken_now"] = found
    return found


def _chosen_now(d: Domains, t: Transition, memo: dict) -> frozenset[int]:
    chosen = {c for f in t.pre.frames for c in f.chosen}
    return frozenset(chosen | _cards(d, _summary(t, memo).chosen))


def _attack_broke(d: Domains, t: Transition, memo: dict) -> frozenset[int]:
    breaks = _summary(t, memo).breaks
    if not breaks:
        return frozenset()
    pos = next((i for i, f in d.open_frames(t.pre) if f.is_attack), 1)
    return frozenset(_cards(d, [shield for frame, shield in breaks if frame == pos]))


def _frame_key(position: int, frame) -> tuple:
    """What identifies a frame through its life: where it sits, who breaks and what it chose.

    A frame's other fields (replacement decisions, whether its break has begun) change while it is
    open, so frames are matched by this key, never by equality.
    """
    return (position, frame.by, frame.chosen, frame.is_attack)


def _post_open(d: Domains, t: Transition) -> set:
    """The keys of the frames open after the transition."""
    return {_frame_key(i, f) for i, f in d.open_frames(t.post)}


def _closed(d: Domains, t: Transition, memo: dict) -> frozenset[int]:
    if not t.pre.frames:
        return frozenset()
    still = _post_open(d, t)
    return frozenset(i for i, f in d.open_frames(t.pre) if _frame_key(i, f) not in still)


def _attack_frame_closed(d: Domains, t: Transition, memo: dict) -> bool:
    before = next(((i, f) for i, f in d.open_frames(t.pre) if f.is_attack), None)
    if before is not None:
        return _frame_key(*before) not in _post_open(d, t)
    # D1 happened in this very transition and the attack's frame is already gone
    return not t.pre.started and t.post.started and not t.post.winner and _attack_frame(d, t.post) is None \
        and bool(_summary(t, memo).chosen)   # not a direct attack (D0) whose loss was replaced (A15)


def _outer_broke_first(d: Domains, t: Transition, memo: dict) -> bool:
    """A frame broke while a frame opened after it was still open (R603.7b wants last-in, first-out).

    Replays the frame stack through the events: `choose_shields` pushes a frame, a `break` at stack
    position i breaks the frame there and pops everything above it. A frame above i may have closed
    without an event — when every shield it chose had already left the zone (Q10) — so it counts
    against the order only if one of its chosen shields was still in a shield zone: then it would
    have broken that shield, and it cannot have closed yet.
    """
    s = _summary(t, memo)
    if not s.breaks or (len(t.pre.frames) < 2 and not s.chosen):
        return False     # fewer than two frames: nothing to order
    stack = [(not f.broken, {d.labels[c] for c in f.chosen}) for f in t.pre.frames]
    present = {d.labels[c] for c in _in_shields(t.pre) if 0 <= c < d.cards}
    for e in t.events:
        if e.kind == "choose_shields":
            stack.append((True, set(e.get("shields") or ())))
        elif e.kind == "break":
            # events number a frame among the open ones (1 = outermost open); find its stack position
            number = e.get("frame")
            opened = [i + 1 for i, (is_open, _) in enumerate(stack) if is_open]
            pos = opened[number - 1] if number and number <= len(opened) else len(stack)
            if any(is_open and chosen & present for is_open, chosen in stack[pos:]):
                return True
            present.discard(e.get("shield"))
            del stack[pos:]
            if 0 < pos <= len(stack):
                stack[pos - 1] = (False, stack[pos - 1][1])
    return False


def _resolved_field(field: str, none: Any):
    def read(d: Domains, t: Transition, memo: dict) -> Any:
        p = _resolved(d, t, memo)
        return none if p is None else getattr(p, field)
    return read


BREAK_TRANSITION_FACTS: tuple[Fact, ...] = (
    Fact("action", (), "ActionKind", "which kind of decision this transition made",
         lambda d, t, m: _action(t, m).kind),
    Fact("actor", (), "Player", "who made the decision", lambda d, t, m: _action(t, m).player),
    Fact("resolves", (), "Bool", "the decision was to resolve a pending effect (R509.4a-b)",
         lambda d, t, m: _resolved(d, t, m) is not None),
    Fact("resolved_kind", (), "Kind", "the kind of the effect resolved (triggered when none)",
         _resolved_field("kind", "triggered")),
    Fact("resolved_frame", (), "Int", "the frame depth the resolved effect belongs to (-1 when none)",
         _resolved_field("frame", -1)),
    Fact("resolved_controller", (), "Player", "who controls the resolved effect (nobody when none)",
         _resolved_field("controller", "nobody")),
    Fact("broken_now", ("Card",), "Bool", "the shield was broken during this transition (D4)", _broken_now),
    Fact("breaks_now", (), "Int", "how many shields were broken during this transition",
         lambda d, t, m: len(_broken_now(d, t, m))),
    Fact("chosen_now", ("Card",), "Bool", "a frame open before or opened during this transition chose the "
         "shield (R509.3)", _chosen_now),
    Fact("attack_broke", ("Card",), "Bool", "the attack's own frame broke the shield during this transition",
         _attack_broke),
    Fact("attack_frame_closed", (), "Bool", "the attack's own frame was broken (or dropped) during this "
         "transition", _attack_frame_closed),
    Fact("closed", ("Pos",), "Bool", "the frame open at this stack position before the transition is no "
         "longer open after it", _closed),
    Fact("outer_broke_first", (), "Bool", "a frame broke while a frame opened after it was still open",
         _outer_broke_first),
    Fact("opened_depth", (), "Int", "the deepest frame chosen during this transition (0: none; 2: a nested "
         "break, R603.7b)", lambda d, t, m: _summary(t, m).opened_depth),
    Fact("skipped_now", (), "Bool", "the rest of the turn was skipped during this transition (Q09)",
         lambda d, t, m: _summary(t, m).skipped),
    Fact("breaks_after_skip", (), "Int", "shields broken during this transition after it skipped the turn",
         lambda d, t, m: _summary(t, m).breaks_after_skip),
    Fact("won_now", (), "Bool", "somebody won the game by a direct attack during this transition (D0)",
         lambda d, t, m: _summary(t, m).won),
)


# ---- transition facts of the shield check, replacements and destruction ------------------------------
@dataclass(slots=True)
class _Events:
    """What the shield-check, replacement and destruction events of one transition say, in one pass.

    Positions count the transition's events from 1, so facts can say which came first.
    """

    declared: Counter      # card label -> abilities declared for it (SC2/SC3)
    paid: Counter          # card label -> declarations discarding it (S-Back SC2, Sabaki Z SC3)
    discarded: set         # card labels moved to the graveyard as a declaration's discard
    replaced_breaks: set   # shield labels whose break was replaced (D2)
    replacements: int      # replace events of any kind
    destroyed_at: dict     # card label -> position of its first `destroyed`
    attempted_at: dict     # card label -> position of its first `destroy` or `replace`
    left_at: dict          # card label -> position of the first event taking it out of the battle zone
    hidden: set            # card labels destroyed face down or without characteristics (Q12)
    destroy_triggers: Counter   # source label -> "when destroyed" abilities of it that triggered
    watched: Counter       # card id -> how many destructions its "when destroyed" abilities watch for
    watched_hidden: Counter     # ... of cards destroyed face down or without characteristics


def _destroy_trigger(d: Domains, e) -> bool:
    """Whether a `trigger` event is one of a "when destroyed" ability (R701.6b), by the card's definition."""
    source = d.by_label.get(e.get("source"))
    if source is None:
        return False
    ability = (e.get("ability") or "").rpartition("/")[2]
    return any(a.id == ability and a.trigger in DESTROY_TRIGGERS for a in d.model.card(source).abilities)


def _events(d: Domains, t: Transition, memo: dict) -> _Events:
    found = memo.get("_events")
    if found is None:
        found = _Events(Counter(), Counter(), set(), set(), 0, {}, {}, {}, set(), Counter(), Counter(), Counter())
        for n, e in enumerate(t.events, 1):
            kind = e.kind
            if kind == "declare":
                found.declared[e.get("card")] += 1
                if e.get("cost") is not None:
                    found.paid[e.get("cost")] += 1
            elif kind == "move":
                if e.get("to") == "graveyard" and e.rule in ("SC2", "SC3"):
                    found.discarded.add(e.get("card"))
                if e.get("from") == "battle":
                    found.left_at.setdefault(e.get("card"), n)
            elif kind == "replace":
                found.replacements += 1
                if e.get("replaced") == "break":
                    found.replaced_breaks.add(e.get("shield"))
                if e.get("card") is not None:
                    found.attempted_at.setdefault(e.get("card"), n)
            elif kind == "destroy":
                found.attempted_at.setdefault(e.get("card"), n)
            elif kind == "destroyed":
                card = e.get("card")
                found.destroyed_at.setdefault(card, n)
                found.left_at.setdefault(card, n)
                if e.get("face_down") or e.get("characteristics") is False:
                    found.hidden.add(card)
            elif kind == "put":
                if e.get("from") == "battle":
                    found.left_at.setdefault(e.get("card"), n)
            elif kind == "trigger" and _destroy_trigger(d, e):
                found.destroy_triggers[e.get("source")] += 1
        if found.destroyed_at:
            watchers = d.static("watchers", _watchers)
            for label in found.destroyed_at:
                for w, n in watchers.get(d.by_label.get(label), ()):
                    found.watched[w] += n
                    if label in found.hidden:
                        found.watched_hidden[w] += n
        memo["_events"] = found
    return found


def _watchers(d: Domains) -> dict[int, list[tuple[int, int]]]:
    """c -> [(w, n)]: destroying c can trigger n "when destroyed" abilities of w — w's own when c is w,
    "when your Dragon is destroyed" when c is another Dragon of w's owner (model/vocabulary.py TRIGGERS;
    read from the card definitions alone, whatever zone w is in)."""
    m = d.model
    found: dict[int, list[tuple[int, int]]] = {}
    for w in range(d.cards):
        own = sum(1 for a in m.card(w).abilities if a.trigger == "destroyed")
        dragons = sum(1 for a in m.card(w).abilities if a.trigger == "own_dragon_destroyed")
        if own:
            found.setdefault(w, []).append((w, own))
        if dragons:
            for c in range(d.cards):
                if c != w and m.owner(c) == m.owner(w) and m.card(c).has("Dragon"):
                    found.setdefault(c, []).append((w, dragons))
    return found


def _host_left_at(d: Domains, t: Transition, memo: dict) -> frozenset:
    """c -> the position of the first event that tried to destroy, replaced the leaving of, or took out of
    the battle zone the card c lay on before the transition."""
    links = [link for z in t.pre.zones for link in z.links]
    if not links:
        return frozenset()
    ev = _events(d, t, memo)
    out = []
    for c, h, _ in links:
        label = d.labels[h]
        at = [n for n in (ev.attempted_at.get(label), ev.left_at.get(label)) if n]
        if at:
            out.append((c, min(at)))
    return frozenset(out)


def _by_card(d: Domains, values: dict | Counter) -> frozenset:
    """A label -> value map as the sparse value of a function of Card."""
    by_label = d.by_label
    return frozenset((by_label[k], v) for k, v in values.items() if k in by_label and v)


def _card_set(d: Domains, labels) -> frozenset[int]:
    return frozenset(_cards(d, labels))


SHIELD_TRANSITION_FACTS: tuple[Fact, ...] = (
    Fact("declared_now", ("Card",), "Int", "how many abilities were declared for the card during this transition "
         "(`declare`: S-Trigger, G-Strike, S-Back at SC2; Sabaki Z, Revolution 0 at SC3)",
         lambda d, t, m: _by_card(d, _events(d, t, m).declared)),
    Fact("paid_now", ("Card",), "Int", "how many abilities declared during this transition discard the card as "
         "their cost (the `cost` of `declare`: S-Back at SC2, Sabaki Z at SC3)",
         lambda d, t, m: _by_card(d, _events(d, t, m).paid)),
    Fact("discarded_now", ("Card",), "Bool", "the card was discarded to the graveyard for a declaration during "
         "this transition (a `move` to the graveyard at SC2 or SC3, R509.5c)",
         lambda d, t, m: _card_set(d, _events(d, t, m).discarded)),
    Fact("replaced_now", ("Card",), "Bool", "the break of this shield was replaced during this transition "
         "(`replace` with `replaced: break`, D2)", lambda d, t, m: _card_set(d, _events(d, t, m).replaced_breaks)),
    Fact("replacements_now", (), "Int", "how many events were replaced during this transition (breaks, "
         "destructions, leaving the battle zone)", lambda d, t, m: _events(d, t, m).replacements),
    Fact("destroyed_at", ("Card",), "Int", "the position among this transition's events (1 = first) of the "
         "card's first `destroyed` (R701.6b); 0 if it was not destroyed",
         lambda d, t, m: _by_card(d, _events(d, t, m).destroyed_at)),
    Fact("attempted_at", ("Card",), "Int", "the position of the first `destroy` of the card (the attempt, "
         "R701.6a) or `replace` of its destruction or leaving during this transition; 0 if none",
         lambda d, t, m: _by_card(d, _events(d, t, m).attempted_at)),
    Fact("left_at", ("Card",), "Int", "the position of the first event taking the card out of the battle zone "
         "during this transition (`put` or `move` from it, or `destroyed`); 0 if none",
         lambda d, t, m: _by_card(d, _events(d, t, m).left_at)),
    Fact("hidden_destroyed", ("Card",), "Bool", "the card was destroyed face down (a seal) or without "
         "characteristics (a card under an evolution creature) during this transition (Q12)",
         lambda d, t, m: _card_set(d, _events(d, t, m).hidden)),
    Fact("host_left_at", ("Card",), "Int", "the position of the first event that tried to destroy, replaced the "
         "leaving of, or took out of the battle zone the card this card lay on (its creature, its shield); 0 if "
         "none", _host_left_at),
    Fact("destroy_triggers", ("Card",), "Int", "how many \"when destroyed\" abilities of the card triggered "
         "during this transition (R701.6b)", lambda d, t, m: _by_card(d, _events(d, t, m).destroy_triggers)),
    Fact("watched_destroyed", ("Card",), "Int", "how many times the card's \"when destroyed\" abilities watch "
         "the destructions of this transition: its own, and each other Dragon of its owner destroyed (read from "
         "the card text, whatever the face or zone)",
         lambda d, t, m: frozenset((w, n) for w, n in _events(d, t, m).watched.items() if n)),
    Fact("watched_hidden", ("Card",), "Int", "how many of those destructions were of a card face down or without "
         "characteristics (Q12)",
         lambda d, t, m: frozenset((w, n) for w, n in _events(d, t, m).watched_hidden.items() if n)),
)

_BREAK_WORDS = ("breaks", "breaks_one_or_more", "own_creature_breaks")


def _break_triggers_now(d: Domains, t: Transition, memo: dict) -> int:
    """How many "when ... breaks a shield" abilities triggered in this transition (A17, A18)."""
    words = memo.get("_break_words")
    if words is None:
        m = d.model
        words = memo["_break_words"] = {m.ability_label(c, a.id) for c in m.pool.ids()
                                        for a in m.pool[c].abilities if a.trigger in _BREAK_WORDS}
    return sum(1 for e in t.events if e.kind == "trigger" and e.get("ability") in words)


ATTACK_TRANSITION_FACTS: tuple[Fact, ...] = (
    Fact("break_triggers_now", (), "Int", "how many \"when it breaks a shield\" abilities triggered during this "
         "transition (A17, A18)", _break_triggers_now),
)

def _top_only(d: Domains, t: Transition, memo: dict) -> frozenset[int]:
    """The cards that left the battle zone alone this transition, what was under them staying (801.4,
    813.1): named as the top of a `rebuild`, or waiting for their owner's rebuild choice (before 2021-03-16);
    or the card of a psychic super creature its link release sent away, the others turning over (806.1b), or of
    a dragheart super creature its cell escape did (808.1b)."""
    tops = {e.get("top") for e in t.events if e.kind == "rebuild"} | \
        {e.get("card") for e in t.events if e.kind == "move" and e.rule in ("R806.1b", "R808.1b")}
    waiting = {task.program[task.pc].get("card") for task in t.post.running
               if task.pc < len(task.program) and task.program[task.pc].op == "_rebuild_old"}
    return frozenset(_cards(d, tops)) | frozenset(waiting)


# the zones of cards that live in a zone of their own (psychic 805.4b, GR 811.2b)
_HOME_ZONES = ("hyperspatial", "super_gr")


def _went_home(d: Domains, t: Transition, memo: dict) -> frozenset[int]:
    """The cards sent back to their own zone this transition, from wherever a move had put them."""
    return frozenset(_cards(d, {e.get("card") for e in t.events
                                if e.kind == "move" and e.get("to") in _HOME_ZONES}))


PILE_TRANSITION_FACTS: tuple[Fact, ...] = (
    Fact("top_only_now", ("Card",), "Bool", "only this card, the top of a pile, left the battle zone during this "
         "transition; what was under it stays (801.4 rebuild, Star Evolution 813.1, link release 806.1b,"
         " cell escape 808.1b)", _top_only),
    Fact("went_home_now", ("Card",), "Bool", "the card, a psychic or GR creature put outside the battle zone, went "
         "back to its own zone during this transition (805.4b, 811.2b)", _went_home),
)

TOUCH_TRANSITION_FACTS: tuple[Fact, ...] = (
    Fact("zero_destroyed_now", (), "Int", "how many creatures the rules destroyed at power 0 or less during this "
         "transition (`power_zero` events, R703.4c)",
         lambda d, t, m: sum(1 for e in t.events if e.kind == "power_zero")),
    Fact("battles_now", (), "Int", "how many battles were fought during this transition (R508, rule 115)",
         lambda d, t, m: sum(1 for e in t.events if e.kind == "battle")),
)

TRANSITION_FACTS: tuple[Fact, ...] = BREAK_TRANSITION_FACTS + SHIELD_TRANSITION_FACTS + ATTACK_TRANSITION_FACTS + \
    PILE_TRANSITION_FACTS + TOUCH_TRANSITION_FACTS

STATE = {f.name: f for f in STATE_FACTS}
TRANSITION = {f.name: f for f in TRANSITION_FACTS}


def table(d: Domains, fact: Fact, value: frozenset) -> tuple:
    """The values of a function fact at every point of its domain, in `Domains.points` order."""
    keys = [pt[0] if len(pt) == 1 else pt for pt in d.points(fact.args)]
    if fact.result == "Bool":
        return tuple(k in value for k in keys)
    given = dict(value)
    return tuple(given.get(k, fact.default) for k in keys)


def describe_vocabulary() -> list[str]:
    """One line per fact, for `dmcheck check --list` and docs/properties.md."""
    lines = []
    for title, facts in (("state facts (X in state/outcome properties; pre.X and post.X in transition "
                          "properties)", STATE_FACTS), ("transition facts", TRANSITION_FACTS)):
        lines.append(title + ":")
        for f in facts:
            sig = f"{f.name}({', '.join(f.args)})" if f.args else f.name
            lines.append(f"  {sig} : {f.result} — {f.meaning}")
    return lines
