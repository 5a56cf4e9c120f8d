"""A local Discord: the emulated API and gateway (`sandbox.emulator`) that the real bot runs
against in the tests, and a browser page (`sandbox.web`) where people can play with the bot
without a Discord account.

Nothing here knows the bot: the emulator speaks Discord's protocol to any discord.py client,
and the page is a Discord client for people. `sandbox_bot.py`, beside `bot.py`, puts the three
together for `python bot.py --sandbox`.
"""
