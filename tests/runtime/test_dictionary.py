"""The compiled ToJyutping dictionary: the device frontend reads it instead of importing ToJyutping, so it
must segment and read exactly as ToJyutping does (plain, and with the lexicon layered over it)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.dictionary import DICTIONARY_FILE, base_dictionary
from cantoedge.runtime.lexicon import load_lexicon, parse_lexicon

ToJyutping = pytest.importorskip("ToJyutping", reason="ToJyutping is a build-side dependency (extra 'build')")

HAN = st.text(st.sampled_from([chr(c) for c in range(0x4E00, 0x4E00 + 2000)] + list("你好我哋今日天氣行銀重長樂下上")),
              min_size=1, max_size=30)


def test_held_out_hkcancor_text_reads_as_tojyutping_reads_it(clean_utterances):
    held = [u.text for u in clean_utterances if u.split != "train"][:800]
    layered = base_dictionary().layered(load_lexicon())
    converter = ToJyutping.customize(load_lexicon())
    for text in held:
        assert base_dictionary().readings(text) == ToJyutping.get_jyutping_list(text), text
        assert layered.readings(text) == converter.get_jyutping_list(text), text


@settings(max_examples=300)
@given(text=HAN)
def test_any_han_text_reads_as_tojyutping_reads_it(text):
    assert base_dictionary().readings(text) == ToJyutping.get_jyutping_list(text)


def test_the_compiled_file_is_what_this_tojyutping_compiles_to():
    from importlib import resources

    from cantoedge.datasets.lexicon import compile_tojyutping

    committed = resources.files("cantoedge.runtime").joinpath(DICTIONARY_FILE).read_text("utf-8")
    if f"ToJyutping {ToJyutping.__version__} " not in committed.splitlines()[0]:
        pytest.skip(f"the file was compiled from another ToJyutping than the installed {ToJyutping.__version__}")
    assert compile_tojyutping() == committed


def test_the_bundled_lexicon_passes_the_strict_parser():
    from importlib import resources

    text = resources.files("cantoedge.runtime").joinpath("data/lexicon.tsv").read_text("utf-8")
    assert parse_lexicon(text) == load_lexicon()  # the fast loader reads what the validator accepts
