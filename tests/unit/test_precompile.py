"""Rule compile_kernels' table (mtmeta.precompile): every entry point exists with the listed number of
arguments, and the table holds the argument types that scoring really calls the kernels with (else a
scoring job would compile them again)."""

import json
import subprocess
import sys

import pytest
from numba import types

from mtmeta.precompile import KERNELS, OMITTED, argument_types

# Scores a few sentences with metrics that need no resources, on their compiled kernels, in a process
# of its own (no other test's calls), and prints every entry point's signatures that the table lacks.
CALLS = """
import json, random
from mtmeta import metrics
from mtmeta.metrics import kernels
from mtmeta.precompile import KERNELS, argument_types
import importlib

kernels.compiled = lambda work, limit: True
rng = random.Random(7)
words = ["the", "a", "dog", "bit", "man", "it", "was", "not", ".", ","]
hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 25))) for _ in range(40)]
refs = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 25))) for _ in range(40)]
for name, params in [("bleu", {}), ("chrf", {}), ("ter", {}), ("nist", {}), ("hlepor", {}),
                     ("meteor", {"lang": "en", "modules": ["exact"], "weights": [1.0], "function_words": "none"})]:
    metric = metrics.get(name, **params)
    stats = metric.stats(hyps, [refs])
    metric.segment_scores(stats), metric.corpus_score(stats)
missing = {}
for (module, name), arguments in KERNELS.items():
    function = getattr(importlib.import_module(module), name)
    listed = argument_types(function, arguments)
    extra = [str(sig) for sig in function.signatures if tuple(sig) != listed]
    if extra:
        missing[f"{module}.{name}"] = extra
print(json.dumps(missing))
"""


@pytest.mark.parametrize(("module", "name"), list(KERNELS))
def test_every_entry_point_resolves_with_its_arguments(module, name):
    import importlib

    function = getattr(importlib.import_module(module), name)
    assert hasattr(function, "compile"), f"{module}.{name} is not a compiled kernel"
    typed = argument_types(function, KERNELS[module, name])
    assert len(typed) == len(KERNELS[module, name])
    for argument, numba_type in zip(KERNELS[module, name], typed, strict=True):
        if argument == OMITTED:
            assert isinstance(numba_type, types.Omitted)
        elif argument.endswith("[::1]"):
            assert isinstance(numba_type, types.Array) and numba_type.layout == "C"


def test_a_wrong_argument_count_is_an_error():
    from mtmeta.metrics.ter_kernel import translation_edit_rate

    with pytest.raises(ValueError, match="takes 2 arguments, the table gives 1"):
        argument_types(translation_edit_rate, ("int64[::1]",))


def test_the_table_holds_the_types_scoring_calls_with():
    run = subprocess.run([sys.executable, "-c", CALLS], capture_output=True, text=True, check=True)
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {}


def test_only_the_modules_of_the_given_code_files_are_compiled():
    from mtmeta import metrics
    from mtmeta.precompile import kernel_modules

    assert kernel_modules(metrics.code_files("ter")) == [
        "mtmeta.metrics.ngram_kernel", "mtmeta.metrics.sums_kernel", "mtmeta.metrics.ter_kernel"]
    assert kernel_modules(["mtmeta/metrics/wordmatch.py"]) == []


def test_an_unlisted_module_is_an_error():
    from mtmeta.precompile import compile_kernels

    with pytest.raises(ValueError, match=r"no compiled kernels listed for modules \['mtmeta.metrics.bleu'\]"):
        compile_kernels(["mtmeta.metrics.bleu"])
