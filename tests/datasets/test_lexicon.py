import pytest

from cantoedge.datasets.lexicon import build_lexicon, han_runs, syllable_agreement
from cantoedge.runtime.frontend import Frontend
from cantoedge.runtime.lexicon import load_lexicon


def test_bundled_lexicon_is_the_training_split_majority_reading(clean_utterances):
    bundled = load_lexicon()
    assert len(bundled) > 5000
    rebuilt = build_lexicon(u for u in clean_utterances if u.split == "train")
    # the bundled file was built from all annotated training utterances, a superset of the clean ones
    agree = sum(bundled.get(w) == r for w, r in rebuilt.items())
    assert agree / len(rebuilt) > 0.97


def test_lexicon_beats_plain_tojyutping_on_held_out_text(clean_utterances):
    held = [u for u in clean_utterances if u.split == "test"][:150]
    ours = Frontend()
    plain = Frontend(lexicon={})
    a = syllable_agreement("ours", lambda t: [s for _, s in ours.read_han(t)], held)
    b = syllable_agreement("plain", lambda t: [s for _, s in plain.read_han(t)], held)
    assert a.total == b.total > 1000
    assert a.rate >= 0.95 and a.rate > b.rate


def test_han_runs_split_at_punctuation(clean_utterances):
    utt = next(u for u in clean_utterances if any(not w.syllables for w in u.words[:-1]))
    runs = han_runs(utt)
    assert len(runs) >= 2 and sum(len(r[1]) for r in runs) == utt.n_chars


@pytest.mark.slow  # reads 12,000 CantoMap utterances
def test_cantomap_is_an_independent_test_set_the_lexicon_barely_moves():
    """The README's second column: CantoMap ships with pycantonese, annotated by another team."""
    from cantoedge.datasets.hkcancor import load_cantomap

    utts = load_cantomap()
    assert len(utts) > 10_000 and {u.split for u in utts} == {"test"}
    plain, ours = Frontend(lexicon={}), Frontend()
    tj = syllable_agreement("ToJyutping", lambda t: [s for _, s in plain.read_han(t)], utts)
    ce = syllable_agreement("cantoedge", lambda t: [s for _, s in ours.read_han(t)], utts)
    assert tj.total == ce.total > 100_000
    assert 0.88 < tj.rate < 0.91 and abs(ce.rate - tj.rate) < 0.01  # the lexicon's gain is in-domain only
