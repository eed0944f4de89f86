"""Process settings that keep the study's numbers the same from one machine to the next.

OpenBLAS chooses its kernels by CPU (AVX-512 ones on recent Intel, AVX2 "Haswell" ones on AMD Zen
and older Intel), and the kernels round differently. word2vec's training (gensim calls BLAS for every
update) is bit-reproducible on one machine but not across those: the same corpus gave other vectors,
and softened BLEU moved in the 4th decimal. Fixing the kernel family on every x86-64 CPU with AVX2
makes the vectors, and everything after them, the same on all such machines.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

BLAS_CORE = "Haswell"  # OpenBLAS's AVX2 kernels: every x86-64 CPU with AVX2 can run them


def blas_settings(cpuinfo: str | None = None, machine: str | None = None) -> dict[str, str]:
    """The environment for jobs: ``OPENBLAS_CORETYPE`` on x86-64 with AVX2 unless already set, else nothing."""
    if "OPENBLAS_CORETYPE" in os.environ or (machine or platform.machine()) not in ("x86_64", "AMD64"):
        return {}
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text() if path.is_file() else ""
    flags = next((line for line in cpuinfo.splitlines() if line.startswith("flags")), "")
    return {"OPENBLAS_CORETYPE": BLAS_CORE} if "avx2" in flags.split() else {}
