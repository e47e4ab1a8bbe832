"""Written Chinese (書面語) or spoken Cantonese: which register a sentence is written in, and the readings that
differ between them. HKCanCor transcribes conversation, so its lexicon and context rules read 來 as the 嚟 of
speech (出來 ceot1 lai4) and 使 as "to spend" (sai2); a sentence of written Chinese means 來 "to come", loi4, and
使 "to cause", si2, and a reader reading it aloud says the literary reading that ToJyutping gives."""

from __future__ import annotations

from dataclasses import dataclass

# The function words of written Chinese that spoken Cantonese says otherwise (的/嘅, 是/係, 了/咗, 這/呢, 們/哋,
# 說/講, 沒/冇, 很/好, 他/佢) and the ones of spoken Cantonese that written Chinese never uses.
WRITTEN_MARKERS = frozenset("的是了這們說沒很他她")
SPOKEN_MARKERS = frozenset("嘅係咗佢唔喺嚟冇哋啲噉嘢畀俾乜咩囉喎㗎啦嘞吖嗰睇嚹喇囖嘍咋噃啩嗱")
# Words that spoken Cantonese uses too, so their marker characters say nothing of the register (但是, 的士, 為了).
SHARED_WORDS = ("的士", "的確", "目的", "但是", "還是", "於是", "就是", "可是", "凡是", "總是", "只是", "是否",
                "為了", "除了", "算了", "罷了", "了解", "了不起", "老是", "正是", "即是", "要是", "若是", "真是",
                "或是", "是非", "其他", "他人", "是但", "尤其是", "說明", "傳說", "小說")
SENTENCE_ENDS = frozenset(("<.>", "<!>", "<?>"))  # the pauses that close a sentence (normalize's units)


@dataclass(frozen=True)
class Literary:
    """A character's spoken reading, which HKCanCor taught, and the literary one written Chinese takes."""

    spoken: str
    literary: str
    sense: str  # what the spoken reading says, which written Chinese writes otherwise


# Each spoken reading is one of two accepted, and ToJyutping gives the literary one (來 alone loi4, 使 alone si2,
# 刻 hak1, 年 nin4, 位 wai6, and the literary readings (文讀) of 爭 剩 儲 訂 核 聲); the lexicon's and the rules'
# come from HKCanCor's conversations.
LITERARY = {"來": Literary("lai4", "loi4", "嚟, \"to come\""),
            "使": Literary("sai2", "si2", "\"to spend\", \"to need\""),
            "刻": Literary("haak1", "hak1", "colloquial reading (即刻, 一刻)"),
            "年": Literary("nin2", "nin4", "changed tone (今年, 舊年)"),
            "位": Literary("wai2", "wai6", "changed tone (一位, 嗰位)"),
            "爭": Literary("zaang1", "zang1", "colloquial reading (\"to owe\", \"to quarrel\": 爭錢, 爭交)"),
            "剩": Literary("zing6", "sing6", "colloquial reading (剩低)"),
            "儲": Literary("cou5", "cyu5", "colloquial reading (\"to save up\": 儲錢)"),
            "訂": Literary("deng6", "ding3", "colloquial reading (\"to book\": 訂枱)"),
            "核": Literary("wat6", "hat6", "colloquial reading (\"a fruit's stone\": 果核)"),
            "聲": Literary("seng1", "sing1", "colloquial reading (大聲, 出聲)")}


def written_markers(text: str) -> list[str]:
    """The written Chinese function words in ``text``, outside the words speech shares with it."""
    for word in SHARED_WORDS:
        if word in text:
            text = text.replace(word, " ")
    return [ch for ch in text if ch in WRITTEN_MARKERS]


def is_written(text: str) -> bool:
    """Whether ``text`` (one sentence's Han characters) reads as written Chinese: one of its function words and not
    one word of spoken Cantonese (4 of HKCanCor's 14,455 utterances read so, and none of their readings changes)."""
    return not SPOKEN_MARKERS.intersection(text) and bool(written_markers(text))


def literary_reading(ch: str, said: str) -> Literary | None:
    """The literary reading ``ch`` takes in written Chinese where HKCanCor's lexicon or context rules would say it
    ``said``, the spoken way (出來 ceot1 lai4, 來 at a phrase's end lai4), or None. The caller asks only for those
    readings: ToJyutping's own words keep theirs (行使 hang4 sai2, 返來 faan1 lai4)."""
    literary = LITERARY.get(ch)
    return literary if literary is not None and said == literary.spoken else None
