"""TensorRT target, built on the Jetson itself (engines are not portable across TensorRT versions or GPUs).

Everything the build decides is planned without TensorRT (``plan_trt``) and tested on machines that cannot
install it: which INT8 path the installed version takes, the optimisation profiles from the graph contracts,
the calibration cache served to the implicit calibrator, the layers kept in float by name, and the
equivalent trtexec and polygraphy commands. ``build_trt`` then runs the plan through TensorRT's documented
Python API; it runs only where ``import tensorrt`` works.

INT8 paths: TensorRT 11 removed the implicit calibrator (``int8_calibrator``, ``BuilderFlag.INT8``), so 10.x
and later build the project's explicit Q/DQ graphs (strongly typed networks on 11.x, where Q/DQ fixes every
precision); JetPack 5 and 6 ship 8.5 and 10.3, and 8.5-9.x build the FP32 graphs with the project's
calibration cache served by an IInt8EntropyCalibrator2 that needs no data.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass, field
from pathlib import Path

from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.fileio import atomic_write
from cantoedge.runtime.graphs import DECODER, ENCODER, GRAPHS, VOCODER, GraphInfo, window_shapes

from .manifest import graph_entry, input_hashes, onnx_metadata, write_manifest
from .sources import check_layer_names, find_sources
from .staging import carry_eval_bundle, staged_folder

MAX_BATCH = 8  # decoder and vocoder windows batched together (the server's dynamic batcher)
ENCODER_TOKENS = (1, 64, 1024)  # min, opt, max token lengths (1,024: the encoder's position table)


def version_tuple(version: str) -> tuple[int, int, int]:
    parts = [int(p) for p in version.split(".")[:3] if p.isdigit()]
    return tuple((parts + [0, 0, 0])[:3])  # type: ignore[return-value]


def int8_mode(version: str) -> str:
    """'explicit' (Q/DQ graphs) on TensorRT >= 10, 'implicit' (calibrator + cache) on 8.5-9.x."""
    major, minor, _ = version_tuple(version)
    if (major, minor) < (8, 5):
        raise ValueError(f"TensorRT {version} is older than 8.5 (JetPack 5), the oldest this builder supports")
    return "explicit" if major >= 10 else "implicit"


def strongly_typed(version: str) -> bool:
    """TensorRT 11 builds Q/DQ networks strongly typed: the graph's types decide every layer's precision."""
    return version_tuple(version)[0] >= 11


def cache_header_version(version: str) -> int:
    """The number TensorRT writes in a calibration cache's header: 8.5.3 -> 8503, 10.3.0 -> 10300."""
    major, minor, patch = version_tuple(version)
    return major * 1000 + minor * 100 + patch


@dataclass(frozen=True)
class GraphPlan:
    graph: str
    source: Path  # the ONNX file parsed
    profile: dict[str, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]  # input -> (min, opt, max)
    flags: tuple[str, ...]  # BuilderFlag names
    float_layers: list[str] = field(default_factory=list)  # constrained to FP32 by name
    calibration_cache: Path | None = None  # implicit INT8 only

    def shape_arg(self, which: int) -> str:
        return ",".join(f"{name}:{'x'.join(map(str, shapes[which]))}" for name, shapes in self.profile.items())


@dataclass(frozen=True)
class TrtPlan:
    version: str
    precision: str
    mode: str  # "fp32", "fp16", "explicit" or "implicit" (INT8)
    strongly_typed: bool
    graphs: dict[str, GraphPlan]
    workspace_mb: int

    def trtexec(self, graph: str, engine: str, timing_cache: str) -> str:
        """The equivalent trtexec command line for one graph."""
        g = self.graphs[graph]
        flags = {"FP16": "--fp16", "INT8": "--int8", "OBEY_PRECISION_CONSTRAINTS": "--precisionConstraints=obey"}
        parts = ["trtexec", f"--onnx={g.source}", f"--saveEngine={engine}",
                 *(["--stronglyTyped"] if self.strongly_typed else [flags[f] for f in g.flags if f in flags]),
                 f"--minShapes={g.shape_arg(0)}", f"--optShapes={g.shape_arg(1)}", f"--maxShapes={g.shape_arg(2)}",
                 f"--memPoolSize=workspace:{self.workspace_mb}M", f"--timingCacheFile={timing_cache}"]
        if g.calibration_cache:
            parts.append(f"--calib={g.calibration_cache}")
        if "OBEY_PRECISION_CONSTRAINTS" in g.flags:
            parts.append("--layerPrecisions=" + ",".join(f"{name}:fp32" for name in g.float_layers))
        return " ".join(parts)

    def polygraphy(self, graph: str, engine: str, timing_cache: str) -> str:
        """The equivalent `polygraphy convert` command line for one graph."""
        g = self.graphs[graph]
        parts = ["polygraphy convert", str(g.source), "-o", engine]
        if self.strongly_typed:
            parts.append("--strongly-typed")
        else:
            parts += [{"FP16": "--fp16", "INT8": "--int8"}[f] for f in g.flags if f in ("FP16", "INT8")]
        for name, (lo, opt, hi) in g.profile.items():
            parts += ["--trt-min-shapes", f"{name}:[{','.join(map(str, lo))}]",
                      "--trt-opt-shapes", f"{name}:[{','.join(map(str, opt))}]",
                      "--trt-max-shapes", f"{name}:[{','.join(map(str, hi))}]"]
        if g.calibration_cache:
            parts += ["--calibration-cache", str(g.calibration_cache)]
        if "OBEY_PRECISION_CONSTRAINTS" in g.flags:
            parts += ["--precision-constraints", "obey", "--layer-precisions",
                      *(f"{name}:float32" for name in g.float_layers)]
        parts += ["--pool-limit", f"workspace:{self.workspace_mb}M", "--save-timing-cache", timing_cache]
        return " ".join(parts)


