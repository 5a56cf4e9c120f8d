"""The test modules' asserts rewritten once for all of `-n`'s workers, not once by each.

pytest rewrites every test module's asserts when it imports it, and keeps the result in a
`__pycache__/<module>.<tag>-pytest-<version>.pyc` that later imports read instead. On a fresh
clone there are none yet, and xdist's workers all collect the same modules at the same moment:
each rewrites every module itself, the suite's largest fixed cost (a few CPU-seconds per
worker). Here the controller writes those files first, before it starts the workers, in as many
processes as the machine has cores; the workers then find them as they would after any run.

It uses pytest's own rewriting (`_pytest.assertion.rewrite`), which is not a public API: if a
pytest release changes it, or anything here fails, nothing is written and the workers rewrite
the modules themselves, as without this.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

# The controller's config, inherited by the forked processes that rewrite (a config does not
# pickle; a fork copies it as it is).
_config: pytest.Config | None = None


def rewrite_before_workers_start(config: pytest.Config) -> None:
    """In the controller of a `-n` run, write the rewritten modules its workers will import.

    Called from `pytest_sessionstart`, which runs before xdist starts the workers. Does nothing
    in a run without workers, or in a worker: there each module is imported once anyway.
    """
    if config.pluginmanager.has_plugin("dsession"):  # xdist's controller, and only it
        rewrite_stale_modules(config)


def rewrite_stale_modules(config: pytest.Config) -> None:
    """Write the rewritten copies the run's modules lack; on any failure (a pytest whose
    internals changed), write what it could and leave the rest to the workers, as without this."""
    with contextlib.suppress(Exception):
        rewrite(stale_modules(config), config)


def stale_modules(config: pytest.Config) -> list[Path]:
    """The modules the workers will rewrite that have no up-to-date rewritten copy.

    They are the test modules (`python_files`) and `conftest.py` files under the run's paths;
    a file the workers will not import costs a wasted rewrite, a file missed costs what it costs
    without this."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir
    from _pytest.pathlib import fnmatch_ex

    if config.getoption("assertmode") != "rewrite" or sys.dont_write_bytecode:
        return []
    patterns = [*config.getini("python_files"), "conftest.py"]
    modules = [path for path in _python_files(config) if any(fnmatch_ex(p, path) for p in patterns)]
    return [
        path
        for path in modules
        if _read_pyc(path, get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)) is None
    ]


def _python_files(config: pytest.Config) -> Iterator[Path]:
    """The `.py` files under the run's paths (`testpaths`, or those named on the command line),
    leaving out the folders pytest does not collect from."""
    from _pytest.pathlib import fnmatch_ex

    ignored = config.getini("norecursedirs")
    for arg in config.args:
        start = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if start.is_file():
            yield start
            continue
        for folder, subfolders, files in os.walk(start):
            subfolders[:] = [
                name
                for name in subfolders
                if name != "__pycache__" and not any(fnmatch_ex(p, name) for p in ignored)
            ]
            yield from (Path(folder, name) for name in files if name.endswith(".py"))


def rewrite(modules: list[Path], config: pytest.Config) -> None:
    """Write the rewritten copy of each module where pytest's import looks for it, sharing the
    modules between one process per core (forked: the rewriting is CPU-bound Python)."""
    global _config
    _config = config
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    processes = min(cores or 1, len(modules) // 8)  # a few modules: not worth starting processes
    if processes < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for module in modules:
            _rewrite_one(module)
        return
    largest_first = sorted(modules, key=lambda path: path.stat().st_size, reverse=True)
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(processes, mp_context=fork) as pool:
        for _ in pool.map(_rewrite_one, largest_first):
            pass


def _rewrite_one(module: Path) -> None:
    """Rewrite one module as pytest's import would, and keep it as that import would."""
    from _pytest.assertion.rewrite import (
        PYC_TAIL,
        _rewrite_test,
        _write_pyc,
        assertstate_key,
        get_cache_dir,
        try_makedirs,
    )

    assert _config is not None
    state: Any = _config.stash[assertstate_key]
    cache = get_cache_dir(module)
    try:
        source_hash, code = _rewrite_test(module, _config)
    except SyntaxError:
        return  # the worker that imports it reports it
    if try_makedirs(cache):
        _write_pyc(state, code, source_hash, cache / (module.name[:-3] + PYC_TAIL))
