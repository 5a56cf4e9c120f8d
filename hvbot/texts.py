"""What the bot says, in one place: rules summaries, one-line descriptions of actions, status.

Descriptions are built from the public action text and the public view only, so nothing said
here can carry a secret.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from data import load_text

HV_RULES = load_text("high_voltage/rules.md")

EDGE_WORDS = {"here": "where it was", "empty": "in the empty cell"}


def _rot(word: str) -> str:
    return word.removeprefix("r") + "°"


def describe_hv(action: str, actor: str, *, last_cells: Sequence[str] = ()) -> str:
    """One line saying what an action did, for the public post after it."""
    words = action.split()
    special = ""
    if words and words[-1].startswith("special="):
        kind = words.pop().split("=", 1)[1]
        special = " (special token: double turn)" if kind == "double" else " (special token)"
    verb, args = words[0], words[1:]
    if verb == "draw" and len(args) == 3:
        target = args[1]
        where = EDGE_WORDS.get(target, target)
        if target == "empty" and len(last_cells) == 2:
            dest = [c for c in last_cells if c != args[0]]
            where = f"in the empty cell {dest[0]}" if dest else where
        return f"{actor} drew {args[0]} and laid it {where}, turned {_rot(args[2])}{special}."
    if verb == "draw":
        return f"{actor} is looking at the card on {args[0]}{special}."
    if verb == "rotate":
        return f"{actor} turned {args[0]} to {_rot(args[1])}{special}."
    if verb == "move":
        return f"{actor} moved {args[0]} into the empty cell, turned {_rot(args[1])}{special}."
    if verb == "swap":
        return (
            f"{actor} swapped {args[0]} and {args[1]} "
            f"(turned {_rot(args[2])} and {_rot(args[3])}){special}."
        )
    if verb == "declare" and args == ["none"]:
        return f"{actor} declared no (more) lines."
    if verb == "declare":
        return f"{actor} declared the line {args[0]}."
    return f"{actor}: {action}"


def describe_line(record: Mapping[str, Any]) -> str:
    points = ", ".join(f"{c} +{p}" for c, p in record["points"].items() if p)
    tokens = record.get("point_tokens", 0)
    extra = f"; {tokens} point token{'s' if tokens != 1 else ''}" if tokens else ""
    return f"Line {record['line']} ({len(record['cells'])} cards): {points}{extra}."


def hv_scores(view: Mapping[str, Any]) -> str:
    companies = " · ".join(f"{c} {v}" for c, v in view["company_scores"].items())
    return (
        f"Companies: {companies} · energy tokens left {view['energy_supply']} · "
        f"face-down cards {view['face_down']}"
    )


def hv_status(view: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = [hv_scores(view)]
    for player in view["players"]:
        lines.append(
            f"• {names[player['seat']]}: {player['action_tokens']} action, "
            f"{player['special_tokens']} special, {player['point_tokens']} point tokens"
        )
    return "\n".join(lines)


def hv_outcome(view: Mapping[str, Any], names: Sequence[str]) -> str:
    outcome = view["outcome"]
    details = outcome["details"]
    reasons = {
        "energy_tokens_exhausted": "the last energy token was placed",
        "last_card_placed": "the last face-down card was laid",
        "no_valid_line_possible": "no valid line can be made any more",
        "no_legal_action": "the player to move had no legal action",
    }
    rows = []
    for seat, score in enumerate(outcome["scores"]):
        colour = details["colours"][seat]
        company = details["company_scores"][colour]
        tokens = details["point_tokens"][seat]
        rows.append(f"• {names[seat]}: {colour}, {company} + {tokens} tokens = **{score}**")
    unowned = details.get("unowned") or []
    if unowned:
        rows.append("• no one's: " + ", ".join(unowned))
    winners = [names[s] for s in outcome["winners"]]
    verdict = (
        f"**{winners[0]} wins!**"
        if len(winners) == 1
        else "**Shared win: " + ", ".join(winners) + "!**"
    )
    why = reasons.get(outcome["reason"], outcome["reason"])
    return f"Game over: {why}.\n" + "\n".join(rows) + "\n" + verdict
