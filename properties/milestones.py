"""Milestones of the break procedure, and reading them off the model's traces.

The rulings corpus (scenarios/corpus.yaml) states ordering constraints over a small vocabulary of
procedure milestones — "the before-break effects resolve before the other pending effects", "the
replacements are decided before the before-break abilities trigger" — so that statements of
different sources about the same moments can be compared with each other (Z3, consistency.py) and
with the model (rulings/agreement.py). This module is the vocabulary and the bridge to the model: it
maps the events (and the few decisions that emit none) of one step to milestone *tokens*, and
walks an explored graph to collect every distinct milestone order its complete traces show.

A milestone stands for every moment of its kind in a trace (all the before-break resolutions of
the attack, say). A constraint `a < b` says every `a` comes before every `b`; `first(a)` and
`last(a)` pick one end; `a = b` says they all happen in one step (no decision between them, as
R509.3's "trigger at this point"). A constraint whose milestones do not both occur is vacuous.

Frames follow the events' `frame` key: 1 is the attack's own break, 2 a break chosen while its
before-break effects resolve (R603.7b). Later breaks (after the attack's) carry no milestones.
The milestones are the scenario's first attack's: once the turn player declares another attack or the
next turn begins (model/turn.py), only the end of the turn and a loss are read.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from ..model.state import State

# name -> what it marks, with the rule that defines the moment
MILESTONES: dict[str, str] = {
    "shields_chosen": "the attack's shields to break are chosen (D1, R509.3)",
    "replacements_decided": "a break replacement of the attack is decided for a chosen shield (D2)",
    "before_break_triggered": "a before-break ability triggers for the attack's break (R509.3)",
    "before_break_resolved": "a before-break effect of the attack's break resolves (R509.4)",
    "other_pending_resolved": "an effect triggered while the attack's break was pending resolves (R509.4, R603.7a)",
    "outer_pending_resolved": "such an effect, pending when a nested break was chosen, resolves (R603.7b)",
    "break": "the attack's chosen shields break (D4)",
    "replacements_applied": "a replacement happens instead of the attack's break of a shield (D4)",
    "shield_check": "anything of the attack's shield check: a declaration, a move to the hand, a use (D5)",
    "check_declared": "an S-Trigger, G-Strike or S-Back is declared in that check (SC2)",
    "check_to_hand": "that check puts its cards into the hand (SC3)",
    "check_declared_late": "a Sabaki Z or Revolution 0 is declared in that check (SC3)",
    "check_used": "a declared ability of that check is used, or fizzles (SC4)",
    "after_break_resolved": "a pending effect resolves after the attack's break (D6, SC5)",
    "attack_stopped": "the attack is stopped without a break, the last thing it does (Q10)",
    "nested_shields_chosen": "a before-break effect chooses shields to break: a nested break (R603.7b)",
    "nested_before_break_triggered": "a before-break ability triggers for the nested break (R603.7b)",
    "nested_before_break_resolved": "a before-break effect of the nested break resolves (R603.7b)",
    "nested_other_pending_resolved": "an effect triggered inside the nested break's frame resolves (R603.7b)",
    "nested_break": "the nested break's shields break (R603.7b)",
    "nested_shield_check": "anything of the nested break's shield check (R603.7b, Q05)",
    # the whole attack (model/attack.py)
    "attack_declared": "the attack is declared: attacker and target (R506.1)",
    "attack_trigger_resolved_tp":
        "an effect of the turn player resolves while the attack's triggers resolve, before the non-turn player's "
        "begin (R506.3c; one triggered while those resolve interrupts them, R506.3e, and is not counted)",
    "attack_trigger_resolved_ntp":
        "an effect of the non-turn player resolves while the attack's triggers resolve (R506.3)",
    "tp_declared": "the turn player declares a hidden-zone ability at the attack: Revolution Change, Invasion (R506.3)",
    "ntp_declared":
        "the non-turn player declares a hidden-zone ability at the attack: Ninja Strike, Ninja Change (R506.3)",
    "block": "the non-turn player blocks (R507.2)",
    "battle": "a battle's winner is decided (R508)",
    "end_of_attack": "the end-of-attack step (R510)",
    "end_of_turn": "the turn ends, after its end step (R511)",
    "game_lost": "a player loses the game (R104.2a, R509.1)",
    # cards made of several cards (model/instructions/pile_moves.py)
    "pile_left": "a creature of several cards leaves the battle zone with its sources and auras (801, 310.8)",
    "rebuilt": "only the top card of a creature left; what was under it stays as the creature (801.4)",
    # power and the rest of the attack (model/power.py, model/touch.py)
    "power_zero": "a creature at power 0 or less is destroyed by the rules (R703.4c)",
    "attack_end_declared": "a hidden-zone ability is declared at the end of the attack: Kirifu Dash (R510)",
}

# milestones that are parts of another: (part, whole) — the part's moments lie among the whole's
PARTS: tuple[tuple[str, str], ...] = (
    ("outer_pending_resolved", "other_pending_resolved"),
    ("check_declared", "shield_check"),
    ("check_to_hand", "shield_check"),
    ("check_declared_late", "shield_check"),
    ("check_used", "shield_check"),
)
# milestones that happen wherever their cause happens: a pile leaves when the effect moving it resolves,
# a creature at power 0 goes when its power changes, a creature is rebuilt when its top card leaves. The
# corpus says what they do, not where the procedure puts them, so which order a scenario shows them in
# depends on its cards; the corpus agreement check does not ask the model to show every order of them that
# the statements leave open (rulings/agreement.py, unreached pairs), while their constraints still hold
CAUSED: frozenset[str] = frozenset({"pile_left", "rebuilt", "power_zero"})
# an ability resolves after it triggers
TRIGGER_THEN_RESOLVE: tuple[tuple[str, str], ...] = (
    ("before_break_triggered", "before_break_resolved"),
    ("nested_before_break_triggered", "nested_before_break_resolved"),
)

_EARLY = ("S-Trigger", "G-Strike", "S-Back")
_CLOSING = frozenset({"end_of_attack", "end_of_turn"})
_LATER = frozenset({"end_turn", "lose"})   # the events still read once the first attack is over
_ATTACK_TOKENS = {"attack": "attack_declared", "block": "block", "battle": "battle", "end_attack": "end_of_attack",
                  "end_turn": "end_of_turn", "lose": "game_lost", "power_zero": "power_zero",
                  "leave_together": "pile_left", "rebuild": "rebuilt"}   # piles
Groups = tuple[tuple[str, ...], ...]   # the milestone tokens of each step that had any, in order


@dataclass(frozen=True, slots=True)
class Walk:
    """Where a trace is, as far as milestones go: the phases of the attack's and the nested break,
    which shield check the next check events belong to, the triggers still waiting, and the tokens."""

    attack: int = 0                  # 0 not chosen, 1 open, 2 broken (or cancelled)
    nested: int = 0                  # 0 none yet, 1 open, 2 broken
    check: int = 0                   # whose check the check events belong to: 0 none, 1 attack, 2 nested
    waiting: tuple[tuple[tuple, str], ...] = ()   # (trigger key, class) in the order they triggered
    groups: Groups = ()
    declared: bool = False           # the first attack was declared
    later: bool = False              # a later attack or the next turn has begun (model/turn.py)


def before_break_abilities(model: Any) -> frozenset[str]:
    """The labels (`Card/ability`) of every before-break ability in the scenario's pool."""
    return frozenset(model.ability_label(cid, a.id) for cid in model.pool.ids()
                     for a in model.pool[cid].abilities_with("before_break"))


