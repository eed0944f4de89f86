"""Typed, range-checked metric parameters.

A metric's parameters are its constructor's keyword arguments: their annotations give the types
(``bool``, ``int``, ``float``, ``str``, ``Sequence[str]``, ``Sequence[float]``, optionally ``| None``),
the class's ``PARAM_RANGES`` the allowed values of each, and its ``PARAM_RULES`` conditions on several
together (:class:`Rule`: chrF needs ``char_order + word_order >= 1``). :func:`check_params` checks a
parameter dict against them before the metric is built (the CLI's ``--set``, config's
``metric_settings``), so a typo, an out-of-range value or an impossible combination is an error naming
the parameters instead of a silently odd score or a traceback from deep inside the metric.

Every number a parameter takes has an upper bound as well as a lower one (a test checks every
registered metric): an n-gram order of 10,000 or a beam of a million would not be a setting but a
hang. The bounds are generous (several times the largest value the literature uses) and shared:
:data:`MAX_NGRAM_ORDER`, :data:`MAX_SEGMENT_WORDS`.
"""

from __future__ import annotations

import difflib
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass

from mtmeta.errors import ConfigError, shown

# Set by the workflow or the API, not by a user's settings: not listed, only passed through.
INTERNAL = ("lang", "resources", "tokenized", "vectors", "embeddings_root")

MAX_NGRAM_ORDER = 20  # BLEU, NIST, softBLEU and chrF's orders (the literature's largest: 6)
MAX_SEGMENT_WORDS = 10_000  # the highest max_words of a metric whose work grows with a segment's square


@dataclass(frozen=True)
class Range:
    """Allowed numbers (``low``/``high`` inclusive unless ``low_open``) or allowed strings (``choices``)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: tuple[str, ...] | None = None

    def allows(self, value) -> bool:
        if self.choices is not None:
            return value in self.choices
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or value <= self.high

    def __str__(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        low = None if self.low is None else f"{'>' if self.low_open else '>='} {_number(self.low)}"
        high = None if self.high is None else f"<= {_number(self.high)}"
        return " and ".join(part for part in (low, high) if part) or "any number"


def _number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True)
class Rule:
    """A condition on several parameters together, on their values after defaults: ``holds(*values)``
    of ``params`` in order; ``expected`` states it for the error message."""

    params: tuple[str, ...]
    holds: Callable[..., bool]
    expected: str

    def problem(self, values: dict, given: dict | None = None) -> str | None:
        """None if the rule holds for ``values``, else what is wrong (naming each parameter, and which
        of them were not in ``given`` and so have their defaults)."""
        if self.holds(*(values[name] for name in self.params)):
            return None
        listed = ", ".join(f"{name}={shown(values[name])}" + ("" if given is None or name in given else " (default)")
                           for name in self.params)
        return f"parameters {listed}: expected {self.expected}"


def check_rules(cls, values: dict, label: str) -> None:
    """A metric's constructor's own check of its ``PARAM_RULES`` (for a metric built directly)."""
    for rule in declared_rules(cls):
        problem = rule.problem(values)
        if problem:
            raise ConfigError(f"{label}: {problem}")


@dataclass(frozen=True)
class Param:
    name: str
    kinds: tuple[str, ...]  # bool, int, float, str, list[str], list[float]; "any" is not checked
    optional: bool
    default: object
    range: Range | None

    def describe(self) -> str:
        kind = " | ".join(self.kinds) + (" | None" if self.optional else "")
        allowed = f", {self.range}" if self.range else ""
        return f"{self.name}: {kind} (default {self.default!r}{allowed})"


_KINDS = {"bool": "bool", "int": "int", "float": "float", "str": "str", "Sequence[str]": "list[str]",
          "list[str]": "list[str]", "Sequence[float]": "list[float]", "list[float]": "list[float]"}


def declared_params(cls) -> dict[str, Param]:
    """The parameters of a metric class, from its constructor (and its bases' for ``**params``)."""
    found: dict[str, Param] = {}
    ranges: dict[str, Range] = {}
    for klass in reversed(cls.__mro__):
        ranges.update(vars(klass).get("PARAM_RANGES", {}))
    for klass in cls.__mro__:
        if "__init__" not in vars(klass):
            continue
        signature = inspect.signature(klass.__init__)
        for name, parameter in signature.parameters.items():
            if name == "self" or parameter.kind in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL):
                continue
            if name not in found:
                parts = [p.strip() for p in str(parameter.annotation).split("|")]
                kinds = tuple(_KINDS.get(p, "any") for p in parts if p != "None") or ("any",)
                found[name] = Param(name, kinds, "None" in parts or parameter.default is None,
                                    parameter.default, ranges.get(name))
        if not any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values()):
            break  # a constructor without **params takes nothing from its bases
    return found


