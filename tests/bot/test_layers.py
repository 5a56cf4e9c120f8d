"""The project's imports point one way, down, as the README's layout says.

Read from the source of every package of the repository (engine, render, data, games and each
game, hvbot and each of its parts, sandbox and its parts, the benchmarks, and the entry
scripts beside them): every `import`, at any depth, those inside functions and those under
`if TYPE_CHECKING:` included. A module that needs another's types while that one needs it at
run time is a loop a reader has to untangle all the same, and an import inside a function is
how a loop hides.

- No module takes part in an import cycle, at run time or counting type-only imports.
- The top-level packages sit on floors, and each imports only floors below its own: the engine
  and the shared data at the bottom, the pictures, the bot, the games; the sandbox imports
  nothing of the project; only the entry scripts (`sandbox_bot.py`, then `bot.py`) and the
  benchmarks import both the bot and the sandbox, and nothing else imports them.
- The bot's parts (`hvbot.<part>`) sit on floors written down here, read from the code once:
  an import against them fails until the order below is changed on purpose.
- The bot never imports a game: it meets one only through what is registered
  (`hvbot.plugins`). A game imports only the bot's game-facing modules
  (`hvbot.plugins.GAME_FACING`), and inside its folder each file's role has its own floor:
  rules and AI levels are pure Python, pictures draw without Discord, and only the presenter
  and the commands use the bot; each manifest names modules that exist and fit their role.
"""

from __future__ import annotations

import ast
import importlib
import importlib.resources
import importlib.util
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from hvbot.messages.presenters.base import Presenter
from hvbot.plugins import GAME_FACING, GamePlugin, plugins

