"""A file the bot sends (`hvbot.messages.post.upload`): sent as discord.py sends any file, and
freed with its bytes once sent, without waiting for the garbage collector."""

from __future__ import annotations

import io

import discord
from cyclic_garbage import cyclic_garbage, kinds

from hvbot.messages.outgoing import send_kwargs, upload
from hvbot.messages.post import Picture, Post


def test_a_sent_file_leaves_no_cycle_holding_its_bytes() -> None:
    with cyclic_garbage() as garbage:
        post = Post("Ada to move.", files=[Picture("board.png", b"png" * 1000, "")])
        (sent,) = send_kwargs(post)["files"]
        # What discord.py does with it: read it (again on a retry), then close it once sent.
        sent.reset(seek=False)
        assert sent.fp.read() == b"png" * 1000
        sent.reset(seek=True)
        sent.close()
        assert not sent.fp.closed, "the caller's buffer, as discord.py leaves it"
        del sent
    assert garbage == [], kinds(garbage)


def test_a_file_is_named_described_and_read_as_discord_file_reads_one() -> None:
    ours = upload(b"png", "board.png", "The board.")
    theirs = discord.File(io.BytesIO(b"png"), filename="board.png", description="The board.")
    assert isinstance(ours, discord.File)
    assert ours.to_dict(0) == theirs.to_dict(0)
    assert ours.fp.read() == theirs.fp.read() == b"png"
    ours.close()
    ours.fp.close()  # the buffer's own close again, as before it was sent
    assert ours.fp.closed
