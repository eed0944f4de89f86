import gzip

import pytest

from mtmeta.errors import ConfigError, InputError
from mtmeta.lexicons.mythes import MyThes
from mtmeta.lexicons.paraphrases import ParaphraseTable, filter_paraphrases, read_meteor_paraphrases, reference_phrases


def write_gz(path, text, encoding="utf-8", bom=False):
    data = text.encode(encoding)
    path.write_bytes(gzip.compress((b"\xef\xbb\xbf" if bom else b"") + data))
    return path


def test_mythes_senses_synsets_and_pairs(tmp_path):
    path = write_gz(tmp_path / "th.dat.gz", "UTF-8\n|1\n-|anno|im jahr\nstore|2\n(noun)|shop|market (generic term)\n"
                    "(verb)|keep|put away\n", bom=True)
    thesaurus = MyThes(path)
    assert thesaurus.senses == [("", "", ["anno", "im jahr"]), ("store", "noun", ["shop", "market"]),
                                ("store", "verb", ["keep", "put away"])]
    assert thesaurus.synsets("shop") & thesaurus.synsets("store")
    assert not thesaurus.synsets("shop") & thesaurus.synsets("keep")
    assert ("store", "put away", "verb") in set(thesaurus.pairs())
    assert all(head for head, _, _ in thesaurus.pairs())  # the empty headword gives no pairs


def test_mythes_uses_the_declared_encoding(tmp_path):
    path = write_gz(tmp_path / "th_es.dat.gz", "ISO8859-1\naltísimo|1\n-|Dios|Jehová\n", encoding="latin-1")
    assert MyThes(path).senses == [("altísimo", "", ["dios", "jehová"])]
    bad = write_gz(tmp_path / "bad.dat.gz", "UTF-8\nal\xe1|1\n", encoding="latin-1")
    with pytest.raises(InputError, match=r"bad.dat.gz:2: invalid UTF-8 byte\(s\) e1"):
        MyThes(bad)
    with pytest.raises(InputError, match=r":1: unknown encoding 'KLINGON-8'"):
        MyThes(write_gz(tmp_path / "k.dat.gz", "KLINGON-8\nx|1\n-|y\n"))


def test_mythes_structure_errors(tmp_path):
    with pytest.raises(InputError, match=r":2: entry header 'store'; expected headword\|count"):
        MyThes(write_gz(tmp_path / "a.dat.gz", "UTF-8\nstore\n"))
    with pytest.raises(InputError, match="file ends inside an entry"):
        MyThes(write_gz(tmp_path / "b.dat.gz", "UTF-8\nstore|3\n-|shop\n"))


def test_meteor_paraphrase_table_and_reference_filter(tmp_path):
    path = write_gz(tmp_path / "paraphrase-xx.gz", "0.5\nkick the bucket\ndie\n0.1\nGo\nleave\n0.2\nred\nblue\n")
    entries = list(read_meteor_paraphrases(path))
    assert entries == [("kick the bucket", "die", None), ("go", "leave", None), ("red", "blue", None)]
    keep = reference_phrases([["he", "will", "kick", "the", "bucket"], ["we", "leave"]])
    table = ParaphraseTable(filter_paraphrases(entries, None), keep)
    assert table.get("kick the bucket") == ["die"] and table.get("go") == ["leave"] and table.get("red") == []
    assert table.max_length == 3 and len(table) == 2
    truncated = write_gz(tmp_path / "bad.gz", "0.5\nphrase\n")
    with pytest.raises(InputError, match="ends inside an entry"):
        list(read_meteor_paraphrases(truncated))


def test_seed_002_paraphrase_filters():
    entries = [("dům", "budova", "podst. jm."), ("domy", "dům", "podst. jm."), ("dům", "rodinný dům", "podst. jm."),
               ("běžet", "utíkat", "")]
    lemma = {"dům": "dům", "domy": "dům", "budova": "budova"}.get
    assert list(filter_paraphrases(entries, None)) == [e[:2] for e in entries]
    assert list(filter_paraphrases(entries, "one-word")) == [("dům", "budova"), ("domy", "dům"), ("běžet", "utíkat")]
    assert list(filter_paraphrases(entries, "same-pos")) == [("dům", "budova"), ("domy", "dům")]
    assert list(filter_paraphrases(entries, "diff-lemma", lemma)) == [("dům", "budova")]
    assert list(filter_paraphrases(entries, "same-lemma", lemma)) == [("domy", "dům")]
    with pytest.raises(ConfigError, match="needs parts of speech"):
        list(filter_paraphrases([("a", "b", None)], "same-pos"))
