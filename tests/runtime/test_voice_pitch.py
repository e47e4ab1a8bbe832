"""The default voice's pitch (issue 10): no squeaks. The F0 it sings stays inside a plausible range for its
speaker (corpus median 89 Hz) on every frame, at utterance starts and stop or fricative onsets included,
where the voice trained on raw tracker output sang ~490 Hz."""

import numpy as np
import pytest

from cantoedge.regression.evalbundle import EvalBundle
from cantoedge.runtime.synth import Voice

CEILING_HZ = 250.0
FLOOR_HZ = 50.0
ONSETS = ["詩史試時市事", "早晨！", "食咗飯未呀？", "唔該晒。", "係咪真㗎？", "聽日去邊度？", "佢哋喺度踢波。",
          "出街食飯啦。", "快啲返屋企。", "啱啱先至知。"]


@pytest.fixture(scope="module")
def int8_voice(device_voice):
    voice = Voice.load(device_voice, threads=1, warmup=False, cache_bytes=0)
    yield voice
    voice.close()


def test_no_frame_is_voiced_outside_the_speakers_range(int8_voice, device_voice):
    texts = ONSETS + [u.text for u in EvalBundle.load(device_voice).utterances]
    voiced = []
    for text in texts:
        frames, position, _ = int8_voice.encode(int8_voice.frontend(text))
        _, f0 = int8_voice.decode(frames, position)
        assert f0.max() <= CEILING_HZ, (text, float(f0.max()))
        voiced.append(f0[f0 > 0])
    voiced = np.concatenate(voiced)
    assert voiced.min() >= FLOOR_HZ and voiced.size > 1000
    assert 80.0 <= np.median(voiced) <= 100.0  # the speaker's own level, not squashed to a floor or ceiling
