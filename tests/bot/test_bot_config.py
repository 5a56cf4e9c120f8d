"""Settings: defaults, one-line errors for every wrong value, and the token check of bot.py."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from hvbot.database.sqlite import SqliteDatabase
from hvbot.infra.config import (
    DEFAULT_DATABASE_URL,
    ConfigError,
    Settings,
    load_settings,
    sqlite_path,
)

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_with_only_a_token():
    settings = load_settings({"DISCORD_TOKEN": "t0ken"})
    assert settings.token == "t0ken"
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.sqlite_path == Path("hvbot.sqlite3")
    assert settings.guild_id is None
    assert settings.log_level == "INFO"
    assert settings.drawing_processes == 1
    assert settings.metrics_port is None  # no metrics served unless asked for
    assert settings.log_format == "text"


def test_metrics_and_json_logs_are_read():
    settings = load_settings({"DISCORD_TOKEN": "x", "METRICS_PORT": "9108", "LOG_FORMAT": "JSON"})
    assert (settings.metrics_host, settings.metrics_port) == ("127.0.0.1", 9108)
    assert settings.log_format == "json"
    wide = load_settings({"DISCORD_TOKEN": "x", "METRICS_PORT": "9108", "METRICS_HOST": "0.0.0.0"})
    assert wide.metrics_host == "0.0.0.0"
    assert (settings.metrics_allowed_hosts, settings.metrics_token) == ((), None)


def test_the_metrics_names_and_token_are_read_and_the_token_never_shown():
    settings = load_settings(
        {
            "DISCORD_TOKEN": "x",
            "METRICS_PORT": "9108",
            "METRICS_ALLOWED_HOSTS": " Bot-A.internal, [fd00::1],10.0.0.7 ,",
            "METRICS_TOKEN": " s3cr3t-t0ken ",
        }
    )
    assert settings.metrics_allowed_hosts == ("bot-a.internal", "fd00::1", "10.0.0.7")
    assert settings.metrics_token == "s3cr3t-t0ken"
    assert "s3cr3t" not in repr(settings)


def test_all_settings_read():
    settings = load_settings(
        {
            "DISCORD_TOKEN": "x",
            "DATABASE_URL": "sqlite:///games/hv.db",
            "HVBOT_GUILD_ID": "1234567890",
            "LOG_LEVEL": "debug",
            "DRAWING_PROCESSES": "0",
        }
    )
    assert settings.sqlite_path == Path("games/hv.db")
    assert settings.guild_id == 1234567890
    assert settings.log_level == "DEBUG"
    assert settings.drawing_processes == 0


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "x", "HVBOT_GUILD_ID": "my server"}, "HVBOT_GUILD_ID"),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://db/hv"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": "x", "DRAWING_PROCESSES": "two"}, "DRAWING_PROCESSES must be"),
        ({"DISCORD_TOKEN": "x", "DRAWING_PROCESSES": "-1"}, "DRAWING_PROCESSES must be"),
        ({"DISCORD_TOKEN": "x", "DATABASE_URL": "sqlite://hv.db"}, "three slashes"),
        ({"DISCORD_TOKEN": "x", "DATABASE_URL": "postgresql://db:54x/hv"}, "bad port"),
        ({"DISCORD_TOKEN": "x", "DATABASE_URL": "postgresql://bot@db"}, "names no database"),
        ({"DISCORD_TOKEN": "x", "SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "from 0 to 1"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "2", "SHARD_IDS": "one"}, "SHARD_IDS must"),
        ({"DISCORD_TOKEN": "x", "METRICS_PORT": "metrics"}, "METRICS_PORT must be a port"),
        ({"DISCORD_TOKEN": "x", "METRICS_PORT": "70000"}, "METRICS_PORT must be a port"),
        ({"DISCORD_TOKEN": "x", "LOG_FORMAT": "xml"}, "LOG_FORMAT must be text"),
        ({"DISCORD_TOKEN": "x", "METRICS_ALLOWED_HOSTS": "bot-a:9108"}, "without a port"),
        ({"DISCORD_TOKEN": "x", "METRICS_ALLOWED_HOSTS": "http://bot-a"}, "without a port"),
        ({"DISCORD_TOKEN": "x", "METRICS_ALLOWED_HOSTS": "bot a"}, "METRICS_ALLOWED_HOSTS"),
    ],
)
def test_wrong_settings_say_what_to_fix(env, needle):
    with pytest.raises(ConfigError) as info:
        load_settings(env)
    message = str(info.value)
    assert needle in message
    assert "\n" not in message


def test_shards_and_a_postgresql_url_are_read():
    settings = load_settings(
        {
            "DISCORD_TOKEN": "x",
            "DATABASE_URL": "postgresql://bot:secret@db.internal:5432/games",
            "SHARD_COUNT": "4",
            "SHARD_IDS": "3, 1",
        }
    )
    assert settings.database_url == "postgresql://bot:secret@db.internal:5432/games"
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    assert load_settings({"DISCORD_TOKEN": "x"}).shard_count is None


def test_absolute_sqlite_url():
    assert sqlite_path("sqlite:////var/lib/hv.db") == Path("/var/lib/hv.db")


def test_dotenv_file_is_read(tmp_path, monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("LOG_LEVEL", raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=WARNING\n")
    settings = load_settings(dotenv_path=str(env_file))
    assert settings.token == "from-file"
    assert settings.log_level == "WARNING"


def test_bot_without_token_prints_one_line_and_exits_2(tmp_path):
    env = {"PATH": "", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in done.stderr


def test_a_settings_mistake_is_said_without_importing_the_bot(tmp_path):
    """What a start that stops at its settings imports: not discord.py, the database drivers
    or the sandbox, half a second of a start that would go nowhere."""
    heavy = ["aiohttp", "aiosqlite", "asyncpg", "discord", "hvbot.runtime.client", "sandbox_bot"]
    said = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, bot; status = bot.main([]); print(status, [m for m in {heavy!r} "
            "if m in sys.modules])",
        ],
        cwd=tmp_path,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert said.stdout.split(maxsplit=1) == ["2", "[]\n"], said.stderr
    assert "DISCORD_TOKEN" in said.stderr


def test_debug_logging_keeps_secret_bearing_loggers_at_info():
    import logging

    from hvbot.infra.config import WIRE_LOGGERS, configure_logging

    saved = {name: logging.getLogger(name).level for name in ("", *WIRE_LOGGERS)}
    try:
        configure_logging("DEBUG")
        assert logging.getLogger().level == logging.DEBUG
        assert logging.getLogger("hvbot").getEffectiveLevel() == logging.DEBUG
        for name in WIRE_LOGGERS:
            assert logging.getLogger(name).getEffectiveLevel() == logging.INFO, name
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


def bare_bot(folder: Path) -> list[str]:
    """`python bot.py` in `folder` with no settings: the lines it prints before it stops."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=folder,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    return done.stderr.strip().splitlines()


