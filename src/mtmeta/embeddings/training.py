"""Training corpus and word2vec training (see the package docstring)."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from mtmeta.data.corpus import DEFAULT_EXCLUDE, Layout, discover_systems, template_fields
from mtmeta.data.fetch import sha256_file
from mtmeta.data.textio import read_lines
from mtmeta.errors import ConfigError, InputError
from mtmeta.io import atomic_path

log = logging.getLogger(__name__)

LP_DIRECTORY = re.compile(r"[a-z]{2,3}-[a-z]{2,3}\Z")
DEFAULT_PARAMS = {"vector_size": 100, "window": 5, "min_count": 2, "sg": 0, "epochs": 5, "negative": 5,
                  "sample": 1e-3, "alpha": 0.025, "seed": 1}


def available_pairs(root: Path, layout: Layout) -> list[str]:
    """Language pairs with a system-output directory in an extracted WMT test set."""
    marker = "\0"
    parts = layout.system.replace("{lp}", marker).split("/")
    depth = next((k for k, part in enumerate(parts) if marker in part), None)
    if depth is None or parts[depth] != marker:
        raise ConfigError(f"layout.system {layout.system!r}: {{lp}} must be a whole directory name to list pairs")
    parent = root.joinpath(*parts[:depth])
    if not parent.is_dir():
        raise InputError(parent, "system-output directory not found", expected=f"one folder per language pair "
                                                                             f"(layout {layout.system})")
    return sorted(p.name for p in parent.iterdir() if p.is_dir() and LP_DIRECTORY.match(p.name))


def study_text_files(root: Path, layout: Layout, lang: str,
                     exclude: tuple[str, ...] = DEFAULT_EXCLUDE) -> list[tuple[str, Path]]:
    """(kind, path) of every file of the test set in ``lang``: references, sources, system outputs."""
    files: dict[Path, str] = {}
    for lp in available_pairs(root, layout):
        fields = template_fields(lp)
        if fields["trg"] == lang:
            files.setdefault(root / layout.reference.format(**fields), "reference")
            for path in discover_systems(root, layout, lp, exclude).values():
                files.setdefault(path, f"output {lp}")
        if fields["src"] == lang:
            files.setdefault(root / layout.source.format(**fields), "source")
    missing = [path for path in files if not path.is_file()]
    if missing:
        raise InputError(missing[0], "file named by the layout does not exist",
                         expected=f"{lang} text of the test set ({len(missing)} missing)")
    return sorted(((kind, path) for path, kind in files.items()), key=lambda item: str(item[1]))


def write_corpus(parts: Iterable[tuple[str, Iterable[str], Callable[[str], list[str]]]], out: str | Path) -> dict:
    """Tokenise every line of every (label, lines, tokeniser) part into ``out``, one sentence per line.

    Empty lines are skipped (and counted). Returns the corpus statistics, per part and in total.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    summary = {"parts": [], "sentences": 0, "tokens": 0, "empty_lines_skipped": 0}
    with atomic_path(out) as part, open(part, "w", encoding="utf-8", newline="\n") as handle:
        for label, lines, tokenize in parts:
            n_lines = n_tokens = skipped = 0
            for line in lines:
                tokens = tokenize(line)
                if not tokens:
                    skipped += 1
                    continue
                text = " ".join(tokens) + "\n"
                handle.write(text)
                digest.update(text.encode("utf-8"))
                n_lines += 1
                n_tokens += len(tokens)
            summary["parts"].append({"part": label, "sentences": n_lines, "tokens": n_tokens,
                                     "empty_lines_skipped": skipped})
            summary["sentences"] += n_lines
            summary["tokens"] += n_tokens
            summary["empty_lines_skipped"] += skipped
    summary["sha256"] = digest.hexdigest()
    return summary


