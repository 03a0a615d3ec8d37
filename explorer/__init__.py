"""Explicit-state search over any model that follows `protocol.py`: breadth first, states deduplicated,
shortest traces, limits, and the reduction and symmetry a model opts into. It knows no game."""
