"""Settings from the environment (and a `.env` file when present).

Every setting has a safe default except the token; a wrong value stops the bot with one line
that says what to fix, never a traceback.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus, urlsplit

from dotenv import load_dotenv

DEFAULT_DATABASE_URL = "sqlite:///hvbot.sqlite3"
POSTGRES_SCHEMES = ("postgresql", "postgres")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
IDENTIFY_INTERVAL_S = 5.0  # Discord admits one IDENTIFY per bucket per 5 seconds
LOG_FORMATS = ("text", "json")
DEFAULT_METRICS_HOST = "127.0.0.1"

DATABASE_WAIT_S = 600.0  # at start, how long to wait for a PostgreSQL server that does not answer


class ConfigError(Exception):
    """A setting is missing or wrong; the message is one line telling the user what to do."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)  # never in a log line or a traceback's locals
    database_url: str
    guild_id: int | None
    log_level: str
    # Worker processes that draw the pictures, beside one for replays and AI thinking (0: all
    # of it in threads of the bot's own process).
    drawing_processes: int = 1
    # Discord's shards: how many the bot runs in all (None: as many as Discord recommends), and
    # which of them this process runs (None: all of them).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Prometheus metrics and a health check served on this port (None: not served), on
    # loopback unless METRICS_HOST names another address.
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    # "text" for people reading it, "json" (one object a line) for a log system.
    log_format: str = "text"
    # Seconds between two IDENTIFYs of one bucket, across every process of the bot: Discord's
    # limit (one per 5 seconds) unless a test's emulated Discord allows more.
    identify_interval: float = IDENTIFY_INTERVAL_S
    # Seconds to keep trying, at start-up, to reach a PostgreSQL server that does not answer
    # yet (started at the same time, restarting), before giving up (0: at once).
    database_wait: float = DATABASE_WAIT_S
    # The names the metrics server answers to beside this machine's and METRICS_HOST (the
    # `Host` a scraper sends), and a token it must send as `Authorization: Bearer` (None: no
    # token asked for).
    metrics_allowed_hosts: tuple[str, ...] = ()
    metrics_token: str | None = field(default=None, repr=False)
    # The live boards on the web (see `hvbot.web`): served on this port (None: not served),
    # on `web_host`; their links start with `web_public_url` (the address people reach, a
    # reverse proxy's with HTTPS in production) and are signed with `web_secret` (None: one
    # made once and kept in the database, shared by every process).
    web_port: int | None = None
    web_host: str = DEFAULT_METRICS_HOST
    web_public_url: str | None = None
    web_secret: str | None = field(default=None, repr=False)

    @property
    def web_address(self) -> str:
        """Where the boards' links point: WEB_PUBLIC_URL, else this machine's port."""
        if self.web_public_url:
            return self.web_public_url.rstrip("/")
        return f"http://{self.web_host}:{self.web_port}"

    def __repr__(self) -> str:
        """Safe to log: the token and the database's password are left out."""
        shown = []
        for f in fields(self):
            if f.repr:
                value = getattr(self, f.name)
                if f.name == "database_url":
                    value = without_password(value)
                shown.append(f"{f.name}={value!r}")
        return f"Settings(token='***', {', '.join(shown)})"

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file named by `database_url` (a SQLite URL only)."""
        return sqlite_path(self.database_url)


# The query parameters of a PostgreSQL URL that are secret: libpq and asyncpg take the password
# (or the file holding it) there as well as before the host.
SECRET_PARAMETERS = ("password", "passfile")


def without_password(url: str) -> str:
    """A database URL to show: its password, if any, as ***, before the host or in the query
    (`?password=...`, and the path of a `passfile`)."""
    parts = urlsplit(url)
    shown = parts
    if parts.password is not None:
        user = parts.netloc.rpartition("@")[0].partition(":")[0]
        host = parts.netloc.rpartition("@")[2]
        shown = shown._replace(netloc=f"{user}:***@{host}")
    if parts.query:
        pairs = [pair.partition("=") for pair in parts.query.split("&")]
        query = "&".join(
            f"{name}=***" if unquote_plus(name).lower() in SECRET_PARAMETERS else name + eq + value
            for name, eq, value in pairs
        )
        shown = shown._replace(query=query)
    # Rebuilt only when something is hidden: `geturl` would write sqlite:///x as sqlite:/x.
    return url if shown == parts else shown.geturl()


def prepare_env_file(path: str | Path = ".env", example: str | Path = ".env.example") -> str | None:
    """On the first run, `.env` is made from the example, readable by its owner only, as it
    will hold the bot's token; an existing one that others may read is left as it is, and a
    warning to say so is returned (None if all is well)."""
    target = Path(path)
    if not target.exists():
        source = Path(example)
        if not source.is_file():
            return None
        try:
            descriptor = os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return None
        with os.fdopen(descriptor, "w", encoding="utf-8") as written:
            written.write(source.read_text(encoding="utf-8"))
        return None
    if os.name == "posix" and target.stat().st_mode & 0o077:
        return (
            f"{target} can be read by other users of this machine, and it holds the bot's "
            f"token: chmod 600 {target}"
        )
    return None


def sqlite_path(url: str) -> Path:
    """`sqlite:///relative.db`, `sqlite:////abs/path.db` or a bare path -> a file path."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    if "://" in url:
        raise ConfigError(f"DATABASE_URL {url.split('://', 1)[0]!r} is not a SQLite URL.")
    return Path(url)


