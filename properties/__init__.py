"""What is checked on an explored state graph: facts, Z3 properties, expectations, milestones.

It reads states, events and traces through a small graph interface (`graph.py`) and never runs
the explorer: rulings/ and dmcheck/ explore, then hand the graph here.
"""