def test_the_first_run_makes_env_readable_by_its_owner_only(tmp_path: Path) -> None:
    example = (ROOT / ".env.example").read_text()
    (tmp_path / ".env.example").write_text(example)
    (line,) = bare_bot(tmp_path)
    assert "DISCORD_TOKEN is not set" in line
    made = tmp_path / ".env"
    assert made.read_text() == example
    assert made.stat().st_mode & 0o777 == 0o600


def test_an_env_others_can_read_is_pointed_out_and_left_alone(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("LOG_LEVEL=INFO\n")
    env.chmod(0o644)
    warning, refusal = bare_bot(tmp_path)
    assert "can be read by other users" in warning and "chmod 600" in warning
    assert "DISCORD_TOKEN is not set" in refusal
    assert env.stat().st_mode & 0o777 == 0o644


def test_the_settings_never_show_the_token_or_the_database_password() -> None:
    settings = Settings(
        "MTA.secret.token", "postgresql://bot:s3cr%40t@db.example:5432/games", None, "INFO"
    )
    for shown in (repr(settings), str(settings), f"{settings}"):
        assert "MTA.secret.token" not in shown and "s3cr" not in shown
        assert "postgresql://bot:***@db.example:5432/games" in shown
    assert "sqlite:///hv.db" in repr(Settings("t", "sqlite:///hv.db", None, "INFO"))


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://u@db/hv?password=s3cr3t", "postgresql://u@db/hv?password=***"),
        (
            "postgres://u@db:5432/hv?sslmode=require&PassWord=s3cr3t&passfile=/s3cr3t/.pgpass",
            "postgres://u@db:5432/hv?sslmode=require&PassWord=***&passfile=***",
        ),
        (
            "postgresql://u:s3cr3t@db/hv?pass%77ord=s3cr3t",
            "postgresql://u:***@db/hv?pass%77ord=***",
        ),
        ("postgresql://u@db/hv?application_name=hv", "postgresql://u@db/hv?application_name=hv"),
    ],
)
def test_the_settings_never_show_a_password_given_in_the_query(url: str, shown: str) -> None:
    """libpq and asyncpg take the password (or the file holding it) in the query too."""
    settings = repr(Settings("t", url, None, "INFO"))
    assert f"database_url={shown!r}" in settings and "s3cr3t" not in settings


