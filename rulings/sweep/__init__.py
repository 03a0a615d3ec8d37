"""Sweeps: every position a template generates, checked on local processes or on Ray, with the
results in SQLite (docs/sweeps.md). template (load and check), positions (generate, in a fixed
order), task (one position), store (the database), backends (where tasks run)."""
