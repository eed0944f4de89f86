"""Every sub-package's docstring names each of its modules and sub-packages, so that ``help()`` on a
package (or its __init__.py) says what is in it; docs/architecture.md lists them all in one place."""

import ast
import re
from pathlib import Path

import mtmeta
from mtmeta import metrics

PACKAGE = Path(mtmeta.__file__).parent


def unnamed(init: Path) -> list[str]:
    """The modules and sub-packages beside ``init`` that its docstring does not name."""
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    names = sorted([p.stem for p in init.parent.glob("*.py") if p.stem != "__init__"]
                   + [d.name for d in init.parent.iterdir() if (d / "__init__.py").is_file()])
    return [name for name in names if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", doc)]


def metric_code() -> set[Path]:
    """The files a metric's scoring jobs depend on: editing one, a docstring too, reruns a finished
    study's scoring of that metric (metrics.code_files), so their docstrings are left as they are
    (metrics/meteor/__init__.py names its aligner and scoring; docs/architecture.md the rest)."""
    return {PACKAGE.parent / path for name in metrics.METRICS for path in metrics.code_files(name)}


def test_every_package_docstring_names_its_modules():
    packages = [init for init in sorted(PACKAGE.rglob("__init__.py")) if init.parent != PACKAGE]
    checked = [init for init in packages if init not in metric_code()]
    assert len(packages) >= 10 and len(checked) == len(packages) - 1  # metrics/meteor's
    assert {str(init.parent.relative_to(PACKAGE)): unnamed(init) for init in checked if unnamed(init)} == {}
