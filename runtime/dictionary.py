"""ToJyutping's word dictionary compiled to a flat, sorted file, read with the same greedy longest match:
importing ToJyutping builds its trie from a packed text at import time (0.9 s measured), and even parsing all
48,000 lines of this file into one dict took 25 ms, a tenth of a `say`'s start-up; so the file is searched
in place, one first character at a time, and only the blocks a text needs are parsed. The HKCanCor lexicon is
layered over it as ToJyutping.customize layers it. `cantoedge corpus g2p-dict` regenerates the file; a test
holds it equal to ToJyutping on held-out text."""

from __future__ import annotations

from functools import cached_property, lru_cache

from .datafiles import read_package_bytes

DICTIONARY_FILE = "data/tojyutping.tsv"  # key<TAB>reading of each character, comma-separated (one line a word)
# Words that a longer match must not end inside: ToJyutping's counts of strokes 一下 … 六下 (haa5) took the 下 of
# the afternoon after a weekday or a count (星期三下午, 星期一至五下午, 一下午 read haa5 ng5; 下午 is haa6). Formal
# text writes them daily; HKCanCor's conversations have none, so this is a stated rule, not one learnt from counts.
# And 奇怪, 奇妙, 奇特: ToJyutping's 好奇, "curious" (hou3 kei4), took 好奇怪, "very strange" (hou2 kei4 gwaai3), so
# HKCanCor's 好奇怪 made the lexicon read 好奇 hou2 kei4 and 我好好奇 hou2 hou2 kei4. And 真係, 真正: ToJyutping's
# 嚟真 ("for real", lai2 zan1) took 笑咗出嚟真係, 帶嚟真正嘅 (lai2 for lai4), and its 當真 ("take it seriously",
# dong3) 相當真正 (2026-12-07). And 73 more (2026-12-07), each where a ToJyutping word ended on the word's first
# character and misread it: 人面 ("a face", min2) took 人面前, 人參 ("ginseng") 人參加, 同好 ("fellow fans", hou3)
# 同好多, 個位 ("the units digit") 個位置, 為之 因為之前, 會考 會考慮. Found by listing such places in CTCPC, Common
# Voice and HKCanCor's training lines and reading each; docs/g2p.md ("A dictionary word that takes the start of the
# next word") names every word, what it mended, what it cost (聚會場所, 中文章法, 上樓梯, 主要成分為) and the words
# left out (好似, 條女, 父母, 粒鐘). And 客氣, 動聽, 動人, 色情, 勝任, 色水, 戰略, 客觀: ToJyutping's 好客, 好動, 好色,
# 好勝 and 好戰 (hou3, "fond of") took a 好 of degree before them (佢對人好客氣, 首歌好動聽, 件衫好色水). And 咁樣 and
# 噉樣 ("like this", gam2 joeng2): ToJyutping's 係咁 and the lexicon's (hai6 gam3, "keep on") took 就係咁樣, 係咁樣嘅.
# And 正式, 正話 ("just now") and 對出 ("just outside"): its 校正 and 校對 (gaau3) took 學校正式, 學校正話 and 學校對出
# (haau6), since no word may start inside 學校 only at the cost of 中學校長's 校長.
KEPT_TOGETHER = frozenset({
    "下午", "下晝", "奇怪", "奇妙", "奇特", "真係", "真正", "面前", "面對", "面積", "參加", "參與", "話題", "話事",
    "好多", "女友", "位置", "位於", "樓下", "樓梯", "成分", "故事", "質疑", "中國", "中文", "娘娘", "耐性", "女人",
    "試吓", "溜冰", "糖水", "文章", "女孩", "龍門", "油門", "行埋", "會場", "乘客", "處理", "質素", "日日", "成功",
    "更加", "計數", "將會", "計劃", "只係", "地方", "應該", "人頭", "之前", "人數", "考慮", "冷氣", "魚蛋", "冷震",
    "行政", "當然", "銀行", "中央", "中心", "中華", "分析", "分享", "分鐘", "女性", "生物", "使用", "表示", "夜晚",
    "市民", "傳統", "少少", "文化", "行動", "聲援", "行李", "物品", "行星", "中醫", "客氣", "動聽", "動人", "色情",
    "勝任", "色水", "戰略", "客觀", "咁樣", "噉樣", "正式", "正話", "對出"})