ROOT = Path(__file__).resolve().parents[2]
# The tests' own game, held to the same rules as the games of the repository.
TESTS_GAME = ROOT / "tests" / "support" / "tictactoe"
PACKAGES = ("engine", "render", "data", "games", "hvbot", "sandbox", "bench")
# The scripts beside the packages that start things: they may import anything, nothing them.
ENTRIES = ("bot", "sandbox_bot")
# The top-level packages, bottom floor first: each imports only packages on floors below its
# own. The sandbox (an emulated Discord and a page) knows nothing of the bot, which runs
# against it unchanged: `sandbox_bot.py` puts the two together, for `bot.py --sandbox`. The
# benchmarks, like `bot.py`, stand above everything.
FLOORS: tuple[set[str], ...] = (
    {"engine", "data", "sandbox"},
    {"render"},
    {"hvbot"},
    {"games"},
    {"sandbox_bot"},
    {"bench", "bot"},
)
# The bot's parts, bottom floor first: each imports only parts on floors below its own. Its
# low-level parts and the registry of games use no other part; the store keeps the SQL, the
# services the rules of the bot, the messages what is posted, the aftermath what follows a
# change, the handlers what a click or a command does; the client starts it all; the cogs (the
# commands) sit on top and name the client's class in type hints only.
BOT_FLOORS: tuple[set[str], ...] = (
    {"hvbot.infra", "hvbot.plugins"},
    {"hvbot.database"},
    {"hvbot.store"},
    {"hvbot.services"},
    {"hvbot.messages"},
    {"hvbot.web"},
    {"hvbot.aftermath"},
    {"hvbot.handlers"},
    {"hvbot.runtime"},
    {"hvbot.cogs"},
)
# The sandbox's parts: the page is a client of the emulated Discord.
SANDBOX_FLOORS: tuple[set[str], ...] = ({"sandbox.emulator"}, {"sandbox.web"})
# The modules of `games` that are not a game: the registry of the built-in games and the
# command line, which reaches a game's modules by the names in its manifest.
REGISTRY = {"games", "games.cli", "games.__main__"}
# What a file of a game's folder may import, by its role (the first name inside the game's
# package: `games.pylons.rules.state` is a "rules" file): packages of the project, and roles
# of its own game. No role may import another game's modules.
ROLES: dict[str, tuple[set[str], set[str]]] = {
    "manifest": ({"hvbot"}, set()),
    "rules": ({"engine", "data"}, {"rules"}),
    "ai": ({"engine", "data"}, {"rules", "ai"}),
    "pictures": ({"engine", "data", "render"}, {"rules", "pictures"}),
    "presenter": ({"engine", "data", "render", "hvbot"}, {"rules", "ai", "pictures"}),
    "commands": (
        {"engine", "data", "render", "hvbot"},
        {"rules", "ai", "pictures", "presenter"},
    ),
}
# Libraries a role must not import: rules and AI levels are pure Python, pictures need Pillow
# but never Discord.
FORBIDDEN = {
    "manifest": {"discord", "PIL"},
    "rules": {"discord", "PIL"},
    "ai": {"discord", "PIL"},
    "pictures": {"discord"},
    "presenter": set(),
    "commands": set(),
}
# The role each field of a manifest must name.
FIELD_ROLES = {"rules": "rules", "ai": "ai", "presenter": "presenter", "commands": "commands"}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    found = {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    return found | {entry: ROOT / f"{entry}.py" for entry in ENTRIES}


def imported(name: str, path: Path, *, type_hints: bool = True) -> Iterator[tuple[str, bool]]:
    """(module imported, whether inside a function) for every import of a module; without
    `type_hints`, leaving out those under `if TYPE_CHECKING:` (which never run)."""
    for target, inside, type_only in imports_of(name, path):
        if type_hints or not type_only:
            yield target, inside


@cache
def imports_of(name: str, path: Path) -> tuple[tuple[str, bool, bool], ...]:
    """(module imported, whether inside a function, whether under `if TYPE_CHECKING:`) for
    every import of a module: parsed once per test process, since the graphs and the checks
    of libraries all read the same files, and parsing them is most of this file's time."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def walk(node: ast.AST, in_function: bool, type_only: bool) -> Iterator[tuple[str, bool, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr | ast.arguments):
                continue  # an import is a statement: none sits in an expression (most nodes)
            only = type_only or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            )
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, inside, only
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                yield base, inside, only
                for alias in child.names:
                    yield f"{base}.{alias.name}", inside, only
            yield from walk(child, inside, only)

    return tuple(walk(ast.parse(path.read_text(encoding="utf-8")), False, False))


@cache
def modules() -> dict[str, Path]:
    return all_modules()


def graph_of(found: dict[str, Path], *, type_hints: bool) -> dict[str, set[tuple[str, bool]]]:
    return {
        name: {
            (target, inside)
            for target, inside in imported(name, path, type_hints=type_hints)
            # A module's own packages are imported before it by Python itself: not an edge.
            if target in found and not f"{name}.".startswith(f"{target}.")
        }
        for name, path in found.items()
    }


@cache
def edges() -> dict[str, set[tuple[str, bool]]]:
    """Each module's imports of the others (and whether inside a function), type-only ones
    included: read once, when a test first asks, by the test process that runs it."""
    return graph_of(modules(), type_hints=True)


@cache
def run_time_edges() -> dict[str, set[tuple[str, bool]]]:
    """The same, without the imports that only name types."""
    return graph_of(modules(), type_hints=False)


def targets(graph: dict[str, set[tuple[str, bool]]]) -> dict[str, set[str]]:
    return {name: {target for target, _ in found} for name, found in graph.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def area(name: str) -> str:
    """The part of the repository a module belongs to, as the cycle checks report them: each
    game, each part of the bot and of the sandbox, each other package, each entry script."""
    parts = name.split(".")
    if parts[0] == "games" and name not in REGISTRY:
        return ".".join(parts[:2])
    if parts[0] in ("hvbot", "sandbox") and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


AREAS = sorted({area(name) for name in all_modules()})


def test_the_reader_finds_what_it_reads() -> None:
    """The graph is not empty by mistake: known imports are seen, in and out of functions,
    and of every package; a type-only import is seen by the full graph alone."""
    assert ("hvbot.messages.buttons", False) in edges()["hvbot.handlers.lobby"]
    assert ("engine.registry", False) in edges()["games"]
    assert ("games.high_voltage.rules.actions", False) in edges()["games.high_voltage.ai.agents"]
    assert ("sandbox.emulator", False) in edges()["sandbox_bot"]
    assert any(inside for found in edges().values() for _, inside in found), "none in a function"
    assert ("hvbot.runtime.client", False) in edges()["hvbot.cogs.game"]
    assert ("hvbot.runtime.client", False) not in run_time_edges()["hvbot.cogs.game"]
    assert {name.split(".")[0] for name in modules()} == {*PACKAGES, *ENTRIES}
    assert {"hvbot.infra", "hvbot.plugins", "sandbox.web", "games.pylons"} <= set(AREAS)


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_at_run_time() -> None:
    assert cycles(targets(run_time_edges())) == []


@pytest.mark.parametrize("part", AREAS)
def test_no_import_cycle_even_through_type_hints(part: str) -> None:
    """Lower modules are handed what they need (a client, the service, a state), never the
    class of a module above them, so none needs a module above it even for a type."""
    found = [group for group in cycles(targets(edges())) if part in {area(m) for m in group}]
    assert found == []


def test_the_bot_imports_nothing_of_its_own_inside_a_function() -> None:
    """An import inside a function is how a cycle hides; the bot's modules have none."""
    hidden = sorted(
        (name, target)
        for name, found in edges().items()
        if name.startswith("hvbot")
        for target, inside in found
        if inside and target.startswith("hvbot")
    )
    assert hidden == []


def floor_of(name: str, floors: tuple[set[str], ...]) -> int | None:
    """The floor of the first of `floors` holding the module or one of its packages."""
    for number, floor in enumerate(floors):
        if any(name == part or name.startswith(f"{part}.") for part in floor):
            return number
    return None


def against(floors: tuple[set[str], ...]) -> list[tuple[str, str]]:
    """The imports from one part of `floors` to another on the same floor or above."""
    wrong = []
    for name, found in edges().items():
        mine = floor_of(name, floors)
        if mine is None:
            continue
        for target, _ in found:
            theirs = floor_of(target, floors)
            if theirs is not None and theirs >= mine and area(name) != area(target):
                wrong.append((name, target))
    return sorted(wrong)


def test_every_package_and_part_has_a_floor() -> None:
    tops = {name.split(".")[0] for name in modules()}
    assert {top for top in tops if floor_of(top, FLOORS) is None} == set()
    bot = {area(name) for name in modules() if name.startswith("hvbot.")}
    assert bot == set().union(*BOT_FLOORS)
    sandbox = {area(name) for name in modules() if name.startswith("sandbox.")}
    assert sandbox == set().union(*SANDBOX_FLOORS)


def test_each_package_imports_only_the_floors_below() -> None:
    """Same floor, different package: the engine, the data and the sandbox import none of each
    other; then the pictures, the bot, the games, and at the top the scripts that start them."""
    floor = {top: number for number, tops in enumerate(FLOORS) for top in tops}
    wrong = sorted(
        (name, target)
        for name, found in edges().items()
        for target, _ in found
        if name.split(".")[0] != target.split(".")[0]
        and floor[target.split(".")[0]] >= floor[name.split(".")[0]]
    )
    assert wrong == []


def test_each_part_of_the_bot_imports_only_the_floors_below() -> None:
    """`hvbot.infra` and `hvbot.plugins` use no other part of the bot; then the database, the
    store, the services, the messages, the aftermath, the handlers, the client, the cogs."""
    assert against(BOT_FLOORS) == []


def test_the_bots_own_package_imports_none_of_its_parts() -> None:
    assert {target for target, _ in edges()["hvbot"]} == set()


def test_each_part_of_the_sandbox_imports_only_the_floors_below() -> None:
    assert against(SANDBOX_FLOORS) == []


def test_the_order_is_checked_against_a_real_import() -> None:
    """The floor checks are not empty by mistake: an import the other way is reported."""
    assert floor_of("hvbot.infra.workers", BOT_FLOORS) == 0
    assert floor_of("hvbot.cogs.game", BOT_FLOORS) == len(BOT_FLOORS) - 1
    upside_down = against(tuple(reversed(BOT_FLOORS)))
    assert any(
        name.startswith("hvbot.store.") and target.startswith("hvbot.database")
        for name, target in upside_down
    )


def test_nothing_imports_the_scripts_that_start_things() -> None:
    """Only `bot.py` imports `sandbox_bot.py`, to hand `--sandbox` over; nothing imports
    `bot.py` or a benchmark (the benchmarks' own helpers aside)."""
    wrong = sorted(
        (name, target)
        for name, found in edges().items()
        for target, _ in found
        if target.split(".")[0] in {"bench", *ENTRIES}
        and name.split(".")[0] != "bench"
        and (name, target) != ("bot", "sandbox_bot")
    )
    assert wrong == []


def test_the_bot_never_imports_a_game() -> None:
    """The bot meets a game only through what is registered (`hvbot.plugins`), by the module
    names of its manifest: a game comes and goes with its folder."""
    wrong = sorted(
        (name, target)
        for name, found in edges().items()
        if name.split(".")[0] == "hvbot"
        for target, _ in found
        if target.split(".")[0] == "games"
    )
    assert wrong == []


def test_nothing_outside_the_services_reaches_the_store() -> None:
    """The store is the services' (`GameService.repo`): the handlers, cogs, aftermath,
    messages and client go through a service method, so a feature's rules have one home."""
    reached = sorted(
        f"{name}:{node.lineno}"
        for name, path in modules().items()
        if name.startswith("hvbot.") and not name.startswith(("hvbot.services", "hvbot.store"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "repo"
    )
    assert reached == []


def game_of(name: str) -> tuple[str, str] | None:
    """(game package, role) of a module of a game's folder: ("games.pylons", "rules") for
    `games.pylons.rules.state`, ("games.pylons", "manifest") for `games.pylons`; None for the
    registry's own modules."""
    parts = name.split(".")
    if parts[0] != "games" or len(parts) < 2 or name in REGISTRY:
        return None
    return ".".join(parts[:2]), parts[2] if len(parts) > 2 else "manifest"


@cache
def game_modules() -> dict[str, tuple[str, str]]:
    return {name: found for name in modules() if (found := game_of(name)) is not None}


@cache
def tictactoe_edges() -> dict[str, set[tuple[str, bool]]]:
    """The imports of the tests' own game (`tests/support/tictactoe`) of the project."""
    root = TESTS_GAME.parent
    known = modules()
    return {
        module_name(path, root): {
            (target, inside)
            for target, inside in imported(module_name(path, root), path)
            if target in known
        }
        for path in sorted(TESTS_GAME.rglob("*.py"))
    }


def game_facing(target: str) -> bool:
    """A module of the bot's game-facing part, or a package on the way to one."""
    return any(target == module or module.startswith(f"{target}.") for module in GAME_FACING)


def test_a_game_imports_only_the_bots_game_facing_modules() -> None:
    """Every game, the tests' own too: the part of the bot a game may use is the short list
    `hvbot.plugins` documents, so the rest of the bot can change without touching a game."""
    found = {name: edges()[name] for name in game_modules()} | tictactoe_edges()
    wrong = sorted(
        (name, target)
        for name, imports in found.items()
        for target, _ in imports
        if target.split(".")[0] == "hvbot" and not game_facing(target)
    )
    assert wrong == []
    assert "hvbot.plugins" in {t for t, _ in tictactoe_edges()["tictactoe"]}, "not read?"
    assert all(module in modules() for module in GAME_FACING)


def test_the_registry_imports_the_games_manifests_only() -> None:
    """`games` registers the built-in games by their manifests; their parts are imported by
    name when registered (rules, AI levels, texts) or when the bot asks (presenter, commands)."""
    wrong = sorted(
        (name, target)
        for name in REGISTRY
        for target, _ in edges()[name]
        if (found := game_of(target)) is not None and found[1] != "manifest"
    )
    assert wrong == []


def test_every_file_of_a_game_has_a_role() -> None:
    """A game's folder holds its manifest, rules, AI levels, pictures, presenter and commands
    (and data files): a module of another kind would have no layer."""
    unknown = sorted(name for name, (_, role) in game_modules().items() if role not in ROLES)
    assert unknown == []
    assert {role for _, role in game_modules().values()} == set(ROLES)


@pytest.mark.parametrize("role", ROLES)
def test_each_file_of_a_game_imports_what_its_role_allows(role: str) -> None:
    packages, own_roles = ROLES[role]
    wrong = []
    for name, (game, its_role) in game_modules().items():
        if its_role != role:
            continue
        for target, _ in edges()[name]:
            mine = game_of(target)
            if mine is not None and mine[0] == game:
                allowed = mine[1] in own_roles | {role}
            elif mine is not None:
                allowed = False  # another game's module
            elif target in REGISTRY:
                allowed = False  # the registry is above every game
            elif role == "manifest":
                allowed = target == "hvbot.plugins"
            else:
                allowed = target.split(".")[0] in packages
            if not allowed:
                wrong.append((name, target))
    assert sorted(wrong) == []


def libraries(path: Path) -> set[str]:
    """The top-level names of every library or package a module imports at run time."""
    name = module_name(path)
    return {target.split(".")[0] for target, _ in imported(name, path, type_hints=False) if target}


@pytest.mark.parametrize("role", [role for role in FORBIDDEN if FORBIDDEN[role]])
def test_pure_roles_import_no_discord_or_pillow(role: str) -> None:
    wrong = sorted(
        (name, library)
        for name, (_, its_role) in game_modules().items()
        if its_role == role
        for library in libraries(modules()[name]) & FORBIDDEN[role]
    )
    assert wrong == []


def test_the_engine_and_the_pictures_import_no_discord() -> None:
    wrong = sorted(
        (name, library)
        for name, path in modules().items()
        if name.split(".")[0] in ("engine", "render", "data")
        for library in libraries(path)
        & ({"discord"} | ({"PIL"} if name.startswith("engine") else set()))
    )
    assert wrong == []


def test_the_registry_of_games_imports_no_discord() -> None:
    """The command line, the benchmarks and a game's manifest use `hvbot.plugins` without
    discord.py: the bot's Discord parts are imported by the bot alone."""
    assert libraries(modules()["hvbot.plugins"]) & {"discord", "PIL"} == set()
    assert {target for target, _ in edges()["hvbot.plugins"]} <= {
        name for name in modules() if name.split(".")[0] in ("engine", "data")
    }


def role_of(plugin: GamePlugin, module: str) -> str:
    """The role of a module a manifest names: the first name after the game's package (the
    package all its parts share)."""
    parts = [
        name.split(".")
        for name in (plugin.rules, plugin.ai, plugin.presenter.partition(":")[0], plugin.commands)
    ]
    shared = 0
    while all(len(each) > shared and each[shared] == parts[0][shared] for each in parts):
        shared += 1
    inside = module.split(".")[shared:]
    return inside[0] if inside else "manifest"


@pytest.mark.parametrize("plugin", plugins(), ids=lambda plugin: plugin.name)
def test_every_manifest_names_modules_that_exist_in_their_role(plugin: GamePlugin) -> None:
    for field, role in FIELD_ROLES.items():
        module = getattr(plugin, field).partition(":")[0]
        assert importlib.util.find_spec(module) is not None, f"{plugin.name}.{field}: {module}?"
        assert role_of(plugin, module) == role, f"{plugin.name}.{field} names {module}"
    presenter = plugin.presenter_class()
    assert isinstance(presenter, type) and issubclass(presenter, Presenter), plugin.presenter
    assert plugin.load_rules().name == plugin.name
    commands = importlib.import_module(plugin.commands)
    assert callable(getattr(commands, "setup", None)), f"{plugin.commands} has no setup(bot)"
    texts = importlib.resources.files(plugin.texts)
    assert texts.joinpath("locales", "en.toml").is_file(), f"{plugin.texts} has no texts"
    assert texts.joinpath("rules.md").is_file(), f"{plugin.texts} has no rules summary"