def _attack_open(s: State) -> bool:
    return any(f.is_attack and not f.broken for f in s.frames)


def _deciding_replacement(s: State) -> bool:
    if not s.running:
        return False
    task = s.running[-1]
    return task.pc < len(task.program) and task.program[task.pc].op == "_replace_break"


def _declared(e, pre: State) -> str:
    """A hidden-zone declaration at the attack's trigger (R506.3: whose) or at its end (R510)."""
    if e.rule == "R510":
        return "attack_end_declared"
    return "tp_declared" if e.get("player") == pre.turn else "ntp_declared"


def step(w: Walk, pre: State, events: tuple, post: State, bb: frozenset[str]) -> Walk:
    """The walk after one step (the decision taken in `pre`, its events, the state `post`). One transition
    function over the events of a step: each branch updates the same local walk (attack, nested frame,
    shield check, waiting effects); the helpers below add an event's tokens."""
    attack, nested, check, waiting = w.attack, w.nested, w.check, list(w.waiting)
    cut, declared = _first_attack_ends(events, w)
    tokens: list[str] = []
    if attack == 1 and nested != 1 and _deciding_replacement(pre):
        tokens.append("replacements_decided")   # D2: a decision, which emits no event of its own
    for e in events[:cut]:
        kind = e.kind
        frame = e.get("frame")
        if kind == "choose_shields":
            check = 0
            if frame == 1 and attack == 0:
                attack = 1
                tokens.append("shields_chosen")
            elif frame == 2 and attack == 1:
                nested = 1
                tokens.append("nested_shields_chosen")
                # what the attack's frame has pending now waits across the nested break (R603.7b)
                waiting = [(k, "outer" if c == "attack" else c) for k, c in waiting]
        elif kind == "trigger":
            key = (e.get("ability"), e.get("source"), e.get("controller"), frame)
            waiting.append((key, _waits_as(e, frame, attack, nested, bb, tokens)))
        elif kind == "resolve":
            check = 0
            _resolved(e, frame, pre, attack, waiting, tokens, w.groups)
        elif kind == "break":
            if frame == 1 and attack == 1:
                tokens.append("break")
                attack, check = 2, 1
            elif frame == 2 and nested == 1:
                tokens.append("nested_break")
                nested, check = 2, 2   # the attack's break may follow in the same step (R603.7b)
        elif kind == "replace" and e.get("replaced") == "break":
            if nested == 1:
                check = 2
            elif attack == 1 or (attack == 2 and check == 1):
                tokens.append("replacements_applied")
                attack, check = 2, 1
        elif kind == "declare" and e.rule in ("R506.3", "R510"):
            tokens.append(_declared(e, pre))
        elif kind in ("declare", "shield_trigger", "fizzle") or \
                (kind == "move" and e.get("from") == "shields" and e.get("to") == "hand"):
            _shield_checked(kind, e, check, tokens)
        elif kind == "attack_stopped":
            tokens.append("attack_stopped")
        elif kind == "battle" and e.rule != "R508":
            pass   # a battle an effect starts (rule 115) is no step of the attack: not the milestone `battle`
        elif kind in _ATTACK_TOKENS:
            tokens.append(_ATTACK_TOKENS[kind])
    tokens += [_ATTACK_TOKENS[e.kind] for e in events[cut:] if e.kind in _LATER]
    if attack == 1 and not _attack_open(post):
        attack = 2   # the attack's frame closed with nothing broken (Q10) or the turn was skipped (Q09)
    if nested == 1 and post.depth() < 2:
        nested = 2
    groups = _grouped(w.groups, tokens) if tokens else w.groups
    return Walk(attack, nested, check, tuple(waiting), groups, declared, w.later or cut < len(events))


