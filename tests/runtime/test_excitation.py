"""The vocoder's pitch inputs, computed on the device between graphs: F0 with a voicing lead, and the
excitation phase integrated from the utterance start (numpy only)."""

import numpy as np
import pytest

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.excitation import excitation_phase, lead_voicing, vocoder_pitch

SR, HOP = AUDIO.sample_rate, AUDIO.hop_length


def test_excitation_phase_integrates_f0_and_a_prefix_is_exact():
    f0 = np.array([100.0, 100.0, 0.0, 0.0, 200.0, 200.0])
    phase = excitation_phase(f0)
    step = 2 * np.pi * 100 * HOP / SR
    np.testing.assert_allclose(phase[:3], np.mod([0, step, 1.5 * step], 2 * np.pi), rtol=1e-6)
    assert phase[3] == phase[2]  # unvoiced frames do not advance the phase
    long = 90 + 20 * np.sin(np.arange(5000) / 50)
    np.testing.assert_array_equal(excitation_phase(long[:3000]), excitation_phase(long)[:3000])  # streaming
    assert excitation_phase(np.zeros(0)).shape == (0,)
    with pytest.raises(ValueError, match="one track"):
        excitation_phase(np.zeros((2, 3)))


def test_voicing_leads_each_voiced_run_by_two_frames_and_a_prefix_is_exact():
    f0 = np.array([0, 0, 0, 0, 90, 95, 0, 0, 0, 0, 0, 100, 0], np.float32)
    np.testing.assert_array_equal(lead_voicing(f0), [0, 0, 90, 90, 90, 95, 0, 0, 0, 100, 100, 100, 0])
    np.testing.assert_array_equal(lead_voicing(np.array([0, 80], np.float32)), [80, 80])
    rng = np.random.default_rng(0)
    track = np.where(rng.random(400) < 0.5, 80 + 40 * rng.random(400), 0).astype(np.float32)
    whole = vocoder_pitch(track)
    for n in (37, 128, 300):  # streaming: a prefix knows all but its last VOICING_LEAD frames
        part = vocoder_pitch(track[:n])
        for a, b in zip(part, whole):
            np.testing.assert_array_equal(a[: n - 2], b[: n - 2])
