import hashlib

import pytest

from mtmeta.data.fetch import fetch, plan_fetch


@pytest.fixture
def english_function_words(tmp_path):
    """A maker of a resources folder holding an English function-word list, fetched as the workflow
    does from a mirror: call it with the words; it returns the resources folder."""

    def make(words: list[str]):
        mirror = tmp_path / "mirror"
        mirror.mkdir(exist_ok=True)
        text = "".join(f"{word}\n" for word in words).encode()
        (mirror / "english.words").write_bytes(text)
        spec = {"upstream": {"url": "http://example.invalid/english.words"},
                "mirror": {"path": "english.words", "sha256": hashlib.sha256(text).hexdigest()}}
        fetch(plan_fetch("function_words_en", spec, mirror), tmp_path / "resources" / "function_words_en")
        return tmp_path / "resources"

    return make
