"""The subcommands of `dmcheck`, one module per command, named after it (`dmcheck explore` is `explore.py`).

Each module has `add_parser(subparsers)` and `run(args, out, err)` (an exit code) and builds its own
report; dmcheck/main.py lists them once in COMMANDS. A command may import the command-line plumbing
(dmcheck/cli/), the engine runner (dmcheck/engines/) and the Python API; `check` reports what `explore`
reports and reuses its report.
"""
