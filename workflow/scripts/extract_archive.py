"""Rule extract_archive: extract a fetched archive, refusing unsafe members."""

import logging
from pathlib import Path

from mtmeta.data.archive import safe_extract
from mtmeta.data.fetch import read_manifest
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    manifest_path = Path(snakemake.input[0])
    manifest = read_manifest(manifest_path)
    names = safe_extract(manifest_path.parent / manifest["file"], snakemake.output[0], manifest.get("extract_prefix"),
                         manifest.get("extract_members"))
    logging.getLogger("mtmeta").info("extracted %d files from %s", len(names), manifest["file"])


main(snakemake)  # noqa: F821
