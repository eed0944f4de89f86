"""Command-line options that set a value the config also sets take the config schema's range
(workflow/schemas/config.schema.yaml, read by :func:`mtmeta.app.config.schema_range`): one range table, so
``mtmeta evaluate --draws`` refuses what ``bootstrap.draws`` refuses, with the same bound."""

from __future__ import annotations

import argparse


def config_int(*keys: str):
    """An argparse type: an integer within the schema's range of the config key ``keys``."""
    key = ".".join(keys)

    def parse(text: str) -> int:
        from mtmeta.app.config import schema_range

        # ASCII digits only, as every reader's number parser: int() would also take '1_000' and '١٢'
        if not (text.isascii() and text.removeprefix("-").isdigit()):
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer; expected {_bounds(keys)}")
        value = int(text)
        low, high = schema_range(*keys)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is out of range; expected {_bounds(keys)}")
        return value

    parse.__name__ = key  # argparse names the type in some messages
    return parse


def _bounds(keys: tuple[str, ...]) -> str:
    from mtmeta.app.config import schema_range

    low, high = schema_range(*keys)
    if high is None:
        return f"an integer of at least {low:,} (as config's {'.'.join(keys)})"
    return f"an integer from {low:,} to {high:,} (as config's {'.'.join(keys)})"
