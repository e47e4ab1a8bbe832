"""The vocoder's pitch inputs, computed on the device between graphs: F0 with a voicing lead, and the
excitation phase integrated from the utterance start (numpy only)."""

import numpy as np
import pytest

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.excitation import (
    NOISE_TABLE_FRAMES,
    excitation_phase,
    harmonic_source,
    lead_voicing,
    mix_source,
    pitch_lookahead,
    unvoiced_noise_phase,
    vocoder_pitch,
)

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
    for glide in (0.0, 1.0):
        whole = vocoder_pitch(track, glide)
        ahead = pitch_lookahead(glide)
        for n in (37, 128, 300):  # streaming: a prefix knows all but its last pitch_lookahead frames
            part = vocoder_pitch(track[:n], glide)
            for a, b in zip(part, whole):
                np.testing.assert_array_equal(a[: n - ahead], b[: n - ahead])


def test_a_gliding_lead_continues_the_runs_first_step_within_its_limit():
    f0 = np.array([0, 0, 0, 0, 90, 95, 0, 0, 0, 0, 0, 100, 0, 0, 0, 100, 200, 0], np.float32)
    led = lead_voicing(f0, glide=1.0)
    step = 12 * np.log2(95 / 90)  # 0.94 semitone a frame, within the limit: continued back in time
    np.testing.assert_allclose(led[2:4], [90 * 2 ** (-step / 12), 90], rtol=1e-6)  # the frame next to the run holds
    np.testing.assert_array_equal(led[9:12], [100, 100, 100])  # a one-frame run has no step: held
    np.testing.assert_allclose(led[13:15], [100 * 2 ** (-1 / 12), 100], rtol=1e-6)  # an octave: clipped to 1
    np.testing.assert_array_equal(led[[0, 1, 6, 7, 8, 17]], 0)  # nothing else is voiced
    np.testing.assert_array_equal(np.delete(led, [2, 13]), np.delete(lead_voicing(f0), [2, 13]))
    three = lead_voicing(f0, frames=3, glide=1.0)  # a longer lead glides on, a step a frame
    np.testing.assert_allclose(three[1:4], 90 * 2 ** (-step * np.array([2, 1, 0]) / 12), rtol=1e-6)


def _harmonic_series(f0_hz: float, n_frames: int) -> np.ndarray:
    phase = 2 * np.pi * f0_hz * np.arange(n_frames * AUDIO.hop_length) / AUDIO.sample_rate
    return sum(np.cos(k * phase) for k in range(1, int(AUDIO.sample_rate / 2 / f0_hz) + 1))


