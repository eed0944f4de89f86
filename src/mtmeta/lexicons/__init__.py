"""Lexical resources that METEOR's matching modules and targeted paraphrasing share.

- Function words: Meteor 1.5's lists (``<language>.words``), one word per line.
- Stem: NLTK's Snowball stemmers (the algorithms Meteor 1.5 bundles); for Czech, which has no
  Snowball stemmer, simplemma lemmas. Porter (NLTK's METEOR) is available as ``stemmer=porter``.
- Synonym: English WordNet 3.0 through NLTK (a word's synsets, including those of its base
  forms, as Meteor's synonym module uses them); for other languages a MyThes thesaurus, where
  each sense line (headword plus its synonyms) plays the part of a synset.
- Paraphrase: a table in Meteor's format (gzip, three lines per entry: probability, phrase,
  paraphrase) or a MyThes thesaurus read as one (headword -> each synonym, phrases allowed).

Modules: :mod:`.stemmers` (with :mod:`.porter`, NLTK's Porter stemmer, faster), :mod:`.function_words`,
:mod:`.wordnet`, :mod:`.mythes`, :mod:`.paraphrases`.
"""
