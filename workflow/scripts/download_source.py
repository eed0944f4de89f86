"""Rule download_source: copy a source from the mirror or download it from upstream, then verify."""

from pathlib import Path

from mtmeta.data.fetch import FetchPlan, fetch
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    plan = FetchPlan(**snakemake.params.plan)
    fetch(plan, Path(snakemake.output[0]).parent)


main(snakemake)  # noqa: F821
