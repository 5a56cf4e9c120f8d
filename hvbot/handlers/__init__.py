"""What the bot does for each kind of interaction, on top of `hvbot.handlers.answering` (Discord's
rules for answering) and `hvbot.messages.game_posts` (what people are told after a change)."""
