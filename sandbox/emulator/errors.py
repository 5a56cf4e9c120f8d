"""The two ways a test's action fails: the bot let a user down, or the test asked for
something no Discord user could do. Both are assertion errors, so a test reports them as its
own failure rather than as a crash of the emulator."""

from __future__ import annotations


class InteractionFailed(AssertionError):
    """The bot did not acknowledge an interaction in time (the user sees 'did not respond')."""


class EmulatorUsageError(AssertionError):
    """A test asked for something a Discord user could not do (unknown command, hidden button)."""


class CommandNotShown(EmulatorUsageError):
    """The member's Discord does not offer the command: it asks for permissions they lack
    (`default_member_permissions`), or it is not offered where they are (a DM)."""
