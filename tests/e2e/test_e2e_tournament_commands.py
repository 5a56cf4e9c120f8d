"""/tournament through the emulated Discord: who may open one, refusals said privately in the
asker's language and changing nothing, a start time typed in a zone that starts it by itself
when the (moved) clock reaches it, the standings privately or for the channel, pause and
cancel by its creator, and /help naming tournaments."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from e2e_harness import BotHarness
from moved_clock import MovedClock
from tournament_play import (
    SIGNUP,
    game_over,
    open_tournament,
    pictures,
    rounds_paired,
    sign_up,
    status,
    wait_for_round,
    with_custom_id,
)

from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Visibility, layout
from sandbox.emulator.models import IS_COMPONENTS_V2

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_member_who_may_not_open_games_is_refused_and_nothing_is_posted(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada", locale="fr")
    reply = await emu.slash(ada, "tournament new", game="pylons", clock=60)
    (refused,) = reply.messages
    assert refused.visibility == Visibility.ephemeral_to(ada)
    assert "tournois" in refused.text, refused.text  # in French, as her client
    assert not with_custom_id(emu, SIGNUP)
    # A start that is not a time is refused before anything is made, saying what would do.
    mo = emu.add_user("Mo", manage_guild=True)
    (bad,) = (await emu.slash(mo, "tournament new", game="pylons", clock=60, start="soon")).messages
    assert bad.visibility == Visibility.ephemeral_to(mo)
    assert "soon is not a time: use HH:MM or YYYY-MM-DD HH:MM" in bad.text
    (table,) = (await emu.slash(mo, "tournament new", game="pylons", clock=60, table="3")).messages
    assert "Pylons is played at tables of 2" in table.text, table.text
    assert not with_custom_id(emu, SIGNUP)


async def test_a_tournament_starts_by_itself_at_the_time_typed_in_its_zone(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    emu.allow_threads()
    clock = MovedClock(datetime(2026, 11, 29, 16, 30, tzinfo=UTC))
    hv.bot.service.clock = clock
    mo = emu.add_user("Mo", manage_guild=True)
    # 19:00 in Rome is 18:00 UTC, an hour and a half from now.
    tid, post = await open_tournament(
        emu, mo, emu.channel, game="pylons", clock=60, start="19:00", zone="Europe/Rome"
    )
    starts = int(datetime(2026, 11, 29, 18, 0, tzinfo=UTC).timestamp())
    assert f"<t:{starts}:" in emu.message(post.message_id or 0).text
    people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    await sign_up(emu, people, post, tid)
    clock.advance(minutes=89)
    await hv.caught_up()
    assert await status(hv, tid) == "signup"
    clock.advance(minutes=2)

    async def started() -> bool:
        return await rounds_paired(hv, tid) == 1

    await emu.wait_for(started, 20, message="round 1, at the time typed")
    assert await status(hv, tid) == "running"
    await hv.caught_up()  # its tables posted, by the check that started it
    assert len(emu.threads(emu.channel)) == 2


async def test_standings_privately_or_for_the_channel_and_its_creator_pauses_and_cancels(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    mo = emu.add_user("Mo", manage_guild=True)
    people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    tid, post = await open_tournament(emu, mo, emu.channel, game="pylons", clock=60)
    await sign_up(emu, people, post, tid)
    # A second Join is refused privately, in the clicker's language, and lists nobody twice.
    emu.set_locale(people[0], "fr")
    (twice,) = (await emu.click(people[0], f"tour:{tid}:join", message=post)).messages
    assert twice.visibility == Visibility.ephemeral_to(people[0])
    assert twice.content == "Vous êtes déjà inscrit."
    assert emu.message(post.message_id or 0).text.count(f"<@{people[0].id}>") == 1
    # Sign-up is the creator's to close: another member's start is refused.
    (no,) = (await emu.slash(people[0], "tournament start")).messages
    assert no.visibility == Visibility.ephemeral_to(people[0])
    await emu.slash(mo, "tournament start")

    async def paired() -> bool:
        return await rounds_paired(hv, tid) == 1

    await emu.wait_for(paired, 20)
    await hv.caught_up()

    # A tournament is opened in a channel, not in one of its tables' threads; only a
    # moderator removes someone.
    thread = emu.threads(emu.channel)[0]
    (no_thread,) = (
        await emu.slash(mo, "tournament new", game="pylons", clock=60, channel=thread)
    ).messages
    assert no_thread.visibility == Visibility.ephemeral_to(mo)
    assert "in the channel itself" in no_thread.text, no_thread.text
    (not_mod,) = (await emu.slash(people[0], "tournament remove", member=people[1])).messages
    assert not_mod.text.startswith("Seuls les modérateurs"), not_mod.text  # her French
    assert await status(hv, tid) == "running"

    mine = await emu.slash(people[1], "tournament standings")
    (private,) = mine.messages
    assert private.visibility == Visibility.ephemeral_to(people[1])
    (picture,) = private.attachments
    assert picture.image is not None and "1. " in (picture.description or "")
    before = len(emu.messages(visibility="public", channel=emu.channel))
    shown = await emu.slash(people[1], "tournament standings", public=True)
    (posted,) = [r for r in shown.public if r.attachments]
    assert posted.attachments[0].image is not None
    assert len(emu.messages(visibility="public", channel=emu.channel)) == before + 1

    (refused,) = (await emu.slash(people[2], "tournament pause")).messages
    assert refused.visibility == Visibility.ephemeral_to(people[2])
    assert await status(hv, tid) == "running"
    (paused,) = (await emu.slash(mo, "tournament pause")).where(kind="response")
    assert "is paused" in paused.text
    assert await status(hv, tid) == "paused"
    (cancelled,) = (await emu.slash(mo, "tournament cancel")).where(kind="response")
    assert "is cancelled" in cancelled.text
    assert await status(hv, tid) == "cancelled"
    assert "Cancelled" in emu.message(post.message_id or 0).text
    # Its games go on as ordinary games; the channel has no tournament any more.
    (none,) = (await emu.slash(people[0], "tournament leave")).messages
    assert none.text.startswith("Ce salon n'a pas de tournoi en cours"), none.text


async def test_help_names_the_tournaments(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    ada = emu.add_user("Ada", locale="de")
    (said,) = (await emu.slash(ada, "help")).messages
    assert "Turniere: </tournament new:" in said.text, said.text


async def test_a_round_robin_of_four_meets_everyone_once(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """format:round robin: three rounds of two tables, each pair meeting once; the games end
    by the (moved) clock, and the final standings come at the end. What follows a table's
    start (its board's buttons looked after) knows the thread its announcement started: a
    game that has moved on by then has its old buttons taken off in the thread, where they
    are, not in the channel."""
    emu = emulator
    assert hv.bot is not None
    followed: list[GameRow] = []
    buttons = hv.bot.aftermath.buttons
    moved_on = buttons.moved_on

    def recorded(game: GameRow) -> None:
        followed.append(game)
        moved_on(game)

    monkeypatch.setattr(buttons, "moved_on", recorded)
    emu.allow_threads()
    clock = MovedClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    hv.bot.service.clock = clock
    mo = emu.add_user("Mo", manage_guild=True)
    people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    tid, post = await open_tournament(
        emu, mo, emu.channel, game="pylons", clock=60, format="round_robin"
    )
    await sign_up(emu, people, post, tid)
    await emu.slash(mo, "tournament start")
    met: list[frozenset[int]] = []
    for number in (1, 2, 3):
        found = await wait_for_round(emu, hv, tid, number)
        assert len(found) == 2
        met += [frozenset(t.players) for t in found]
        clock.advance(minutes=61)  # nobody moves: each game ends by its clock
        for table in found:
            await game_over(emu, hv, table)

    async def finished() -> bool:
        return await status(hv, tid) == "finished"

    await emu.wait_for(finished, 30, message="the round robin over")
    await hv.caught_up()
    assert sorted(map(sorted, met)) == sorted(
        sorted((a.id, b.id)) for i, a in enumerate(people) for b in people[i + 1 :]
    ), "each pair once"
    final = pictures(emu, emu.channel)[-1]
    assert "final standings" in final.text and "S-B" in (final.attachments[0].description or "")
    tables = [g for g in followed if g.tournament_id == tid]
    assert tables and all(g.thread_id is not None for g in tables), tables


async def test_a_signup_posted_as_plain_text_before_cards_becomes_a_card_when_it_changes(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A sign-up post made while the bot posted plain text, with a row of buttons, becomes a
    card at its next update (Discord asks its text cleared for that): by a click's answer,
    then by an update the bot edits itself (the start)."""
    emu = emulator
    emu.allow_threads()
    mo = emu.add_user("Mo", manage_guild=True)
    tid, post = await open_tournament(emu, mo, emu.channel, game="pylons", clock=60)
    assert post.message_id is not None and post.content == "" and post.layout, "a card"
    stored = emu.messages_by_id[post.message_id]
    stored.flags &= ~IS_COMPONENTS_V2
    stored.content = post.text
    stored.components = [
        {
            "type": layout.ACTION_ROW,
            "components": [
                dict(c) for c, _ in layout.walk(list(post.layout)) if c.get("type") == layout.BUTTON
            ],
        }
    ]
    assert not stored.is_layout and stored.buttons
    people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    await sign_up(emu, people[:1], post, tid)
    assert stored.is_layout and stored.content == "" and f"<@{people[0].id}>" in stored.text
    await sign_up(emu, people[1:], post, tid)
    await emu.slash(mo, "tournament start")
    await emu.settle()
    assert stored.is_layout and "Under way: round 1" in stored.text and not stored.buttons
    assert not emu.rejections
