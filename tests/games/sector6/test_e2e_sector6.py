"""A whole Sector 6 game through Discord: the mode chosen at /game new, the maze built with
/s6 draw, /s6 place and /s6 entry (the drawn tile shown to its drawer alone), the race with
/s6 move and the buttons on the board post after each move, against an AI seat, with a board
after every public action and the result at the end. On the way: refusals answered privately
with nothing changed, and autocomplete offering exactly the caller's legal targets."""

from __future__ import annotations

import random
from typing import Any

import pytest
from e2e_harness import BOARD, BotHarness, board_posts, check_game_cards, heading, replay

from engine import State
from games import find_game
from hvbot.messages.limits import ALT, fit_alt
from hvbot.messages.presenters import presenter_for
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

TILE = "tile.png"


def public_count(actions: list[tuple[int, str]]) -> int:
    """Actions that get a board post: all but a bare draw, which only its drawer sees."""
    return sum(text != "draw" for _, text in actions)


def alt_of(record: Record, filename: str) -> str:
    """A picture's alt text, checked to be there and within Discord's limit."""
    alt = record.attachment(filename).description
    assert alt and len(alt) <= ALT, f"{filename} of {record} has no alt text"
    return alt


def legal(state: State) -> list[str]:
    return [a.text() for a in state.legal_actions()]


