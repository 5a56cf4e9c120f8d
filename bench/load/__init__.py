"""How quickly the bot acknowledges interactions while many games run at once, how much
memory each game costs it, and how many actions it stores per second for its CPU, against the
product's quality bars: one bot process on SQLite, or several sharing PostgreSQL.

    python -m bench.load [--games 200] [--seconds 30] [--ai-seats 1] [--ai-pause 0.2]
                         [--think 0] [--think-spread 0.5] [--setup-at-once 10]
                         [--drawing-processes 1] [--warm-up 20]
                         [--warm-up-boards 1500] [--bot-log FILE]
                         [--database sqlite|postgresql|both] [--processes 1] [--scaling]
                         [--clocked 0] [--bot-cores 0]

The bot runs in child processes (`bench/load_bot.py`: the real client, drawing in its worker
processes as deployed); this process runs the Discord emulator on 127.0.0.1, with one text
channel per game, and the scripted players. With `--database sqlite` (the default) one bot
process stores the games in a fresh SQLite file in a temporary folder. With `postgresql` this
script starts a throwaway PostgreSQL server as the tests do
(`tests/support/postgres_server.py`), and `--processes` bot processes share a fresh database
on it, each running one shard of as many (SHARD_COUNT, SHARD_IDS); the games are dealt out in
turn over one Discord server per shard, so each process serves its share, as Discord would
route them. `both` measures SQLite, then PostgreSQL, each in full with the same arguments
(SQLite with one process: a SQLite file is served by one), and prints them side by side,
with PostgreSQL's actions a second over SQLite's against its bar (at least as many) and what
each run's CPU a stored action was, all of it and by whom (the bot, its server, the players'
replica, the emulator and players: with every core busy, all of it sets the pace);
`--bot-cores N` keeps the bots and their workers to the first N cores and everything else,
the PostgreSQL servers with it, to the others, so that what the bots store a second is what
their own cores let them, as beside a database on a machine of its own (`cores.py`);
`--scaling`, with several processes, measures PostgreSQL with one process too, so the run
reports what N processes store over one.

Each game has two people and `--ai-seats` AI seats (whose pause before moving is `--ai-pause`,
short but not zero, so AI moves add to the load as they do in real use). Each game is opened
as people open one: /game new, Join, Add AI, Start.

The people then play legal moves, chosen with the engine from the game as the bot stored it
(read from its database: SQLite through a read-only connection; PostgreSQL from a streaming
replica of the bots' server that this script starts beside it, through a few pooled
connections, so the players' reads are no work for the server the bots use, only the sending
of its changes), as fast as the bot answers: the next move is sent once everything the previous
one caused has been posted (the board picture, and the private prompt when the next move is a
button), or after `--think` seconds more (give or take `--think-spread` of it) to see a
human pace: `--think 150 --think-spread 0.2` is a move every 2 to 3 minutes a game, as
asynchronous play goes, and each game's first pause is a random part of one, so the moves of
many games come evenly rather than all together. Moves are slash commands (/hv
draw, rotate, move, swap) and the buttons of the private prompts (placing a drawn card,
declaring lines); a finished game is followed at once by a new one in its channel, so `--games`
games stay active. A game that gets no answer for a while (the bot stored a move but could not
post it) is asked for /game board, as a person would.

With `--clocked N`, N of the games (spread over them, so over the processes too) are opened
with a turn clock of an hour a move (`/game new clock:60`: when the person to move runs out, an
AI plays that move for them), and every game without reminders (`reminder:0`, as the bots'
clock jumps an hour at a time and a reminder would fall due in every game at every jump). The
bot processes tell the games' time by a clock this script moves forward (`load_bot.py
--moved-clock`: the real time plus an offset written on their stdin), so no hour is waited;
the leases of their duties keep the real time (see there why). During the timed
play, one clocked game's person after another goes silent at their turn (nothing more is sent
in their channel until the AI has played their move), and the clock is moved past their
warning's instant (a quarter of their hour left), then past their deadline, both read from
the bots' database; one jump passes the deadline of the one before and the warning of the next.
Measured: from each jump to the warning DM, to the "ran out of time" post in the channel and
to the AI's move posted there; the timeouts acted and the warnings sent; and that no duty was
done twice: per game and deadline one "ran out" post and one AI move (its board posts reaching
the channel once each, told by their nonce), at most one warning a turn. Every warning and
"ran out" post seen counts, also in the other clocked games, whose person to move may be late
when a jump passes their clock. With several processes on PostgreSQL any of them may claim a
clock: it must still act once. The bots look for what falls due every few seconds
(`hvbot.cogs.periodic.CHECK_S`), which sets the order of those delays. The run also counts the
second copies of posts Discord refused by their nonce, and the posts the bots withdrew as
another claim had taken them over (both 0 unless a duty was claimed twice).

Measured over the `--seconds` of play once every game plays:
- acknowledgement latency: from the emulator sending INTERACTION_CREATE to the bot's
  interaction callback reaching it (p50, p95, p99, max) over every interaction sent; one never
  acknowledged within Discord's 3 seconds counts as 3 seconds;
- game actions stored per second (the people's and the AI seats'), from the database;
- the bot's resident memory (VmRSS, its processes and their worker processes together) per
  active game: (RSS with the games - RSS at rest) / games,
  where "at rest" is after start-up and a warm-up (ten games played as fast as answered for
  `--warm-up` seconds, and on until one of them has finished and `--warm-up-boards` boards
  have been drawn, then abandoned, and the replays of those finished posted), so what a
  process pays once it has served games for a while is not charged to the games: above all
  the drawing worker's caches of picture pieces and labels, which fill over the first thousand
  or so pictures and then stay, and what the first replays cost the background worker. RSS at
  most while the games play is the figure, and RSS once they are all started (before anyone
  moves) is shown beside it. Half the games play for `--seconds`/2 before the rest join, so
  the run also prints what each game that joins the play adds: the cost of one more game,
  without what a process pays once when play begins (pools, the allocator's reserve). The rest
  join all in the same instant, a burst no server sees from its players: the timing starts
  once each of them has moved and play has run on for a moment (what the burst's answers took
  is printed apart);
- CPU use of the bot processes (with their workers) and of this one, and how late this
  process's event loop ran (on a small machine they share the cores: the emulator's delays
  are part of the latencies); the bots' CPU milliseconds per action stored (PostgreSQL's server
  is processes of its own: its CPU is shown apart, where SQLite's work is the bot's own, and
  of it what sending the players' replica its changes takes, the players' load on it); how
  busy the machine's cores were with all of it (when all are busy, the machine sets the pace);
- on PostgreSQL, what the bots' server wrote: its WAL per stored action (synced at each
  commit, and applied by the players' replica), the full page images in it, and the share of
  the games' updates that were heap-only (no index written); a checkpoint is made as the play
  begins, so that none of the server's own (every 5 minutes) falls within the timed play and
  charges one run with the full page images another does not pay (`server_work.py`);
- with several processes, each one's figures beside the total: the acknowledgements of its
  games' interactions, the actions stored in its games, its CPU. On a 2-core machine the
  emulator and the scripted players share the machine with the bots, so the speed-up several
  processes show is a lower bound;
- the machine's own speed: the CPU time a fixed piece of Python takes, before the run and every
  few seconds of play. A shared virtual machine can run several times slower for minutes at a
  time when its host is busy, and every other figure then moves with it; the run says so when
  its speed changed, so runs are compared only when their machines ran alike.

The bars: p99 under 250 ms at 200 games in one process (on PostgreSQL as on SQLite) and at
10,000 open games at a human pace; those 10,000 opened and started in under two minutes;
under 20 kB per open game; two processes on PostgreSQL together store at least 1.5x the actions
per second of one. Prints a table for people, then as its last line one JSON object of the
figures (with `both`, PostgreSQL's, SQLite's under `sqlite`, and `postgresql_over_sqlite` the
ratio of their actions a second; `scaling` is N processes' actions per second over one's, null
unless both were measured; `clocks`, the turn clocks' figures,
null without `--clocked`). It reports figures only: it never
fails because a machine is slow.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The emulator's helpers the players use (e2e_harness) and the throwaway PostgreSQL server
# (postgres_server) live with the tests; the project's own packages are at the root.
_ROOT = Path(__file__).resolve().parents[2]
for _path in reversed((str(_ROOT), str(_ROOT / "tests" / "support"))):
    if _path not in sys.path:
        sys.path.insert(0, _path)
