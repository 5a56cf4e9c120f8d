"""The game's posts as cards (Discord's Components V2 layout) through the real bot and the
emulated Discord, which refuses what Discord refuses of them: the lobby, the boards, the
private prompts and the secrets; a card's edge in the colour of the player to move, never a
High Voltage company's while it is secret; a card whose choices are past keeps its words and
its picture. (The whole games of each game, played with cards, are the games' own end-to-end
tests, which check every board with `check_game_cards`.)"""

from __future__ import annotations

import random
import re

import pytest
from e2e_harness import (
    BOARD,
    BotHarness,
    accent_of,
    board_posts,
    card_of,
    check_board_card,
    colour_of,
    is_peek,
    lobby_button,
    open_three_seat_game,
    racing_cell,
    replay,
    to_move_accent,
)

from games.high_voltage.pictures import THEME as HV_THEME
from games.pylons.pictures import PYLONS_THEME
from hvbot.messages.presenters.base import rgb
from sandbox.emulator import DiscordEmulator, Record, Visibility, layout
from sandbox.emulator.models import IS_COMPONENTS_V2

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

COMPANY_ACCENTS = {rgb(company.fill) for company in HV_THEME.companies}


def buttons_in(record: Record) -> list[dict[str, object]]:
    """Every button of a card, as it was sent."""
    return [c for c, _ in layout.walk(list(record.layout)) if c.get("type") == layout.BUTTON]


def ties(text: str, name: str, colour: str) -> bool:
    """Does `text` tie `name` to `colour` within a few words on one line?"""
    near = r"(?:\W+\w+){0,3}\W+"
    who, what = re.escape(name), re.escape(colour)
    pattern = rf"\b{who}\b{near}{what}\b|\b{what}\b{near}{who}\b"
    return any(re.search(pattern, line, re.IGNORECASE) for line in text.splitlines())


async def test_a_high_voltage_card_never_shows_a_secret_company_colour(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """High Voltage's companies are secret until the end: every public card is edged in the
    public colour of the seat to move, never a company's, and its words tie no one to a
    colour; each person's secret comes as a card of their own, edged in their seat's public
    colour too (a DM can be read over a shoulder)."""
    emu = emulator
    ada, bo, lobby, table = await open_three_seat_game(emu, hv)
    game, state = await table.play_moves(14)
    assert not state.is_terminal(), "the colours are still secret"
    actions = await hv.actions(game)
    states = replay(game, actions)
    moments = [states[0]] + [states[i + 1] for i, (_, t) in enumerate(actions) if not is_peek(t)]
    posts = board_posts(emu)
    assert len(posts) == len(moments)
    seat_accents = {rgb(colour) for colour in HV_THEME.seat_accents}
    for post, moment in zip(posts, moments, strict=True):
        check_board_card(emu, post)
        seat = moment.current_seat()
        assert seat is not None
        assert accent_of(post) == rgb(HV_THEME.seat_accents[seat]), f"{post}: not seat {seat}'s"
    assert len({accent_of(post) for post in posts}) > 1, "the edge follows the player to move"
    assert not seat_accents & COMPANY_ACCENTS, "no seat's public colour is a company's"

    colours = {seat.seat: colour_of(state, seat.seat) for seat in game.seats}
    public = [r for r in emu.messages(visibility="public") if r.layout]
    assert lobby.layout and len(public) > len(posts), "the lobby and its edits are cards too"
    for record in public:
        assert accent_of(record) not in COMPANY_ACCENTS, record
        assert "your company" not in record.text.lower(), record
        for seat in game.seats:
            assert not ties(record.text, seat.display_name, colours[seat.seat]), record

    for person in (ada, bo):
        seat = game.seat_of(person.id)
        assert seat is not None
        (secret,) = emu.messages(visibility=Visibility.dm_to(person))
        assert secret.has_attachment("secret.png") and not secret.embeds
        assert accent_of(secret) == rgb(HV_THEME.seat_accents[seat])
        assert accent_of(secret) != rgb(HV_THEME.company(colours[seat]).fill)


async def test_the_edge_follows_the_player_to_move_and_a_past_choice_leaves_the_card(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Pylons against an AI: the opening card, edged in blue (Ada's pylons), offers its
    choice inside the card; once clicked, the card keeps its words, its board and its alt
    text, with only Follow left, and the AI's turn is edged in red (its pylons)."""
    emu = emulator
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    assert card_of(lobby) and not lobby.text.startswith("\u200b")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await hv.game()
    await emu.wait_for(lambda: board_posts(emu))
    (opening,) = board_posts(emu)
    container = check_board_card(emu, opening)
    assert container["accent_color"] == rgb(PYLONS_THEME.seat_fill[0])
    keep = f"act:{game.id}:{game.version}:keep"
    assert keep in opening.custom_ids

    await emu.click(ada, keep, message=opening.message_id)
    await emu.wait_for(lambda: len(board_posts(emu)) >= 2, message="the choice's board")
    await emu.settle()
    for _ in range(3):  # Ada's pylons, each answered by the AI's
        state = await hv.state()
        if state.current_seat() == 0:
            await emu.slash(ada, "pylons place", cell=racing_cell(state, random.Random(3)))
        await emu.settle()
    after = emu.message(opening.message_id or 0)
    assert [b.custom_id for b in after.buttons] == [f"follow:{game.id}"]
    assert after.is_layout and after.text == opening.text, "its words stay"
    (box,) = after.components
    (gallery,) = [c for c in box["components"] if c["type"] == layout.MEDIA_GALLERY]
    (item,) = gallery["items"]
    assert item["media"]["url"] == f"attachment://{BOARD}"
    assert item["description"] == opening.attachment(BOARD).description, "its alt text stays"
    assert box["accent_color"] == container["accent_color"]
    assert [a.filename for a in after.attachments] == [BOARD], "its picture stays"

    posts = board_posts(emu)
    actions = await hv.actions(game)
    states = replay(game, actions)
    for post, moment in zip(posts, states, strict=False):
        assert accent_of(post) == to_move_accent(game, moment)
    ai = [p for p, moment in zip(posts, states, strict=False) if moment.current_seat() == 1]
    assert ai and all(accent_of(p) == rgb(PYLONS_THEME.seat_fill[1]) for p in ai)


async def test_a_lobby_posted_as_plain_text_before_cards_becomes_a_card_when_it_changes(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A lobby open while the bot was upgraded was posted as plain text with rows of
    buttons: Discord turns it into a card only once its text is cleared, which its next
    update does (a click on Join, then the start's update, edited by the bot itself)."""
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    assert lobby.message_id is not None
    stored = emu.messages_by_id[lobby.message_id]
    # The lobby as the bot posted it before: its words as content, its buttons in a row.
    stored.flags &= ~IS_COMPONENTS_V2
    stored.content = lobby.text
    stored.components = [
        {"type": layout.ACTION_ROW, "components": [dict(b) for b in buttons_in(lobby)]}
    ]
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
    assert stored.is_layout and stored.content == "" and "Bo" in stored.text
    await emu.slash(ada, "game start")
    await emu.settle()
    assert stored.is_layout and "good luck" in stored.text
    assert [b.custom_id for b in stored.buttons] == [f"follow:{(await hv.game()).id}"]
    assert not emu.rejections
