"""Training configs in TOML under version control (export/configs/NAME.toml), loaded into dataclasses."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from cantoedge.runtime.inventory import load_inventory

from .models.acoustic import AcousticConfig
from .models.settings import from_table
from .models.vocoder import VocoderConfig
from .tracks import retracks


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 1234
    batch_size: int = 16
    max_steps: int = 10000
    lr: float = 1e-3
    warmup_steps: int = 500
    checkpoint_every: int = 500  # steps per "epoch": checkpoints land on epoch ends, so resumes are exact
    segment_frames: int = 32  # vocoder training segments
    init: str = ""  # a later stage: the sibling run (runs/NAME) whose weights it starts from

    def __post_init__(self) -> None:
        for name in ("batch_size", "max_steps", "checkpoint_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"train.{name} must be at least 1")


YIN_MODES = ("replace", "fill_rimes")
TRACKERS = ("yin", "pyin")


@dataclass(frozen=True)
class ContourConfig:
    """A contour stage (``[contour]``): the decoder alone learns the corpus's cleaned F0, its level and its
    within-token shape, from the encoder's own predictions; the encoder is frozen (with ``train_pitch`` all of it but
    its token-pitch predictor and that pitch's projection into the hidden state: durations and energy stay)."""

    shape_weight: float = 1.0  # weight of the within-token shape loss (semitones squared)
    f0_weight: float = 1.0  # weight of the per-frame log-F0 loss (the level; it was 0.3 % of the total at weight 1)
    max_deviation_st: float = 6.0  # voiced frames further than this from the utterance's median are tracker errors
    tone_set_bases: int = 0  # also train on this many common syllables in all six tones (datasets/tonesets.py)
    yin_threshold: float = 0.0  # > 0: F0 tracked again from the audio with this YIN threshold (0: the corpus's)
    # the second track's tracker: "yin" (with yin_threshold) or "pyin" (librosa's pYIN, kept beside the corpus,
    # export/tracks.py), which reads espeak-ng's sonorant onsets as its renderings carry them
    tracker: str = "yin"
    # what that track does: "replace" the corpus's, or "fill_rimes": voice only the rime frames the corpus's track
    # leaves unvoiced (its levels and onsets stay; jau5's rime was 18 % voiced)
    yin_mode: str = "replace"
    # onsets whose frames "fill_rimes" fills too: j-, which the corpus's YIN voices 7.9 % of (every other sonorant
    # onset 47-54 %; 200 training utterances)
    yin_fill_onsets: tuple[str, ...] = ()
    train_pitch: bool = False  # the encoder's token-pitch predictor learns too (the corpus's levels, not the teacher's)

    def __post_init__(self) -> None:
        if not (self.shape_weight >= 0 and self.f0_weight >= 0 and self.max_deviation_st > 0
                and self.tone_set_bases >= 0):
            raise ValueError("contour.shape_weight, contour.f0_weight and contour.tone_set_bases must be >= 0, "
                             "contour.max_deviation_st > 0")
        if not 0 <= self.yin_threshold < 1:
            raise ValueError(f"contour.yin_threshold must lie in 0..1 (0: the corpus's own F0), got "
                             f"{self.yin_threshold}")
        if self.yin_mode not in YIN_MODES:
            raise ValueError(f"contour.yin_mode must be one of {', '.join(YIN_MODES)}, got {self.yin_mode!r}")
        if self.tracker not in TRACKERS:
            raise ValueError(f"contour.tracker must be one of {', '.join(TRACKERS)}, got {self.tracker!r}")
        if self.tracker == "pyin" and self.yin_threshold:
            raise ValueError("contour.yin_threshold is YIN's: with contour.tracker = \"pyin\" leave it out")
        if self.yin_mode != "replace" and not retracks(self.yin_threshold, self.tracker):
            raise ValueError(f"contour.yin_mode {self.yin_mode!r} fills from a second track: set contour.yin_threshold "
                             "or contour.tracker = \"pyin\"")
        onsets = self.yin_fill_onsets
        if not isinstance(onsets, list | tuple) or not all(isinstance(o, str) and o.endswith("-") for o in onsets):
            raise ValueError(f"contour.yin_fill_onsets must be a list of onsets such as [\"j-\"], got {onsets!r}")
        unknown = load_inventory().unknown(onsets)
        if unknown:
            raise ValueError(f"contour.yin_fill_onsets names {unknown}, which the token inventory does not have")
        if onsets and self.yin_mode != "fill_rimes":
            raise ValueError("contour.yin_fill_onsets fills onsets as well as rimes: it needs "
                             "yin_mode = \"fill_rimes\"")
        object.__setattr__(self, "yin_fill_onsets", tuple(onsets))


@dataclass(frozen=True)
class RunConfig:
    name: str
    kind: str  # "acoustic" | "vocoder"
    model: AcousticConfig | VocoderConfig
    train: TrainConfig
    distil: dict = field(default_factory=dict)
    contour: ContourConfig | None = None

    def with_steps(self, max_steps: int | None = None, checkpoint_every: int | None = None) -> RunConfig:
        changes = {k: v for k, v in (("max_steps", max_steps), ("checkpoint_every", checkpoint_every)) if v}
        return replace(self, train=replace(self.train, **changes)) if changes else self


def parse_config(text: str, name: str) -> RunConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{name}: not valid TOML: {exc}") from exc
    kind = data.get("kind")
    if kind == "acoustic":
        model: AcousticConfig | VocoderConfig = AcousticConfig.from_dict(data.get("model", {}))
    elif kind == "vocoder":
        model = VocoderConfig.from_dict(data.get("model", {}))
    else:
        raise ValueError(f"{name}: kind must be 'acoustic' or 'vocoder', got {kind!r}")
    train = from_table(TrainConfig, data.get("train", {}), "train")
    contour = from_table(ContourConfig, data["contour"], "contour") if "contour" in data else None
    if contour is not None and (kind != "acoustic" or not getattr(model, "frame_pitch", False)):
        raise ValueError(f"{name}: a [contour] stage needs an acoustic model with frame_pitch = true")
    return RunConfig(name, kind, model, train, dict(data.get("distil", {})), contour)


def bundled_configs() -> list[str]:
    """The names of the configs in export/configs/."""
    folder = resources.files("cantoedge.export").joinpath("configs")
    return sorted(ref.name.removesuffix(".toml") for ref in folder.iterdir() if ref.name.endswith(".toml"))


def load_config(name_or_path: str | Path) -> RunConfig:
    """A bundled config by name (teacher, student, vocoder_slim, ...) or a TOML file."""
    path = Path(name_or_path)
    if path.is_file():
        return parse_config(path.read_text("utf-8"), path.stem)
    ref = resources.files("cantoedge.export").joinpath(f"configs/{name_or_path}.toml")
    if path.suffix == ".toml" or not ref.is_file():
        raise ValueError(f"no config {str(name_or_path)!r}: give an existing .toml file or the name of a bundled one "
                         f"({', '.join(bundled_configs())})")
    return parse_config(ref.read_text("utf-8"), str(name_or_path))
