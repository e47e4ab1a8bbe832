"""The private-use marks around text that normalisation rewrote (a number, a date, a particle, a place's name), so
that its segments remember what the Han text was; and what counts as a Han character."""

from __future__ import annotations

import re

# Numbers and dates are rewritten as Han text before segmentation; these private-use marks around the
# rewritten text let the segments remember what it was (a user's own private-use characters are dropped first).
MARKS = {"number": "\ue000", "date": "\ue001", "particle": "\ue002", "place": "\ue003"}
END = "\ue00f"
MARK_KIND = {v: k for k, v in MARKS.items()}
# ... and a space between two phrases of Han text: a pause for the voice, while the dictionary reads across it
PHRASE_SPACE = "\ue00e"


def is_han(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x3134F
        or 0xF900 <= cp <= 0xFAFF or ch == "〇"
    )


def mark(kind: str, text: str) -> str:
    """``text`` between ``kind``'s mark and the end mark."""
    return MARKS[kind] + text + END


def marked(kind: str, repl, keep_prefix: bool = False):
    """``repl`` wrapped so that its Han text is marked as ``kind``; ``keep_prefix``: the match's group 1 (電話, Rm)
    stays before the mark as written, for the text that reads it."""
    def wrap(m: re.Match[str]) -> str:
        out = repl(m)
        prefix = m.group(1) if keep_prefix else ""
        return prefix + (mark(kind, out) if any(is_han(c) for c in out) else out)

    return wrap
