"""The Discord layer: slash commands, buttons, the lobby, persistence and settings.

Thin by design: it parses what a player did, asks the engine, saves, renders and replies.
"""