# Characters no word may take, by what is around them: 會 in 唔會 ("will not") and before it (會唔會, "will or
# won't") is the modal, a word of its own, where ToJyutping's 會長 and 會考 took it after 唔 (會唔會長久 read 長 as
# "chairman", zoeng2) and its 晚會, 公會 and 工會 before 唔會 (夜晚會唔會, 老公會唔會: wui2); not in 機會 or 社會,
# nouns that say "the chance won't …" (好大機會唔會係), nor before 話: 唔會話 is the lexicon's word 會話, "will say"
# (wui5 waa6, HKCanCor's 16 places of 唔會話 are its evidence), where ToJyutping's 會話 is "a conversation".
# And 會 after 上 closing a word of place or manner (身上, 路上, 實際上, 傳統上, 程度上) is the modal too, where
# ToJyutping's 上會 ("to join a loan club", soeng5 wui2) took 佢哋身上會有, 實際上會令, 道路上會有 (8 places of CTCPC
# and Common Voice; 2026-12-07); not after 去, 要, 想 or 行, which 上會 the verb follows (去車行上會).
# Words of ToJyutping's the frontend never matches, where its reading is wrong in every place text writes them:
# 開邊 (hoi1 bin6) is the aspect 開 and 邊 "which" in all 11 places of CTCPC and Common Voice (你去開邊度食晏, 你睇開
# 邊份報紙, 住開邊個市: bin1). And 口密 (hau4 mat6), in all 6 places 口 hau2 (人口密度, 好口密, "tight-lipped"). And
# 會試 (wui6 si5, the imperial examination), in all 8 places the modal and "to try" (我會試吓, 都會試過: wui5 si3). And
# 頭落 (tau4 lok1), in all 7 places a 頭 before 落 "to fall", "to go down" (石頭落喺, 碼頭落船, 批個頭落嚟: lok6). And
# 個都會 (go3 dou1 wui6, "the city"), in all 4 places a 個 before the modal (個個都會蝦碌, 幾個都會係: wui5). And 呢家
# (li1 gaa1), in all 20 places "this" before the measure word 家 (呢家公司, 呢家店, 升遷呢家嘢: ni1, senses.py) or
# "now", which says ni1 too. And 亞媽 (aa3 maa5), in all 27 places "mother", maa1, as rime-cantonese's and
# ToJyutping's own 阿媽, CC-Canto's 亞媽 and HKCanCor's 22 阿媽 read it (你亞媽病咗, 聽亞媽話).
SKIPPED_WORDS = frozenset({"開邊", "口密", "會試", "頭落", "個都會", "呢家", "亞媽"})
# And 會上 ("at the meeting", wui2 soeng6) only where a meeting is meant: after a preposition or 嘅 (喺會上發言, 響會上,
# 嘅會上), opening the run (會上冇人提出) or closing a meeting's name (諮詢會上); elsewhere its 會 is the modal and its
# 上 begins the verb (會上升, 會上癮, 會上線, 豬乸都會上樹, 我會上郵輪): 20 of its 28 places of CTCPC and Common Voice.
# Words that end in 會 (社會上, 宴會上, 運動會上) never start a match there, so they keep theirs.
AT_THE_MEETING, AT_THE_MEETING_AFTER = "會上", "喺響响嘅的在於之"
MEETINGS = ("諮詢", "記者", "發佈", "發布", "研討", "座談", "股東", "大", "晚", "酒", "年", "聽證", "峰", "說明",
            "簡介", "見面", "交流", "理事", "董事", "委員", "議", "茶")
# And words of ToJyutping's not matched beside some characters (the word: those before it, those after it). Its 人為
# ("man-made") and 代為 ("on one's behalf") never before 咗, which neither takes: there 為 is the "for" of 為咗 (wai6)
# after a person or an era (北韓人為咗生存, 好多人為咗張綠卡, 近代為咗避難). Its 着咗 and 著咗 ("wore", zoek3) not after
# a light, an engine, a fan, 開, or a verb of falling asleep or catching fire, nor before 火, 草 or 燈, where 着 is
# "asleep", "alight", "going", zoek6 (瞓著咗, 瞌着咗, 燒着咗, 個燈着咗, 引擎著咗, 開着咗, 風扇着咗火, 寫字樓著咗燈) or
# 着草 "fled" (着咗草); with 着, no word starts inside 瞓着 and 點着 at all (below).
ALIGHT_AFTER, ALIGHT_BEFORE = "燈擎扇管開瞓點瞌燒", "火草燈"
NOT_BESIDE = {"人為": ("", "咗"), "代為": ("", "咗"), "着咗": (ALIGHT_AFTER, ALIGHT_BEFORE),
              "著咗": (ALIGHT_AFTER, ALIGHT_BEFORE)}


