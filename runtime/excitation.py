"""The pitch the vocoder's harmonic branch is driven by: per-frame F0 (Hz, 0 where unvoiced) and the
fundamental's phase at each frame centre, integrated from the utterance start so that windows vocoded
one at a time continue each other's waveform (numpy only: the device computes it between graphs)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .audio import AUDIO
from .scratch import scratch

# Frames of voicing before each voiced run: F0 tracks (YIN, as the corpus's) call a frame voiced only once
# their left-heavy window is periodic, so the waveform must be periodic about two frames earlier than the
# first voiced frame for the track to find it again (measured: 60 % of voiced frames recovered without the
# lead, 97 % with two frames, 97 % with three but twice the false voicing).
VOICING_LEAD = 2


def voiced_f0(f0: np.ndarray, voiced: np.ndarray) -> np.ndarray:
    """F0 in Hz on voiced frames and 0 elsewhere: the vocoder's pitch input."""
    return np.where(voiced, f0, 0.0).astype(np.float32)


def excitation_phase(f0: np.ndarray, hop: int = AUDIO.hop_length, sample_rate: int = AUDIO.sample_rate) -> np.ndarray:
    """(T,) F0 in Hz -> (T,) phase in [0, 2π) at each frame centre: the trapezoid integral of F0 between
    centres, in float64 so a long utterance's last window is as exact as its first."""
    f = np.asarray(f0, dtype=np.float64)
    if f.ndim != 1:
        raise ValueError(f"f0 must be one track (T,), got shape {f.shape}")
    steps = np.pi * hop / sample_rate * (f[:-1] + f[1:])
    phase = np.concatenate([np.zeros(min(f.size, 1)), np.cumsum(steps)])
    return np.mod(phase, 2 * np.pi).astype(np.float32)


def lead_voicing(f0: np.ndarray, frames: int = VOICING_LEAD, glide: float = 0.0) -> np.ndarray:
    """F0 (T,) with the ``frames`` unvoiced frames before each voiced run voiced too, at the run's first value.
    With ``glide`` > 0 the lead frames before the one next to the run continue the run's first step back in time,
    log-linearly, at most ``glide`` semitones a frame, so that a tracker that hears them hears the run's glide
    rather than a flat shelf; the frame next to the run holds, so that YIN's left-heavy window over the run's
    first frame stays periodic and YIN still calls it voiced (gliding that frame too lost it)."""
    f = np.asarray(f0, dtype=np.float32)
    out = f.copy()
    if glide > 0:
        step = np.zeros(f.size, np.float32)  # at each voiced frame, the step to the next one (semitones, clipped)
        after = _shifted(f, 1)
        both = (f > 0) & (after > 0)
        step[both] = np.clip(12 * np.log2(after[both] / f[both]), -glide, glide)
    quiet_between = np.ones(f.size, bool)  # frames t+1 .. t+j-1 all unvoiced
    for j in range(1, frames + 1):
        ahead = _shifted(f, j)  # a voiced frame here starts a run, j frames ahead
        take = (out == 0) & quiet_between & (ahead > 0)
        value = ahead[take]
        if glide > 0 and j > 1:  # the run's first step, continued back; the frame next to the run holds
            value = value * np.exp2(-(j - 1) * _shifted(step, j)[take] / 12).astype(np.float32)
        out[take] = value
        quiet_between &= ahead == 0
    return out


def _shifted(f: np.ndarray, j: int) -> np.ndarray:
    """f moved ``j`` frames earlier, zeros after its end."""
    ahead = np.zeros(f.size, np.float32)
    ahead[: max(f.size - j, 0)] = f[j:]
    return ahead


def pitch_lookahead(glide: float = 0.0) -> int:
    """Frames after a frame that its vocoder pitch depends on: the lead, and the run's second frame when the
    lead glides (what a streamed window waits for)."""
    return VOICING_LEAD + (1 if glide > 0 else 0)


