"""System outputs, references and sources of one test set and language pair, as one table.

File locations come from a layout of path templates in config, e.g.
``wmt12-data/plain/system-outputs/newstest2012/{lp}/newstest2012.{lp}.{system}``. Placeholders:
``{src}``, ``{trg}``, ``{lp}`` (``src-trg``), ``{pair}`` (the non-English code followed by ``en``,
as WMT14 names its files, e.g. ``csen`` for both cs-en and en-cs) and, in the system template
only, ``{system}``.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mtmeta.data.report import Report
from mtmeta.data.textio import read_lines
from mtmeta.errors import ConfigError, InputError

DEFAULT_EXCLUDE = (".*", "*~", "*.bak", "*.orig")


@dataclass(frozen=True)
class Layout:
    reference: str
    source: str
    system: str

    @classmethod
    def from_config(cls, spec: dict) -> Layout:
        if "{system}" not in spec["system"]:
            raise ConfigError(f"layout.system template {spec['system']!r} must contain {{system}}")
        return cls(reference=spec["reference"], source=spec["source"], system=spec["system"])


# A language pair as mt-metrics-eval names them: SRC-TRG, each a language code of 2 or 3 letters with,
# from WMT25 on, an optional script and region (en-ko_KR, en-sr_Cyrl_RS, cs-de_DE).
LANGUAGE = r"[a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_[A-Z]{2})?"
LANGUAGE_PAIR = f"{LANGUAGE}-{LANGUAGE}"


def split_lp(lp: str) -> tuple[str, str]:
    """The source and target languages of a pair, without a locale's script or region (en-ko_KR: en,
    ko): metrics, tokenisers and lexicons work by language."""
    try:
        src, trg = lp.split("-")
    except ValueError:
        raise ConfigError(f"language pair {lp!r} must look like 'src-trg', e.g. 'en-cs' or 'en-ko_KR'") from None
    return src.split("_")[0], trg.split("_")[0]



def target_language(lp: str) -> str:
    """The language a pair translates into: the one its references, outputs and metrics are in."""
    return split_lp(lp)[1]

def template_fields(lp: str) -> dict[str, str]:
    src, trg = split_lp(lp)
    pair = src + trg if trg == "en" else trg + src
    return {"src": src, "trg": trg, "lp": lp, "pair": pair}


def discover_systems(
    root: Path, layout: Layout, lp: str, exclude: tuple[str, ...] = DEFAULT_EXCLUDE, report: Report | None = None
) -> dict[str, Path]:
    """Map system name -> output file for ``lp``; files that are not system outputs are reported."""
    fields = template_fields(lp)
    pattern = layout.system.replace("{system}", "\0").format(**fields)
    directory, name_pattern = pattern.rsplit("/", 1) if "/" in pattern else ("", pattern)
    if "\0" in directory:
        raise ConfigError(f"layout.system {layout.system!r}: {{system}} must be in the file name, not a directory")
    head, tail = name_pattern.split("\0")
    regex = re.compile(re.escape(head) + "(?P<system>.+)" + re.escape(tail) + r"\Z")
    folder = root / directory
    if not folder.is_dir():
        raise InputError(folder, "system-output directory not found",
                         expected=f"outputs for {lp} (layout {layout.system})")
    systems: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.is_dir():
            if report:
                report.add("not_a_system_file", path.name, 1, "ignored (directory)", str(path))
            continue
        if any(fnmatch.fnmatchcase(path.name, glob) for glob in exclude):
            if report:
                report.add("not_a_system_file", path.name, 1,
                           "excluded (matches exclude_files: hidden, backup or editor file)", str(path))
            continue
        match = regex.match(path.name)
        if not match:
            if report:
                report.add("not_a_system_file", path.name, 1,
                           f"excluded (name does not match {head}<system>{tail})", str(path))
            continue
        systems[match["system"]] = path
    if not systems:
        raise InputError(folder, f"no system outputs for {lp}", expected=f"files named {head}<system>{tail}")
    return systems


def load_segments(
    root: str | Path,
    layout: Layout,
    lp: str,
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE,
    report: Report | None = None,
) -> pd.DataFrame:
    """One row per system x segment: ``system, seg_id (1-based), hypothesis, reference, source``.

    Every system file must have exactly as many lines as the reference, as must the source.
    """
    root = Path(root)
    fields = template_fields(lp)
    ref_path = root / layout.reference.format(**fields)
    src_path = root / layout.source.format(**fields)
    references = read_lines(ref_path)
    sources = read_lines(src_path)
    if not references:
        raise InputError(ref_path, "reference file is empty", expected="one reference segment per line")
    if len(sources) != len(references):
        raise InputError(
            src_path,
            f"source has {len(sources)} lines but reference {ref_path} has {len(references)}",
            expected="the same number of lines in source and reference",
        )
    systems = discover_systems(root, layout, lp, exclude, report)
    frames = []
    n = len(references)
    for name, path in systems.items():
        hyps = read_lines(path)
        if len(hyps) != n:
            raise InputError(
                path,
                f"system output has {len(hyps)} lines but reference {ref_path} has {n}",
                expected="one hypothesis per reference line",
            )
        frames.append(
            pd.DataFrame(
                {
                    "system": name,
                    "seg_id": range(1, n + 1),
                    "hypothesis": hyps,
                    "reference": references,
                    "source": sources,
                }
            )
        )
    table = pd.concat(frames, ignore_index=True)
    table["seg_id"] = table["seg_id"].astype("int32")
    return table
