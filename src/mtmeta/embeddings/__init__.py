"""Word embeddings for the embedding-softened metrics: training corpus and word2vec (:mod:`.training`),
vectors (:mod:`.vectors`).

- :func:`.training.study_text_files`: every file of a WMT test set whose text is in a language: its
  references, the sources of the directions out of it, and the system outputs into it, over all
  language pairs the data holds (not only the configured ones).
- :func:`.training.write_corpus`: those files (and any extra monolingual text) tokenised as the metrics
  tokenise for scoring, one sentence per line.
- :func:`.training.train`: gensim word2vec, deterministic for a given config (one worker thread, a fixed
  seed and a hash function that does not depend on ``PYTHONHASHSEED``).
- :class:`.vectors.Vectors`: unit-normalised vectors with a cosine look-up (0 for unknown words) and cached
  k-nearest-neighbour lists; its ``digest`` (sha256 of the vector file) enters metric signatures.
"""
