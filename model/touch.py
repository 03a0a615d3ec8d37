"""The attack's other triggers, who may block, and the hidden-zone uses at other times.

A mixin of the procedure (BreakModel), placed before model/attack.py's AttackSteps and the
declarations (model/declarations.py), whose methods it extends with `super()`:
- "when this creature is attacked", "when one of your creatures is attacked", "when you are
  attacked" trigger at the declaration with the attack's other triggers (R506.3; dmwiki
  "被アタックトリガー"); "when this creature is blocked" once the block step is decided, before the
  battle (R507.3, like "when it blocks").
- Blockers (R507.1): a creature given Blocker this turn can block; one whose abilities are ignored
  cannot; an attacker with `Unblockable` cannot be blocked, one with `Evasion:power<=N` not by a
  creature whose power is N or less then; a Blocker with `Must Block` blocks if able.
- Attack Chance and the turn player's Oni End are declared with Revolution Change and Invasion, at the
  moment the attack triggers (R506.3, dmwiki "アタック・チャンス"); the non-turn player's Oni End in
  his Ninja Strike window (`ntp_declaration_time`); Kirifu Dash at the end of the attack (R510,
  dmwiki "キリフダッシュ"). Each declared card waits as its player's effect (model/instructions/hidden.py).
- A Super S-Trigger or S-Trigger Plus used with its condition met is marked with its bonus when it is
  used (model/instructions/conditions.py reads the mark).
"""

from __future__ import annotations

from functools import cached_property

from . import continuous, seals
from .attack_end import AttackEnd
from .census import ops_of
from .characteristics import has_race
from .declarations import Declarations
from .events import Event, ev
from .gods import creature
from .instructions.declaring import meets
from .keyword_table import PARAMS
from .keywords import EVASION, IGNORE, value, values
from .mana import seen
from .restrictions import CANNOT_BE_BLOCKED, restricted
from .state import Pending, State, other, replace
from .trigger_patterns import LEAVING
from .triggers import TRIGGERED, Triggers
from .turn import TurnSteps
from .vocabulary import ATTACK_DECLARED, IGNORED, Keyword

ATTACKED = frozenset({"attacked", "player_attacked"})   # the events (their trigger words are in `words` too)
HIDDEN_ATTACK = frozenset({"attack_chance", "oni_end"})
# abilities used from the hand (never ignored: 無視 reaches the battle zone only), and the events that
# trigger as their creature leaves the battle zone (model/trigger_patterns.py: judged as it was just
# before, 603.5c)
HIDDEN_WORDS = frozenset(ATTACK_DECLARED)


