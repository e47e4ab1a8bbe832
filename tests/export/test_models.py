"""The models' contracts: shapes, sizes, and chunked decoding/vocoding equal to whole utterances."""

import dataclasses

import numpy as np
import pytest
import torch

from cantoedge.export.chunked import decode_chunked, vocode_chunked
from cantoedge.export.models.acoustic import (
    AcousticConfig,
    AcousticModel,
    count_parameters,
    frame_f0,
    frame_token_index,
    length_regulate,
)
from cantoedge.export.models.vocoder import Vocoder, VocoderConfig
from cantoedge.regression.pitch import yin
from cantoedge.runtime.audio import stft_magnitude
from cantoedge.runtime.chunks import windows
from cantoedge.runtime.excitation import excitation_phase, vocoder_pitch

TINY = AcousticConfig(dim=32, heads=2, enc_layers=2, ff_hidden=64, dec_dim=32, dec_layers=3, dec_hidden=64,
                      predictor_hidden=32, dropout=0.0, frame_pitch=True)
TINY_VOC = VocoderConfig(dim=32, hidden=64, layers=3, harmonics=True)
SR, N_FFT, HOP = 22050, 1024, 256


def test_length_regulator_expands_and_marks_position():
    hidden = torch.arange(6, dtype=torch.float32).reshape(1, 3, 2)
    frames, position, n = length_regulate(hidden, torch.tensor([[2, 0, 3]]))
    assert n.tolist() == [5]
    assert frames[0, :, 0].tolist() == [0, 0, 4, 4, 4]
    assert position[0].tolist() == pytest.approx([0, 0.5, 0, 1 / 3, 2 / 3])


def test_frame_token_index_follows_durations_and_stops_at_the_end():
    index = frame_token_index(torch.tensor([[2, 0, 3], [1, 1, 0]]), 6)
    assert index.tolist() == [[0, 0, 2, 2, 2, 0], [0, 1, 0, 0, 0, 0]]


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
    assert out["frame_pitch"].shape == (2, 2, 17)
    said = model.speak(tokens[0], tones[0])
    assert said["mel"].shape == (80, int(said["durations"].sum())) and said["f0"].shape == (said["mel"].shape[1],)
    assert ((said["f0"] == 0) | (said["f0"] > 20)).all()  # Hz where voiced, 0 where not


def test_stage_one_models_draw_the_same_weights_without_their_pitch_layers():
    """A stage-2 config adds layers last, so stage 1 (without them) trains exactly as it did before."""
    from dataclasses import replace

    for make, cfg, flag in ((AcousticModel, TINY, "frame_pitch"), (Vocoder, TINY_VOC, "harmonics")):
        torch.manual_seed(3)
        with_layers = make(cfg).state_dict()
        torch.manual_seed(3)
        without = make(replace(cfg, **{flag: False})).state_dict()
        assert set(without) < set(with_layers)
        for key, value in without.items():
            torch.testing.assert_close(with_layers[key], value, rtol=0, atol=0, msg=key)


def test_a_decoder_with_position_powers_starts_from_a_narrower_one_as_the_same_function():
    """The contour stage widens the decoder's input (position, position², position³): the earlier stage's
    weights load with zero columns for the new powers, and the model says exactly what it said before."""
    from dataclasses import replace

    from cantoedge.export.train import _widened

    torch.manual_seed(5)
    narrow = AcousticModel(TINY).eval()
    wide = AcousticModel(replace(TINY, position_powers=3)).eval()
    assert wide.decoder.in_proj.weight.shape[1] == narrow.decoder.in_proj.weight.shape[1] + 2
    wide.load_state_dict(_widened(narrow.state_dict(), wide.state_dict()))
    frames, position = torch.randn(1, 40, TINY.dim), torch.rand(1, 40)
    with torch.no_grad():
        for a, b in zip(narrow.decoder(frames, position), wide.decoder(frames, position)):
            torch.testing.assert_close(a, b, rtol=0, atol=1e-6)
        wide.decoder.in_proj.weight[:, -1] += 1.0  # the cube of position now counts
        assert not torch.allclose(narrow.decoder(frames, position)[1], wide.decoder(frames, position)[1])


