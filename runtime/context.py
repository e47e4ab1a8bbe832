"""Context rules for polyphonic characters: a decision list over the neighbouring characters, learnt from
HKCanCor's training split (`cantoedge corpus lexicon` writes it). A rule fires only where HKCanCor read the
character one way in at least 90 % of at least 3 occurrences of that context, so it encodes collocations
(睇下 haa5, 下面 haa6) and not one corpus's habit where two readings are both accepted; the occurrences are those
where the dictionary reads the character alone, and the frontend applies the rules there only (inside a longer
word, 重新, the word's reading stands). Pure Python: a few dict
lookups per polyphonic character (device safe)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from .datafiles import read_package_text
from .jyutping import JyutpingError, parse_syllable

CONTEXT_FILE = "data/context.tsv"  # char, context, neighbours, reading, agreeing, occurrences; tab-separated
START, END = "^", "$"  # the run's edges, as neighbours
CONTEXTS = ("before", "after", "before2", "after2")  # in this order when two rules are equally sure


class ContextRulesError(ValueError):
    """A context-rules file with a malformed line."""


@dataclass(frozen=True)
class ContextRule:
    """HKCanCor read ``char`` as ``reading`` in ``agreeing`` of ``occurrences`` places with this context."""

    char: str
    context: str  # one of CONTEXTS
    neighbours: str  # the character(s) on that side, START/END at the run's edges
    reading: str
    agreeing: int
    occurrences: int

    @property
    def strength(self) -> tuple[float, int]:
        return self.agreeing / self.occurrences, self.occurrences

    def describe(self) -> str:
        """Why the rule fired, in words: "context: 下 after 睇 → haa5 (HKCanCor training split: 24 of 24)"."""
        return (f"context: {self.char} {self.where()} → {self.reading} "
                f"(HKCanCor training split: {self.agreeing} of {self.occurrences})")

    def where(self) -> str:
        if self.context.startswith("before"):
            chars, edge = self.neighbours.lstrip(START), self.neighbours.startswith(START)
            return " ".join(filter(None, (f"after {chars}" if chars else "", "at the start" if edge else "")))
        chars, edge = self.neighbours.rstrip(END), self.neighbours.endswith(END)
        return " ".join(filter(None, (f"before {chars}" if chars else "", "at the end" if edge else "")))


def closes_written_clause(text: str, i: int) -> bool:
    """下 closing a run that 在 or 於 opens (在一般情況下，在警方陪同下): "under", haa6, as the dictionary reads it.
    HKCanCor's conversations taught 下 at a run's end haa5 (睇下，試下，) and hold two such clauses, so this is a
    stated rule, as formal text writes it daily."""
    return text[i] == "下" and i == len(text) - 1 and i > 1 and text[0] in "在於" and not text.startswith("於是")


# Nouns of a condition that 下 right after makes "under" (喺呢種情況下, 正常情況下, 室溫環境下, 在這個前提下): none
# can be a verb that 下 would make "a bit" (試下; 努力下 "try harder" is one, so it is not listed). The rules for a
# run's end or a pronoun after it read 下 there haa5, the 睇下 of HKCanCor's conversations.
CONDITION_NOUNS = frozenset({"情況", "情况", "情形", "狀況", "狀態", "環境", "處境", "前提", "條件", "背景", "氣氛",
                             "壓力", "制度", "體制", "政策", "框架", "局面", "形勢", "情勢", "模式", "條例", "法例",
                             "規例"})


# ... and the single characters after which 下 is "under" or "down" (如下 "as follows", 樹下, 台下, 腳下, 向下, 墮下,
# 剩下): nouns of a place and verbs of a direction, none a verb that 下 makes "a bit" (查下, 抖下: haa5). The rule
# for a run's end read them haa5 (37 places of CTCPC and Common Voice, 如下 six times).
UNDER_AFTER = frozenset("如當向台腳樹橋塔線窗山月燈傘床牀桌枱城膝筆足樓簷蔭刀箭左右墮脫落跪剩")


# ... and the units of a sequence that 下 (or 下一) before them makes "next" (下一代, 寄望下一代, 詳見下節, 下一站):
# the rules for a verb before it (望下, 見下: haa5, "a bit") read 希望下一代 and 詳見下節 haa5. Not 次, 集 or 場,
# after which the verb's "a bit" and "one" read as well (試下一次, 睇下一集).
NEXT_UNITS = frozenset("代步站屆任輪季章節頁")


def reads_under(text: str, i: int) -> str | None:
    """Why ``text[i]``, a 下, is "under", "down" or "next", haa6, as the dictionary reads it, where no context rule
    applies (the stated rules above: formal text writes these daily, conversation rarely), or None: it closes a clause
    that 在 opens, follows a noun of a condition (情況下), a place (樹下) or a direction (向下), or comes before a unit
    of a sequence (下一代, 下節)."""
    if text[i] != "下":
        return None
    if closes_written_clause(text, i):
        return f"下 closing a clause that {text[0]} opens is \"under\""
    if text[max(0, i - 2):i] in CONDITION_NOUNS:
        return f"下 after {text[i - 2:i]}, a noun of a condition, is \"under\""
    if i >= 1 and text[i - 1] in UNDER_AFTER:
        return f"下 after {text[i - 1]} is \"below\" or \"down\" (如下, 樹下, 向下)"
    ahead = text[i + 1:i + 3] if text[i + 1:i + 2] == "一" else text[i + 1:i + 2]  # 一代 or 節
    if ahead and ahead[-1] in NEXT_UNITS:
        return f"下 before {ahead} is \"next\""
    return None


# Characters whose lexicon entry, HKCanCor's conversational sense of them alone, gives way to ToJyutping's reading
# beside these neighbours (after, before), where they mean what written text means by them:
# - 重 after a word of degree or a unit of weight is the adjective "heavy" (好重, 咁重, 太重, 幾重, 三斤重), cung5:
#   HKCanCor's 重 alone is the adverb "still" (zung6, 仲: 佢重未嚟), which follows none of them. HKCanCor reads its
#   four such places so (好重嗰隻, 殺氣好重, 冇咁重, 睇得咁重), too few after any one word for a rule. Not after 噉
#   (噉重有, "then still"), nor 兩 (兩重, "two layers"). 鬼 as the intensifier of 好鬼 and 咁鬼 too (傷得好鬼重;
#   2026-12-07); and after 較, 超 and 過 (比較重, 超重, 過重嘅書包), after 多 where it is not a count (幾多重, "how
#   heavy"; 多重器官 is "multiple": senses.py), and before 嘢 and 咗 (重嘢, 語氣重咗啲), which "still" never takes
#   (2026-12-07, later).
# - 核 in a word of checking or of the nucleus (審核, 覆核, 評核, 批核, 核准, 核對, 核實; 核心, 核電, 核武, 核彈, 核能,
#   核酸, 核輻射, 核磁共振, 核桃; and 核算, 核證, 核威脅, 核污水, 核廢料, 核災, 核事故, 核問題), hat6: HKCanCor's
#   核 alone is the fruit's stone (wat6: 冇核, 大粒核), which none of these make, and ToJyutping lists none of these
#   words, since they read as their characters.
# - 儲 in a word of storing or reserves (儲量, 儲備, 儲蓄, 儲存, 儲藏, 儲糧; 倉儲, 轉儲), cyu5: HKCanCor's 儲 alone is
#   "to save up" (cou5: 儲錢, 儲郵票), and ToJyutping reads 儲 alone cyu5 (2026-12-07, a new session).
TOJYUTPING_BESIDE = {
    "重": (frozenset("好咁太幾更最越夠極鬼噸斤磅克較超過多"), frozenset("嘢咗"), '"heavy"'),
    "核": (frozenset("審覆評批考查結"),
          frozenset("准對實心電武彈能酸輻磁戰爆試子桃算威污問災證事廢潛導聚裂設協"),
          "a word of a check or of the nucleus (審核, 核心), not a fruit's stone"),
    "儲": (frozenset("倉轉"), frozenset("量備蓄存藏糧"),
          "a word of storing or reserves (儲量, 倉儲), not \"to save up\""),
}


def reads_as_tojyutping(text: str, i: int) -> str | None:
    """Why ``text[i]``, read alone, takes ToJyutping's reading beside its neighbours (the stated rules above), or
    None: 重 after 咁 is "heavy", 核 before 心 a word of the nucleus."""
    stated = TOJYUTPING_BESIDE.get(text[i])
    if stated is None:
        return None
    after, before, sense = stated
    if i > 0 and text[i - 1] in after:
        return f"{text[i]} after {text[i - 1]} is {sense}"
    if i + 1 < len(text) and text[i + 1] in before:
        return f"{text[i]} before {text[i + 1]} is {sense}"
    return None


def stated_place(text: str, i: int) -> bool:
    """Whether a stated rule reads ``text[i]`` (下 "under", 重 "heavy", 核 a nucleus), so that no context rule is
    learnt or applied there."""
    return bool(reads_under(text, i) or reads_as_tojyutping(text, i))


def after_noun_phrase(text: str, i: int) -> bool:
    """下 two characters after 嘅, 的 or 之 (佢嘅情況下, 老師嘅指導下, 的前提下): "under" a noun, so what follows it
    (a run's end, 我, 佢) says nothing of its reading; the rules for what precedes it (試下, 睇下) still apply.
    HKCanCor holds no such place, so this is a stated rule."""
    return text[i] == "下" and i >= 3 and text[i - 3] in "嘅的之"


def context_keys(text: str, i: int) -> tuple[str, str, str, str]:
    """The neighbours of ``text[i]`` in CONTEXTS order: one and two characters either side, edges marked."""
    n = len(text)
    before = text[i - 1] if i > 0 else START
    after = text[i + 1] if i + 1 < n else END
    before2 = text[i - 2:i] if i > 1 else START + text[:i]
    after2 = text[i + 1:i + 3] if i + 3 <= n else text[i + 1:] + END
    return before, after, before2, after2


class ContextRules:
    """char -> {(context, neighbours): rule}; ``decide`` gives the surest rule that matches, if any. A character's
    rules are parsed the first time it is read (the whole file would cost 20-30 ms of a start-up)."""

    def __init__(self, rules: list[ContextRule] | None = None, lines: dict[str, list[str]] | None = None):
        self._lines = lines or {}  # char -> its unparsed, already validated lines
        self._by_char: dict[str, dict[tuple[str, str], ContextRule]] = {}
        for rule in rules or ():
            self._by_char.setdefault(rule.char, {})[(rule.context, rule.neighbours)] = rule

    def _table(self, char: str) -> dict[tuple[str, str], ContextRule] | None:
        table = self._by_char.get(char)
        if table is None and char in self._lines:
            table = self._by_char[char] = {}
            for line in self._lines.pop(char):
                c, context, neighbours, reading, agreeing, occurrences = line.split("\t")
                table[(context, neighbours)] = ContextRule(c, context, neighbours, reading, int(agreeing),
                                                           int(occurrences))
        return table

    def decide(self, text: str, i: int, open_start: bool = False) -> ContextRule | None:
        """The rule for ``text[i]`` in its context: the highest agreement, then the most occurrences; none where 下
        reads "under" (``reads_under``) or 重 "heavy" and 核 a nucleus (``reads_as_tojyutping``), and none keyed on
        what follows 下 after a noun (the stated rules above).
        ``open_start``: the run starts right after a word in Latin letters (喺group度,
        喺IFC度), no phrase's start, so no rule keyed on the start applies (度 at the start → dok6, "to measure",
        read them). A run's end before such a word keeps its rules: the word is mostly what a verb takes there, and
        下 at the end → haa5 reads 做下tutor, 攞下feel as said."""
        table = self._table(text[i])
        if table is None or stated_place(text, i):
            return None
        best = None
        for context, neighbours in zip(CONTEXTS, context_keys(text, i)):
            if context.startswith("after") and after_noun_phrase(text, i) \
                    or open_start and START in neighbours:
                continue
            rule = table.get((context, neighbours))
            if rule is not None and (best is None or rule.strength > best.strength):
                best = rule
        return best


def format_rules(rules: list[ContextRule]) -> str:
    return "".join(f"{r.char}\t{r.context}\t{r.neighbours}\t{r.reading}\t{r.agreeing}\t{r.occurrences}\n"
                   for r in rules)


def parse_rules(text: str, source: str = "context rules") -> list[ContextRule]:
    """The file's lines after its ``#`` header; every field checked, so a damaged file fails by line."""
    rules = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        try:
            char, context, neighbours, reading, agreeing, occurrences = fields
            parse_syllable(reading)
            rule = ContextRule(char, context, neighbours, reading, int(agreeing), int(occurrences))
        except (ValueError, JyutpingError) as exc:
            raise ContextRulesError(f"{source}:{lineno}: not char, context, neighbours, reading, agreeing, "
                                    f"occurrences ({exc})") from None
        if context not in CONTEXTS or len(char) != 1 or not 0 < rule.agreeing <= rule.occurrences:
            raise ContextRulesError(f"{source}:{lineno}: bad rule {line!r}")
        rules.append(rule)
    return rules


def load_context_rules(path: str | os.PathLike[str] | None = None) -> ContextRules:
    """The bundled rules (runtime/data/context.tsv) or a file in the same format."""
    if path is None:
        return _bundled()
    with open(path, encoding="utf-8") as f:
        return ContextRules(parse_rules(f.read(), str(path)))


@lru_cache(maxsize=1)
def _bundled() -> ContextRules:
    """The package's own file, grouped by character without re-validating each line: `cantoedge corpus lexicon`
    validates what it writes, and a test validates the bundled file with parse_rules."""
    lines: dict[str, list[str]] = {}
    text = read_package_text(CONTEXT_FILE)
    for line in text.splitlines():
        if line and not line.startswith("#"):
            lines.setdefault(line[0], []).append(line)
    return ContextRules(lines=lines)
