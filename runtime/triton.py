"""A Triton Inference Server model repository that serves the voice: one Python-backend model running this
runtime (frontend, encoder, numpy length regulator, decoder and vocoder windows, excitation between them).
Why not an ensemble of the ONNX graphs: the steps between the graphs (text frontend, length regulator, the
vocoder's F0 lead and float64 phase, its harmonic source, mixing and inverse STFT) are numpy, and an
ensemble would need a Python model for them anyway.
Fleets scale it with instances per machine (instance_group) and machines (replicas); Triton's dynamic
batching groups concurrent requests into one execute() call."""

from __future__ import annotations

import shutil
from pathlib import Path

from .enginefolder import EngineManifest
from .voices import find_voice

MODEL_NAME = "cantoedge"

CONFIG = """name: "{name}"
backend: "python"
max_batch_size: {max_batch}
input [
  {{ name: "TEXT", data_type: TYPE_STRING, dims: [ 1 ] }},
  {{ name: "SPEED", data_type: TYPE_FP32, dims: [ 1 ], optional: true }}
]
output [
  {{ name: "AUDIO", data_type: TYPE_INT16, dims: [ -1 ] }}
]
dynamic_batching {{
  max_queue_delay_microseconds: {queue_delay_us}
}}
instance_group [
  {{ count: {instances}, kind: KIND_CPU }}
]
parameters {{ key: "threads", value: {{ string_value: "{threads}" }} }}
"""

MODEL_PY = '''"""cantoedge on Triton's Python backend: TEXT (and optional SPEED) -> AUDIO, int16 PCM at 22,050 Hz."""

import json
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        from cantoedge.runtime.synth import Voice

        threads = int(json.loads(args["model_config"])["parameters"]["threads"]["string_value"])
        self.voice = Voice.load(Path(__file__).parent / "voice", threads=threads)

    def execute(self, requests):
        from cantoedge.runtime.speech import SynthesisConfig

        responses = []
        for request in requests:  # one execute() call holds the requests Triton batched together
            try:
                text = pb_utils.get_input_tensor_by_name(request, "TEXT").as_numpy().reshape(-1)[0]
                text = text.decode("utf-8") if isinstance(text, bytes) else str(text)
                speed = pb_utils.get_input_tensor_by_name(request, "SPEED")
                config = SynthesisConfig(speed=float(speed.as_numpy().reshape(-1)[0]) if speed else 1.0)
                audio = np.concatenate([c.audio for c in self.voice.synthesize(text, config)])
                responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("AUDIO", audio[None])]))
            except Exception as exc:  # a bad request gets its error; the others in the batch are served
                responses.append(pb_utils.InferenceResponse(error=pb_utils.TritonError(str(exc))))
        return responses

    def finalize(self):
        self.voice.close()
'''


def write_repository(out: Path, voice: str | Path | None = None, instances: int = 2, max_batch: int = 8,
                     queue_delay_us: int = 5000, threads: int = 1) -> Path:
    """OUT/cantoedge/{config.pbtxt, 1/model.py, 1/voice/}: the voice folder travels inside the repository."""
    source = find_voice(voice).path
    EngineManifest.load(source)  # a folder Voice.load will accept, checked now rather than on the server
    out = Path(out)
    model = out / MODEL_NAME
    version = model / "1"
    if model.exists():
        shutil.rmtree(model)
    version.mkdir(parents=True)
    shutil.copytree(source, version / "voice")
    (version / "model.py").write_text(MODEL_PY, encoding="utf-8")
    (model / "config.pbtxt").write_text(CONFIG.format(name=MODEL_NAME, max_batch=max_batch, instances=instances,
                                                      queue_delay_us=queue_delay_us, threads=threads),
                                        encoding="utf-8")
    return model
