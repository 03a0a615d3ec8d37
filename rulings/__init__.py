"""The rulings corpus and everything that reasons over it: consistency, readings, corpus agreement, verify, diff.

The layer that runs the explorer: it explores each ruling's scenarios under rules versions and
readings, then hands the graphs to properties/ for checking.
"""
