"""16-bit PCM WAV files through the standard library (no soundfile on the device)."""

from __future__ import annotations

import io
import wave
from pathlib import Path

import numpy as np

from .fileio import atomic_write


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """(float32 mono samples in [-1, 1], sample rate); multi-channel files are averaged."""
    try:
        with wave.open(str(path), "rb") as wf:
            if wf.getsampwidth() != 2:
                raise ValueError(f"{path}: only 16-bit PCM WAV is supported (got {8 * wf.getsampwidth()}-bit)")
            rate, channels = wf.getframerate(), wf.getnchannels()
            data = np.frombuffer(wf.readframes(wf.getnframes()), dtype="<i2")
    except wave.Error as exc:
        raise ValueError(f"{path}: not a PCM WAV file ({exc})") from exc
    audio = data.reshape(-1, channels).mean(axis=1) if channels > 1 else data
    return (audio.astype(np.float32) / 32768.0), rate


def pcm16(audio: np.ndarray) -> np.ndarray:
    """Float samples to int16, clipped (int16 input passes through)."""
    audio = np.asarray(audio)
    if audio.dtype == np.int16:
        return audio
    return np.clip(np.rint(audio * 32767.0), -32768, 32767).astype(np.int16)


def wav_bytes(audio: np.ndarray, sample_rate: int) -> bytes:
    """A whole mono 16-bit PCM WAV file in memory (for stdout, HTTP bodies, or a temp file)."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as wf:
        wf.setnchannels(1)
        wf.setsampwidth(2)
        wf.setframerate(int(sample_rate))
        wf.writeframes(pcm16(audio).astype("<i2").tobytes())
    return buf.getvalue()


def write_wav(path: str | Path, audio: np.ndarray, sample_rate: int) -> None:
    """Write mono 16-bit PCM atomically (a reader never sees half a file)."""
    data = wav_bytes(audio, sample_rate)
    atomic_write(Path(path), lambda tmp: Path(tmp).write_bytes(data))


def write_wav_stream(path: str | Path, chunks, sample_rate: int) -> int:
    """Write int16 (or float) chunks to a WAV file as they arrive, so a long text never sits in memory whole
    (the wave module fixes the header's sizes on close); returns the number of samples written."""
    count = 0
    with wave.open(str(path), "wb") as wf:
        wf.setnchannels(1)
        wf.setsampwidth(2)
        wf.setframerate(int(sample_rate))
        for chunk in chunks:
            samples = pcm16(chunk)
            wf.writeframes(samples.astype("<i2").tobytes())
            count += samples.size
    return count
