"""Word vectors: reading word2vec files, cosines and nearest neighbours (see the package docstring)."""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

import numpy as np

from mtmeta.data.fetch import sha256_file
from mtmeta.errors import InputError
from mtmeta.io import atomic_path

log = logging.getLogger(__name__)


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
        path = Path(path)
        if not path.is_file():
            raise InputError(path, "word vectors not found", expected="a word2vec file (train_embeddings writes it)")
        try:
            if binary:
                words, matrix = read_word2vec_binary(path)
            else:  # gensim only here: importing it costs a scoring job about half a second
                from gensim.models import KeyedVectors

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
        with atomic_path(path) as part, open(part, "wb") as raw, \
                gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as handle:
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
        # One buffer for every block's products: a new (block x vocabulary) array per block would be
        # hundreds of MB of fresh pages each time (the same values either way).
        buffer = np.empty((min(block, len(known)), len(self.words)))
        above = np.empty(buffer.shape, dtype=bool)  # _block_top's mask, reused likewise
        for start in range(0, len(known), block):
            chunk = known[start : start + block]
            rows = np.array([self.index[w] for w in chunk])
            scores = np.matmul(self.unit[rows], self.unit.T, out=buffer[: len(chunk)])
            for word, found in zip(chunk, self._block_top(scores, rows, k, above[: len(chunk)]), strict=True):
                self._neighbours[(word, k)] = found

    def _block_top(self, scores: np.ndarray, rows: np.ndarray, k: int,
                   above: np.ndarray | None = None) -> list[dict[str, float]]:
        """:meth:`_top` of every row of a block of products (row r: the word ``rows[r]``), the same
        result with less work: the k-th best of a sample of the columns is a lower bound of the
        row's k-th best, so only the few columns at or above it need a partition, not the
        whole vocabulary (a partition of 86,000 cosines per word was most of find_neighbours).
        ``above``: a boolean array of the block's shape to reuse for the comparison."""
        size = scores.shape[1]
        k = min(k, size - 1)
        if k <= 0 or size <= _TOP_SAMPLE or k > _TOP_SAMPLE // 8:
            return [self._top(row, i, k) for row, i in zip(scores, rows, strict=True)]
        scores[np.arange(len(rows)), rows] = -np.inf
        sample = scores[:, :_TOP_SAMPLE]
        bound = np.partition(sample, _TOP_SAMPLE - k, axis=1)[:, _TOP_SAMPLE - k]
        above = np.greater_equal(scores, bound[:, None], out=above)
        # The positions of the flat mask, then row and column: np.nonzero's pairs in the same
        # (row-major) order, several times faster on a 2-d mask.
        where_row, where_col = np.divmod(np.flatnonzero(above), size)
        ends = np.searchsorted(where_row, np.arange(1, len(rows) + 1))
        out, begin = [], 0
        for r, end in enumerate(ends):
            candidates = where_col[begin:end]
            begin = end
            values = scores[r, candidates]
            kth = np.partition(values, len(values) - k)[len(values) - k]
            keep = values >= kth
            candidates, values = candidates[keep], values[keep]
            order = np.lexsort((candidates, -values))[:k]
            out.append({self.words[j]: float(v) for j, v in zip(candidates[order], values[order], strict=True)})
        return out


# Columns whose k-th best cosine bounds a row's k-th best from below (see Vectors._block_top): with
# k = 3 out of 2,048 columns, a few hundred of 86,000 cosines remain to be partitioned.
_TOP_SAMPLE = 2048


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
