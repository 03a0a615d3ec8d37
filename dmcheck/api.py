"""dmcheck as a library: load a scenario, explore it, list its outcomes, replay a key, walk the graph.

Engine developers script dmcheck instead of parsing its reports. Everything returned is one of the
small types below (frozen dataclasses whose fields are plain values: str, int, bool, lists and dicts
of them), so a caller never imports the model, the explorer or the checks, whose modules may move.
Cards are named by their scenario labels (`Vanilla#2`), choices by what they do (docs/api.md).

    >>> import dmcheck
    >>> sc = dmcheck.load("scenarios/rulings/Q09_the_watch.yaml")
    >>> graph = dmcheck.explore(sc)
    >>> [o.outcome["turn_skipped"] for o in graph.outcomes()]
    [False, False, True]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmcheck.explorer.bfs import explore as _explore
from dmcheck.explorer.limits import Limits
from dmcheck.explorer.replay import BadKey
from dmcheck.explorer.replay import replay as _replay
from dmcheck.model.errors import DmcheckError, InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.properties.expectations import check as _check
from dmcheck.properties.verdict import VerdictName

from . import views
from .cli.options import load as _load_file
from .cli.options import reading, rules_date

__all__ = ["Choice", "DmcheckError", "Exploration", "InputError", "Outcome", "Replay", "Scenario", "State", "Step",
           "Verdict", "explore", "load", "replay"]


@dataclass(frozen=True)
class Scenario:
    """A scenario file as loaded: the position, the rules version and readings it runs under."""

    name: str
    file: str
    rules: str                      # the first day of the rules version used (YYYY-MM-DD)
    rules_name: str                 # that version's name (`v1.42`)
    interpretation: dict            # every reading used, name -> reading
    source: tuple[str, ...]         # the citations the file gives
    position: dict                  # views.position: whose turn, each zone's cards, the attack
    cards: dict                     # pool id -> the card's definition, as a card file writes it
    expect: tuple[dict, ...]        # the `expect` items as written
    _scenario: Any = field(default=None, repr=False, compare=False)   # the loaded scenario (internal)


@dataclass(frozen=True)
class Choice:
    """One legal choice: its index among the legal choices, who makes it, what is decided and with
    which cards (`what`: the choice as data, cards by label), and dmcheck's text for it."""

    index: int
    player: str
    kind: str        # declare_attack, block, no_block, choose_shields, resolve, choose, ...
    decision: str    # the kind, or for `choose` the card word deciding (cast_free, replace_break, ...)
    what: Any
    cards: tuple[str, ...]
    text: str

    def label(self) -> dict:
        """The choice as the bundle and the conform protocol write it."""
        return {"index": self.index, "player": self.player, "kind": self.kind, "decision": self.decision,
                "what": self.what, "cards": list(self.cards), "text": self.text}

    @property
    def key(self) -> str:
        """What identifies the choice whatever its index or wording: player, kind, decision, what."""
        return views.choice_key(self.label())


@dataclass(frozen=True)
class Step:
    """One step of a trace: the choice made, how dmcheck narrates it, and the events it caused."""

    index: int
    choice: Choice
    narrated: str                 # the step in rules language, with its rule
    events: tuple[dict, ...]
    lines: tuple[str, ...] = ()   # each event in rules language


@dataclass(frozen=True)
class State:
    """A state as data: each player's zones by label, the effects waiting, the open break frames."""

    key: str                 # the replay key of the path that reached it
    zones: dict
    pending: tuple[dict, ...]
    frames: tuple[dict, ...]
    broken: tuple[str, ...]
    terminal: bool
    outcome: dict | None     # the outcome keys of docs/scenario-format.md, when terminal
    summary: str
    fingerprint: str
    facts: dict = field(default_factory=dict)   # the outcome keys read on this state, terminal or not


@dataclass(frozen=True)
class Outcome:
    """A distinct outcome, how many terminal states give it, and a shortest path to it."""

    outcome: dict
    count: int
    key: str
    node: int


@dataclass(frozen=True)
class Verdict:
    """One `expect` item of the scenario checked on an exploration."""

    expect: dict
    verdict: VerdictName
    reason: str
    key: str | None          # the replay key of its counterexample or example, if any


@dataclass(frozen=True)
class Replay:
    """Where a replay key leads: the steps taken, the state reached and the choices open there."""

    key: str
    steps: tuple[Step, ...]
    state: State
    choices: tuple[Choice, ...]


def load(path: str | Path, *, rules: str | dt.date | None = None,
         interpretation: dict[str, str] | None = None) -> Scenario:
    """Read a scenario file; `rules` (a date) and `interpretation` (readings: name -> reading)
    override the file's, as the command line's `--rules` and `--interpretation` do. InputError
    names the file, line and key."""
    changes: dict[str, Any] = {}
    if rules is not None:
        changes["rules"] = rules if isinstance(rules, dt.date) else rules_date(str(rules))
    if interpretation:
        changes["readings"] = dict(reading(f"{k}={v}") for k, v in interpretation.items())
    return wrap(_load_file(str(path), changes))


def wrap(sc: Any) -> Scenario:
    """The API's Scenario of a scenario the command line loaded already (its overrides applied)."""
    m = BreakModel(sc)
    used = {m.instances[i].card for i in range(len(m.instances))}
    return Scenario(sc.name, sc.file, m.version.date.isoformat(), m.version.name,
                    dict(m.readings.pairs), tuple(sc.source),
                    views.position(m, m.initial_state()),
                    {cid: views.card(m.pool[cid]) for cid in sorted(used)},
                    tuple(e.raw for e in sc.expect), sc)