def profile_for(graph: str, info: GraphInfo, dim: int) -> dict:
    """Optimisation profile from the graph contract: token lengths for the encoder; windows of fixed length
    with batch 1..MAX_BATCH for the decoder and vocoder."""
    if graph == ENCODER.name:
        lo, opt, hi = ENCODER_TOKENS
        return {name: ((1, lo), (1, opt), (1, hi)) for name in ENCODER.inputs}
    spec = DECODER if graph == DECODER.name else VOCODER
    shapes = window_shapes(graph, info, dim)
    return {name: ((1, *shapes[name]), (1, *shapes[name]), (MAX_BATCH, *shapes[name])) for name in spec.inputs}


def plan_trt(graph_dir: Path, precision: str, version: str, workspace_mb: int = 1024) -> TrtPlan:
    """What build_trt will do with TensorRT ``version``, decided without TensorRT."""
    import onnx

    if precision not in ("fp32", "fp16", "int8"):
        raise ValueError(f"unknown precision {precision!r}")
    mode = int8_mode(version) if precision == "int8" else precision
    sources = find_sources(graph_dir, precision, qdq=(mode == "explicit"))
    typed = mode == "explicit" and strongly_typed(version)
    graphs = {}
    for spec in GRAPHS:
        model = onnx.load(str(sources.graphs[spec.name]), load_external_data=False)
        info = GraphInfo.from_metadata(onnx_metadata(model), sources.graphs[spec.name])
        dim = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim][-1]
        float_layers = sources.float_layers.get(spec.name, []) if precision == "int8" else []
        flags: list[str] = []
        if not typed:  # strongly typed networks take every precision from the graph's own types
            if precision in ("fp16", "int8"):
                flags.append("FP16")  # layers left out of INT8 may still run in FP16 ...
            if precision == "int8":
                flags.append("INT8")  # (weakly typed Q/DQ networks on 10.x need the flag too)
                if float_layers:
                    flags.append("OBEY_PRECISION_CONSTRAINTS")  # ... except the ones kept float by name
        cache = Path(graph_dir) / f"{spec.name}.calib.cache" if mode == "implicit" else None
        if cache is not None and not cache.is_file():
            raise FileNotFoundError(f"no {cache}: run `cantoedge calibrate --onnx {graph_dir}` first")
        graphs[spec.name] = GraphPlan(spec.name, sources.graphs[spec.name], profile_for(spec.name, info, dim),
                                      tuple(flags), float_layers, cache)
    return TrtPlan(version, precision, mode, typed, graphs, workspace_mb)


def calibration_cache_bytes(path: Path, version: str) -> bytes:
    """The project's cache with the installed TensorRT's header version, as the calibrator serves it."""
    from cantoedge.calibrate.trtcache import CalibrationCache, read_cache

    cache = read_cache(path)
    return CalibrationCache(cache.scales, cache_header_version(version), cache.algorithm).to_text().encode()


def make_calibrator(trt, cache: bytes):
    """An IInt8EntropyCalibrator2 that serves a finished cache and needs no data (TensorRT 8.5-10.x)."""

    class CacheCalibrator(trt.IInt8EntropyCalibrator2):
        def __init__(self) -> None:
            trt.IInt8EntropyCalibrator2.__init__(self)

        def get_batch_size(self) -> int:
            return 1

        def get_batch(self, names):  # noqa: ARG002 (TensorRT's signature)
            return None  # no data: everything comes from the cache

        def read_calibration_cache(self) -> bytes:
            return cache

        def write_calibration_cache(self, data) -> None:
            pass  # the project's cache is the source of truth

    return CacheCalibrator()


