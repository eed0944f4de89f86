"""Where the study's config file is, and a quick read of a config file's ``metric_settings``.

The one place that knows the repository's layout: the package's lower layers read no file of the
repository; the application hands them what they need (the metric registry gets the metric
settings, :func:`mtmeta.metrics.resolve`). ``mtmeta score`` resolves its metric ids through the
study's ``metric_settings`` read here, without loading the whole config (schema, catalogue,
pandas), so that it starts fast; a config it loads in full (:func:`mtmeta.app.config.load_config`)
gives its settings instead. The ids it read are kept as JSON in the user's cache directory, named
by the SHA-256 digest of the file's bytes: a file read before is not parsed again, which spares
``mtmeta score`` the import of the YAML parser (about a tenth of its start on a 3-line file).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from mtmeta.errors import ConfigError, OutputError
from mtmeta.io import write_text

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_CONFIG = REPO_ROOT / "config" / "config.yaml"


def read_metric_settings(path: str | Path) -> dict:
    """The ``metric_settings`` key of one config file, as a config mapping the registry takes
    (``{"metric_settings": {...}}``); the entries are checked where they are used
    (:func:`mtmeta.metrics.metric_settings`)."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} not found" if not path.exists() else f"config file {path} is not a file")
    content = path.read_bytes()
    cache = settings_cache_path(content)
    settings = _read_cached(cache)
    if settings is None:
        settings = _parse_metric_settings(path, content)
        _write_cached(cache, settings)
    return {"metric_settings": settings}


def settings_cache_path(content: bytes) -> Path:
    """Where the ``metric_settings`` of a config file with these bytes are kept once read:
    ``$XDG_CACHE_HOME/mtmeta/metric_settings/`` (``~/.cache`` by default)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "mtmeta" / "metric_settings" / f"{hashlib.sha256(content).hexdigest()}.json"


def _parse_metric_settings(path: Path, content: bytes):
    import yaml

    try:
        # libyaml's parser where it is installed (the same values, ten times faster than the Python one)
        data = yaml.load(content.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data.get("metric_settings") or {}


def _read_cached(cache: Path):
    """The cached settings, or None where there are none (or the file is not what
    :func:`_write_cached` writes: then the config is parsed again)."""
    try:
        return json.loads(cache.read_text(encoding="utf-8"))["metric_settings"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_cached(cache: Path, settings) -> None:
    """Keep the settings where JSON gives them back equal (YAML's integer keys, dates or sets would
    not be: those files are parsed on every run); a cache that cannot be written is left out."""
    try:
        text = json.dumps({"metric_settings": settings})  # in the file's order, as YAML gives them
        if json.loads(text)["metric_settings"] != settings:
            return
        cache.parent.mkdir(parents=True, exist_ok=True)
        # Whole or absent, with other runs beside it; a link planted at the file is refused, never
        # written through (the file is mtmeta's, not one the user named).
        write_text(cache, text, root=cache.parent)
    except (OSError, OutputError, TypeError, ValueError):
        return
