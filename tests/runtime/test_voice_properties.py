"""Property test: for any token and tone sequence up to (and past) the encoder's limit, the device voice
returns finite audio within [-1, 1] whose length matches its durations."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.inventory import load_inventory
from cantoedge.runtime.synth import Voice

LIMIT = 48  # the voice's piece limit for this test: long draws cross it several times, and stay fast


@pytest.fixture(scope="module")
def voice(device_voice):
    voice = Voice.load(device_voice, threads=1, warmup=False, cache_bytes=0)
    voice.max_tokens = LIMIT
    return voice


TOKENS = st.lists(st.tuples(st.integers(min_value=0, max_value=len(load_inventory().phones) - 1),
                            st.integers(min_value=0, max_value=6)), min_size=1, max_size=3 * LIMIT)


@settings(max_examples=40)
@given(pairs=TOKENS, speed=st.sampled_from([0.25, 1.0, 4.0]))
def test_any_token_stream_gives_bounded_audio_as_long_as_its_durations(voice, pairs, speed):
    tokens, tones = zip(*pairs)
    audio, durations = voice.speak_tokens(list(tokens), list(tones), speed)
    assert durations.shape == (len(tokens),) and durations.min() >= 0 and durations.sum() > 0
    assert audio.dtype == np.float32 and audio.size == durations.sum() * AUDIO.hop_length
    assert np.isfinite(audio).all() and np.abs(audio).max() <= 1.0


@pytest.mark.parametrize("tokens, tones", [([], []), ([1, 2], [0]), ([-1], [0]), ([10_000], [0]), ([1], [7])])
def test_malformed_token_streams_are_refused(voice, tokens, tones):
    with pytest.raises(ValueError, match="token"):
        voice.speak_tokens(tokens, tones)