def _build_one(trt, logger, plan: TrtPlan, g: GraphPlan, timing_cache: bytes):
    """Parse, configure and build one engine; returns (serialised engine, the updated timing cache)."""
    builder = trt.Builder(logger)
    if plan.strongly_typed:
        flags = 1 << int(trt.NetworkDefinitionCreationFlag.STRONGLY_TYPED)
    elif version_tuple(plan.version)[0] < 10:
        flags = 1 << int(trt.NetworkDefinitionCreationFlag.EXPLICIT_BATCH)
    else:
        flags = 0  # explicit batch is the only mode from 10.0
    network = builder.create_network(flags)
    parser = trt.OnnxParser(network, logger)
    if not parser.parse(g.source.read_bytes()):
        errors = "; ".join(str(parser.get_error(i)) for i in range(parser.num_errors))
        raise RuntimeError(f"TensorRT could not parse {g.source}: {errors}")
    layers = {network.get_layer(i).name: network.get_layer(i) for i in range(network.num_layers)}
    check_layer_names(g.graph, g.float_layers, set(layers), "the network TensorRT parsed")
    config = builder.create_builder_config()
    config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, plan.workspace_mb << 20)
    cache = config.create_timing_cache(timing_cache)
    config.set_timing_cache(cache, ignore_mismatch=False)
    for flag in g.flags:
        config.set_flag(getattr(trt.BuilderFlag, flag))
    if plan.mode == "implicit":
        config.int8_calibrator = make_calibrator(trt, calibration_cache_bytes(g.calibration_cache, plan.version))
    if "OBEY_PRECISION_CONSTRAINTS" in g.flags:
        for name in g.float_layers:  # the layers the ranges file keeps float stay float
            layer = layers[name]
            layer.precision = trt.float32
            for i in range(layer.num_outputs):
                layer.set_output_type(i, trt.float32)
    profile = builder.create_optimization_profile()
    for name, (lo, opt, hi) in g.profile.items():
        profile.set_shape(name, lo, opt, hi)
    config.add_optimization_profile(profile)
    if plan.mode == "implicit":
        config.set_calibration_profile(profile)
    engine = builder.build_serialized_network(network, config)
    if engine is None:
        raise RuntimeError(f"TensorRT could not build the {g.graph} engine (see its log above)")
    return bytes(engine), bytes(cache.serialize())


def build_trt(graph_dir: Path, precision: str, out: Path, workspace_mb: int = 1024,
              timing_cache: Path | None = None, log=print) -> EngineManifest:
    """Build the three engines for this machine's GPU (run it on the Jetson that will serve them)."""
    import onnx

    from cantoedge.runtime.backends.trt import compute_capability, import_trt

    trt = import_trt()
    plan = plan_trt(graph_dir, precision, trt.__version__, workspace_mb)
    logger = trt.Logger(trt.Logger.WARNING)
    timing = timing_cache.read_bytes() if timing_cache and timing_cache.is_file() else b""
    with staged_folder(out) as work:
        entries = {}
        for name, g in plan.graphs.items():
            log(f"trt: building the {name} engine ({plan.mode}) from {g.source}")
            engine, timing = _build_one(trt, logger, plan, g, timing)
            (work / f"{name}.engine").write_bytes(engine)
            entries[name] = graph_entry(
                work, f"{name}.engine", "trt", precision, onnx.load(str(g.source), load_external_data=False),
                shapes={"profiles": {k: [list(s) for s in v] for k, v in g.profile.items()}},
                float_layers=g.float_layers,
                build={"mode": plan.mode, "flags": list(g.flags), "strongly_typed": plan.strongly_typed,
                       "workspace_mb": workspace_mb, "trtexec": plan.trtexec(name, f"{name}.engine", "trt.cache")})
        if timing_cache:
            atomic_write(timing_cache, lambda tmp, data=timing: Path(tmp).write_bytes(data))
        files = [p.source for p in plan.graphs.values()] + [p.calibration_cache for p in plan.graphs.values()
                                                             if p.calibration_cache]
        if precision == "int8":
            files.append(Path(graph_dir) / "ranges.json")
        manifest = EngineManifest(target="trt", precision=precision, platform=compute_capability(),
                                  toolkit={"name": "tensorrt", "version": trt.__version__,
                                           "host": platform.machine()},
                                  inputs=input_hashes(files), graphs=entries,
                                  notes=[f"INT8 path: {plan.mode}" if precision == "int8" else precision])
        carry_eval_bundle(graph_dir, work)
        write_manifest(work, manifest)
    return manifest
