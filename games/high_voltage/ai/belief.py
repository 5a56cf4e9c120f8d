"""What an AI seat believes about the colours it cannot see, from public play only.

Players declare lines that pay their own company and leave alone lines that would pay someone
else's, so the public logs in the view say something about each colour:

- a declared line makes its declarer's colour more likely in proportion to how far each
  colour's points on it lie above the line's average;
- a "declare none" with valid lines on the table makes the colours those lines favour less
  likely, more weakly (declining can also be caution, or saving the line for later).

Each piece of evidence multiplies a colour's weight by `exp(strength * (points - mean))`.
The weights are relative: `determinize.colour_assignments` multiplies them over seats and
keeps colours distinct, so a colour shown by the viewer's own card never gets weight.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from games.high_voltage.rules.determinize import colour_assignments

DECLARED_STRENGTH = 0.45
DECLINED_STRENGTH = 0.2
MAX_LOG_WEIGHT = 6.0  # evidence never rules a colour out completely


def colour_belief(view: Mapping[str, Any]) -> dict[int, list[float]]:
    """seat -> relative weight of each colour, for every seat whose colour is hidden."""
    colours = list(view["colours"])
    hidden = [p["seat"] for p in view["players"] if p["colour"] is None]
    logs = {seat: [0.0] * len(colours) for seat in hidden}

    def add(seat: int, points: Mapping[str, int], strength: float) -> None:
        if seat not in logs:
            return
        values = [points.get(c, 0) for c in colours]
        mean = sum(values) / len(values)
        for i, value in enumerate(values):
            logs[seat][i] += strength * (value - mean)

    for record in view.get("declared", ()):
        add(record["seat"], record["points"], DECLARED_STRENGTH)
    for record in view.get("declined", ()):
        for line in record["lines"]:
            add(record["seat"], line["points"], -DECLINED_STRENGTH)
    out = {}
    for seat, values in logs.items():
        top = max(values)
        out[seat] = [math.exp(max(-MAX_LOG_WEIGHT, v - top)) for v in values]
    return out


def colour_marginals(
    view: Mapping[str, Any], belief: Mapping[int, Sequence[float]] | None
) -> list[list[float]]:
    """Per seat, the probability of each colour (known colours are certain)."""
    options = colour_assignments(view, belief)
    total = sum(w for _, w in options)
    seats = view["seats"]
    out = [[0.0] * len(view["colours"]) for _ in range(seats)]
    for assignment, weight in options:
        for seat, colour in assignment.items():
            out[seat][colour] += weight / total
    return out
