"""Process settings that keep the study's numbers the same from one machine to the next.

OpenBLAS chooses its kernels by CPU (AVX-512 ones on recent Intel, AVX2 "Haswell" ones on AMD Zen
and older Intel), and the kernels round differently. word2vec's training (gensim calls BLAS for every
update) is bit-reproducible on one machine but not across those: the same corpus gave other vectors,
and softened BLEU moved in the 4th decimal. Fixing the kernel family on every x86-64 CPU with AVX2
makes the vectors, and everything after them, the same on all such machines.

OpenBLAS also splits a product among as many threads as the machine has cores, and its threaded
products round differently from its one-thread ones (a metric's bootstrap and protocol tables moved
in the 16th digit between one thread and two; two and four agreed). Snakemake gives every job
``OPENBLAS_NUM_THREADS`` = the job's threads (1 here); the same setting for the ``mtmeta`` command
and the tests makes their numbers the jobs' whatever the number of cores.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

BLAS_CORE = "Haswell"  # OpenBLAS's AVX2 kernels: every x86-64 CPU with AVX2 can run them
BLAS_THREADS = "1"  # one BLAS thread per process: the same numbers on any number of cores


def blas_settings(cpuinfo: str | None = None, machine: str | None = None) -> dict[str, str]:
    """The environment for jobs, each variable unless already set: ``OPENBLAS_NUM_THREADS`` 1, and
    ``OPENBLAS_CORETYPE`` on x86-64 with AVX2."""
    settings = {} if "OPENBLAS_NUM_THREADS" in os.environ else {"OPENBLAS_NUM_THREADS": BLAS_THREADS}
    if "OPENBLAS_CORETYPE" in os.environ or (machine or platform.machine()) not in ("x86_64", "AMD64"):
        return settings
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text() if path.is_file() else ""
    flags = next((line for line in cpuinfo.splitlines() if line.startswith("flags")), "")
    return {**settings, "OPENBLAS_CORETYPE": BLAS_CORE} if "avx2" in flags.split() else settings
