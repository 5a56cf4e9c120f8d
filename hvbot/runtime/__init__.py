"""Running the bot: its Discord client and start-up, the loop that stops it cleanly, and the
timing of its gateway heartbeats. (Its settings and worker processes are in `hvbot.infra`; the
local sandbox is run by `sandbox_bot.py`, beside `bot.py`.)"""
