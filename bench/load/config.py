"""The numbers a load run is made of: the quality bars it reports against, the sizes and
waits of its phases, and the words it looks for in the bot's posts. Apart, so the players,
the clocks, the measurement and the report read the same ones."""

from __future__ import annotations

import re
from datetime import timedelta

from games import find_game, register_all
from hvbot.cogs.periodic import CHECK_S
from hvbot.infra.workers import WATCH_S

register_all()  # the games this benchmark plays, as `bot.py` registers them

RULES = find_game("high-voltage")
P99_TARGET_MS = 250.0
# The p99 bar is set for this many games in one process played as fast as answered, and for
# HUMAN_PACE_BAR_GAMES open games played at a human pace.
P99_BAR_GAMES = 200
HUMAN_PACE_BAR_GAMES = 10_000
# ...which are all opened and started within this many seconds.
SETUP_BAR_S = 120.0
# Two processes together store at least this many times the actions per second of one.
SCALING_TARGET = 1.5
# PostgreSQL (one process) against SQLite in `--database both`: actions stored a second, at least
# as many.
DATABASES_TARGET = 1.0
MEMORY_TARGET_KB = 20.0  # in the bot's processes, a game open
# The players' connections to PostgreSQL: many channels read at the same moment, and a
# connection runs one query at a time.
READER_CONNECTIONS = 4
# ...on a replica of their own: a database the bots were just given is waited for this long
# to reach it.
REPLICA_WAIT_S = 30.0
# The bots' server keeps what it was told to as the SQLite file does. The bot opens its SQLite
# file in WAL mode at SQLite's default `synchronous = FULL`: each commit is written to the WAL
# and synced to the disk before it returns, so a machine that loses its power keeps every
# commit that returned. The tests' PostgreSQL server syncs nothing (`fsync=off`) and writes no
# full page images (`full_page_writes=off`): quick for tests, but a loss of power can lose
# commits that returned, or break the database. The bots' server is run as a deployment runs
# it: WAL synced at each commit (`fsync=on`; `synchronous_commit` is at least `on`, see
# BOTS_DATABASE_SETTINGS), with full page images. The players' replica is the players' copy,
# not the bots' truth: it keeps the tests' settings.
DURABLE = ("fsync=on", "full_page_writes=on")
# The players' replica is sent the server's changes as the server writes them out; its WAL
# writer does every 200 ms by default (commits are not waited for), which would hold the
# players that long behind the bots...
PRIMARY_SETTINGS = (*DURABLE, "wal_writer_delay=10ms", "synchronous_standby_names=*")
# ...and even 10 ms behind, a player woken by the bot's post would find the game not moved
# yet and look again and again: the players would play slower than the bot answers, and
# their looking would load the machine the bot runs on (2,500 queries a second at 200
# games, where the players made 80 moves a second). So a commit to the bots' database
# returns once the replica has applied it, as a SQLite file is read at once by the players:
# every post the players see is of a game already on their replica. The bot pays that wait
# (well under a millisecond here) in its latencies, not in its CPU.
BOTS_DATABASE_SETTINGS = ("synchronous_commit = remote_apply",)
SETUP_AT_ONCE = 10  # games being opened at the same moment during set-up
# A lobby step whose answer did not come within Discord's window: how long the bot is given to
# answer at all (it stores the change first) before the channel's game is looked up.
LATE_ANSWER_S = 30.0
# ...and for a lobby, how long the bot is given to note its message's id once it is posted.
LOBBY_NOTED_S = 5.0
# A /game new the bot deferred (it was behind on the games started already): how long its
# person waits for the lobby to replace "thinking…", Discord's lifetime of an interaction.
DEFERRED_LOBBY_S = 15 * 60.0
# ...and how many times a lobby whose answers keep coming late is taken up again, not abandoned.
LOBBY_RESUMES = 10
# Before memory is measured at rest, a few games are played at once for `--warm-up` seconds and
# abandoned: what a process pays once it has served games for a while (its workers started,
# the picture pieces and labels every board shares cached) is not charged to the games.
WARM_UP_GAMES = 10
# ...and on, for at most this long, until one of them has finished: the first replays a process
# draws cost its background worker about 20 MB once, which a warm-up that happened to finish no
# game charged to the timed play (with no game finishing in the play itself)...
WARM_UP_FINISH_S = 30.0
# ...and until this many boards have been drawn: the drawing worker's cache of picture pieces
# fills with the boards it draws, not with the seconds, and a warm-up the host slowed down drew
# a few hundred, leaving up to 10 MB of filling to be charged to the games.
WARM_UP_BOARDS = 1500
# ...then the replays of the games it finished are waited for, at most this long.
REPLAYS_S = 60.0
# After the warm-up, long enough for every worker to have given back what its work left free
# (it does every WATCH_S): at rest means at rest.
REST_SECONDS = WATCH_S + 1.0
MOVE_TIMEOUT = 10.0  # an acknowledged move that changes nothing by then counts as refused
# A player reads its game when the bot's messages say it may have moved on, and otherwise after
# this long without any (a message lost on its way): on a bot behind, a second's silence is
# common and almost always ends with the board picture it waited for.
SILENT_READ_S = 5.0
STALL_SECONDS = 15.0  # a game waiting this long for the bot is reported as stuck
# When the second half of the games joins the play, all their people move in the same instant,
# a burst no server sees: the timing starts once each of them has moved (or this long), and
# the play has then run on for a moment.
JOIN_SECONDS = 15.0
PROBE_LOOPS = 50_000  # the machine-speed probe: a few milliseconds of Python on a normal core
PROBE_EVERY = 2.0  # seconds between probes during the timed play
# Two probes in a row this many times slower than the fastest: the machine's speed changed
# during the run. One slow probe alone is the run's own processes crowding the two cores (up to
# about 1.8x); the host's slowdowns last minutes...
SLOWED = 1.5
# ...or a single probe this many times slower, which crowding never explains: a few seconds of
# it are enough to queue pictures and lift the memory figure.
SPIKED = 5.0
SETTLE_SECONDS = 2.0
ANNOUNCING_KINDS = frozenset({"response", "followup", "channel_message"})
KINDS = (
    ("command", "slash commands (moves)"),
    ("button", "buttons (place, declare)"),
    ("lobby", "lobby (new, join, add AI, start)"),
    ("board", "/game board after a lost answer"),
)
FINISHED = "finished"
# Turn clocks (--clocked): the clock those games are opened with, in minutes (1 hour a move)...
CLOCK_MINUTES = 60
# ...how far past a warning's or a deadline's instant the bots' clock is moved...
PAST = timedelta(milliseconds=1)
# ...how long a person made silent is waited for to reach their turn, and how long the bots are
# given to warn them, or to tell the channel they ran out and play their move (the bots look
# every CHECK_S seconds)...
HOLD_S = 10.0
ACT_S = 2 * CHECK_S + 10.0
# A person is made silent only at a turn whose warning is at least this far ahead of the bots'
# clock: a nearer one would fall due by itself as the real time runs on after the last jump.
CLEAR = timedelta(minutes=5)
# ...and after the last one, how long duties done twice are looked for: every process's check
# runs again in that time.
AFTER_S = CHECK_S + 2.0
WARNED = "left for your move"  # the words of a clock's warning (bot.clock.warning)...
RAN_OUT = "ran out of time"  # ...and of its running out (bot.clock.ai_move)
MENTION = re.compile(r"<@(\d+)>")
CHANNEL_MENTION = re.compile(r"<#(\d+)>")
