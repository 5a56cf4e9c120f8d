"""Work kept while what it was made from still holds, the least recently used going first.

Some answers cost a whole game's history or a whole server's results to make (an export, a
server's /stats), and people ask for the same one again. Each is kept under a key with the
stamp of what it was made from (the moves it walked, the count of results it summed): asked
again with the same stamp it is the same answer, and with another it is made anew. At most
`most` are kept, so memory stays bounded however many games or servers ask.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
S = TypeVar("S")
V = TypeVar("V")


class Kept(Generic[K, S, V]):
    """Values by key, each good while its stamp is the one asked with."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError("at least one value is kept")
        self.most = most
        self._kept: OrderedDict[K, tuple[S, V]] = OrderedDict()

    def get(self, key: K, stamp: S) -> V | None:
        """The value kept under `key`, if it was made under `stamp`; else None."""
        found = self._kept.get(key)
        if found is None or found[0] != stamp:
            return None
        self._kept.move_to_end(key)
        return found[1]

    def latest(self, key: K) -> V | None:
        """The value kept under `key`, whatever stamp it was made under (None: none kept):
        for work that can be brought up to date more cheaply than made anew."""
        found = self._kept.get(key)
        if found is None:
            return None
        self._kept.move_to_end(key)
        return found[1]

    def keep(self, key: K, stamp: S, value: V) -> None:
        """Keep `value`, made under `stamp`, in place of what `key` held."""
        self._kept[key] = (stamp, value)
        self._kept.move_to_end(key)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)
