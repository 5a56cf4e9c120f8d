"""Reading records: the filter every look at the bot's output shares, and `Reply`, what one
user action brought back. Plain functions and a list type, so that waiting, the history and the
acting side all use them without depending on each other."""

from __future__ import annotations

from collections.abc import Iterable

from .models import MESSAGE_KINDS, Record, Visibility


def matches(
    record: Record,
    visibility: str | Visibility | None,
    kind: str | Iterable[str] | None,
    channel_id: int | None,
    user_id: int | None,
) -> bool:
    """Whether `record` passes every filter given (None: no filter)."""
    if isinstance(visibility, Visibility) and record.visibility != visibility:
        return False
    if isinstance(visibility, str) and record.visibility.kind != visibility:
        return False
    if isinstance(kind, str) and record.kind != kind:
        return False
    if kind is not None and not isinstance(kind, str) and record.kind not in set(kind):
        return False
    if channel_id is not None and record.channel_id != channel_id:
        return False
    return user_id is None or record.visibility.user_id == user_id


def describe(records: Iterable[Record]) -> str:
    """Records one per line, for a failing test's message."""
    return "\n".join(str(r) for r in records) or "(no records)"


class Reply(list[Record]):
    """The records the bot produced in answer to one user action, oldest first."""

    def where(
        self, *, visibility: str | Visibility | None = None, kind: str | None = None
    ) -> Reply:
        return Reply(r for r in self if matches(r, visibility, kind, None, None))

    @property
    def public(self) -> Reply:
        return self.where(visibility="public")

    @property
    def ephemeral(self) -> Reply:
        return self.where(visibility="ephemeral")

    @property
    def dms(self) -> Reply:
        return self.where(visibility="dm")

    @property
    def messages(self) -> Reply:
        return Reply(r for r in self if r.kind in MESSAGE_KINDS and r.kind != "deferred")

    @property
    def texts(self) -> list[str]:
        return [r.text for r in self.messages]

    def __str__(self) -> str:
        return "\n".join(str(r) for r in self) or "(nothing)"