class Touch(TurnSteps, Triggers, AttackEnd, Declarations):
    """See the module docstring. Expects the card table, `trigger`, `words`, `readings`,
    PowerRules' `has_keyword` and `power`, and the declarations' `_declared_name`."""

    # ---- statics that ignore abilities (`Ignore:cost<=N`) ------------------------------------------
    @cached_property
    def ignorers(self) -> tuple[tuple[int, int], ...]:
        """(creature, N) for each card of the scenario whose abilities ignore those of cost N or less."""
        found = []
        for inst in self.instances:
            n = value(self.pool[inst.card].keywords, IGNORE)
            if n is not None:
                found.append((inst.id, n))
        return tuple(found)

    @cached_property
    def statics(self) -> tuple[tuple[int, continuous.Static], ...]:
        """(card, static ability) for each static of a card of the scenario (model/continuous.py)."""
        return continuous.sources(self)

    @cached_property
    def elsewhere(self) -> tuple[str, ...]:
        """The zones besides the hand from which a static of the scenario may let a card be executed (R110.4d,
        `execute_from`): () for almost every scenario, whose hidden-zone abilities are looked for in the hand only."""
        return tuple(z for z in continuous.ELSEWHERE
                     if any(st.change == continuous.EXECUTE and st.value == z for _, st in self.statics))

    def execution_zone(self, s: State, cid: int) -> str:
        """The zone `cid` can be executed from now ("" when none): model/continuous.py `execution_zone`."""
        return continuous.execution_zone(self, s, cid)

    @cached_property
    def sealing(self) -> bool:
        """Whether a seal lies on a card of the scenario or a card word may put one (`seal`, 116.1a)."""
        return any(kind == seals.SEAL for setup in self.scenario.players.values() for _, _, kind, _ in setup.extras) \
            or any("seal" in ops_of(self.pool[i.card]) for i in self.instances)

    @cached_property
    def seal_rule(self) -> bool:
        """Whether 703.4j can apply: a seal lies somewhere and a card of the scenario is a Command."""
        return self.sealing and any(has_race(self.pool[i.card].race_names(), seals.COMMAND)
                                    for i in self.instances)

    def static_restricts(self, s: State, cid: int, what: str) -> bool:
        """Whether a static of a card in force puts restriction `what` on `cid` (model/restrictions.py asks)."""
        return continuous.restricts(self, s, cid, what)

    def ignored(self, s: State, cid: int) -> bool:
        """R110-style ignoring (無視): an `ignore` effect this turn, or another creature's `Ignore` static
        while that creature is in the battle zone and its own abilities are not ignored by an effect
        (dmwiki "無視"; the judges' page on Gemm Emperor)."""
        if (cid, IGNORED) in s.granted:
            return True
        cdef = self.card(cid)
        for g, n in self.ignorers:
            if g != cid and cdef.type == "creature" and cdef.cost <= n and g in s.zone(self.owner(g)).battle \
                    and cid in s.zone(self.owner(cid)).battle and (g, IGNORED) not in s.granted:
                return True
        return False

    # ---- the one place abilities are read (無視: an ignored ability does nothing, wherever it is read) ----
    def abilities_work(self, s: State, cid: int) -> bool:
        """Whether the card's abilities work now: not while they are ignored. Every reader of a keyword
        and every replacement of a creature in the battle zone asks this (through the methods below or
        directly), so no rule honours the ignoring in one place and reads the printed ability in another
        (a step that never ended: the power-0 check saw an ignored Indestructible, destruction read it)."""
        return not ((s.granted or self.ignorers) and self.ignored(s, cid)) and \
            not (self.sealing and seals.sealed(self, s, cid))   # 116.2: a sealed creature's abilities do nothing

    def has_keyword(self, s: State, cid: int, word: Keyword) -> bool:
        """Printed, given this turn or given by a static in force (R604.2), unless the card's abilities are
        ignored (asked only of a card that has the keyword: most questions are about a keyword the card lacks).
        A linked God has every card's keywords (804.1b). `word`: a mechanism parameter of the keyword table
        (`redirect_block`: any keyword setting it, model/keyword_table.py) or a keyword's name."""
        if not (creature(self, s, cid).has(word) or (s.granted and _granted(s, cid, word))
                or (self.statics and any(continuous.gives(self, s, cid, k) for k in PARAMS.get(word, (word,))))):
            return False
        return self.abilities_work(s, cid)

    def keyword_count(self, s: State, cid: int, word: Keyword) -> int:
        """How many times the card has a keyword now, printed copies and each effect giving it one (110.7,
        110.2c: each works on its own, Slayer twice destroys twice) and each static in force giving it one;
        0 while its abilities are ignored. `word`: a mechanism parameter or a keyword's name."""
        if not self.abilities_work(s, cid):
            return 0
        names = PARAMS.get(word, (word,))
        return creature(self, s, cid).count(word) + sum(1 for c, w in s.granted if c == cid and w in names) \
            + sum(continuous.gives(self, s, cid, k) for k in names)

    def keyword_total(self, s: State, cid: int, head: Keyword) -> int:
        """The sum over the copies of an additive valued keyword the card prints (`Power Attacker:+N`,
        `Extra Break:+N`: 110.7, 110.2c, each copy adds its own); 0 while its abilities are ignored."""
        if not self.abilities_work(s, cid):
            return 0
        return sum(values(creature(self, s, cid).keywords, head))

    def keyword_limit(self, s: State, cid: int, head: Keyword) -> int | None:
        """The widest copy of a threshold keyword (`Evasion:power<=N`: each copy works on its own, 110.2c,
        so the greatest N decides); None without one or while its abilities are ignored."""
        if not self.abilities_work(s, cid):
            return None
        return value(creature(self, s, cid).keywords, head)

    def breaker(self, s: State, cid: int) -> int:
        """How many shields the creature's breaker ability breaks (509.2b); one with it ignored or without
        one (509.2a). With several (a static gives one, 509.2c) the printed one or the smallest: the choice
        among them is `breakers`, offered where the rules of the time break shields together."""
        return self.breakers(s, cid)[0] if self.statics else \
            (creature(self, s, cid).breaker if self.abilities_work(s, cid) else 1)

    def breakers(self, s: State, cid: int) -> tuple[int, ...]:
        """R509.2c: the count of each breaker ability the creature has now, printed or given by a static, the
        printed one first; (1,) without any (509.2a) or with its abilities ignored."""
        if not self.abilities_work(s, cid):
            return (1,)
        printed = creature(self, s, cid).breaker   # 804.1b: a linked God's greatest
        given = sorted({int(v) for v in continuous.values(self, s, cid, continuous.BREAKER)} - {printed}) \
            if self.statics else []
        return ((printed,) if printed > 1 or not given else ()) + tuple(given)

    def add_pending(self, s: State, p: Pending, out: list[Event], rule: str) -> State:
        """An ability of a creature whose abilities are ignored does not trigger (dmwiki "無視": only in the
        battle zone); one that triggers as its creature leaves is judged as it was just before (603.5c)."""
        if (s.granted or self.ignorers or self.sealing) and self._silenced(s, p):
            return s
        return Triggers.add_pending(self, s, p, out, rule)   # (named: the hottest call of a trigger, no super())

    def _silenced(self, s: State, p: Pending) -> bool:
        ability = next((a for a in self.pool[p.card].abilities if a.id == p.ability), None)
        if ability is None or ability.zone != "battle" or ability.trigger in HIDDEN_WORDS:
            return False   # from the hand or the graveyard: ignoring reaches the battle zone only
        src = p.source
        if src not in s.zone(self.owner(src)).battle and \
                (ability.pattern is None or LEAVING.isdisjoint(ability.pattern.on)):
            return False
        if (src, IGNORED) in s.granted or (self.sealing and seals.sealed(self, s, src)):   # 116.2
            return True
        cdef = self.card(src)
        return any(g != src and cdef.type == "creature" and cdef.cost <= n and g in s.zone(self.owner(g)).battle
                   for g, n in self.ignorers)

    # ---- R506.3: "when attacked" -------------------------------------------------------------------
    def declare_attack(self, s: State, out: list[Event]) -> State:
        s = super().declare_attack(s, out)
        if not self.words & ATTACKED:
            return s
        if s.target >= 0:
            return self.trigger(s, "attacked", self.owner(s.target), s.target, out)
        return self.trigger(s, "player_attacked", s.defender, s.attacker, out)

    # ---- R507: blocks --------------------------------------------------------------------------------
    def block_triggers(self, s: State, out: list[Event], designated: bool = False) -> State:
        s = super().block_triggers(s, out, designated)
        if designated and s.blocked and "blocked" in self.words and s.attacker in s.zone(s.turn).battle:
            s = self.trigger(s, "blocked", s.turn, s.attacker, out)
        return s

    def blockers(self, s: State) -> tuple[int, ...]:
        """The Blockers of R507.1 that may block this attacker: none if it is Unblockable; with
        Evasion:power<=N, those whose power is more than N when they are chosen."""
        a = s.attacker
        if restricted(self, s, a, CANNOT_BE_BLOCKED):   # printed Unblockable or an effect's (R101.2)
            return ()
        limit = self.keyword_limit(s, a, EVASION)
        found = super().blockers(s)
        return found if limit is None else tuple(c for c in found if self.power(s, c) > limit)

    def block_actions(self, s: State):
        """A Blocker with `Must Block` that can block must: no choice leaves it out. Where several
        Blockers may be used at once, every one forced to block is among those chosen (507.1b of Ver.1.48:
        two forced Blockers are both chosen); with one Blocker at most, it is one of them."""
        acts = super().block_actions(s)
        must = {c for c in self.blockers(s) if self.has_keyword(s, c, "must_block")}
        if not must:
            return acts
        if self.version.several_blockers:
            return tuple(a for a in acts if a.kind == "block" and must <= set(a.choice))
        return tuple(a for a in acts if a.kind == "block" and must & set(a.choice))

    # ---- R506.3: Attack Chance and Oni End with the other declarations -----------------------------
    def usable_at_attack(self, s: State, player: str, card: int) -> bool:
        """Whether `player` may declare this hand card's Attack Chance or Oni End now."""
        for ability in self.card(card).abilities:
            cond = next((i for i in ability.effect if i.op == ability.trigger), None)
            if ability.trigger == "attack_chance" and player == s.turn and meets(self, s.attacker, cond):
                return True
            if ability.trigger == "oni_end" and self._oni_end(s, player, cond):
                return True
        return False

    def _oni_end(self, s: State, player: str, cond) -> bool:
        """鬼エンド: a player has no shields, and `player`'s mana zone has each named civilization."""
        if all(s.zone(p).shields for p in ("A", "B")):
            return False
        need = (cond.get("mana_all_of") if cond is not None else None) or ()
        z = s.zone(player)   # a face-down mana card is colourless (405.4)
        return all(any(civ in seen(self, z, c).civs for c in z.mana) for civ in need)

    def _hidden_in_hand(self, s: State, player: str, found: tuple[int, ...]) -> tuple[int, ...]:
        """`found` with the hand cards usable now by Attack Chance or Oni End, every copy (dmwiki
        "アタック・チャンス", S312: no limit to how many one attack uses; no rule limits a name to one)."""
        return found + tuple(c for c in s.zone(player).hand
                             if c not in found and self.usable_at_attack(s, player, c))

    def tp_declarables(self, s: State) -> tuple[int, ...]:
        found = super().tp_declarables(s)
        return self._hidden_in_hand(s, s.turn, found) if self.words & HIDDEN_ATTACK else found

    def ninjas(self, s: State) -> tuple[int, ...]:
        found = super().ninjas(s)
        if "oni_end" not in self.words or s.ntp_declared:
            return found
        return self._hidden_in_hand(s, other(s.turn), found)

    def ninja_combos(self, s: State) -> list[tuple[int, ...]]:
        """One Ninja Strike (and one Ninja Change) as model/declarations.py says, with any number of Oni Ends."""
        cards = self.ninjas(s)
        oni = [c for c in cards if self.card(c).abilities_with("oni_end")]
        if not oni:
            return super().ninja_combos(s)
        rest = [c for c in cards if c not in oni]
        changes = [c for c in rest if self.card(c).abilities_with("ninja_change")]
        strikes = [c for c in rest if c not in changes]
        base = [(c,) for c in rest] + [(k, c) for k in changes for c in strikes]
        onis = self.declaration_sets(s, tuple(oni), range(1, len(oni) + 1))
        return base + onis + [b + o for b in base for o in onis]

    # ---- R510: Kirifu Dash ---------------------------------------------------------------------------
    def at_end_of_attack(self, s: State, out: list[Event]) -> State:
        s = super().at_end_of_attack(s, out)
        if "kirifu_dash" not in self.words or s.attacker not in s.broke or not self.attacker_still_there(s):
            return s
        for c in s.zone(s.turn).hand:   # every copy may be used: no rule limits a name to one
            key = self.instances[c].card
            ability = next((a for a in self.card(c).abilities if a.trigger == "kirifu_dash"), None)
            if ability is None:
                continue
            out.append(ev("declare", "R510", card=self.label(c), player=s.turn, ability="Kirifu Dash"))
            s = self.add_pending(s, Pending(TRIGGERED, s.depth(), s.turn, key, ability.id, c), out, "R510")
        return s

    # ---- Super S-Trigger, S-Trigger Plus: the bonus is decided as the card is declared -------------
    def mark_bonus(self, s: State, player: str, card: int, out: list[Event]) -> State:
        """The bonus is decided when the S-Trigger is declared (SC2), not as each declared card is used:
        the official Q&A of 2023-02-17 (two Super S-Triggers declared together, the first adding a shield:
        the second keeps its bonus). dmwiki "スーパー・S・トリガー": the bonus if its owner has no shields
        then (the shields in standby are not counted, R113.6a); "S・トリガー・プラス": in the opponent's
        turn, if two or more of its owner's shields were broken this turn (whether the ones now being
        checked count is the reading `s_trigger_plus_count`)."""
        if self.has_keyword(s, card, "bonus_without_shields"):
            ok = not s.zone(player).shields
        elif self.has_keyword(s, card, "bonus_two_broken"):
            ok = player != s.turn and self._broken_this_turn(s, player) >= 2
        else:
            return s
        if not ok:
            return s
        out.append(ev("bonus", "SC2", card=self.label(card), player=player))
        return replace(s, bonus=tuple(sorted(s.bonus + (card,))))

    def _broken_this_turn(self, s: State, player: str) -> int:
        mine = [c for c in s.broken if self.owner(c) == player]
        if self.readings.get("s_trigger_plus_count") == "excludes_current" and s.checks:
            mine = [c for c in mine if c not in s.checks[-1].cards]   # those of the check now declaring
        return len(mine)


def _granted(s: State, cid: int, word: str) -> bool:
    """Whether an effect gave `cid` this turn a keyword setting the parameter `word` (or named `word`)."""
    return any((cid, k) in s.granted for k in PARAMS.get(word, (word,)))