def _beside(text: str, i: int, word: str, before: str, after: str) -> bool:
    """Whether ``word`` at ``text[i]`` has one of ``before`` right before it or one of ``after`` right after it."""
    prev, nxt = text[i - 1:i] if i else "", text[i + len(word):i + len(word) + 1]
    return bool(prev and prev in before) or bool(nxt and nxt in after)


def skipped(text: str, i: int, word: str) -> bool:
    """Whether ``word``, matched at ``text[i]``, is one the frontend never takes there (SKIPPED_WORDS, or NOT_BESIDE
    beside its characters), or 會上 where no meeting is meant."""
    if word in SKIPPED_WORDS or (word in NOT_BESIDE and _beside(text, i, word, *NOT_BESIDE[word])):
        return True
    return word == AT_THE_MEETING and i > 0 and text[i - 1] not in AT_THE_MEETING_AFTER and \
        not text.endswith(MEETINGS, 0, i)
# Words inside which no other word may start. ToJyutping lists only words whose reading differs from their
# characters', so it has no 可以, 今晚 or 政治, and greedy matching lets a word of its start at their second
# character: its 以為 ("to think, wrongly") took 可以為你 (為 "for", wai6), 晚會 ("a gala", wui2) 我今晚會去, 治家
# (ci4) 政治家, 度住 ("to measure against", dok6) 喺度住, 幾度 ("how many times", gei1) 三十幾度. Chosen as the
# words above were (2026-12-07; docs/g2p.md, the same paragraph, with what each cost: 香港海員工會, 蛻變成為, 人質) and
# not 都會, 學生, 學校 or 中國, which words of ToJyutping's need inside them (會見 in HKCanCor's 都會見到, 校長 in
# 中學校長, 國畫 in 畫中國畫). 唔好, "don't", since: its 好客 and 好學 (hou3) took 唔好客氣 and 唔好學人 (唔好處,
# "drawbacks", then reads 處 alone: senses.py reads it cyu3 after 好). 中學, since: its 學會 ("a society", wui2) took
# 中學會考 (會考, wui6) and 中學會 before a verb (the modal, wui5). 因為, since: ToJyutping has no 因為 (its
# reading is its characters'), so its 為人, 為政 and 為難 (wai4) took 因為人哋, 因為政府 and 因為難產 (HKCanCor reads
# 因為 wai6 in all 286 places).
STARTS_NO_WORD_INSIDE = frozenset({
    "可以", "今晚", "琴晚", "聽晚", "尋晚", "政治", "香港", "身上", "司機", "遲早", "員工", "參與", "協商", "單親",
    "唔同", "記得", "組成", "需要", "完全", "範圍", "決定", "肯定", "瞓着", "呢度", "喺度", "邊度", "嗰度", "密度",
    "個人", "行運", "人工", "營商", "花名", "點着", "唔少", "合成", "造成", "最好", "奶茶", "之間", "十幾", "點幾",
    "變成", "好少", "自由", "陣間", "網上", "飲奶", "唔好", "中學", "因為"})
MODAL, NOT, SAY, ON = "會", "唔", "話", "上"
NOUNS_BEFORE_WONT = frozenset({"機會", "社會"})
JOINS_A_CLUB_AFTER = "去要想行"
# And 會 after a machine's 機 (部機會喺三分鐘後開啓, 呢班機會延誤, 搭升降機會方便啲, 手機會自動更新), where
# ToJyutping's 機會 ("a chance", gei1 wui6) took it: the character before 機 closes a machine (部機, 架機, 班機, 升降機,
# 電視機, 洗衣機), not the 全部 of 全部機會 ("every chance"); 司機 was already a word no other may start inside.
MACHINE, MACHINE_BEFORE = "機", "部架台班降飛手相視衣氣印款"
# And 會 after students or classmates counted as people (有啲學生會搵工, 啲同學會一齊傾偈, 好多學生會去), where
# ToJyutping's 學生會 ("a students' union") and 學會 ("a society") took it: 8 places of CTCPC and Common Voice, each
# "will"; the union itself (學生會會長, 大學學生會) has no 啲, 有, 些, 多 or 班 before it.
PEOPLE, PEOPLE_COUNTED_BY = ("學生", "同學"), "啲有些多班"


