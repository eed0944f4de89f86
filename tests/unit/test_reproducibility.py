"""The BLAS kernel setting that jobs inherit."""

from mtmeta.reproducibility import BLAS_CORE, blas_settings

AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n"
NO_AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx\n"


def test_haswell_kernels_on_x86_with_avx2(monkeypatch):
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    assert blas_settings(AVX2, "x86_64") == {"OPENBLAS_CORETYPE": BLAS_CORE} == {"OPENBLAS_CORETYPE": "Haswell"}


def test_nothing_without_avx2_on_other_machines_or_when_set(monkeypatch):
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    assert blas_settings(NO_AVX2, "x86_64") == {}
    assert blas_settings(AVX2, "aarch64") == {}
    assert blas_settings("", "x86_64") == {}
    monkeypatch.setenv("OPENBLAS_CORETYPE", "SkylakeX")
    assert blas_settings(AVX2, "x86_64") == {}  # a user's own choice is kept
