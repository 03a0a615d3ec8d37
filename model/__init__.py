"""The game as a state machine: the attack's procedure, cards and their instructions, rules versions, readings.

`model` imports no other package of the project: it turns a scenario into an initial state, lists
the legal actions of a state in a deterministic order, and steps a state by one action, emitting the
events that happened (rules R509, R603.7, flow D0-D7), following explorer/protocol.py by shape only.
"""