class Race:
    """Ada's side of the game: waits for her turn, picks legal actions with the engine (keen
    to collect, so the game ends in a reasonable time) and plays them as a user would."""

    def __init__(self, emu: DiscordEmulator, hv: BotHarness, ada: User) -> None:
        self.emu = emu
        self.hv = hv
        self.ada = ada
        self.rng = random.Random(3)
        self.seen: set[str] = set()  # which special checks have run
        # The last stored state read, by game and version: waiting for Ada's turn reads the
        # game again and again while the AI plays, and reading a state replays its history.
        self.loaded: tuple[tuple[int, int], State] | None = None

    async def _settled(self) -> tuple[GameRow, State] | None:
        game = await self.hv.game()
        actions = await self.hv.actions(game)
        if len(board_posts(self.emu)) < 1 + public_count(actions):
            return None
        if self.loaded is None or self.loaded[0] != (game.id, game.version):
            self.loaded = (
                (game.id, game.version),
                find_game(game.game_name).state_from_dict(game.state),
            )
        state = self.loaded[1]
        if not state.is_terminal() and state.current_seat() != 0:
            return None
        return game, state

    async def turn(self) -> tuple[GameRow, State]:
        """(game, state) once it is Ada's turn (or the end) and every action is announced."""
        return await self.emu.wait_for(self._settled, 20, message="Ada's turn, all announced")

    async def refused(self, command: str, **options: Any) -> Record:
        """A command that must be refused: one private answer, nothing public, game unchanged."""
        game = await self.hv.game()
        posts = len(board_posts(self.emu))
        reply = await self.emu.slash(self.ada, command, **options)
        assert [r.kind for r in reply] == ["response"], self.emu.describe(reply)
        assert reply[0].visibility == Visibility.ephemeral_to(self.ada)
        assert (await self.hv.game()).version == game.version, "a refusal changed the game"
        assert len(board_posts(self.emu)) == posts
        return reply[0]

    # ------------------------------------------------------------------ construction

    async def build(self, game: GameRow, state: State) -> None:
        view = state.view(0)
        if view["step"] == "place":
            await self.place(game, state)
            return
        entries = [t for t in legal(state) if t.startswith("place entry ")]
        if entries and ("draw" not in legal(state) or self.rng.random() < 0.2):
            cell = self.rng.choice(entries).split()[2]
            if "entry" not in self.seen:
                self.seen.add("entry")
                offered = await self.emu.autocomplete(self.ada, "s6 entry", "cell", "")
                assert [c["value"] for c in offered] == [t.split()[2] for t in entries][:25]
            reply = await self.emu.slash(self.ada, "s6 entry", cell=cell, settle=False)
            assert reply.public, self.emu.describe(reply)
            return
        before = len(board_posts(self.emu))
        since = self.emu.last_seq
        reply = await self.emu.slash(self.ada, "s6 draw", settle=False)
        # A card with a new picture follows its deferral as a message of its own, once the
        # "thinking…" is withdrawn (Discord refuses it edited into the thinking).
        prompt = await self.emu.wait_for_message(lambda r: r.has_attachment(TILE), since=since)
        assert prompt.visibility == Visibility.ephemeral_to(self.ada)
        assert prompt.attachment(TILE).is_png
        # Its placements are buttons; the command is named when some have none.
        placements = legal(await self.hv.state())
        assert 0 < len(prompt.custom_ids) <= min(25, len(placements))
        assert ("/s6 place" in prompt.text) is (len(prompt.custom_ids) < len(placements))
        drawn = (await self.hv.state()).view(0)["drawn"]
        assert f"**{drawn['colour']}**, worth {drawn['value']}" in prompt.text
        # Its alt text describes the tile for its drawer alone, in their language.
        assert alt_of(prompt, TILE) == fit_alt(presenter_for("sector6", "en").tile_alt(drawn))
        assert not reply.public and len(board_posts(self.emu)) == before, "a draw is private"
        assert "walls" not in (await self.hv.state()).view(None)["drawn"]

    async def place(self, game: GameRow, state: State) -> None:
        drawn = state.view(0)["drawn"]
        options = legal(state)
        if "place" not in self.seen and len(state.view(None)["tiles"]) >= 3:
            self.seen.add("place")
            await self.check_place_refusals_and_choices(state, options)
        cell, turn = self.rng.choice(options).split()[1:]
        reply = await self.emu.slash(
            self.ada, "s6 place", cell=cell, rotation=int(turn[1:]), settle=False
        )
        (post,) = [r for r in reply.public if r.kind == "channel_message"]
        assert post.has_attachment(BOARD)
        assert f"{drawn['colour']} tile" in post.text and f"placed it on {cell}" in post.text

    async def check_place_refusals_and_choices(self, state: State, options: list[str]) -> None:
        cells = list(dict.fromkeys(t.split()[1] for t in options))
        offered = await self.emu.autocomplete(self.ada, "s6 place", "cell", "")
        assert [c["value"] for c in offered] == cells[:25]
        turned = await self.emu.autocomplete(self.ada, "s6 place", "cell", "", rotation=60)
        assert all(f"place {c['value']} r60" in options for c in turned)
        spectator = self.emu.add_user("Cy")
        assert await self.emu.autocomplete(spectator, "s6 place", "cell", "") == []
        # Asking to draw again shows the same tile again, privately.
        self.seen.add("place-again")
        again = await self.emu.slash(self.ada, "s6 draw")
        assert [r.visibility for r in again] == [Visibility.ephemeral_to(self.ada)]
        assert again[0].has_attachment(TILE)
        # A cell far from the maze is refused, naming cells that would do.
        far = next(c for c in ("A1", "T20", "A20", "T1") if c not in cells)
        refusal = await self.refused("s6 place", cell=far, rotation=0)
        assert "Cells that would do" in refusal.text
        refusal = await self.refused("s6 move", **{"from": cells[0], "to": cells[-1]})
        assert "maze is being built" in refusal.text

    # ------------------------------------------------------------------ the race

    def pick_move(self, state: State) -> str:
        """A keen collector: end the game if possible, else leave a marker for another."""
        marker = {t["cell"]: t["marker"] or 0 for t in state.view(None)["tiles"]}

        def worth(text: str) -> tuple[int, int, float]:
            trial = state.copy()
            trial.apply(text)
            _, origin, target = text.split()
            return (trial.is_terminal(), marker[origin] + marker[target], self.rng.random())

        return max(legal(state), key=worth)

    async def move(self, game: GameRow, state: State) -> None:
        text = self.pick_move(state)
        _, origin, target = text.split()
        if "move" not in self.seen:
            self.seen.add("move")
            await self.check_move_choices(state, origin)
        reply = await self.emu.slash(
            self.ada, "s6 move", settle=False, **{"from": origin, "to": target}
        )
        assert reply.public, self.emu.describe(reply)

    async def check_move_choices(self, state: State, origin: str) -> None:
        moves = [t.split()[1:] for t in legal(state)]
        froms = await self.emu.autocomplete(self.ada, "s6 move", "from", "")
        assert [c["value"] for c in froms] == list(dict.fromkeys(a for a, _ in moves))
        targets = await self.emu.autocomplete(self.ada, "s6 move", "to", "", **{"from": origin})
        assert [c["value"] for c in targets] == [b for a, b in moves if a == origin][:25]
        refusal = await self.refused("s6 collect")
        assert "First move a prisoner" in refusal.text

    async def click(self, game: GameRow, state: State) -> None:
        """The decision after a move (or a blocked turn's rotations), on the board's buttons."""
        options = legal(state)
        (post,) = board_posts(self.emu)[-1:]
        prefix = f"act:{game.id}:{game.version}:"
        offered = sorted(c.removeprefix(prefix) for c in post.custom_ids if c.startswith(prefix))
        assert offered == sorted(t.replace(" ", "_") for t in options), post
        if "collect" in options:
            choice = "collect"
        elif "act" not in self.seen and state.view(0)["step"] == "act":
            self.seen.add("act")
            refusal = await self.refused("s6 pass")
            assert "only when neither of your prisoners can move" in refusal.text
            choice = next(t for t in options if t.startswith("rotate"))
        else:
            # Turning tiles at random could wall markers off and make the game drag on.
            choice = "done" if "done" in options else self.rng.choice(options)
        custom_id = prefix + choice.replace(" ", "_")
        await self.emu.click(self.ada, custom_id, message=post.message_id, settle=False)
        # The choice is made once: the post keeps its picture and loses its choices (Follow,
        # for those not playing, stays).
        await self.emu.wait_for(
            lambda: (
                [b.custom_id for b in self.emu.message(post.message_id).buttons]
                == [f"follow:{game.id}"]
            )
        )