class Exploration:
    """The explored state graph of one scenario. Nodes are ints, 0 the initial state; each node is
    the state its shortest path (`key`) reaches, so a key replays to it under any search setting."""

    def __init__(self, scenario: Scenario, graph: Any):
        self.scenario = scenario
        self._graph, self._model = graph, graph.model
        self.complete: bool = graph.complete
        self.reason: str = graph.reason
        self.transitions: int = graph.transitions
        self.search: dict = graph.record.to_json()

    @property
    def states(self) -> int:
        return self._graph.count

    def nodes(self) -> range:
        return range(len(self._graph.parent))

    def terminals(self) -> list[int]:
        return list(self._graph.terminals)

    def depth(self, node: int) -> int:
        return self._graph.depth[node]

    def key(self, node: int) -> str:
        return self._graph.key(node)

    def parent(self, node: int) -> tuple[int, int] | None:
        """(the node before it on its shortest path, the index of the choice made there); None for 0."""
        return None if node == 0 else tuple(self._graph.parent[node])

    def state(self, node: int) -> State:
        return _state(self._model, self._graph.state(node), self.key(node))

    def choices(self, node: int) -> list[Choice]:
        """Every legal choice in the node's state (the reduction may have followed fewer: `successors`)."""
        s = self._graph.state(node)
        return [_choice(self._model, s, i, a) for i, a in enumerate(self._model.actions(s))]

    def successors(self, node: int) -> list[tuple[Choice, int]]:
        """The explored edges: each choice followed and the node it leads to."""
        s = self._graph.state(node)
        actions = self._model.actions(s)
        return [(_choice(self._model, s, i, actions[i]), succ) for i, succ, _ in self._graph.successors(node)]

    def trace(self, node: int) -> list[Step]:
        """The shortest path to the node, step by step, with the events of each step."""
        return _steps(self._model, self._graph.trace(node))

    def outcomes(self) -> list[Outcome]:
        """Each distinct outcome (most frequent first), with the node and key of a shortest path to it."""
        return [Outcome(o, n, self.key(node), node) for o, n, node in self._graph.outcomes()]

    def verdicts(self) -> list[Verdict]:
        """The scenario's `expect` items checked on this graph."""
        out = []
        for item in self.scenario._scenario.expect:
            v = _check(self._graph, item)
            out.append(Verdict(item.raw, v.verdict, v.reason, v.trace.key() if v.trace is not None else None))
        return out

    def walk(self) -> Iterator[tuple[int, State, list[tuple[Choice, int]]]]:
        """Every node breadth first with its state and explored edges: the graph as data."""
        for node in self.nodes():
            yield node, self.state(node), self.successors(node)


def explore(scenario: Scenario, *, reduce: bool = False, max_states: int = Limits().max_states,
            max_depth: int = Limits().max_depth, max_seconds: float = Limits().max_seconds,
            max_memory: int = Limits().max_memory) -> Exploration:
    """Every state the scenario can reach, breadth first. `reduce=False` (the default) follows every
    legal choice, every order of waiting effects included; `reduce=True` prunes orders that cannot
    matter (the command line's default: the same outcomes, fewer states). A limit reached (`max_memory`:
    bytes of the process) leaves the exploration incomplete."""
    model = BreakModel(scenario._scenario)
    graph = _explore(model, Limits(max_states, max_depth, max_seconds, max_memory), reduce=reduce, symmetry=False)
    return Exploration(scenario, graph)


def replay(scenario: Scenario, key: str) -> Replay:
    """The steps a replay key (`0/2/1`) takes from the position, the state reached and the choices open
    there. InputError when an index is not a legal choice (it names the step and the legal range)."""
    model = BreakModel(scenario._scenario)
    try:
        done = _replay(model, key)
    except BadKey as exc:
        raise InputError(scenario.file, None, f"replay key {key}", str(exc)) from None
    s = done.state
    trace_key = done.trace.key()
    return Replay(trace_key, tuple(_steps(model, done.trace, done.states)), _state(model, s, trace_key),
                  tuple(_choice(model, s, i, a) for i, a in enumerate(model.actions(s))))


def _choice(model: Any, s: Any, index: int, action: Any) -> Choice:
    d = views.choice(model, s, index, action)
    return Choice(index, d["player"], d["kind"], d["decision"], d["what"], tuple(d["cards"]), d["text"])


def _steps(model: Any, trace: Any, states: tuple | None = None) -> list[Step]:
    """The steps of a trace; the state each step was taken in is replayed when not given."""
    out, s = [], model.initial_state()
    context: dict = {}     # shared by the steps: an event may name the step that caused it
    for n, step in enumerate(trace.steps):
        if states is not None:
            s = states[n]
        choice = _choice(model, s, step.index, step.action)
        context["step"] = n + 1
        header, lines = model.narrate(step.action, tuple(step.events), context)
        out.append(Step(step.index, choice, header, tuple(e.to_json() for e in step.events), tuple(lines)))
        if states is None:
            s = model.step(s, step.action)[0]
    return out


def _state(model: Any, s: Any, key: str) -> State:
    d = views.state(model, s)
    terminal = model.is_terminal(s)
    facts = model.outcome(s)
    return State(key, d["zones"], tuple(d["pending"]), tuple(d["frames"]), tuple(d["broken"]), terminal,
                 facts if terminal else None, model.summary(s), s.fingerprint(), facts)
