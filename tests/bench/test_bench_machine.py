"""What the load benchmark reads of the machine (`bench.load.machine`): a bot's CPU with its
workers counts the workers that ended too, so the total is never below the bot's own."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from bench.load.machine import cpu_seconds

BURN_S = 0.3  # the CPU a child spends before it ends

# A parent (as a bot) that, told to, starts a child (as a worker) spending BURN_S of CPU,
# waits for it to end, and says so.
PARENT = f"""
import subprocess, sys
print("ready", flush=True)
sys.stdin.readline()
subprocess.run([sys.executable, "-c",
    "import time\\nt = time.process_time()\\nwhile time.process_time() - t < {BURN_S}: pass"],
    check=True)
print("done", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def parent() -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_a_descendant_that_ended_still_counts(parent: subprocess.Popen[str]) -> None:
    assert parent.stdin is not None and parent.stdout is not None
    assert parent.stdout.readline() == "ready\n"
    before, own_before = cpu_seconds(parent.pid), cpu_seconds(parent.pid, descendants=False)
    parent.stdin.write("go\n")
    parent.stdin.flush()
    assert parent.stdout.readline() == "done\n"  # the child ended and was waited for
    spent = cpu_seconds(parent.pid) - before
    own = cpu_seconds(parent.pid, descendants=False) - own_before
    assert spent >= BURN_S - 0.02, (spent, own)
    assert own < BURN_S / 2, "the parent's own time is its own: the child's is apart"
