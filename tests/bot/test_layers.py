"""The project's imports point one way, down, as the README's layout says.

Read from the source (every `import`, at any depth, including those inside functions, but not
those under `if TYPE_CHECKING:`, which only name types): no module takes part in an import
cycle, nothing in the bot imports inside a function to dodge one, and each layer imports only
the layers below it. Inside a game's folder (`games/<game>/`) each file's role has its own
layer: rules and AI levels are pure Python, pictures draw without Discord, and only the
presenter and the commands use the bot; the bot reaches a game through its manifest's module
names alone, and each manifest names modules that exist and fit their role.
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

from games import GamePlugin, plugins
from hvbot.messages.presenters.base import Presenter

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "render", "data", "games", "hvbot", "sandbox")
# What each package may import of the others. `games` is the top: each game's folder holds
# its rules and pictures (below the bot) and its presenter and commands (on the bot); the
# roles below say which file may import what.
MAY_IMPORT = {
    "engine": set(),
    "render": {"engine", "data"},
    "data": set(),
    "games": {"engine", "render", "data", "hvbot"},
    "hvbot": {"engine", "render", "data", "games", "sandbox"},
    # The emulated Discord and its page know nothing of the bot: the bot runs against them.
    "sandbox": set(),
}
# The registry of games, which the bot may import; a game's own modules it may not.
REGISTRY = {"games", "games.plugin"}
# What a file of a game's folder may import, by its role (the first name inside the game's
# package: `games.pylons.rules.state` is a "rules" file): packages of the project, and roles
# of its own game. No role may import another game's modules.
ROLES: dict[str, tuple[set[str], set[str]]] = {
    "manifest": ({"games.plugin"}, set()),
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


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def imported(name: str, path: Path, *, type_hints: bool = False) -> Iterator[tuple[str, bool]]:
    """(module imported, whether inside a function) for every import of a module; with
    `type_hints`, those under `if TYPE_CHECKING:` too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(node):
            if (
                isinstance(child, ast.If)
                and "TYPE_CHECKING" in ast.unparse(child.test)
                and not type_hints
            ):
                continue
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, inside
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                yield base, inside
                for alias in child.names:
                    yield f"{base}.{alias.name}", inside
            yield from walk(child, inside)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), False)


@cache
def modules() -> dict[str, Path]:
    return all_modules()


@cache
def edges() -> dict[str, set[tuple[str, bool]]]:
    """Each module's imports of the others (and whether inside a function): read once, when
    a test first asks, by the test process that runs it."""
    known = modules()
    return {
        name: {
            (target, inside)
            for target, inside in imported(name, path)
            # A module's own packages are imported before it by Python itself: not an edge.
            if target in known and not f"{name}.".startswith(f"{target}.")
        }
        for name, path in known.items()
    }


# The same, counting the imports that only name types: a module that needs another's types
# while that one needs it at run time is a loop a reader has to untangle all the same.
@cache
def hinted_edges() -> dict[str, set[str]]:
    known = modules()
    return {
        name: {
            target
            for target, _ in imported(name, path, type_hints=True)
            if target in known and not f"{name}.".startswith(f"{target}.")
        }
        for name, path in known.items()
    }


def cycles(graph: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    if graph is None:
        graph = {name: {target for target, _ in edges} for name, edges in edges().items()}
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


def test_the_reader_finds_what_it_reads() -> None:
    """The graph is not empty by mistake: known imports are seen, in and out of functions."""
    assert ("hvbot.messages.buttons", False) in edges()["hvbot.handlers.lobby"]
    assert ("engine.registry", False) in edges()["games"]
    assert ("games.high_voltage.rules.actions", False) in edges()["games.high_voltage.ai.agents"]
    assert any(inside for edges in edges().values() for _, inside in edges), "none in a function"


def test_no_import_cycle() -> None:
    assert cycles() == []


def test_no_cycle_in_the_bot_even_through_type_hints() -> None:
    """Lower modules of the bot are handed what they need (a client, the service, the
    aftermath), never the bot's own class, so none needs a module above it even for a type."""
    bot = {
        name: {t for t in targets if t.startswith("hvbot")}
        for name, targets in hinted_edges().items()
        if name.startswith("hvbot")
    }
    assert cycles(bot) == []


def test_the_hinted_reader_sees_type_hints() -> None:
    """The check above is not empty by mistake: a type-only import is seen by it alone."""
    assert "hvbot.runtime.client" in hinted_edges()["hvbot.cogs.game"]
    assert ("hvbot.runtime.client", False) not in edges()["hvbot.cogs.game"]


def test_the_bot_imports_nothing_of_its_own_inside_a_function() -> None:
    """An import inside a function is how a cycle hides; the bot's modules have none."""
    hidden = sorted(
        (name, target)
        for name, edges in edges().items()
        if name.startswith("hvbot")
        for target, inside in edges
        if inside and target.startswith("hvbot")
    )
    assert hidden == []


@pytest.mark.parametrize("package", PACKAGES)
def test_each_layer_imports_only_the_layers_below(package: str) -> None:
    wrong = sorted(
        (name, target)
        for name, edges in edges().items()
        if name.split(".")[0] == package
        for target, _ in edges
        if target.split(".")[0] != package and target.split(".")[0] not in MAY_IMPORT[package]
    )
    assert wrong == []


def game_of(name: str) -> tuple[str, str] | None:
    """(game package, role) of a module of a game's folder: ("games.pylons", "rules") for
    `games.pylons.rules.state`, ("games.pylons", "manifest") for `games.pylons`; None for the
    registry's own modules."""
    parts = name.split(".")
    if parts[0] != "games" or len(parts) < 2 or name in REGISTRY | {"games.cli", "games.__main__"}:
        return None
    return ".".join(parts[:2]), parts[2] if len(parts) > 2 else "manifest"


@cache
def game_modules() -> dict[str, tuple[str, str]]:
    return {name: found for name in modules() if (found := game_of(name)) is not None}


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
                allowed = role == "manifest" and target == "games.plugin"
            else:
                allowed = target.split(".")[0] in packages
            if not allowed:
                wrong.append((name, target))
    assert sorted(wrong) == []


def libraries(path: Path) -> set[str]:
    """The top-level names of every library or package a module imports (type hints aside)."""
    name = module_name(path)
    return {target.split(".")[0] for target, _ in imported(name, path) if target}


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


def test_the_bot_reaches_a_game_only_through_its_manifest() -> None:
    """The bot imports the registry (`games`), never a game's own modules: it finds them by
    the module names in the manifest, so a game comes and goes with its folder."""
    wrong = sorted(
        (name, target)
        for name, edges in edges().items()
        if name.split(".")[0] == "hvbot"
        for target, _ in edges
        if target.split(".")[0] == "games" and target not in REGISTRY
    )
    assert wrong == []


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