def is_modal(text: str, k: int) -> bool:
    """Whether ``text[k]`` is a 會 of 唔會 or 會唔會, or after a 上 that closes a word (身上會), a machine's 機
    (部機會) or people counted (啲同學會), the modal: decided by its neighbours alone."""
    return text[k] == MODAL and text[k + 1:k + 2] != SAY and (
        text[k - 1:k] == NOT or (text[k + 1:k + 3] == NOT + MODAL and text[k - 1:k + 1] not in NOUNS_BEFORE_WONT)
        or (text[k - 1:k] == ON and k >= 2 and text[k - 2] not in JOINS_A_CLUB_AFTER)
        or (text[k - 1:k] == MACHINE and k >= 2 and text[k - 2] in MACHINE_BEFORE and text[k - 3:k - 1] != "全部")
        or (text[k - 2:k] in PEOPLE and k >= 3 and text[k - 3] in PEOPLE_COUNTED_BY))


def modal_places(text: str) -> frozenset[int]:
    """The places of ``text`` where the modal 會 stands (``is_modal``): no dictionary word may take them."""
    if NOT + MODAL not in text and ON + MODAL not in text and MACHINE + MODAL not in text and \
            not any(people + MODAL in text for people in PEOPLE):
        return frozenset()
    return frozenset(k for k in range(len(text)) if is_modal(text, k))


def parse_entries(text: str) -> dict[str, str]:
    """``word<TAB>readings`` lines (no header) as a dict: one split of the whole text, measured twice as fast as
    splitting line by line."""
    parts = text.replace("\t", "\n").split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    if len(parts) % 2:
        raise ValueError("a dictionary line without a tab")
    return dict(zip(parts[0::2], parts[1::2]))


def split_header(data: bytes) -> bytes:
    """The file's lines after its ``#`` comment header."""
    start = 0
    while data.startswith(b"#", start):
        start = data.index(b"\n", start) + 1
    return data[start:]


def parse_dictionary(text: str) -> dict[str, str]:
    """Every word of the file (its comment header skipped): the build side's whole view of it."""
    return parse_entries(split_header(text.encode("utf-8")).decode("utf-8"))


class SortedWords:
    """The file's lines, sorted by their UTF-8 bytes, kept as bytes: the words that start with a character are
    one run of lines, found by binary search over byte offsets (as look(1) does) and parsed on first use."""

    def __init__(self, data: bytes):
        self.data = data
        self._blocks: dict[str, dict[str, str]] = {}

    def starting_with(self, ch: str) -> dict[str, str]:
        """Every word whose first character is ``ch`` -> its readings."""
        block = self._blocks.get(ch)
        if block is None:
            prefix = ch.encode("utf-8")
            lo = self._first_line_from(prefix)
            hi = self._first_line_from(prefix + b"\xff")  # no UTF-8 byte is 0xff: past every line with the prefix
            block = parse_entries(self.data[lo:hi].decode("utf-8")) if hi > lo else {}
            self._blocks[ch] = block
        return block

    def get(self, key: str) -> str | None:
        """The value on the line whose key is exactly ``key`` (one binary search), or None."""
        prefix = key.encode("utf-8") + b"\t"
        at = self._first_line_from(prefix)
        if not self.data.startswith(prefix, at):
            return None
        end = self.data.find(b"\n", at)
        return self.data[at + len(prefix): len(self.data) if end < 0 else end].decode("utf-8")

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __len__(self) -> int:
        return self.data.count(b"\n") + (0 if self.data.endswith(b"\n") or not self.data else 1)

    def _first_line_from(self, target: bytes) -> int:
        """Byte offset of the first line that sorts at or after ``target`` (the end if none does)."""
        data, lo, hi = self.data, 0, len(self.data)
        while lo < hi:  # lines starting before lo sort before target; the line starting at hi does not
            mid = (lo + hi) // 2
            start = data.rfind(b"\n", lo, mid) + 1 or lo
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end + 1
            if data[start:end] < target:
                lo = end
            else:
                hi = start
        return lo


