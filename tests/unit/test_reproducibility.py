"""The BLAS settings that jobs inherit: one thread, and the same kernels on every x86-64 CPU with AVX2."""

import os
import subprocess
import sys

from mtmeta.reproducibility import BLAS_CORE, blas_settings

AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n"
NO_AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx\n"


ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1"}


def test_haswell_kernels_on_x86_with_avx2_and_one_thread(monkeypatch):
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert blas_settings(AVX2, "x86_64") == {**ONE_THREAD, "OPENBLAS_CORETYPE": BLAS_CORE}
    assert BLAS_CORE == "Haswell"


def test_one_thread_only_without_avx2_on_other_machines_or_when_set(monkeypatch):
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert blas_settings(NO_AVX2, "x86_64") == ONE_THREAD
    assert blas_settings(AVX2, "aarch64") == ONE_THREAD
    assert blas_settings("", "x86_64") == ONE_THREAD
    monkeypatch.setenv("OPENBLAS_CORETYPE", "SkylakeX")
    assert blas_settings(AVX2, "x86_64") == ONE_THREAD  # a user's own choice is kept
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert blas_settings(AVX2, "x86_64") == {}


def openblas_threads() -> int:
    """The thread count of the OpenBLAS that numpy's wheel bundles, in this process."""
    import ctypes
    import glob

    import numpy

    lib, = glob.glob(os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs", "libscipy_openblas*"))
    return ctypes.CDLL(lib).scipy_openblas_get_num_threads64_()


def test_numpy_in_a_job_runs_one_blas_thread(monkeypatch):
    # What a job inherits (the Snakefile applies blas_settings before any job starts), read back in a
    # new process; without the setting OpenBLAS runs one thread per core.
    for name in ("OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE"):
        monkeypatch.delenv(name, raising=False)
    env = {**os.environ, **blas_settings()}
    probe = (f"import sys; sys.path.insert(0, {os.path.dirname(__file__)!r}); "
             "from test_reproducibility import openblas_threads; print(openblas_threads())")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"


def test_the_tests_run_the_jobs_blas_settings():
    # tests/conftest.py applies them before NumPy loads: a recomputed value equals a job's
    assert openblas_threads() == 1
