"""The held-out utterances the regression suite scores on: rendered on their own (no need for the whole corpus)
and packed with the FP32 voice's outputs into the evaluation bundle (regression/evalbundle.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from cantoedge.regression.evalbundle import EvalBundle, make_bundle
from cantoedge.runtime.manifest import load_features, split_records
from cantoedge.runtime.synth import Voice
from cantoedge.runtime.wavio import read_wav

DEFAULT_EVAL_UTTERANCES = 16


def render_eval_corpus(out_dir: Path, split: str = "test", limit: int = DEFAULT_EVAL_UTTERANCES,
                       workers: int = 2, progress: bool = True, flutter: bool = False) -> Path:
    """The first ``limit`` clean HKCanCor utterances of ``split``, rendered with espeak-ng into a small corpus
    (seconds, where the whole corpus takes minutes); resumable like any corpus build. Without pitch flutter by
    default: the bundled voice learned its last stage on that rendering, and flutter is a wobble no text predicts."""
    from .corpus import build_corpus
    from .hkcancor import load_clean

    picked = [u for u in load_clean() if u.split == split][:limit]
    build_corpus(Path(out_dir), utterances=picked, workers=workers, progress=progress, flutter=flutter)
    return Path(out_dir)


def bundle_from_corpus(graphs: Path, corpus: Path, split: str = "test", limit: int = DEFAULT_EVAL_UTTERANCES,
                       progress: Callable[[Iterable], Iterable] | None = None) -> EvalBundle:
    """The FP32 graphs in ``graphs`` over the first ``limit`` utterances of the corpus's ``split``."""
    corpus = Path(corpus)
    records = split_records(corpus, split, limit)
    if not records:
        raise ValueError(f"the corpus in {corpus} has no {split} utterances")
    voice = Voice(Path(graphs), "fp32", threads=1)
    try:
        return make_bundle(voice, records, lambda r: load_features(corpus, r),
                           lambda r: read_wav(corpus / r.wav)[0], f"{corpus.name}, {split} split, "
                           f"first {len(records)}", progress)
    finally:
        voice.close()