def check_database_url(url: str) -> None:
    """A SQLite file or a PostgreSQL server, or one line that says what would work."""
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme in ("", "sqlite"):
        if scheme and not url.startswith("sqlite:///"):
            raise ConfigError(
                f"DATABASE_URL {url!r} names no file: write sqlite:///file.db (three slashes, "
                "four for an absolute path)."
            )
        return
    if scheme in POSTGRES_SCHEMES:
        parts = urlsplit(url)
        try:
            parts.port  # noqa: B018  (reading it checks it)
        except ValueError as exc:
            raise ConfigError(f"DATABASE_URL has a bad port: {exc}.") from exc
        if not parts.path.strip("/"):
            raise ConfigError(
                "DATABASE_URL names no database: postgresql://user:password@host:5432/dbname."
            )
        return
    raise ConfigError(
        f"DATABASE_URL uses {scheme!r}, which the bot cannot store games in; use "
        f"{DEFAULT_DATABASE_URL} (one process) or postgresql://user:password@host:5432/dbname "
        "(several processes)."
    )


def load_settings(
    environ: Mapping[str, str] | None = None, *, dotenv_path: str | None = ".env"
) -> Settings:
    """Read the settings; raise ConfigError with a one-line explanation when one is wrong."""
    if environ is None:
        if dotenv_path:
            load_dotenv(dotenv_path, override=False)
        environ = os.environ
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put your bot's token in .env (DISCORD_TOKEN=...) or in "
            "the environment; it is on the Discord developer portal under Bot -> Reset Token. "
            "To try the bot first with no Discord account, run: python bot.py --sandbox"
        )
    database_url = environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    check_database_url(database_url)
    guild_text = environ.get("HVBOT_GUILD_ID", "").strip()
    guild_id = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(
                f"HVBOT_GUILD_ID must be a server id (digits only), not {guild_text!r}; "
                "leave it empty to register commands everywhere."
            )
        guild_id = int(guild_text)
    log_level = environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
    drawing_text = environ.get("DRAWING_PROCESSES", "").strip() or "1"
    if not drawing_text.isdigit():
        raise ConfigError(
            f"DRAWING_PROCESSES must be a number of processes (0 or more), not {drawing_text!r}; "
            "1 suits most bots, 0 draws inside the bot's own process."
        )
    shard_count, shard_ids = read_shards(environ)
    log_format = environ.get("LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise ConfigError(
            f"LOG_FORMAT must be text (for people) or json (one object a line, for a log "
            f"system), not {log_format!r}."
        )
    metrics_port, metrics_host = read_metrics(environ)
    return Settings(
        token,
        database_url,
        guild_id,
        log_level,
        int(drawing_text),
        shard_count,
        shard_ids,
        metrics_port,
        metrics_host,
        log_format,
        identify_interval=read_identify_interval(environ),
        database_wait=read_database_wait(environ),
        metrics_allowed_hosts=read_allowed_hosts(environ),
        metrics_token=environ.get("METRICS_TOKEN", "").strip() or None,
        **read_web(environ),
    )


