"""Stated senses: readings of single characters that the text around them decides, written down as rules
because HKCanCor's conversations hold too few such places to learn them, or none (下 after an English verb, 呢
"this", 為 "as", 度 "about", 成 "whole", 上 "to board", 女 "a daughter", 近 "near", 處 "a place", the modal 會, 哂
and 既 as informal writing uses them, and more below, each with its evidence). The frontend tries them, first that
applies, before its context rules; ``Frontend(stated=False)`` leaves them out."""

from __future__ import annotations

from dataclasses import dataclass

from .dictionary import is_modal
from .normalize import Segment  # already imported by the frontend: no cost (typing's TYPE_CHECKING cost 2.4 ms)
from .numbers import NUMERAL_READINGS

Match = tuple[str, str | None, str]  # (character, reading, the dictionary word it is read in)


def _followed_by(text: str, i: int, chars: str) -> bool:
    """Whether the character after ``text[i]`` is one of ``chars`` (never at the run's end)."""
    return i + 1 < len(text) and text[i + 1] in chars


def _preceded_by(text: str, i: int, chars: str) -> bool:
    """Whether the character before ``text[i]`` is one of ``chars`` (never at the run's start)."""
    return i > 0 and text[i - 1] in chars


def _second_of(text: str, matches: list[Match], i: int, words: tuple[str, ...]) -> bool:
    """Whether ``matches[i]`` is the second character of one of ``words``, matched there as a dictionary word."""
    return i >= 1 and matches[i][2] in words and text.startswith(matches[i][2], i - 1)


def _within(text: str, i: int, chars: str, before: int = 0, after: int = 0) -> bool:
    """Whether one of ``chars`` stands within ``before`` characters before ``text[i]`` or ``after`` after it."""
    return any(c in chars for c in text[max(0, i - before):i] + text[i + 1:i + 1 + after])


def _word_before(text: str, i: int, words: tuple[str, ...]) -> str | None:
    """The first of ``words`` that ends right before ``text[i]`` (千祈 before 咪, 節度 before 使), or None."""
    return next((w for w in words if text.endswith(w, 0, i)), None)


PERSONS = "我你佢"  # the persons a sense looks for beside it (你當我係咩, 我數到一千); 哋 closes their plurals


# A character read by its use after a verb when it follows an English word, which the context rules (learnt on
# Han neighbours) cannot see: check下 and google下 are "check a bit", haa5, as 睇下 is (HKCanCor has two such
# places: relax下, haa5 both). Before a time or a direction it keeps its dictionary reading: HKCanCor reads 下
# before 年 and 次 always haa6, so book下個月 and scroll下去 stay haa6. Before 個 it is a time only where one
# follows: HKCanCor reads 下個 haa6 in 12 places, 11 with a time word after (下個月, 下個禮拜; the twelfth is cut
# off), and haa5 in 3, each a verb before and a thing after (睇下個價), so check下個email is haa5, book下個月 haa6.
AFTER_ENGLISH_VERB = {"下": "haa5"}
_TIMES = set("年星禮晝午週周季期屆月")  # 下年, 下星期, 下個月: "next"
KEEPS_ITS_READING_BEFORE = _TIMES | set("次一半") | set("面邊便去嚟落來")  # and the directions: 下面, 下去
TIME_WORDS = _TIMES | set("拜學階鐘世")  # 下個 before these is "next" (下個禮拜, 下個學期, 下個鐘)


def _after_english_verb(text: str, before_word: bool) -> bool:
    """Whether a run's first character, right after an English word, is read as after a verb (check下個email);
    ``before_word``: Latin letters (a word, an acronym) follow the run, so one that ends on 個 has a thing after it."""
    if text[0] not in AFTER_ENGLISH_VERB or text[1:2] in KEEPS_ITS_READING_BEFORE:
        return False
    if text[1:2] != "個":
        return True
    return text[2:3] not in TIME_WORDS if text[2:3] else before_word


TWO_SYLLABLE_NUMERALS = "卅卌"  # thirty and forty, one character said in two syllables (saa1 aa6, sei3 aa6)
SECOND_WRITTEN, SECOND_SAID = "呀", "aa6"  # how writers spell that second syllable out, and how it is said


@dataclass(frozen=True)
class ReadAfter:
    """A character read in one sense right after one of ``after`` (a stated reading, not learnt from counts)."""
    after: str  # the characters that, right before it, give it this sense
    role: str  # what they are, for --explain
    reading: str
    sense: str
    not_before: str = ""  # characters after it that give it its other sense again
    word_start: bool = False  # it applies where the character starts a dictionary word too (邊間中學: 間中)
    not_after_words: tuple[str, ...] = ()  # words ending right before it, on an ``after`` character, that do not count


# A noun after the measure word that counts it, read in that sense: 相 after 張 or 幅 is "a photo", soeng2 (一張相,
# 呢幅相), where ToJyutping reads 相 alone soeng1 ("mutual"); HKCanCor reads 幅相 soeng2 twice and has no 張相, and
# its rules read 啲相 so (69 places of CTCPC and Common Voice read soeng1). 友 after 條 or 班 is "a guy", jau2, as
# ToJyutping's own 條友 and HKCanCor's five places say, where 呢條 or 你班 took the measure word (呢條友, 你班友: jau5).
# 為 after a verb of naming, choosing or becoming, or a count, is "as" or "is", wai4 (當選為, 轉為, 翻譯為, 升格為,
# 命名為, 設置為, 人數為), as ToJyutping's own 成為, 作為, 認為 read it, where it reads 為 alone wai6, "for" (為咗,
# 因為): formal text writes these daily and HKCanCor's conversations hold none of them. Not after characters that
# end words 為 also follows as "for" (計劃為社區, 拼命為, 確實為自己, 紐約為, 早期為), nor before 咗, 了, 乜, 何, 甚,
# 什, 住, 着, 著 or 到, which make it "for" or "why" (普選為咗, 問題為咗). 間 after a number or a demonstrative is
# the measure word, gaan1, also where a dictionary word starts with it (邊間中學, 一間中學, 二十幾間開: ToJyutping's
# 間中 "now and then" and 間開 "to partition" read gaan3). 量 after what it counts is "an amount", loeng6 (排放量,
# 載客量, 下載量, 工作量, 生命力量), where ToJyutping reads it alone loeng4, "to measure" (測量, 商量, 量血壓): not
# before 度, 一, 緊, 咗, 過, 住 or 地, which make it the verb (量度, 量一量, 量緊, 量地). The entries after those
# five each say why above them.
KIND_NOT_AFTER = ("單一", "統一", "唯一", "劃一", "專一", "萬一", "千萬", "應該", "活該", "本該", "理該",
                  *(side + "邊" for side in "兩旁呢哩嗰個四一左右前後上下入出裏裡外身海路街河岸周東南西北手床窗這那"))
