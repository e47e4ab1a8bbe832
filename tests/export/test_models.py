"""The models' contracts: shapes, sizes, and chunked decoding/vocoding equal to whole utterances."""

import numpy as np
import pytest
import torch

from cantoedge.export.chunked import decode_chunked, vocode_chunked
from cantoedge.export.models.acoustic import AcousticConfig, AcousticModel, count_parameters, length_regulate
from cantoedge.export.models.vocoder import Vocoder, VocoderConfig
from cantoedge.runtime.audio import stft_magnitude
from cantoedge.runtime.chunks import windows

TINY = AcousticConfig(dim=32, heads=2, enc_layers=2, ff_hidden=64, dec_dim=32, dec_layers=3, dec_hidden=64,
                      predictor_hidden=32, dropout=0.0)
TINY_VOC = VocoderConfig(dim=32, hidden=64, layers=3)


def test_length_regulator_expands_and_marks_position():
    hidden = torch.arange(6, dtype=torch.float32).reshape(1, 3, 2)
    frames, position, n = length_regulate(hidden, torch.tensor([[2, 0, 3]]))
    assert n.tolist() == [5]
    assert frames[0, :, 0].tolist() == [0, 0, 4, 4, 4]
    assert position[0].tolist() == pytest.approx([0, 0.5, 0, 1 / 3, 2 / 3])


def test_acoustic_model_shapes_and_padding_independence():
    torch.manual_seed(0)
    model = AcousticModel(TINY).eval()
    tokens = torch.tensor([[1, 20, 35, 22, 52, 3], [1, 20, 35, 3, 0, 0]])
    tones = torch.tensor([[0, 3, 3, 4, 4, 0], [0, 3, 3, 0, 0, 0]])
    pad = tokens == 0
    durations = torch.tensor([[2, 3, 4, 1, 5, 2], [2, 3, 4, 2, 0, 0]])
    with torch.no_grad():
        out = model(tokens, tones, pad, durations)
        alone = model(tokens[1:, :4], tones[1:, :4], pad[1:, :4], durations[1:, :4])
    assert out["mel"].shape == (2, 80, 17) and out["log_dur"].shape == (2, 6)
    np.testing.assert_allclose(out["mel"][1, :, :11], alone["mel"][0], atol=1e-5)  # padding does not leak
    mel, dur = model.infer(tokens[0], tones[0])
    assert mel.shape == (80, int(dur.sum()))


def test_student_is_at_most_an_eighth_of_the_teacher():
    from cantoedge.export.config import load_config

    teacher = count_parameters(AcousticModel(load_config("teacher").model))
    student = count_parameters(AcousticModel(load_config("student").model))
    vocoder = count_parameters(Vocoder(load_config("vocoder").model))
    assert 2_000_000 < teacher < 8_000_000
    assert student * 8 <= teacher
    assert vocoder <= 1_500_000


def test_windows_cover_every_frame_once():
    for n in (1, 127, 128, 129, 300):
        ws = list(windows(n, 5))
        assert sum(w.keep for w in ws) == n and all(w.size == 128 + 10 for w in ws)


@pytest.mark.parametrize("n_frames", [40, 300])
def test_chunked_decoding_equals_whole(n_frames):
    torch.manual_seed(1)
    model = AcousticModel(TINY).eval()
    frames, position = torch.randn(n_frames, 32), torch.rand(n_frames)
    whole = model.decoder(frames[None], position[None])[0]
    chunked = decode_chunked(model.decoder, frames, position)
    np.testing.assert_allclose(chunked.numpy(), whole.detach().numpy(), atol=1e-4)


@pytest.mark.parametrize("n_frames", [50, 300])
def test_chunked_vocoding_is_seamless(n_frames):
    torch.manual_seed(2)
    voc = Vocoder(TINY_VOC).eval()
    for p in voc.parameters():
        p.data += 0.05 * torch.randn_like(p)  # untrained but not trivial
    mel = torch.randn(80, n_frames) - 4
    with torch.no_grad():
        whole = voc(mel[None])[0]
    chunked = vocode_chunked(voc, mel)
    assert chunked.shape == whole.shape == (n_frames * 256,)
    np.testing.assert_allclose(chunked.numpy(), whole.numpy(), atol=1e-4 * float(whole.abs().max()) + 1e-6)


def test_vocoder_istft_inverts_the_analysis():
    voc = Vocoder(TINY_VOC)
    x = torch.randn(8000)
    spec = torch.stft(x, 1024, 256, 1024, torch.hann_window(1024), center=True, pad_mode="reflect",
                      return_complex=True).T[None]
    t = spec.shape[1]
    audio = voc.istft(spec.real, spec.imag)[0]
    assert audio.shape == (t * 256,)
    n = min(audio.numel(), x.numel())
    np.testing.assert_allclose(audio[1024: n - 1024].numpy(), x[1024: n - 1024].numpy(), atol=1e-4)
    assert stft_magnitude(x.numpy()).shape[1] == t
