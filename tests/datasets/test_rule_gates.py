import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.datasets.rule_gates import GATES_PATH, gates, gates_json, required_chars
from cantoedge.runtime.number_rules import number_rules
from cantoedge.runtime.rule_gates import LazyPattern, apply_rules


def test_the_committed_gates_are_those_the_rules_give():
    """A rule changed without `python -m cantoedge.datasets.rule_gates` would run ungated (slower, still right)."""
    assert GATES_PATH.read_text(encoding="utf-8") == gates_json()
    assert len(gates()) >= 0.9 * len(number_rules())  # a bare number's rule and a few others have none


@pytest.mark.parametrize("pattern, flags, gate", [
    ("ab", 0, {"a"}), ("a?b", 0, {"b"}), ("a*b+", 0, {"b"}), ("x|yz", 0, {"x", "y"}), ("(?:x|y?)z", 0, {"z"}),
    (r"(?=x)\d", 0, {"x"}), (r"(?<=[蚊元])\d", 0, {"蚊", "元"}), (r"(?!x)\d", 0, None), (r"[^a]\d", 0, None),
    (r"a{0,2}\d", 0, None), (r"\d+", 0, None), (r"[0-9a]", 0, None),  # a set with a digit skips nothing
    (r"\d\s\d", 0, set(c for c in map(chr, range(0x3001)) if c.isspace()) | {"\x1c", "\x1d", "\x1e", "\x1f"}),
    ("(?i:ok)", 0, {"o", "O"}), ("k", re.IGNORECASE, {"k", "K", "\u212a"}), ("(?i)s", 0, {"s", "S", "\u017f"}),
    ("[\u4e00-\u9fff]x", 0, {"x"}),  # all Han text is too wide a class to gate on
])
def test_a_gate_holds_a_character_every_match_needs(pattern, flags, gate):
    assert required_chars(pattern, flags) == (frozenset(gate) if gate is not None else None)


_GATED = sorted(set("".join(gates().values())) - set("\x0b\x0c\x1c\x1d\x1e\x1f\x85\u1680\u2028\u2029"))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(_GATED + list("0123456789012345 .,:/-%$年月日號人個至比")), max_size=30))
def test_gated_rules_rewrite_every_text_as_the_rules_all_run_do(text):
    """Skipping a rule whose gate the text lacks changes nothing, an earlier rule's rewriting included."""
    expected = text
    for pattern, repl in number_rules():
        expected = pattern.compiled().sub(repl, expected)
    assert apply_rules(number_rules(), text) == expected


def test_an_ungated_pattern_always_runs_and_compiles_once():
    pattern = LazyPattern(r"(\d)")
    assert pattern.gate is None and pattern.compiled() is pattern.compiled()
    assert apply_rules([(pattern, r"<\1>")], "a1") == "a<1>"


def test_a_pattern_a_rule_consults_compiles_on_first_use_and_searches_as_re_does():
    """Patterns consulted by a rule's code (dates.said_before's) look up no gate and compile only when used."""
    pattern = LazyPattern(r"視力[\s:：]*$", gated=False)
    assert pattern.gate is None and pattern._compiled is None
    assert pattern.search("佢視力：", 0, 4) and not pattern.search("佢視力好")
    assert pattern._compiled is not None and pattern.fullmatch("視力") and pattern.pattern == r"視力[\s:：]*$"


def test_a_first_sentence_compiles_only_the_rules_it_could_fire():
    """The start-up cost: compiling all of them was 30 ms; a fresh process reading one sentence compiles a few."""
    code = ("from cantoedge.runtime.number_rules import expand_numbers, number_rules\n"
            "expand_numbers('我有2個蘋果，HK$100。')\n"
            "print(sum(p._compiled is not None for p, _ in number_rules()), len(number_rules()))")
    compiled, total = map(int, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                              check=True).stdout.split())
    assert compiled <= total // 4

