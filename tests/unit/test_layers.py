"""The package's layers (docs/architecture.md): a module imports only from its own room or from
rooms below it. Imports inside functions count too: a lazy import is still a dependency."""

import ast
from pathlib import Path

import mtmeta

PACKAGE = Path(mtmeta.__file__).parent

# Lowest first. A room is a sub-package or a single module; the package root holds only __version__.
LAYERS = [
    ("foundation", {"mtmeta", "mtmeta.errors", "mtmeta.logsetup", "mtmeta.reproducibility", "mtmeta.io",
                    "mtmeta.table_cache"}),
    ("stats", {"mtmeta.stats"}),
    ("data", {"mtmeta.data"}),
    ("lexicons", {"mtmeta.lexicons"}),
    ("embeddings", {"mtmeta.embeddings"}),
    ("metrics", {"mtmeta.metrics"}),
    ("metaeval", {"mtmeta.metaeval"}),
    ("parmesan", {"mtmeta.parmesan"}),
    ("paper", {"mtmeta.paper"}),
    ("application", {"mtmeta.app", "mtmeta.__main__"}),
]
RANK = {room: rank for rank, (_, rooms) in enumerate(LAYERS) for room in rooms}


def room_of(module: str) -> str | None:
    """The longest room name that is the module or a package above it."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in RANK:
            return ".".join(parts[:end])
    return None


def module_name(path: Path) -> str:
    parts = ["mtmeta", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every mtmeta import of a file, ``from X import y`` as ``X.y``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}:{node.lineno}: relative import; the layer check reads absolute ones")
    return [(line, name) for line, name in found if name == "mtmeta" or name.startswith("mtmeta.")]


def violations(files) -> list[str]:
    out = []
    for path in files:
        importer = module_name(path)
        here = room_of(importer)
        for line, name in imported_modules(path):
            there = room_of(name)
            if there is None:
                out.append(f"{path}:{line}: {name} is in no layer")
            elif RANK[there] > RANK[here]:
                out.append(f"{path}:{line}: {importer} ({here}) imports {name} from the higher layer {there}")
    return out


def package_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer():
    assert [str(p) for p in package_files() if room_of(module_name(p)) is None] == []


def test_imports_only_go_down():
    assert violations(package_files()) == []


def test_stats_imports_nothing_else_of_mtmeta():
    """stats stays pure (numbers in, numbers out), as mt-metrics-eval's stats.py."""
    files = sorted((PACKAGE / "stats").glob("*.py"))
    assert files and [(str(p), n) for p in files for _, n in imported_modules(p) if not n.startswith("mtmeta.stats")
                      ] == []


def test_the_check_finds_an_upward_import(tmp_path):
    """The check itself: a metrics module importing the meta-evaluation is reported, a downward
    import is not."""
    room = tmp_path / "mtmeta" / "metrics"
    room.mkdir(parents=True)
    bad = room / "upward.py"
    bad.write_text("def f():\n    from mtmeta.metaeval.sweeps import run_sweep\n"
                   "from mtmeta.data.tokenize import tokenizer\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "mtmeta"
    try:
        found = violations([bad])
    finally:
        PACKAGE = saved
    assert len(found) == 1 and "mtmeta.metaeval.sweeps.run_sweep from the higher layer mtmeta.metaeval" in found[0]
    assert f"{bad}:2:" in found[0]