async def test_an_existing_sqlite_file_others_can_read_is_pointed_out_and_left_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Made before the bot made its files private, or by hand: the owner is told how to
    close it, its journal files too, and the bot runs on it as it is."""
    path = tmp_path / "games.sqlite3"
    database = await SqliteDatabase.open(path)
    await database.close()
    for each in tmp_path.iterdir():
        each.chmod(0o644)
    caplog.set_level(logging.WARNING, logger="hvbot.database.sqlite")
    database = await SqliteDatabase.open(path)
    try:
        (warning,) = caplog.records
        said = warning.getMessage()
        assert "can be read by other users" in said and f"chmod 600 {path}" in said
        assert f"{path}-wal" in said and f"{path}-shm" in said
        assert path.stat().st_mode & 0o777 == 0o644
    finally:
        await database.close()
    caplog.clear()
    path.chmod(0o600)
    for journal in tmp_path.glob("*-*"):
        journal.chmod(0o600)
    await (await SqliteDatabase.open(path)).close()
    assert not caplog.records, "a private file is not pointed out"


async def test_a_new_sqlite_file_and_its_journal_are_readable_by_their_owner_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.sqlite3"
    database = await SqliteDatabase.open(path)
    try:
        await database.transact(lambda tx: tx.execute("CREATE TABLE t (x INTEGER)"))
        made = [p for p in tmp_path.iterdir() if p.name.startswith("games.sqlite3")]
        assert {p.name for p in made} >= {"games.sqlite3", "games.sqlite3-wal"}
        assert {p.stat().st_mode & 0o777 for p in made} == {0o600}
    finally:
        await database.close()


def test_the_identify_interval_is_discords_unless_set() -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert load_settings(base).identify_interval == 5.0
    assert load_settings({**base, "IDENTIFY_INTERVAL": "0.2"}).identify_interval == 0.2
    for wrong in ("soon", "0", "-1", "600"):
        with pytest.raises(ConfigError, match="IDENTIFY_INTERVAL must be a number of seconds"):
            load_settings({**base, "IDENTIFY_INTERVAL": wrong})


def test_a_json_log_line_names_its_game_and_says_no_more_than_the_text():
    import json
    import logging

    from hvbot.infra.config import JsonLines

    def record(msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("hvbot.services.play", logging.INFO, "", 0, msg, args, None)

    formatter = JsonLines("2,3")
    line = json.loads(formatter.format(record("game %s: seat %s did %s", 41, 1, "draw C4")))
    assert line["game_id"] == 41 and line["shard"] == "2,3"
    assert (line["level"], line["logger"]) == ("INFO", "hvbot.services.play")
    assert line["message"] == "game 41: seat 1 did draw C4"
    assert set(line) == {"time", "level", "logger", "message", "shard", "game_id"}
    assert json.loads(formatter.format(record("game %s: unexpected error", "-")))["game_id"] is None
    assert json.loads(formatter.format(record("ready to serve games")))["game_id"] is None


def test_the_wait_for_the_database_at_start_is_ten_minutes_unless_set() -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert load_settings(base).database_wait == 600.0
    assert load_settings({**base, "DATABASE_WAIT": "0"}).database_wait == 0.0
    assert load_settings({**base, "DATABASE_WAIT": "90"}).database_wait == 90.0
    for wrong in ("a while", "-1", "86401"):
        with pytest.raises(ConfigError, match="DATABASE_WAIT must be a number of seconds"):
            load_settings({**base, "DATABASE_WAIT": wrong})
