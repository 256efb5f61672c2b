"""Layering: engine/ (rules, simulator) never imports pipeline/ (the lake and its SQL), dashboards/
(the app) or postgame/ (the command line); dashboards/ never imports postgame/; and the generic
contract (engine/ruleset.py, engine/registry.py, events/games.py) imports no game: games are
loaded through the registry (engine.registry), by reference.

Every module under engine/ is parsed with `ast` and each import it makes, wherever it is (module
level or inside a function, relative ones resolved, `importlib.import_module("...")` and
`__import__("...")` with a literal name too), is checked. Docstrings and comments that merely
mention pipeline modules are not imports and do not count."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = ("pipeline",)
ABOVE_ENGINE = ("pipeline", "dashboards", "postgame")
GAMES = ("engine.vitorian", "engine.eredan", "events.vitorian", "events.eredan")
GENERIC = ("engine/ruleset.py", "engine/registry.py", "events/games.py", "engine/games.py",
           "engine/narration.py")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, is_package: bool = False
                     ) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in `source`, the code of `module`."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                parent = ".".join(base + ([node.module] if node.module else []))
            else:
                parent = node.module or ""
            found.append((node.lineno, parent))
            found += [(node.lineno, f"{parent}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and _dynamic_import(node):
            arg = node.args[0]
            assert isinstance(arg, ast.Constant)
            found.append((node.lineno, str(arg.value)))
    return found


def _dynamic_import(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name in ("import_module", "__import__") and bool(node.args) and \
        isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)


def forbidden(name: str, tops: tuple[str, ...] = FORBIDDEN) -> bool:
    return any(name == top or name.startswith(top + ".") for top in tops)


def engine_files() -> list[Path]:
    return package_files("engine")


def package_files(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def offenders(files: list[Path], tops: tuple[str, ...]) -> list[str]:
    """file:line: imports X, for every import in `files` of a module under one of `tops`."""
    return [f"{path.relative_to(ROOT)}:{line}: imports {name}"
            for path in files
            for line, name in imported_modules(path.read_text(encoding="utf-8"),
                                               module_name(path), path.name == "__init__.py")
            if forbidden(name, tops)]


def test_engine_imports_nothing_above_it() -> None:
    """engine/ names the pipeline's and the app's layers of a game only by reference."""
    found = offenders(engine_files(), ABOVE_ENGINE)
    assert not found, "engine/ must not import pipeline/, dashboards/ or postgame/:\n" + \
        "\n".join(found)


def test_the_app_does_not_import_the_command_line() -> None:
    """What both need (masking, the words of a step) is engine.narration's."""
    files = package_files("dashboards")
    assert ROOT / "dashboards" / "replaying.py" in files
    found = offenders(files, ("postgame",))
    assert not found, "dashboards/ must not import postgame/:\n" + "\n".join(found)


def test_the_generic_contract_imports_no_game() -> None:
    """No import cycle through the whole engine: games come from the registry, by reference."""
    found = offenders([ROOT / name for name in GENERIC], GAMES)
    assert not found, "the generic contract must not import a game:\n" + "\n".join(found)


def test_no_engine_module_imports_the_pipeline() -> None:
    files = engine_files()
    assert ENGINE / "tournament.py" in files and ENGINE / "charges.py" in files
    offenders = [f"{path.relative_to(ROOT)}:{line}: imports {name}"
                 for path in files
                 for line, name in imported_modules(path.read_text(encoding="utf-8"),
                                                    module_name(path),
                                                    path.name == "__init__.py")
                 if forbidden(name)]
    assert not offenders, "engine/ must not import pipeline/:\n" + "\n".join(offenders)


@pytest.mark.parametrize("source", [
    "import pipeline",
    "import pipeline.charges as ch",
    "from pipeline.charges import next_table",
    "from pipeline import charges",
    "def f():\n    from pipeline.lake import Lake\n",
    "import importlib\nimportlib.import_module('pipeline.charges')",
    "__import__('pipeline')",
])
def test_the_check_sees_every_kind_of_import(source: str) -> None:
    names = [name for _, name in imported_modules(source, "engine.eredan.charges")]
    assert any(forbidden(name) for name in names), names


@pytest.mark.parametrize("source", [
    '"""Wiring, on the lake\'s side:\n\n    from pipeline.charges import GameCards\n"""',
    "# from pipeline.charges import next_table",
    "from engine.charges import next_table",
    "from . import charges",
    "from ..pipeline import charges",  # engine.pipeline: a relative import stays inside engine
    "import pipelines_elsewhere",
    "x = 'pipeline.charges'",
])
def test_mentions_and_lookalikes_are_not_imports(source: str) -> None:
    names = [name for _, name in imported_modules(source, "engine.eredan.charges")]
    assert not any(forbidden(name) for name in names), names
