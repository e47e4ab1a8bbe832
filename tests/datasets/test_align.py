"""espeak-ng's phone events line up with the model's tokens: same count, same order, exact frame sums."""

import numpy as np
import pytest

from cantoedge.datasets.align import NASAL_SUBSTITUTES, durations_in_frames, espeak_text, token_starts
from cantoedge.datasets.corpus import utterance_units
from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.frontend import encode_units
from cantoedge.runtime.jyutping import Syllable

# espeak's phone names for the onsets whose name differs from the Jyutping letters
ESPEAK_ONSET = {"ng": ["N"], "gw": ["g", "w"], "kw": ["k", "w"]}


@pytest.fixture(scope="module")
def espeak():
    from cantoedge.datasets.espeak import Espeak

    return Espeak()


def _words(events):
    groups = []
    for ev in events:
        if ev.kind == "word":
            groups.append([])
        elif groups and not ev.name.startswith("_"):
            groups[-1].append(ev.name)
    return groups


def test_phone_events_match_tokens_in_count_and_order(espeak, clean_utterances):
    checked = 0
    for utt in clean_utterances[:12]:
        units = utterance_units(utt)
        syllables = [u for u in units if isinstance(u, Syllable)]
        encoded = encode_units(units)
        rendering = espeak.synth_isolated(espeak_text(encoded, syllables))
        words = _words(rendering.events)
        assert len(words) == len(syllables), utt.id
        for syl, phones in zip(syllables, words):
            if str(syl) in NASAL_SUBSTITUTES:
                continue  # rendered from a character: espeak says ng where HKCanCor writes m
            onset = ESPEAK_ONSET.get(syl.onset, [syl.onset] if syl.onset else [])
            assert phones[: len(onset)] == onset, (utt.id, str(syl), phones)
            assert "".join(phones[len(onset):]).replace("N", "ng") == syl.rime, (utt.id, str(syl), phones)
            checked += 1
        starts = token_starts(encoded, syllables, rendering.events)
        assert len(starts) == len(encoded.tokens) and starts[0] == 0
        assert all(a <= b for a, b in zip(starts, starts[1:]))
        durations = durations_in_frames(starts, rendering.audio.size)
        assert durations.sum() == AUDIO.n_frames(rendering.audio.size)
        rimes = [d for d, p in zip(durations, encoded.phones) if not p.startswith("<") and not p.endswith("-")]
        assert min(rimes) > 0, utt.id  # every syllable is heard
    assert checked > 80


def test_isolated_synthesis_is_deterministic(espeak):
    a = espeak.synth_isolated("si1 si2 si3, si4 si5 si6.")
    espeak.synth_isolated("nei5 hou2")
    b = espeak.synth_isolated("si1 si2 si3, si4 si5 si6.")
    assert np.array_equal(a.audio, b.audio) and a.events == b.events


def test_syllabic_nasals_render_through_a_character():
    from cantoedge.datasets.align import espeak_word
    from cantoedge.runtime.jyutping import parse_syllable

    assert espeak_word(parse_syllable("m4")) == "唔"
    assert espeak_word(parse_syllable("si1")) == "si1"


def test_durations_sum_to_frames_even_with_odd_starts():
    d = durations_in_frames([0, 5000, 4000, 9000, 10**9], 20000)
    assert d.sum() == AUDIO.n_frames(20000) and (d >= 0).all()