READ_AFTER = {
    # ... and after 貼, 疊, 曬 or 拍, which only photos follow (貼相上網, 成疊相, 曬相, 自拍相, 拍拖相: 相 closing the
    # word a photo's kind), not before what makes it "mutual" again (拍相似, 貼相近): 6 places of CTCPC and Common
    # Voice, each a photo; HKCanCor's unseen conversations +1.
    "相": ReadAfter("張幅貼疊曬拍", "a measure word or a photo's verb", "soeng2", "a photo", "似近關互識處"),
    # 畫 after 幅 or 張 is "a picture", waa2 (呢幅畫, 呢張畫), as ToJyutping's own 幅畫 and 張畫 read it, where its
    # 呢幅 and 呢張 take the measure word and leave 畫 alone to its verb, waak6, "to draw"; not before an aspect or a
    # complement, after which it is that verb (呢張畫咗公仔嘅紙).
    "畫": ReadAfter("幅張", "a measure word", "waa2", "a picture", "咗緊過得住埋出低"),
    # 房 after 間 is "a room", fong2 (呢間房, 成間房), as HKCanCor reads all 7 of its places and ToJyutping's own 間房
    # reads it, where its 呢間 takes the 間 and leaves 房 to fong4; not before what makes it the 房 of housing
    # (呢間房屋, 房地產, 房東).
    "房": ReadAfter("間", "the measure word 間", "fong2", "a room", "屋地東產價貸契策管客"),
    # And the second character of ToJyutping's own 畫面 ("a scene", min2) and 山頂 ("the peak", deng2), where its 嘅畫,
    # 上山 and 太平山 take the first (批評嘅畫面, 上山頂, 太平山頂) and leave it to its reading alone (min6, ding2); its
    # 咁樣, which 係咁 took the same way, is kept together instead (dictionary.py), since 咁 changes too.
    "面": ReadAfter("畫", "as in ToJyutping's 畫面", "min2", "a scene", "對前積臨向貌目具試談世"),  # 計畫面對
    "頂": ReadAfter("山", "as in ToJyutping's 山頂", "deng2", "the top"),
    "友": ReadAfter("條班", "a measure word", "jau2", "a guy"),
    # 女 after 條 is "a girl", "a girlfriend", neoi2 (條女好正, 我條女話, 溝條女), as rime-cantonese reads its 條女
    # and the 個女 "a daughter" below, where ToJyutping reads 女 alone neoi5, "female": 125 places of CTCPC and Common
    # Voice, each "a girl" (HKCanCor holds none). Not before what 女 begins there (女人, 女性, 女士, 女子).
    "女": ReadAfter("條", "a measure word", "neoi2", "a girl", "人性士子"),
    # 咪 after 支, the measure word, is "a microphone", mai1 (拎開啲支咪, 畀支咪你, 差支咪), as ToJyutping's own 開咪
    # and 咪高峰 and HKCanCor (差支咪) read it, where the lexicon reads 咪 alone mai6, HKCanCor's "then", "isn't it".
    "咪": ReadAfter("支", "the measure word 支", "mai1", "a microphone"),
    "間": ReadAfter("邊呢嗰一兩幾每三四五六七八九十百千某哪那這該第", "a number or a demonstrative", "gaan1",
                   "the measure word", word_start=True),
    "量": ReadAfter("放水雨客電儲總售載覽行求程戶問訊汇彙納鉛識給留肪取風礦膠物作詞血微力流產容熱能質數份含存銷交用",
                   "what it counts", "loeng6", "an amount", "度一緊咗過住地"),
    "為": ReadAfter("選轉譯封升變建呼義任格名設置改評譽視稱化奉尊推立展題數均互", "a verb of naming or becoming, or a "
                   "count", "wai4", "as", "咗了乜何甚什住着著到"),
    # 近 after a word of degree is "near", kan5 (咁近城隍廟, 靠得咁近, 住得太近, 幾鬼近), as rime-cantonese's 好近啫,
    # 挨近 and 貪近 and HKCanCor's 好近 read it, where ToJyutping reads 近 alone gan6, "recent", "close to" (最近,
    # 接近, 近排); before 啲 it is "nearer" too (READ_BEFORE).
    "近": ReadAfter("好咁太夠鬼", "a word of degree", "kan5", "near"),
    # 位 after 冇, 有, 夠, 爭, 搵 or 坐 is "a seat", "room", wai2 (冇位坐, 有位放嘢, 唔夠位, 爭位, 坐位), as
    # rime-cantonese's 空位, 滿位, 搵位, 霸位, 留位 and 座位 read it, where ToJyutping reads 位 alone wai6 (地位, 職位);
    # after 有 it is also the measure word of a person, which speech says wai2 as well (有位先生話我知, as rime's 各位
    # and 邊位); not before 置, 於, 元, 列, 居 or 處 (有位置, 位於). After 個 it is "a seat", "a spot" (呢個位有冇人,
    # 每個位都坐滿), as ToJyutping's own 個位 and HKCanCor (6 of its 7 places; the seventh 位置) read it, where its
    # 呢個 and 每個 take the 個.
    "位": ReadAfter("冇有夠爭揾搵坐佔個", "a word of having or taking, or 個", "wai2", "room, a seat, or a person",
                   "置於元列居處"),
    # 正 after a word of degree is "great", zeng3 (似美帝咁正咩, 實在太正, 冬天最正就係食), as rime-cantonese's 唔正,
    # 正嘢 and 平靚正 read it, where ToJyutping reads 正 alone zing3, "upright", "just"; not where it begins a word of
    # that sense (咁正常, 最正宗, 太正確).
    "正": ReadAfter("好咁幾太夠鬼最", "a word of degree", "zeng3", "great", "宗常確面式版當義經在直規統好中正所氣"),
    # 處 after a word of place is "a place", cyu3 (不足之處, 從高處墮下, 內心深處, 多處豪雨, 處處設限), as
    # ToJyutping's own 好處, 到處, 遠處 and 住處 read it, where it reads 處 alone cyu5, "to deal with", "to be in"
    # (處理, 身處, 位處): not before what makes it that verb (處理, 處於, 處置, 處境), nor in 第處 and 邊處,
    # "elsewhere" and "where", which speech says syu3. After 好 it is 好處's (唔好處, "drawbacks", where no word may
    # start inside 唔好: dictionary.py). After the last character of a department's name it is that office, cyu3
    # (警務處, 入境事務處, 勞工處, 秘書處, 售票處, 統計處, 註冊處, 海事處, 休憩處; ToJyutping's own 辦事處 reads it so),
    # not before 以 (滋事處以拘留, "punished with"); and after a count (十六處古代建築, 有六處僭建, 幾處), an office's
    # 接待 or 代表 (接待處, 代表處), 蔭涼 (蔭涼處休息) and 康文 (康文處); not after 朋友 (朋友處, "at a friend's",
    # but 破女朋友處 is 破處, "a virgin's").
    "處": ReadAfter("之高深低此各多一兩三近難某何別隨四處好務書票工事計冊憩空防境五六七八九十百千幾待表涼文",
                   "a word of place, a count, an office's (警務處, 接待處) or the 好 of 好處", "cyu3", "a place",
                   "理置於事境分罰決死世方長以"),
    # 種 after a number or a demonstrative is the measure word "a kind", zung2, also where a dictionary word starts
    # with it: ToJyutping reads 種 alone so, but its words of the verb "to plant" (種植, 種花, 種樹, 種米, 種過,
    # zung3) took 這種植物, 各種植物, 一種花, 兩種樹, 三種樹, 呢一種過程, 一種米養百種人, 幾十種花 (zung3). Not after
    # words that end on such a character without counting or pointing (單一種植, "monoculture"; 應該種花, "should
    # plant"; 兩邊種咗, "planted on both sides"), nor after 多, 同, 個, 此 or 何, which the verb follows too
    # (多種樹, 同種花嘅人, 一個種植園, 因此種植, 如何種花).
    "種": ReadAfter("一兩二三四五六七八九十百千萬幾各某每這那哪該嗰邊哩依", "a number or a demonstrative", "zung2",
                   "a kind", word_start=True, not_after_words=KIND_NOT_AFTER),
    # 下 after a verb of everyday doing is "a bit", haa5 (幫下手, 學下嘢, 查下有冇, 估下咩事, 抖下氣, 搵下, 飲下嘢,
    # 練下, 影下相, 執下, 整下, 摸下, 享下福), as HKCanCor reads it after 睇, 試, 傾 and the verbs its conversations
    # hold often enough for a context rule, where ToJyutping reads 下 alone haa6. Not before a time or a direction,
    # where 下 starts that word (飲下午茶, 做下個月, 學下一代, 做下去), nor before the words 下 begins as "down" or
    # "under" (下班, 下課, 下車, 下雨, 下場, 下屬, 下列, 下述, 下文, 下降, 下載, 下令, 下游, 下層, 下巴, 下體 …).
    "下": ReadAfter("幫學查估抖揾搵笑練影唱跳執洗整搞摸飲做喐去享", "a verb of everyday doing", "haa5", "a bit",
                   "".join(sorted(KEEPS_ITS_READING_BEFORE)) + "個班課體車雨場屬列述文降跌載令旬游層台臺山樓水馬巴流"),
    # 朝 after 每, 成, a demonstrative, 琴 or 尋 (yesterday), or 由 is "a morning", ziu1 (每朝都要三點起身,
    # 成朝坐咗喺度, 嗰朝, 琴朝, 由朝到晚), as ToJyutping's own 今朝, 聽朝, 朝朝 and 第二朝 read it, where it reads 朝
    # alone ciu4, "a dynasty", "the court", "facing" (清朝, 朝廷, 朝向); not before what makes it that (朝廷, 朝代,
    # 朝鮮, 朝政, 朝聖, 朝拜, 朝貢, 朝見, 朝向, 朝陽, 朝野).
    "朝": ReadAfter("每成嗰呢哩琴尋噚由", "a word of every, whole, which or from", "ziu1", "a morning",
                   "廷代鮮政聖拜貢見覲向陽野"),
    # 重 after a count is "-fold", "layers", cung4 (三重縣, 三重優勢, 多重器官衰竭, 多重角度, 萬重山, 兩重天), as
    # ToJyutping's own 雙重 and 重重 read it, where the lexicon reads 重 alone zung6, HKCanCor's "still" (仲), and
    # ToJyutping cung5, "heavy"; HKCanCor reads its one such place so (咁多重嘅檢驗). Not after 幾多, "how heavy", nor
    # 差唔多, "about as heavy".
    "重": ReadAfter("三多萬兩雙", "a count", "cung4", "-fold, layers", "嘢量", not_after_words=("幾多", "唔多")),
    # 仗 after a fight's verb or aspect, its outcome or a count is "a battle", zoeng3 (打緊仗, 打完仗, 打過仗, 打勝仗,
    # 打敗仗, 硬仗, 呢場仗, 一仗), as ToJyutping's own 打仗 reads it, where it reads 仗 alone zoeng6, "to rely on"
    # (仗勢, 仗住), the 仗 of 陣仗 and 儀仗 too, which stay; not before what makes it that verb again (仗義, 仗勢).
    "仗": ReadAfter("打緊完過勝敗硬場一呢", "a fight's verb, its outcome or a count", "zoeng3", "a battle", "義勢住恃"),
    # 邊 after 後 or 下 is "a side", bin6 (坐喺後邊, 喺下邊), as ToJyutping's 前邊, 左邊 and 出邊 and rime-cantonese's
    # 下邊 read it, where ToJyutping reads 邊 alone bin1 ("which", "edge"); not before what makes it "which" (睇下邊個,
    # 然後邊度, 問下邊到 for 邊度).
    "邊": ReadAfter("後下", "a direction", "bin6", "a side",
                   "個度到啲位間樣隻種條處類本首張部架套份件科年日次支枝款味區"),
}


def spells_second_syllable(text: str, i: int) -> bool:
    """Whether ``text[i]``, a 卅 or 卌 (ToJyutping: saa1 aa6, sei3 aa6), has its second syllable written out after it
    and more of the run after that (卅呀七歲, 八百卅呀蚊; at a run's end, 佢卅呀, 呀 may be the particle): the numeral
    then says its first syllable alone and 呀 is that aa6 (SECOND_SAID), not the particle aa4."""
    return text[i] in TWO_SYLLABLE_NUMERALS and text[i + 1:i + 2] == SECOND_WRITTEN and i + 2 < len(text)


def _read_after(text: str, matches: list[Match], i: int) -> ReadAfter | None:
    """The stated sense of ``matches[i]``, read alone (or starting a word, where so stated: 邊間中學), after the
    character before it (張相, 當選為; and 呢張相 where the dictionary has 呢張), or None."""
    ch, _, word = matches[i]
    stated = READ_AFTER.get(ch)
    if stated is None or i == 0 or matches[i - 1][0] not in stated.after:
        return None
    if len(word) != 1 and not (stated.word_start and text.startswith(word, i)):
        return None
    if _word_before(text, i, stated.not_after_words):
        return None
    return None if _followed_by(text, i, stated.not_before) else stated


@dataclass(frozen=True)
class ReadBefore:
    """A character read alone in one sense right before one of ``before``, where no longer dictionary word starts
    (a stated reading, not learnt from counts)."""
    before: tuple[str, ...]  # the characters or words that, right after it, give it this sense
    reading: str
    sense: str
    like: str  # a dictionary's own words that read it so, for --explain
    not_after: str = ""  # characters before it that give it its other sense again
    not_before: tuple[str, ...] = ()  # words starting right after it that give it its other sense again
    role: str = ""  # what ``before`` are, for --explain ("the measure word")


