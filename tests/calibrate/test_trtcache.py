"""TensorRT's calibration cache text format: writes what TensorRT reads, and reads it back."""

import struct

import pytest

from cantoedge.calibrate.trtcache import CalibrationCache, read_cache, write_cache


def test_cache_lines_are_big_endian_float32_scales(tmp_path):
    cache = CalibrationCache.from_amax({"mel": 12.7, "/blocks.0/Add_output_0": 1.27})
    write_cache(tmp_path / "calib.cache", cache)
    lines = (tmp_path / "calib.cache").read_text().splitlines()
    assert lines[0] == "TRT-8503-EntropyCalibration2"
    assert lines[1] == f"/blocks.0/Add_output_0: {struct.pack('>f', 0.01).hex()}"
    assert lines[2] == "mel: 3dcccccd"  # 0.1 as big-endian float32


def test_cache_round_trips_through_its_reader(tmp_path):
    amax = {"frames": 3.5, "position": 1.0, "/decoder/in_proj/Conv_output_0": 7.25}
    write_cache(tmp_path / "c", CalibrationCache.from_amax(amax, trt_version=100300))
    back = read_cache(tmp_path / "c")
    assert back.trt_version == 100300 and back.algorithm == "EntropyCalibration2"
    assert back.amax() == pytest.approx(amax, rel=1e-6)


@pytest.mark.parametrize("text, message", [("", "not a TensorRT calibration cache"),
                                           ("TRT-8503-EntropyCalibration2\nmel 3dcccccd\n", ":2: expected"),
                                           ("TRT-8503-EntropyCalibration2\nmel: xyz\n", ":2: expected")])
def test_damaged_caches_are_clear_errors(text, message):
    with pytest.raises(ValueError, match=message):
        CalibrationCache.from_text(text)
