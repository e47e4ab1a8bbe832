"""RKNN models for the RK3588 NPU, built and run with Rockchip's toolkits. Standalone (numpy and the toolkit
only, no cantoedge import): rknn-toolkit2 pins numpy, onnx and torch versions that conflict with the main
environment, so the build and the PC simulator run this file with the RKNN environment's own Python
(`scripts/rknn_env.sh`), talking to the main process over pipes.

Measured with rknn-toolkit2 2.5.0: the simulator cannot run a model loaded with ``load_rknn`` ("not support
inference on the simulator"), and two builds of one ONNX graph differ in bytes. So the simulator rebuilds
each model from the ONNX graph the folder keeps, with the exact settings the manifest recorded; on a board,
rknn-toolkit-lite2 (``rknnlite``) runs the .rknn file itself.

    python rknn_worker.py build JOB.json     convert the graphs a job lists; prints a JSON result line
    python rknn_worker.py serve FOLDER GRAPH   run FOLDER's GRAPH (its manifest.json entry) for requests on stdin
"""

from __future__ import annotations

import io
import json
import os
import re
import struct
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

if __name__ == "__main__":  # run as a script: its folder holds rknn.py, which must not shadow the toolkit
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402

TARGET_PLATFORM = "rk3588"
INT8_DTYPES = ("w8a8", "w16a16i", "w16a16i_dfp")  # the quantised types rk3588 accepts (no w8a16)


def toolkit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    for dist in ("rknn-toolkit2", "rknn-toolkit-lite2"):
        try:
            return version(dist)
        except PackageNotFoundError:
            continue
    return "unknown"


def built_model(onnx_path: Path, settings: dict, folder: Path):
    """An rknn.api.RKNN object with ``onnx_path`` loaded and built exactly as ``settings`` say: ``config``,
    ``load`` (inputs and fixed sizes: the NPU takes no dynamic batch) and ``build`` (quantisation, and the
    calibration dataset relative to ``folder``)."""
    from rknn.api import RKNN

    rknn = RKNN(verbose=False)
    with redirect_stdout(sys.stderr):  # the toolkit prints progress on stdout, which carries our protocol
        if rknn.config(**settings["config"]) != 0:
            raise RuntimeError(f"rknn config refused {settings['config']}")
        if rknn.load_onnx(str(onnx_path), **settings["load"]) != 0:
            raise RuntimeError(f"rknn-toolkit2 could not load {onnx_path}")
        build = dict(settings["build"])
        if build.get("dataset"):  # the list names its .npy files relative to its own folder
            build["dataset"] = str(folder / build["dataset"])
        if settings.get("int8_tensors"):
            return hybrid_build(rknn, settings, onnx_path, build["dataset"])
        if rknn.build(**build) != 0:
            raise RuntimeError(f"rknn-toolkit2 could not build {onnx_path} with {settings['build']}")
    return rknn


def build_job(job: dict) -> dict:
    """Convert every graph of a job to a .rknn file; returns what the manifest needs to know."""
    folder = Path(job["folder"])
    done = {}
    for name, graph in job["graphs"].items():
        rknn = built_model(folder / graph["source"], graph["settings"], folder)
        with redirect_stdout(sys.stderr):
            if rknn.export_rknn(str(folder / graph["file"])) != 0:
                raise RuntimeError(f"rknn-toolkit2 could not export {graph['file']}")
        rknn.release()
        done[name] = graph["file"]
    return {"toolkit": toolkit_version(), "files": done}


def hybrid_build(loaded, settings: dict, onnx_path: Path, dataset: str):
    """An RKNN object quantised to int8 only where ``settings["int8_tensors"]`` (regular expressions on the
    toolkit's tensor names, which start with the ONNX node's) match, every other activation in FP16: the
    toolkit's two-step hybrid quantisation. Step 1 (on ``loaded``, the graph loaded) writes the model, weights
    and quantisation config to the working folder; step 2 wants a fresh object."""
    from rknn.api import RKNN

    here, onnx_path, dataset = os.getcwd(), onnx_path.resolve(), str(Path(dataset).resolve())  # before the chdir
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        try:
            if loaded.hybrid_quantization_step1(dataset=dataset, proposal=False) != 0:
                raise RuntimeError(f"rknn-toolkit2 could not quantise {onnx_path} (hybrid step 1)")
            loaded.release()
            cfg_path = Path(f"{onnx_path.stem}.quantization.cfg")
            cfg = cfg_path.read_text("utf-8")
            floats = fp16_tensors(cfg, onnx_path, settings["int8_tensors"])
            cfg_path.write_text(with_fp16(cfg, floats), "utf-8")
            rknn = RKNN(verbose=False)
            if rknn.config(**settings["config"]) != 0:
                raise RuntimeError(f"rknn config refused {settings['config']}")
            if rknn.hybrid_quantization_step2(model_input=f"{onnx_path.stem}.model",
                                              data_input=f"{onnx_path.stem}.data",
                                              model_quantization_cfg=str(cfg_path)) != 0:
                raise RuntimeError(f"rknn-toolkit2 could not build {onnx_path} with {len(floats)} FP16 tensors")
        finally:
            os.chdir(here)
    return rknn


