"""Word tokenisation shared by the metrics mtmeta implements itself.

The tokenisers are sacrebleu's (selected by the same names: ``13a``, ``intl``, ``none``,
``char``, ``zh`` ...), applied as sacrebleu applies them: optional lowercasing first, then
the tokeniser, then whitespace splitting.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from sacrebleu.metrics.bleu import _TOKENIZERS, _get_tokenizer

from mtmeta.errors import ConfigError

TOKENIZERS = tuple(_TOKENIZERS)


@cache
def tokenizer(name: str = "13a", lowercase: bool = False) -> Callable[[str], list[str]]:
    """A function from a segment to its list of tokens."""
    if name not in _TOKENIZERS:
        raise ConfigError(f"unknown tokenizer {name!r}; known: {', '.join(TOKENIZERS)}")
    split = _get_tokenizer(name)()

    if lowercase:
        return lambda text: split(text.lower().rstrip()).split()
    return lambda text: split(text.rstrip()).split()
