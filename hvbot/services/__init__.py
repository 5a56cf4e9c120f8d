"""What happens to a game when someone acts, without any Discord in it: one service per
feature (lobby, play, undo, absence votes, reminders, results) around the one game store
(`hvbot.store`), composed into the `hvbot.service.GameService` the bot holds."""
