"""Alt text on the bot's pictures: each picture's description says in the reader's language what
a sighted player learns from it (the game, the last move, whose turn, the scores, the lines,
links or prisoners that matter), within Discord's 1024 characters, and nothing the reader may
not know: it is built from the same view as the picture."""

from __future__ import annotations

import asyncio
import json
import random
import re
from datetime import UTC, datetime

import discord
import pytest

from data.texts import LANGUAGES
from games import find_game
from games.pylons.presenter import widest_network
from hvbot.messages.game_posts import board_post, secret_post
from hvbot.messages.limits import ALT, CUT, fit_alt
from hvbot.messages.outgoing import send_kwargs
from hvbot.messages.post import Picture, Post
from hvbot.messages.presenters import presenter_for
from hvbot.messages.presenters.base import plain
from hvbot.messages.replays import replay_alt
from hvbot.store import GameRow, SeatRow
from hvbot.store.replays import KeptReplay

NAMES = ["Ada", "Bo", "Cy"]
SEATS = {"high-voltage": 3, "pylons": 2, "sector6": 3}
COLOURS = ("red", "yellow", "green", "blue")


def row(game: str, state: object, *, language: str = "en", seed: int = 1) -> GameRow:
    seats = tuple(SeatRow(s, 100 + s, None, NAMES[s], language="it") for s in range(SEATS[game]))
    return GameRow(
        id=7,
        game_name=game,
        guild_id=1,
        channel_id=2,
        creator_id=100,
        status="active",
        seed=seed,
        options={},
        state_json=json.dumps(state.to_dict()),  # type: ignore[attr-defined]
        version=12,
        lobby_message_id=None,
        seats=seats,
        language=language,
    )


def played(game: str, seed: int, moves: int | None = None):
    """A game played at random from `seed` for `moves` actions (to its end if None)."""
    rules = find_game(game)
    state = rules.new_state(SEATS[game], seed)
    rng = random.Random(seed)
    count = 0
    while not state.is_terminal() and (moves is None or count < moves):
        state.apply(rng.choice(state.legal_actions()))
        count += 1
    return state


# ---------------------------------------------------------------- Discord's limit


def test_a_short_alt_text_is_sent_as_it_is() -> None:
    assert fit_alt("Picture of the board.") == "Picture of the board."


def test_a_long_alt_text_is_cut_after_a_whole_sentence_and_marked() -> None:
    sentences = [f"Sentence number {i} says something." for i in range(60)]
    text = "\n".join(sentences)
    cut = fit_alt(text)
    assert len(cut) <= ALT and cut.endswith(" " + CUT)
    kept = cut.removesuffix(" " + CUT)
    assert kept.split("\n")[-1] in sentences, "the last sentence kept is whole"
    assert text.startswith(kept)


def test_an_alt_text_without_a_boundary_is_cut_at_a_word() -> None:
    text = " ".join(["word"] * 400)
    cut = fit_alt(text)
    assert len(cut) <= ALT and cut.endswith(CUT)
    assert cut.removesuffix(" " + CUT).split(" ")[-1] == "word"


def test_a_post_sends_each_pictures_alt_text_as_its_description_cut_to_fit() -> None:
    post = Post(
        "x", files=[Picture("a.png", b"1", "A board."), Picture("b.png", b"2", "y. " * 600)]
    )
    files = send_kwargs(post)["files"]
    assert all(isinstance(f, discord.File) for f in files)
    assert files[0].description == "A board."
    assert len(files[1].description) <= ALT and files[1].description.endswith(CUT)
    assert files[1].to_dict(1)["description"] == files[1].description


def test_plain_takes_markdown_mentions_and_bullets_out() -> None:
    assert plain("**Ada wins!**\n• Bo: </game board:12> shows it") == (
        "Ada wins!\nBo: /game board shows it."
    )


# ---------------------------------------------------------------- every game, every language


