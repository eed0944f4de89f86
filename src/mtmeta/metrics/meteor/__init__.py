"""METEOR: one implementation with switches, from Meteor 1.5 to the seeds' textbook variants.

``mtmeta.metrics.get("meteor", lang="en")`` gives Meteor 1.5's ranking preset for the language;
``preset=`` selects ``rank``, ``li``, ``wmt12`` (Meteor 1.3 as the WMT12 metrics task ran it, for en,
cs, de, es, fr), ``basic``, ``penalty`` or ``textbook``, and any of
``alpha, beta, gamma, delta, weights, modules`` overrides it. Alignment is Meteor 1.5's (see
``aligner``); scores come from sufficient statistics (see ``scoring``), so every parameter but
the module list re-scores cached statistics without re-aligning (:meth:`METEOR.rescore`).

Resources (fetched by the workflow's download rules into ``resources/``):

- function words: Meteor 1.5's lists, source ``function_words_<lang>``;
- stem: NLTK Snowball (simplemma lemmas for Czech);
- synonym: English WordNet (source ``wordnet``), MyThes (``thesaurus_<lang>``) for other languages;
- paraphrase (``paraphrase=``): ``meteor``, Meteor 1.5's own table (English only: source
  ``meteor_paraphrase_en``, the ``paraphrase-en.gz`` distributed with the Meteor 1.5 jar), the
  default for English; ``mythes``, the language's MyThes thesaurus read as a paraphrase table,
  the default for other languages (Meteor's Czech, German, Spanish, French and Russian tables are
  not among the study's inputs: a deviation, recorded in the signature as ``para:mythes-<lang>``);
  or the path of any table in Meteor's format.

Input handling (``tokenize``, ``lowercase``): any of sacrebleu's tokenisers (the default, ``13a``,
lowercased first), or the jar's own (``normalize``): ``tokenize=meteor-norm, lowercase=True`` is
the jar's ``-norm`` (its normaliser, then lowercasing, source ``meteor_jar`` for the non-breaking
prefixes), ``tokenize=whitespace, lowercase=True`` its ``-lower`` and ``tokenize=whitespace,
lowercase=False`` the jar with neither option (words split at ASCII whitespace, case kept). The
signature names the choice (``tok:13a|case:lc``, ``tok:meteor-norm-1.5|case:lc``, ...).

Long segments (``max_words``, default :data:`MAX_WORDS`): Meteor's candidates are every pair of
matching words, so alignment time and memory grow with the square of a segment's length (a
2,000-word line takes about 2 s, an 8,000-word one a minute, a 1 MB line would need tens of GB of
candidates). A hypothesis or reference with more words than ``max_words`` (after tokenisation) is
an error naming the segment, never truncated; the longest real WMT12-14 segment has 171 tokens.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache
from itertools import accumulate, chain, islice
from pathlib import Path
from typing import ClassVar

import numpy as np

from mtmeta import __version__
from mtmeta.data.tokenize import tokenizer
from mtmeta.errors import ConfigError, FetchError
from mtmeta.lexicons.function_words import read_function_words
from mtmeta.lexicons.mythes import MyThes
from mtmeta.lexicons.paraphrases import (
    PARAPHRASE_FILTERS,
    ParaphraseTable,
    filter_paraphrases,
    read_meteor_paraphrases,
    reference_phrases,
)
from mtmeta.lexicons.stemmers import LANGUAGE_NAMES, make_stemmer
from mtmeta.metrics.base import Memo, Metric, check_references
from mtmeta.metrics.limits import check_lengths
from mtmeta.metrics.meteor import indexes, normalize, scoring
from mtmeta.metrics.meteor.aligner import (
    DEFAULT_BEAM,
    Aligner,
    count_chunks,
    exact_matcher,
    java_hash,
    java_hash_exact_matcher,
    paraphrase_matcher,
    stem_matcher,
    synonym_matcher,
)
from mtmeta.metrics.meteor.phrases import PhraseArrays
from mtmeta.metrics.ngrams import Numbering, Registering
from mtmeta.metrics.params import MAX_SEGMENT_WORDS, Range

log = logging.getLogger(__name__)
MODULES = ("exact", "stem", "synonym", "paraphrase")
METEOR_TABLES = {"en": "meteor_paraphrase_en"}  # language -> source of Meteor 1.5's own paraphrase table
FUNCTION_WORDS = ("meteor15", "lang", "none")  # whose function-word list (see _function_word_language)
BACKENDS = ("compiled", "python")
# The Meteor 1.5 jar's own input handling (see ``normalize``), beside sacrebleu's tokenisers.
JAR_TOKENIZERS = {"meteor-norm": "meteor-norm-1.5", "whitespace": "whitespace"}  # name -> signature
JAR_SOURCE = "meteor_jar"  # the jar itself: its non-breaking prefix lists
EXACT_EQUALITY = ("string", "java-hash")
# Longest hypothesis or reference (in words, after tokenisation) that METEOR aligns; longer is an error.
# Six times the longest segment of WMT12-14 (171 tokens, 13a), and aligned in about a second (a
# pathological 1,000-word line of one repeated word: about 15 s). Alignment is quadratic beyond.
MAX_WORDS = 1000


def _source_path(resources: Path, source: str) -> Path:
    from mtmeta.data.prepare import source_file

    try:
        return source_file(resources, source)[0]
    except FetchError as exc:
        raise FetchError(f"METEOR needs source {source!r}: {exc}. Fetch it with `mtmeta fetch {source}` "
                         f"(or run the workflow, which does)") from None


def _paraphrase_source(paraphrase: str, lang: str) -> str:
    """The source of an indexed paraphrase table: Meteor's own, or the language's MyThes thesaurus."""
    return METEOR_TABLES[lang] if paraphrase == "meteor" else f"thesaurus_{lang}"


@cache
def _read_thesaurus(path: str, lowercase: bool) -> MyThes:
    """A thesaurus parsed once per process (read-only), for every METEOR object that uses it."""
    return MyThes(path, lowercase=lowercase)


class METEOR(Metric):
    name = "meteor"
    score_scale = 1
    PARAM_RANGES: ClassVar[dict] = {"alpha": Range(0, 1), "beta": Range(0, 100), "gamma": Range(0, 1),
                                    "delta": Range(0, 1), "beam": Range(1, 1000), "weights": Range(0, 100),
                                    "max_words": Range(1, MAX_SEGMENT_WORDS)}
    # What rescore() and corpus_rescore() can change without re-aligning (a sweep's grid and fixed keys).
    RESCORED_PARAMS: ClassVar[tuple[str, ...]] = ("alpha", "beta", "gamma", "delta", "weights", "full_match_rule")

    def __init__(self, lang: str | None = None, preset: str = "rank", modules: Sequence[str] | None = None,
                 weights: Sequence[float] | None = None, alpha: float | None = None, beta: float | None = None,
                 gamma: float | None = None, delta: float | None = None, full_match_rule: bool | None = None,
                 beam: int = DEFAULT_BEAM, stemmer: str = "snowball", paraphrase: str | None = None,
                 paraphrase_filter: str | None = None, function_words: str = "meteor15",
                 tokenize: str = "13a", lowercase: bool = True, resources: str = "resources",
                 backend: str = "compiled", exact_equality: str = "string", max_words: int = MAX_WORDS):
        if not lang:
            raise ConfigError("meteor needs the target language (lang=...)")
        self.lang = lang
        base = scoring.preset(preset, lang)
        self.preset = preset
        self.modules = list(modules) if modules is not None else list(base.modules)
        unknown = set(self.modules) - set(MODULES)
        if unknown or not self.modules:
            raise ConfigError(f"meteor modules {self.modules}: use some of {', '.join(MODULES)}")
        if weights is None:
            weights = base.weights if modules is None else [base.weights[base.modules.index(m)]
                                                          if m in base.modules else 1.0 for m in self.modules]
        self.weights = [float(w) for w in weights]
        if len(self.weights) != len(self.modules):
            raise ConfigError(f"meteor: {len(self.weights)} weights for modules {self.modules}")
        self.alpha = base.alpha if alpha is None else float(alpha)
        self.beta = base.beta if beta is None else float(beta)
        self.gamma = base.gamma if gamma is None else float(gamma)
        self.delta = base.delta if delta is None else float(delta)
        self.full_match_rule = base.full_match_rule if full_match_rule is None else bool(full_match_rule)
        if isinstance(beam, bool) or not isinstance(beam, int) or beam < 1:
            raise ConfigError(f"meteor: beam must be a whole number >= 1 (paths kept per reference position), "
                              f"got {beam!r}")
        self.beam = beam
        self.stemmer = stemmer
        self.paraphrase = paraphrase or ("meteor" if lang in METEOR_TABLES else "mythes")
        if paraphrase_filter is not None and paraphrase_filter not in PARAPHRASE_FILTERS:
            raise ConfigError(f"unknown paraphrase_filter {paraphrase_filter!r}; "
                              f"known: {', '.join(PARAPHRASE_FILTERS)}")
        self.paraphrase_filter = paraphrase_filter
        if function_words not in FUNCTION_WORDS:
            raise ConfigError(f"unknown function_words {function_words!r}; known: {', '.join(FUNCTION_WORDS)}")
        self.function_words = function_words
        if self.paraphrase == "meteor" and lang not in METEOR_TABLES:
            raise ConfigError(f"meteor: no Meteor paraphrase table for {lang!r} among the inputs "
                              f"(have: {', '.join(METEOR_TABLES)}); use paraphrase=mythes or a table path")
        self.tokenize, self.lowercase = tokenize, lowercase
        self.resources = Path(resources)
        if backend not in BACKENDS:
            raise ConfigError(f"meteor: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.backend = backend  # "python": the readable aligner (the reference); both give the same numbers
        if exact_equality not in EXACT_EQUALITY:
            raise ConfigError(f"meteor: unknown exact_equality {exact_equality!r}; known: {', '.join(EXACT_EQUALITY)}")
        # "java-hash": the jar's exact module compares words by Java's String.hashCode, so two words
        # with equal hashes ("daně"/"data") match there; an option, only to reproduce the jar exactly.
        self.exact_equality = exact_equality
        if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 1:
            raise ConfigError(f"meteor: max_words must be a whole number >= 1, got {max_words!r}")
        self.max_words = max_words  # not in the signature: it decides whether a score exists, never its value
        if tokenize == "meteor-norm" and lang not in normalize.LANGUAGES:
            raise ConfigError(f"meteor: tokenize=meteor-norm (Meteor 1.5's -norm) knows the languages "
                              f"{', '.join(normalize.LANGUAGES)}, not {lang!r}; use tokenize=whitespace or 13a")
        self._tokenizer = self._jar_words if tokenize in JAR_TOKENIZERS else tokenizer(tokenize, lowercase)
        self._aligner: Aligner | None = None
        self._aligner_references: set[tuple[str, ...]] = set()  # the references its paraphrase table covers
        # Tokens of each reference, kept: every system of a test set is scored against the same ones.
        self._tokenize_reference = Memo(self._tokenizer)
        self._static: dict | None = None
        self._resource_ids: dict[str, str] = {}
        self.num_refs: int | None = None

    def _jar_words(self, text: str) -> list[str]:
        """The Meteor 1.5 jar's words of a line: its -norm normaliser (if chosen), then lowercasing
        (if chosen), then its split at ASCII whitespace, in the jar's order."""
        if self.tokenize == "meteor-norm":
            if not hasattr(self, "_prefixes"):
                self._prefixes = normalize.jar_prefixes(str(_source_path(self.resources, JAR_SOURCE)), self.lang)
                self._resource_ids[JAR_SOURCE] = self._short_sha(JAR_SOURCE)
            text = normalize.normalize(text, self.lang, self._prefixes)
        return normalize.split_words(text.lower() if self.lowercase else text)

    # -- resources -------------------------------------------------------------------------
    @classmethod
    def required_sources(cls, lang: str, **params) -> list[str]:
        """Source ids (from config) this configuration reads; the workflow makes them inputs."""
        metric = cls(lang=lang, **params)
        function_list = metric._function_word_language()
        sources = [f"function_words_{function_list}"] if function_list else []
        if metric.tokenize == "meteor-norm":
            sources.append(JAR_SOURCE)
        for module in metric.modules:
            if module == "synonym":
                sources.append("wordnet" if lang == "en" else f"thesaurus_{lang}")
            elif module == "paraphrase" and metric.paraphrase == "meteor":
                sources.append(METEOR_TABLES[lang])
            elif module == "paraphrase" and metric.paraphrase == "mythes":
                sources.append(f"thesaurus_{lang}")
        return list(dict.fromkeys(sources))

    @classmethod
    def required_files(cls, lang: str, **params) -> list[str]:
        """The cached indexes this configuration reads (the workflow builds them in their own rules)."""
        metric = cls(lang=lang, **params)
        root = str(metric.resources)
        files = []
        if "synonym" in metric.modules and lang == "en":
            files.append(f"{root}/wordnet/{indexes.SYNONYM_INDEX}")
        if "paraphrase" in metric.modules and metric._indexed_paraphrases:
            files.append(f"{root}/{_paraphrase_source(metric.paraphrase, lang)}/{indexes.PARAPHRASE_INDEX}")
        return files

    def _short_sha(self, source: str) -> str:
        from mtmeta.data.fetch import read_manifest

        return read_manifest(self.resources / source)["sha256"][:8]

    def _thesaurus(self) -> MyThes:
        source = f"thesaurus_{self.lang}"
        if not hasattr(self, "_mythes"):
            self._mythes = _read_thesaurus(str(_source_path(self.resources, source)), self.lowercase)
            self._resource_ids[source] = self._short_sha(source)
        return self._mythes

    def _static_modules(self) -> dict:
        """Matchers that do not depend on the references, built once."""
        matchers = {"exact": exact_matcher if self.exact_equality == "string" else java_hash_exact_matcher}
        if "stem" in self.modules:
            self._stem = make_stemmer(self.lang, self.stemmer)
            matchers["stem"] = stem_matcher(self._stem)
        if "synonym" in self.modules:
            if self.lang == "en":
                source = _source_path(self.resources, "wordnet")
                index = indexes.SynonymIndex(indexes.build_once(
                    self.resources / "wordnet" / indexes.SYNONYM_INDEX,
                    lambda out: indexes.build_synonym_index(source, out)))
                self._resource_ids["wordnet"] = self._short_sha("wordnet")
                self._synonym_index_sha = index.sha256
                self._synsets = index.synsets
            else:
                self._synsets = self._thesaurus().synsets
            matchers["synonym"] = synonym_matcher(self._synsets)
        function_list = self._function_word_language()
        if function_list and function_list != self.lang and self.function_words == "meteor15":
            # the jar's choice, kept for parity; said aloud, since a reader would expect the target's list
            log.warning("meteor: target language %s: English function words, as the Meteor 1.5 jar uses for "
                        "every language (fw:en(meteor15) in the signature); function_words=lang uses the %s list",
                        self.lang, self.lang)
        if function_list:
            source = f"function_words_{function_list}"
            self._function_words = read_function_words(_source_path(self.resources, source))
            self._resource_ids[source] = self._short_sha(source)
        else:
            self._function_words = frozenset()
        return matchers

    def _function_word_language(self) -> str | None:
        """Whose function-word list separates function from content words (delta).

        ``meteor15``: what the Meteor 1.5 jar does. Its ``-l`` option switches the paraphrase table
        and the parameters but not the function-word file, which stays English for every language
        (checked with the jar: under ``-l cz`` or ``-l de`` "the", "of", "and" are function words,
        and "a", "v", "na" or "und", "der" are not). ``lang``: the target language's own list, as
        Meteor's documentation intends. ``none``: no function words.
        """
        if self.function_words == "meteor15":
            return "en"
        if self.function_words == "lang":
            return self.lang if self.lang in LANGUAGE_NAMES else None
        return None

    @property
    def _indexed_paraphrases(self) -> bool:
        """Whether paraphrases come from a cached index (lowercased entries): of Meteor's table, or of
        the whole MyThes thesaurus (no filter: a filter keeps a subset, built in memory)."""
        return self.lowercase and (self.paraphrase == "meteor"
                                   or (self.paraphrase == "mythes" and self.paraphrase_filter is None))

    def _paraphrase_index(self) -> PhraseArrays:
        """The paraphrase table as integer arrays, converted once per study (rule index_paraphrase_table):
        parsing a thesaurus and numbering its entries took up to 4 s in every process that scored its
        language, loading the arrays takes hundredths."""
        source = _paraphrase_source(self.paraphrase, self.lang)
        path = _source_path(self.resources, source)
        self._resource_ids[source] = self._short_sha(source)
        index = indexes.build_once(self.resources / source / indexes.PARAPHRASE_INDEX,
                                   lambda out: indexes.build_paraphrase_index(
                                       indexes.paraphrase_index_entries(source, path), out))
        return PhraseArrays.load(index)

    def _paraphrase_entries(self, keep: set[str]):
        """The paraphrase resource's (phrase, paraphrase) entries that can match references whose
        n-grams are ``keep`` (at least: other entries may come too)."""
        if self.paraphrase == "mythes":
            entries = self._thesaurus().pairs()
        elif self._indexed_paraphrases:
            entries = ((a, b, None) for a, b in self._paraphrase_index().entries())
        else:
            if self.paraphrase == "meteor":
                source = METEOR_TABLES[self.lang]
                path = _source_path(self.resources, source)
                self._resource_ids[source] = self._short_sha(source)
            else:
                path = Path(self.paraphrase)
            entries = read_meteor_paraphrases(path, lowercase=self.lowercase)
        lemma = make_stemmer(self.lang, "lemma") if self.paraphrase_filter in ("diff-lemma", "same-lemma") else None
        return filter_paraphrases(entries, self.paraphrase_filter, lemma)

    def _aligner_for(self, references: list[list[list[str]]]) -> Aligner:
        """An aligner for a set of tokenised references.

        Only the paraphrase module depends on the references: its table keeps the entries with a side
        among their n-grams. A table built for more references gives the same candidates in the same
        order (an entry whose sides are both missing from a reference can never match against it), so
        an aligner is reused for any subset of the references it was built for. The compiled backend
        takes the whole table, built once for any references: Meteor's own table from its integer
        arrays, a MyThes thesaurus converted whole (275,000 Czech entries, in less time than selecting
        one test set's entries took, which each new test set did again).
        """
        if self._static is None:
            self._static = self._static_modules()
        whole_table = self.backend == "compiled" and (self._indexed_paraphrases or self.paraphrase == "mythes")
        wanted = {tuple(words) for segment in references for words in segment} \
            if "paraphrase" in self.modules and not whole_table else set()
        if self._aligner is not None and wanted <= self._aligner_references:
            return self._aligner
        modules = []
        for module in self.modules:
            if module == "paraphrase":
                if whole_table:
                    self._phrases = self._paraphrase_index() if self._indexed_paraphrases \
                        else PhraseArrays.from_entries(self._paraphrase_entries(set()))
                    matcher = self._phrases.matcher()
                else:
                    keep = reference_phrases(wanted)
                    table = ParaphraseTable(self._paraphrase_entries(keep), keep)
                    self._phrases = PhraseArrays.from_entries(
                        (a, b) for a, paraphrases in table.table.items() for b in paraphrases) \
                        if self.backend == "compiled" else None
                    matcher = paraphrase_matcher(table)
                self._table_word_ids: list[int] = []  # table word id of each vocabulary word, in order
                modules.append((module, matcher))
            else:
                modules.append((module, self._static[module]))
        self._aligner, self._aligner_references = Aligner(modules, beam=self.beam), wanted
        return self._aligner

    def prepare(self, references: Sequence[str | None]) -> None:
        """Build the paraphrase table once for all these references (e.g. every system's own
        paraphrased references), instead of once per system. Scores do not change."""
        self._aligner_for([[self._tokenize_reference(r) for r in references if r is not None]])

    # -- statistics and scores -----------------------------------------------------------------
    @property
    def stat_names(self) -> list[str]:
        return scoring.stat_names(self.modules)

    def segment_stats(self, aligner: Aligner, hyp: list[str], ref: list[str]) -> list[int]:
        matches = aligner.align(hyp, ref)
        k = len(self.modules)
        per = [0] * (4 * k)
        function = self._function_words
        hyp_matches = ref_matches = 0
        for m in matches:
            for i in range(m.hyp_start, m.hyp_start + m.hyp_length):
                per[4 * m.module + (1 if hyp[i].lower() in function else 0)] += 1
            for j in range(m.start, m.start + m.length):
                per[4 * m.module + (3 if ref[j].lower() in function else 2)] += 1
            hyp_matches += m.hyp_length
            ref_matches += m.length
        hyp_func = sum(w.lower() in function for w in hyp)
        ref_func = sum(w.lower() in function for w in ref)
        return [len(hyp), len(ref), hyp_func, ref_func, *per, count_chunks(matches), hyp_matches, ref_matches]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        self.num_refs = len(references)
        hyps = [self._tokenizer(h) for h in hypotheses]
        refs = [[self._tokenize_reference(r) for r in segment if r is not None]
                for segment in zip(*references, strict=True)]
        self._check_lengths(hyps, references)
        aligner = self._aligner_for(refs)
        if self.backend == "python":
            pair_rows = [[self.segment_stats(aligner, hyp, ref) for ref in candidates]
                         for hyp, candidates in zip(hyps, refs, strict=True)]
        else:
            flat = self._compiled_stats(aligner, [(hyp, ref) for hyp, candidates in zip(hyps, refs, strict=True)
                                                  for ref in candidates])
            pair_rows, start = [], 0
            for candidates in refs:
                pair_rows.append(flat[start : start + len(candidates)])
                start += len(candidates)
        out = np.zeros((len(hyps), len(self.stat_names)), dtype=np.int64)
        for row, rows in enumerate(pair_rows):
            if len(rows) == 1:
                out[row] = rows[0]
            elif len(rows):  # several references: the one with the best score, as Meteor 1.5 chooses
                out[row] = rows[int(np.argmax(self.segment_scores(np.array(rows))))]
        return out

    def _check_lengths(self, hyps: list[list[str]], references: Sequence[Sequence[str | None]]) -> None:
        """Stop, naming the segment, at a hypothesis or reference longer than ``max_words`` words."""
        check_lengths(self.name, [len(words) for words in hyps],
                      [[None if ref is None else len(self._tokenize_reference(ref)) for ref in stream]
                       for stream in references],
                      self.max_words, f"max_words={self.max_words:,}",
                      "Meteor's alignment compares every pair of words, so its time and memory grow with the "
                      "square of the length", "Split the line into sentences, or raise max_words")

    def _word_ids(self, words: list[str]) -> np.ndarray:
        """Ids of a flat list of words; a word seen for the first time is registered (:meth:`_register`)
        as it is met, so ids are numbered in order of first sight."""
        return np.fromiter(map(self._vocabulary.__getitem__, words), dtype=np.int64, count=len(words))

    def _register(self, word: str) -> int:
        """A new word's id; its stem, synsets and function-word flag are looked up with the other new
        words of the call (:meth:`_describe_new_words`)."""
        number = len(self._vocabulary)
        self._vocabulary[word] = number
        self._new_words.append(word)
        return number

    def _describe_new_words(self) -> None:
        """Stems, synsets and function-word flags of the words registered since the last call, in order
        of registration. One ``map`` per property instead of a Python call per word and property (a
        tenth of METEOR's time at NLTK's settings); stem, synset and exact-class ids are numbered in the
        same order of first sight as a word-by-word registration would number them."""
        words, self._new_words = self._new_words, []
        if not words:
            return
        if self.exact_equality == "java-hash":
            self._exact_ids.extend(map(self._exact_classes.__getitem__, map(java_hash, words)))
        if "stem" in self.modules:
            self._stem_ids.extend(map(self._stem_vocabulary.__getitem__, map(self._stem, words)))
        if "synonym" in self.modules:  # as small ids (in order of first sight), flat
            synsets = list(map(sorted, map(self._synsets, words)))
            flat = self._synset_flat
            self._synset_ends.extend(list(accumulate(map(len, synsets), initial=len(flat)))[1:])
            flat.extend(map(self._synset_numbers.__getitem__, chain.from_iterable(synsets)))
        self._function_flags.extend(map(self._function_words.__contains__, map(str.lower, words)))

    def _compiled_stats(self, aligner: Aligner, pairs: list[tuple[list[str], list[str]]]) -> np.ndarray:
        """Statistics of (hypothesis, reference) token pairs through the compiled aligner."""
        from mtmeta.metrics.meteor import kernel

        if not hasattr(self, "_vocabulary"):
            self._vocabulary: dict[str, int] = Registering(self._register)  # word -> id 0, 1, ...
            self._new_words: list[str] = []  # registered, not yet described (_describe_new_words)
            self._stem_vocabulary: dict[str, int] = Numbering()  # stem -> id 0, 1, ...
            self._stem_ids: list[int] = []
            self._synset_numbers: dict = Numbering()  # synset -> its small id 0, 1, ...
            self._synset_flat: list[int] = []  # small synset ids of each word in turn ...
            self._synset_ends: list[int] = []  # ... the end of each word's
            self._function_flags: list[bool] = []
            self._exact_classes: dict[int, int] = Numbering()  # Java hash -> class (exact_equality="java-hash")
            self._exact_ids: list[int] = []
        hyp_ids = self._word_ids([w for hyp, _ in pairs for w in hyp])
        ref_ids = self._word_ids([w for _, ref in pairs for w in ref])
        self._describe_new_words()
        hyp_off = np.zeros(len(pairs) + 1, dtype=np.int64)
        ref_off = np.zeros(len(pairs) + 1, dtype=np.int64)
        hyp_off[1:] = np.cumsum([len(hyp) for hyp, _ in pairs])
        ref_off[1:] = np.cumsum([len(ref) for _, ref in pairs])
        paraphrase = self.modules.index("paraphrase") if "paraphrase" in self.modules else None
        if paraphrase is not None:  # candidates of the compiled matcher, on the table's word ids
            table_ids = self._table_word_ids
            if len(table_ids) < len(self._vocabulary):
                table_ids.extend(self._phrases.ids(islice(self._vocabulary, len(table_ids), None)).tolist())
            as_table = np.asarray(table_ids, dtype=np.int64)
            skip = [paraphrase != 0 and hyp == ref for hyp, ref in pairs]  # identical: the first module only
            table_ref_ids = as_table[ref_ids]
            # The entries looked up from the references, kept for the next call: every system of a test
            # set comes with the same references.
            known = getattr(self, "_reference_entries", None)
            if known is None or known[0] is not self._phrases or not np.array_equal(known[1], ref_off) \
                    or not np.array_equal(known[2], table_ref_ids):
                known = (self._phrases, ref_off, table_ref_ids, self._phrases.reference_entries(table_ref_ids, ref_off))
                self._reference_entries = known
            para, para_off = self._phrases.candidates(as_table[hyp_ids], hyp_off, table_ref_ids, ref_off, skip,
                                                      known[3])
        else:
            para, para_off = np.zeros((0, 4), dtype=np.int64), np.zeros(len(pairs) + 1, dtype=np.int64)
        n_words = len(self._vocabulary)
        stem_of = np.asarray(self._stem_ids if "stem" in self.modules else np.zeros(n_words), dtype=np.int64)
        exact_of = np.asarray(self._exact_ids, dtype=np.int64) if self.exact_equality == "java-hash" \
            else np.arange(n_words, dtype=np.int64)
        syn_ptr = np.zeros(n_words + 1, dtype=np.int64)
        if "synonym" in self.modules:
            syn_ptr[1:] = self._synset_ends
        syn_ids = np.asarray(self._synset_flat if "synonym" in self.modules else [], dtype=np.int64)
        as_array = lambda values: np.asarray(values, dtype=np.int64)  # noqa: E731
        return kernel.corpus_stats(
            hyp_ids, hyp_off, ref_ids, ref_off,
            as_array([kernel.KINDS[m] for m in self.modules]), np.asarray(aligner.weights, dtype=float), exact_of,
            stem_of,
            syn_ptr, syn_ids, np.asarray(self._function_flags, dtype=np.bool_),
            para, para_off, self.beam)

    def rescore(self, stats: np.ndarray, **overrides) -> np.ndarray:
        """Segment scores with other alpha/beta/gamma/delta/weights (arrays broadcast), no re-alignment."""
        params = {"alpha": self.alpha, "beta": self.beta, "gamma": self.gamma, "delta": self.delta,
                  "weights": self.weights, "full_match_rule": self.full_match_rule, **overrides}
        return scoring.scores(stats, len(self.modules), **params)

    def corpus_rescore(self, stats: np.ndarray, weights=None, **overrides) -> float:
        """Corpus score from (optionally weighted) statistics with other parameters, no re-alignment."""
        rule = overrides.get("full_match_rule", self.full_match_rule)
        total = scoring.aggregate(stats, len(self.modules), rule, weights)
        return float(self.rescore(total[None, :], **overrides)[0])

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self.rescore(stats)

    def corpus_score(self, stats: np.ndarray) -> float:
        return self.corpus_score_weighted(stats, None)

    def corpus_score_weighted(self, stats: np.ndarray, weights) -> float:
        return self.corpus_rescore(stats, weights)

    def corpus_scores_weighted(self, stats: np.ndarray, weights) -> np.ndarray:
        return self.rescore(scoring.aggregate(stats, len(self.modules), self.full_match_rule, weights))

    def signature(self) -> str:
        mods = "+".join(scoring.SHORT[m] for m in self.modules)
        weights = "_".join(f"{w:g}" for w in self.weights)
        resources = []
        if "synonym" in self.modules:
            index = getattr(self, "_synonym_index_sha", None)
            resources.append(("syn:wordnet-3.0" + (f"@{index[:8]}" if index else "")) if self.lang == "en"
                             else f"syn:mythes-{self.lang}")
        if "paraphrase" in self.modules:
            resources.append({"meteor": f"para:meteor15-{self.lang}", "mythes": f"para:mythes-{self.lang}"}.get(
                self.paraphrase, f"para:{Path(self.paraphrase).name}")
                + (f"[{self.paraphrase_filter}]" if self.paraphrase_filter else ""))
        if "stem" in self.modules:
            lemmas = self.lang == "cs" and self.stemmer == "snowball"
            resources.append("stem:" + ("simplemma" if lemmas else self.stemmer))
        function_list = self._function_word_language()
        resources.append(f"fw:{function_list or 'none'}" + ("(meteor15)" if self.function_words == "meteor15" else ""))
        refs = self.num_refs if self.num_refs is not None else "?"
        case = "lc" if self.lowercase else "mixed"
        return "|".join([
            f"meteor|lang:{self.lang}|preset:{self.preset}|mods:{mods}|w:{weights}",
            f"a:{self.alpha:g}|b:{self.beta:g}|g:{self.gamma:g}|d:{self.delta:g}",
            f"fullmatch:{'meteor15' if self.full_match_rule else 'none'}|beam:{self.beam}"
            + ("|exact:java-hash" if self.exact_equality == "java-hash" else ""),
            *resources,
            f"nrefs:{refs}|case:{case}|tok:{JAR_TOKENIZERS.get(self.tokenize, self.tokenize)}|mtmeta:{__version__}",
        ])
