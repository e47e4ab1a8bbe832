"""The device voice: onnxruntime graphs, numpy length regulator, windows joined seamlessly."""

import shutil

import numpy as np
import pytest

from cantoedge.runtime.graphs import DECODER, ENCODER
from cantoedge.runtime.synth import Voice, length_regulate, predicted_durations


@pytest.fixture()
def voice(device_voice):
    """The default voice the package ships: these tests need no torch (a device can run them)."""
    return Voice.load(device_voice, threads=1, warmup=False, cache_bytes=0)


def test_length_regulator_matches_the_training_one():
    torch = pytest.importorskip("torch")
    from cantoedge.export.models.acoustic import length_regulate as torch_regulate

    hidden = np.random.default_rng(0).normal(size=(5, 3)).astype(np.float32)
    durations = np.array([2, 0, 3, 1, 4])
    frames, position = length_regulate(hidden, durations)
    ref_frames, ref_position, _ = torch_regulate(torch.from_numpy(hidden)[None], torch.from_numpy(durations)[None])
    np.testing.assert_array_equal(frames, ref_frames[0].numpy())
    np.testing.assert_array_equal(position, ref_position[0].numpy())


def test_predicted_durations_round_and_never_leave_an_utterance_empty():
    np.testing.assert_array_equal(predicted_durations(np.log1p(np.array([2.4, 0.2, 6.0]))), [2, 0, 6])
    np.testing.assert_array_equal(predicted_durations(np.log1p(np.array([4.0, 8.0])), speed=2.0), [2, 4])
    assert predicted_durations(np.array([-3.0, -1.0])).tolist() == [0, 1]


def test_voice_speaks_what_the_pytorch_voice_speaks(tiny_graphs, teacher_run, tiny_vocoder):
    from cantoedge.export.synth import TorchVoice

    text = "詩史試時市事，我哋今日去邊度食飯呀？" * 3  # long enough for several windows
    ours = Voice(tiny_graphs).speak(text)
    theirs = TorchVoice(teacher_run[1], tiny_vocoder).speak(text)
    np.testing.assert_array_equal(ours.durations, theirs.durations)
    assert ours.durations.sum() > 2 * 128
    # F0 agrees to ~1e-5 relative, but the excitation phase integrates it over the utterance, so harmonics
    # drift apart by a few thousandths of full scale (graph-level parity, same inputs, is 1e-4: test_onnx)
    np.testing.assert_allclose(ours.audio, theirs.audio, atol=1e-2)
    assert [r.jyutping for r in ours.alignment()][:6] == ["si1", "si2", "si3", "si4", "si5", "si6"]


def test_a_random_noise_gliding_lead_vocoder_speaks_on_the_device_what_it_speaks_in_pytorch(teacher_run, tiny_vocoder,
                                                                                               tmp_path):
    """A vocoder trained with random unvoiced noise phase and a gliding voicing lead: the device reads both from
    the graph's metadata, turns its unvoiced frames' noise by the same fixed phase as PyTorch outside training,
    leads each voiced run as PyTorch does, and a stream waits for the frame the glide needs."""
    import dataclasses

    from cantoedge.export.checkpoint import load_model, save_model
    from cantoedge.export.onnx import export_voice
    from cantoedge.export.synth import TorchVoice

    voc, meta = load_model(tiny_vocoder)
    voc.cfg = dataclasses.replace(voc.cfg, random_unvoiced_phase=True, lead_glide=1.0)
    noisy = tmp_path / "vocoder.safetensors"
    save_model(voc, noisy, "vocoder", voc.cfg.to_dict())
    export_voice(teacher_run[1], noisy, tmp_path / "graphs")
    text = "佢send咗email俾我，今晚去食飯。" * 3
    device = Voice(tmp_path / "graphs")
    assert device.random_noise and device.lead_glide == 1.0
    ours = device.speak(text)
    assert Voice(tmp_path / "graphs").speak(text).audio.tobytes() == ours.audio.tobytes()  # same text, same audio
    theirs = TorchVoice(teacher_run[1], noisy).speak(text)
    np.testing.assert_allclose(ours.audio, theirs.audio, atol=1e-2)
    learned = TorchVoice(teacher_run[1], tiny_vocoder).speak(text)
    assert np.abs(learned.audio - theirs.audio).max() > 0.05  # the flags change the unvoiced frames
    frames, position, _ = device.encode(device.frontend(text))
    streamed = np.concatenate(list(device.audio_chunks(frames, position)))
    np.testing.assert_allclose(streamed, device.vocode(*device.decode(frames, position)), atol=1e-6)


