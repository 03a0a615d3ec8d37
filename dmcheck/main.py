"""The `dmcheck` command line: one subcommand per module of dmcheck/commands/, listed once in COMMANDS.

Each subcommand's `run` takes parsed arguments and output streams and returns an exit code
(dmcheck/cli/exits.py), so tests call `main` directly.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import importlib
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import TextIO, cast

from dmcheck.model import lang
from dmcheck.model.errors import InputError, ModelError
from dmcheck.model.yamlio import confined

from . import STARTED
from .cli import output, startup, stop
from .cli.exits import HELP, Exit
from .cli.options import check_flags, memory_text, shipped_inputs
from .cli.paths import add_allow_path, confinement
from .cli.report import document, errors_json, model_error_json, model_error_lines, print_errors, print_json

# each is a module of dmcheck/commands/ with add_parser(subparsers) and run(args, out, err); a command
# line that names one imports that one only, so no command pays for the libraries of the others
NAMES = ("explore", "check", "verify", "diff", "sweep", "export", "conform", "coverage", "examples", "cards", "rules")


def command(name: str):
    """The module of the command `name`."""
    return importlib.import_module(f"{__package__}.commands.{name}")


def __getattr__(name: str):
    if name == "COMMANDS":   # every command's module, imported on demand
        return tuple(command(n) for n in NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the whole command line; with `argv` naming a command, of that command alone (a
    mistaken name, `--help` or nothing at all gets them all; `--version` alone none)."""
    named = next((a for a in argv if not a.startswith("-")), None) if argv is not None else None
    if argv is not None and named is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        named = ""   # argparse prints the version before it asks for a command
    top = argparse.ArgumentParser(
        prog="dmcheck",
        description="Model-check the Duel Masters break procedure and its rulings: explore every legal "
                    "ordering of a scenario and check what its rulings say must come out.",
        epilog="run 'dmcheck COMMAND --help' for a command's options and examples\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--version", action="version", version=f"%(prog)s {version()}",
                     help="print the version of dmcheck and exit")
    top.add_argument("--lang", metavar="en|ja",
                     help="the language of traces, outcomes, verdicts, report headings and the HTML page: en "
                          "(default) or ja, in the terms of the comprehensive rules (also DMCHECK_LANG; "
                          "messages about bad input stay English)")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in NAMES:
        if named != "" and (named not in NAMES or name == named):
            add_allow_path(command(name).add_parser(sub))
    return top


def version() -> str:
    """The installed distribution's version, or the source tree's when run from a checkout."""
    try:
        return metadata.version("dmcheck-rules")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"] + " (source tree)"


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None,
         began: float | None = None) -> int:
    """Run one command; `began` (time.monotonic) is when its `--max-seconds` budget began (now if None)."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = parser(sys.argv[1:] if argv is None else argv).parse_args(argv)
    # A command holds its explored graphs (hundreds of thousands of states) until it ends, and each pass
    # of the cycle collector walks all of them again: with it on, building the report of a large graph
    # cost twice as much, and verify a third more CPU. What a command leaves in cycles is small (the
    # same peak memory within a few per cent) and is collected when the command returns.
    collecting = gc.isenabled()
    gc.disable()
    if not getattr(args, "json", False):
        out = cast(TextIO, output.Visible(out))     # names from files are shown, never acted on by a terminal
    spoken = os.environ.get(lang.ENV)
    try:
        if args.lang is not None:
            if lang.problem(args.lang):
                print_errors(InputError("--lang", None, args.lang, lang.problem(args.lang)), err)
                return Exit.BAD_INPUT
            lang.choose(args.lang)      # for this command and the processes it starts
        return _run_command(args, out, err, began)
    finally:
        pools = sys.modules.get("dmcheck.cli.workers")   # loaded only by a command that started workers
        if pools is not None:
            pools.end_all()         # a pool whose owner never got it (Ctrl-C in a constructor) ends here
        if collecting:
            gc.enable()
        if args.lang is not None:       # main() called again in one process starts as it found it
            if spoken is None:
                os.environ.pop(lang.ENV, None)
            else:
                os.environ[lang.ENV] = spoken


def _run_command(args: argparse.Namespace, out: TextIO, err: TextIO, began: float | None) -> int:
    try:
        startup.begun()          # Ctrl-C is the command's from here: what it finished is reported
        shipped_inputs(args, err)
        check_flags(args)
        with stop.guarded(args, began), confined(confinement(args)):
            code = int(args.run(args, out, err))
            out.flush()   # here, so that a reader gone away (`| head`) is caught below, not at exit
        return code
    except InputError as exc:
        print_errors(exc, err)
        if getattr(args, "json", False):   # the JSON reader still gets one object, naming the errors
            print_json(document(args.command, errors_json(exc)), out)
        return Exit.BAD_INPUT
    except ModelError as exc:          # the model went wrong: a bug of dmcheck, with the trace to it
        for line in model_error_lines(exc):
            print(line, file=err)
        if getattr(args, "json", False):
            print_json(document(args.command, [model_error_json(exc)], complete=False), out)
        return Exit.MODEL_ERROR
    except KeyboardInterrupt:          # Ctrl-C: what was finished, as incomplete (dmcheck/cli/stop.py)
        stop.report(args, out, err, "interrupted")
        return Exit.INTERRUPTED
    except ctypes.ArgumentError as exc:
        if "KeyboardInterrupt" not in str(exc):
            raise
        # Ctrl-C landed while Z3's binding converted an argument: ctypes wraps the interrupt
        stop.report(args, out, err, "interrupted")
        return Exit.INTERRUPTED
    except stop.TimeUp:
        stop.report(args, out, err, f"time limit {args.max_seconds:g}s of the whole command reached")
        return Exit.INCOMPLETE
    except stop.MemoryUp:
        stop.report(args, out, err, f"memory limit {memory_text(args.max_memory)} of the process passed "
                                    f"(--max-memory, docs/limits.md)")
        return Exit.INCOMPLETE
    except BrokenPipeError:
        return _closed(out)


def _closed(out: TextIO) -> int:
    """The reader went away (`dmcheck verify | head`): stop quietly, without a traceback."""
    if getattr(out, "stream", out) is sys.stdout:
        # the interpreter flushes stdout at exit: point it at /dev/null so that flush cannot fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return Exit.OUTPUT_CLOSED


def console() -> None:
    """The `dmcheck` command (and `python -m dmcheck`): `main`, then the process ends at once.

    Freeing a large explored graph object by object at the interpreter's exit costs about a second
    per few hundred thousand states, after everything is written: time a `--max-seconds` budget would
    have to cover. Once the output is flushed there is nothing left to do, so the process leaves
    without that teardown (os._exit), except for `sweep`, whose Ray backend shuts down at exit."""
    code = main(began=STARTED)   # the budget counts the process's imports too
    if len(sys.argv) > 1 and sys.argv[1] == "sweep":
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = Exit.OUTPUT_CLOSED
    os._exit(code)


if __name__ == "__main__":
    console()
