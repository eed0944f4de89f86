"""Where the study's config file is, and a quick read of a config file's ``metric_settings``.

The one place that knows the repository's layout: the package's lower layers read no file of the
repository; the application hands them what they need (the metric registry gets the metric
settings, :func:`mtmeta.metrics.resolve`). ``mtmeta score`` resolves its metric ids through the
study's ``metric_settings`` read here, without loading the whole config (schema, catalogue,
pandas), so that it starts fast; a config it loads in full (:func:`mtmeta.app.config.load_config`)
gives its settings instead.
"""

from __future__ import annotations

from pathlib import Path

from mtmeta.errors import ConfigError

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_CONFIG = REPO_ROOT / "config" / "config.yaml"


def read_metric_settings(path: str | Path) -> dict:
    """The ``metric_settings`` key of one config file, as a config mapping the registry takes
    (``{"metric_settings": {...}}``); the entries are checked where they are used
    (:func:`mtmeta.metrics.metric_settings`)."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} not found" if not path.exists() else f"config file {path} is not a file")
    try:
        # libyaml's parser where it is installed (the same values, ten times faster than the Python one)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return {"metric_settings": data.get("metric_settings") or {}}
