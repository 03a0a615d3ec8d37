"""Breaking shields: which replacement takes each chosen shield's break (D2), and the break (D4).

When the decision is made is an open choice (`break_replacement_timing`, model/readings.py):
- `at_break` (S001/Q11, default): every chosen shield gets its before-break trigger (R509.3); the
  replacements are decided when the break comes, after the before-break effects. A Shield Saver
  destroyed meanwhile can no longer protect.
- `before_triggers` (S002 D2-D3): the replacements are decided right after the shields are chosen;
  only the shields that will really break get a before-break trigger; at the break the decided
  replacements happen whatever became of their source.
Each player decides for his own replacement effects, turn player first; a shield's break is
replaced at most once, and one replacement effect serves one shield only (D2). The breaking
creature's own replacement (a shield burn, Bolmeteus White Dragon: `self_break`) belongs to its
controller: in his turn he decides first, so a defender's castle finds the break already replaced
(A19, D-6: dmwiki "シールド焼却", undated, and "ブレイク置換効果", 2024-01-14); it applies to every
shield its creature breaks. Whether a castle's
"another shield" may be one chosen for the same break is the choice `castle_other_shield`; such a
shield is then put into the hand by the castle instead of being broken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event, ev
from ..state import Frame, Replacement, State, Task, other, replace
from . import destruction, shield_check
from .registry import NONE, Option, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

CANNOT_BE_BROKEN = Replacement("cannot be broken")
BROKEN_SHIELD = "broken_shield"   # the bind naming the shield a replacement's effect replaces the break of


# the replacement words a break's decisions look for (Shield Saver, a castle, the breaker's own A19)
REPLACING = frozenset({"own_shield_break", "fortified_shield_break", "self_break"})


def decision_program(m: Game, s: State, frame: Frame) -> tuple:
    """One decision per chosen shield and player, turn player first; none when no card of the scenario
    could replace a break (each decision would offer nothing: about 6 % of a Kakumeijin step)."""
    if not m.words & REPLACING:
        return ()
    return tuple(instr("_replace_break", shield=c, who=who) for c in frame.chosen
                 for who in (s.turn, other(s.turn)))


def candidates(m: Game, s: State, frame: Frame, shield: int, who: str) -> list[Replacement]:
    """The replacement effects `who` could apply to the break of `shield` now."""
    owner = frame.defender
    if who != owner:
        return breaker_replacements(m, s, frame, who)
    z = s.zone(owner)
    used = {r.source for _, r in frame.replaced if r.source >= 0}
    targets = {r.target for _, r in frame.replaced if r.target >= 0}
    out = []
    savers_here = "own_shield_break" in m.words   # no card of the scenario has one: no Saver to look for
    for cid in z.battle if savers_here else ():   # Shield Saver
        savers = m.card(cid).replacements("own_shield_break") if m.abilities_work(s, cid) else ()
        reading = saver_reading(m, s, cid) if savers else ""
        if reading == "unusable" or (cid in used and reading != "unlimited"):
            continue
        for ability in savers:
            out.append(Replacement(m.ability_label(m.instances[cid].card, ability.id), cid,
                                   m.instances[cid].card, ability.id))
    by_opponent_creature = frame.by_creature and m.owner(frame.by) != owner
    for castle in z.hosted(shield, "castle"):   # Hustle Castle: another own shield instead
        if castle in used or not by_opponent_creature:
            continue
        # D2 (S002): not a shield another castle already took; `castle_other_shield` says whether
        # a shield chosen for this same break may be the other shield
        exclude = targets | {shield} | {c for c, _ in frame.replaced}
        free_chosen = (set(frame.chosen) & set(z.shields)) - exclude
        if not (free_chosen and m.readings.get("castle_other_shield") == "not_used"):
            exclude |= set(frame.chosen)
        for ability in m.card(castle).replacements("fortified_shield_break"):
            for other_shield in m.shield_choices(s, owner, 1, exclude=exclude):
                out.append(Replacement(m.ability_label(m.instances[castle].card, ability.id), castle,
                                       m.instances[castle].card, ability.id, other_shield[0]))
    return out


def breaker_replacements(m: Game, s: State, frame: Frame, who: str) -> list[Replacement]:
    """A19: the replacement effects of the breaking creature itself (`self_break`, a shield burn), for
    its controller, while it is in the battle zone (an ability of a creature that left no longer applies)."""
    by = frame.by
    if "self_break" not in m.words or not frame.by_creature or m.owner(by) != who or by not in s.zone(who).battle \
            or not m.abilities_work(s, by):
        return []
    return [Replacement(m.ability_label(m.instances[by].card, a.id), by, m.instances[by].card, a.id)
            for a in m.card(by).replacements("self_break")]


def _optional(m: Game, r: Replacement) -> bool:
    """Whether the player may decline replacement `r` (a shield burn, `optional: false`, may not)."""
    if r.source < 0:
        return True
    return next(a for a in m.pool[r.card].abilities if a.id == r.ability).optional


def saver_reading(m: Game, s: State, cid: int) -> str:
    """How often a Saver that cannot be destroyed may replace breaks (`indestructible_saver`, DS01);
    "" for a Saver that can be destroyed (the reading is not looked up: nothing differs)."""
    if not m.has_keyword(s, cid, "cannot_be_destroyed"):
        return ""
    return m.readings.get("indestructible_saver")


def _replace_options(m, s, task, ins):
    opts = replace_options(m, s, s.frames[-1], ins.get("shield"), ins.get("who"))
    if len(opts) == 1 and opts[0][0] != NONE:
        return None   # a replacement that must apply (a shield burn, A19): nothing to decide
    return opts


def replace_options(m: Game, s: State, frame: Frame, shield: int, who: str) -> list[Option]:
    """What `who` may decide for the break of `shield` now (none: nothing to decide)."""
    if shield not in s.zone(frame.defender).shields or any(c == shield for c, _ in frame.replaced) \
            or shield in taken(frame):
        return []
    if m.card(shield).has("cannot_be_broken"):
        return []   # "cannot be broken" needs no decision; it is applied at the break
    found = candidates(m, s, frame, shield, who)
    if not found:
        return []
    opts: list[Option] = []
    for r in found:
        extra = f", putting {m.label(r.target)} into the hand instead" if r.target >= 0 else ""
        opts.append(((r,), f"{who} replaces the break of {m.label(shield)} with {r.label}{extra}"))
    if any(_optional(m, r) for r in found):
        opts.append((NONE, f"{who} lets {m.label(shield)} be broken"))
    return opts


def _replace(m, s, task, ins, choice, out):
    frame = s.frames[-1]
    if choice is None:   # the one replacement that must apply
        choice = replace_options(m, s, frame, ins.get("shield"), ins.get("who"))[0][0]
    if choice == NONE:
        return s
    done = replace(frame, replaced=frame.replaced + ((ins.get("shield"), choice[0]),))
    return replace(s, frames=s.frames[:-1] + (done,))


op("_replace_break", chooser=lambda m, s, t, i: i.get("who"))((_replace_options, _replace))


def decides(m: Game, s: State, frame: Frame, at_choice: bool = False) -> bool:
    """Whether deciding the replacements of `frame`'s break now would offer any choice.

    At the choice of the shields (`at_choice`) a shield that cannot be broken also counts: deciding
    then takes it out of the before-break count (D3). When nothing is to be decided, both readings
    of `break_replacement_timing` do the same, so the model does not look the reading up.
    """
    if at_choice and any(m.card(c).has("cannot_be_broken") for c in frame.chosen):
        return True
    if not m.words & REPLACING:
        return False
    return any(replace_options(m, s, frame, c, who) for c in frame.chosen for who in (s.turn, other(s.turn)))


def taken(frame: Frame) -> set[int]:
    """Chosen shields another replacement puts into the hand instead (`castle_other_shield=not_used`)."""
    return {r.target for _, r in frame.replaced if r.target in frame.chosen}


def replaced(m: Game, frame: Frame, shield: int) -> Replacement | None:
    for c, r in frame.replaced:
        if c == shield:
            return r
    if m.card(shield).has("cannot_be_broken"):
        return CANNOT_BE_BROKEN
    return None


def _trigger_before_break(m, s, task, ins, choice, out):
    """S002 D3: the shields that will really break are known; one before-break trigger for each."""
    frame = s.frames[-1]
    breaking = tuple(c for c in frame.chosen if replaced(m, frame, c) is None and c not in taken(frame))
    return m.trigger_before_break(s, frame, len(breaking), out)


op("_trigger_before_break")((lambda m, s, t, i: None, _trigger_before_break))


def _carry_out(m, s, task, ins, choice, out):
    return m.carry_out_break(s, out)


op("_carry_out")((lambda m, s, t, i: None, _carry_out))


def carry_out(m: Game, s: State, out: list[Event]) -> State:
    """D4: break the chosen shields still there, all at once, carrying out the decided replacements."""
    frame = s.frames[-1]
    depth = s.depth()   # the frame's number as choose_shields gave it: open frames, this one included
    z = s.zone(frame.defender)
    present = tuple(c for c in frame.chosen if c in z.shields)
    frames = s.frames[:-1] + (replace(frame, broken=True),)
    if not present:
        # Q10: every chosen shield has left the zone; pending effects resolve, the attack is stopped
        return replace(s, frames=frames, stop_attack=s.stop_attack or frame.is_attack)
    rule = "R509.4c" if frame.is_attack and s.attacker_left else ("R603.7b" if depth > 1 else "D4")
    breaking, programs = [], []
    for c in present:
        if c in taken(frame):
            continue   # another replacement puts it into the hand instead of the break
        r = replaced(m, frame, c)
        if r is None:
            breaking.append(c)
            out.append(ev("break", rule, shield=m.label(c), player=frame.defender, by=m.label(frame.by), frame=depth))
            continue
        out.append(ev("replace", "D4", replaced="break", by=r.label, shield=m.label(c)))
        if r.source >= 0:
            ability = next(a for a in m.pool[r.card].abilities if a.id == r.ability)
            # the replacement's own moves are not replaced again (S014 R101.5, S005/S017: a used Saver dies)
            binds: tuple[tuple[str, int], ...] = (("target", r.target),) if r.target >= 0 else ()
            binds += ((BROKEN_SHIELD, c),)   # the shield whose break it replaces (a shield burn, A19)
            programs.append(Task(program=ability.effect, pc=0, controller=m.owner(r.source), source=r.source,
                                 ability=r.label, binds=binds + ((destruction.REPLACING, 1),)))
    broke = s.broke
    if breaking and frame.by_creature and frame.by not in broke:   # Kirifu Dash reads it (R510)
        broke = tuple(sorted(broke + (frame.by,)))
    s = replace(s, frames=frames, broken=tuple(sorted(s.broken + tuple(breaking))), broke=broke)   # one copy
    s = break_triggers(m, s, frame, tuple(breaking), out)
    s = shield_check.start(m, s, frame.defender, tuple(breaking), out, collecting=True)
    for t in reversed(programs):   # the replacements happen with the break; recovered shields join its check
        s = push(s, t)
    return s


# the events a break emits (model/trigger_patterns.py; `words` holds those some ability watches)
BREAK_WORDS = frozenset({"breaks", "breaks_one_or_more", "shield_leaves"})


def break_triggers(m: Game, s: State, frame: Frame, broken: tuple[int, ...], out: list[Event]) -> State:
    """A17, A18, A20: "when it breaks a shield" once per shield really broken (a replaced break is no
    break), "one or more" once, "a card leaves the shield zone" once per card. They wait like every
    effect triggered in a shield check until its uses are over (R509.5e)."""
    words = m.words & BREAK_WORDS
    if not words or not broken:
        return s
    if frame.by_creature:
        breaker = m.owner(frame.by)
        if "breaks" in words:
            for _ in broken:
                s = m.trigger(s, "breaks", breaker, frame.by, out)
        if "breaks_one_or_more" in words:
            s = m.trigger(s, "breaks_one_or_more", breaker, frame.by, out)
    if "shield_leaves" in words:
        for c in broken:
            s = m.trigger(s, "shield_leaves", frame.defender, c, out)
    return s


def _burn(m, s, task, ins, choice, out):
    """A19 (shield burn): the shield whose break this replaces goes to its owner's graveyard instead of
    the hand, with its castle (R304.3); no shield check, and "a card leaves the shield zone" counts both."""
    shield = task.bound(BROKEN_SHIELD)
    if shield is None:
        return s
    owner = m.owner(shield)
    z = s.zone(owner)
    if shield not in z.shields:
        return s
    castles = z.hosted(shield, "castle")
    z = z.remove("shields", shield).unlink(shield).add("graveyard", shield)
    out.append(ev("move", "A19", card=m.label(shield), player=owner, **{"from": "shields", "to": "graveyard"}))
    for castle in castles:
        z = z.remove("attached", castle).unlink(castle).add("graveyard", castle)
        out.append(ev("move", "R304.3", card=m.label(castle), player=owner, **{"from": "shields", "to": "graveyard"}))
    s = s.with_zone(owner, z)
    return shield_check.left_shield_zone(m, s, owner, (shield,) + castles, out)


_SCHEMA_BURN_SHIELD = {
    "doc": "a `self_break` replacement's effect: the shield whose break it replaces goes to its owner's "
           "graveyard instead (shield burn, A19)",
    "properties": {},
}
op("burn_shield", schema=_SCHEMA_BURN_SHIELD)((lambda m, s, t, i: None, _burn))
