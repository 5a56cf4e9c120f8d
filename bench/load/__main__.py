"""`python -m bench.load`: the load benchmark from the command line (see the package)."""

import sys

from .cli import main

sys.exit(main())
