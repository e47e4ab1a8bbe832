"""The Python API: Voice.load(), synthesize() streaming AudioChunks with syllable timings, synthesize_wav(),
SynthesisConfig (speed, pitch shift, volume) and the phrase cache. On the bundled INT8 voice."""

import io
import wave

import numpy as np
import pytest

from cantoedge.regression.pitch import yin
from cantoedge.runtime.speech import AudioChunk, PhraseCache, SynthesisConfig
from cantoedge.runtime.synth import Voice

TEXT = "今日天氣好好。我哋去飲茶啦！你想食乜嘢？"


@pytest.fixture(scope="module")
def voice():
    return Voice.load(threads=1)  # the bundled default voice, warmed up


def test_chunks_stream_sentence_by_sentence_with_every_syllable_timed_once(voice):
    chunks = list(voice.synthesize(TEXT))
    assert len(chunks) >= 3 and all(isinstance(c, AudioChunk) and c.audio.dtype == np.int16 for c in chunks)
    starts = [c.start for c in chunks]
    assert starts[0] == 0 and all(abs(b - (a + c.duration)) < 1e-9 for a, b, c in zip(starts, starts[1:], chunks))
    syllables = [s for c in chunks for s in c.syllables]
    assert [s.jyutping for s in syllables] == voice.frontend(TEXT).jyutping
    assert all(c.start <= s.start < c.start + c.duration for c in chunks for s in c.syllables)
    assert all(a.end <= b.start + 1e-9 for a, b in zip(syllables, syllables[1:]))


def test_one_sentence_streams_exactly_what_speak_says(voice):
    text = "今日天氣好好，我哋去飲茶啦。"
    streamed = np.concatenate([c.audio for c in voice.synthesize(text)])
    np.testing.assert_array_equal(streamed, (np.clip(np.rint(voice.speak(text).audio * 32767), -32768, 32767)
                                             .astype(np.int16)))


@pytest.mark.parametrize("shift", [-4.0, 4.0, 7.0])
def test_pitch_shift_moves_the_voice_by_that_many_semitones(voice, shift):
    def track(config):
        audio = np.concatenate([c.audio for c in voice.synthesize("詩史試時市事。", config)]) / 32768.0
        return yin(audio.astype(np.float32))

    (f0, voiced), (shifted, voiced_shifted) = track(SynthesisConfig()), track(SynthesisConfig(pitch_shift=shift))
    both = voiced & voiced_shifted  # same durations: the frames line up
    assert both.sum() > 20
    assert 12 * np.log2(np.median(shifted[both] / f0[both])) == pytest.approx(shift, abs=0.1)


def test_volume_scales_the_samples(voice):
    loud = np.concatenate([c.audio for c in voice.synthesize("你好。")]).astype(np.float64)
    quiet = np.concatenate([c.audio for c in voice.synthesize("你好。", SynthesisConfig(volume=0.5))]).astype(float)
    linear = np.abs(loud) < 0.89 * 32767  # where the limiter left the full-volume samples alone
    assert linear.mean() > 0.99 and np.abs(quiet - loud / 2)[linear].max() <= 1.0  # rounding only
    assert np.abs(quiet).max() < np.abs(loud).max()


def test_a_repeated_phrase_comes_from_the_cache(voice, monkeypatch):
    first = list(voice.synthesize("我哋去飲茶。"))
    monkeypatch.setattr(voice, "pieces", lambda *a, **k: pytest.fail("synthesised again instead of cached"))
    again = list(voice.synthesize("我哋去飲茶。"))
    assert all(np.array_equal(a.audio, b.audio) for a, b in zip(first, again)) and len(first) == len(again)


def test_the_cache_is_bounded_in_bytes():
    chunk = AudioChunk(np.zeros(1000, np.int16), 22050, 0.0, ())
    cache = PhraseCache(max_bytes=5000)
    for i in range(5):
        cache.put((str(i),), (chunk,))
    assert cache.bytes <= 5000 and len(cache) == 2 and cache.get(("0",)) is None and cache.get(("4",))
    cache.put(("huge",), (chunk,) * 3)
    assert cache.get(("huge",)) is None


def test_synthesize_wav_writes_a_file_or_a_stream(voice, tmp_path):
    seconds = voice.synthesize_wav("你好。", tmp_path / "a.wav")
    buf = io.BytesIO()
    assert voice.synthesize_wav("你好。", buf) == pytest.approx(seconds)
    assert (tmp_path / "a.wav").read_bytes() == buf.getvalue()
    with wave.open(str(tmp_path / "a.wav")) as wf:
        assert wf.getframerate() == 22050 and wf.getnframes() / 22050 == pytest.approx(seconds)


@pytest.mark.parametrize("kwargs", [{"speed": 0}, {"speed": 9}, {"pitch_shift": 13}, {"pitch_shift": float("nan")},
                                    {"volume": -1}, {"volume": 5}, {"pitch_shift": True}, {"speed": True},
                                    {"volume": "1"}])
def test_bad_settings_are_refused_with_their_range(kwargs):
    with pytest.raises(ValueError, match=r"must be within"):
        SynthesisConfig(**kwargs)


def test_windows_vocoded_at_once_give_the_same_stream_in_order(voice):
    long_text = TEXT * 3  # several windows per sentence
    parallel = Voice.load(threads=2, warmup=False, cache_bytes=0)
    try:
        assert parallel.workers == 2
        one = list(voice.synthesize(long_text))  # nine sentences: windows in flight span them
        two = list(parallel.synthesize(long_text))
        spoken, spoken_parallel = voice.speak(long_text), parallel.speak(long_text)
    finally:
        parallel.close()
    assert len(one) == len(two) > 6
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a.audio, b.audio)
        assert (a.start, a.syllables) == (b.start, b.syllables)
    np.testing.assert_array_equal(spoken.audio, spoken_parallel.audio)
    np.testing.assert_array_equal(spoken.durations, spoken_parallel.durations)


def test_a_consumer_that_stops_early_leaves_nothing_running():
    voice = Voice.load(threads=2, warmup=False, cache_bytes=0)
    vocoded = []
    vocode = voice.vocode_window
    voice.vocode_window = lambda *a: vocoded.append(1) or vocode(*a)
    stream = voice.synthesize("今日天氣好好，我哋一齊去公園散步，然後去飲茶食點心，好唔好呀？" * 4)  # one long sentence
    next(stream)
    stream.close()  # a client gone after its first chunk
    voice.close()  # waits for a window in progress; queued ones never start
    assert len(vocoded) <= 3  # the one streamed and those in flight, not the sentence's dozen windows
    assert voice._pool is None


def test_runners_that_take_one_call_at_a_time_vocode_one_window_at_a_time(voice):
    class OneAtATime:  # a TensorRT context or an RKNN NPU handle
        concurrent_calls = False

        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, name):
            return getattr(self.inner, name)

    single = Voice.from_runners(voice.encoder, voice.decoder, OneAtATime(voice.vocoder), threads=4)
    assert single.workers == 1
    assert Voice.from_runners(voice.encoder, voice.decoder, voice.vocoder, threads=3).workers == 3
    for wrong in (0, -2, True, "2", 1.5):
        with pytest.raises(ValueError, match="threads must be a whole number of at least 1"):
            Voice.from_runners(voice.encoder, voice.decoder, voice.vocoder, threads=wrong)
        with pytest.raises(ValueError, match="threads must be a whole number"):
            Voice.load(threads=wrong, warmup=False)  # before any graph is opened
    with pytest.raises(ValueError, match="cache_bytes"):
        Voice.load(cache_bytes=-1, warmup=False)