def _centred_stft(x: np.ndarray, n_frames: int) -> np.ndarray:
    """(n_frames, bins): periodic-Hann frames centred on every hop, zero padding at the edges."""
    n, hop = AUDIO.n_fft, AUDIO.hop_length
    padded = np.pad(x, (n // 2, n // 2))
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)
    return np.stack([np.fft.rfft(padded[i * hop: i * hop + n] * window) for i in range(n_frames)])


@pytest.mark.parametrize("f0_hz", [57.0, 100.0, 230.0, 3 * AUDIO.sample_rate / AUDIO.n_fft])
def test_harmonic_source_is_the_stft_of_a_harmonic_series(f0_hz):
    """The closed form the vocoder's harmonic branch is fed equals the STFT of sum_k cos(k·phase), scaled so a
    harmonic's own bin is 1 (the last F0 puts every harmonic exactly on a bin: the kernel's singular points)."""
    n = 60
    ref = _centred_stft(_harmonic_series(f0_hz, n), n) / (AUDIO.n_fft / 4)
    f0 = np.full(n, f0_hz)
    real, imag = harmonic_source(f0, excitation_phase(f0))
    assert real.dtype == imag.dtype == np.float32 and real.shape == (n, AUDIO.n_fft // 2 + 1)
    inner = slice(5, n - 5)  # the edges of the reference see zero padding
    ours = real[inner] + 1j * imag[inner]
    assert np.abs(ours - ref[inner]).mean() < 0.02 * np.abs(ref[inner]).mean()
    assert np.abs(ours).max() < 1.3  # bounded: what INT8 needs


def _float32_f0_at_nyquist_edge(lowest: float = 50.0, highest: float = 300.0) -> list[np.float32]:
    """F0s (float32, as the decoder gives them) whose last harmonic below Nyquist sits so close to it that a
    bin's float32 floor(bin / spacing) rounds up past it."""
    found = []
    for n in range(int(SR / 2 / highest), int(SR / 2 / lowest)):
        centre = np.float32(SR / 2 / n)
        found += [f0 for f0 in centre + np.arange(-50, 50, dtype=np.float32) * np.spacing(centre)
                  if _rounds_past_nyquist(f0)][:1]
    return found


def _rounds_past_nyquist(f0: np.float32) -> bool:
    bins, spacing = AUDIO.n_fft // 2 + 1, float(f0) * AUDIO.n_fft / SR
    below = int((bins - 1) / spacing)  # the last harmonic below Nyquist
    return np.floor(np.float32(bins - 1) / np.float32(spacing)) > below


def test_harmonic_source_takes_an_f0_whose_last_harmonic_grazes_nyquist():
    """Such F0s (77 of the harmonic counts between 50 and 300 Hz have one, 245.00002 Hz among them) read past
    their row of harmonics: the next frame's, or on the last voiced frame an IndexError mid-synthesis."""
    edges = _float32_f0_at_nyquist_edge()
    assert len(edges) > 20
    for f0 in edges:
        last = harmonic_source(np.array([90.0, f0], np.float32), np.array([0.4, 1.3], np.float32))
        first = harmonic_source(np.array([f0, 90.0], np.float32), np.array([1.3, 0.4], np.float32))
        for a, b in zip(last, first):  # the frame's spectrum, wherever it sits in the block
            np.testing.assert_array_equal(a[1], b[0])
            assert np.abs(a[1]).max() < 1.3


def test_harmonic_source_is_silent_where_unvoiced_and_keeps_batch_shape():
    f0 = np.array([[0.0, 120.0, 0.0, 180.0]])
    real, imag = harmonic_source(f0, excitation_phase(f0[0])[None])
    assert real.shape == imag.shape == (1, 4, AUDIO.n_fft // 2 + 1)
    assert not real[0, [0, 2]].any() and not imag[0, [0, 2]].any()
    assert np.abs(real[0, 1]).max() > 0.5
    with pytest.raises(ValueError, match="differ in shape"):
        harmonic_source(f0, np.zeros(3))


def test_harmonic_source_gives_each_frame_what_it_gives_that_frame_alone_across_blocks_and_threads():
    """Windows of up to 259 spectrum frames are worked in scratch arrays of at most SOURCE_BLOCK voiced frames,
    one set per thread: no frame's spectrum depends on the others in its call, its block or another thread's."""
    from concurrent.futures import ThreadPoolExecutor

    from cantoedge.runtime.excitation import SOURCE_BLOCK

    rng = np.random.default_rng(5)
    n = 2 * SOURCE_BLOCK + 40
    f0 = np.where(rng.random(n) < 0.8, rng.uniform(50, 400, n), 0.0)
    phase = rng.uniform(0, 2 * np.pi, n)
    assert (f0 > 0).sum() > SOURCE_BLOCK
    whole = harmonic_source(f0, phase)
    alone = [harmonic_source(f0[i: i + 1], phase[i: i + 1]) for i in range(0, n, 7)]
    for k, (real, imag) in zip(range(0, n, 7), alone):
        assert real[0].tobytes() == whole[0][k].tobytes() and imag[0].tobytes() == whole[1][k].tobytes()
    with ThreadPoolExecutor(4) as pool:
        for got in pool.map(lambda m: harmonic_source(f0[:m], phase[:m]), [n, 30, n, 200, n, 5]):
            m = got[0].shape[0]
            np.testing.assert_array_equal(got[0], whole[0][:m])
            np.testing.assert_array_equal(got[1], whole[1][:m])


def test_mix_source_is_one_formula_in_numpy_and_torch():
    """The device mixes the graph's outputs with numpy exactly as training mixes them with torch."""
    import torch

    rng = np.random.default_rng(3)
    shape = (2, 5, AUDIO.n_fft // 2 + 1)
    log_magnitude = rng.normal(-2, 3, shape).astype(np.float32)  # some above the ceiling of 6
    noise_phase, share = rng.normal(0, 3, shape).astype(np.float32), rng.random(shape).astype(np.float32)
    voiced = np.array([[True, False, True, True, False]] * 2)
    source = harmonic_source(np.where(voiced, 120.0, 0.0), np.full(voiced.shape, 1.0))
    ours = mix_source(log_magnitude, noise_phase, share, voiced, *source)
    theirs = mix_source(*(torch.from_numpy(x) for x in (log_magnitude, noise_phase, share)),
                        torch.from_numpy(voiced.astype(np.float32)), *(torch.from_numpy(x) for x in source), xp=torch)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-5, atol=1e-4)
    magnitude = np.hypot(*ours)
    # unvoiced frames are pure noise: unit-modulus phase times the magnitude, capped at e^6
    np.testing.assert_allclose(magnitude[:, 1], np.exp(np.minimum(log_magnitude[:, 1], 6.0)), rtol=1e-5)


def test_the_devices_in_place_mix_gives_the_formulas_bits():
    """The device's float32 mix runs in scratch arrays; it must be the same arithmetic as the formula training
    shares, bit for bit, with and without the noise offset, and leave its outputs to the caller."""
    from cantoedge.runtime.excitation import _mix_formula

    rng = np.random.default_rng(5)
    for shape in [(131, AUDIO.n_fft // 2 + 1), (2, 5, AUDIO.n_fft // 2 + 1)]:
        log_magnitude, noise_phase, share, real, imag, offset = (
            rng.normal(-2, 3, shape).astype(np.float32) for _ in range(6))
        voiced = rng.random(shape[:-1]) > 0.3
        for noise_offset in (None, offset):
            fast = mix_source(log_magnitude, noise_phase, share, voiced, real, imag, noise_offset=noise_offset)
            plain = _mix_formula(log_magnitude, noise_phase, share, voiced, real, imag, np, noise_offset)
            for a, b in zip(fast, plain):
                np.testing.assert_array_equal(a, b)
        again = mix_source(log_magnitude, noise_phase, share, voiced, real, imag)
        assert not np.shares_memory(again[0], fast[0])  # each call's outputs are its own


def test_unvoiced_noise_phase_is_fixed_per_frame_of_the_utterance_and_never_repeats_at_the_frame_rate():
    """The phase a random-noise vocoder's unvoiced frames get on the device: zero on voiced frames, the same for
    a frame whichever window it is in, different from frame to frame (no 86 Hz buzz) and within [0, 2π)."""
    bins = AUDIO.n_fft // 2 + 1
    frames = np.arange(-10, 300)
    voiced = (frames // 40) % 2 == 1
    whole = unvoiced_noise_phase(frames, voiced, bins)
    assert whole.shape == (frames.size, bins) and whole.dtype == np.float32
    assert not whole[voiced].any()
    assert whole.min() >= 0 and whole.max() < 2 * np.pi and whole[~voiced].std() > 1.5  # uniform: std 1.81
    part = unvoiced_noise_phase(frames[100:180], voiced[100:180], bins)  # a later window's frames
    np.testing.assert_array_equal(part, whole[100:180])
    unvoiced = np.flatnonzero(~voiced)
    neighbours = np.abs(np.cos(whole[unvoiced[1:]] - whole[unvoiced[:-1]])).mean()
    assert neighbours < 0.7  # a frame repeated would give 1; independent uniform phases give 2/π = 0.64
    np.testing.assert_array_equal(unvoiced_noise_phase(np.array([3 + NOISE_TABLE_FRAMES]), [False], bins),
                                  unvoiced_noise_phase(np.array([3]), [False], bins))


def test_a_noise_offset_turns_only_the_noise_part():
    rng = np.random.default_rng(4)
    shape = (3, AUDIO.n_fft // 2 + 1)
    log_magnitude, noise_phase = rng.normal(-2, 1, shape).astype(np.float32), rng.normal(0, 3, shape).astype(np.float32)
    share = np.ones(shape, np.float32)
    voiced = np.array([True, False, True])
    source = harmonic_source(np.where(voiced, 120.0, 0.0), np.full(3, 1.0))
    offset = unvoiced_noise_phase(np.arange(3), voiced, shape[1])
    plain = mix_source(log_magnitude, noise_phase, share, voiced, *source)
    turned = mix_source(log_magnitude, noise_phase, share, voiced, *source, noise_offset=offset)
    for a, b in zip(plain, turned):
        np.testing.assert_array_equal(a[voiced], b[voiced])  # wholly harmonic frames: untouched
        assert not np.allclose(a[1], b[1])
    np.testing.assert_allclose(np.hypot(*turned)[1], np.hypot(*plain)[1], rtol=1e-5)  # the magnitude stays