WEB_SECRET_LEAST = 16  # characters of a WEB_SECRET, at least: a short one could be guessed


def read_web(environ: Mapping[str, str]) -> dict[str, Any]:
    """WEB_PORT (empty: no live boards; 0: any free port), WEB_HOST (default: this machine only),
    WEB_PUBLIC_URL (http or https, default: this machine's port) and WEB_SECRET (empty: made
    once and kept in the database)."""
    port_text = environ.get("WEB_PORT", "").strip()
    host = environ.get("WEB_HOST", "").strip() or DEFAULT_METRICS_HOST
    url = environ.get("WEB_PUBLIC_URL", "").strip() or None
    secret = environ.get("WEB_SECRET", "").strip() or None
    if not port_text:
        return {}
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ConfigError(
            f"WEB_PORT must be a port number from 1 to 65535 (0: any free one), not "
            f"{port_text!r}; leave it empty to serve no live boards."
        )
    if url is not None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise ConfigError(
                f"WEB_PUBLIC_URL must be the address people open, such as "
                f"https://boards.example.org (http or https, no query), not {url!r}."
            )
    if secret is not None and len(secret) < WEB_SECRET_LEAST:
        raise ConfigError(
            f"WEB_SECRET must be at least {WEB_SECRET_LEAST} characters (say, the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`), or left empty "
            "for the bot to make one and keep it in its database."
        )
    return {
        "web_port": int(port_text),
        "web_host": host,
        "web_public_url": url,
        "web_secret": secret,
    }


def read_allowed_hosts(environ: Mapping[str, str]) -> tuple[str, ...]:
    """METRICS_ALLOWED_HOSTS: names (or addresses) separated by commas, without a port; an
    IPv6 address with or without its brackets."""
    text = environ.get("METRICS_ALLOWED_HOSTS", "").strip()
    names = []
    for given in text.split(","):
        name = given.strip().lower().removeprefix("[").removesuffix("]")
        if not given.strip():
            continue
        if any(c.isspace() or c in "/@[]" for c in name) or name.count(":") == 1:
            raise ConfigError(
                "METRICS_ALLOWED_HOSTS takes names such as metrics.example.internal, separated "
                f"by commas and without a port, not {given.strip()!r}."
            )
        names.append(name)
    return tuple(names)


def read_metrics(environ: Mapping[str, str]) -> tuple[int | None, str]:
    """METRICS_PORT (empty: no metrics) and METRICS_HOST (default: this machine only)."""
    port_text = environ.get("METRICS_PORT", "").strip()
    host = environ.get("METRICS_HOST", "").strip() or DEFAULT_METRICS_HOST
    if not port_text:
        return None, host
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(
            f"METRICS_PORT must be a port number from 1 to 65535, not {port_text!r}; leave it "
            "empty to serve no metrics."
        )
    return int(port_text), host


def read_database_wait(environ: Mapping[str, str]) -> float:
    """DATABASE_WAIT: seconds to wait at start for PostgreSQL to answer (10 minutes if unset)."""
    return read_seconds(
        environ,
        "DATABASE_WAIT",
        DATABASE_WAIT_S,
        zero=True,
        most=86400,
        what="from 0 to 86400 (a day)",
        hint="leave it unset to wait up to 10 minutes for PostgreSQL at start.",
    )