# 呢 as "this" before a measure word: ToJyutping joins 呢 to many (呢個, 呢本, 呢條: ni1) but not to these, so 呢首歌,
# 呢單嘢, 呢位, 呢類, 呢區 read ne1, the particle (573 places in CTCPC and Common Voice, "this" wherever read; and
# 呢家, "this" before 家 for a firm or a shop, 20 more, where ToJyutping's word 呢家 read li1);
# HKCanCor writes the demonstrative 哩 and 呢 only as the particle (2,183 places, one before a character of
# these: 注意力呢集中唔到), so no context rule could learn it. The particle stays before the verbs and adverbs these
# characters begin (我呢首先, 佢呢單係, 注意力呢集中) and where the dictionary joins the measure word to what follows.
# 成 before a stretch of time or the body is "whole", seng4 (成晚唔瞓, 成朝坐咗喺度, 成身都係汗, 成身債), as
# ToJyutping's own 成日, 成個, 成隻 and 成條 read it, where it reads 成 alone sing4, "to become"; it has no 成晚, 成朝
# or 成身 (126 places of CTCPC and Common Voice, each "whole"; HKCanCor holds none). Not where a word starts there
# (變成身體, 完成晚餐, 形成朝代), nor after a verb that 成 completes, "into" (變成, 分成, 整成), nor in 功成身退.
# 上 before a vehicle or the toilet is "to board", "to go up to", soeng5 (上飛機, 上機前, 上巴士, 上小巴, 上廁所), as
# ToJyutping's own 上車, 上岸 and 上樓 and rime-cantonese's 上車, 上馬 and 上山 read it, where ToJyutping reads 上 alone
# soeng6, "on", "previous"; HKCanCor reads its 上飛機 and 上機 soeng5 (5 of 5). Not before a 機 that starts another
# word (上機會, 上機場), nor after a place it is "on" (海上巴士, 陸上飛機). Before 唔 and a complement it is the verb
# too (上唔到網, 上唔切巴士, 上唔上到去: 15 places of CTCPC and Common Voice, each "to go up"; HKCanCor holds none),
# where a 上 that closes a word, "on", meets 唔 before a modal or a verb (實際上唔係, 世上唔會, 原則上唔寫).
READ_BEFORE = {
    "呢": ReadBefore(tuple("首位屆期盒包樽雙課封頁餐晚朝刻味單宗款類代區世組頓站集章局盤轉輛名匹季科些家"), "ni1",
                     "this", "ToJyutping's 呢個 and 呢本", role="the measure word",
                     not_before=("首先", "單係", "單只", "單單", "集中", "轉頭")),
    "成": ReadBefore(("晚", "朝", "身"), "seng4", "whole", "ToJyutping's 成日 and 成個",
                     not_after="變完造形組構達促做整改分合編譯讀睇寫當扮轉化製裝切割斷折砌煎縮功",  # 功成身退
                     not_before=("身體", "身份", "身分", "身為", "身爲", "晚餐", "晚飯", "晚會", "晚上", "晚年", "晚期",
                                 "晚宴", "晚安", "朝代", "朝廷", "朝鮮", "朝向")),
    "近": ReadBefore(("啲",), "kan5", "nearer", "rime-cantonese's 貪近 and 近點", not_after="最附接靠新將"),
    "處": ReadBefore(("處",), "cyu3", "everywhere", "ToJyutping's 到處 and 遠處"),  # 處處: the first; READ_AFTER
    # 種 before 嘢, 返, 滿 or 晒 is the verb, "to grow (things)", zung3 (自己種嘢食, 一齊嚟種嘢, 重新種返, 種滿晒花,
    # 四便都種晒樹), where ToJyutping reads 種 alone zung2, the measure word; not after a number or a word that
    # points (嗰種嘢, 咩種嘢, 呢類種嘢: "that kind of thing"), after which 種 is "a kind" (READ_AFTER).
    "種": ReadBefore(("嘢", "返", "滿", "晒"), "zung3", "to grow", "ToJyutping's 種花 and 種菜",
                     not_after="一兩二三四五六七八九十百千萬幾各某每這那哪該嗰邊哩依個果咩乜類樣"),
    # 重 before a verb that it makes "again", "re-", is cung4 (重塑, 重獲自由, 重回職場, 重投社會, 重奪冠軍, 人生重來,
    # 重刊, 重版, 重遇, 重裝, 重穿, 重鋪工程, 重句), as ToJyutping's own 重新, 重溫, 重返 and 重建 read it, where the
    # lexicon reads 重 alone zung6, HKCanCor's "still" (仲), and ToJyutping cung5, "heavy": written text's verbs, which
    # 仲 "still" does not precede (its 重來 is 仲嚟 only before an aspect or a particle: 重來咗).
    "重": ReadBefore(tuple("塑獲投回奪來刊版遇裝穿鋪豎結句"), "cung4", "again", "ToJyutping's 重新 and 重溫",
                     role="the verb", not_before=tuple("來" + c for c in "咗緊過㗎嘅啦喇呀啊𡃉喎")),
    # 返 before 回, 還, 航 or 程, the written words of returning (返回內地, 返回座位, 返還, 返程機票), is faan2, as
    # ToJyutping reads it alone and rime-cantonese reads its 返港, where the lexicon reads it faan1, HKCanCor's 返
    # of speech (返屋企, 攞返); HKCanCor holds none of these words. Not after a verb that 返 completes, "back"
    # (攞返回報, "get the reward back"), nor before the words 回 begins (回報, 回應, 回覆, 回頭).
    "返": ReadBefore(tuple("回還航程"), "faan2", "to return (written)", "rime-cantonese's 返港",
                     not_after="攞拎搵收畀俾", not_before=("回報", "回應", "回覆", "回頭")),
    # 率 before a body of people it leads is "to lead", seot1 (率團訪港, 率隊出戰, 率會眾, 率兵, 率軍), as
    # ToJyutping's own 率領 and 率先 read it, where the lexicon reads 率 alone leot2, HKCanCor's "a rate" (出生率,
    # 兌換率): 2 places of CTCPC and Common Voice. Not before a numeral, which a rate's figure may be (失業率三點五),
    # nor closing a rate's word (出生率, 使用率, 效率, 利率: 效率部門).
    "率": ReadBefore(tuple("團隊眾兵軍師部艦") + ("會眾",), "seot1", "to lead", "ToJyutping's 率領 and 率先",
                     not_after="生亡換用擊病業脹活字蓋效比利稅會率辨票置殺罪婚學席報載求爭數度存發",
                     role="the people it leads"),
    "上": ReadBefore(("飛機", "機", "巴士", "小巴", "的士", "地鐵", "火車", "電車", "輕鐵", "港鐵", "高鐵", "纜車",
                      "渡輪", "郵輪", "船", "廁所") + tuple("唔" + c for c in "到切上落去嚟倒番返"),
                     "soeng5", "to board, to go up to", "ToJyutping's 上車 and 上樓",
                     not_after="海陸水天湖江河",  # 海上巴士, 陸上飛機: "on"
                     not_before=("機會", "機場", "機械", "機構", "機關", "機制", "機器", "機能", "機率", "機身")),
}


def _read_before(text: str, matches: list[Match], i: int) -> tuple[ReadBefore, str] | None:
    """The stated sense of ``matches[i]``, read alone, and the one of its ``before`` after it, where no longer
    dictionary word starts there (成晚, 上飛機), or None."""
    ch, _, word = matches[i]
    stated = READ_BEFORE.get(ch)
    if stated is None or len(word) != 1 or i + 1 >= len(matches) or _preceded_by(text, i, stated.not_after):
        return None
    following = next((w for w in stated.before if text.startswith(w, i + 1)), None)
    if following is None or len(matches[i + 1][2]) > len(following) or text.startswith(stated.not_before, i + 1):
        return None
    return stated, following


# 呢 where the particle cannot stand, with more of the phrase after it, is "this", ni1: opening a phrase (呢幾日,
# 呢兩個字, 呢一刻, 呢球波, 呢就係), since the particle follows what it marks, or right after a preposition that needs
# its object (喺呢一刻, 將呢兩間房打通, 對呢一單案件, 從呢幾個行星; rime-cantonese: 對呢方面 nei1). ToJyutping reads 呢
# alone ne1, so these read the particle: 460 places of CTCPC and Common Voice opening a phrase (300 before a number),
# "this" in all but a disfluent transcript's -呢覺得, and 45 after a preposition, each "this". Not alone
# in its phrase (呢，俾你: "here you are", ne1), nor right after Latin letters (第二part呢就係: the particle after an
# English word); a quote or a title's mark is silent and opens nothing (《字頭八九十》呢就最後一集: HKCanCor reads it
# ne1). Not after 於, 由, 響 or 在, which end words that the particle follows (由於呢, 在於呢, 理由呢, 音響呢, 爭在呢).
THIS, THIS_SAID, NEEDS_OBJECT = "呢", "ni1", "喺將把對向從被"


def _stands_for_this(text: str, matches: list[Match], i: int, opens: frozenset[int]) -> str | None:
    """Where ``matches[i]``, a 呢 read alone with more of its phrase after it, is "this": "opening a phrase", "after
    the preposition X", "before the count X", or None (``opens``: the places that open a phrase)."""
    ch, _, word = matches[i]
    if ch != THIS or len(word) != 1 or i + 1 >= len(text) or i + 1 in opens:
        return None
    if i in opens:
        return "opening a phrase"
    if i > 0 and matches[i - 1][0] in NEEDS_OBJECT and len(matches[i - 1][2]) == 1:
        return f"after the preposition {matches[i - 1][0]}"
    if i > 0 and (count := _a_count_after(text, i)):  # right after Latin letters (part呢) it stays the particle
        return f"before the count {count}"
    return None


# ... and 呢 right before a count (a numeral and a measure word: 具備呢四種原因, 你比較下呢兩部相機, 但呢一刻, 佢呢幾日
# 好肉緊) is "this" wherever it stands: the particle follows what it marks and is not said straight before a count in
# written text. Not before an adverb that 一 begins (呢一定, 呢一早, 呢一齊), a measure word said twice (呢一嚿嚿, "in
# lumps"), nor a time of day or a date (溫到呢五點幾, 今日呢六號), where HKCanCor's speakers say the particle as they
# pause (its 10 places of 呢 before a numeral are all such). 237 places of CTCPC and Common Voice, all but one or two
# "this" (`有得去CU呢八下`, `我哋呀定咗嘅呢一個呀時間`, disfluent, could be either).
COUNT_MEASURES = frozenset("個種條隻件位本張幅套款類樣部間代刻期屆任次年日晚朝餐份首封頁篇段句組批班架輛棵枝支"
                           "粒杯碗碟樽包盒對雙把層座棟戶家所區國世輪場集章節課項宗單轉匹季科些陣排下招步筆趟蚊元毫")
NOT_A_COUNT_AFTER_ONE = ("一定", "一早", "一齊", "一直", "一向", "一樣", "一般", "一路", "一於", "一味", "一到",
                         "一次過")


def _a_count_after(text: str, i: int) -> str | None:
    """The count (四種, 一刻, 幾個月) right after ``text[i]``, a numeral or more and a measure word, or None."""
    j = i + 1
    while j < len(text) and text[j] in NUMERALS:
        j += 1
    if j == i + 1 or j >= len(text) or text[j] not in COUNT_MEASURES or text[j + 1:j + 2] == text[j]:
        return None
    if text.startswith(NOT_A_COUNT_AFTER_ONE, i + 1):
        return None
    return text[i + 1:j + 1]


# 假 taken or given as time off is "a holiday", gaa3 (放咗假, 放完假, 請半日假, 三日假, 有假放), as ToJyutping's own
# 放假, 暑假 and 病假 read it, where it reads 假 alone gaa2, "fake": after 放 or 請 within three characters, after a
# count of days (三日假), or before 放; not before a word that 假 makes "fake" (假貨, 假名, 假話, 假設, 假裝,
# 放假消息).
HOLIDAY, HOLIDAY_SAID = "假", "gaa3"
TAKEN_AS_TIME_OFF, FAKE_BEFORE = "放請", "貨名話嘢設裝冒牙髮鈔料皮消新象帳證"


