from collections import Counter

from cantoedge.datasets.hkcancor import split_of


def test_clean_utterances_are_hand_annotated_and_in_range(clean_utterances):
    assert 8500 <= len(clean_utterances) <= 9500
    for utt in clean_utterances[:500]:
        assert 5 <= utt.n_chars <= 40
        assert len(utt.jyutping) == utt.n_chars


def test_split_is_deterministic_and_about_90_5_5(clean_utterances):
    assert split_of("hkc00000") == split_of("hkc00000")
    counts = Counter(u.split for u in clean_utterances)
    assert 0.88 < counts["train"] / len(clean_utterances) < 0.92
    assert counts["val"] > 300 and counts["test"] > 300