def fp16_tensors(cfg: str, onnx_path: Path, int8_patterns: list[str]) -> list[str]:
    """The activations of a step-1 quantisation config that no pattern keeps int8. Activations: the int8
    entries other than weights (the graph's initializers), constants and the input/output casts."""
    import onnx
    from ruamel.yaml import YAML

    entries = YAML(typ="safe").load(cfg)["quantize_parameters"]
    weights = {i.name for i in onnx.load(str(onnx_path), load_external_data=False).graph.initializer}
    activations = [name for name, entry in entries.items() if entry.get("dtype") == "int8" and name not in weights
                   and not name.startswith("/Constant") and not re.search(r"(_int8|_i1)$", name)]
    unmatched = [p for p in int8_patterns if not any(re.match(p, name) for name in activations)]
    if unmatched:
        raise RuntimeError(f"no tensor of {onnx_path.name} matches {', '.join(unmatched)}")
    return [name for name in activations if not any(re.match(p, name) for p in int8_patterns)]


def with_fp16(cfg: str, tensors: list[str]) -> str:
    """The config with ``tensors`` listed as FP16 layers. Edited as text: step 2 refuses a config whose scales
    a YAML round trip has reprinted."""
    empty = "custom_quantize_layers: {}\n"
    if not cfg.startswith(empty):
        raise RuntimeError(f"unexpected quantisation config from rknn-toolkit2: {cfg[:80]!r}")
    return "custom_quantize_layers:\n" + "".join(f"    {name}: float16\n" for name in tensors) + cfg[len(empty):]


class Session:
    """One graph on the NPU (rknnlite, on the board) or in the PC simulator (rknn-toolkit2, rebuilt)."""

    def __init__(self, folder: Path, rknn_file: str, source: str, settings: dict):
        try:
            from rknnlite.api import RKNNLite
        except ImportError:
            RKNNLite = None  # noqa: N806 (the toolkit's class name)
        if RKNNLite is not None:
            self.mode = "npu"
            self.rknn = RKNNLite(verbose=False)
            if self.rknn.load_rknn(str(folder / rknn_file)) != 0:
                raise RuntimeError(f"rknnlite could not load {folder / rknn_file}")
            ok = self.rknn.init_runtime(core_mask=RKNNLite.NPU_CORE_AUTO)
        else:
            self.mode = "simulator"
            self.rknn = built_model(folder / source, settings, folder)
            with redirect_stdout(sys.stderr):
                ok = self.rknn.init_runtime()
        if ok != 0:
            raise RuntimeError(f"the RKNN runtime did not start for {rknn_file} ({self.mode})")

    def run(self, inputs: list[np.ndarray]) -> list[np.ndarray]:
        with redirect_stdout(sys.stderr):
            out = self.rknn.inference(inputs=[np.ascontiguousarray(x) for x in inputs])
        if out is None:
            raise RuntimeError("RKNN inference failed (see the toolkit's log above)")
        return [np.asarray(o) for o in out]


def send(stream, arrays: dict[str, np.ndarray]) -> None:
    """A message: 8-byte length, then an .npz of the arrays (no pickles either way)."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    data = buf.getvalue()
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def receive(stream) -> dict[str, np.ndarray] | None:
    head = stream.read(8)
    if len(head) < 8:
        return None
    (size,) = struct.unpack("<Q", head)
    with np.load(io.BytesIO(stream.read(size)), allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def serve(folder: Path, graph: str) -> None:
    """Answer requests until stdin closes: inputs arrive as arr_0.. in the contract's order."""
    entry = json.loads((Path(folder) / "manifest.json").read_text("utf-8"))["graphs"][graph]
    session = Session(folder, entry["file"], entry["source"], entry["build"])
    out = sys.stdout.buffer
    send(out, {"ready": np.array(1), "mode": np.array(session.mode), "toolkit": np.array(toolkit_version())})
    while (request := receive(sys.stdin.buffer)) is not None:
        try:
            outputs = session.run([request[f"arr_{i}"] for i in range(len(request))])
            send(out, {f"out_{i}": o for i, o in enumerate(outputs)})
        except Exception as exc:  # the caller raises it with its message
            send(out, {"error": np.array(f"{type(exc).__name__}: {exc}")})


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "build":
        result = build_job(json.loads(Path(argv[1]).read_text("utf-8")))
        print(json.dumps(result))
        return 0
    if len(argv) == 3 and argv[0] == "serve":
        serve(Path(argv[1]), argv[2])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
