"""A throwaway PostgreSQL server from Debian's `postgresql` package, for tests and benchmarks.

`initdb` refuses to run as root, so when this process is root the server's folder is given to
the `postgres` user and every server program is run as that user (`runuser -u postgres --`).
The server listens on a free loopback port and on a unix socket inside its own folder, with
trust authentication; its URLs reach it through the socket (`tcp_url` through the port). It is
stopped (immediate mode) and its folder removed when the context ends. Nothing here is used by
the bot itself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

DEBIAN_BIN = Path("/usr/lib/postgresql")


class PostgresUnavailable(RuntimeError):
    """PostgreSQL could not be started here; the message says why and what to install."""


def database_name(url: str) -> str:
    """The database a URL of `PostgresServer` names, whether through its socket or its port."""
    return urlsplit(url).path.lstrip("/")


@dataclass(frozen=True)
class PostgresServer:
    folder: Path
    port: int
    # Settings beyond the usual ones (`-c name=value` each), kept for `start`.
    settings: tuple[str, ...] = ()

    def database_url(self, name: str) -> str:
        """The URL of database `name` through the server's unix socket: on one machine a
        query costs the client and the server together about 40% less CPU than through
        loopback TCP (the kernel's TCP stack, twice a round trip), and the tests run many."""
        return f"postgresql://postgres@/{name}?host={self.folder}&port={self.port}"

    def tcp_url(self, name: str) -> str:
        """The URL of database `name` through the server's loopback port: as a server on
        another machine is reached."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def create_database(self, name: str) -> str:
        """A new empty database on this server; its URL."""
        createdb = [str(_bin("createdb")), "-h", str(self.folder), "-p", str(self.port)]
        _run(_as_postgres([*createdb, "-U", "postgres", name]))
        return self.database_url(name)

    def execute(self, statement: str, database: str = "postgres") -> None:
        """Run one SQL statement on this server, as its superuser."""
        psql = [str(_bin("psql")), "-h", str(self.folder), "-p", str(self.port), "-U", "postgres"]
        _run(_as_postgres([*psql, "-d", database, "-q", "-c", statement]))

    def stop(self) -> None:
        """Stop the server at once, as when it crashes or its machine restarts: every
        connection to it is cut, and nothing can connect until `start`.

        A checkpoint comes first: a server stopped so starts again by replaying everything
        written since its last checkpoint, which after the many tests of a test process on
        this server took seconds (the test is about the connections cut, not the replay)."""
        self.execute("CHECKPOINT")
        pg_ctl = [str(_bin("pg_ctl")), "-D", str(self.folder / "data")]
        _run(_as_postgres([*pg_ctl, "-m", "immediate", "-w", "stop"]))

    def start(self) -> None:
        """Start the server again on its port, with what it had stored."""
        _run(_as_postgres(_start_command(self.folder, self.port, self.settings)))


def _bin(name: str) -> Path:
    """The newest installed PostgreSQL's program `name`."""
    versions = sorted(
        (p for p in DEBIAN_BIN.glob("*/bin") if (p / name).exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1] / name
    found = shutil.which(name)
    if found:
        return Path(found)
    raise PostgresUnavailable(
        f"PostgreSQL's {name} was not found: install Debian's package (apt-get install postgresql)"
    )


def _as_postgres(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise PostgresUnavailable(
            f"{Path(argv[argv.index('--') + 1] if '--' in argv else argv[0]).name} failed "
            f"({done.returncode}): {(done.stderr or done.stdout).strip()[-800:]}"
        )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop_quietly(data: Path) -> None:
    """Stop the server of `data` at once, if it runs: a test's server is thrown away, and one
    that never started, or stopped already, is no error while cleaning up."""
    stop = [str(_bin("pg_ctl")), "-D", str(data), "-m", "immediate", "-w", "stop"]
    subprocess.run(_as_postgres(stop), capture_output=True, check=False)


def _start_command(folder: Path, port: int, settings: tuple[str, ...] = ()) -> list[str]:
    options = (
        f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        "-c max_connections=200 -c shared_buffers=64MB"
    ) + "".join(f" -c {setting}" for setting in settings)
    pg_ctl = [str(_bin("pg_ctl")), "-D", str(folder / "data"), "-o", options]
    return [*pg_ctl, "-l", str(folder / "server.log"), "-w", "-t", "60", "start"]


@contextlib.contextmanager
def postgres_server(settings: tuple[str, ...] = ()) -> Iterator[PostgresServer]:
    """Start a fresh PostgreSQL cluster; stop it afterwards. It has only PostgreSQL's own
    databases: each user creates its own (`create_database`). `settings` are more `name=value`
    settings for the server."""
    folder = Path(tempfile.mkdtemp(prefix="hvbot-pg-"))
    data = folder / "data"
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        _run(
            _as_postgres(
                [
                    str(_bin("initdb")),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--locale=C",
                    "--no-sync",
                ]
            )
        )
        for attempt in range(5):
            port = _free_port()
            try:
                _run(_as_postgres(_start_command(folder, port, settings)))
                break
            except PostgresUnavailable:
                if attempt == 4:
                    log = folder / "server.log"
                    raise PostgresUnavailable(
                        "pg_ctl could not start PostgreSQL: "
                        + (log.read_text()[-800:] if log.exists() else "no server log")
                    ) from None
        try:
            yield PostgresServer(folder, port, settings)
        finally:
            _stop_quietly(data)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def replica_of(primary: PostgresServer) -> Iterator[PostgresServer]:
    """A read-only copy of `primary` kept up to date by streaming replication, on a port of
    its own: what is read from it is no work for the primary beyond sending its changes
    (the load benchmark's players read the bots' games from one). Its databases are the
    primary's, by the same names, as they are created; stopped and removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="hvbot-pg-replica-"))
    data = folder / "data"
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        backup = [str(_bin("pg_basebackup")), "-h", "127.0.0.1", "-p", str(primary.port)]
        # -R: started as a standby that follows the primary; fast checkpoint: at once.
        _run(_as_postgres([*backup, "-U", "postgres", "-D", str(data), "-R", "-c", "fast"]))
        port = _free_port()
        _run(_as_postgres(_start_command(folder, port, ("hot_standby=on",))))
        try:
            yield PostgresServer(folder, port)
        finally:
            _stop_quietly(data)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
