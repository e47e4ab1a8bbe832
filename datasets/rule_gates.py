"""Derives each number rule's gate (runtime/rule_gates.py) from its pattern and writes the gates file.

A gate is a set of characters of which every match holds at least one. It is read off the parsed pattern: a
literal or a character class that every match must pass through (in a group repeated at least once, in a
positive lookaround, or one in each branch of an alternation) gives a candidate set, and the smallest candidate
without a digit is the gate (every text the rules see has a digit, so a set with one skips nothing). Python's own
parser reads the pattern (``re._parser``), so what is derived is what ``re`` compiles.

    python -m cantoedge.datasets.rule_gates      # rewrite runtime/data/number_rule_gates.json after changing a rule
"""

from __future__ import annotations

import json
import re

from cantoedge.datasets.package_data import DATA_PATH, record_data_files
from cantoedge.runtime.fileio import atomic_write_text
from cantoedge.runtime.number_rules import number_rules
from cantoedge.runtime.rule_gates import GATES_FILE, gate_key

try:  # Python 3.11 moved the parser into the re package
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python 3.10 and older
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

GATES_PATH = DATA_PATH / GATES_FILE
_LARGEST_RANGE = 256  # a class spanning more code points than this (all Han text) is no useful gate
_WHITESPACE = frozenset(chr(c) for c in range(0x3001) if re.fullmatch(r"\s", chr(c)))  # \s: none above U+3000
_DIGITS = frozenset("0123456789")


def _case_variants(chars: set[str]) -> set[str]:
    """Every character a case-insensitive pattern matches for these (k also matches K and the Kelvin sign)."""
    letters = [c for c in chars if c.lower() != c.upper()]
    if not letters:
        return chars
    folded = re.compile("[" + "".join(re.escape(c) for c in letters) + "]", re.IGNORECASE)
    return chars | {chr(c) for c in range(0x10000) if folded.fullmatch(chr(c))}


def _class_chars(items: list, ignore_case: bool) -> set[str] | None:
    """The characters a class matches, or None where it is negated, a category other than \\s, or too wide."""
    out: set[str] = set()
    for op, arg in items:
        if op is sre_constants.LITERAL:
            out.add(chr(arg))
        elif op is sre_constants.RANGE and arg[1] - arg[0] <= _LARGEST_RANGE:
            out.update(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre_constants.CATEGORY and arg is sre_constants.CATEGORY_SPACE:
            out |= _WHITESPACE
        else:
            return None
    return _case_variants(out) if ignore_case else out


def _candidates(items, ignore_case: bool) -> list[set[str]]:
    """Sets of which every match of this sequence holds a character."""
    found: list[set[str]] = []
    for op, arg in items:
        if op is sre_constants.LITERAL:
            found.append(_case_variants({chr(arg)}) if ignore_case else {chr(arg)})
        elif op is sre_constants.IN:
            chars = _class_chars(arg, ignore_case)
            if chars is not None:
                found.append(chars)
        elif op is sre_constants.SUBPATTERN:
            _, add, remove, sub = arg
            inner = (ignore_case or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
            found.extend(_candidates(sub, inner))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) and arg[0] >= 1:
            found.extend(_candidates(arg[2], ignore_case))
        elif op is sre_constants.ASSERT:  # a positive lookaround: what it needs is in the text too
            found.extend(_candidates(arg[1], ignore_case))
        elif op is sre_constants.BRANCH:
            union: set[str] = set()
            for branch in arg[1]:
                options = _candidates(branch, ignore_case)
                if not options:
                    break  # a branch that needs nothing: the alternation needs nothing
                union |= min(options, key=lambda chars: (bool(chars & _DIGITS), len(chars)))
            else:
                found.append(union)
    return found


def required_chars(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """The gate of a pattern: a smallest set of characters, digits aside, of which every match holds one (None
    where the pattern needs none of a manageable set, as a bare number does)."""
    parsed = sre_parse.parse(pattern, flags)
    ignore_case = bool(parsed.state.flags & re.IGNORECASE)
    options = [chars for chars in _candidates(parsed, ignore_case) if not chars & _DIGITS]
    return frozenset(min(options, key=lambda chars: (len(chars), sorted(chars)))) if options else None


def gates() -> dict[str, str]:
    """Every number rule's gate, by its pattern's key, its characters sorted (rules without one are left out)."""
    out = {}
    for pattern, _ in number_rules():
        gate = required_chars(pattern.pattern, pattern.flags)
        if gate is not None:
            out[gate_key(pattern.pattern, pattern.flags)] = "".join(sorted(gate))
    return out


def gates_json(found: dict[str, str] | None = None) -> str:
    """The gates file's text: ``found`` (by default every rule's gates, derived now) as sorted JSON."""
    return json.dumps(gates() if found is None else found, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main() -> None:
    found = gates()
    atomic_write_text(GATES_PATH, gates_json(found))
    record_data_files("python -m cantoedge.datasets.rule_gates", GATES_PATH)
    print(f"wrote {GATES_PATH} ({len(found)} gated rules of {len(number_rules())})")


if __name__ == "__main__":
    main()
