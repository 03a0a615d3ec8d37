"""Enumerates every legal way a scenario can go: breadth-first, states deduplicated, shortest traces."""
