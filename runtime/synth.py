"""Speech from the exported graphs with numpy and one backend: frontend → encoder → length regulator →
decoder and vocoder over 128-frame windows (the last one shorter where the graphs allow), joined seamlessly.
Never imports torch or the build side."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from .alignment import SyllableTime, syllable_spans, syllable_times
from .audio import AUDIO, soft_limit
from .backends.base import Runner
from .backends.ort import OrtRunner
from .chunks import FIRST_WINDOW_FRAMES, LONGEST_WINDOW_FRAMES, Window, planned_chunk, windows
from .excitation import harmonic_source, mix_source, pitch_lookahead, unvoiced_noise_phase, vocoder_pitch
from .fileio import atomic_write
from .frontend import Frontend, G2PResult
from .graphs import DECODER, ENCODER, VOCODER, audio_params, spectrum_frames
from .inventory import PAUSE_EXCLAIM, PAUSE_QUESTION, PAUSE_STOP, PAUSES, SIL, load_inventory, syllable_index
from .istft import overlap_add
from .limits import check_speed, check_text, check_threads, usable_cores, whole_at_least
from .pieces import piece_spans
from .speech import AudioChunk, PhraseCache, SynthesisConfig
from .wavio import pcm16

if TYPE_CHECKING:  # concurrent.futures is imported where a pool starts: 3-4 ms that one window never needs
    from concurrent.futures import Future, ThreadPoolExecutor

SILENCE_LOG_MEL = float(np.log(AUDIO.log_floor))  # what the vocoder sees outside an utterance
PRECISIONS = ("fp32", "int8")
SENTENCE_ENDS = (PAUSE_STOP, PAUSE_QUESTION, PAUSE_EXCLAIM)
Tag = TypeVar("Tag")  # what a window's audio is handed back with (its piece)
DEFAULT_MAX_WORKERS = 4  # vocoder windows in flight by default: a stream needs no more, and each holds its arrays


def default_workers() -> int:
    """The cores this process may run on, at most DEFAULT_MAX_WORKERS."""
    return min(usable_cores(), DEFAULT_MAX_WORKERS)


@dataclass(frozen=True)
class VocoderWindow:
    """What a vocoder window needs besides its graph feeds: the frames it keeps, and the vocoder's F0 (Hz, 0
    where unvoiced) and phase on the frames its graph returns spectra for, which its harmonic source is made
    of when the window is vocoded."""

    keep: int
    f0: np.ndarray  # (frames,)
    phase: np.ndarray  # (frames,)
    frames: np.ndarray  # (frames,) their index in the utterance


def predicted_durations(log_durations: np.ndarray, speed: float = 1.0) -> np.ndarray:
    """Frames per token from the predicted log(1 + frames); at least one frame in all (as in training)."""
    durations = np.maximum(np.round(np.expm1(log_durations.astype(np.float32)) / np.float32(speed)), 0)
    durations = durations.astype(np.int64)
    if durations.sum() == 0:
        durations[int(np.argmax(log_durations))] = 1
    return durations


def length_regulate(hidden: np.ndarray, durations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """hidden (N, D), durations (N,) -> frames (T, D), position (T,): each frame's place inside its token,
    0 at its start up to <1 at its end."""
    idx = np.repeat(np.arange(len(durations)), durations)
    starts = np.cumsum(durations) - durations
    position = (np.arange(idx.size) - starts[idx]).astype(np.float32) / durations[idx].astype(np.float32)
    return hidden[idx], position


def max_tokens(model_config: dict) -> int:
    """The encoder's longest input: its sinusoidal position table (the acoustic config's max_tokens)."""
    acoustic = model_config.get("model", model_config)
    return int(acoustic.get("max_tokens", 1024))


@dataclass(frozen=True)
class Utterance:
    audio: np.ndarray  # float32 at AUDIO.sample_rate
    durations: np.ndarray  # frames per token
    g2p: G2PResult

    def alignment(self) -> list[SyllableTime]:
        return syllable_times(self.g2p.jyutping, self.durations, self.g2p.encoded.syllable_index)


class Voice:
    """The three graphs of one voice on runners of any backend, checked to belong together. ``Voice(dir,
    precision)`` opens exported ONNX graphs with onnxruntime; ``Voice.load(dir)`` opens a built folder
    (`cantoedge build`) with the backend it was built for.

    ``threads``: the cores one synthesis may use (default: this machine's, at most DEFAULT_MAX_WORKERS). They
    vocode that many windows at once, each call on one onnxruntime thread: measured on 2 cores, a window's
    graph gained nothing from a second intra-op thread (RTF 0.0091 and 0.0097; 0.016-0.019 with onnxruntime's
    spinning workers), while two windows at once took a text of two long sentences from 0.0091 to
    0.0063-0.0068 (short sentences gain less: 5-23 %)."""

    def __init__(self, graph_dir: Path, precision: str = "fp32", threads: int | None = None,
                 frontend: Frontend | None = None, float_graphs_allowed: bool = False):
        """``float_graphs_allowed``: experiment folders (sensitivity, reports) where some of the INT8 files are
        FP32 graphs on purpose; everywhere else a graph must be the precision its file name claims."""
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        check_threads(threads)
        graph_dir = Path(graph_dir)
        allowed = (precision, "fp32") if float_graphs_allowed else (precision,)
        self._attach(*(OrtRunner(graph_dir / spec.filename(precision), spec, 1, allowed)
                       for spec in (ENCODER, DECODER, VOCODER)), str(graph_dir), frontend, threads)
        self.precision = precision

    @classmethod
    def from_runners(cls, encoder: Runner, decoder: Runner, vocoder: Runner, source: str = "voice",
                     frontend: Frontend | None = None, threads: int | None = 1) -> Voice:
        """A voice on runners already loaded (any backend); ``threads`` as for Voice."""
        voice = cls.__new__(cls)
        voice._attach(encoder, decoder, vocoder, source, frontend, threads)
        voice.precision = decoder.precision
        return voice

    @classmethod
    def load(cls, folder: str | Path | None = None, backend: str = "auto", threads: int | None = None,
             frontend: Frontend | None = None, warmup: bool = True, cache_bytes: int = 32 << 20) -> Voice:
        """A built folder (`cantoedge build`; default: the one runtime/voices.py finds), its manifest verified,
        on ``backend`` (auto: the folder's own), warmed up, with a phrase cache of ``cache_bytes`` (0: none); the
        frontend's data files are checked first, so a damaged install fails here and not in a request."""
        from .backends.loading import open_runners
        from .datafiles import verify_package_data
        from .voices import find_voice

        check_threads(threads)
        verify_package_data()
        if not whole_at_least(cache_bytes, 0):
            raise ValueError(f"cache_bytes must be a whole number of bytes, 0 for no cache, got {cache_bytes!r}")
        folder = find_voice(folder).path
        manifest, runners = open_runners(folder, backend, 1)
        voice = cls.from_runners(runners["encoder"], runners["decoder"], runners["vocoder"], str(folder), frontend,
                                 threads)
        voice.precision = manifest.precision
        voice.cache = PhraseCache(cache_bytes) if cache_bytes > 0 else None
        if warmup:
            voice.warm_up()
        return voice

    def _attach(self, encoder: Runner, decoder: Runner, vocoder: Runner, source: str,
                frontend: Frontend | None, threads: int | None) -> None:
        self.encoder, self.decoder, self.vocoder = encoder, decoder, vocoder
        check_threads(threads)
        # windows at once: only where the vocoder's runner takes concurrent calls (one TensorRT context does not)
        self.workers = (threads or default_workers()) if vocoder.concurrent_calls else 1
        self._pool: ThreadPoolExecutor | None = None
        # threads of the window pool, shared by every synthesis on this voice: a server that batches across
        # requests sets more, so that all requests' windows can reach the batcher at once (None: ``workers``)
        self.pool_threads: int | None = None
        enc, dec, voc = encoder.info, decoder.info, vocoder.info
        if enc.checkpoint_sha256 != dec.checkpoint_sha256:
            raise ValueError(f"{source}: encoder and decoder come from different checkpoints")
        inventory = load_inventory().version
        for info in (enc, dec, voc):
            if info.inventory_version != inventory:
                raise ValueError(f"{source}: the {info.graph} graph uses token inventory "
                                 f"v{info.inventory_version}, this runtime has v{inventory}")
            if info.audio != audio_params():
                raise ValueError(f"{source}: the {info.graph} graph was built for other audio parameters")
        if dec.chunk_frames != voc.chunk_frames:
            raise ValueError(f"{source}: decoder and vocoder chunks differ ({dec.chunk_frames}, {voc.chunk_frames})")
        self.chunk = dec.chunk_frames
        # graphs whose frame axis is dynamic (onnxruntime) run an utterance's last window at its own length
        self.short_last = decoder.any_window_length and vocoder.any_window_length
        # and, vocoding one window at a time, plan whole windows up to this long (window_chunk); the server keeps
        # ``chunk``, so that concurrent requests' windows share one length (batching) and a step holds a core as
        # long as measured
        self.longest_window = LONGEST_WINDOW_FRAMES
        self.max_tokens = max_tokens(enc.model)
        self.random_noise = bool(voc.model.get("random_unvoiced_phase", False))  # excitation.unvoiced_noise_phase
        self.lead_glide = float(voc.model.get("lead_glide", 0.0))  # excitation.lead_voicing, as the vocoder trained
        self._frontend = frontend
        self.cache: PhraseCache | None = None

    @property
    def backends(self) -> dict[str, str]:
        """Which backend runs each graph (an RKNN folder keeps its encoder on onnxruntime)."""
        return {r.spec.name: r.backend for r in (self.encoder, self.decoder, self.vocoder)}

    @contextmanager
    def whole_windows(self) -> Iterator[None]:
        """Every window at the full chunk, the last one padded as TensorRT and RKNN run it: what calibration and
        the window latencies measure, whichever backend this voice has."""
        short_last, self.short_last = self.short_last, False
        try:
            yield
        finally:
            self.short_last = short_last

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        for runner in (self.encoder, self.decoder, self.vocoder):
            runner.close()

    @property
    def frontend(self) -> Frontend:
        """Built on first use (a millisecond: the dictionary is parsed as texts need it); calibration feeds tokens
        directly."""
        if self._frontend is None:
            self._frontend = Frontend()
        return self._frontend

    def encode(self, g2p: G2PResult, speed: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """-> frames (T, D), position (T,), durations (N,)."""
        return self.encode_tokens(np.asarray(g2p.tokens), np.asarray(g2p.tones), speed)

    def encode_tokens(self, tokens: np.ndarray, tones: np.ndarray, speed: float = 1.0,
                      durations: np.ndarray | None = None,
                      silent_lead: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """-> frames, position (expanded with ``durations`` when given, else the predicted ones) and the
        encoder's own predicted durations; the first ``silent_lead`` tokens are given no frames."""
        check_speed(speed)
        if len(tokens) > self.max_tokens:
            raise ValueError(f"{len(tokens)} tokens; the encoder takes at most {self.max_tokens} at once "
                             "(Voice.speak cuts longer text at pauses)")
        hidden, log_dur, _, _ = self.encoder(tokens=np.asarray(tokens, dtype=np.int64)[None],
                                             tones=np.asarray(tones, dtype=np.int64)[None])
        own = predicted_durations(log_dur[0], speed)
        own[:silent_lead] = 0
        if own.sum() == 0:
            own[-1] = 1
        frames, position = length_regulate(hidden[0], own if durations is None else durations)
        return frames, position, own

    def decoder_inputs(self, frames: np.ndarray, position: np.ndarray,
                       first: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
        """Each decoder window's (frames, position) inputs, batch of one, and how many of its frames to keep
        (``first``: the first window's, see ``chunks.windows``)."""
        n = frames.shape[0]
        for w in windows(n, self.decoder.info.context, self.window_chunk(n, first), self.short_last, first):
            f = np.pad(frames[w.start: w.stop], ((w.pad_left, w.pad_right), (0, 0)))
            p = np.pad(position[w.start: w.stop], (w.pad_left, w.pad_right))
            yield f[None].astype(np.float32), p[None].astype(np.float32), w.keep

    def vocoder_input(self, mel: np.ndarray, f0: np.ndarray, phase: np.ndarray, w: Window
                      ) -> tuple[dict[str, np.ndarray], VocoderWindow]:
        """One vocoder window's graph feeds, batch of one — ``mel`` (n_mels, T) with silence outside the
        utterance, the vocoder's ``f0`` (T,) unvoiced (0) outside it — and the f0 and ``phase``
        (runtime/excitation.py) of the frames its graph returns spectra for."""
        pad = (w.pad_left, w.pad_right)
        m = np.pad(mel[:, w.start: w.stop], ((0, 0), pad), constant_values=SILENCE_LOG_MEL)
        f = np.pad(f0[w.start: w.stop], pad).astype(np.float32)
        c = self.vocoder.info.context
        frames = spectrum_frames(c, w.size - 2 * c)  # a short last window has spectra for fewer frames
        index = np.arange(w.start - w.pad_left, w.start - w.pad_left + w.size)
        window = VocoderWindow(w.keep, f[frames], np.pad(phase[w.start: w.stop], pad)[frames], index[frames])
        return {"mel": m[None].astype(np.float32), "f0": f[None]}, window

    def vocoder_windows(self, n_frames: int, first: int | None = None):
        return windows(n_frames, self.vocoder.info.context, self.window_chunk(n_frames, first), self.short_last,
                       first)

    def window_chunk(self, n_frames: int, first: int | None = None) -> int:
        """Kept frames of each whole window over ``n_frames`` (``first``: the first window's, planned apart): the
        graph's chunk on fixed shapes or with several windows at once (``workers``), else windows up to
        ``longest_window`` long (chunks.planned_chunk)."""
        if not self.short_last or self.workers > 1 or self.longest_window <= self.chunk:
            return self.chunk
        rest = n_frames - first if first else n_frames
        return planned_chunk(rest, self.chunk, self.longest_window) if rest > 0 else self.chunk

    def vocode_window(self, feeds: dict[str, np.ndarray], window: VocoderWindow) -> np.ndarray:
        """The audio a window contributes (its kept frames' samples): its graph run on ``feeds``, the harmonic
        source mixed in and the inverse STFT (both numpy, between graphs)."""
        # the graph's outputs and the source are let go once mixed, before the inverse STFT allocates its own
        real, imag = self.mix(*[x[0] for x in self.vocoder(**feeds)], window, harmonic_source(window.f0, window.phase))
        return overlap_add(real, imag)[: window.keep * AUDIO.hop_length]

    def mix(self, log_magnitude: np.ndarray, noise_phase: np.ndarray, share: np.ndarray, window: VocoderWindow,
            source: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """A window's spectrum from its graph's outputs and harmonic ``source``: excitation.mix_source, with the
        fixed unvoiced noise phase where the vocoder was trained on random phase."""
        voiced = window.f0 > 0
        offset = unvoiced_noise_phase(window.frames, voiced, share.shape[-1]) if self.random_noise else None
        return mix_source(log_magnitude, noise_phase, share, voiced, *source, noise_offset=offset)

    def vocoder_feeds(self, mel: np.ndarray, f0: np.ndarray) -> Iterator[tuple[dict[str, np.ndarray], VocoderWindow]]:
        """Every vocoder window of a whole mel (n_mels, T) and the decoder's F0 (T,): its feeds and the rest."""
        pitch, phase = vocoder_pitch(f0, self.lead_glide)
        return (self.vocoder_input(mel, pitch, phase, w) for w in self.vocoder_windows(mel.shape[1]))

    def vocode(self, mel: np.ndarray, f0: np.ndarray) -> np.ndarray:
        """A whole mel (n_mels, T) and the decoder's F0 (T,) to audio, window by window."""
        return np.concatenate([self.vocode_window(feeds, w) for feeds, w in self.vocoder_feeds(mel, f0)])

    def decode(self, frames: np.ndarray, position: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The whole mel (n_mels, T) and F0 (T,), window by window."""
        mels, f0s = zip(*self.mel_chunks(frames, position))
        return np.concatenate(mels, axis=1), np.concatenate(f0s)

    def mel_chunks(self, frames: np.ndarray, position: np.ndarray,
                   first: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Decoded mel (n_mels, ≤128) and F0 (≤128,), one chunk at a time."""
        for f, p, keep in self.decoder_inputs(frames, position, first):
            mel, f0 = self.decoder(frames=f, position=p)
            yield mel[0, :, :keep], f0[0, :keep]

    def window_inputs(self, frames: np.ndarray, position: np.ndarray, pitch_ratio: float = 1.0,
                      first: int | None = None) -> Iterator[tuple[dict[str, np.ndarray], VocoderWindow]]:
        """Each vocoder window's inputs as soon as the decoder has made all the mel it needs. A window also waits
        for the frames after it that its pitch depends on (``pitch_lookahead``); the vocoder's pitch over the
        prefix decoded so far is then the whole utterance's over that window, so windows join seamlessly.
        ``pitch_ratio`` scales the decoded F0 the vocoder's harmonic source sings (a pitch shift that keeps every
        tone's shape). ``first``: the first vocoder window's kept frames; the decoder's first window then covers
        just what it needs."""
        total = frames.shape[0]
        wanted = list(self.vocoder_windows(total, first))
        ahead = pitch_lookahead(self.lead_glide)
        needed = [min(w.stop + ahead, total) for w in wanted]  # the mel frames each window waits for
        decoded = self.mel_chunks(frames, position, None if first is None else needed[0])
        mel = np.zeros((AUDIO.n_mels, 0), dtype=np.float32)
        f0 = np.zeros(0, dtype=np.float32)
        for w, need in zip(wanted, needed):
            while mel.shape[1] < need:
                m, f = next(decoded)
                mel, f0 = np.concatenate([mel, m], axis=1), np.concatenate([f0, f])
            yield self.vocoder_input(mel, *vocoder_pitch(f0 * np.float32(pitch_ratio), self.lead_glide), w)

    def audio_chunks(self, frames: np.ndarray, position: np.ndarray, pitch_ratio: float = 1.0) -> Iterator[np.ndarray]:
        """Audio window by window as each is made (streaming); see ``window_inputs``."""
        return (audio for _, audio in self.vocoded((None, i) for i in self.window_inputs(frames, position,
                                                                                          pitch_ratio)))

    def vocoded(self, jobs: Iterator[tuple[Tag, tuple[dict[str, np.ndarray], VocoderWindow]]]
                ) -> Iterator[tuple[Tag, np.ndarray]]:
        """(tag, a window's inputs) -> (tag, its audio), in order. With ``workers`` > 1 that many windows vocode
        at once on the pool while ``jobs`` runs ahead on this thread (decoding, encoding the next piece)."""
        pending: deque[tuple[Tag, Future]] = deque()  # windows being vocoded on the pool, oldest first
        try:
            for tag, inputs in jobs:
                if self.workers == 1:
                    yield tag, self.vocode_window(*inputs)
                    continue
                pending.append((tag, self._window_pool().submit(self.vocode_window, *inputs)))
                if len(pending) >= self.workers:
                    oldest, future = pending.popleft()
                    yield oldest, future.result()
            while pending:
                oldest, future = pending.popleft()
                yield oldest, future.result()
        finally:  # a consumer that stops early (a client gone) leaves no window queued
            for _, future in pending:
                future.cancel()

    def piece_audio(self, pieces: Iterator[Piece]) -> Iterator[tuple[Piece, np.ndarray]]:
        """Each piece's audio window by window; the next piece is encoded and decoded while this one's last
        windows vocode."""
        return self.vocoded((piece, inputs) for piece in pieces for inputs in piece.windows)

    def _window_pool(self) -> ThreadPoolExecutor:
        """The threads that vocode windows when ``workers`` > 1, started on first use."""
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max(self.workers, self.pool_threads or 0),
                                            thread_name_prefix="cantoedge-vocoder")
        return self._pool

    def synthesize(self, text: str, config: SynthesisConfig | None = None) -> Iterator[AudioChunk]:
        """Speech as it is made: one AudioChunk per vocoder window (int16 PCM), sentence by sentence, with the
        syllables that start in it. Recent phrases come from the cache (``cache_bytes`` at load)."""
        config = config or SynthesisConfig()
        check_text(text)
        key = (text, config)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            yield from cached
            return
        g2p = self.frontend(text)
        index, rate, hop = g2p.encoded.syllable_index, AUDIO.sample_rate, AUDIO.hop_length
        made: list[AudioChunk] | None = [] if self.cache is not None else None  # kept only to be cached
        frames = samples = 0
        current: Piece | None = None
        times: list[SyllableTime] = []
        pieces = self.pieces(g2p.tokens, g2p.tones, config.speed, config.pitch_ratio, sentences=True,
                             quick_start=True)
        for piece, chunk in self.piece_audio(pieces):
            if piece is not current:  # a new piece's first window: its syllables' times
                frames += int(current.durations.sum()) if current is not None else 0
                current = piece
                ids = [i for i in index[piece.start: piece.start + len(piece.durations)] if i >= 0]
                spans = syllable_spans(piece.durations, index[piece.start: piece.start + len(piece.durations)])
                times = [SyllableTime(g2p.jyutping[k], (frames + a) * hop / rate, (frames + b) * hop / rate)
                         for k, (a, b) in zip(dict.fromkeys(ids), spans)]
            pcm = pcm16(soft_limit(chunk * np.float32(config.volume)))
            start, end = samples / rate, (samples + pcm.size) / rate
            chunk_out = AudioChunk(pcm, rate, start, tuple(t for t in times if start <= t.start < end))
            if made is not None:
                made.append(chunk_out)
                if samples * 2 > self.cache.max_bytes:
                    made = None  # too long to cache: stop holding it
            samples += pcm.size
            yield chunk_out
        if made is not None:
            self.cache.put(key, tuple(made))

    def synthesize_wav(self, text: str, file, config: SynthesisConfig | None = None) -> float:
        """Write the speech as a 16-bit WAV to ``file`` (a path, written atomically, or a binary file object),
        window by window as it is made; returns its length in seconds."""
        import wave

        def write(target) -> float:
            seconds = 0.0
            with wave.open(target, "wb") as wf:
                wf.setnchannels(1)
                wf.setsampwidth(2)
                wf.setframerate(AUDIO.sample_rate)
                for chunk in self.synthesize(text, config):
                    wf.writeframes(chunk.audio.astype("<i2").tobytes())
                    seconds += chunk.duration
            return seconds

        if isinstance(file, str | Path):
            result: list[float] = []
            atomic_write(Path(file), lambda tmp: result.append(write(tmp)))
            return result[0]
        return write(file)

    def warm_up(self) -> None:
        """One short phrase through every graph, so the first request is not the slow one (sessions allocate and
        the frontend loads on first use)."""
        for _ in self.synthesize("你好", SynthesisConfig()):
            pass
        if self.cache is not None:
            self.cache = PhraseCache(self.cache.max_bytes)

    def speak(self, text: str, speed: float = 1.0) -> Utterance:
        """Text to audio in [-1, 1], however long (up to MAX_TEXT_CHARS): see ``speak_tokens``."""
        check_text(text)
        check_speed(speed)
        g2p = self.frontend(text)
        audio, durations = self.speak_tokens(g2p.tokens, g2p.tones, speed)
        return Utterance(audio, durations, g2p)

    def speak_tokens(self, tokens, tones, speed: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Token and tone ids to (audio in [-1, 1], frames per token): see ``pieces``."""
        audio, pieces = [], []
        for piece, chunk in self.piece_audio(self.pieces(tokens, tones, speed)):
            audio.append(chunk)
            if not pieces or pieces[-1] is not piece:
                pieces.append(piece)
        return soft_limit(np.concatenate(audio)), np.concatenate([p.durations for p in pieces])

    def pieces(self, tokens, tones, speed: float = 1.0, pitch_ratio: float = 1.0,
               sentences: bool = False, quick_start: bool = False) -> Iterator[Piece]:
        """The token stream spoken piece by piece, each piece's vocoder windows as they decode (``piece_audio``
        makes their audio: raw vocoder output, which callers gain and limit). A stream longer than the encoder
        takes is cut at pauses, and ``sentences`` also cuts after every sentence (the first audio then waits for
        one sentence, not the text); every piece after the first gets the <sil> it was trained to start with,
        given zero frames, so the pieces' durations line up with ``tokens``. ``quick_start``: the first piece's
        first window is FIRST_WINDOW_FRAMES long, where the graphs take any length (less to wait for)."""
        check_speed(speed)
        inventory = load_inventory()
        tokens, tones = np.asarray(tokens, np.int64), np.asarray(tones, np.int64)
        if tokens.ndim != 1 or tokens.shape != tones.shape or tokens.size == 0:
            raise ValueError(f"tokens and tones must be two equally long, non-empty 1-D sequences, got "
                             f"{tokens.shape} and {tones.shape}")
        if tokens.min() < 0 or tokens.max() >= len(inventory.phones) or tones.min() < 0 or tones.max() > 6:
            raise ValueError(f"token ids must lie in 0..{len(inventory.phones) - 1} and tones in 0..6")
        phones = [inventory.phone(int(t)) for t in tokens]
        ends = SENTENCE_ENDS if sentences else ()
        for start, stop in piece_spans(phones, PAUSES, syllable_index(phones), self.max_tokens, ends):
            lead = 1 if start else 0
            t = np.concatenate([[inventory.id(SIL)] * lead, tokens[start:stop]]).astype(np.int64)
            z = np.concatenate([[0] * lead, tones[start:stop]]).astype(np.int64)
            frames, position, own = self.encode_tokens(t, z, speed, silent_lead=lead)
            first = FIRST_WINDOW_FRAMES if quick_start and not start else None
            yield Piece(start, own[lead:], self.window_inputs(frames, position, pitch_ratio, first))


@dataclass
class Piece:
    """One piece of a long token stream: where it starts, its frames per token, its vocoder windows as they
    decode."""

    start: int  # index of its first token in the whole stream
    durations: np.ndarray
    windows: Iterator[tuple[dict[str, np.ndarray], VocoderWindow]]