def test_a_slimmer_vocoder_starts_from_its_wider_stage_keeping_each_blocks_strongest_units():
    """The slim vocoder stage halves every block's hidden units: it keeps the units that carry the most
    (|pw1 row| · |pw2 column|), so units that do nothing are dropped without changing the output at all, and
    the choice is the same on every run."""
    from dataclasses import replace

    from cantoedge.export.train import _narrowed

    cfg = VocoderConfig(dim=16, hidden=12, layers=2, kernel=3, harmonics=True)
    torch.manual_seed(6)
    wide = Vocoder(cfg).eval()
    dead = torch.tensor([1, 4, 5, 8, 10, 11])  # six of each block's twelve units silenced on the way out
    with torch.no_grad():
        for block in wide.blocks:
            block.pw2.weight[:, dead] = 0.0
            block.gamma.fill_(0.5)
    slim = Vocoder(replace(cfg, hidden=6)).eval()
    state = _narrowed(wide.state_dict(), slim.state_dict())
    slim.load_state_dict(state)
    assert torch.equal(state["blocks.0.pw1.weight"], wide.blocks[0].pw1.weight[[0, 2, 3, 6, 7, 9]])
    mel, f0 = torch.randn(1, cfg.n_mels, 20), torch.full((1, 20), 120.0)
    with torch.no_grad():
        torch.testing.assert_close(slim.trunk(mel, f0), wide.trunk(mel, f0), rtol=0, atol=1e-6)
    again = _narrowed(wide.state_dict(), slim.state_dict())
    assert all(torch.equal(again[k], v) for k, v in state.items())
    same_width = _narrowed(wide.state_dict(), wide.state_dict())
    assert all(torch.equal(same_width[k], v) for k, v in wide.state_dict().items())


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
        short = list(windows(n, 5, short_last=True))  # graphs with a dynamic frame axis: the last one is cut
        assert short[:-1] == ws[:-1] and short[-1].keep == ws[-1].keep and short[-1].start == ws[-1].start
        assert short[-1].stop == n and short[-1].pad_right == 5 and short[-1].size == short[-1].keep + 10


@pytest.mark.parametrize("n_frames", [40, 300])
def test_chunked_decoding_equals_whole(n_frames):
    torch.manual_seed(1)
    model = AcousticModel(TINY).eval()
    frames, position = torch.randn(n_frames, 32), torch.rand(n_frames)
    with torch.no_grad():
        whole, pitch = model.decoder(frames[None], position[None])
    mel, f0 = decode_chunked(model.decoder, frames, position)
    np.testing.assert_allclose(mel.numpy(), whole[0].numpy(), atol=1e-4)
    np.testing.assert_allclose(f0.numpy(), frame_f0(pitch[0]).numpy(), rtol=1e-5)


@pytest.mark.parametrize("random_phase", [False, True])
@pytest.mark.parametrize("n_frames", [50, 300])
def test_chunked_vocoding_is_seamless(n_frames, random_phase):
    """Also with random unvoiced noise phase: each frame reads its phase by its place in the utterance."""
    torch.manual_seed(2)
    voc = Vocoder(dataclasses.replace(TINY_VOC, random_unvoiced_phase=random_phase)).eval()
    for p in voc.parameters():
        p.data += 0.05 * torch.randn_like(p)  # untrained but not trivial
    mel = torch.randn(80, n_frames) - 4
    f0 = torch.where(torch.rand(n_frames) < 0.7, 80 + 40 * torch.rand(n_frames), torch.zeros(n_frames))
    pitch, phase = (torch.from_numpy(x) for x in vocoder_pitch(f0.numpy()))
    with torch.no_grad():
        whole = voc(mel[None], pitch[None], phase[None])[0]
    chunked = vocode_chunked(voc, mel, f0)
    assert chunked.shape == whole.shape == (n_frames * 256,)
    np.testing.assert_allclose(chunked.numpy(), whole.numpy(), atol=1e-4 * float(whole.abs().max()) + 1e-6)


def test_random_unvoiced_phase_is_fresh_in_training_fixed_otherwise_and_needs_harmonics():
    torch.manual_seed(3)
    voc = Vocoder(dataclasses.replace(TINY_VOC, random_unvoiced_phase=True))
    mel = torch.randn(1, 80, 40) - 4
    f0 = torch.where(torch.arange(40) < 20, 110.0, 0.0)[None]
    phase = torch.from_numpy(vocoder_pitch(f0[0].numpy())[1])[None]
    voc.train()
    a, b = (voc.spectrum(mel, f0, phase)[0] for _ in range(2))
    assert not torch.allclose(a[:, 25:], b[:, 25:])  # unvoiced: a new phase each step
    voc.eval()
    with torch.no_grad():
        a, b = (voc.spectrum(mel, f0, phase)[0] for _ in range(2))
    torch.testing.assert_close(a, b)
    with pytest.raises(ValueError, match="needs harmonics"):
        Vocoder(VocoderConfig(dim=32, hidden=64, layers=3, random_unvoiced_phase=True))


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


def test_the_harmonic_branch_alone_sings_the_f0_it_is_given():
    """With every bin harmonic, a steady F0 comes back out of the vocoder as that pitch (YIN)."""
    voc = Vocoder(TINY_VOC).eval()
    with torch.no_grad():
        voc.head.weight.zero_()
        voc.head.bias.fill_(-2.0)
        voc.harmonic_head.weight.zero_()
        voc.harmonic_head.bias.fill_(20.0)
    n = 80
    f0 = torch.full((n,), 120.0)
    with torch.no_grad():
        audio = voc(torch.full((1, 80, n), -4.0), f0[None], torch.from_numpy(excitation_phase(f0.numpy()))[None])[0]
    track, voiced = yin(audio.numpy())
    assert voiced.mean() > 0.8
    assert np.median(track[voiced]) == pytest.approx(120.0, rel=0.02)
