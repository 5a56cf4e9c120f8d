"""One cog per command group: /game (shared by every game) and one per game's own actions."""
