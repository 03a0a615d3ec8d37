"""`python -m dmcheck`: the same as the `dmcheck` command."""

import sys

from .main import main

sys.exit(main())
