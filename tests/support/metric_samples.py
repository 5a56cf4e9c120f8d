"""Reading a process's metrics in a test as a scrape would."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry
from prometheus_client.registry import Collector


def sampler(*counted: Collector) -> Callable[..., float]:
    """How to read the process's metrics `counted` now, by a sample's name and labels (0
    before the first), as a scrape would: in a registry of their own, whatever else the
    process counts."""
    registry = CollectorRegistry()
    for metric in counted:
        registry.register(metric)

    def sample(name: str, labels: dict[str, str] | None = None) -> float:
        return registry.get_sample_value(name, labels) or 0.0

    return sample