def _a_holiday(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 假 read alone, is time off (放咗假, 三日假) rather than "fake"."""
    ch, _, word = matches[i]
    if ch != HOLIDAY or len(word) != 1 or _followed_by(text, i, FAKE_BEFORE):
        return False
    return _within(text, i, TAKEN_AS_TIME_OFF, before=3) or _preceded_by(text, i, "日") or _followed_by(text, i, "放")


# 相 a few characters after 影, the verb "to take (a photo)", is "a photo", soeng2 (影親相, 影完相, 影下相, 影嘅相,
# 影風景相, 影沙龍相), as ToJyutping's own 影相 reads it where nothing stands between, and as HKCanCor reads all 5 of
# its places (影相, 影幅相, 影啲相), where ToJyutping reads 相 alone soeng1, "mutual": 影 within four characters
# before it, neither ending a word of its own (電影, 背影, 攝影, 合影: 同個背影好相似) nor starting one (影響相片,
# 影子), and no word of "mutual" starting at 相 (相似, 相信, 相同).
PHOTO, PHOTO_SAID, TAKE_PHOTO, PHOTO_SPAN = "相", "soeng2", "影", 4
SHADOW_ENDS = "電背倒攝合身蹤陰縮投剪幻人光錄泡魅幢"  # 電影, 背影, 攝影: 影 ends a word of its own
SHADOW_STARTS = "響子印片視星院像評迷帝后城音集壇展"  # 影響, 影子, 影印: 影 starts one
MUTUAL_STARTS = "似信同關互處對比當反應遇差識愛依連近等符約撞見逢隔傳容親交距撲輔助繼映稱配襯熟"


def _a_photo(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 相 read alone, is "a photo": the verb 影 stands within PHOTO_SPAN characters
    before it (影親相, 影嘅相), and no word of "mutual" starts at it."""
    ch, _, word = matches[i]
    if ch != PHOTO or len(word) != 1 or _followed_by(text, i, MUTUAL_STARTS):
        return False
    return any(text[k] == TAKE_PHOTO and not _preceded_by(text, k, SHADOW_ENDS) and
               not _followed_by(text, k, SHADOW_STARTS) for k in range(max(0, i - PHOTO_SPAN), i))


# 着 (著) before clothes is "to wear", zoek3 (着衫, 着褸, 着女裝, 著住底褲, 着短褲), where ToJyutping reads it alone
# zoek6 ("touched", 瞓着; the aspect of 隨著): a garment's character within three after it.
WEAR = "着著"
CLOTHES, WEAR_SAID = "衫褲褸鞋襪裙裝衣靴恤袍甲", "zoek3"


def _wears(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 着 or 著 read alone, is "to wear": clothes follow within three characters."""
    ch, _, word = matches[i]
    return ch in WEAR and len(word) == 1 and _within(text, i, CLOTHES, after=3)


# 覺 near 瞓 or 睡 is "a sleep", gaau3 (瞓著覺, 瞓唔着覺, 瞓緊覺, 瞓咗覺, 瞓個靚覺, 睡午覺, 冇覺好瞓, 一覺瞓醒), as
# ToJyutping's own 瞓覺, 睡覺 and 晏覺 read it, where it reads 覺 alone gok3, "to feel": a sleeping word within three
# characters either side, and neither 覺得, 覺悟, 覺察, 覺知 nor a word that ends in the feeling (感覺, 直覺, 視覺,
# 發覺): HKCanCor's conversations hold too few such places for a rule.
SLEEP = "覺"
SLEEP_NEAR, SLEEP_SPAN = "瞓睡", 3
FEELING_AFTER, FEELING_BEFORE = "得悟察知", "感視直觸錯幻知自警聽發察味嗅先後"


def _a_sleep(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 覺 read alone, is "a sleep" (瞓著覺, 冇覺好瞓) rather than "to feel"."""
    ch, _, word = matches[i]
    if ch != SLEEP or len(word) != 1 or _followed_by(text, i, FEELING_AFTER) or _preceded_by(text, i, FEELING_BEFORE):
        return False
    return _within(text, i, SLEEP_NEAR, before=SLEEP_SPAN, after=SLEEP_SPAN)


# 咁 closing a phrase, or followed only by its particles, is "like that", gam2 (好似迷你裙咁。就係咁㗎啦。因為咁，
# 哭成咁), which ToJyutping and the lexicon's 係咁 read gam3, "so", the degree word that needs a word after it (咁好,
# 唔係咁平, 咁cute). HKCanCor writes the phrase's end 噉, so its 咁 at a run's end is speech cut short (冇咁-,
# 幾咁…), read gam3: not after 冇 or 幾.
PARTICLES = "呀啊喇啦嘛吖喎㗎囉咩嘞噃啫嘅呢吧哦喔唏嘿"  # sentence-final: 吓 after one is the tag "huh?", haa2
LIKE_THAT, LIKE_THAT_SAID, SO_CUT_SHORT_AFTER = "咁", "gam2", "冇幾"


def _like_that(text: str, i: int, before_word: bool) -> bool:
    """Whether ``text[i]`` is a 咁 closing a phrase (nothing Han nor Latin after it but sentence-final particles:
    就係咁, 係咁㗎啦, 好似佢咁呀), "like that"."""
    return text[i] == LIKE_THAT and all(c in PARTICLES for c in text[i + 1:]) and not before_word and \
        (i == 0 or text[i - 1] not in SO_CUT_SHORT_AFTER)


# ... and 咁 after a word said twice, or ending in a doubled character, is the manner it is done in, gam2 (慢慢咁行,
# 靜靜咁走咗, 好好咁讀書, 安安靜靜咁做功課, 笑瞇瞇咁, 眼定定咁打量): HKCanCor writes it 噉 (33 of its 34 places), where
# ToJyutping reads 咁 alone gam3, "so". Not after a doubled measure word or time (次次咁遠, 個個咁靚, 日日咁辛苦:
# "every time so far"), nor after 明明 ("obviously") or the 流流 of a time (晨早流流, 年晚流流), before "so" (明明咁大,
# 晨早流流咁刺激), nor after a kin word said twice, a person it compares with (有爸爸咁open, 好似媽媽咁高: "as … as"),
# nor before 多 or 少 (少少咁多, 啲啲咁多: "only so much").
KIN_SAID_TWICE = frozenset("爸媽哥姐弟妹婆公爺嫲叔伯姑舅姨嬸寶")
NOT_MANNER_BEFORE, NOT_MANNER_AFTER = "多少", COUNT_MEASURES | frozenset("明流") | KIN_SAID_TWICE


def _in_that_manner(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a 咁 after a character said twice (慢慢咁行), not a measure word's (次次咁遠)."""
    return text[i] == LIKE_THAT and i >= 2 and text[i - 1] == text[i - 2] and text[i - 1] not in NOT_MANNER_AFTER \
        and not _followed_by(text, i, NOT_MANNER_BEFORE)


# Characters that informal Hong Kong writing puts for the particle or the suffix it says: 哂 for 晒, "all" (搞掂哂,
# 冇哂, 走哂: saai3; ToJyutping reads 哂 alone can2, the literary "smile" of 哂笑, 微哂, 一哂), and 既 for 嘅, the
# possessive (你既威力, 咁既話, 食既: ge3; ToJyutping reads 既 alone gei3, "since" or "both", as in 既然, 既往, 既定,
# 既得, 既不, 既…又). HKCanCor writes 晒 and 嘅 (its one 既 is 既然), so these are stated readings. And 吓 for
# 下, "a bit" or "a moment", after a verb (行吓街, 諗吓, 傾吓, 坐吓, 一吓, 兩吓: haa5, as HKCanCor reads its 睇吓;
# ToJyutping reads 吓 alone haa2, the "huh?" that opens a reply or tags a sentence after a particle, 好驚啊吓, which
# stays).
# And 果 for 嗰, "that", before a measure word, a place or a time (果個人, 果度, 果陣, 果啲嘢, 細個果陣: go2; ToJyutping
# reads 果 alone gwo2, "fruit", "result"), only there, and not after what ends a word in 果 with it (如果, 結果, 蘋果,
# 後果, 水果, 效果: ToJyutping lists only the words it reads unlike their characters, so these reach the frontend as
# characters read alone, and 如果個人, 蘋果日報 must keep gwo2).
# And 噶 for 嘅 (我噶仔, 錯誤噶方式, 最精彩噶系: ge3, where ToJyutping reads 噶 alone gaa1) but in the names of
# Tibet's cabinet and ministers (噶廈, 噶倫) and of the Dzungars (準噶爾); and 佐 for 咗 after a verb (去佐, 變成佐,
# 強暴佐佢: zo2; ToJyutping zo3) but in 佐治 (George), 佐證, 佐劑, 佐料, 佐領, 輔佐 and names (別列佐夫斯基); and 系
# for 喺 before 度 (我系度打緊, 一直系度努力: hai2, "at"; ToJyutping hai6, the 係 it also stands for), not closing a
# noun (太陽系邊度); and 岩 for 啱, "right", after 好, 先, 得, 唔, 都 or 幾 (講得好岩, 一百倍先岩, 唔岩傾: ngaam1;
# ToJyutping ngaam4, "rock"), not before 石, 層, 巉 (好岩巉, "jagged") and the other words of rock.
# And 甘 for 咁, "so", "like that" (變得甘極端, 黎得甘突然, 離死亡甘近, 瘋狂甘要求, 我哋都甘做: gam3), only before
# an adjective of degree or a verb that 咁 modifies, where 甘 "sweet" starts no word (甘心, 甘願, 甘香, 甘露, 甘藍,
# 甘肅, 甘地, 甘草; and 鑊甘, 眼甘甘, 好甘, "terrible", "staring", which stay gam1).
ENDS_A_WORD_IN_GWO = "如結蘋後生水效成糖芒苦惡因堅乾鮮青禁碩善佛花漿野奇異仙無腰核心龍香白戰正"  # 如果 … 正果
WRITTEN_FOR = {"哂": ("晒", "saai3", "all", "笑", "微一冷"),
               "既": ("嘅", "ge3", "the possessive", "然往定得不也是而有出", "言"),
               "吓": ("下", "haa5", "a bit, a moment", "", PARTICLES),
               "果": ("嗰", "go2", "that", "", ENDS_A_WORD_IN_GWO),
               "甘": ("咁", "gam3", "so, like that", "", "甘眼"),  # 眼甘甘望住: "staring", gam1
               "噶": ("嘅", "ge3", "the possessive", "廈倫爾沙隆", "準"),  # 噶廈, 噶倫, 準噶爾: Tibetan and Dzungar
               "佐": ("咗", "zo2", "the perfective", "治敦證劑料領助級榮夫斯", "輔員王丘列阿演"),  # 佐治, 佐證, 輔佐
               "系": ("喺", "hai2", "at", "", "陽河學體關聯統"),  # 我系度打緊 (太陽系, 學系: the noun)
               "岩": ("啱", "ngaam1", "right", "石層巉漿洞壁岩", "")}  # 講得好岩, 先岩 (岩石, 岩巉巉: "rock")
WRITTEN_ONLY_BEFORE = {"果": "個度陣啲邊便間隻次日位條本種排晚年時處班堆份",
                       "甘": "多近蠢極突純幫要做講問望黎嚟訓瞓教耐快慢遲早",
                       "系": "度"}
WRITTEN_ONLY_AFTER = {"岩": "好先得唔都幾"}
OPENING_SENSE = "既吓"  # at a run's start these are their own words: 既然 "since", 吓 "huh?" (fet哂 is still saai3)
SECOND_CLAUSE = "又也亦"  # 既 … 又 is "both … and": where one follows 既 in its run or the next few, 既 keeps gei3
AHEAD_RUNS = 3  # how many runs after 既's own are read for that 又 (既寬敞，又實用)


def _written_for(text: str, matches: list[Match], i: int,
                 ahead: str = "") -> tuple[str, str, str] | None:
    """(what ``matches[i]`` stands for, its reading, its sense) where informal writing puts it for another word (搞掂哂
    for 搞掂晒, 你既 for 你嘅), or None; ``ahead``: the Han text of the runs after this one, for 既 … 又."""
    ch, _, word = matches[i]
    stated = WRITTEN_FOR.get(ch)
    if stated is None or len(word) != 1:
        return None
    meant, reading, sense, not_before, not_after = stated
    if i == 0 and ch in OPENING_SENSE or _followed_by(text, i, not_before) or _preceded_by(text, i, not_after):
        return None
    if ch in WRITTEN_ONLY_BEFORE and not _followed_by(text, i, WRITTEN_ONLY_BEFORE[ch]):
        return None
    if ch in WRITTEN_ONLY_AFTER and not _preceded_by(text, i, WRITTEN_ONLY_AFTER[ch]):
        return None
    if ch == "既" and any(c in SECOND_CLAUSE for c in text[i + 1:] + ahead):
        return None
    return meant, reading, sense


def ahead_of(runs: list[Segment | list[Segment]], k: int) -> str:
    """The Han text of the AHEAD_RUNS runs after ``runs[k]``, where it holds a 既 (else nothing: it is not needed)."""
    if not any("既" in part.text for part in runs[k]):
        return ""
    return "".join(part.text for later in runs[k + 1:k + 1 + AHEAD_RUNS] if isinstance(later, list)
                   for part in later if part.kind == "han")


# 下 after a doubled verb (食食下飯, 玩玩下) or in a verb said twice with it (爬下爬下, 浮下浮下) is "… for a while, on
# and off", haa5: HKCanCor reads all 38 such places so, and ToJyutping reads 下 alone haa6, so that 爬下爬下 had the
# first haa6 and 用用下, 游游下水 both (75 places of CTCPC and Common Voice). 吓, which informal writing puts for
# that 下, in a verb said twice with it (搞吓搞吓: haa5, HKCanCor's four places; it reads 等等吓 haa2). Not in
# 上上下下 ("up and down"), nor after 死死, a word of its own, nor before a time or a direction (奶奶下個月, 日日
# 下晝), where 下 starts that word.
WHILE_DOING = "haa5"


def _a_while(text: str, i: int) -> bool:
    """Whether ``text[i]``, a 下 or 吓, follows a doubled verb (玩玩下) or joins a verb said twice (爬下爬下)."""
    ch = text[i]
    if ch not in "下吓":
        return False
    twice = (i >= 1 and text[i + 1:i + 3] == text[i - 1] + ch) or (i >= 3 and text[i - 3:i - 1] == text[i - 1] + ch)
    doubled = ch == "下" and i >= 2 and text[i - 2] == text[i - 1] != "死" and text[i + 1:i + 2] != ch
    a_time_after = text[i + 1:i + 2] in KEEPS_ITS_READING_BEFORE or \
        (text[i + 1:i + 2] == "個" and text[i + 2:i + 3] in TIME_WORDS)  # 奶奶下個月, 日日下晝: "next", "after-"
    return (twice or doubled) and text[i - 1] not in "下吓" and not a_time_after


# 哋 after an adjective said twice is "-ish", "somewhat", dei2 (乖乖哋, 驚驚哋唔夠, 慢慢哋行, 識識哋): HKCanCor
# reads all 14 such places dei2 (its 肥肥哋, 凍凍哋, 怪怪地), and ToJyutping reads 哋 alone dei6, the plural of 我哋,
# so that only a 哋 closing the utterance read dei2, by a context rule (37 places of CTCPC and Common Voice changed,
# each "-ish"). Only 哋, which speech alone writes: the 地 that written Chinese puts after a doubled word (靜靜地離開,
# 默默地) is left to ToJyutping. Not after a person said twice (人人哋).
SOMEWHAT, SOMEWHAT_SAID = "哋", "dei2"


def _somewhat(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a 哋 after a word said twice (乖乖哋), "-ish", not the plural of a person (我哋)."""
    return text[i] == SOMEWHAT and i >= 2 and text[i - 2] == text[i - 1] and text[i - 1] not in PERSONS + "人他她"


# 中 in 唔中 after 耐 ("now and then": 耐唔中去醫院) or before 用 ("useless": 好唔中用) is zung1, where ToJyutping's
# 唔中 ("misses", m4 zung3: 買唔中, 估唔中) takes it: 14 places of CTCPC and Common Voice (HKCanCor holds none).
MIDDLE, MIDDLE_SAID = "中", "zung1"


def _now_and_then(text: str, i: int) -> bool:
    """Whether ``text[i]`` is the 中 of 耐唔中 or 唔中用, zung1, not the 中 "to hit" of ToJyutping's 唔中."""
    return text[i] == MIDDLE and _preceded_by(text, i, "唔") and \
        (text[i - 2:i - 1] == "耐" or _followed_by(text, i, "用"))


WALK, WALK_SAID = "行", "haang4"  # 行行下街, 行行吓: "walking along", where ToJyutping's word 行行 is hong4 hong4


def _walking(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a 行 of 行行下 or 行行吓, the verb doubled before 下 ("walking along")."""
    return text[i] == WALK and (text[i + 1:i + 2] == WALK and text[i + 2:i + 3] in ("下", "吓") or
                                text[i - 1:i] == WALK and text[i + 1:i + 2] in ("下", "吓"))


# 度 after a count of something (a numeral, then its measure word or unit) is "about", dou2: 四百蚊度, 兩年度, 七杯度,
# 十個度, 八歲度 (HKCanCor reads 31 of its 33 such places so; the two others are temperatures, 四十幾度, where the
# numeral comes right before 度, as in 三十度, dou6, which this leaves alone). ToJyutping reads 度 alone dou6, and
# HKCanCor's context rules only knew the units it counted often (蚊度). After the measure words and units listed
# (COUNTED), not after 年 (its rule reads 兩年度; 每一年度, 九七至九八年度 are financial years) nor 季 (季度), and
# not before what makes 度 a verb (度吓, 度過, 度日, 度身).
NUMERALS = frozenset(NUMERAL_READINGS) | frozenset("百千萬億半廿卅幾")  # a number's characters, and 幾 "-odd"
ABOUT, ABOUT_SAID = "度", "dou2"
COUNTED = frozenset("蚊文元張杯歲日鐘月間號個斤𨂾步點人次本條粒架部層樽罐碗份件對套頁餐晚天週周秒呎尺吋米里磅克")
NOT_ABOUT_BEFORE = "吓下過日身量一"  # 度吓, 度過, 度日, 度身: the verb "to measure", "to spend"
HOW_MANY, ASKED_AMOUNTS = "幾多", "百千萬錢度"  # 幾多歲度, 幾多百度, 幾多錢度, 幾多度度 (HKCanCor's four: dou2)


# And after a stretch of time counted with 個 (一個月度, 兩個月度, 一個鐘頭度, 三個禮拜度): 4 places of CTCPC and
# Common Voice changed, each "about"; a place counted so (一個城市度, 一個櫃檯度) is where, dou6, and keeps it.
TIMES_COUNTED = ("月", "鐘頭", "鐘", "禮拜", "星期", "小時", "字")


def _about(text: str, i: int) -> str | None:
    """The count that ``text[i]``, a 度, closes, "about" (a numeral, then a measure word or unit: 百蚊 of 四百蚊度; or a
    numeral, 個 and a stretch of time: 一個月度), or None."""
    if text[i] != ABOUT or _followed_by(text, i, NOT_ABOUT_BEFORE):
        return None
    if i >= 2 and text[i - 2] in NUMERALS and text[i - 1] in COUNTED:
        return text[i - 2:i]
    if text.endswith(HOW_MANY, 0, i - 1) and (text[i - 1] in COUNTED or text[i - 1] in ASKED_AMOUNTS):
        return text[i - 3:i]  # 幾多歲度, 幾多錢度: "about how many"
    time = _word_before(text, i, TIMES_COUNTED)
    start = i - len(time) - 2 if time else -1
    return text[start:i] if start >= 0 and text[start] in NUMERALS and text[start + 1] == "個" else None


# 重 before a weight (a number, then 磅, 斤, 公斤, 克 or 噸) is "to weigh", cung5 (個BB重八磅, 重三點八公斤,
# 各重一百五十公斤), as ToJyutping reads 重 alone, where the lexicon reads it zung6, HKCanCor's "still" (仲), which a
# number does not follow straight.
WEIGHS, WEIGHS_SAID, WEIGHT_UNITS = "重", "cung5", "磅斤克噸"


def _weighs(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 重 read alone (or starting ToJyutping's 重九, the festival, which took 重九磅), comes
    straight before a weight: numerals (a decimal point among them), then a unit of weight (八磅, 三點八公斤)."""
    if matches[i][2] not in (WEIGHS, "重九"):
        return False
    j = i + 1
    while j < len(text) and (text[j] in NUMERALS or text[j] == "點" and j > i + 1):
        j += 1
    if j == i + 1 or text[j - 1] == "點":  # no number, or one cut off at its decimal point
        return False
    if text[j:j + 1] == "公":  # 公斤
        j += 1
    return j < len(text) and text[j] in WEIGHT_UNITS


# 咪 after 千祈 or 最好 ("never", "had better"), or opening a phrase or after a person before a verb of mischief or
# 咁 (咪亂咁講, 你咪扮嘢, 咪理佢, 你咪咁八卦), is "don't", mai5, as ToJyutping reads it alone and in its 咪郁 and 咪搞
# (plain words), where the lexicon reads it mai6, HKCanCor's "then", "isn't it" (噉咪係囉, 噉咪理囉, 噉樣咪亂咁來囖:
# after 噉 or a clause, 咪 is "then" before these too); HKCanCor's training split holds none of these places.
DONT, DONT_SAID, DONT_AFTER = "咪", "mai5", ("千祈", "最好", "至好")
MISCHIEF, PERSON_BEFORE = "亂扮理惹嘈咁", "你佢哋"  # not 我: 我咪執包袱囉 is "then I"
# ... and 咪 opening a phrase before a verb is "don't" whatever the verb (咪郁！, 咪講住啦, 咪當我儍仔, 咪喐手):
# typed text opens commands so, where HKCanCor's conversations open with 咪 "then" (咪係囖, 咪重好). Not before
# the words "then" opens (係, 即係, 又, 都, 就, 可以, 唔, 冇, 有, 重 "still", 盞 "only", 變 "becomes": 咪又係納税人嘅錢,
# 咪變咗做停車場), nor in a phrase that 囖, 囉 or 咯 closes, the particles of "so then" (咪乾手淨腳囉).
THEN_OPENS, THEN_CLOSES = "係即又都就可唔冇有重盞變", "囖囉咯"


# ... and 咪 after a person that 噉, 咁 or 就 opens (噉你咪自己扣, 噉我咪話, 咁你咪出去囉, 噉我哋咪推粵囉) is "then",
# mai6, as the lexicon reads it alone, even inside rime-cantonese's 咪話 and 咪自 ("don't say", mai5), plain words
# that kept the lexicon out: HKCanCor reads all 17 such places mai6, and so read all 28 of CTCPC and Common Voice.
THEN_SAID, THEN_OPENERS = "mai6", "噉咁就"


def _then(text: str, i: int) -> str | None:
    """The words before ``text[i]``, a 咪 after a person that 噉, 咁 or 就 opens (噉你咪), or None."""
    if text[i] != DONT:
        return None
    person = i - 1 - (text[i - 1:i] == "哋")
    if person < 1 or text[person] not in PERSONS or text[person - 1] not in THEN_OPENERS:
        return None
    return text[person - 1:i]


# 喇 closing a command or a suggestion that 唔好, 千祈, 快啲 or 不如 opens (你唔好搞我喇, 唔好再嘈喇, 不如講到呢度喇) is
# laa1, the particle that urges, where ToJyutping's laa3 says that something has come about (我走喇, 佢大晒喇):
# HKCanCor writes laa3 嚹, so it teaches nothing here (datasets/lexicon.py, SPELLED_APART). Not where 唔好 is "not
# good" or opens a word of its own (就唔好喇, 唔好彩喇, 唔好意思喇), nor 唔好 and one verb that 好 makes an adjective of
# (唔好食喇: "don't eat it" or "not tasty").
URGED, URGED_SAID = "喇", "laa1"
URGES = ("唔好", "千祈", "快啲", "不如")
URGED_PERSONS = ("你哋", "你", "大家", "我哋", "就")  # the first that opens the phrase is passed over
NOT_URGING_AFTER = ("彩", "意思", "處", "似", "多", "耐")  # 唔好彩, 唔好意思 …: words of their own
ADJECTIVE_WITH_HOU = "過聽睇玩食飲笑受"  # 好食 "tasty", 好睇 "good-looking": 唔好食喇 alone says either


def _urged(text: str, i: int) -> str | None:
    """The word that opens the command or suggestion ``text[i]``, a 喇 with only particles after it, closes (唔好
    搞我喇), or None."""
    if text[i] != URGED or not all(c in PARTICLES for c in text[i + 1:]):
        return None
    head = text[:i]
    for person in URGED_PERSONS:
        if head.startswith(person):
            head = head[len(person):]
            break
    urge = next((u for u in URGES if head.startswith(u)), None)
    if urge is None or len(head) == len(urge):
        return None
    rest = head[len(urge):]
    if urge == "唔好" and (rest.startswith(NOT_URGING_AFTER) or rest in ADJECTIVE_WITH_HOU):
        return None
    return urge


# 呀 (or 啊, which typed text writes alike) closing a question that no word of its sentence asks (你屈我呀？, 犯法
# 呀？, 係呀？, 機器啊？) is aa4, the particle that turns a statement into a yes-or-no question, where ToJyutping's
# aa3 softens a question a word already asks (點解唔早啲出聲呀？, 係唔係鍾意咗佢呀？, 有冇咁差呀？), and so 㗎 is
# gaa4 there (你聾㗎？, 你新嚟㗎？) and 嘅 ge2 (咁難接受嘅？, 呢本書係你嘅？), where ToJyutping's gaa3 and ge3 assert
# (係㗎, 係你嘅) or close a question a word asks (點解㗎？): HKCanCor writes aa3 啊 and aa4 呀, gaa3 𡃉 and gaa4 㗎
# (SPELLED_APART), and its runs have no question marks, so it teaches nothing here. The question words: 點 乜 咩 邊
# 幾 誰 何 未 定 嗎, 咪 (係咪), 有冇, 有無, and a word said either side of 唔 (去唔去, 好唔好); a sentence with Latin
# letters in it is left alone, since its English may ask (今晚do唔do嘢呀？). The frontend says which runs close such
# a question (``frontend.closes_yes_or_no``).
ASKED = {"呀": "aa4", "啊": "aa4", "㗎": "gaa4", "嘅": "ge2"}
QUESTION_WORDS = "點乜咩邊幾誰何未定嗎咪"


def asks_with_a_word(text: str) -> bool:
    """Whether ``text``, a sentence's Han text, holds a question word or a word said either side of 唔."""
    if any(c in QUESTION_WORDS for c in text) or "有冇" in text or "有無" in text:
        return True
    return any(text[k + 1] == "唔" and text[k] == text[k + 2] for k in range(len(text) - 2))


def _dont(text: str, matches: list[Match], i: int, opens: frozenset[int]) -> str | None:
    """Where ``matches[i]``, a 咪 read alone, is "don't" ("after 千祈", "before 亂, a command"), or None: after 千祈
    or 最好, or opening a phrase or after a person before a verb of mischief or 咁 (咪亂咁講, 你咪扮嘢), or opening
    a phrase before any verb but the words "then" opens, in a phrase no 囖 closes (咪講住啦)."""
    if matches[i][2] != DONT:
        return None
    if after := _word_before(text, i, DONT_AFTER):
        return f"after {after}"
    if _followed_by(text, i, MISCHIEF) and (i in opens or _preceded_by(text, i, PERSON_BEFORE)):
        return f"before {text[i + 1]}, a command"
    if i in opens and i + 1 < len(text) and text[i + 1] not in THEN_OPENS and text[-1] not in THEN_CLOSES:
        return "opening a phrase before a verb, a command"
    return None


# 數 as a verb is "to count", sou2: said twice (數一數, 數埋數埋, 數下數下), or with an aspect or a complement after it
# where a person comes before it or it opens a phrase (你數下一共幾多, 我數到一千, 幫我數住, 我數過喇), as HKCanCor
# reads its 數一數 and 數埋數埋 (too few places for a rule) and ToJyutping its 倒數 and 數一數二, where it reads 數
# alone sou3, "a number", "a sum" (人數下降, 啲數唔啱: after a noun it stays the noun).
COUNT, COUNT_SAID, COUNT_ENDINGS = "數", "sou2", "下吓緊咗過到埋住番翻完晒"


def _counts_things(text: str, matches: list[Match], i: int, opens: frozenset[int]) -> bool:
    """Whether ``matches[i]``, a 數 read alone, is the verb "to count": said twice around 一 or an aspect (數一數,
    數埋數埋), or before an aspect after a person or at a phrase's start (我數到一千)."""
    if matches[i][2] != COUNT:
        return False
    twice = (_followed_by(text, i, "一" + COUNT_ENDINGS) and text[i + 2:i + 3] == COUNT) or \
        (_preceded_by(text, i, "一" + COUNT_ENDINGS) and text[i - 2:i - 1] == COUNT)
    return twice or (_followed_by(text, i, COUNT_ENDINGS) and (i in opens or _preceded_by(text, i, PERSONS + "哋")))


# 零 between a round number (十, 百, 千, 萬) or 個 "one" and what it counts is "-odd", leng4 (五十零歲, 十零日, 個零月,
# 四萬零蚊, 千零人), the colloquial reading HKCanCor gives it in all 23 such places (its context rules learnt it only
# before 蚊 and 鐘; the dictionaries, rime-cantonese's and CC-Canto's, list 零 ling4 alone and no word of "-odd"),
# where ToJyutping reads 零 alone ling4, "zero", which a numeral after it keeps (一百零五, 一千零一夜, 一九八零年).
ODD, ODD_SAID, ODD_AFTER = "零", "leng4", "十百千萬個"
ODD_COUNTED = COUNTED | frozenset("年萬億字")


def _and_odd(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is a 零 read alone between a round number or 個 and a unit it counts (十零日)."""
    return matches[i][2] == ODD and _preceded_by(text, i, ODD_AFTER) and _followed_by(text, i, ODD_COUNTED)


# 來 after a count of years is "over the years", loi4 (五年來, 近年來, 多年來, 四千年來, 咁多年來), as CC-Canto reads
# 年來, 多年來 and 近年來 and ToJyutping reads 來 alone, where the context rules learnt from HKCanCor, whose 來 mostly
# stands for 嚟 (lai4), read it lai4 at a phrase's end and after 年. HKCanCor reads its one 幾年來 lai4, one of the two
# readings CC-Canto gives 幾年來, so ToJyutping's loi4, the other, stands there too; not before 計 or a final particle
# (以九八年來計, 新年來㗎: "to come").
OVER, OVER_SAID, COUNTS_YEARS = "來", "loi4", NUMERALS | frozenset("多近歷數")
NOT_OVER_BEFORE = "計㗎𡃉喎啊呀喇啦嘛吖囉咩嘞噃啫"  # not 嘅: 三十年來嘅模式 is "of the last thirty years"


def _over_the_years(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is a 來 read alone after 年 after a count (五年來, 近年來), "over the years"."""
    return matches[i][2] == OVER and i >= 2 and text[i - 1] == "年" and text[i - 2] in COUNTS_YEARS and \
        not _followed_by(text, i, NOT_OVER_BEFORE)


# 上 closing a run that Latin letters follow, where it opens its phrase or follows a person, a modal or a verb of
# putting, is "to go onto" a site or a platform, soeng5 (上YouTube睇片, 我上Facebook, 唔使上video, 放上YouTube,
# 升返上D1), as ToJyutping's 上網 and 上台 read it, where it reads 上 alone soeng6, "on": 9 places of CTCPC and
# Common Voice, each "onto". Where 上 closes a word (基本上, 馬上) or follows a noun it is "on" (枱上iPad): left
# alone, and so is the thing put before it (掟啲相上Facebook, its one miss there).
ONTO, ONTO_SAID = "上", "soeng5"
ONTO_AFTER = PERSONS + "哋擺放掟貼升搬寄傳返番去再又都就先要使會想以"


def _onto_a_site(text: str, matches: list[Match], i: int, before_word: bool, opens: frozenset[int]) -> bool:
    """Whether ``matches[i]``, a 上 read alone right before Latin letters, is the verb "to go onto"."""
    ch, _, word = matches[i]
    return ch == ONTO and before_word and len(word) == 1 and i == len(text) - 1 and \
        (i in opens or (i > 0 and text[i - 1] in ONTO_AFTER))


# 女 after 個, read alone, with nothing a noun could begin after it, is "a daughter", neoi2 (我個女, 佢個女好得意,
# 佢係你個女, 個女話想做律師), as rime-cantonese's 個乖女, 大個女, 仔女, 孫女 and 生女 read it, where ToJyutping reads
# 女 alone neoi5, the "female" of 女人, 女仔 and 女同事: after it only a run's end, a particle or a word that cannot
# go on a noun (都 係 話 住 好 仲 …). HKCanCor reads its 個女 so where nothing nominal follows (6 places).
DAUGHTER, DAUGHTER_SAID, DAUGHTER_AFTER = "女", "neoi2", "個"
DAUGHTER_BEFORE = PARTICLES + "都係話住好仲幾去我你佢要俾冇唔有發改做拍詐幫咁噉會就又已而今琴嫁讀返喺嚟未畀"


def _a_daughter(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 女 read alone after 個, is "a daughter": nothing a noun could begin follows."""
    ch, _, word = matches[i]
    return ch == DAUGHTER and len(word) == 1 and _preceded_by(text, i, DAUGHTER_AFTER) and \
        (i + 1 == len(text) or text[i + 1] in DAUGHTER_BEFORE)


# 會 in 唔會 ("will not") and before it (會唔會) is the modal, wui5, which the dictionary already keeps out of its
# words there (dictionary.py, is_modal); stated here too so that no context rule re-reads it.
WILL_SAID = "wui5"

# 當 between two persons is "to take for", dong3 (你當我係咩, 佢當你係隻棋, 我當佢係路人, 你當我傻㗎), as ToJyutping's
# own 當我冇到 reads it, where it reads 當 alone dong1, "when", "to serve as" (當你發現, 當時, 當更); not before 我面,
# 你面 or 佢面, "in front of" (佢當我面撕咗封信). Over CTCPC and Common Voice it changed 35 places, 34 of them "to
# take for"; the other is a "when" after a 你 that a subtitle left without its comma (記得以前嘅你當你再…).
TAKE_FOR, TAKE_FOR_SAID, TAKE_FOR_AFTER = "當", "dong3", PERSONS + "哋"


def _takes_for(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 當 read alone, stands between two persons: "to take (someone) for"."""
    return text[i] == TAKE_FOR and len(matches[i][2]) == 1 and _preceded_by(text, i, TAKE_FOR_AFTER) and \
        _followed_by(text, i, PERSONS) and text[i + 2:i + 3] != "面"


# ... and 當 after a person or a word that leads a verb (都, 就, 唔, 唔好, 冇, 好似, 已經, 只係, 梗係, 即係), with 係
# within four characters after it, is "to take (something) as", dong3 (都當佢係寶貝, 你唔好當自己係老細,
# 只係當香港係暫居之所, 就當你係籮底橙), where a 當 that opens its phrase or follows 但, 但係, 而 or 就係 is "when"
# (但當人哋話我係, 但係當啲人係); not where it begins a word ToJyutping leaves to its characters (我當時係, 當年).
TAKE_AS_AFTER, TAKE_AS_AFTER_WORDS = TAKE_FOR_AFTER + "都就唔冇", ("唔好", "好似", "已經", "只係", "梗係", "即係")
TAKE_AS, TAKE_AS_WITHIN, TAKE_AS_NOT_BEFORE = "係", 4, "時年日天中初局然代晚"


def _takes_as(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 當 read alone after a person or a word that leads a verb, takes something as 係
    what follows: "to take as"."""
    return text[i] == TAKE_FOR and len(matches[i][2]) == 1 and not _followed_by(text, i, TAKE_AS_NOT_BEFORE) and \
        (_preceded_by(text, i, TAKE_AS_AFTER) or text.endswith(TAKE_AS_AFTER_WORDS, 0, i)) and \
        TAKE_AS in text[i + 1:i + 1 + TAKE_AS_WITHIN]


# 份 closing ToJyutping's 有份, 冇份 or 兩份 ("a share", "two portions", fan2: 人人有份, 兩份食) is the measure word,
# fan6, before what it counts (有份工, 有份牛工, 兩份禮物, 兩份兼職, 兩份合同), as HKCanCor reads its 有份工 and
# 兩份禮物 and rime-cantonese its 一式兩份: 19 places of CTCPC and Common Voice, each counting.
MEASURE_SAID = "fan6"
SHARES = ("有份", "冇份", "兩份")
COUNTED_BY_FAN = ("工", "牛工", "禮物", "經文", "兼職", "糧", "供詞", "合同", "合約", "報紙", "報告", "文件", "功課",
                  "穩定")


def _counts(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is the 份 closing ToJyutping's 有份, 冇份 or 兩份 before a thing it counts (有份工)."""
    return _second_of(text, matches, i, SHARES) and text.startswith(COUNTED_BY_FAN, i + 1)


# 條 closing ToJyutping's 四條 (sei3 tiu2: "four of a kind", 扮四條 "to act the tough guy") is the measure word, tiu4,
# inside a number (第四條, 十四條) or before what it counts (四條路線, 四條手指, 小提琴有四條弦, 四條煙); not before 尾
# or 大 (會考攞到四條尾, 四條大過), nor closing a run (冇料扮四條！, 四條A). 21 places of CTCPC and Common Voice: 15
# counting, which this reads tiu4.
FOUR_OF_A_KIND, COUNTED_SAID, NOT_COUNTING_BEFORE = "四條", "tiu4", "尾大"


def _counts_four(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is the 條 of ToJyutping's 四條 counting: in a number, or before what it counts."""
    return _second_of(text, matches, i, (FOUR_OF_A_KIND,)) and \
        ((i >= 2 and (text[i - 2] in NUMERALS or text[i - 2] == "第")) or
         (i + 1 < len(text) and text[i + 1] not in NOT_COUNTING_BEFORE))


# 使 in 大使 is "an envoy", si3 (駐英國大使, 親善大使, 召回大使, 大使館), as rime-cantonese reads 大使 and 大使館, where
# ToJyutping's 大使 is "to spend freely", sai2, and its 大使館 reads si5; that sense after a word of degree (佢好
# 大使, 唔好咁大使) and in rime-cantonese's 大嘥大使 and 大使大食 only. Over CTCPC and Common Voice 45 places: 39
# envoys, 6 spending, each after 好 or 咁.
ENVOY, ENVOY_SAID, SPENDS_AFTER, SPENDS_BEFORE = ("大使", "大使館"), "si3", "好咁太幾真嘥", "大"


def _an_envoy(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is the 使 of a dictionary word 大使 or 大使館 with no word of degree (nor 嘥) before it
    and no 大 after it (大使大食)."""
    return _second_of(text, matches, i, ENVOY) and not _preceded_by(text, i - 1, SPENDS_AFTER) and \
        not _followed_by(text, i, SPENDS_BEFORE)


# 使 read alone closing the title of an envoy or an official of the old courts is si3 too (駐古巴公使, 節度使, 按察使,
# 布政使, 經略使, 市舶使, 副使), as ToJyutping's own 特使 and 密使 read it, where the lexicon reads 使 alone sai2,
# HKCanCor's "to spend", "to use", and ToJyutping si2 (使用): 20 places of CTCPC and Common Voice, history written
# in Cantonese. Not after the 公 of a grandfather or a husband (阿公, 老公使錢) or of 辦公, nor before 用 (使用).
OFFICIAL = "使"
OFFICE_TITLES = ("公", "節度", "按察", "布政", "經略", "市舶", "副", "敕", "觀察", "轉運", "招討")
NOT_AN_OFFICE = ("老公", "阿公", "外公", "伯公", "叔公", "舅公", "太公", "家公", "辦公")


def _an_official(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 使 read alone, closes an office's title (公使, 節度使, 副使)."""
    return matches[i][2] == OFFICIAL and bool(_word_before(text, i, OFFICE_TITLES)) and \
        not _word_before(text, i, NOT_AN_OFFICE) and not _followed_by(text, i, "用")  # 公使用


# 使 read alone before a person who then does or feels something is "to cause", si2 (呢本書使佢困惑, 因為佢使我哋有個
# 屋企, 可以使人歡欣, 使其對…): 22 places of CTCPC and Common Voice, where the lexicon reads 使 alone sai2, HKCanCor's
# "to spend", "to need", whose conversations never say "to cause" (their 使 before a person follows 唔: 唔使我哋多買).
# Not where a word of needing or using precedes it (唔使, 仲使我講, 邊使, 點使, 慳住使, 唔好使人: "need", "to order
# about"), nor where money or an amount follows the person (使你咁多錢), nor before 做 (使我哋做嘢, "to order about").
CAUSE, CAUSE_SAID = "使", "si2"
CAUSED = PERSONS + "他她它人其"
NOT_CAUSE_AFTER = "唔仲邊點使冇夠住好未"
NOT_CAUSE_BEFORE = ("咁多", "錢", "幾", "啲錢", "做")


def _causes(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 使 read alone, is "to cause": a person after it, no word of needing before it and
    no amount after the person (使佢困惑, not 仲使我講 or 使你咁多錢)."""
    if matches[i][2] != CAUSE or not _followed_by(text, i, CAUSED) or _preceded_by(text, i, NOT_CAUSE_AFTER):
        return False
    after = i + 2 + (text[i + 2:i + 3] in ("哋", "們"))
    return not text.startswith(NOT_CAUSE_BEFORE, after)


# The 會 of the lexicon's 會見 (HKCanCor's 都會見到, "will see", wui5) is "to meet", wui6, where no complement
# follows 見 and no person or adverb the modal follows stands before 會 (白宮會見美國總統, 行政會議前會見傳媒,
# 得以會見兩名工人, 喺東德會見咗, 唔俾會見律師): 12 places of CTCPC and Common Voice, each a meeting; 你會見到,
# 都會見返 and 你會見周圍 keep wui5.
MEET, MEET_SAID = "會見", "wui6"
SEES_AFTER = "到返翻番過得唔吓下埋"
WILL_AFTER = PERSONS + "哋們他她都就亦也仲先定將難唔又還才必總梗實應"


def _meets(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is the 會 of a dictionary word 會見 that is "to meet": no complement after 見 (會見到)
    and no person or adverb before 會 (你會見, 都會見)."""
    return matches[i][2] == MEET and text.startswith(MEET, i) and not _followed_by(text, i + 1, SEES_AFTER) and \
        not _preceded_by(text, i, WILL_AFTER)


# 會 read alone after 開 and its aspect, a measure word or a question word (佢開緊會, 等你開完會, 開親會都要半日,
# 去開個會, 開咩會呀, 開早會, 開下會) is "a meeting", wui2, as ToJyutping's own 開會 and HKCanCor's 開下會 read it,
# where it reads 會 alone wui5, the modal: 17 places of CTCPC and Common Voice, each a meeting (its 早會 already reads
# wui2; the lexicon's 會同, "will … with", still takes 開完會同佢傾). Not after 開咗, which the modal follows too
# (門開咗會自動閂), nor 開始 (開始會停止運作). With HKCanCor's 開下會 read so, its training split misreads 會 in
# only 2 places, under the 3 a context rule needs, so the 134 rules that restated 會's wui5 went (datasets/lexicon.py).
MEETING, MEETING_SAID = "會", "wui2"
HOLDS_A_MEETING = ("開緊", "開完", "開親", "開個", "開咩", "開早", "開下")


def _a_meeting(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]``, a 會 read alone, follows 開 and its aspect or a measure word: "a meeting"."""
    return text[i] == MEETING and len(matches[i][2]) == 1 and text.endswith(HOLDS_A_MEETING, 0, i)


# 鋪 after a shop's trade or a word of keeping shop is "a shop", pou3 (商鋪, 店鋪, 金鋪, 藥鋪, 西餅鋪, 雜貨鋪, 開鋪,
# 閂鋪, 封鋪, 吉鋪, 呢間鋪), the 舖 that Hong Kong text also writes 鋪, as rime-cantonese reads its words of the shop
# either way (店鋪, 金鋪, 閂鋪, 商舖, 雜貨舖), where ToJyutping reads 鋪 alone pou1, "to spread", "to pave" (鋪路,
# 鋪設, 鋪滿); before 租 and 址 too (鋪租, 鋪址). Its other senses keep pou1: the verb, a round of a game (今鋪, 一鋪,
# 玩鋪勁) and bedding (牀鋪, 打地鋪, 孖鋪). 間 counts shops only as the measure word read alone (呢間鋪, not 房間鋪滿),
# and none where what follows makes 鋪 the verb (鋪滿, 鋪咗, 鋪好, 鋪路, 鋪排, 鋪蓋). The words whose second
# character changes too (鋪頭 tau2, 鋪位, 鋪面, 當鋪) are stated words (runtime/data/stated_words.tsv).
SHOP, SHOP_SAID, SHOP_WRITTEN = "鋪", "pou3", "舖"
SHOP_AFTER = "店商金肉鞋酒茶米餅藥材貨器衣果紗燭董髮涼紮俬換質鏡治麵麪包吉旺網劏閂封搬收開機總老間"
SHOP_BEFORE = "租址"
ASPECT_AFTER = "咗緊過埋滿晒住"
NOT_SHOP_BEFORE = ASPECT_AFTER + "好落返上設排張路平得蓋喺"


def _a_shop(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is a 鋪 read alone after a shop's trade or a word of keeping shop, or before 租 or
    址, with no verb's object or ending after it; after 間 the measure word only an aspect makes it the verb."""
    ch, _, word = matches[i]
    if ch != SHOP or len(word) != 1 or i == 0 and not _followed_by(text, i, SHOP_BEFORE):
        return False
    counter = matches[i - 1][2] if i > 0 else ""  # 間 as the dictionary reads it: alone, or in 呢間, 一間
    if i > 0 and text[i - 1] == "間":
        counted = counter == "間" or len(counter) == 2 and counter[0] in READ_AFTER["間"].after
        return counted and not _followed_by(text, i, ASPECT_AFTER)  # 呢間鋪好平, but not 房間鋪滿
    return not _followed_by(text, i, NOT_SHOP_BEFORE) and \
        (_followed_by(text, i, SHOP_BEFORE) or i > 0 and text[i - 1] in SHOP_AFTER)


@dataclass(frozen=True)
class SaidAlone:
    """A character read alone in its spoken sense, as rime-cantonese reads it alone and ToJyutping's own words do,
    where ToJyutping reads it alone in a literary sense that its words (plain words) keep."""
    reading: str
    sense: str
    literary: str  # where ToJyutping's reading stays, for --explain
    not_before: str = ""  # characters after it that give it its other sense


# 坐 read alone is "to sit", "to ride", co5 (坐巴士, 坐咗喺度, 冇位坐, 坐唔落), as rime-cantonese reads it alone and as
# ToJyutping's own words read it (坐低, 坐車, 坐監, 坐飛機), where ToJyutping reads 坐 alone zo6, the literary reading
# that words such as 坐落, 坐享其成 and 靜坐 keep (plain words: the frontend leaves them be). HKCanCor reads 坐 co5 in
# 35 of the 39 places of its training split where it stands alone; the other four are 坐標 and 坐位 (座 written 坐,
# "a seat"), which keep zo6, as 坐北朝南 ("facing south") does.
# 焫 read alone is "to scald", "to burn", naat3 (滾水焫親, 好焫, 焫傷隻手, 焫咗佢: "shot him"), as rime-cantonese
# reads it alone and in each of its words (焫親, 焫雞, 熱焫焫) and ToJyutping in its own (焫手, 焫雞), where ToJyutping
# reads it alone jyut3, a reading no Cantonese word of either keeps: 26 places of CTCPC and Common Voice, each naat3;
# HKCanCor holds none.
# 拮 read alone is "to prick", "to stab", gat1 (畀針拮親, 牙籤拮魚蛋, 件冷衫好拮肉, 拮咗佢兩刀), as rime-cantonese reads
# it alone and in its 拮親, 拮傷 and 拮穿, where ToJyutping reads it alone git3, the literary reading its 拮据 ("hard
# up") keeps, a word it matches whole: 29 places of CTCPC and Common Voice changed, "to prick" or "to stab" but for
# a few of slang said gat1 too (拮拮friend); HKCanCor holds none.
SIT, SIT_SAID = "坐", "co5"
SAID_ALONE = {SIT: SaidAlone(SIT_SAID, "to sit, to ride", "坐落 and 靜坐 keep it", not_before="標位北"),
              "焫": SaidAlone("naat3", "to scald, to burn", "no Cantonese word keeps it"),
              "拮": SaidAlone("gat1", "to prick, to stab", "拮据 keeps it", not_before="据據")}


def said_alone(text: str, i: int) -> SaidAlone | None:
    """The spoken sense of ``text[i]`` read alone (坐 "to sit", not the 座 "a seat" of 坐標 or 坐位, nor 坐北
    "facing"; 焫 "to scald"; 拮 "to prick"), or None."""
    stated = SAID_ALONE.get(text[i])
    return None if stated is None or _followed_by(text, i, stated.not_before) else stated


# 分 between a numeral and 之 before another is a fraction's "part", fan6 (三分之一, 四分之三, 十分之一, 萬分之一), as
# ToJyutping's own 百分之 and 千分之 read it, where it reads 分 alone, and in 十分 and 萬分 ("very"), fan1: 20 places of
# CTCPC and Common Voice, and every fraction the number rules write (½ → 二分之一, 評分4/5 → 五分之四). Not where
# no number follows 之 (十分之好, 一分之差), nor where the word after it only opens with a numeral (十分之一般, "very
# ordinary"), nor where the dictionary reads it so already (百分之).
FRACTION, FRACTION_SAID = "分", "fan6"
OPEN_WITH_A_NUMERAL = ("一般", "一樣", "一致", "一流", "一貫", "一定", "一向", "一齊", "一直", "一啲", "一早", "一味")


def a_fraction(text: str, matches: list[Match], i: int) -> bool:
    """Whether ``matches[i]`` is the 分 of a fraction (三分之一) that the dictionary reads otherwise: a numeral before
    it and a number after its 之; the frontend asks this where a number rule wrote the fraction too."""
    if text[i] != FRACTION or matches[i][1] == FRACTION_SAID or not 0 < i < len(text) - 2:
        return False
    return text[i - 1] in NUMERALS and text[i + 1] == "之" and text[i + 2] in NUMERALS and \
        not text.startswith(OPEN_WITH_A_NUMERAL, i + 2)


def stated_sense(text: str, matches: list[Match], i: int, after_word: bool = False, before_word: bool = False,
                 ahead: str = "", opens: frozenset[int] = frozenset(), asks: bool = False) -> tuple[str, str] | None:
    """(reading, why) where a stated sense reads ``matches[i]``, the first that applies, or None; ``after_word``:
    the run follows an English word; ``before_word``: Latin letters follow it; ``ahead``: the next runs' Han text;
    ``opens``: the places that open a phrase (``Frontend.explain_han`` says which); ``asks``: the run closes a
    question that no word of its sentence asks."""
    ch = matches[i][0]
    if a_fraction(text, matches, i):
        return FRACTION_SAID, f"{ch} between {text[i - 1]} and 之 → {FRACTION_SAID}, \"a part\", as in 百分之"
    if i == 0 and after_word and _after_english_verb(text, before_word):
        said = AFTER_ENGLISH_VERB[ch]
        return said, f"{ch} right after an English word, a verb (check{ch}, google{ch}) → {said}, as after 睇 or 試"
    if i > 0 and spells_second_syllable(text, i - 1):
        return SECOND_SAID, (f"{ch} after {text[i - 1]}, the numeral's second syllable written out → {SECOND_SAID}, "
                             "not the particle")
    if _now_and_then(text, i):
        return MIDDLE_SAID, f"{ch} in 耐唔中 or 唔中用 → {MIDDLE_SAID}, \"now and then\", \"useless\" (not \"to hit\")"
    if _somewhat(text, i):
        return SOMEWHAT_SAID, f"{ch} after {text[i - 2:i]}, a word said twice → {SOMEWHAT_SAID}, \"-ish\" (not plural)"
    if _walking(text, i):
        return WALK_SAID, f"{ch} doubled before 下 (行行下街) → {WALK_SAID}, \"to walk\""
    if _a_while(text, i):
        return WHILE_DOING, (f"{ch} after {text[i - 1]} said twice (玩玩下, 爬下爬下) → {WHILE_DOING}, \"… for a "
                             "while\"")
    if written := _written_for(text, matches, i, ahead):
        meant, said, sense = written
        return said, f"{ch} written for {meant} → {said}, \"{sense}\", as informal text writes it"
    if _like_that(text, i, before_word):
        return LIKE_THAT_SAID, (f"{ch} closing a phrase → {LIKE_THAT_SAID}, \"like that\" (好似…咁, 係咁), not "
                                "\"so\", which needs a word after it")
    if _in_that_manner(text, i):
        return LIKE_THAT_SAID, (f"{ch} after {text[i - 2:i]}, a word said twice → {LIKE_THAT_SAID}, the manner (慢慢咁"
                                "行), not \"so\"")
    if count := _about(text, i):
        return ABOUT_SAID, f"{ch} after the count {count} → {ABOUT_SAID}, \"about\""
    if _a_holiday(text, matches, i):
        return HOLIDAY_SAID, f"{ch} taken as time off (放{ch}, 請{ch}, 三日{ch}) → {HOLIDAY_SAID}, \"a holiday\""
    if _a_photo(text, matches, i):
        return PHOTO_SAID, f"{ch} after the verb {TAKE_PHOTO} (影{ch}, 影完{ch}) → {PHOTO_SAID}, \"a photo\""
    if _wears(text, matches, i):
        return WEAR_SAID, f"{ch} before clothes ({ch}衫, {ch}褲) → {WEAR_SAID}, \"to wear\""
    if read_before := _read_before(text, matches, i):
        before, following = read_before
        role = f"{before.role} " if before.role else ""
        return before.reading, (f"{ch} before {role}{following} → {before.reading}, \"{before.sense}\", as in "
                                f"{before.like}")
    if where := _stands_for_this(text, matches, i, opens):
        return THIS_SAID, (f"{ch} {where}, more of the phrase after it → {THIS_SAID}, \"this\": no particle stands "
                           "there")
    if _onto_a_site(text, matches, i, before_word, opens):
        return ONTO_SAID, f"{ch} before an English name, a verb → {ONTO_SAID}, \"to go onto\" (上YouTube), as in 上網"
    if is_modal(text, i):
        return WILL_SAID, (f"{ch} in 唔{ch} or {ch}唔{ch}, or after a 上 closing a word, a machine or people counted "
                           f"(啲同學{ch}) → {WILL_SAID}, \"will\", "
                           "the modal, a word of its own")
    if _a_daughter(text, matches, i):
        return DAUGHTER_SAID, f"{ch} after {DAUGHTER_AFTER}, nothing nominal after it → {DAUGHTER_SAID}, \"a daughter\""
    if _a_sleep(text, matches, i):
        return "gaau3", f"{ch} near {', '.join(sorted(set(SLEEP_NEAR) & set(text)))} → gaau3, \"a sleep\", as in 瞓覺"
    if _counts_four(text, matches, i):
        return COUNTED_SAID, (f"{ch} of 四{ch} in a number or before what it counts → {COUNTED_SAID}, \"the measure "
                              "word\"")
    if _counts(text, matches, i):
        return MEASURE_SAID, f"{ch} before {text[i + 1]}, what it counts → {MEASURE_SAID}, \"the measure word\""
    if _an_envoy(text, matches, i):
        return ENVOY_SAID, (f"{ch} in 大{ch}, no word of degree before it → {ENVOY_SAID}, \"an envoy\" (not \"to "
                            "spend freely\")")
    if _an_official(text, matches, i):
        return ENVOY_SAID, f"{ch} closing an office's title ({text[max(0, i - 2):i + 1]}) → {ENVOY_SAID}, \"an envoy\""
    if _meets(text, matches, i):
        return MEET_SAID, (f"{ch} of {MEET} with no complement after it and no person before it → {MEET_SAID}, "
                           "\"to meet\"")
    if _a_meeting(text, matches, i):
        return MEETING_SAID, f"{ch} after {text[i - 2:i]} → {MEETING_SAID}, \"a meeting\", as in 開會"
    if _causes(text, matches, i):
        return CAUSE_SAID, f"{ch} before {text[i + 1]}, whom it makes do something → {CAUSE_SAID}, \"to cause\""
    if _over_the_years(text, matches, i):
        return OVER_SAID, f"{ch} after {text[i - 2:i]}, a count of years → {OVER_SAID}, \"over the years\""
    if after := _then(text, i):
        return THEN_SAID, f"{ch} after {after} → {THEN_SAID}, \"then\" (not \"don't\")"
    if where := _dont(text, matches, i, opens):
        return DONT_SAID, f"{ch} {where} → {DONT_SAID}, \"don't\""
    if asks and ch in ASKED and i == len(text) - 1 and i > 0:
        return ASKED[ch], (f"{ch} closing a question that no question word asks → {ASKED[ch]}, the particle of a "
                           "yes-or-no question")
    if urge := _urged(text, i):
        return URGED_SAID, (f"{ch} closing what {urge} opens, a command or a suggestion → {URGED_SAID}, the particle "
                            "that urges")
    if _counts_things(text, matches, i, opens):
        return COUNT_SAID, f"{ch} a verb, said twice or before {text[i + 1:i + 2]} → {COUNT_SAID}, \"to count\""
    if _weighs(text, matches, i):
        return WEIGHS_SAID, f"{ch} before a weight ({ch}八磅, {ch}三公斤) → {WEIGHS_SAID}, \"to weigh\""
    if _and_odd(text, matches, i):
        return ODD_SAID, f"{ch} between {text[i - 1]} and {text[i + 1]}, what it counts → {ODD_SAID}, \"-odd\""
    if _a_shop(text, matches, i):
        return SHOP_SAID, (f"{ch} where it keeps shop ({text[max(0, i - 1):i + 2]}) → {SHOP_SAID}, \"a shop\", "
                           f"{ch} written for {SHOP_WRITTEN}")
    if _takes_for(text, matches, i):
        return TAKE_FOR_SAID, (f"{ch} between {text[i - 1]} and {text[i + 1]} → {TAKE_FOR_SAID}, \"to take for\" "
                               "(你當我係咩)")
    if _takes_as(text, matches, i):
        return TAKE_FOR_SAID, (f"{ch} after {text[i - 1]}, with {TAKE_AS} after what it takes → {TAKE_FOR_SAID}, "
                               "\"to take as\" (都當佢係寶貝)")
    if stated := _read_after(text, matches, i):
        return stated.reading, f"{ch} after {text[i - 1]}, {stated.role} → {stated.reading}, \"{stated.sense}\""
    return None
