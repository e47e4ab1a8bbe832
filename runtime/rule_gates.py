"""Rewrite rules compiled on first use and skipped where they cannot match, so that a first sentence compiles only
the rules its characters could fire (compiling all of runtime/number_rules.py's took 30 ms of every start).

Each rule's gate is a set of characters of which every match of its pattern holds at least one (in the match or
in a lookaround beside it): a text without any of them cannot match, so the rule is skipped without compiling it.
The gates are read from a data file written by ``datasets/rule_gates.py`` (``python -m cantoedge.datasets.rule_gates``),
which derives them from the patterns themselves; a pattern missing from the file has no gate and always runs.
"""

from __future__ import annotations

import json
import re
from functools import cache

from .datafiles import read_package_text

GATES_FILE = "number_rule_gates.json"


def gate_key(pattern: str, flags: int) -> str:
    """The file's key for a pattern: its flags (case-insensitive or not) and its text."""
    return f"{'i' if flags & re.IGNORECASE else '-'}:{pattern}"


@cache
def _gates() -> dict[str, frozenset[str]]:
    try:
        return {key: frozenset(chars) for key, chars in json.loads(read_package_text("data/" + GATES_FILE)).items()}
    except FileNotFoundError:  # (while the file is first written) every rule runs, as without gates
        return {}


class LazyPattern:
    """A regular expression compiled the first time it is used; ``gate`` as above (None: no gate)."""

    __slots__ = ("pattern", "flags", "gate", "_compiled")

    def __init__(self, pattern: str, flags: int = 0, gated: bool = True) -> None:
        """``gated=False``: no gate is looked up (a pattern a rule's code consults, not a rule: the gates file is
        read only when the first rule is made)."""
        self.pattern, self.flags = pattern, flags
        self.gate: frozenset[str] | None = _gates().get(gate_key(pattern, flags)) if gated else None
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str):
        """search, match, fullmatch …: the compiled pattern's."""
        return getattr(self.compiled(), name)

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def sub(self, repl, text: str) -> str:
        return self.compiled().sub(repl, text)


def apply_rules(rules: list[tuple[LazyPattern, object]], text: str) -> str:
    """``text`` through every rule in order, skipping those whose gate shares no character with the text as it
    stands then (an earlier rule may write the characters a later one needs: 比, 至, its marks)."""
    chars = set(text)
    for pattern, repl in rules:
        if pattern.gate is not None and chars.isdisjoint(pattern.gate):
            continue
        rewritten = pattern.sub(repl, text)
        if rewritten is not text:  # (sub returns the text itself where nothing matched)
            text, chars = rewritten, set(rewritten)
    return text
