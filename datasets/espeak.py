"""libespeak-ng through ctypes: synchronous synthesis with WORD and PHONEME events (start samples)."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

VOICE = "yue-Latn-jyutping"
_AUDIO_OUTPUT_SYNCHRONOUS = 2
_INITIALIZE_PHONEME_EVENTS = 0x1
_CHARS_UTF8 = 1
_EVENT_LIST_TERMINATED, _EVENT_WORD, _EVENT_PHONEME = 0, 1, 7
_LIBRARY_NAMES = ("libespeak-ng.so.1", "libespeak-ng.so", "libespeak-ng.dylib")
# A voice variant without espeak-ng's pitch flutter: a fixed 368-step table of up to +-2 Hz that wavegen adds to
# the pitch, stepping on only while it makes voiced sound, so its phase follows no text (docs/voice.md,
# "espeak-ng's pitch flutter").
FLUTTER_FREE_VARIANT = "noflutter"  # espeak-ng overflows a fixed buffer on long variant names
FLUTTER_FREE_VOICE = f"{VOICE}+{FLUTTER_FREE_VARIANT}"


class EspeakNotFoundError(RuntimeError):
    """libespeak-ng is missing; the message names the package that provides it."""


class EspeakError(RuntimeError):
    """espeak-ng refused a call."""


class _EventId(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("unique_identifier", ctypes.c_uint),
        ("text_position", ctypes.c_int),
        ("length", ctypes.c_int),
        ("audio_position", ctypes.c_int),
        ("sample", ctypes.c_int),
        ("user_data", ctypes.c_void_p),
        ("id", _EventId),
    ]


_Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event))


@dataclass(frozen=True)
class Event:
    kind: str  # "word" | "phoneme"
    sample: int  # absolute start sample
    text_position: int  # 1-based character position in the input (words)
    name: str  # phone name for phoneme events


@dataclass(frozen=True)
class Rendering:
    audio: np.ndarray  # int16 mono
    sample_rate: int
    events: list[Event]


def load_library() -> ctypes.CDLL:
    names = list(_LIBRARY_NAMES)
    found = ctypes.util.find_library("espeak-ng")
    if found:
        names.insert(0, found)
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise EspeakNotFoundError(
        "libespeak-ng is not installed: install the Debian/Ubuntu package 'espeak-ng' "
        "(sudo apt-get install espeak-ng), which brings libespeak-ng1 and the Cantonese voice data"
    )


class Espeak:
    """One synthesiser per process (libespeak-ng keeps global state; use processes, not threads).

    libespeak-ng also carries state from one call into the next (timings shift by a few samples), so
    ``synth_isolated`` renders in a fork that starts from the untouched synthesiser: the same text
    always gives the same bytes, whatever was rendered before."""

    def __init__(self, voice: str = VOICE, data_parent: Path | None = None):
        """``data_parent``: a folder holding an ``espeak-ng-data`` to use instead of the system's (see
        ``flutter_free_data``)."""
        self._lib = load_library()
        self._lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        self._lib.espeak_Synth.argtypes = [
            ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
            ctypes.POINTER(ctypes.c_uint), ctypes.c_void_p,
        ]
        path = str(data_parent).encode() if data_parent is not None else None
        rate = self._lib.espeak_Initialize(_AUDIO_OUTPUT_SYNCHRONOUS, 0, path, _INITIALIZE_PHONEME_EVENTS)
        if rate <= 0:
            raise EspeakError("espeak_Initialize failed (is espeak-ng-data installed?)")
        self.sample_rate = int(rate)
        if self._lib.espeak_SetVoiceByName(voice.encode()) != 0:
            raise EspeakNotFoundError(f"espeak-ng has no voice {voice!r}: install the Debian package 'espeak-ng-data'")
        self._chunks: list[np.ndarray] = []
        self._events: list[Event] = []
        self._callback = _Callback(self._on_audio)  # keep a reference: ctypes would free it
        self._lib.espeak_SetSynthCallback(self._callback)

    def _on_audio(self, wav, numsamples, events) -> int:
        if numsamples > 0 and wav:
            self._chunks.append(np.ctypeslib.as_array(wav, shape=(numsamples,)).copy())
        i = 0
        while events[i].type != _EVENT_LIST_TERMINATED:
            ev = events[i]
            if ev.type == _EVENT_WORD:
                self._events.append(Event("word", ev.sample, ev.text_position, ""))
            elif ev.type == _EVENT_PHONEME:
                self._events.append(Event("phoneme", ev.sample, ev.text_position,
                                          ev.id.string.decode("utf-8", "replace")))
            i += 1
        return 0

    def synth(self, text: str) -> Rendering:
        """Render text synchronously; events come back in order with absolute start samples."""
        self._chunks, self._events = [], []
        data = text.encode("utf-8")
        rc = self._lib.espeak_Synth(data, len(data) + 1, 0, 0, 0, _CHARS_UTF8, None, None)
        if rc != 0:
            raise EspeakError(f"espeak_Synth returned {rc} for {text[:40]!r}")
        self._lib.espeak_Synchronize()
        audio = np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.int16)
        # libespeak-ng emits empty WORD events at the end and inside pauses (pointing back at earlier text):
        # keep only WORD events that some spoken phone follows before the next WORD event.
        events: list[Event] = []
        pending: Event | None = None
        for ev in self._events:
            if ev.kind == "word":
                pending = ev
                continue
            if pending is not None and not ev.name.startswith("_"):
                events.append(pending)
                pending = None
            events.append(ev)
        return Rendering(audio.astype(np.int16), self.sample_rate, events)

    def synth_isolated(self, text: str) -> Rendering:
        """``synth`` in a forked child, so this process's synthesiser is never used and stays pristine."""
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: render, send back, leave without Python's cleanup
            code = 1
            try:
                os.close(read_fd)
                r = self.synth(text)
                head = {"rate": r.sample_rate, "n": int(r.audio.size),
                        "events": [[e.kind, e.sample, e.text_position, e.name] for e in r.events]}
                with os.fdopen(write_fd, "wb") as out:
                    out.write(json.dumps(head).encode() + b"\n" + r.audio.astype("<i2").tobytes())
                code = 0
            finally:
                os._exit(code)
        os.close(write_fd)
        with os.fdopen(read_fd, "rb") as inp:
            payload = inp.read()
        _, status = os.waitpid(pid, 0)
        line, _, raw = payload.partition(b"\n")
        if os.waitstatus_to_exitcode(status) != 0 or not line:
            raise EspeakError(f"espeak-ng failed in a child process for {text[:40]!r}")
        head = json.loads(line)
        audio = np.frombuffer(raw, dtype="<i2").astype(np.int16)
        if audio.size != head["n"]:
            raise EspeakError(f"short read from the espeak child ({audio.size} of {head['n']} samples)")
        return Rendering(audio, head["rate"], [Event(*e) for e in head["events"]])


