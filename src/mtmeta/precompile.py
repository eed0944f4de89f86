"""The study's compiled kernels, compiled once into numba's cache on disk (rule compile_kernels).

numba compiles a kernel when a process first calls it with new argument types and, with
``cache=True``, saves the machine code beside the module's source, so that later processes load it.
On an empty cache (a fresh clone) the two processes of a scoring job
(:func:`mtmeta.metrics.score_tables.write_runs`) call the same kernels at the same moment, and each
compiles them: TER's and METEOR's first run took 15 to 20 s longer than their others, in both
processes. This module compiles every entry point for the argument types the study calls it with (those of
the kernel modules its metrics, its meta-evaluation and Parmesan use), in one process of its own
before any scoring job starts; each job then loads the machine code.

Nothing here changes a number: it is the same compiler on the same types, and the machine code a
job runs is the code it would have compiled itself. A call with types not listed still works, and
compiles as before; the kernels a listed entry point calls (its callees) compile with it.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import time

log = logging.getLogger(__name__)

OMITTED = "omitted"  # an argument left at its default (numba types it by the default's value)

# Entry point (module, function) -> the argument types the study calls it with, in numba's signature
# syntax: int64[::1] is a contiguous 1-d int64 array, float64[:, ::1] a C-ordered 2-d one.
KERNELS: dict[tuple[str, str], tuple[str, ...]] = {
    # n-gram matches (BLEU, chrF, NIST, ...) and scores from statistics
    ("mtmeta.metrics.ngram_kernel", "sorted_keys"): ("int64[::1]", "int64[::1]", "int64", "int64"),
    ("mtmeta.metrics.ngram_kernel", "pair_matches"): ("int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]",
                                                      "int64", "int64"),
    ("mtmeta.metrics.score_kernel", "bleu_scores"): ("float64[:, ::1]", "int64", "int64", "float64", "boolean"),
    ("mtmeta.metrics.score_kernel", "chrf_scores"): ("float64[:, ::1]", "int64", "float64", "boolean"),
    ("mtmeta.metrics.sums_kernel", "weighted_float_sums"): ("float64[:, ::1]", "float64[:, ::1]"),
    ("mtmeta.metrics.nist_kernel", "corpus_stats"): ("int64[:, ::1]", "int64[::1]", "float64[:, ::1]", "int64[::1]",
                                                     "int64[::1]", "int64[::1]", "int64"),
    # TER
    ("mtmeta.metrics.ter_kernel", "corpus_edits"): ("int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]"),
    ("mtmeta.metrics.ter_kernel", "translation_edit_rate"): ("int64[::1]", "int64[::1]"),
    # METEOR: alignment search and paraphrase look-ups
    ("mtmeta.metrics.meteor.kernel", "corpus_stats"): (
        "int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "float64[::1]", "int64[::1]",
        "int64[::1]", "int64[::1]", "int64[::1]", "boolean[::1]", "int64[:, ::1]", "int64[::1]", "int64", OMITTED),
    ("mtmeta.metrics.meteor.paraphrase_kernel", "fill_slots"): ("uint64[::1]", "int64"),
    ("mtmeta.metrics.meteor.paraphrase_kernel", "corpus_entries"): (
        "int64[::1]", "int64[::1]", "int64", "boolean[::1]", "int64[::1]", "int64[::1]", "int64[::1]",
        "uint64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "uint64[::1]", "int64[::1]"),
    ("mtmeta.metrics.meteor.paraphrase_kernel", "corpus_candidates"): (
        "int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "boolean[::1]", "int64[:, ::1]", "int64[::1]",
        "int64", "boolean[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "uint64[::1]", "int64[::1]",
        "int64[::1]", "int64[::1]", "uint64[::1]", "int64[::1]"),
    # hLEPOR, softBLEU, the assignment of word pairs
    ("mtmeta.metrics.lepor_kernel", "corpus_alignment"): ("int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]",
                                                          "int64", OMITTED),
    ("mtmeta.metrics.soft_kernel", "greedy_many"): (
        "float64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "float64", "boolean", "int64[::1]",
        "int64[::1]", "int64[::1]", "int64[::1]", "int64[:, ::1]"),
    ("mtmeta.metrics.soft_kernel", "phrase_credit"): ("int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]",
                                                      "int64[::1]", "int64", "float64", "int64[:, ::1]",
                                                      "float64[:, ::1]"),
    ("mtmeta.metrics.soft_kernel", "unmatched_ids"): ("int64[::1]", "int64", "int64[::1]", "int64[::1]",
                                                      "int64[::1]", "int64"),
    ("mtmeta.metrics.assign_kernel", "greedy_total"): ("float64[:, ::1]",),
    # Parmesan's distributional ranking
    ("mtmeta.parmesan.distributional_kernel", "row_dots"): ("int64[::1]", "int64[::1]", "float64[::1]",
                                                            "int64[::1]", "int64[::1]"),
    ("mtmeta.parmesan.distributional_kernel", "block_sum"): ("float64[::1]", "int64", "int64"),
    # the meta-evaluation's Kendall counts
    ("mtmeta.stats.kendall_counts", "_grouped"): ("float64[::1]", "float64[::1]", "int64[::1]", "float64"),
}


def argument_types(function, arguments: tuple[str, ...]) -> tuple:
    """numba's types of ``arguments`` for the dispatcher ``function``; :data:`OMITTED` becomes the
    type numba gives the parameter's default when a call leaves it out."""
    from numba import types
    from numba.core import sigutils

    parameters = list(inspect.signature(function.py_func).parameters.values())
    if len(arguments) != len(parameters):
        raise ValueError(f"{function.py_func.__qualname__} takes {len(parameters)} arguments, "
                         f"the table gives {len(arguments)}")
    typed = []
    for parameter, argument in zip(parameters, arguments, strict=True):
        if argument == OMITTED:
            if parameter.default is inspect.Parameter.empty:
                raise ValueError(f"{function.py_func.__qualname__}: {parameter.name} has no default to omit")
            typed.append(types.Omitted(parameter.default))
        else:
            typed.extend(sigutils.normalize_signature(f"({argument},)")[0])
    return tuple(typed)


def kernel_modules(code_files) -> list[str]:
    """The modules of :data:`KERNELS` among ``code_files`` (paths under ``src``, as
    :func:`mtmeta.metrics.code_files` gives a metric's), in the table's order."""
    named = {str(path).replace("\\", "/").removesuffix(".py").replace("/", ".") for path in code_files}
    return [module for module in dict.fromkeys(module for module, _ in KERNELS) if module in named]


def compile_kernels(modules=None) -> list[dict]:
    """Compile (or load from the cache) every entry point of :data:`KERNELS` in ``modules`` (default:
    all); one record each, ``kernel`` and ``arguments`` (the time each took is logged: the records are
    the same bytes on every run)."""
    entries = [(key, arguments) for key, arguments in KERNELS.items() if modules is None or key[0] in modules]
    unknown = sorted(set(modules or ()) - {module for module, _ in KERNELS})
    if unknown:
        raise ValueError(f"no compiled kernels listed for modules {unknown} (mtmeta.precompile.KERNELS)")
    records = []
    for number, ((module_name, name), arguments) in enumerate(entries, start=1):
        function = getattr(importlib.import_module(module_name), name)
        start = time.perf_counter()
        function.compile(argument_types(function, arguments))
        seconds = time.perf_counter() - start
        records.append({"kernel": f"{module_name}.{name}", "arguments": list(arguments)})
        log.info("[%d/%d] %s.%s in %.1f s", number, len(entries), module_name, name, seconds)
    return records
