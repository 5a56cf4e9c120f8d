"""The move that hands an AI seat its turn claims the AI's thinking for the process that made
it, in the move's own statement, on both backends: taken where `Duties.claim_ai` would take it
(nobody else holds it, and no earlier post the AI waits for is owed), left as it is otherwise,
and a lease like any claim, which the periodic check takes over once it runs out."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from started_games import start_pylons

from hvbot.store import GameStore, changes
from hvbot.store.duties import LEASE, Duties, owe_text

pytestmark = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def test_a_move_handing_the_turn_to_an_ai_claims_it_where_claim_ai_would(
    database_url: str,
) -> None:
    repo = await GameStore.open(database_url)
    try:
        now = [AT]
        duties = Duties(repo.db, clock=lambda: now[0])
        game, start_owed = await start_pylons(repo, state={"n": 0}, at=AT)
        version = game.version + 1

        async def move(owner: str | None, *, ai_turn: bool = True, announce: bool = False) -> Any:
            nonlocal version
            recorded = await repo.write(
                changes.record_actions(
                    game.id,
                    version,
                    state={"n": version},
                    actions=[(0, f"place {version}")],
                    at=AT,
                    ai_turn=ai_turn,
                    announce=announce,
                    ai_claim=None if owner is None else duties.ai_claim(owner),
                )
            )
            version += 1
            return recorded

        async def holder() -> tuple[str | None, str | None]:
            row = await repo.db.fetchrow("SELECT ai_by, ai_until FROM games WHERE id = ?", game.id)
            assert row is not None
            return row["ai_by"], row["ai_until"]

        # The first board is still owed: the AI waits for it, and whoever sends it starts
        # the AI (as `claim_ai(..., unless_owed=...)` would not claim either).
        assert not (await move("one")).ai_claimed
        assert await holder() == (None, None)
        for owed in start_owed:
            await duties.made(owed)

        # Nothing owed before it: claimed for "one", with the lease a claim has.
        claimed = await move("one", announce=True)
        assert claimed.ai_claimed and [o.kind for o in claimed] == ["move"]
        by, until = await holder()
        assert by == "one" and until is not None
        assert datetime.fromisoformat(until) == AT + LEASE
        # Its own board, owed by the same change, is not one before it.
        for owed in claimed:
            await duties.made(owed)
        # "one" holds it: another process's move does not take it (nor its periodic check)...
        assert not (await move("two")).ai_claimed
        assert (await holder())[0] == "one"
        assert await duties.claim_ai_turns("three") == []
        # ...its holder's own next move keeps holding it...
        assert (await move("one")).ai_claimed
        # ...a move that hands the turn to a person lets go of it...
        assert not (await move("one", ai_turn=False)).ai_claimed
        assert await holder() == (None, None)
        # ...and a move without a claim to take leaves the AI's turn to be claimed.
        assert not (await move(None)).ai_claimed
        assert await holder() == (None, None)
        assert await duties.claim_ai_turns("three") == [game.id]
        await duties.release_ai(game.id, "three")

        # "one" holds it and a later change owes a text post (a clock's warning): "one"'s next
        # move does not take the claim (the AI waits for the post, whoever sends it starts
        # the AI), although the lease left on the game still bears its name.
        assert (await move("one")).ai_claimed
        now[0] = AT + LEASE / 2
        warning = await repo.db.transact(
            lambda tx: owe_text(tx, game_id=game.id, body={"key": "warn"}, now=now[0])
        )
        assert not (await move("one")).ai_claimed
        by, until = await holder()
        assert by == "one" and until is not None
        assert datetime.fromisoformat(until) == AT + LEASE  # the lease as it was
        await duties.made(warning)
        await duties.release_ai(game.id, "one")
        now[0] = AT

        # The process that claimed it dies: once its lease has run out, another's periodic
        # check takes the AI's turn over.
        assert (await move("one")).ai_claimed
        assert await duties.claim_ai_turns("three") == []
        now[0] = AT + LEASE
        assert await duties.claim_ai_turns("three") == [game.id]
        assert (await holder())[0] == "three"
    finally:
        await repo.close()
