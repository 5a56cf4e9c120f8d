"""What the bot does for each kind of interaction, on top of `hvbot.answering` (Discord's
rules for answering) and `hvbot.announcing` (what people are told after a change)."""