@pytest.mark.parametrize("game", sorted(SEATS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_board_of_a_whole_game_is_described_in_the_readers_language(
    game: str, language: str
) -> None:
    rules = find_game(game)
    state = rules.new_state(SEATS[game], 11)
    rng = random.Random(11)
    presenter = presenter_for(game, language)
    names = NAMES[: SEATS[game]]
    heading = presenter.texts("alt.board", game=rules.title)
    seen = set()
    while True:
        view = state.view(None)
        alt = fit_alt(presenter.board_alt(view, names))
        assert alt.startswith(heading) and 0 < len(alt) <= ALT
        assert "**" not in alt and "</" not in alt
        seen.add(alt)
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 10, "the descriptions follow the game"
    final = state.view(None)
    end = presenter.end_alt(final, names)
    assert end.startswith(presenter.texts("alt.result", game=rules.title))
    assert plain(presenter.outcome(final, names)) in end


def test_an_english_and_a_german_board_say_the_same_in_their_own_words() -> None:
    state = played("high-voltage", 3, 30)
    view = state.view(None)
    english = presenter_for("high-voltage", "en").board_alt(view, NAMES)
    german = presenter_for("high-voltage", "de").board_alt(view, NAMES)
    assert english.startswith("Picture of the High Voltage board.\nLast move: ")
    assert german.startswith("Bild des Spielfelds von High Voltage.\nLetzter Zug: ")
    assert english.count("\n") == german.count("\n")


# ---------------------------------------------------------------- High Voltage


def hv_public_alts(state) -> str:
    presenter = presenter_for("high-voltage")
    view = state.view(None)
    return presenter.board_alt(view, NAMES)


def test_high_voltage_board_names_the_lines_closed_and_scored_but_no_company() -> None:
    for seed in range(40):
        state = find_game("high-voltage").new_state(3, seed)
        rng = random.Random(seed)
        closing = scored = None
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            view = state.view(None)
            if view["phase"] == "declaring" and closing is None:
                closing = (view["closable"][0]["line"], hv_public_alts(state))
            if view["last"]["lines"] and scored is None:
                scored = (view["last"]["lines"][0]["line"], hv_public_alts(state))
            if closing and scored:
                break
        if closing and scored:
            break
    assert closing and scored
    line, alt = closing
    assert re.search(rf"closed lines? waiting to be declared: .*{line} \(\d+ cards,", alt)
    line, alt = scored
    first, second = line.replace("S", "").split("-")
    assert f"Line between stations {first} and {second} (" in alt
    # Which company is whose is never said before the end: names and colours never share a line.
    for text in (closing[1], scored[1]):
        for sentence in text.splitlines():
            named = [n for n in NAMES if re.search(rf"\b{n}\b", sentence)]
            coloured = [c for c in COLOURS if re.search(rf"\b{c}\b", sentence)]
            assert not (named and coloured), sentence
        assert "your company" not in text.lower()


def test_high_voltage_drawn_card_is_described_for_its_drawer_in_each_orientation() -> None:
    state = find_game("high-voltage").new_state(3, 2)
    seat = state.current_seat()
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    state.apply(f"draw {cell}")
    drawn = state.view(seat)["drawn"]
    presenter = presenter_for("high-voltage")
    post = asyncio.run(presenter.prompt(state.view(seat)))
    assert post is not None
    ((name, _, alt),) = post.files
    assert name == "card.png" and alt == presenter.card_alt(drawn)
    assert alt.startswith(f"Your card from {cell}, for you alone: ")
    assert [line.split(":")[0] for line in alt.splitlines()[1:]] == [
        f"Turned {d}°" for d in (0, 90, 180, 270)
    ]
    for path in drawn["paths"]:
        assert path["colour"] in alt
    # The channel's board says a card is being placed, never which.
    public = hv_public_alts(state)
    assert drawn["kind"] not in public and "Your card" not in public
    italian = presenter_for("high-voltage", "it").card_alt(drawn)
    assert italian.startswith(f"La tua tessera da {cell}, solo per te: ")


def test_high_voltage_secret_picture_names_only_its_own_company() -> None:
    state = find_game("high-voltage").new_state(3, 4)
    game = row("high-voltage", state)
    for seat in range(3):
        colour = state.view(seat)["players"][seat]["colour"]
        post = asyncio.run(secret_post(game, state, seat, "en"))
        ((name, _, alt),) = post.files
        assert name == "secret.png" and alt.startswith(f"Your company: {colour}.")
        assert not [c for c in COLOURS if c != colour and re.search(rf"\b{c}\b", alt)]
        german = asyncio.run(secret_post(game, state, seat, "de")).files[0].alt
        assert german.startswith("Deine Gesellschaft: ")


def test_a_board_post_carries_the_board_and_the_result_described_in_the_games_language() -> None:
    state = played("high-voltage", 5)
    game = row("high-voltage", state, language="fr")
    post = asyncio.run(board_post(game, None, state, datetime.now(UTC)))
    assert post is not None
    (board, result) = post.files
    presenter = presenter_for("high-voltage", "fr")
    view = state.view(None)
    assert board.name == "board.png" and board.alt == presenter.board_alt(view, NAMES)
    assert result.name == "result.png" and result.alt == presenter.end_alt(view, NAMES)
    assert board.alt.startswith("Image du plateau de High Voltage.")


# ---------------------------------------------------------------- Pylons


def test_pylons_board_follows_each_players_widest_network() -> None:
    state = played("pylons", 8, 80)
    view = state.view(None)
    alt = presenter_for("pylons").board_alt(view, NAMES[:2])
    for player in view["players"]:
        found = widest_network(view, player["seat"])
        assert found is not None
        cells, links = found
        axis = 0 if player["direction"] == "horizontal" else 1

        def place(cell: str, axis: int = axis) -> int:
            return ord(cell[0]) if axis == 0 else int(cell[1:])

        assert place(cells[-1]) - place(cells[0]) == player["score"], "its reach is the score"
        name = NAMES[player["seat"]]
        assert f"{name}'s widest network runs from {cells[0]} to {cells[-1]}: " in alt
        assert f"{len(cells)} pylons, {links} link" in alt


def test_pylons_board_before_any_link_says_so() -> None:
    state = find_game("pylons").new_state(2, 1)
    alt = presenter_for("pylons", "de").board_alt(state.view(None), NAMES[:2])
    assert "Noch kein Zug" in alt and "Ada hat noch keine Strommasten" in alt


# ---------------------------------------------------------------- Sector 6


def test_sector6_drawn_tile_is_described_for_its_drawer_alone() -> None:
    state = find_game("sector6").new_state(3, 5)
    seat = state.current_seat()
    state.apply("draw")
    drawn = state.view(seat)["drawn"]
    presenter = presenter_for("sector6")
    alt = presenter.tile_alt(drawn)
    assert alt.startswith(f"Your drawn tile, for you alone: {drawn['colour']}, worth ")
    assert len(alt.splitlines()) == 7, "the tile, then each of its six turns"
    walls = len(drawn["walls"])
    for line in alt.splitlines()[1:]:
        assert line.count(",") == walls - 1 if walls else "no walls" in line
    public = presenter.board_alt(state.view(None), NAMES)
    assert drawn["colour"] not in public and "Your drawn tile" not in public


def test_sector6_board_in_the_race_names_prisoners_and_free_markers() -> None:
    state = find_game("sector6").new_state(3, 6)
    rng = random.Random(6)
    while state.view(None)["phase"] == "build":
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(None)
    alt = presenter_for("sector6").board_alt(view, NAMES)
    for player in view["players"]:
        for cell in player["prisoners"]:
            assert cell in alt
    free = [t for t in view["tiles"] if t["marker"] and t["prisoner"] is None]
    assert free
    for tile in free:  # one sentence for each value, naming its colour once
        said = f"Free oxygen markers worth {tile['marker']} ({tile['colour']}): "
        line = next(line for line in alt.splitlines() if line.startswith(said))
        assert tile["cell"] in line.removeprefix(said).rstrip(".").split(", ")


def test_sector6_secret_picture_names_the_seats_own_pawns() -> None:
    state = find_game("sector6").new_state(3, 7)
    view = state.view(1)
    alt = presenter_for("sector6", "fr").secret_alt(view, 1)
    colour = presenter_for("sector6", "fr").colour(view["players"][1]["colour"])
    assert alt.startswith(f"Vos prisonniers : les pions de couleur {colour}, ")


# ---------------------------------------------------------------- replays


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_replay_is_described_with_its_players_moves_and_end(game: str) -> None:
    state = played(game, 9)
    positions = len(state.history) + 1
    picture = KeptReplay(b"GIF89a", positions, tuple(range(0, positions, 2)))
    finished = row(game, state, language="it")
    alt = replay_alt(finished, picture, "it")
    presenter = presenter_for(game, "it")
    title = find_game(game).title
    assert alt.startswith(f"Replay animato della partita di {title}, Ada contro Bo")
    assert f"di cui {len(picture.shown)} posizioni mostrate" in alt
    assert plain(presenter.outcome(state.view(None), NAMES[: SEATS[game]])) in alt
    assert len(fit_alt(alt)) <= ALT


def test_a_board_with_a_clock_says_the_time_left_as_its_picture_does() -> None:
    state = played("pylons", 2, 5)
    alt = presenter_for("pylons").board_alt(state.view(None), NAMES[:2], clock="⏳ 42 minutes left")
    lines = alt.splitlines()
    assert lines[3] == "⏳ 42 minutes left.", "after whose turn it is"


def test_a_four_player_sector6_board_with_long_names_still_says_its_markers() -> None:
    """Four 32-character names at the start of the race: the description is cut to Discord's
    limit between two markers, and what is cut are the markers worth least."""
    state = find_game("sector6").new_state(4, 0)
    rng = random.Random(0)
    while state.view(None)["phase"] == "build":
        state.apply(rng.choice(state.legal_actions()))
    names = [letter * 32 for letter in "WXYZ"]
    for language in LANGUAGES:
        presenter = presenter_for("sector6", language)
        sent = fit_alt(presenter.board_alt(state.view(None), names))
        assert len(sent) <= ALT
        worth_four = presenter.texts(
            "sector6.free_markers.worth", value=4, colour=presenter.colour("blue"), cells=""
        ).removesuffix(".")
        assert worth_four in sent, (language, sent)
        assert re.search(r"[A-Z]\d+(, [A-Z]\d+)*[.,]? …$|\.$", sent), sent


# ---------------------------------------------------------------- sentences


def _sentences(alt: str) -> list[str]:
    """The lines of an alt text that begin in lower case: a screen reader reads each line as
    a sentence, so none should."""
    return [line for line in alt.splitlines() if line[:1].islower()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_high_voltage_secret_and_result_lines_begin_as_sentences(language: str) -> None:
    presenter = presenter_for("high-voltage", language)
    state = find_game("high-voltage").new_state(3, 4)
    for seat in range(3):
        alt = presenter.secret_alt(state.view(seat), seat)
        assert len(alt.splitlines()) == 2 and not _sentences(alt), alt
    final = played("high-voltage", 5)
    assert final.view(None)["outcome"]["details"]["unowned"], "a company no one holds"
    result = plain(presenter.outcome(final.view(None), NAMES))
    assert not _sentences(result), result
    if language == "en":
        assert "\nPlain paths, letter " in presenter.secret_alt(state.view(0), 0)
        assert "\nNo one's: " in result


@pytest.mark.parametrize(
    ("language", "none"),
    [("en", "no walls"), ("it", "nessuna parete"), ("fr", "aucun mur"), ("de", "keine Wände")],
)
def test_a_sector6_tile_without_walls_says_so_not_zero(language: str, none: str) -> None:
    presenter = presenter_for("sector6", language)
    alt = presenter.tile_alt({"colour": "red", "value": 2, "walls": []})
    head = alt.splitlines()[0]
    assert f", {none}, " in head and " 0 " not in head, head
    with_walls = presenter.tile_alt({"colour": "red", "value": 2, "walls": ["N", "S"]})
    assert presenter.texts("sector6.action.walls", count=2) in with_walls.splitlines()[0]