class WordDictionary:
    """Word -> per-character readings; ``readings(text)`` segments by greedy longest match, left to right (as
    ToJyutping does, but for the words ``KEPT_TOGETHER`` and the places ``modal_places`` keeps out of words)."""

    def __init__(self, words: SortedWords, overlay: dict[str, str] | None = None,
                 kept_together: frozenset[str] = KEPT_TOGETHER, separate: bool = True):
        self.words = words
        self.kept_together = kept_together  # frozenset(): exactly ToJyutping's greedy match
        self.separate = separate  # False: no place is kept out of words (modal_places) and no word skipped
        # (SKIPPED_WORDS), as ToJyutping matches
        self.overlay = overlay or {}  # word -> readings, comma-separated: decides over the file
        self._overlay_by_char: dict[str, dict[str, str]] = {}
        for word, reading in self.overlay.items():
            self._overlay_by_char.setdefault(word[0], {})[word] = reading
        self._blocks: dict[str, tuple[dict[str, str], int]] = {}

    def layered(self, lexicon: dict[str, str]) -> WordDictionary:
        """This dictionary with ``lexicon`` (word -> space-separated syllables, one per character) over it."""
        if not lexicon:
            return self
        over = {w: r.replace(" ", ",") for w, r in lexicon.items()}
        return WordDictionary(self.words, {**self.overlay, **over}, self.kept_together, self.separate)

    @cached_property
    def layered_words(self) -> frozenset[str]:
        """Words the overlay adds or reads differently from the file (ToJyutping): where a lexicon decides.
        Worked out on first use: it looks up every overlay word (4 ms of a start-up that may never ask)."""
        return frozenset(w for w, r in self.overlay.items() if self.words.starting_with(w[0]).get(w) != r)

    def get(self, word: str) -> str | None:
        """The word's readings, comma-separated, or None when it is not a word here."""
        return self._block(word[0])[0].get(word) if word else None

    def _block(self, ch: str) -> tuple[dict[str, str], int]:
        """The words starting with ``ch`` (the overlay over the file's) and the longest one's length."""
        block = self._blocks.get(ch)
        if block is None:
            entries = self.words.starting_with(ch)
            if ch in self._overlay_by_char:
                entries = {**entries, **self._overlay_by_char[ch]}
            block = entries, max(map(len, entries), default=0)
            self._blocks[ch] = block
        return block

    def readings(self, text: str) -> list[tuple[str, str | None]]:
        """(character, its reading or None) for every character of ``text``."""
        return [(ch, reading) for ch, reading, _ in self.matches(text)]

    def matches(self, text: str, breaks: frozenset[int] = frozenset()) -> list[tuple[str, str | None, str]]:
        """(character, its reading or None, the dictionary word it was read in) for every character; no word spans
        one of ``breaks``, the places right after a phrase's pause read across (民主 將經濟: not ToJyutping's 主將)."""
        out: list[tuple[str, str | None, str]] = []
        n, i = len(text), 0
        alone = modal_places(text) if self.separate else frozenset()
        while i < n:
            entries, longest = self._block(text[i])
            if self.separate and i and text[i - 1:i + 1] in STARTS_NO_WORD_INSIDE:
                longest = 1  # no word starts inside 可以: 可以為你 is not 可 + 以為
            best, stop = None, i + 1
            for j in range(i + 1, min(n, i + longest) + 1):
                if j - i > 1 and (i in alone or j - 1 in alone or j - 1 in breaks):
                    break  # a longer word would take a place that stands alone, or cross a pause
                found = entries.get(text[i:j])
                if found and self.separate and skipped(text, i, text[i:j]):
                    found = None
                if found and not (j - i > 1 and text[j - 1:j + 1] in self.kept_together):
                    best, stop = found, j
            if best is None:
                out.append((text[i], None, ""))
                i += 1
            else:
                word = text[i:stop]
                out.extend((ch, r, word) for ch, r in zip(word, best.split(",")))
                i = stop
        return out


@lru_cache(maxsize=1)
def base_dictionary() -> WordDictionary:
    """ToJyutping's dictionary as compiled into the package (read once per process, parsed as texts need it)."""
    data = read_package_bytes(DICTIONARY_FILE)
    return WordDictionary(SortedWords(split_header(data)))


def tojyutping_dictionary() -> WordDictionary:
    """The same words matched exactly as ToJyutping matches them, none kept together: g2p-eval's baseline."""
    return WordDictionary(base_dictionary().words, kept_together=frozenset(), separate=False)
