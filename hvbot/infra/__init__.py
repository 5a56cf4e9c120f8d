"""The bot's low-level parts, which every other layer may use and which use no other part of
the bot: settings (`config`), metrics, the worker processes that draw and think, memory."""