def _first_attack_ends(events: tuple, w: Walk) -> tuple[int, bool]:
    """How many of a step's events are still the first attack's (the rest: a later attack's or the next
    turn's, model/turn.py), and whether the first attack has been declared by then."""
    if w.later:
        return 0, True
    declared = w.declared
    for i, e in enumerate(events):
        if e.kind == "start_turn" or (e.kind == "attack" and declared):
            return i, declared
        declared = declared or e.kind == "attack"
    return len(events), declared


def _waits_as(e: Any, frame: Any, attack: int, nested: int, bb: frozenset[str], tokens: list[str]) -> str:
    """The class a triggered ability waits in (which milestone its resolution is), noting the trigger
    of a before-break ability of the attack's or the nested break."""
    if e.get("ability") in bb:
        if frame == 1 and attack == 1:
            tokens.append("before_break_triggered")
            return "bb1"
        if frame == 2 and nested == 1:
            tokens.append("nested_before_break_triggered")
            return "bb2"
        return ""
    if frame == 1 and attack == 1:
        return "attack"
    if frame == 2 and nested == 1:
        return "nested"
    return ""


_RESOLVED = {"bb1": ("before_break_resolved",), "bb2": ("nested_before_break_resolved",),
             "attack": ("other_pending_resolved",),
             "outer": ("other_pending_resolved", "outer_pending_resolved"),
             "nested": ("nested_other_pending_resolved",)}


