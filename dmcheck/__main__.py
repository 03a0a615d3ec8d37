"""`python -m dmcheck` and the `dmcheck` command (pyproject.toml: `dmcheck.__main__:console`): Ctrl-C
while the command's modules load ends it quietly (dmcheck/cli/startup.py), then dmcheck/main.py runs it."""

from .cli.startup import starting

starting()     # first: from here on Ctrl-C before the command has begun is a quiet exit 130


def console() -> None:
    from .main import console as run  # the command's modules: imported once Ctrl-C is taken care of

    run()


if __name__ == "__main__":
    console()
