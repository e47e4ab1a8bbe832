"""A streaming FLAC writer for 16-bit mono PCM, in numpy only: the device has no libsndfile (soundfile is a
build-side dependency), and OpenAI's speech API offers `flac`. Frames hold verbatim subframes (FLAC's
uncompressed coding): every decoder reads them, and they stream as they are made (the stream header leaves
the total length unknown, as the format allows)."""

from __future__ import annotations

import struct

import numpy as np

BLOCK = 4096  # samples per frame (the last one may be shorter)
_RATE_CODES = {88200: 1, 176400: 2, 192000: 3, 8000: 4, 16000: 5, 22050: 6, 24000: 7, 32000: 8, 44100: 9,
               48000: 10, 96000: 11}


def _crc_table(poly: int, width: int) -> np.ndarray:
    top, mask = 1 << (width - 1), (1 << width) - 1
    table = np.zeros(256, dtype=np.uint32)
    for byte in range(256):
        crc = byte << (width - 8)
        for _ in range(8):
            crc = ((crc << 1) ^ poly) & mask if crc & top else (crc << 1) & mask
        table[byte] = crc
    return table


_CRC8, _CRC16 = _crc_table(0x07, 8), _crc_table(0x8005, 16)


def crc8(data: bytes) -> int:
    crc = 0
    for b in data:
        crc = int(_CRC8[crc ^ b])
    return crc


def crc16(data: bytes) -> int:
    crc = 0
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ int(_CRC16[(crc >> 8) ^ b])
    return crc


def _utf8_number(n: int) -> bytes:
    """FLAC's frame number coding (UTF-8's scheme, extended to 36 bits)."""
    if n < 0x80:
        return bytes([n])
    for length, first in ((2, 0xC0), (3, 0xE0), (4, 0xF0), (5, 0xF8), (6, 0xFC), (7, 0xFE)):
        if n < 1 << (6 * (length - 1) + (7 - length)):
            out = [0x80 | ((n >> (6 * i)) & 0x3F) for i in range(length - 1)]
            return bytes([first | (n >> (6 * (length - 1)))] + out[::-1])
    raise ValueError(f"frame number {n} is too large for FLAC")


def stream_header(sample_rate: int) -> bytes:
    """'fLaC' and a STREAMINFO block: fixed block size, 16-bit mono, total samples and MD5 unknown (0)."""
    if sample_rate not in _RATE_CODES:
        raise ValueError(f"no FLAC frame code for {sample_rate} Hz")
    info = struct.pack(">HH", BLOCK, BLOCK) + b"\0\0\0" + b"\0\0\0"  # min/max block, min/max frame size unknown
    info += (sample_rate << 44 | 0 << 41 | 15 << 36 | 0).to_bytes(8, "big") + bytes(16)
    return b"fLaC" + bytes([0x80]) + len(info).to_bytes(3, "big") + info  # last-metadata-block flag, type 0


class FlacEncoder:
    """Feed int16 samples in any pieces; get whole FLAC frames back as they fill (and the rest at the end)."""

    def __init__(self, sample_rate: int):
        self.rate_code, self.frame, self._pending = _RATE_CODES[sample_rate], 0, np.zeros(0, np.int16)

    def _frame(self, samples: np.ndarray) -> bytes:
        n = samples.size
        head = bytes([0xFF, 0xF8, (7 << 4) | self.rate_code, (0 << 4) | (4 << 1)])  # 16-bit block size follows
        head += _utf8_number(self.frame) + struct.pack(">H", n - 1)
        head += bytes([crc8(head)])
        body = head + bytes([0x02]) + samples.astype(">i2").tobytes()  # verbatim subframe, no wasted bits
        self.frame += 1
        return body + struct.pack(">H", crc16(body))

    def add(self, samples: np.ndarray) -> bytes:
        self._pending = np.concatenate([self._pending, np.asarray(samples, np.int16)])
        out = []
        while self._pending.size >= BLOCK:
            out.append(self._frame(self._pending[:BLOCK]))
            self._pending = self._pending[BLOCK:]
        return b"".join(out)

    def finish(self) -> bytes:
        tail, self._pending = self._pending, np.zeros(0, np.int16)
        return self._frame(tail) if tail.size else b""
