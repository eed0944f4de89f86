"""Rule compile_kernels: every compiled kernel of the study compiled once into numba's cache on disk,
before the scoring jobs (whose two processes would otherwise compile the same kernels at once)."""

import json

from mtmeta.logsetup import configure
from mtmeta.precompile import compile_kernels


def main(snakemake):
    configure(snakemake.log[0])
    records = compile_kernels(snakemake.params.modules)
    with open(snakemake.output[0], "w", encoding="utf-8") as out:
        json.dump(records, out, indent=1)
        out.write("\n")


main(snakemake)  # noqa: F821