@pytest.mark.parametrize("longest", [128, 384])
def test_streamed_chunks_join_into_the_whole(voice, longest):
    voice.longest_window = longest
    frames, position, _ = voice.encode(voice.frontend("今日天氣好好，我哋去行山啦。" * 8))
    chunks = list(voice.audio_chunks(frames, position))
    planned = voice.window_chunk(frames.shape[0])
    assert len(chunks) >= 2 and all(c.size == planned * 256 for c in chunks[:-1]) and 128 <= planned <= longest
    assert sum(c.size for c in chunks) == frames.shape[0] * 256
    # each window's excitation phase, integrated over the prefix decoded so far, is the whole utterance's
    np.testing.assert_allclose(np.concatenate(chunks), voice.vocode(*voice.decode(frames, position)), atol=1e-6)


def test_the_last_window_runs_at_its_own_length_and_changes_no_sample(voice):
    """The shipped graphs take any window length, so an utterance's last window is not padded to 128 kept frames
    (a 2.5-s sentence vocoded 256 frames for its 215): less work, the same samples as the padded window."""
    assert voice.short_last and voice.vocoder.any_window_length and voice.decoder.any_window_length
    from cantoedge.runtime.backends.ort import OrtRunner

    voice.longest_window = voice.chunk  # whole windows at the graph's chunk, as TensorRT and RKNN run them

    on_gpu = OrtRunner(voice.vocoder.path, voice.vocoder.spec, threads=1, gpu=True)  # CPU here, GPU providers asked
    assert not on_gpu.any_window_length  # TensorRT's provider would build an engine for every window length
    frames, position, _ = voice.encode(voice.frontend("今日天氣好好，我哋去行山啦。"))
    c, n = voice.vocoder.info.context, frames.shape[0]
    widths = [feeds["mel"].shape[2] for feeds, _ in voice.window_inputs(frames, position)]
    assert widths == [128 + 2 * c] * (n // 128) + [n % 128 + 2 * c] and n % 128
    short = np.concatenate(list(voice.audio_chunks(frames, position)))
    with voice.whole_windows():  # as TensorRT and RKNN run it
        assert [f["mel"].shape[2] for f, _ in voice.window_inputs(frames, position)][-1] == 128 + 2 * c
        padded = np.concatenate(list(voice.audio_chunks(frames, position)))
    assert voice.short_last
    assert short.size == padded.size == n * 256
    np.testing.assert_allclose(short, padded, atol=1e-5)


def test_a_request_s_first_window_is_short_so_its_first_audio_comes_sooner_with_the_same_samples(voice):
    """Where the graphs take any length, synthesize's first window keeps FIRST_WINDOW_FRAMES (about half a whole
    window's work: in-process TTFB 7 -> 3 ms, measured); every later window is whole and the audio unchanged."""
    from cantoedge.runtime.chunks import CHUNK_FRAMES, FIRST_WINDOW_FRAMES

    text = "今日天氣好好，我哋去行山啦。食完飯先至返屋企。"
    quick = [c.audio for c in voice.synthesize(text)]
    with voice.whole_windows():
        whole = [c.audio for c in voice.synthesize(text)]
    assert quick[0].size == FIRST_WINDOW_FRAMES * 256 and whole[0].size == CHUNK_FRAMES * 256
    assert quick[1].size >= CHUNK_FRAMES * 256  # the rest of the first sentence, in windows planned for it
    a, b = np.concatenate(quick).astype(int), np.concatenate(whole).astype(int)
    assert a.size == b.size and np.abs(a - b).max() <= 1


def test_longer_windows_where_the_graphs_take_any_length_change_no_sample(voice):
    """Where the graphs take any length and one thread vocodes, a piece's whole windows are planned up to
    LONGEST_WINDOW_FRAMES: fewer windows (less context computed twice; one thread: RTF -17 % measured) with the same
    samples as windows of the graph's chunk; on fixed shapes, or with several windows at once, they stay at the
    chunk."""
    from cantoedge.runtime.chunks import LONGEST_WINDOW_FRAMES

    text = "今日天氣好好，我哋去行山啦。食完飯先至返屋企，聽日再去飲茶。" * 3
    frames, position, _ = voice.encode(voice.frontend(text))
    n = frames.shape[0]
    assert voice.longest_window == LONGEST_WINDOW_FRAMES and n > 2 * LONGEST_WINDOW_FRAMES
    planned = [f["mel"].shape[2] for f, _ in voice.window_inputs(frames, position)]
    long = voice.speak(text).audio
    voice.longest_window = voice.chunk
    at_chunk = [f["mel"].shape[2] for f, _ in voice.window_inputs(frames, position)]
    assert len(planned) == -(-n // LONGEST_WINDOW_FRAMES) < len(at_chunk) == -(-n // voice.chunk)
    np.testing.assert_allclose(long, voice.speak(text).audio, atol=1e-5)
    voice.longest_window = LONGEST_WINDOW_FRAMES
    with voice.whole_windows():  # fixed shapes: the graph's chunk whatever the planning allows
        assert {f["mel"].shape[2] for f, _ in voice.window_inputs(frames, position)} == {at_chunk[0]}
    voice.workers = 2  # two windows at once: the graph's chunk (the longer ones cost more memory than the margin)
    assert [w.keep for w in voice.vocoder_windows(300)] == [128, 128, 44]


def test_missing_mismatched_and_corrupt_graphs_are_clear_errors(tiny_graphs, tmp_path):
    with pytest.raises(FileNotFoundError, match="cantoedge export"):
        Voice(tmp_path)
    with pytest.raises(ValueError, match="precision"):
        Voice(tiny_graphs, precision="fp16")
    mixed = tmp_path / "mixed"
    shutil.copytree(tiny_graphs, mixed)
    shutil.copy(tiny_graphs / DECODER.filename(), mixed / ENCODER.filename())
    with pytest.raises(ValueError, match="decoder graph, expected the encoder"):
        Voice(mixed)
    (mixed / ENCODER.filename()).write_bytes((tiny_graphs / ENCODER.filename()).read_bytes()[:5000])
    with pytest.raises(ValueError, match="not a loadable ONNX graph"):
        Voice(mixed)


def test_text_longer_than_the_encoder_takes_is_spoken_piece_by_piece(voice):
    assert voice.max_tokens == 1024  # the acoustic config's position table
    voice.max_tokens = 40  # a short table, so that a short text needs several pieces
    speech = voice.speak("今日天氣好好，我哋去飲茶啦。" * 4)
    assert len(speech.g2p.tokens) > 2 * 40
    assert speech.durations.shape == (len(speech.g2p.tokens),)
    assert speech.audio.size == speech.durations.sum() * 256 and np.isfinite(speech.audio).all()
    assert len(speech.alignment()) == len(speech.g2p.jyutping)
    with pytest.raises(ValueError, match="at most 40"):
        voice.encode_tokens(np.ones(41, np.int64), np.ones(41, np.int64))


def test_speech_is_soft_limited_never_hard_clipped(voice, monkeypatch):
    from cantoedge.runtime.audio import LIMIT_CEILING

    monkeypatch.setattr(voice, "vocode_window", lambda feeds, w: np.full(w.keep * 256, 3.0, np.float32))
    audio = voice.speak("你好").audio
    assert np.abs(audio).max() <= np.float32(LIMIT_CEILING)  # the ceiling as float32 audio holds it


@pytest.mark.parametrize("speed", [0.0, -1.0, 100.0, float("nan"), float("inf")])
def test_the_python_api_checks_speed_too(voice, speed):
    with pytest.raises(ValueError, match="speed must be within"):
        voice.speak("你好", speed)
