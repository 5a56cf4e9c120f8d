"""`python -m games ...`: the games' command line (see `games.cli`)."""

import os
import sys

from games.cli import main

try:
    status = main()
except BrokenPipeError:
    # The reader went away (`... | head`): stop quietly instead of printing a traceback.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 1
raise SystemExit(status)
