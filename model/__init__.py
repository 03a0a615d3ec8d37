"""The break procedure of the direct attack step as a state machine.

`model` knows nothing of the explorer or of properties: it turns a scenario into an initial state,
lists the legal actions of a state in a deterministic order, and steps a state by one action,
emitting the events that happened (rules R509, R603.7, flow D0-D7 of docs/domain.md).
"""
