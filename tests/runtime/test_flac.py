"""The numpy FLAC writer: frames that a real decoder (libsndfile) reads back bit-exactly."""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.flac import BLOCK, FlacEncoder, crc8, crc16, stream_header

soundfile = pytest.importorskip("soundfile", reason="soundfile (libsndfile) is the reference decoder, build extra")


def encode(samples: np.ndarray, pieces: list[int]) -> bytes:
    enc, data, i = FlacEncoder(22050), bytearray(stream_header(22050)), 0
    for size in pieces:
        data += enc.add(samples[i: i + size])
        i += size
    data += enc.add(samples[i:]) + enc.finish()
    data[18:26] = (int.from_bytes(data[18:26], "big") | samples.size).to_bytes(8, "big")  # total, for the reader
    return bytes(data)


@settings(max_examples=25)
@given(st.integers(min_value=1, max_value=3 * BLOCK + 17), st.lists(st.integers(0, 9000), max_size=5))
def test_any_length_in_any_pieces_decodes_bit_exactly(n, pieces):
    samples = (np.random.default_rng(n).normal(size=n) * 8000).clip(-32768, 32767).astype(np.int16)
    decoded, rate = soundfile.read(io.BytesIO(encode(samples, pieces)), dtype="int16")
    assert rate == 22050
    np.testing.assert_array_equal(decoded, samples)


def test_checksums_are_flacs():
    assert crc8(b"123456789") == 0xF4  # CRC-8, polynomial 0x07 (the standard check value)
    assert crc16(b"123456789") == 0xFEE8  # CRC-16/BUYPASS, polynomial 0x8005


def test_frame_numbers_past_127_use_the_long_coding():
    samples = np.zeros(BLOCK * 130, np.int16)
    decoded, _ = soundfile.read(io.BytesIO(encode(samples, [])), dtype="int16")
    assert decoded.size == samples.size