def corpus_parts(plan: list[dict], lang: str, tokenize: str = "13a", lowercase: bool = False,
                 resources: str | Path = "resources"):
    """The parts of a language's training corpus, following the workflow's plan (in its order):

    - ``wmt``: every file of an extracted WMT test set in ``lang`` (:func:`study_text_files`);
    - ``segments``: a prepared dataset's references (once per segment) and hypotheses; already
      tokenised datasets are split on whitespace only, as they are scored;
    - ``source``: a monolingual text file (or every file of an archive) from a declared source.
    """
    import pandas as pd

    from mtmeta.data.prepare import source_file
    from mtmeta.data.tokenize import tokenizer

    split = tokenizer(tokenize, lowercase)
    whitespace = tokenizer("none", lowercase)
    for step in plan:
        if step["kind"] == "wmt":
            root, _ = source_file(Path(resources), step["source"])
            layout = Layout.from_config(step["layout"])
            for kind, path in study_text_files(root, layout, lang, tuple(step["exclude_files"])):
                yield f"{step['source']}:{path.relative_to(root)} ({kind})", file_lines(path), split
        elif step["kind"] == "segments":
            for path in step["files"]:
                table = pd.read_parquet(path, columns=["seg_id", "hypothesis", "reference"])
                lines = list(table.drop_duplicates("seg_id")["reference"]) + list(table["hypothesis"])
                yield f"{step['dataset']}:{Path(path).parent.name}", lines, whitespace if step["tokenized"] else split
        elif step["kind"] == "source":
            root, _ = source_file(Path(resources), step["source"])
            files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
            for path in files:
                yield f"{step['source']}:{path.name}", file_lines(path), split
        else:
            raise ConfigError(f"unknown corpus part {step['kind']!r}")


def file_lines(path: Path) -> Iterator[str]:
    """Lines of a text file (UTF-8, strict; gzip if the name ends in .gz)."""
    yield from read_lines(path)


def stable_hash(text: str) -> int:
    """gensim seeds each word's initial vector from hash(word + seed); Python's hash() changes
    with PYTHONHASHSEED, this one does not."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


class _Sentences:
    """Re-iterable sentences of a tokenised corpus file (gensim reads it once per epoch)."""

    def __init__(self, path: Path):
        self.path = path

    def __iter__(self):
        with open(self.path, encoding="utf-8") as handle:
            for line in handle:
                yield line.split()


def train(corpus: str | Path, params: dict, out: str | Path) -> dict:
    """Train word2vec on a tokenised corpus and write the vectors (word2vec binary format).

    One worker thread, the configured seed and :func:`stable_hash` make the vectors a function of
    the corpus and the parameters alone. Returns what the training saw and did (not how long it took:
    the summary is a result, the same for the same inputs; the time is in the job's benchmark).
    """
    from gensim.models import Word2Vec

    unknown = set(params) - set(DEFAULT_PARAMS)
    if unknown:
        raise ConfigError(f"unknown word2vec parameters {sorted(unknown)}; known: {sorted(DEFAULT_PARAMS)}")
    settings = {**DEFAULT_PARAMS, **params}
    model = Word2Vec(sentences=_Sentences(Path(corpus)), workers=1, hashfxn=stable_hash, **settings)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(out) as part:
        model.wv.save_word2vec_format(str(part), binary=True)
    return {
        "params": settings,
        "workers": 1,
        "vocabulary": len(model.wv),
        "corpus_tokens": int(model.corpus_total_words),
        "corpus_sentences": int(model.corpus_count),
        "sha256": sha256_file(out),
    }


def import_pretrained(spec: dict, resources: str | Path, out: str | Path) -> dict:
    """Pre-trained vectors from a declared source, re-written in word2vec binary format."""
    from gensim.models import KeyedVectors

    from mtmeta.data.prepare import source_file

    path, manifest = source_file(Path(resources), spec["source"])
    try:
        kv = KeyedVectors.load_word2vec_format(str(path), binary=spec.get("binary", True))
    except (ValueError, UnicodeDecodeError, EOFError) as exc:
        raise InputError(path, f"cannot read pre-trained vectors: {exc}",
                         expected=f"word2vec {'binary' if spec.get('binary', True) else 'text'} format") from None
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(out) as part:
        kv.save_word2vec_format(str(part), binary=True)
    return {"pretrained": spec["source"], "source_sha256": manifest.get("sha256"), "vocabulary": len(kv),
            "vector_size": int(kv.vector_size), "sha256": sha256_file(out)}


def build_vectors(spec: dict, lang: str, model: str, corpus: str | Path, out: str | Path,
                  resources: str | Path = "resources") -> dict:
    """A configured model's vectors for one language: its pre-trained vectors if it declares them
    for ``lang``, else word2vec trained on ``corpus``; returns the summary, with model and language."""
    import time

    pretrained = spec["pretrained"].get(lang)
    start = time.perf_counter()
    if pretrained:
        summary = import_pretrained(pretrained, resources, out)
    else:
        log.info("training word2vec on %s (one worker thread)", corpus)
        summary = train(corpus, spec["params"], out)
    summary.update(model=model, lang=lang)
    log.info("%s %s: vocabulary %d, %s training tokens, %.1f s, sha256 %s", model, lang, summary["vocabulary"],
             summary.get("corpus_tokens", "-"), time.perf_counter() - start, summary["sha256"][:12])
    return summary
