"""The markers select what they say: `-m e2e` runs the real bot against the emulated Discord.

A marker added to a test after `-m` has deselected selects nothing, and `-m e2e` once picked no
test at all without anyone noticing: a run of it is checked here, in a pytest of its own. Each
module whose tests run the bot against the emulator marks itself, wherever it lives (a game's
folder holds its end-to-end tests next to its rules tests); a module that forgets is named.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# An end-to-end module in the shared folder, one in a game's folder, and one that is not.
E2E_MODULES = ("tests/e2e/test_e2e_help.py", "tests/games/pylons/test_e2e_pylons.py")
OTHER_MODULE = "tests/engine/test_records.py"
# What a test asks for, or brings in, to run the real bot against the emulated Discord.
BOT_FIXTURES = {"hv", "emulator"}
BOT_HELPERS = {"e2e_harness", "bot_processes", "sandbox_process"}
# A module whose text has none of these words asks for none of them (more than half do not).
NAMES_OF_THE_BOT = re.compile(rf"\b({'|'.join(sorted(BOT_FIXTURES | BOT_HELPERS))})\b")


def collected(*args: str) -> list[str]:
    """The ids of the tests that `pytest --collect-only` with `args` would run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_dash_m_e2e_selects_the_end_to_end_tests_and_only_them() -> None:
    ids = collected("-m", "e2e", *E2E_MODULES, OTHER_MODULE)
    for module in E2E_MODULES:
        assert any(i.startswith(module + "::") for i in ids), f"{module} not picked: {ids}"
    assert not [i for i in ids if i.startswith(OTHER_MODULE)], ids


def marks_e2e(tree: ast.Module) -> bool:
    """Whether the module's `pytestmark` holds `pytest.mark.e2e`."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            return "pytest.mark.e2e" in ast.unparse(node.value)
    return False


def runs_the_bot(tree: ast.Module) -> bool:
    """Whether a test of the module asks for the bot or the emulator, or the module brings in
    a helper that starts them."""
    for node in ast.walk(tree):
        is_test = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        )
        if is_test and BOT_FIXTURES & {a.arg for a in node.args.args}:
            return True
        if isinstance(node, ast.ImportFrom) and node.module in BOT_HELPERS:
            return True
        if isinstance(node, ast.Import) and BOT_HELPERS & {a.name for a in node.names}:
            return True
    return False


def test_every_module_that_runs_the_bot_against_the_emulator_is_marked_e2e() -> None:
    unmarked = []
    for path in sorted(TESTS.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if not NAMES_OF_THE_BOT.search(text):
            continue  # names none of them: nothing for the syntax tree to find
        tree = ast.parse(text)
        if runs_the_bot(tree) and not marks_e2e(tree):
            unmarked.append(str(path.relative_to(ROOT)))
    assert not unmarked, f"not marked `pytestmark = pytest.mark.e2e`: {unmarked}"
