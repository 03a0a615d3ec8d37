"""A correct engine: it follows the bundle it is given, choice for choice and outcome for outcome."""

from common import Engine, main

if __name__ == "__main__":
    main(Engine)
