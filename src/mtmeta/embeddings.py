"""Word embeddings for the embedding-softened metrics (seed 000): training corpus, word2vec, vectors.

- :func:`study_text_files`: every file of a WMT test set whose text is in a language: its
  references, the sources of the directions out of it, and the system outputs into it, over all
  language pairs the data holds (not only the configured ones).
- :func:`write_corpus`: those files (and any extra monolingual text) tokenised as the metrics
  tokenise for scoring, one sentence per line.
- :func:`train`: gensim word2vec, deterministic for a given config (one worker thread, a fixed
  seed and a hash function that does not depend on ``PYTHONHASHSEED``).
- :class:`Vectors`: unit-normalised vectors with a cosine look-up (0 for unknown words) and cached
  k-nearest-neighbour lists; its ``digest`` (sha256 of the vector file) enters metric signatures.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path

import numpy as np

from mtmeta.data.corpus import DEFAULT_EXCLUDE, Layout, discover_systems, template_fields
from mtmeta.data.fetch import sha256_file
from mtmeta.data.textio import read_lines
from mtmeta.errors import ConfigError, InputError

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
    with open(out, "w", encoding="utf-8", newline="\n") as handle:
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
    from mtmeta.metrics.tokenize import tokenizer

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
    model.wv.save_word2vec_format(str(out), binary=True)
    return {
        "params": settings,
        "workers": 1,
        "vocabulary": len(model.wv),
        "corpus_tokens": int(model.corpus_total_words),
        "corpus_sentences": int(model.corpus_count),
        "sha256": sha256_file(out),
    }


def read_word2vec_binary(path: str | Path) -> tuple[list[str], np.ndarray]:
    """Words and float32 vectors of a binary word2vec file, as gensim's ``load_word2vec_format``
    reads them (header ``count dims``, then each word, a space and its vector; a newline after a
    vector, as the original word2vec tool writes, is allowed), without gensim's per-word Python
    work: one pass over the bytes and a single array."""
    data = Path(path).read_bytes()
    header_end = data.index(b"\n")
    count, dims = (int(x) for x in data[:header_end].split())
    width = 4 * dims
    words, vectors = [], []
    pos = header_end + 1
    for _ in range(count):
        while data[pos : pos + 1] == b"\n":
            pos += 1
        space = data.index(b" ", pos)
        words.append(data[pos:space].decode("utf-8"))
        pos = space + 1 + width
        if pos > len(data):
            raise EOFError(f"the file ends inside the vector of word {len(words)} of {count}")
        vectors.append(data[space + 1 : pos])
    return words, np.frombuffer(b"".join(vectors), dtype="<f4").reshape(count, dims).astype(np.float32)


class Vectors:
    """Unit-normalised word vectors: cosine similarity (0 for unknown words) and nearest neighbours."""

    def __init__(self, words: list[str], matrix: np.ndarray, digest: str = "", name: str = ""):
        if len(words) != len(matrix):
            raise ValueError(f"{len(words)} words but {len(matrix)} vectors")
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self.words = words
        self.index = {w: k for k, w in enumerate(words)}
        self.unit = np.divide(matrix, norms, out=np.zeros_like(matrix, dtype=np.float64), where=norms > 0)
        self.digest = digest
        self.name = name
        self._neighbours: dict[tuple[str, int], dict[str, float]] = {}

    @classmethod
    def load(cls, path: str | Path, binary: bool = True, name: str = "") -> Vectors:
        from gensim.models import KeyedVectors

        path = Path(path)
        if not path.is_file():
            raise InputError(path, "word vectors not found", expected="a word2vec file (train_embeddings writes it)")
        try:
            if binary:
                words, matrix = read_word2vec_binary(path)
            else:
                kv = KeyedVectors.load_word2vec_format(str(path), binary=False)
                words, matrix = list(kv.index_to_key), kv.vectors
        except (ValueError, UnicodeDecodeError, EOFError) as exc:
            raise InputError(path, f"cannot read word vectors: {exc}",
                             expected=f"word2vec {'binary' if binary else 'text'} format") from None
        return cls(words, np.asarray(matrix, dtype=np.float64), sha256_file(path), name)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    def similarity(self, a: str, b: str) -> float:
        i, j = self.index.get(a), self.index.get(b)
        if i is None or j is None:
            return 0.0
        return float(self.unit[i] @ self.unit[j])

    def similarities(self, words_a: list[str], words_b: list[str]) -> np.ndarray:
        """Cosine matrix (len(a) x len(b)); rows or columns of unknown words are 0."""
        return self._rows(words_a) @ self._rows(words_b).T

    def _rows(self, words: list[str]) -> np.ndarray:
        """The words' unit vectors as rows (zeros for unknown words), a C-ordered float64 array."""
        index = self.index
        ids = np.fromiter((index.get(word, -1) for word in words), dtype=np.int64, count=len(words))
        if not len(self.unit):
            return np.zeros((len(words), self.unit.shape[1]))
        out = self.unit[ids]  # a gather: a copy; unknown words (-1) are zeroed next
        out[ids < 0] = 0.0
        return out

    def neighbours(self, word: str, k: int) -> dict[str, float]:
        """The k nearest other words by cosine (ties by vocabulary order); {} for an unknown word."""
        key = (word, k)
        if key not in self._neighbours:
            i = self.index.get(word)
            if i is None or k <= 0:
                self._neighbours[key] = {}
            else:
                self._neighbours[key] = self._top(self.unit @ self.unit[i], i, k)
        return self._neighbours[key]

    def _top(self, scores: np.ndarray, i: int, k: int) -> dict[str, float]:
        scores[i] = -np.inf
        k = min(k, len(scores) - 1)
        # Only the k best need sorting: every word scoring at least the k-th best value,
        # ordered by score, then vocabulary order (the same result as a full stable sort).
        kth = np.partition(scores, len(scores) - k)[len(scores) - k] if k > 0 else np.inf
        candidates = np.flatnonzero(scores >= kth)
        top = candidates[np.lexsort((candidates, -scores[candidates]))][:k]
        return {self.words[j]: float(scores[j]) for j in top}

    def save_neighbours(self, path: str | Path) -> int:
        """Write every neighbour list found so far (JSON, gzip; floats round-trip exactly); their number."""
        import gzip
        import json

        entries = [[word, k, list(found.items())] for (word, k), found in sorted(self._neighbours.items())]
        payload = {"vectors_sha256": self.digest, "neighbours": entries}
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as handle:
            handle.write(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        return len(entries)

    def load_neighbours(self, path: str | Path) -> int:
        """Take neighbour lists from a file :meth:`save_neighbours` wrote for these vectors; their number."""
        import gzip
        import json

        with gzip.open(path, "rt", encoding="utf-8") as handle:
            payload = json.load(handle)
        if payload["vectors_sha256"] != self.digest:
            raise InputError(path, f"neighbours of vectors {payload['vectors_sha256'][:12]}, not of these "
                             f"({self.digest[:12]})", expected="the cache written beside these vectors")
        for word, k, found in payload["neighbours"]:
            self._neighbours[(word, k)] = {neighbour: cosine for neighbour, cosine in found}
        return len(payload["neighbours"])

    def prefetch_neighbours(self, words, k: int, block: int = 512) -> None:
        """:meth:`neighbours` of many words at once: one matrix product per block of words instead
        of one pass over the vocabulary per word (the cosines may differ from the one-word product in
        the last bit; the neighbours are the same but for exact ties at that precision)."""
        if k <= 0:
            return
        todo = [w for w in dict.fromkeys(words) if (w, k) not in self._neighbours]
        for word in todo:
            if word not in self.index:
                self._neighbours[(word, k)] = {}
        known = [w for w in todo if w in self.index]
        for start in range(0, len(known), block):
            chunk = known[start : start + block]
            rows = np.array([self.index[w] for w in chunk])
            scores = self.unit[rows] @ self.unit.T
            for word, i, row in zip(chunk, rows, scores, strict=True):
                self._neighbours[(word, k)] = self._top(row, i, k)


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
    kv.save_word2vec_format(str(out), binary=True)
    return {"pretrained": spec["source"], "source_sha256": manifest.get("sha256"), "vocabulary": len(kv),
            "vector_size": int(kv.vector_size), "sha256": sha256_file(out)}


def neighbour_table(path: str | Path, probes: list[str], k: int = 10):
    """The k nearest neighbours of each probe word (a sanity check of the vectors)."""
    import pandas as pd

    vectors = Vectors.load(path)
    rows = []
    for probe in probes:
        if probe not in vectors:
            rows.append({"probe": probe, "rank": 0, "neighbour": "(not in vocabulary)", "cosine": float("nan")})
            continue
        for rank, (word, cosine) in enumerate(vectors.neighbours(probe, k).items(), start=1):
            rows.append({"probe": probe, "rank": rank, "neighbour": word, "cosine": cosine})
    return pd.DataFrame(rows, columns=["probe", "rank", "neighbour", "cosine"])


@cache
def load_vectors(path: str, binary: bool = True) -> Vectors:
    """Vectors by path, loaded once per process (every system of a test set shares them)."""
    return Vectors.load(path, binary, name=Path(path).parent.parent.name)
