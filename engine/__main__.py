"""`python -m engine ...`: the engine's command line (see `engine.cli`)."""

import os
import sys

from engine.cli import main

try:
    status = main()
except BrokenPipeError:
    # The reader went away (`... | head`): stop quietly instead of printing a traceback.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 1
raise SystemExit(status)
