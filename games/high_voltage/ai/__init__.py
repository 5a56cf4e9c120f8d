"""AI players for High Voltage, registered with `engine.ai` under the game's name.

Use `engine.ai.choose(view, level=..., seed=...)`; the modules here are the parts:
`evaluate` (what a position is worth to one seat), `search` (the one-ply player),
`progress` (the rules that keep games between AI seats finite), `belief` (colours guessed
from public play), `agents` (the levels).
"""

from __future__ import annotations

from engine.ai import decide_random, register_agent
from games.high_voltage.ai.agents import decide_easy, decide_hard, decide_normal

GAME_NAME = "high-voltage"

register_agent(GAME_NAME, "random", decide_random, "random legal actions")
register_agent(GAME_NAME, "easy", decide_easy, "mostly random, takes lines that pay it")
register_agent(GAME_NAME, "normal", decide_normal, "greedy: the best position after one action")
register_agent(GAME_NAME, "hard", decide_hard, "searches many guesses of the hidden cards")

__all__ = ["GAME_NAME", "decide_easy", "decide_hard", "decide_normal"]