def system_data_path() -> Path:
    """The installed ``espeak-ng-data`` folder: ``$ESPEAK_DATA_PATH/espeak-ng-data``, else where the espeak-ng
    command says its data is."""
    if os.environ.get("ESPEAK_DATA_PATH"):
        data, source = Path(os.environ["ESPEAK_DATA_PATH"]) / "espeak-ng-data", "$ESPEAK_DATA_PATH"
    else:
        try:
            out = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as exc:
            raise EspeakNotFoundError("cannot find espeak-ng's data folder: install the Debian package "
                                      "'espeak-ng' or set ESPEAK_DATA_PATH") from exc
        found = re.search(r"Data at:\s*(\S+)", out)
        data, source = Path(found.group(1) if found else ""), "espeak-ng --version"
    if not (data / "phontab").is_file():
        raise EspeakNotFoundError(f"{data} (from {source}) is not an espeak-ng-data folder: it has no phontab")
    return data


def flutter_free_data(parent: Path) -> Path:
    """``parent/espeak-ng-data``: the system's data by symbolic links, plus the voice variant
    ``FLUTTER_FREE_VARIANT`` (flutter 0), so ``Espeak(FLUTTER_FREE_VOICE, parent)`` renders
    exactly as the corpus did, pitch flutter apart. Returns ``parent``."""
    system = system_data_path()
    data = Path(parent) / "espeak-ng-data"
    if data.exists():
        shutil.rmtree(data)
    data.mkdir(parents=True)
    for entry in system.iterdir():
        if entry.name != "voices":
            (data / entry.name).symlink_to(entry)
    variants = data / "voices" / "!v"
    variants.mkdir(parents=True)
    (variants / FLUTTER_FREE_VARIANT).write_text(f"name {FLUTTER_FREE_VARIANT}\nflutter 0\n", "utf-8")
    return Path(parent)
