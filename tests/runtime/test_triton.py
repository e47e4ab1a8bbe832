"""`cantoedge triton-repo`: the repository it writes, served by a real Triton server (the tritonserver binary
that ships in the nvidia-pytriton wheel) on loopback, through tritonclient."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cantoedge.runtime.synth import Voice
from cantoedge.runtime.triton import MODEL_NAME, write_repository

pytestmark = pytest.mark.slow  # starts a real tritonserver (seconds)


def test_the_repository_holds_config_model_and_voice(tmp_path):
    model = write_repository(tmp_path / "repo", instances=3, max_batch=4, queue_delay_us=2000)
    config = (model / "config.pbtxt").read_text()
    assert 'backend: "python"' in config and "max_batch_size: 4" in config
    assert "max_queue_delay_microseconds: 2000" in config and "count: 3, kind: KIND_CPU" in config
    assert (model / "1" / "model.py").is_file() and (model / "1" / "voice" / "manifest.json").is_file()
    compile((model / "1" / "model.py").read_text(), "model.py", "exec")


def _free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


@pytest.fixture(scope="module")
def triton(tmp_path_factory):
    pytriton = pytest.importorskip("pytriton", reason="nvidia-pytriton (the tritonserver binary) is not installed")
    pytest.importorskip("tritonclient.http", reason="tritonclient is not installed")
    dist = Path(pytriton.__file__).parent / "tritonserver"
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    stub = dist / "python_backend_stubs" / version / "triton_python_backend_stub"
    if not stub.is_file():
        pytest.skip(f"nvidia-pytriton has no Python-backend stub for Python {version}")
    root = tmp_path_factory.mktemp("triton")
    server = root / "server"
    shutil.copytree(dist, server, ignore=shutil.ignore_patterns("python_backend_stubs"))
    shutil.copy(stub, server / "backends" / "python" / "triton_python_backend_stub")
    repo = root / "repo"
    write_repository(repo, instances=1)
    http, grpc, metrics = _free_ports(3)
    libs = Path(pytriton.__file__).parent.parent / "nvidia_pytriton.libs"
    env = {**os.environ, "LD_LIBRARY_PATH": f"{libs}:{os.environ.get('LD_LIBRARY_PATH', '')}",
           "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    log = open(root / "tritonserver.log", "w")  # noqa: SIM115 (held open for the server's lifetime)
    proc = subprocess.Popen([str(server / "bin" / "tritonserver"), "--model-repository", str(repo),
                             "--backend-directory", str(server / "backends"), "--http-address", "127.0.0.1",
                             "--grpc-address", "127.0.0.1", "--http-port", str(http), "--grpc-port", str(grpc),
                             "--metrics-port", str(metrics), "--exit-timeout-secs", "5"],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    import tritonclient.http as client

    triton_client = client.InferenceServerClient(f"127.0.0.1:{http}")
    deadline = time.time() + 120
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"tritonserver exited: {(root / 'tritonserver.log').read_text()[-2000:]}")
            try:
                if triton_client.is_model_ready(MODEL_NAME):
                    break
            except Exception:
                pass
            assert time.time() < deadline, (root / "tritonserver.log").read_text()[-2000:]
            time.sleep(0.5)
        yield triton_client
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def infer(triton_client, text: str, speed: float | None = None):
    import tritonclient.http as client

    inputs = [client.InferInput("TEXT", [1, 1], "BYTES")]
    inputs[0].set_data_from_numpy(np.array([[text.encode()]], dtype=object))
    if speed is not None:
        inputs.append(client.InferInput("SPEED", [1, 1], "FP32"))
        inputs[1].set_data_from_numpy(np.array([[speed]], dtype=np.float32))
    return triton_client.infer(MODEL_NAME, inputs).as_numpy("AUDIO")[0]


def test_a_real_triton_server_speaks_what_the_runtime_speaks(triton):
    reference = Voice.load(threads=1, warmup=False, cache_bytes=0)
    for text in ("你好。", "今日天氣好好，我哋去飲茶啦。"):
        expected = np.concatenate([c.audio for c in reference.synthesize(text)])
        np.testing.assert_array_equal(infer(triton, text), expected)
    slower = infer(triton, "你好。", speed=0.5)
    assert slower.size > 1.5 * infer(triton, "你好。").size


def test_a_bad_request_is_an_error_and_the_server_keeps_serving(triton):
    from tritonclient.utils import InferenceServerException

    with pytest.raises(InferenceServerException, match="no speakable text|nothing to say"):
        infer(triton, "😀")
    with pytest.raises(InferenceServerException, match="speed must be within"):
        infer(triton, "你好", speed=100.0)
    assert infer(triton, "你好。").size > 0