def vocoder_pitch(f0: np.ndarray, glide: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The decoder's F0 (T,) -> the vocoder's f0 and phase inputs (T,) for the whole utterance; a prefix of
    ``n`` frames gives the same values over its first ``n - pitch_lookahead(glide)`` frames (what streaming
    needs). ``glide``: the vocoder's ``lead_glide``, as it was trained."""
    led = lead_voicing(f0, glide=glide)
    return led, excitation_phase(led)



# The harmonic source's temporaries, one set per thread (runtime/scratch.py), at most SOURCE_BLOCK voiced frames
# long: freshly allocated for a whole window (frames x 513 float32, 0.3 MB each) they page-faulted new
# mappings on every call (measured here: 4.7 ms a window instead of 1.4), which blocks of 16 frames avoided at the
# price of a numpy call per block for every step (with these: 0.78 -> 0.64 ms a 128-frame window, 1.70 -> 1.29
# for 256 frames, the same bytes out; 128 rows a block gained 0.1 ms more for 1 MB more per thread).
SOURCE_BLOCK = 64


def harmonic_source(f0: np.ndarray, phase: np.ndarray, n_fft: int = AUDIO.n_fft,
                    sample_rate: int = AUDIO.sample_rate) -> tuple[np.ndarray, np.ndarray]:
    """f0 (..., T) in Hz (0: unvoiced) and the fundamental's phase (..., T) at each frame centre -> real and
    imaginary parts (..., T, bins), float32, of the centred Hann-windowed STFT of sum_k cos(k·phase) below
    Nyquist, scaled so that a steady harmonic's own bin is 1 (bounded, so that it quantises).

    Each bin takes its two nearest harmonics k (the window's main lobe is 4 bins wide; harmonics of 50 Hz and
    up are at least 2.3 bins apart) through the window kernel sin(πd) / (πd(1 - d²)) at d = bin - k·spacing,
    with phase k·phase - π·bin. Computed between graphs on the device: as graph arithmetic the phase ×
    harmonic-index products (up to 1,400 radians) do not survive INT8, so e^{ik·phase} is a float64
    running product here."""
    f0 = np.asarray(f0, dtype=np.float64)
    phase = np.asarray(phase, dtype=np.float64)
    if f0.shape != phase.shape:
        raise ValueError(f"f0 and phase differ in shape: {f0.shape} vs {phase.shape}")
    bins = n_fft // 2 + 1
    flat_f0, flat_phase = f0.reshape(-1), phase.reshape(-1)
    real = np.zeros((flat_f0.size, bins), np.float32)
    imag = np.zeros((flat_f0.size, bins), np.float32)
    voiced = np.flatnonzero(flat_f0 > 0)
    for first in range(0, voiced.size, SOURCE_BLOCK):
        rows = voiced[first: first + SOURCE_BLOCK]
        spectra = _harmonic_rows(flat_f0[rows] * (n_fft / sample_rate), flat_phase[rows], bins)
        real[rows], imag[rows] = spectra.real, spectra.imag
    return real.reshape(f0.shape + (bins,)), imag.reshape(f0.shape + (bins,))


def _harmonic_rows(spacing: np.ndarray, phase: np.ndarray, bins: int) -> np.ndarray:
    """Voiced frames' harmonic spacing (bins) and phase (R,) -> their source spectra (R, bins) complex64, in this
    thread's scratch arrays (valid until its next call)."""
    nyquist = (bins - 1) / spacing
    # harmonics 0 .. the last below Nyquist, then two zero ones: the bins' float32 floor(bin / spacing) can
    # round up to the first harmonic past Nyquist, whose neighbour above (shift 1) must still be in this row
    # (with one, such an F0 read the next row's zero harmonic or, on the last row, raised IndexError)
    top = int(nyquist.max()) + 3
    step = np.repeat(np.exp(1j * phase)[:, None], top, axis=1)
    step[:, 0] = 1.0
    harmonic = np.cumprod(step, axis=1)  # e^{ik·phase}, k = 0 .. top - 1
    harmonic[:, 0] = 0.0
    harmonic[np.arange(top) >= nyquist[:, None]] = 0.0
    table = harmonic.astype(np.complex64).ravel()
    s = spacing.astype(np.float32)[:, None]
    b = np.arange(bins, dtype=np.float32)
    shape = (spacing.size, bins)
    d = scratch("excitation.d", shape, np.float32)
    np.floor(np.divide(b, s, out=d), out=d)  # the harmonic below each bin
    index = scratch("excitation.index", shape, np.int32)
    np.copyto(index, d, casting="unsafe")
    index += (np.arange(spacing.size, dtype=np.int32) * top)[:, None]
    np.subtract(b, np.multiply(d, s, out=d), out=d)  # distance to it, then (shift 1) to the one above
    den, gain = scratch("excitation.den", shape, np.float32), scratch("excitation.gain", shape, np.float32)
    small = scratch("excitation.small", shape, np.bool_)
    acc, term = scratch("excitation.acc", shape, np.complex64), scratch("excitation.term", shape, np.complex64)
    pi = np.float32(np.pi)
    for shift in (0, 1):
        if shift:
            d -= s
            index += 1
        np.multiply(d, d, out=den)
        np.subtract(1, den, out=den)
        den *= d
        den *= pi
        # the removable singularities at d = 0 and ±1, where the kernel is 1 and 1/2 (within 1e-4 of the
        # limit inside this band; outside it float32 keeps 1e-4 too)
        np.less(np.abs(den, out=gain), 1e-3, out=small)
        np.sin(np.multiply(pi, d, out=gain), out=gain)
        singular = small.any()
        if singular:
            den[small] = 1.0
        np.divide(gain, den, out=gain)
        if singular:
            gain[small] = np.where(np.abs(d[small]) < 0.5, 1.0, 0.5)
        out = acc if shift == 0 else term
        # every index lies inside its row (top, above), so nothing is clipped; the default mode ("raise")
        # buffers ``out``: 0.5 ms more for a 186-frame window here (1.9 against 1.4)
        np.take(table, index, out=out, mode="clip")
        out *= gain
    acc += term
    acc[:, 1::2] *= -1  # the frame starts n_fft/2 before its centre: phase - π·bin
    return acc


MAX_LOG_MAGNITUDE = 6.0  # the vocoder's log-magnitude ceiling (e^6 ≈ 400)

# Vocoders trained with random noise phase on unvoiced frames (VocoderConfig.random_unvoiced_phase) get, outside
# training, a fixed pseudo-random phase per frame and bin: noise that never repeats at the frame rate (a learned
# phase repeated every hop over steady unvoiced sounds, an 86 Hz buzz that pitch trackers and listeners hear),
# yet the same audio from the same text. Indexed by the frame's place in the utterance, so windows agree.
NOISE_TABLE_FRAMES = 512  # the pattern repeats every 5.9 s: far below any audible pitch
NOISE_TABLE_SEED = 86


@lru_cache(maxsize=2)
def _noise_table(bins: int) -> np.ndarray:
    return np.random.default_rng(NOISE_TABLE_SEED).uniform(0, 2 * np.pi, (NOISE_TABLE_FRAMES, bins)).astype(np.float32)


def unvoiced_noise_phase(frames: np.ndarray, voiced: np.ndarray, bins: int) -> np.ndarray:
    """(T, bins) phase added to the noise part of frames (T,) (their index in the utterance), zero on the
    voiced (T,) ones, for a vocoder trained with random unvoiced noise phase."""
    table = _noise_table(bins)[np.mod(np.asarray(frames), NOISE_TABLE_FRAMES)]
    return table * ~np.asarray(voiced, bool)[:, None]


def mix_source(log_magnitude, noise_phase, share, voiced, source_real, source_imag, xp=np, noise_offset=None):
    """The vocoder's spectrum (real, imaginary) from its graph's outputs (..., T, bins) — log-magnitude, the
    phase of the noise part, the harmonic share of each bin — with the harmonic source (..., T, bins) on the
    voiced (..., T) frames. ``xp``: numpy on the device, torch in training, so the two are one formula.
    ``noise_offset`` (..., T, bins): added to the noise phase (``unvoiced_noise_phase``)."""
    arrays = (log_magnitude, noise_phase, share, source_real, source_imag, noise_offset)
    if xp is np and all(a is None or (isinstance(a, np.ndarray) and a.dtype == np.float32) for a in arrays):
        return _mix_in_place(log_magnitude, noise_phase, share, voiced, source_real, source_imag, noise_offset)
    return _mix_formula(log_magnitude, noise_phase, share, voiced, source_real, source_imag, xp, noise_offset)


def _mix_formula(log_magnitude, noise_phase, share, voiced, source_real, source_imag, xp, noise_offset):
    magnitude = xp.exp(log_magnitude.clip(max=MAX_LOG_MAGNITUDE))
    if noise_offset is not None:
        noise_phase = noise_phase + noise_offset
    share = share * voiced[..., None]
    real = share * source_real + (1 - share) * xp.cos(noise_phase)
    imag = share * source_imag + (1 - share) * xp.sin(noise_phase)
    return magnitude * real, magnitude * imag


def _mix_in_place(log_magnitude, noise_phase, share, voiced, source_real, source_imag, noise_offset):
    """``_mix_formula`` for the device's float32 numpy arrays, the same operations in the same order (the same
    bits, tested) in this thread's scratch arrays: the formula allocates ten fresh (T, bins) temporaries on
    every window (0.87 ms a 131-frame window in a micro-benchmark here, against 0.26 in place)."""
    shape = log_magnitude.shape
    magnitude, phase, voiced_share, rest, term = (scratch(f"mix.{name}", shape, np.float32)
                                                  for name in ("magnitude", "phase", "share", "rest", "term"))
    np.exp(np.minimum(log_magnitude, np.float32(MAX_LOG_MAGNITUDE), out=magnitude), out=magnitude)
    if noise_offset is not None:
        np.add(noise_phase, noise_offset, out=phase)
    else:
        np.copyto(phase, noise_phase)
    np.multiply(share, np.asarray(voiced)[..., None], out=voiced_share)
    np.subtract(np.float32(1), voiced_share, out=rest)
    out = []
    for source, wave in ((source_real, np.cos), (source_imag, np.sin)):
        part = np.multiply(voiced_share, source)
        part += np.multiply(rest, wave(phase, out=term), out=term)
        part *= magnitude
        out.append(part)
    return out[0], out[1]
