"""Properties and expectations checked on an explored state graph.

`properties` reads states, events and traces through a small graph interface (`graph.py`); it knows
nothing of how the explorer found them.
"""
