"""`python -m dmcheck`: the same as the `dmcheck` command."""

from .main import console

console()