def _resolved(e: Any, frame: Any, pre: State, attack: int, waiting: list, tokens: list[str],
              groups: Groups) -> None:
    """The tokens of an effect resolving, by the class it waited in (it stops waiting)."""
    key = (e.get("ability"), e.get("source"), e.get("controller"), frame)
    at = next((i for i, (k, _) in enumerate(waiting) if k == key), None)
    cls = waiting.pop(at)[1] if at is not None else ""
    tokens.extend(_RESOLVED.get(cls, ()))
    if attack == 2 and pre.phase not in ("end_attack", "end_turn"):   # not the end step's (R511)
        tokens.append("after_break_resolved")
    if e.rule == "R506.3":
        if e.get("controller") != pre.turn:
            tokens.append("attack_trigger_resolved_ntp")
        elif "attack_trigger_resolved_ntp" not in tokens and not any("attack_trigger_resolved_ntp" in g
                                                                     for g in groups):
            tokens.append("attack_trigger_resolved_tp")
        # else R506.3e: a turn player's effect that triggered while the non-turn player's resolve goes
        # first, then his resume; it interrupts them and is no part of the turn player's own turn (506.3c)


def _shield_checked(kind: str, e: Any, check: int, tokens: list[str]) -> None:
    """The tokens of a shield check's card declared, used or put into the hand (`check`: whose check)."""
    if check == 1:
        tokens.append("shield_check")
        if kind == "declare":
            tokens.append("check_declared" if e.get("ability") in _EARLY else "check_declared_late")
        else:
            tokens.append("check_to_hand" if kind == "move" else "check_used")
    elif check == 2:
        tokens.append("nested_shield_check")


def _grouped(groups: Groups, tokens: list[str]) -> Groups:
    """The walk's groups after a step with these tokens (one group, a token repeated at once kept once)."""
    group = tuple(t for i, t in enumerate(tokens) if i == 0 or tokens[i - 1] != t)
    core = tuple(g for g in group if g not in _CLOSING)
    if groups and (not core or core == tuple(g for g in groups[-1] if g not in _CLOSING)):
        # the end of the attack (or of the turn) closes the last step: a step repeating the previous
        # one, or doing nothing else, makes no order of its own (so the attack's closing milestones
        # split no order of the break in two)
        return groups[:-1] + (groups[-1] + tuple(g for g in group if g in _CLOSING and g not in groups[-1]),)
    if not groups or groups[-1] != group:
        return groups + (group,)
    return groups


@dataclass
class Orders:
    """The distinct milestone orders of a graph's complete traces, each with a shortest path to it."""

    paths: dict[Any, list[tuple[int, int]]]   # an order (or what `key` made of it) -> a shortest path
    complete: bool
    reason: str = ""

    def present(self) -> set[str]:
        return {t for groups in self.paths for g in groups for t in g}


def orders(graph: Any, cap: int = 200_000, key: Any = None) -> Orders:
    """Walk the product of the graph with the milestone walk, breadth first (shortest paths first).

    Each (node, walk) pair is visited once; a terminal node's walk is one order of milestones.
    `key(node, groups)` names what is collected (default: the order itself; `dmcheck diff` adds the
    outcome). More than `cap` pairs makes the result incomplete (never a silent pass).
    """
    model = graph.model
    bb = before_break_abilities(model)
    start = (0, Walk())
    parent: dict[tuple, tuple | None] = {start: None}
    queue = deque([start])
    found: dict[Groups, tuple] = {}
    complete, reason = graph.complete, graph.reason
    while queue:
        node, walk = current = queue.popleft()
        if graph.is_terminal(node):
            found.setdefault(walk.groups if key is None else key(node, walk.groups), current)
            continue
        pre = graph.state(node)
        for index, succ, events in graph.successors(node):
            nxt = (succ, step(walk, pre, events, graph.state(succ), bb))
            if nxt in parent:
                continue
            if len(parent) >= cap:
                complete, reason = False, f"more than {cap} milestone walks"
                queue.clear()
                break
            parent[nxt] = (current, index)
            queue.append(nxt)
    paths = {}
    for groups, end in found.items():
        path, cur = [], end
        while (link := parent[cur]) is not None:
            prev, index = link
            path.append((prev[0], index))
            cur = prev
        paths[groups] = list(reversed(path))
    return Orders(paths, complete, reason)


def occurrences(groups: Groups) -> dict[str, list[tuple[int, int]]]:
    """milestone -> [(position among all tokens, step group)] of one order."""
    out: dict[str, list[tuple[int, int]]] = {}
    pos = 0
    for g, group in enumerate(groups):
        for token in group:
            out.setdefault(token, []).append((pos, g))
            pos += 1
    return out


def show(groups: Groups) -> str:
    """One order as text: steps separated by ' | ', each milestone once per step."""
    return " | ".join(", ".join(dict.fromkeys(g)) for g in groups)
