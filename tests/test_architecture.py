"""The package layout docs/architecture.md describes, checked on the source:
no import cycles (lazy imports inside functions count too), the pure core
(engine, rules, tables) never reaches up into the project, report or command
line layers, and only the command line imports the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hipify_py.rules import RULE_ORDER

PACKAGE = Path(__file__).resolve().parent.parent / "hipify_py"

# the packages that name the architecture, and the few modules at the top
PACKAGES = {"cli", "engine", "rules", "tables", "project", "report", "semantic", "data"}
TOP_MODULES = {"__init__", "__main__", "api", "atomic"}
PURE_CORE = {"engine", "rules", "tables"}
UPPER_LAYERS = {"cli", "project", "report", "semantic", "api"}


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(path: Path, modules: set[str], package: Path = PACKAGE) -> set[str]:
    """The package's modules that ``path`` imports anywhere (top level or in a
    function), except under ``if TYPE_CHECKING``."""
    name = module_name(path, package)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking(node):
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                if f"{origin}.{alias.name}" in modules:
                    found.add(f"{origin}.{alias.name}")
                elif origin in modules:
                    found.add(origin)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(name)
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    files = {module_name(p, package): p for p in package.rglob("*.py")}
    modules = set(files)
    return {name: imports_of(path, modules, package) for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = walk(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = walk(start)
            if cycle:
                return cycle
    return None


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_there_is_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    # a lazy import closes the cycle: it still counts
    (package / "sub" / "b.py").write_text("def f():\n    from ..a import x\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n"
    )
    graph = import_graph(package)
    assert find_cycle(graph) == ["pkg.a", "pkg.sub.b", "pkg.a"]
    assert graph["pkg.c"] == set()  # type-only imports do not count


def test_modules_live_in_the_packages_that_name_the_architecture() -> None:
    flat = {p.stem for p in PACKAGE.glob("*.py")}
    assert flat <= TOP_MODULES, f"modules outside the packages: {sorted(flat - TOP_MODULES)}"
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= PACKAGES, f"unexpected packages: {sorted(folders - PACKAGES)}"


@pytest.mark.parametrize("core", sorted(PURE_CORE))
def test_the_pure_core_does_not_reach_up(core: str) -> None:
    bad = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if layer(module) == core
        for target in targets
        if layer(target) in UPPER_LAYERS
    )
    assert bad == []


def test_only_the_command_line_imports_the_command_line() -> None:
    bad = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if layer(module) not in ("cli", "__main__")
        for target in targets
        if layer(target) == "cli"
    )
    assert bad == []


def documented_modules(doc: Path = PACKAGE.parent / "docs" / "architecture.md") -> set[str]:
    """The modules the package map of docs/architecture.md names, as paths
    relative to hipify_py/ ("engine/parse.py", "api.py")."""
    text = doc.read_text(encoding="utf-8")
    block = text.split("```\nhipify_py/\n", 1)[1].split("```", 1)[0]
    found: set[str] = set()
    package = ""
    for line in block.splitlines():
        if not line.startswith("  ") or line.startswith("     " * 3):
            continue
        if not line.startswith("    "):
            package = line.split()[0] if line.split()[0].endswith("/") else ""
            if not package:
                found.add(line.split()[0])
            continue
        for word in line.split():
            if not word.rstrip(",").endswith(".py"):
                break  # the description begins
            found.add(package + word.rstrip(","))
    return found


def test_the_architecture_page_names_every_module() -> None:
    actual = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    # a package's __init__ is named only where it does something (the rules
    # registry); the rule modules are the registry's (one rule per module)
    actual -= {f"{p}/__init__.py" for p in PACKAGES if p != "rules"}
    actual -= {f"rules/{name}.py" for name in RULE_ORDER}
    documented = documented_modules()
    assert sorted(actual - documented) == [], "modules docs/architecture.md does not name"
    assert sorted(documented - actual) == [], "docs/architecture.md names modules that are gone"


def test_the_console_script_entry_point_is_the_command() -> None:
    """pyproject's ``hipify-py = "hipify_py.cli:main"`` names main(), and
    ``hipify_py.cli.cli`` is the click group, as before the cli package."""
    import click

    import hipify_py.cli
    from hipify_py.cli import app

    assert hipify_py.cli.main is app.main and callable(hipify_py.cli.main)
    assert isinstance(hipify_py.cli.cli, click.Group)
    text = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'hipify-py = "hipify_py.cli:main"' in text
