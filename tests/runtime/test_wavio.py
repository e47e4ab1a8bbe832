import numpy as np
import pytest

from cantoedge.runtime.wavio import read_wav, write_wav


def test_wav_round_trip(tmp_path):
    audio = 0.5 * np.sin(np.linspace(0, 100, 4000)).astype(np.float32)
    write_wav(tmp_path / "a.wav", audio, 22050)
    back, rate = read_wav(tmp_path / "a.wav")
    assert rate == 22050
    np.testing.assert_allclose(back, audio, atol=1 / 16000)
    assert not list(tmp_path.glob("*.tmp"))


def test_not_a_wav_is_a_clear_error(tmp_path):
    (tmp_path / "x.wav").write_bytes(b"not a wav at all")
    with pytest.raises(ValueError, match="not a PCM WAV"):
        read_wav(tmp_path / "x.wav")