def read_identify_interval(environ: Mapping[str, str]) -> float:
    """IDENTIFY_INTERVAL: seconds between two IDENTIFYs of a bucket (Discord's 5 if unset)."""
    return read_seconds(
        environ,
        "IDENTIFY_INTERVAL",
        IDENTIFY_INTERVAL_S,
        zero=False,
        most=60,
        what="above 0 (Discord's limit is 5)",
        hint="leave it unset on Discord.",
    )


def read_seconds(
    environ: Mapping[str, str],
    name: str,
    default: float,
    *,
    zero: bool,
    most: float,
    what: str,
    hint: str,
) -> float:
    """A setting in seconds: `default` if unset, else a number up to `most` (0 only if
    `zero`), or one line saying `what` it must be and what to do (`hint`)."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    above_least = seconds >= 0 if zero else seconds > 0
    if not (above_least and seconds <= most):
        raise ConfigError(f"{name} must be a number of seconds {what}, not {text!r}; {hint}")
    return seconds


def read_shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: a process runs the shards listed out of the count."""
    count_text = environ.get("SHARD_COUNT", "").strip()
    ids_text = environ.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                "SHARD_IDS needs SHARD_COUNT: how many shards the bot runs in all (say 2, with "
                "SHARD_IDS=0 in one process and SHARD_IDS=1 in the other)."
            )
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(
            f"SHARD_COUNT must be a number of shards (1 or more), not {count_text!r}."
        )
    count = int(count_text)
    if not ids_text:
        return count, None
    words = [w.strip() for w in ids_text.split(",")]
    if not all(w.isdigit() and int(w) < count for w in words):
        raise ConfigError(
            f"SHARD_IDS must list shard numbers from 0 to {count - 1} separated by commas "
            f"(SHARD_COUNT is {count}), not {ids_text!r}."
        )
    ids = tuple(sorted({int(w) for w in words}))
    return count, ids


# At DEBUG, discord.py writes whole request bodies and gateway events (which include the direct
# messages telling players their colour) and aiosqlite writes every statement with its
# parameters (the saved state and the deal's seed). These never log below INFO.
WIRE_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook", "aiosqlite")


class JsonLines(logging.Formatter):
    """One JSON object a line, for a log system: time, level, logger, message, the process's
    shards and, for a line about a game, its id. Lines about a game begin `game %s:` with its
    id as the first argument (a line with no game known gives "-"), so the id is read from
    there. The message is the same text as in the readable format: nothing more is said."""

    def __init__(self, shards: str) -> None:
        super().__init__()
        self.shards = shards

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "shard": self.shards,
            "game_id": game_of(record),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def game_of(record: logging.LogRecord) -> int | None:
    """The game a log line is about, by the convention `game %s: ...`, if it names one."""
    if not (isinstance(record.msg, str) and record.msg.startswith("game %s")):
        return None
    if not isinstance(record.args, tuple) or not record.args:
        return None
    first = record.args[0]
    return first if isinstance(first, int) and not isinstance(first, bool) else None


def configure_logging(
    level: str, log_format: str = "text", shard_ids: tuple[int, ...] | None = None
) -> None:
    """Log at `level` to standard error, readable (`text`) or as JSON lines; `shard_ids` are
    this process's shards, named in each JSON line ("all" when it runs all of them)."""
    value = getattr(logging, level)
    logging.basicConfig(level=value, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if log_format == "json":
        shards = ",".join(map(str, shard_ids)) if shard_ids is not None else "all"
        for handler in logging.getLogger().handlers:
            handler.setFormatter(JsonLines(shards))
    logging.getLogger().setLevel(value)
    for name in WIRE_LOGGERS:
        logging.getLogger(name).setLevel(max(value, logging.INFO))
