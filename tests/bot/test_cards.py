"""A post as a card (`hvbot.messages.cards`): one container with the post's words, its
pictures in a gallery with their alt texts and its buttons in rows inside it, within Discord's
limits on a Components V2 message, cut the same way every time."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
from cyclic_garbage import cyclic_garbage, kinds
from discord.components import _component_factory

from hvbot.messages import buttons, cards
from hvbot.messages.limits import ALT, CUT
from hvbot.messages.outgoing import send_kwargs
from hvbot.messages.post import Choice, Picture, Post
from sandbox.emulator import layout, rules


def sent(view: discord.ui.LayoutView) -> list[dict[str, Any]]:
    """The components as discord.py sends them."""
    return view.to_components()


def checked(view: discord.ui.LayoutView, files: tuple[str, ...] = ("board.png",)) -> None:
    """The card is a message Discord accepts (the emulator's checks, which follow its rules)."""
    body = {"flags": 1 << 15, "components": sent(view)}
    assert rules.check_message(body, files=len(files), filenames=files) == []


def test_a_board_post_is_one_container_with_its_words_picture_and_buttons() -> None:
    choices = buttons.choice_view(7, 3, [Choice("keep", "Keep", "primary"), Choice("swap", "Swap")])
    view = buttons.board_view(7, choices)
    post = Post(
        "Ada placed a pylon on C3.\nBruno to move.",
        files=[Picture("board.png", b"png", "The board: Ada's pylon on C3.")],
        view=view,
        card=True,
        accent=0x2660DC,
    )
    kwargs = send_kwargs(post)
    assert "content" not in kwargs and "embed" not in kwargs
    (container,) = sent(kwargs["view"])
    assert container["type"] == layout.CONTAINER and container["accent_color"] == 0x2660DC
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [
        layout.TEXT_DISPLAY,
        layout.MEDIA_GALLERY,
        layout.ACTION_ROW,
        layout.ACTION_ROW,
    ]
    assert container["components"][0]["content"] == "Ada placed a pylon on C3.\nBruno to move."
    (item,) = container["components"][1]["items"]
    assert item["media"]["url"] == "attachment://board.png"
    assert item["description"] == "The board: Ada's pylon on C3."
    ids = [b["custom_id"] for row in container["components"][2:] for b in row["components"]]
    assert ids == ["act:7:3:keep", "act:7:3:swap", "follow:7"], "the view's rows, as they were"
    checked(kwargs["view"])


def test_a_link_button_of_the_post_sits_in_the_card_as_it_is() -> None:
    view = buttons.board_view(7, None)
    view.add_item(discord.ui.Button(label="Live board", url="https://example.org/b/7"))
    (container,) = sent(cards.card("Ada to move", [("board.png", "alt")], buttons=view))
    found = [b for row in container["components"][2:] for b in row["components"]]
    assert sorted(str(b.get("url") or b.get("custom_id")) for b in found) == [
        "follow:7",
        "https://example.org/b/7",
    ]


def test_a_text_at_the_limit_is_kept_and_one_over_is_cut_at_a_line() -> None:
    exact = "x" * cards.TEXT
    (container,) = sent(cards.card(exact))
    assert container["components"][0]["content"] == exact
    over = "a" * 3000 + "\n" + "b" * 1001  # 4,002 characters
    (container,) = sent(cards.card(over))
    said = container["components"][0]["content"]
    assert said == "a" * 3000 + "\n" + CUT and len(said) <= cards.TEXT
    assert sent(cards.card(over)) == sent(cards.card(over)), "cut the same way every time"
    checked(cards.card(over), files=())


def test_an_alt_text_at_the_limit_is_kept_and_one_over_is_cut_at_a_sentence() -> None:
    exact = "y" * ALT
    (container,) = sent(cards.card("", [("board.png", exact)]))
    assert container["components"][0]["items"][0]["description"] == exact
    clock = "Ada has 3 minutes left. " * 60  # well over 1,024
    (container,) = sent(cards.card("", [("board.png", clock)]))
    alt = container["components"][0]["items"][0]["description"]
    assert len(alt) <= ALT and alt.endswith(". " + CUT) and alt.startswith("Ada has 3 minutes")
    checked(cards.card("", [("board.png", clock)]))


def test_a_card_never_has_more_than_forty_components_nor_ten_pictures() -> None:
    full = discord.ui.View(timeout=None)
    for at in range(25):
        full.add_item(discord.ui.Button(label=str(at), custom_id=f"b{at}", row=at // 5))
    names = tuple(f"p{at}.png" for at in range(12))
    view = cards.card("words", [(n, "alt") for n in names], buttons=full)
    components = sent(view)
    assert layout.count(components) <= rules.V2_COMPONENTS_LIMIT
    (container,) = components
    assert len(container["components"][1]["items"]) == cards.MOST_PICTURES
    checked(view, files=names[: cards.MOST_PICTURES])


def test_a_sent_card_is_read_back_with_its_pictures_by_file_name() -> None:
    """A card as Discord returns it (its gallery showing the files' addresses) is read back
    as the card it was: each picture by the name of its file, whether the message lists its
    attachments or not, its words and its colour; its rows are left to `without_choices`."""
    container = _component_factory(
        {
            "type": 17,
            "id": 1,
            "accent_color": 0xD22830,
            "components": [
                {"type": 10, "id": 2, "content": "Bruno to move"},
                {
                    "type": 12,
                    "id": 3,
                    "items": [
                        {
                            "media": {
                                "url": "https://cdn.example/attachments/5/42/board.png?ex=1",
                                "attachment_id": "42",
                            },
                            "description": "The board",
                        }
                    ],
                },
                {
                    "type": 1,
                    "id": 4,
                    "components": [
                        {"type": 2, "id": 5, "style": 2, "label": "K", "custom_id": "k"}
                    ],
                },
            ],
        }
    )
    listed = SimpleNamespace(id=42, filename="board.png", url="https://cdn.example/x")
    for attachments in ([listed], []):
        message: Any = SimpleNamespace(components=[container], attachments=attachments)
        text, pictures, accent = cards.read(message)
        assert (text, pictures, accent) == ("Bruno to move", [("board.png", "The board")], 0xD22830)


def test_a_cards_buttons_are_its_views_own_in_the_rows_the_view_lays_out(monkeypatch) -> None:
    """The card takes the view's buttons as they are, row for row as discord.py would send
    the view, without making each again (a lobby's card is built at every change of its
    seats, and making a button is most of a card's cost)."""
    choices = [Choice(f"c{n}", f"Choice {n}") for n in range(7)]  # two rows of choices
    view = buttons.board_view(7, buttons.choice_view(7, 3, choices))
    rows = [[b["custom_id"] for b in row["components"]] for row in view.to_components()]
    made = 0
    making = discord.ui.Button.__init__

    def counted(self: discord.ui.Button[Any], *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        making(self, *args, **kwargs)

    monkeypatch.setattr(discord.ui.Button, "__init__", counted)
    card = cards.card("Ada to move.", buttons=view)
    assert made == 0
    (box,) = sent(card)
    in_card = [
        [b["custom_id"] for b in each["components"]]
        for each in box["components"]
        if each["type"] == 1
    ]
    assert in_card == rows and len(rows) >= 2, "the view's rows, the Follow button's own kept"
    checked(card, files=())


async def test_a_card_is_a_tree_down_only_and_freed_without_the_garbage_collector() -> None:
    """Its items keep no link back up (to their view, their container or row): a card,
    several a move, is freed as soon as it is sent, not at the collector's next full pass,
    and it is drawn as discord.py draws the same items linked both ways."""
    choices = buttons.choice_view(7, 3, [Choice("keep", "Keep", "primary"), Choice("swap", "Swap")])
    post = Post(
        "Ada placed a pylon on C3.\nBruno to move.",
        files=[Picture("board.png", b"png", "The board: Ada's pylon on C3.")],
        view=buttons.board_view(7, choices),
        card=True,
        accent=0x2660DC,
    )
    with cyclic_garbage() as garbage:
        card = send_kwargs(post)["view"]
        drawn = sent(card)
        assert all(item.view is None and item.parent is None for item in card.walk_children())
        assert card.is_finished() and card.has_components_v2() and card.is_dispatchable()
        del card
    assert garbage == [], kinds(garbage)
    # Linked both ways, as discord.py links the same items, the card is drawn the same.
    linked = discord.ui.LayoutView(timeout=None)
    for item in send_kwargs(post)["view"].children:
        linked.add_item(item)
    assert sent(linked) == drawn
    checked(linked)
