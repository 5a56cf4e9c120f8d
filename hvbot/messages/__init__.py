"""What the bot says and shows: the posts of a game, their words in each language, the
buttons under them, the presenters that put each game into words and pictures, replays, and
Discord's limits on all of it."""
