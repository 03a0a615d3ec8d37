"""The `dmcheck` command line: one subcommand per module, listed once in COMMANDS.

Each subcommand's `run` takes parsed arguments and output streams and returns an exit code
(dmcheck/exits.py), so tests call `main` directly.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from model.errors import InputError

from . import check, diff, explore, stop, verify
from .exits import HELP, Exit
from .options import check_flags

COMMANDS = (explore, check, verify, diff)   # each has add_parser(subparsers) and run(args, out, err)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="dmcheck",
        description="Model-check the Duel Masters break procedure and its rulings: explore every legal "
                    "ordering of a scenario and check what its rulings say must come out.",
        epilog="run 'dmcheck COMMAND --help' for a command's options and examples\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return top


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args = parser().parse_args(argv)
    try:
        check_flags(args)
        with stop.guarded(args):
            return int(args.run(args, out, err))
    except InputError as exc:
        print(f"dmcheck: {exc}", file=err)
        return Exit.BAD_INPUT
    except KeyboardInterrupt:          # Ctrl-C: what was finished, as incomplete (dmcheck/stop.py)
        stop.report(args, out, err, "interrupted")
        return Exit.INTERRUPTED
    except stop.TimeUp:
        stop.report(args, out, err, f"time limit {args.max_seconds:g}s of the whole command reached")
        return Exit.INCOMPLETE


if __name__ == "__main__":
    sys.exit(main())
