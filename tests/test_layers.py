"""The project's imports point one way, down, as the README's layout says.

Read from the source (every `import`, at any depth, including those inside functions, but not
those under `if TYPE_CHECKING:`, which only name types): no module takes part in an import
cycle, nothing in the bot imports inside a function to dodge one, and each layer imports only
the layers below it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "data", "games", "hvbot", "sandbox")
# What each package may import of the others. The engine's command line is an application on
# top of the engine, so it may find games through their registry.
MAY_IMPORT = {
    "engine": {"data"},
    "render": {"engine", "data"},
    "data": set(),
    "games": {"engine", "data"},
    "hvbot": {"engine", "render", "data", "games", "sandbox"},
    # The emulated Discord and its page know nothing of the bot: the bot runs against them.
    "sandbox": set(),
}
APPLICATIONS = {"engine.cli": {"games"}, "engine.__main__": {"games"}}


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


MODULES = all_modules()
EDGES = {
    name: {
        (target, inside)
        for target, inside in imported(name, path)
        # A module's own packages are imported before it by Python itself: not an edge.
        if target in MODULES and not f"{name}.".startswith(f"{target}.")
    }
    for name, path in MODULES.items()
}


# The same, counting the imports that only name types: a module that needs another's types
# while that one needs it at run time is a loop a reader has to untangle all the same.
HINTED_EDGES = {
    name: {
        target
        for target, _ in imported(name, path, type_hints=True)
        if target in MODULES and not f"{name}.".startswith(f"{target}.")
    }
    for name, path in MODULES.items()
}


def cycles(graph: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    if graph is None:
        graph = {name: {target for target, _ in edges} for name, edges in EDGES.items()}
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
    assert ("hvbot.messages.buttons", False) in EDGES["hvbot.handlers.lobby"]
    assert ("engine.core", False) in EDGES["games"]
    assert any(inside for edges in EDGES.values() for _, inside in edges), "none in a function"


def test_no_import_cycle() -> None:
    assert cycles() == []


def test_no_cycle_in_the_bot_even_through_type_hints() -> None:
    """Lower modules of the bot are handed what they need (a client, the service, the
    aftermath), never the bot's own class, so none needs a module above it even for a type."""
    bot = {
        name: {t for t in targets if t.startswith("hvbot")}
        for name, targets in HINTED_EDGES.items()
        if name.startswith("hvbot")
    }
    assert cycles(bot) == []


def test_the_hinted_reader_sees_type_hints() -> None:
    """The check above is not empty by mistake: a type-only import is seen by it alone."""
    assert "hvbot.runtime.client" in HINTED_EDGES["hvbot.cogs.game"]
    assert ("hvbot.runtime.client", False) not in EDGES["hvbot.cogs.game"]


def test_the_bot_imports_nothing_of_its_own_inside_a_function() -> None:
    """An import inside a function is how a cycle hides; the bot's modules have none."""
    hidden = sorted(
        (name, target)
        for name, edges in EDGES.items()
        if name.startswith("hvbot")
        for target, inside in edges
        if inside and target.startswith("hvbot")
    )
    assert hidden == []


@pytest.mark.parametrize("package", PACKAGES)
def test_each_layer_imports_only_the_layers_below(package: str) -> None:
    wrong = sorted(
        (name, target)
        for name, edges in EDGES.items()
        if name.split(".")[0] == package
        for target, _ in edges
        if target.split(".")[0] != package
        and target.split(".")[0] not in MAY_IMPORT[package] | APPLICATIONS.get(name, set())
    )
    assert wrong == []
