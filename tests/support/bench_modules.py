"""Benchmark scripts imported by tests: `bench/` is a folder of scripts, not a package (the load
benchmark, a package of its own, is imported as `bench.load`)."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


@functools.cache
def bench_module(name: str) -> ModuleType:
    """The script `bench/<name>.py` as a module, loaded once per test process."""
    spec = importlib.util.spec_from_file_location(f"{name}_bench", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module