def declared_rules(cls) -> list[Rule]:
    """The class's ``PARAM_RULES`` and its bases'."""
    return [rule for klass in reversed(cls.__mro__) for rule in vars(klass).get("PARAM_RULES", ())]


def check_params(cls, params: dict, where: str | None = None) -> dict:
    """``params`` with each value checked (and 1/0 read as a boolean where one is expected); a
    ``ConfigError`` names the parameter (prefixed by ``where``), what was given and what is allowed."""
    declared = declared_params(cls)
    label = where or getattr(cls, "name", cls.__name__)
    checked = {}
    for key, value in params.items():
        if key not in declared:
            names = [n for n in declared if n not in INTERNAL]
            raise ConfigError(f"{label}: unknown parameter {shown(key)}{did_you_mean(key, names)} "
                              f"(parameters: {', '.join(sorted(names))})")
        checked[key] = _check_value(declared[key], value, label)
    values = {name: param.default for name, param in declared.items()} | checked
    for rule in declared_rules(cls):
        problem = rule.problem(values, checked)
        if problem:
            raise ConfigError(f"{label}: {problem}")
    return checked


def did_you_mean(word: str, known) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) for the known names closest to a misspelt one, else ``""``:
    one rule for parameters, metric names and config ids."""
    close = difflib.get_close_matches(word, list(known), n=3, cutoff=0.5)
    return f"; did you mean {' or '.join(map(repr, close))}?" if close else ""


def _check_value(param: Param, value, label: str):
    if value is None:
        if param.optional:
            return None
        raise ConfigError(f"{label}: parameter {param.name} cannot be null; expected {param.describe()}")
    if "any" in param.kinds:
        return value
    for kind in param.kinds:
        ok, converted = _convert(kind, value)
        if ok:
            if param.range is not None and kind in ("int", "float", "str") and not param.range.allows(converted):
                problem = "is not a known value" if param.range.choices is not None else "is out of range"
                raise ConfigError(f"{label}: parameter {param.name}={shown(value)} {problem}; expected {param.range}")
            if param.range is not None and kind == "list[float]" and not all(map(param.range.allows, converted)):
                raise ConfigError(f"{label}: parameter {param.name}={shown(value)} is out of range; "
                                  f"expected each value {param.range}")
            if param.range is not None and kind == "list[str]" and not all(map(param.range.allows, converted)):
                raise ConfigError(f"{label}: parameter {param.name}={shown(value)}: expected each value {param.range}")
            return converted
    hint = "; a boolean is true or false (or 1 or 0)" if "bool" in param.kinds else ""
    raise ConfigError(f"{label}: parameter {param.name}={shown(value)} has the wrong type; expected "
                      f"{param.describe()}{hint}")


def _convert(kind: str, value) -> tuple[bool, object]:
    if kind == "bool":
        if isinstance(value, bool):
            return True, value
        if isinstance(value, int) and value in (0, 1):
            return True, bool(value)
        return False, None
    if kind == "int":
        return (True, value) if isinstance(value, int) and not isinstance(value, bool) else (False, None)
    if kind == "float":
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return True, float(value) if isinstance(value, float) else value
        return False, None
    if kind == "str":
        return (True, value) if isinstance(value, str) else (False, None)
    if kind in ("list[str]", "list[float]"):
        if isinstance(value, str) or not isinstance(value, list | tuple):
            return False, None  # a bare string would be read as a list of its characters
        element = "str" if kind == "list[str]" else "float"
        converted = [_convert(element, item) for item in value]
        return (True, [c for _, c in converted]) if all(ok for ok, _ in converted) else (False, None)
    return True, value
