"""What a test process does before its first test, which `-n` has every worker do: it is kept
to what the tests need.

The test modules' asserts are rewritten once, by `-n`'s controller, and its workers use that: a
run of pytest with two workers on a small project of its own, fresh (no rewritten modules yet),
where each worker tells, through pytest's own trace of its assertion rewriting, which modules
it rewrote and which it found already rewritten.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rewrite_once
from conftest import TEST_PROCESS_GC_THRESHOLD
from rewrite_once import rewrite_stale_modules

SUPPORT = Path(__file__).parent / "support"

CONFTEST = """
import json
from pathlib import Path

import pytest
from rewrite_once import rewrite_before_workers_start


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    rewrite_before_workers_start(session.config)


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        config.heard = []
        config.trace.root.setprocessor("assertion", lambda tags, args: config.heard.append(args[0]))


def pytest_collection_finish(session):
    config = session.config
    if hasattr(config, "workerinput"):
        Path(f"heard-{config.workerinput['workerid']}.json").write_text(json.dumps(config.heard))
"""


def test_hypothesis_is_imported_without_plugins_for_libraries_the_tests_do_not_use() -> None:
    import hypothesis  # as the property tests import it

    assert hypothesis.__version__
    assert "trio" not in sys.modules  # selenium's, registered as a plugin of hypothesis


def test_workers_find_every_test_module_rewritten_by_the_controller(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(CONFTEST)
    modules = [tmp_path / f"test_m{n:02}.py" for n in range(16)]
    (tmp_path / "deeper").mkdir()
    modules += [tmp_path / "deeper" / "conftest.py", tmp_path / "deeper" / "test_deeper.py"]
    for n, module in enumerate(modules):
        module.write_text(f"def test_{n}():\n    assert {n} + 1 == {n + 1}\n")
    modules[-2].write_text("import pytest\n")  # a conftest is rewritten too
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("PYTEST_") and name != "PYTHONDONTWRITEBYTECODE"
    }
    env["PYTHONPATH"] = str(SUPPORT)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only xdist, which the run names

    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "xdist", "-n", "2", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert "17 passed" in run.stdout
    for worker in ("gw0", "gw1"):
        heard = json.loads((tmp_path / f"heard-{worker}.json").read_text())
        found = {
            Path(message.removeprefix("found cached rewritten pyc for "))
            for message in heard
            if message.startswith("found cached rewritten pyc for ")
        }
        assert found == set(modules), worker  # each found rewritten, so none rewritten again


def test_a_pytest_without_the_rewriting_it_uses_leaves_it_to_the_workers(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As if a pytest release had renamed it: nothing is written and nothing fails. (The
    # writing is watched, not done: this is a live run's config.)
    monkeypatch.delattr("_pytest.assertion.rewrite._read_pyc")
    written: list[object] = []
    monkeypatch.setattr(rewrite_once, "rewrite", lambda *args: written.append(args))
    rewrite_stale_modules(request.config)
    assert written == []


# The modules of the tests in a real browser, which the default run collects and leaves out.
BROWSER_TEST_MODULES = [
    Path(__file__).parent / "sandbox" / "test_sandbox_browser.py",
    Path(__file__).parent / "sandbox" / "test_sandbox_owner_browser.py",
    Path(__file__).parent / "e2e" / "test_e2e_live_board_browser.py",
]


def test_collecting_the_browser_tests_leaves_seleniums_driver_unimported(
    request: pytest.FixtureRequest,
) -> None:
    # Every test process collects them: selenium's waits and <select> helper, which import its
    # whole remote driver, are imported by the browser tests that run, not at collection.
    if any(Path(item.path) in BROWSER_TEST_MODULES for item in request.session.items):
        pytest.skip("browser tests run in this session: they import selenium's driver")
    collected = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    for path in BROWSER_TEST_MODULES:
        if str(path) not in collected:  # not collected here: imported as collection would
            spec = importlib.util.spec_from_file_location(f"_collected_{path.stem}", path)
            assert spec is not None and spec.loader is not None
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert "selenium.webdriver.support.ui" not in sys.modules
    assert "selenium.webdriver.remote.webdriver" not in sys.modules


def test_a_test_process_collects_garbage_seldom_and_never_walks_what_collection_built() -> None:
    # Any process that runs tests (each of `-n`'s workers, or pytest alone), whatever ran in
    # it before: see TEST_PROCESS_GC_THRESHOLD in conftest.
    assert gc.get_threshold() == TEST_PROCESS_GC_THRESHOLD
    collected = test_a_test_process_collects_garbage_seldom_and_never_walks_what_collection_built
    assert gc.is_tracked(collected)
    assert all(each is not collected for each in gc.get_objects()), "not frozen"
