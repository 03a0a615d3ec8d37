"""What the properties of a check observe of one transition, so that reduction keeps it in view.

A transition's signature is the projection, onto the facts the applicable properties read, of the
transition itself (for transition properties) and of the state it leads to (for state and outcome
properties). The explorer prunes alternative orders only when they all have the same signature
(explorer/reduction.py, C2), so every projection a property could be violated on stays in the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from .facts import Domains, Fact, Transition
from .property import Property
from .symbols import Vocabulary, scope_for, symbols_of

POSITIONS = 8   # frame positions read; a state with deeper frames is always visible


def observer(model: Any, properties: list[Property] | tuple[Property, ...]) -> Callable[..., Hashable] | None:
    applicable = [p for p in properties if not p.applies(model)]
    if not applicable:
        return None
    domains = Domains(model, POSITIONS)
    vocab = Vocabulary(domains.labels, domains.positions)
    state_facts: list[tuple[Fact, str]] = []
    transition_facts: list[tuple[Fact, str]] = []
    for prop in applicable:
        formula = prop.condition(scope_for(vocab, prop.over))
        for name in sorted(symbols_of(vocab, formula)):
            _, fact, where = vocab.symbol(name)
            item = (fact, where)
            bucket = transition_facts if prop.over == "transitions" else state_facts
            if item not in bucket:
                bucket.append(item)

    def observe(pre, action, events, post) -> Hashable:
        if len(post.frames) >= POSITIONS or len(pre.frames) >= POSITIONS:
            return ("deep", id(post))   # beyond the positions read: never alike
        memo_pre: dict = {}
        memo_post: dict = {}
        t = Transition(pre, -1, events, post, lambda: action)
        memo_t: dict = {}
        sig = [fact.read(domains, post, memo_post) for fact, _ in state_facts]
        for fact, where in transition_facts:
            if where == "pre":
                sig.append(fact.read(domains, pre, memo_pre))
            elif where == "post":
                sig.append(fact.read(domains, post, memo_post))
            else:
                sig.append(fact.read(domains, t, memo_t))
        return tuple(sig)

    return observe