async def test_a_sector6_game_from_lobby_to_result(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    reply = await emu.slash(ada, "game new", game="sector6", mode="veteran")
    (lobby,) = reply.where(kind="response", visibility="public")
    assert "Sector 6 (veteran mode)" in lobby.text
    await emu.slash(ada, "game addai", level="normal")
    await emu.slash(ada, "game start")
    game = await hv.game()
    assert game.game_name == "sector6" and game.options == {"mode": "veteran"}
    assert game.seats[0].user_id == ada.id and game.seats[1].ai_level == "normal"

    # Sector 6 has no secret, but every game starts by telling each player their colour.
    await emu.wait_for(lambda: board_posts(emu) and emu.messages(visibility=Visibility.dm_to(ada)))
    (dm,) = emu.messages(visibility=Visibility.dm_to(ada))
    state = await hv.state()
    colour = state.view(0)["players"][0]["colour"]
    assert heading(dm) == f"You play {colour.upper()}"
    assert alt_of(dm, "secret.png").startswith(f"Your prisoners: the {colour} pawns, with ")

    race = Race(emu, hv, ada)
    for _ in range(400):
        game, state = await race.turn()
        if state.is_terminal():
            break
        view = state.view(0)
        if view["phase"] == "build":
            await race.build(game, state)
        elif view["step"] == "move":
            await race.move(game, state)
        else:
            await race.click(game, state)
    else:
        raise AssertionError("the game did not end")

    await emu.settle()
    assert {"entry", "place", "move", "act"} <= race.seen, "every kind of turn was played"
    game = await hv.game()
    assert game.status == "finished"
    actions = await hv.actions(game)
    assert replay(game, actions)[-1] == state
    assert {seat for seat, _ in actions} == {0, 1}, "both Ada and the AI played"
    texts = [text for _, text in actions]
    assert any(t.startswith("move ") for t in texts) and "collect" in texts
    posts = board_posts(emu)
    assert len(posts) == 1 + public_count(actions), "a board after the start and every action"
    for post in posts:
        assert post.attachment(BOARD).is_png
    names = [seat.display_name for seat in game.seats]
    # Each board's alt text says what its public view shows: never the tile being placed.
    states = replay(game, actions)
    shown = [0] + [i + 1 for i, (_, text) in enumerate(actions) if text != "draw"]
    # Every one a card in the colour of the token of the player to move.
    check_game_cards(emu, game, posts, [states[i] for i in shown])
    channel = presenter_for("sector6", game.language)
    for post, index in zip(posts, shown, strict=True):
        expected = fit_alt(channel.board_alt(states[index].view(None), names))
        assert alt_of(post, BOARD) == expected, f"{post} does not describe its board"
    assert any("Free oxygen markers worth " in alt_of(post, BOARD) for post in posts)
    assert presenter_for("sector6").outcome(state.view(None), names) in posts[-1].text
    ai_moves = [p for p in posts if p.text.startswith(f"{game.seats[1].display_name} moved")]
    assert ai_moves and not any(c.startswith("act:") for p in ai_moves for c in p.custom_ids), (
        "no choices for the AI's turn (only Follow, for those not playing)"
    )
    with_buttons = [p for p in posts if any(c.startswith("act:") for c in p.custom_ids)]
    assert with_buttons and all(f"<@{ada.id}>" in p.text for p in with_buttons)
    refusal = await emu.slash(ada, "s6 move", **{"from": "A1", "to": "A2"})
    assert refusal[0].visibility == Visibility.ephemeral_to(ada)


async def test_modes_are_offered_for_sector6_only(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    reply = await emu.slash(ada, "game new", game="pylons", mode="novice")
    assert [r.visibility for r in reply] == [Visibility.ephemeral_to(ada)]
    assert "Pylons has no modes" in reply[0].text and "Sector 6" in reply[0].text
    assert await hv.latest_game() is None, "no lobby was opened"

    reply = await emu.slash(ada, "game new", game="sector6", mode="novice")
    assert "Sector 6 (novice mode)" in reply.public[0].text
    assert (await hv.game()).options == {"mode": "novice"}
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    status = await emu.slash(ada, "game status")
    assert status[0].visibility == Visibility.ephemeral_to(ada)
    assert "novice" in status[0].text
    rules = await emu.slash(ada, "game rules")
    assert "/s6 draw" in rules[0].text
