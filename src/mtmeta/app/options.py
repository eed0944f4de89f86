"""The command line's argument types, one definition of each, every number with an upper bound:
seeds, counts, decimals printed, probabilities, and the options that set a value the config also
sets, which take the config schema's range (workflow/schemas/config.schema.yaml, read by
:func:`mtmeta.app.config.schema_range`): one range table, so ``mtmeta evaluate --draws`` refuses what
``bootstrap.draws`` refuses, with the same bound."""

from __future__ import annotations

import argparse
import re

MAX_SEED = 2**32 - 1  # numpy's seed range (the config schema's $defs/seed)
# The largest count an option takes (draws, resamples, trials): the config schema's largest bootstrap.draws.
# Memory and time grow with it (a resampling holds draws x systems scores); a larger one is a typo.
MAX_COUNT = 1_000_000
MAX_WIDTH = 16  # decimals printed: a float64 has no more than 17 significant digits
WIDTH_METAVAR = f"{{0..{MAX_WIDTH}}}"

_INTEGER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: int() would also read "1_000" and Arabic-Indic digits


def _integer(text: str) -> int | None:
    return int(text) if _INTEGER.fullmatch(text.strip()) else None


def seed(text: str) -> int:
    """A seed (every command's): an integer from 0 to MAX_SEED."""
    value = _integer(text)
    if value is None or not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed; expected an integer from 0 to {MAX_SEED}")
    return value


def _count(text: str, low: int) -> int:
    value = _integer(text)
    if value is None or value < low:
        kind = "a positive integer" if low == 1 else f"an integer of at least {low}"
        raise argparse.ArgumentTypeError(f"{text!r} is not {kind}; expected an integer from {low} to {MAX_COUNT}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {MAX_COUNT}, the largest count accepted; expected "
                                         f"an integer from {low} to {MAX_COUNT}")
    return value


def positive_int(text: str) -> int:
    """A count (draws, resamples, trials, references): an integer from 1 to MAX_COUNT."""
    return _count(text, 1)


def count_or_zero(text: str) -> int:
    """A count where 0 turns the thing off (``mtmeta tasks --k 0``: no tests): 0 to MAX_COUNT."""
    return _count(text, 0)


def width(text: str) -> int:
    """Decimals printed: an integer from 0 to MAX_WIDTH."""
    value = _integer(text)
    if value is None or not 0 <= value <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of decimals; expected an integer from 0 to "
                                         f"{MAX_WIDTH}")
    return value


def probability(text: str) -> float:
    """A level strictly between 0 and 1 (a confidence)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; expected one between 0 and 1 "
                                         "(exclusive)") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1 (exclusive)")
    return value


def config_int(*keys: str):
    """An integer within the schema's range of the config key ``keys``."""
    key = ".".join(keys)

    def parse(text: str) -> int:
        from mtmeta.app.config import schema_range

        value = _integer(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer; expected {_bounds(keys)}")
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
