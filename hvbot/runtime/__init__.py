"""Running the bot: its Discord client and start-up, its settings, the loop that stops it
cleanly, the local sandbox, and the worker processes that draw pictures and think for AI seats."""
