"""The stated senses (runtime/senses.py), through the frontend that applies them: each reading a user relies
on, the sense it names in --explain, and the places where the dictionary's reading stays."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.frontend import Frontend, FrontendError
from cantoedge.runtime.jyutping import TONES, parse_syllable


@pytest.fixture(scope="module")
def frontend():
    return Frontend()


def assert_reads(frontend, text: str, char: str, reading: str, stated: str, sense: str, plain: str = "") -> None:
    """``char``'s first place in ``text`` reads ``reading``; where that is the stated sense's reading (``stated``),
    --explain names ``sense``, unless ``plain`` (a dictionary word that reads it so) is in the text."""
    r = frontend(text)
    i = r.graphemes.index(char)
    assert r.jyutping[i] == reading
    if reading == stated and not (plain and plain in text):
        assert r.sources[i] == "context" and f'"{sense}"' in r.why[i]


@pytest.mark.parametrize("text, reading", [
    ("check下先", "haa5"), ("google下", "haa5"), ("send下畀我", "haa5"), ("test下得唔得", "haa5"),
    ("book下個月", "haa6"), ("scroll下去", "haa6"),  # before a time or a direction: the dictionary's reading
    ("check下個email", "haa5"), ("send下個file畀我", "haa5"), ("plan下個學期", "haa6"), ("check下個", "haa6"),
])
def test_xia_after_an_english_verb_is_a_bit(frontend, text, reading):
    r = frontend(text)
    (i,) = [k for k, g in enumerate(r.graphemes) if g == "下"]
    assert r.jyutping[i] == reading
    assert (r.sources[i] == "context") == (reading == "haa5")


@pytest.mark.parametrize("text, reading", [
    ("呢張相好模糊", "soeng2"), ("幫我哋影張相吖", "soeng2"), ("一幅相", "soeng2"), ("嗰張相", "soeng2"),
    ("成日貼相出來呃like", "soeng2"), ("係我嘅自拍相", "soeng2"), ("點解你哋成疊相都好似夜晚", "soeng2"),
    ("望吓幅相對岸", "soeng2"), ("兩個人貼相近", "soeng1"),
    ("佢哋互相幫助", "soeng1"), ("相信我", "soeng1"),
    ("呢條友好貪錢", "jau2"), ("你班友做嘢", "jau2"), ("佢係我朋友", "jau5"), ("前女友", "jau5"),
    ("佢同年當選為中國國民黨主席", "wai4"), ("學校轉為全日制", "wai4"), ("將電話語言設置為香港粵語", "wai4"),
    ("呢本書命名為騙局", "wai4"), ("參加人數為歷年之冠", "wai4"), ("冥王星降格為矮行星", "wai4"),
    ("佢為咗你好", "wai6"), ("普選為咗啲仔女", "wai6"), ("個計劃為社區增加設施", "wai6"), ("因為我驚", "wai6"),
    ("佢哋認為", "wai4"), ("你喺邊間中學教書", "gaan1"), ("佢係一間中學嘅老師", "gaan1"), ("二十幾間開", "gaan1"),
    ("佢間中會嚟", "gaan3"), ("溫室氣體排放量", "loeng6"), ("全球載客量最高", "loeng6"), ("今晚雨量將會增加", "loeng6"),
    ("幫我量血壓", "loeng4"), ("用水量度", "loeng4"), ("同你商量", "loeng4")])
def test_a_word_after_the_one_that_gives_it_a_sense_reads_in_that_sense(frontend, text, reading):
    """ToJyutping reads 相 alone soeng1; after 張 or 幅 it is "a photo", soeng2, as 啲相 is; 友 after 條 or 班 is "a
    guy", jau2, as ToJyutping's 條友 is where 呢條 took the measure word; 為 after a verb of naming or becoming is
    "as", wai4, as in ToJyutping's 成為, but not before 咗 ("for") nor after 計劃; 間 after a number or a
    demonstrative is the measure word, gaan1, though ToJyutping's 間中 ("now and then") starts there."""
    r = frontend(text)
    ch = next(c for c in "相友為間量" if c in text)
    i = len(text) - 1 - text[::-1].index(ch)  # the last one: 因為我 has its 為 inside a word
    assert r.jyutping[i] == reading
    if reading in ("soeng2", "jau2", "gaan1", "loeng6") or (ch == "為" and reading == "wai4" and "認為" not in text):
        assert r.sources[i] == "context" and any(f'"{sense}"' in r.why[i] for sense in ("a photo", "a guy", "as",
                                                                                      "the measure word", "an amount"))


@pytest.mark.parametrize("text, reading", [
    ("唔該幫下手啦", "haa5"), ("我想跟你學下嘢", "haa5"), ("幫我查下得唔得", "haa5"), ("你估下咩事", "haa5"),
    ("應該享下兒孫福", "haa5"),
    ("攰就抖下啦", "haa5"), ("去飲下嘢", "haa5"), ("喐下啦", "haa5"), ("陪我過去影下相啦", "haa5"),
    ("等我整下老闆先", "haa5"), ("近排要去下深圳", "haa5"), ("上去下面", "haa6"),
    ("去飲下午茶", "haa6"), ("佢做下個月", "haa6"), ("學下一代", "haa6"), ("請檢查下列項目", "haa6"),
    ("我做下去", "haa6"), ("等我洗下巴", "haa6"), ("佢等下班", "haa6")])
def test_xia_after_a_verb_of_everyday_doing_is_a_bit(frontend, text, reading):
    """下 after 幫, 學, 查, 估, 抖, 飲, 影, 整 … is "a bit", haa5, as HKCanCor reads it after the verbs it holds often
    (睇下, 試下); before a time, a direction or a word 下 begins as "down" (下午, 下個月, 下一代, 下列, 下去, 下巴) the
    dictionary's haa6 stays."""
    assert_reads(frontend, text, "下", reading, "haa5", "a bit")


@pytest.mark.parametrize("text, reading", [
    ("你當我係咩", "dong3"), ("佢當你係隻棋子", "dong3"), ("我當佢係路人㗎咋", "dong3"), ("人哋當你係兵", "dong3"),
    ("當你發現", "dong1"), ("佢當時唔喺度", "dong1"), ("佢當我面撕咗封信", "dong1"), ("今日我當夜更", "dong1")])
def test_dang_between_two_persons_is_to_take_for(frontend, text, reading):
    """當 between two persons is "to take for", dong3, as ToJyutping's own 當我冇到 reads it; alone it is dong1,
    "when", "to serve as", which stays at a phrase's start, before a time and in 當我面, "in front of me"."""
    assert_reads(frontend, text, "當", reading, "dong3", "to take for")


@pytest.mark.parametrize("text, reading", [
    ("佢而家開緊會", "wui2"), ("等你開完會先去接個仔", "wui2"), ("我而家去開個會先", "wui2"), ("我哋開咩會呀", "wui2"),
    ("開親會都要半日", "wui2"), ("下個月開始會停止運作", "wui5"), ("道門開咗會自動閂", "wui5")])
def test_hui_after_kai_and_its_aspect_is_a_meeting(frontend, text, reading):
    """會 after 開 and its aspect, a measure word or a question word is "a meeting", wui2, as in 開會; after 開始 or
    開咗, which the modal follows too, it stays wui5."""
    assert_reads(frontend, text, "會", reading, "wui2", "a meeting")


@pytest.mark.parametrize("text, reading", [
    ("成家都當佢係寶貝", "dong3"), ("你唔好當自己係老細", "dong3"), ("佢哋只係當香港係暫居之所", "dong3"),
    ("好似當我係朋友噉", "dong3"), ("佢就當我係衰人", "dong3"),
    ("但當人哋話我係手指畫家", "dong1"), ("但係當啲人係都要", "dong1"), ("我當時係咁諗", "dong1"),
    ("就係當佢如果係選中", "dong1")])
def test_dang_after_a_person_or_an_adverb_with_hai_after_is_to_take_as(frontend, text, reading):
    """當 after a person or a word that leads a verb (都, 唔好, 只係, 好似, 就), with 係 after what it takes, is "to
    take as", dong3; after 但 or 但係, or where it begins 當時, it stays dong1, "when"."""
    assert_reads(frontend, text, "當", reading, "dong3", "to take as")


@pytest.mark.parametrize("text, reading", [
    ("我坐巴士返工", "co5"), ("佢坐咗喺前面", "co5"), ("呢度冇位坐", "co5"), ("唔夠埞坐咁多人", "co5"),
    ("佢以前坐過幾年監", "co5"), ("坐低", "co5"),  # ToJyutping's own word 坐低 reads it so
    ("棟大廈坐落喺尖沙咀", "zo6"), ("佢哋靜坐抗議", "zo6"),  # plain words of rime-cantonese: its literary reading
    ("睇下個坐標", "zo6"), ("冇坐位", "zo6"), ("天后廟坐北向南", "zo6")])  # 座 written 坐, and "facing"
def test_zuo_alone_is_to_sit(frontend, text, reading):
    """坐 read alone is "to sit", "to ride", co5, as rime-cantonese and ToJyutping's own words (坐低, 坐車) read it,
    where ToJyutping reads it alone zo6, the literary reading, which stays in rime's 坐落 and 靜坐, in 坐標 and 坐位
    (座, "a seat", written 坐) and in 坐北 ("facing north")."""
    assert_reads(frontend, text, "坐", reading, "co5", "to sit, to ride", plain="坐低")
    if reading == "zo6" and "坐落" in text:
        assert "inside the plain word 坐落" in frontend(text).why[text.index("坐")]


@pytest.mark.parametrize("text", ["佢隻手畀滾水焫親", "啲湯好焫", "我俾煙頭焫傷隻手", "焫咗佢", "焫雞"])
def test_naat_alone_is_to_scald(frontend, text):
    """焫 read alone is "to scald", naat3, as rime-cantonese and ToJyutping's own words (焫雞) read it, where
    ToJyutping reads it alone jyut3, which none of their Cantonese words keep."""
    assert_reads(frontend, text, "焫", "naat3", "naat3", "to scald, to burn", plain="焫雞")


@pytest.mark.parametrize("text, reading", [
    ("畀針拮親手指", "gat1"), ("件冷衫好拮肉", "gat1"), ("嗰賊拮咗佢兩刀", "gat1"), ("要支竹籤拮魚蛋", "gat1"),
    ("經費拮据", "git3"), ("佢生活拮據", "git3")])
def test_gat_alone_is_to_prick(frontend, text, reading):
    """拮 read alone is "to prick", gat1, as rime-cantonese reads it alone and in its words; ToJyutping's 拮据
    ("hard up"), and 拮據 as text also writes it, keep git3."""
    assert_reads(frontend, text, "拮", reading, "gat1", "to prick, to stab")


@pytest.mark.parametrize("text, reading", [
    ("佢每朝都喺公園練功", "ziu1"), ("佢成朝坐咗喺度", "ziu1"), ("嗰朝落大雨", "ziu1"), ("琴朝", "ziu1"),
    ("巴士由朝到晚都滿座", "ziu1"), ("今朝好凍", "ziu1"), ("清朝末年", "ciu4"), ("每朝代都有", "ciu4"),
    ("由朝廷決定", "ciu4"), ("坐北朝南", "ciu4")])
def test_zhao_after_every_whole_or_that_is_a_morning(frontend, text, reading):
    """朝 after 每, 成, 嗰, 琴 or 由 is "a morning", ziu1, as ToJyutping's own 今朝 and 聽朝 read it; alone it reads
    ciu4, "a dynasty", which stays before 代, 廷 and the like."""
    assert_reads(frontend, text, "朝", reading, "ziu1", "a morning", plain="今朝")


@pytest.mark.parametrize("text, readings", [
    ("這種植物", "zung2"), ("各種植物都有", "zung2"), ("一種花", "zung2"), ("兩種樹真係互相倚靠", "zung2"),
    ("呢一種過程", "zung2"), ("一種米養百種人", "zung2 zung2"), ("佢喺花園種植咗幾十種花", "zung3 zung2"),
    ("你想要邊種？", "zung2"), ("呢種花", "zung2"),  # ToJyutping's own word 呢種
    ("單一種植", "zung3"), ("應該種花", "zung3"), ("兩邊種咗啲樹", "zung3"), ("我哋要多種樹", "zung3"),
    ("一個種植園", "zung3"), ("如何種花", "zung3"), ("我種咗三種樹", "zung3 zung2"),
    ("自己種嘢食", "zung3"), ("一齊嚟種嘢", "zung3"), ("嗰種嘢我唔鍾意", "zung2"), ("咩種嘢", "zung2"),
    ("重新種返啲樹", "zung3"), ("騎樓種滿晒花", "zung3")])
def test_zhong_after_a_number_or_a_demonstrative_is_a_kind(frontend, text, readings):
    """種 after a number or a demonstrative is the measure word, zung2, though ToJyutping's words of the verb (種植,
    種花, 種樹, 種過: zung3) start there; after words that end on such a character without counting (單一, 應該,
    兩邊) and after 多, 個 or 何 the verb keeps its reading."""
    r = frontend(text)
    places = [k for k, g in enumerate(r.graphemes) if g == "種"]
    assert [r.jyutping[k] for k in places] == readings.split()
    for k in places:
        if r.jyutping[k] == "zung2" and r.graphemes[k - 1] not in "呢咩":
            assert r.sources[k] == "context" and '"a kind"' in r.why[k]
        if r.graphemes[k + 1:k + 2] in (["嘢"], ["返"], ["滿"], ["晒"]) and r.jyutping[k] == "zung3":
            assert r.sources[k] == "context" and '"to grow"' in r.why[k]


@pytest.mark.parametrize("text, reading", [
    ("佢而家瞓著覺", "gaau3"), ("擔心到瞓唔着覺", "gaau3"), ("嘈到我冇覺好瞓", "gaau3"), ("媽咪瞓緊覺", "gaau3"),
    ("睡午覺", "gaau3"), ("瞓個靚覺", "gaau3"), ("我開心到連覺都瞓唔着", "gaau3"),
    ("我覺得瞓唔着", "gok3"), ("瞓唔着嘅感覺", "gok3"), ("我發覺", "gok3"), ("唔覺意", "gok3")])
def test_a_sleep_reads_gaau3_and_a_feeling_gok3(frontend, text, reading):
    """ToJyutping reads 覺 alone gok3, "to feel"; near 瞓 or 睡 it is "a sleep", gaau3, as its own 瞓覺 is."""
    assert_reads(frontend, text, "覺", reading, "gaau3", "a sleep")


@pytest.mark.parametrize("text, reading", [
    ("就好似迷你裙咁。", "gam2"), ("事實就係咁", "gam2"), ("因為咁，佢走咗", "gam2"), ("點解佢喊成咁？", "gam2"),
    ("咁，我哋走啦", "gam2"), ("唔係咁平", "gam3"), ("佢咁靚", "gam3"), ("你咁cute", "gam3"), ("我平時冇咁", "gam3"),
    ("網路就係咁㗎啦", "gam2"), ("點解會咁呢", "gam2"), ("好似好恐怖咁喎", "gam2")])
def test_like_that_closing_a_phrase_reads_gam2_and_so_before_a_word_gam3(frontend, text, reading):
    """咁 closing a phrase is "like that", gam2; before a word it is "so", gam3, as ToJyutping reads it alone; after
    冇 at an end it is speech cut short (冇咁-), gam3 as HKCanCor reads it."""
    r = frontend(text)
    i = r.graphemes.index("咁")
    assert r.jyutping[i] == reading
    if reading == "gam2":
        assert r.sources[i] == "context" and '"like that"' in r.why[i]


@pytest.mark.parametrize("text, char, reading", [
    ("差唔多搞掂哂", "哂", "saai3"), ("冇哂精英部隊", "哂", "saai3"), ("佢微哂", "哂", "can2"),
    ("見識到你既威力", "既", "ge3"), ("都係可以再食既", "既", "ge3"), ("係咁既話就唔會", "既", "ge3"),
    ("既然你係", "既", "gei3"), ("我既然應承過", "既", "gei3"), ("呢間屋既寬敞，又實用", "既", "gei3"),
    ("一言既出", "既", "gei3"), ("發揮香港既有優勢", "既", "gei3"),
    ("不如陪我行吓山啦", "吓", "haa5"), ("你慢慢諗吓先", "吓", "haa5"), ("吓你講緊咩", "吓", "haa2"),
    ("好驚啊吓", "吓", "haa2"), ("水喉啲水fet哂出嚟", "哂", "saai3"),
    ("佢變得甘極端", "甘", "gam3"), ("幸福就係黎得甘突然", "甘", "gam3"), ("我哋都甘做", "甘", "gam3"),
    ("佢唔甘心", "甘", "gam1"), ("杯茶好甘甜", "甘", "gam1"), ("佢眼甘甘望住粒鑽石", "甘", "gam1"),
    ("呢鑊真係好甘", "甘", "gam1"), ("楊枝甘露", "甘", "gam1"),
    ("我噶朋友", "噶", "ge3"), ("用緊錯誤噶方式", "噶", "ge3"), ("由噶廈管理", "噶", "gaa1"), ("準噶爾", "噶", "gaa1"),
    ("我去佐剛果", "佐", "zo2"), ("佢變成佐一份樂譜", "佐", "zo2"), ("阿佐治古尼", "佐", "zo3"), ("輔佐", "佐", "zo3"),
    ("佐證", "佐", "zo3"), ("我一直系度努力", "系", "hai2"), ("太陽系邊度有水", "系", "hai6"),
    ("你講得好岩", "岩", "ngaam1"), ("應該噉先岩㗎嘛", "岩", "ngaam1"), ("佢啲頭髮岩岩巉巉", "岩", "ngaam4"),
    ("都岩岩巉巉", "岩", "ngaam4"), ("滿佈岩石", "岩", "ngaam4"), ("好岩巉", "岩", "ngaam4")])
def test_what_informal_writing_puts_for_晒_and_嘅_reads_as_them(frontend, text, char, reading):
    """哂 for 晒 (saai3), 既 and 噶 for 嘅 (ge3), 吓 for 下 (haa5), 甘 for 咁 (gam3) before a word of degree or a verb
    佐 for 咗 (zo2), 系 for 喺 before 度 (hai2) and 岩 for 啱 (ngaam1), as Hong Kong's informal writing uses them
    (噶廈, 準噶爾, 佐治, 輔佐, 太陽系 and 岩石 keep ToJyutping's);
    既然, 既有, 一言既出 and 既 … 又 keep ToJyutping's gei3, 微哂 its can2, 吓 opening a reply or after a particle its
    haa2, "huh?", and 甘 "sweet" its gam1 (甘心, 眼甘甘, 好甘)."""
    r = frontend(text)
    i = r.graphemes.index(char)
    if char == "甘" and text.startswith("佢眼甘甘"):
        i += 1  # the second 甘, before 望
    assert r.jyutping[i] == reading
    if reading in ("saai3", "ge3", "haa5", "gam3", "zo2", "ngaam1") or (char == "系" and reading == "hai2"):
        assert r.sources[i] == "context" and "written for" in r.why[i]


@pytest.mark.parametrize("text, reading", [
    ("呢首歌嘅調好難唱", "ni1"), ("呢單嘢好奇怪", "ni1"), ("呢位先生係邊個", "ni1"), ("佢呢期好忙", "ni1"),
    ("呢個人", "ni1"),  # ToJyutping's own word
    ("點樣幫其他人理解呢些信息", "ni1"),
    # the particle: before a verb or adverb these characters begin, at the end, before what is no measure word
    ("唔開始呢首先呢就", "ne1"), ("佢呢單係想食", "ne1"), ("注意力呢集中唔到", "ne1"), ("你去唔去呢", "ne1"),
    ("我呢好鍾意", "ne1"),
])
def test_ni_before_a_measure_word_is_this(frontend, text, reading):
    """ToJyutping reads 呢 alone as the particle, ne1, and joins it to some measure words only (呢個 ni1), so 呢首歌
    read ne1; HKCanCor writes the demonstrative 哩, so nothing learnt from it could say so."""
    r = frontend(text)
    assert r.jyutping[r.graphemes.index("呢")] == reading


@pytest.mark.parametrize("text, reading", [
    ("呢幾日天氣好涼爽", "ni1"), ("呢兩個字我想知好耐", "ni1"), ("呢一刻", "ni1"), ("呢球波好靚", "ni1"),
    ("呢鑊真係好甘", "ni1"), ("呢就係我哋嘅答案", "ni1"), ("算數，呢鑊我骾咗佢", "ni1"),  # after a pause too
    ("佢踩咗界 呢球界外球", "ni1"),
    # the particle: after what it marks, after Latin letters, after a silent quote mark; alone: "here you are"
    ("第二part呢就係第二日", "ne1"), ("同佢Hi呢佢又冇反應", "ne1"),
    ("《字頭八九十》呢就最後一集", "ne1"), ("呢，俾你", "ne1"), ("呢", "ne1"), ("你呢？", "ne1"),
    ("呢度好靚", "nei1"), ("呢個係我嘅", "ni1"),  # ToJyutping's own words stand
    # after a preposition that needs its object; not after a word ending in one's character
    ("喺呢一刻我哋", "ni1"), ("我想將呢兩間房打通", "ni1"), ("我哋對呢一單案件", "ni1"), ("從呢幾個行星", "ni1"),
    ("噉由於呢我哋今日", "ne1"), ("玩音響呢就追求", "ne1"), ("佢喺呢", "ne1"),
    # right before a count, wherever it stands; not before an adverb 一 begins, a doubled measure word or a time
    ("我呢兩日好忙", "ni1"), ("佢哋都具備呢四種原因", "ni1"), ("你比較下呢兩部相機", "ni1"),
    ("唔爭在呢十蚊八蚊啦", "ni1"), ("佢製作呢一定冇人哋咁好", "ne1"), ("講嘢呢一嚿嚿", "ne1"), ("溫到呢五點幾", "ne1"),
    ("佢話我訂今日呢六號", "ne1"),
])
def test_ni_opening_a_phrase_or_after_a_preposition_is_this(frontend, text, reading):
    """The particle 呢 follows what it marks, so a 呢 that opens a phrase with more of it after is "this" (呢幾日,
    呢球波), and so is one right after a preposition that needs its object (喺呢一刻), where ToJyutping reads 呢
    alone ne1."""
    r = frontend(text)
    i = r.graphemes.index("呢")
    assert r.jyutping[i] == reading
    assert ('"this": no particle stands there' in r.why[i]) == (reading == "ni1" and r.sources[i] == "context")


def test_ni_opening_a_phrase_is_read_the_same_by_read_han_and_by_the_whole_frontend(frontend):
    """A bare Han text opens a phrase, as g2p-eval reads one; one after Latin letters does not."""
    assert frontend.read_han("呢幾日")[0] == ("呢", "ni1") and frontend("呢幾日").jyutping[0] == "ni1"
    assert frontend.explain_han("呢幾日", after_letters=True)[0][1] == "ne1"
    assert frontend.explain_han("好呢幾日", after_pause=frozenset({1}))[1][1] == "ni1"  # after a pause read across


@pytest.mark.parametrize("text, index, reading", [
    ("有隻嘢喺度爬下爬下", 6, "haa5"), ("有隻嘢喺度爬下爬下", 8, "haa5"), ("總之我用用下就用唔到", 5, "haa5"),
    ("佢游游下水", 3, "haa5"), ("我哋傾吓傾吓過咗三個鐘", 3, "haa5"), ("我哋傾吓傾吓過咗三個鐘", 5, "haa5"),
    ("奶奶下個月生日", 2, "haa6"), ("屋企日日下晝都好曬", 4, "haa6"), ("今日行行下山", 2, "haang4"),
    ("今日行行下山", 3, "haang4"), ("佢行行吓跌落個窿", 2, "haang4")])
def test_xia_after_a_verb_said_twice_is_for_a_while(frontend, text, index, reading):
    """下 after a doubled verb (用用下) or with a verb said twice (爬下爬下, 傾吓傾吓) is haa5, as HKCanCor reads all
    its such places; a 下 that starts a time (下個月, 下晝) keeps haa6; and the 行 doubled before it is "to walk",
    haang4, where ToJyutping's word 行行 is hong4 hong4."""
    r = frontend(text)
    assert r.graphemes[index] in "下吓行" and r.jyutping[index] == reading
    if reading in ("haa5", "haang4"):
        assert r.sources[index] == "context" and ("for a while" in r.why[index] or "to walk" in r.why[index])


@pytest.mark.parametrize("text, char, reading, sense", [
    # 度 closing a count (a numeral, then its measure word or unit) is "about"; after a bare numeral a degree
    ("一日飲七杯度喇", "度", "dou2", "about"), ("應該四百蚊度", "度", "dou2", "about"),
    ("佢應該100蚊度", "度", "dou2", "about"), ("我諗都係十個度喇", "度", "dou2", "about"),
    ("今日三十度", "度", "dou6", None), ("你兩個度吓邊個高", "度", "dou6", None), ("佢哋一齊度過", "度", "dou6", None),
    # ... and after a stretch of time counted with 個; a place counted so is where
    ("一個月度就番嚟", "度", "dou2", "about"), ("佢讀咗兩個禮拜度啫", "度", "dou2", "about"),
    ("放喺一個大罐度", "度", "dou6", None), ("佢喺一個城市度做嘢", "度", "dou6", None),
    # 假 taken as time off (after 放 or 請, a count of days, before 放) is "a holiday"; elsewhere "fake"
    ("佢放咗假去曼谷", "假", "gaa3", "a holiday"), ("我同老細請咗假先", "假", "gaa3", "a holiday"),
    ("告三日假", "假", "gaa3", "a holiday"), ("事頭婆生日有假放㗎", "假", "gaa3", "a holiday"),
    ("呢間舖專賣假貨", "假", "gaa2", None), ("你唔好講假呃我", "假", "gaa2", None),
    ("佢放咗假消息", "假", "gaa2", None),
    # 相 a few characters after the verb 影 is "a photo"; after the 影 of 背影 or 影響, or starting 相似, ToJyutping's
    *[(text, "相", "soeng2", "a photo") for text in ("佢影親相張張都靚", "等佢哋影完相之後", "影風景相要深景深",
                                                     "貴嘅器材影嘅相越靚")],
    *[(text, "相", "soeng1", None) for text in ("同個背影好相似", "佢個影子相當長", "影響相當大")],
    # 重 before a verb of written text is "again", after a count "-fold", before a weight "to weigh"; HKCanCor's
    # "still" (仲) elsewhere, and before 來 with an aspect after it (重來咗: 仲嚟咗)
    *[(text, "重", "cung4", "again") for text in ("佢重獲自由", "鼓勵更多人重回職場", "如果人生重來",
                                                  "藝術可以重塑一個人")],
    *[(text, "重", "cung4", "-fold, layers") for text in ("日本三重縣", "多重器官衰竭", "冰火兩重天")],
    *[(text, "重", "cung5", "to weigh") for text in ("個BB重8磅", "佢生咗重三點八公斤", "各重一百五十公斤")],
    *[(text, "重", "zung6", None) for text in ("佢重未走", "佢重來咗添", "佢重一齊去", "我重三點先走", "重八",
                                               "佢重8公")],  # no unit after the number: not a weight
    ("兩個差唔多重", "重", "cung5", None),  # "about as heavy": ToJyutping's own reading, after 多
    # 咪 after 千祈 or 最好, or at a command before a verb of mischief or 咁, is "don't"; after 支 "a microphone";
    # after 噉 ("then") HKCanCor's mai6 stays, before these verbs too
    *[(text, "咪", "mai5", "don't") for text in ("千祈咪走寶啦", "你最好咪問佢", "咪亂咁噏嘢", "你咪扮嘢",
                                                 "你咪咁八卦啦")],
    *[(text, "咪", "mai1", "a microphone") for text in ("試下拎開啲支咪講嘢吖", "嘩真係差支咪俾佢唱歌")],
    *[(text, "咪", "mai6", None) for text in ("噉咪理囉", "噉樣咪亂咁來囖", "噉咪好囉")],
    # opening a phrase before any verb, "don't"; before the words "then" opens, or where 囖 closes it, "then"
    *[(text, "咪", "mai5", "don't") for text in ("咪講住啦", "唔好意思，咪當我儍仔", "咪喐手")],
    *[(text, "咪", "mai6", None) for text in ("咪係囖", "咪又係納税人嘅錢", "咪乾手淨腳囉", "咪變咗做停車場")],
    # 返 before 回, 還 or 程, the written words of returning, is faan2; the 返 of speech, and 攞返, keep faan1
    *[(text, "返", "faan2", "to return (written)") for text in ("佢表示不會返回中國", "議員返回座位",
                                                                "借問聲返程機票喺邊度訂")],
    *[(text, "返", "faan1", None) for text in ("我返屋企先", "努力攞返回報", "佢返咗嚟")],
    # 數 said twice or with an aspect after a person is the verb "to count"; after a noun, "a number"
    *[(text, "數", "sou2", "to count") for text in ("喂數一數呢", "我數到一千", "你數下一共仲有幾多", "嗱數埋數埋")],
    *[(text, "數", "sou3", None) for text in ("病例數下降", "啲數唔啱", "佢好叻數")],
    # 着 or 著 with clothes within three characters after it is "to wear"; elsewhere ToJyutping's zoek6
    ("你著呢件衫", "著", "zoek3", "to wear"), ("我中意着船襪", "着", "zoek3", "to wear"),
    ("要去游水快啲着泳褲", "着", "zoek3", "to wear"), ("佢瞓着", "着", "zoek6", None),
    ("隨著時間推移", "著", "zoek6", None),
    # 成 before a night, a morning or the body is "whole"; where it completes a verb, or a word starts after it, sing4
    ("佢成晚冇瞓", "成", "seng4", "whole"), ("我成朝都冇做過", "成", "seng4", "whole"),
    ("打完波成身汗", "成", "seng4", "whole"), ("搞到我成身都係汗", "成", "seng4", "whole"),
    ("個字會變成身體某個部分", "成", "sing4", None), ("佢哋完成晚餐", "成", "sing4", None),
    ("功成身退", "成", "sing4", None), ("成日都係噉", "成", "seng4", None),
    # 上 before a vehicle or the toilet is "to board", "to go up to"; "on" after a place, "previous" elsewhere
    *[(text, "上", "soeng5", "to board, to go up to") for text in ("我哋三點鐘上機", "唔畀帶刀上飛機", "今朝我臨上小巴",
                                                                  "我去上廁所")],
    # … and before 唔 and a complement (上唔到, 上唔切): the verb; "on" before a modal or a verb (實際上唔係)
    *[(text, "上", "soeng5", "to board, to go up to") for text in ("咁高我上唔到去", "有時上唔到網", "上唔切巴士",
                                                                  "呢座山咁斜上唔上到去")],
    ("實際上唔係佢", "上", "soeng6", None), ("呢個世上唔會再有好人", "上", "soeng6", None),
    ("海上巴士", "上", "soeng6", None), ("爭取上機會", "上", "soeng6", None), ("上次", "上", "soeng6", None),
    # … and before an English name, opening its phrase or after a person, a modal or a verb of putting: "to go onto"
    *[(text, "上", "soeng5", "to go onto") for text in ("上Netflix追劇", "唔使上video喇", "頭先我上YouTube睇",
                                                        "放上YouTube之後", "冇機會升返上D1")],
    ("基本上DE班", "上", "soeng6", None), ("枱上iPad", "上", "soeng6", None), ("馬上call我", "上", "soeng6", None),
    ("上次Netflix", "上", "soeng6", None),
    # 中 in 耐唔中 ("now and then") and 唔中用 ("useless") is zung1; ToJyutping's 唔中 ("misses") elsewhere
    ("我耐唔中都會飲吓酒", "中", "zung1", "now and then"), ("呢個人好唔中用", "中", "zung1", "now and then"),
    ("佢次次都買唔中", "中", "zung3", None),
    # 咪 after a person that 噉, 咁 or 就 opens is "then", even inside rime's 咪話 ("don't say")
    ("噉我咪話", "咪", "mai6", "then"), ("噉你咪自己扣", "咪", "mai6", "then"),
    ("咁你哋咪出去囉", "咪", "mai6", "then"), ("你咪亂咁講", "咪", "mai5", None),
    # 哋 after a word said twice is "-ish"; after a person, the plural; 地 after a doubled word is written Chinese's
    *[(text, "哋", "dei2", "-ish") for text in ("乖乖哋坐好", "五百蚊都驚驚哋唔夠", "可以靜靜哋諗嘢",
                                               "佢都戇戇哋嘅")],
    # 分 between a numeral and 之 before a number is a fraction's part; "very" in 十分之 before anything else
    *[(text, "分", "fan6", "a part") for text in ("三分之一嘅人", "降到原來嘅十分之一", "百萬分之一嘅機會",
                                                "四又三分之二")],
    *[(text, "分", "fan1", None) for text in ("十分之好", "佢十分之一般", "一分之差輸咗", "三分鐘", "萬分感激")],
    ("我哋去", "哋", "dei6", None), ("佢佢哋", "哋", "dei6", None), ("默默地耕耘", "地", "dei6", None),
    # 女 after 個 with nothing nominal after it is "a daughter"; before a noun (女人, 女同事) "female"
    ("呢條女好好波", "女", "neoi2", "a girl"), ("我條女話我攪大咗", "女", "neoi2", "a girl"),
    ("今日我見到條女", "女", "neoi2", "a girl"), ("佢係一個女人", "女", "neoi5", None),
    ("我個女住喺土瓜灣", "女", "neoi2", "a daughter"), ("佢個女好得意", "女", "neoi2", "a daughter"),
    ("佢係你個女", "女", "neoi2", "a daughter"), ("我有兩個女", "女", "neoi2", "a daughter"),
    ("嗰個女同事呢", "女", "neoi5", None), ("三個女人一個墟", "女", "neoi5", None), ("一個女性", "女", "neoi5", None),
    # 近 after a word of degree, or before 啲, is "near"; "recent" or "close to" elsewhere
    ("唔好擺咁近張床", "近", "kan5", "near"), ("住得太近學校", "近", "kan5", "near"),
    ("坐近啲啦", "近", "kan5", "nearer"), ("最近啲業主都", "近", "gan6", None), ("好似近聖誕", "近", "gan6", None),
    # 處 after a word of place is "a place"; the verb elsewhere (處理, 身處)
    ("有啲不足之處", "處", "cyu3", "a place"), ("從高處墮下", "處", "cyu3", "a place"),
    ("處處設限", "處", "cyu3", "everywhere"), ("佢身處高位", "處", "cyu5", None), ("一處理就好", "處", "cyu5", None),
    ("呢個方法嘅唔好處", "處", "cyu3", "a place"), ("唔好處理住", "處", "cyu5", None),  # 好處 split by 唔好
    ("香港警務處發言人", "處", "cyu3", "a place"), ("好多人去勞工處投訴", "處", "cyu3", "a place"),
    ("大地震十六處古代建築受損", "處", "cyu3", "a place"), ("係我哋嘅接待處", "處", "cyu3", "a place"),
    ("在蔭涼處休息", "處", "cyu3", "a place"), ("忍心破女朋友處", "處", "cyu5", None),
    ("請問售票處喺邊度", "處", "cyu3", "a place"), ("因尋釁滋事處以行政拘留", "處", "cyu5", None),
    ("員工處於壓力之下", "處", "cyu5", None),
    # 邊 after 後 or 下 is "a side"; "which" before what it asks about
    ("坐喺佢後邊", "邊", "bin6", "a side"), ("匿埋喺舊石下邊", "邊", "bin6", "a side"),
    ("睇下邊個痛", "邊", "bin1", None), ("問下邊到賣", "邊", "bin1", None),
    # 仗 after a fight's verb, its outcome or a count is "a battle"; 陣仗, 儀仗 and 仗義 keep zoeng6
    *[(text, "仗", "zoeng3", "a battle") for text in ("我哋會贏呢場仗嘅", "打完仗之後", "自己係個打緊仗嘅士兵",
                                                      "打勝仗")],
    *[(text, "仗", "zoeng6", None) for text in ("使乜咁大陣仗吖", "三軍儀仗隊", "行俠仗義")],
    # 正 after a word of degree is "great"; where it begins 正常 or 正宗 it keeps zing3
    ("冬天最正就係食蛇羹", "正", "zeng3", "great"), ("實在太正", "正", "zeng3", "great"),
    ("對白係最正宗嘅", "正", "zing3", None), ("好正常", "正", "zing3", None),
    # 位 after 冇, 有, 夠, 爭 … is room or a seat (or, after 有, a person), as speech says it; the written 位置 stays
    *[(text, "位", "wai2", "room, a seat, or a person") for text in ("搭地鐵冇位坐", "唔夠位喇", "有位先生話我知")],
    ("佢嘅地位", "位", "wai6", None), ("有位置", "位", "wai6", None),
    # 份 closing 有份 or 兩份 before what it counts is the measure word; "a share", "two portions" elsewhere
    ("我有份工", "份", "fan6", "the measure word"), ("佢打兩份兼職", "份", "fan6", "the measure word"),
    ("人人有份", "份", "fan2", None), ("佢有份參與", "份", "fan2", None), ("兩份食", "份", "fan2", None),
    # 條 of 四條 in a number or before what it counts is the measure word; ToJyutping's "four of a kind" elsewhere
    ("小提琴有四條弦", "條", "tiu4", "the measure word"), ("議事規則第四條", "條", "tiu4", "the measure word"),
    ("冇料扮四條", "條", "tiu2", None), ("會考我攞到四條尾", "條", "tiu2", None),
    # 使 in 大使 is "an envoy", and in 大使館; after a word of degree ToJyutping's "to spend freely" stays
    ("中國駐英國大使", "使", "si3", "an envoy"), ("美國駐香港大使館", "使", "si3", "an envoy"),
    ("佢好大使", "使", "sai2", None), ("唔好咁大使啦", "使", "sai2", None), ("佢成日大嘥大使", "使", "sai2", None),
    ("佢大使大食", "使", "sai2", None),
    # ... and closing an office's title (公使, 節度使, 副使); after the 公 of 老公 it is "to spend"
    *[(text, "使", "si3", "an envoy") for text in ("同法國駐華公使會面", "成德節度使王庭湊", "出任湖南按察使")],
    ("我老公使錢好疏爽", "使", "sai2", None), ("唔使咁客氣", "使", "sai2", None),
    ("供公使用", "使", "si2", None),
    # 畫 after 幅 or 張 is "a picture" where ToJyutping's 呢幅 or 呢張 took the measure word; before 咗 the verb
    ("你睇呢幅畫幾好睇", "畫", "waa2", "a picture"), ("呢張畫係我媽媽嘅", "畫", "waa2", "a picture"),
    ("呢張畫咗公仔嘅紙", "畫", "waak6", None),
    # the second character of ToJyutping's 畫面 and 山頂 where another of its words took the first
    ("批評嘅畫面出現", "面", "min2", "a scene"),
    ("香港島太平山頂", "頂", "deng2", "the top"), ("樣樣都好", "樣", "joeng6", None),
    ("計畫面對挑戰", "面", "min6", None),
    # 房 after 間 is "a room"; the 房 of housing keeps fong4. 位 after 個 is "a seat", "a spot"; 位置 keeps wai6
    ("呢間房好焗", "房", "fong2", "a room"), ("呢間房屋", "房", "fong4", None),
    ("請問呢個位有冇人坐", "位", "wai2", "room, a seat, or a person"), ("呢個位置", "位", "wai6", None),
    # 果 before a measure word, a place or a time is 嗰 "that" as informal text writes it; in 如果 and 蘋果 it stays
    *[(text, "果", "go2", "that") for text in ("果個人搬咗屋", "我決定去果度", "細個果陣我好鍾意", "我再攞果啲碎片")],
    *[(text, "果", "gwo2", None) for text in ("如果個個都揸車", "蘋果日報", "結果啲車喺度", "啲生果邊個攞嚟",
                                              "後果時刻折磨住佢", "果汁")],
    # 使 before a person who then does or feels something is "to cause"; after a word of needing, or before an amount
    # or 做 ("to order about"), HKCanCor's sai2 stays
    *[(text, "使", "si2", "to cause") for text in ("呢本書使佢困惑", "雖說可以使人歡欣", "因為佢使我哋有個屋企",
                                                   "佢可能使你諗起一種智慧")],
    *[(text, "使", "sai2", None) for text in ("仲使我講", "你仲使人幫手咩", "慳住使我哋屋企又冇乜",
                                              "唔好意思使你咁多錢", "有乜資格使我哋做嘢", "自己嘟手唔好使人", "使錢")],
    # 會 of 會見 with nothing after 見 that completes it and no person or adverb before it is "to meet"; "will see"
    # keeps the modal
    *[(text, "會", "wui6", "to meet") for text in ("特首會見國家主席", "佢哋喺白宮會見總統", "唔俾會見律師")],
    *[(text, "會", "wui5", None) for text in ("你會見到佢", "我哋都會見返你", "你會見周圍都係人")],
    # 率 before the people it leads is "to lead"; closing a rate's word, or before a numeral, "a rate"
    *[(text, "率", "seot1", "to lead") for text in ("佢上任後首次率團訪港", "喺七月二十號率會眾十萬")],
    *[(text, "率", "leot2", None) for text in ("出生率團體", "提高效率部門", "失業率三點五")],
    # 來 after a count of years is "over the years"; "to come" before 計 or a final particle
    *[(text, "來", "loi4", "over the years") for text in ("佢五年來多次自殺", "近年來越來越多人",
                                                          "放棄三十年來嘅模式")],
    ("以九八年來計", "來", "lai4", None), ("嗰時係新年來㗎", "來", "lai4", None),
    # 零 between a round number or 個 and what it counts is "-odd"; before a numeral it is "zero"
    *[(text, "零", "leng4", "-odd") for text in ("佢五十零歲", "去咗十零日", "來咗個零月", "每年賺十零萬")],
    *[(text, "零", "ling4", None) for text in ("一百零五", "一千零一夜", "一九八零年代", "三個零都仲要買")],
    # 鋪 after a shop's trade or a word of keeping shop (間 the measure word) is "a shop", 舖; the verb, a round of a
    # game and bedding keep ToJyutping's pou1
    *[(text, "鋪", "pou3", "a shop") for text in ("有啲商鋪做咗咁耐", "呢度有五間店鋪", "呢間鋪好平", "開多咗兩間鋪",
                                                   "即係揾人封鋪", "一間連鎖麵包鋪", "一定係鋪租貴", "閂鋪")],
    *[(text, "鋪", "pou1", None) for text in ("修橋鋪路", "房間鋪滿地氈", "今鋪我贏", "佢玩鋪勁", "打地鋪",
                                              "換牀鋪", "商場鋪咗地氈", "時間鋪排")],
])
def test_a_sense_the_words_around_a_character_give_it(frontend, text, char, reading, sense):
    """度 "about" (七杯度), 假 "a holiday" (放咗假), 着 "to wear" (着泳褲), 成 "whole" (成晚), 上 "to board" (上機):
    each reading and the sense --explain names, and the places where ToJyutping's reading of the character alone
    stays."""
    r = frontend(text)
    i = r.graphemes.index(char)
    assert r.jyutping[i] == reading
    assert (r.sources[i] == "context" and f'"{sense}"' in r.why[i]) == (sense is not None)


@pytest.mark.parametrize("text", ["½杯", "1/2杯水", "評分4/5", "加3/4杯"])
def test_a_fraction_the_number_rules_write_says_its_part_fan6(frontend, text):
    """The number rules write n/m as 二分之一; its 分 is a fraction's part, fan6, as in 百分之, not 十分 "very"."""
    r = frontend(text)
    i = max(k for k, g in enumerate(r.graphemes) if g == "分")
    assert r.graphemes[i + 1] == "之" and r.jyutping[i] == "fan6", list(zip(r.graphemes, r.jyutping))


@pytest.mark.parametrize("text, jyutping", [
    ("佢今年卅呀七歲", ["keoi5", "gam1", "nin2", "saa1", "aa6", "cat1", "seoi3"]),
    ("八百卅呀蚊", ["baat3", "baak3", "saa1", "aa6", "man1"]),
    ("卌呀幾歲", ["sei3", "aa6", "gei2", "seoi3"]),
    ("佢卅呀", ["keoi5", "saa1", "aa6", "aa3"]),  # at a run's end 呀 may be the particle: the numeral says both
])
def test_a_numeral_with_its_second_syllable_written_out_says_it_once(frontend, text, jyutping):
    """卅呀七 spells 卅's aa6 with 呀: the numeral says saa1 and 呀 aa6, not saa1 aa6 then the particle aa3."""
    assert frontend(text).jyutping == jyutping


# The characters the stated senses look at, and the neighbours that decide them: draws hit their edges (a run's
# start and end, a sense's character next to another's, 既 with a 又 runs later).
SENSE_CHARS = [*"下吓為間量覺咁哂既度假着著呢相友瞓放請七杯蚊衫褲又選一十冇死爬成晚身變上機海個女人近啲最處之理會唔",
               *"鋪商租咗零千果如陣", *"卅卌呀", *"影重數咪使返磅斤公祈亂支節度回獲八",
               *"佢人哋咁錢做率團隊效見到甘眼極噶廈佐治系陽岩石", *"分之乖般焫親雞", "，", "。", " ", "iPhone", "check"]
SENSE_TEXT = st.lists(st.sampled_from(SENSE_CHARS), min_size=1, max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=SENSE_TEXT)
def test_the_senses_read_any_arrangement_of_their_characters_as_valid_syllables(frontend, text):
    """Whatever order these characters come in, the frontend gives a syllable for each (or its own error), and each
    stated sense it names gives a valid Jyutping syllable."""
    try:
        r = frontend(text)
    except FrontendError:
        return
    for syllable, why in zip(r.jyutping, r.why):
        assert parse_syllable(syllable).tone in TONES, (text, syllable, why)


@settings(max_examples=200, deadline=None)
@given(numerals=st.text(alphabet="一二三四五六七八九十百千點", min_size=1, max_size=5),
       after=st.sampled_from(["", "公", "個", "磅", "公斤", "斤", "克", "人", "，佢"]))
def test_zhong_before_a_number_is_to_weigh_only_before_a_unit_of_weight(frontend, numerals, after):
    """重 straight before numerals is "to weigh" (cung5) only when a unit of weight closes them (重八磅, 重三點八公斤),
    and never where the number ends the text or something else follows it (重八, 重8公: HKCanCor's "still")."""
    text = "佢重" + numerals + after
    r = frontend(text)
    i = r.graphemes.index("重")
    weighs = after in ("磅", "公斤", "斤", "克") and not numerals.startswith("點") and not numerals.endswith("點")
    assert ('"to weigh"' in r.why[i]) == weighs, (text, r.why[i])


@pytest.mark.parametrize("text, count", [
    ("一個月度就番嚟", "一個月"), ("一個鐘頭度", "一個鐘頭"), ("四百蚊度", "百蚊"), ("佢幾多歲度啊", "幾多歲"),
    ("買幾多錢度啊", "幾多錢")])
def test_about_names_the_count_it_closes(frontend, text, count):
    """--explain names the count before 度 "about": the numeral, 個 and the whole stretch of time (一個鐘頭)."""
    r = frontend(text)
    assert f"after the count {count} →" in r.why[r.graphemes.index("度")]


@pytest.mark.parametrize("text, said", [
    ("你唔好搞我喇", "laa1"), ("唔好再嘈喇", "laa1"), ("你哋唔好詏頸喇", "laa1"), ("快啲走喇", "laa1"),
    ("不如我哋就講到呢度喇", "laa1"), ("千祈唔好講俾佢知喇", "laa1"), ("唔好催我喇啦", "laa1"),
    ("我走喇", "laa3"), ("佢大晒喇", "laa3"),  # something has come about: ToJyutping's laa3
    ("就唔好喇", "laa3"), ("唔好喇", "laa3"),  # nothing commanded
    ("唔好彩喇", "laa3"), ("唔好意思喇", "laa3"),  # 唔好 opens a word of its own
    ("唔好食喇", "laa3"),  # "don't eat it" or "not tasty": ToJyutping stands
])
def test_la_closing_a_command_urges(frontend, text, said):
    """喇 closing what 唔好, 千祈, 快啲 or 不如 opens is laa1, the particle that urges; elsewhere ToJyutping's laa3."""
    got = frontend(text)
    k = got.graphemes.index("喇")
    assert got.jyutping[k] == said
    if said == "laa1":
        assert "a command or a suggestion" in got.why[k]


@pytest.mark.parametrize("text, said", [
    ("你屈我呀？", "aa4"), ("犯法呀？", "aa4"), ("係呀？", "aa4"), ("今日唔使返學呀?", "aa4"), ("你買咗3個呀？", "aa4"),
    ("好呀。你屈我呀？", "aa4"),  # the question is the second sentence: the first's words do not count
    ("點解唔早啲出聲呀？", "aa3"), ("佢怕咩醜呀？", "aa3"), ("係唔係鍾意咗佢呀？", "aa3"),  # a word asks
    ("有冇咁差呀？", "aa3"), ("你有無事呀？", "aa3"), ("去唔去呀？", "aa3"),
    ("係咪，你屈我呀？", "aa3"),  # a word of its sentence asks, before the comma
    ("你係咪short咗呀？", "aa3"), ("今晚do唔do嘢呀？", "aa3"),  # Latin letters: their words may ask
    ("好呀！", "aa3"), ("你屈我呀。", "aa3"), ("你屈我呀", "aa3"),  # no question mark
    ("你聾㗎？", "gaa4"), ("你新嚟㗎？", "gaa4"), ("點解你有咁多腳枕㗎？", "gaa3"), ("係㗎。", "gaa3"),
    ("機器啊？", "aa4"), ("你去邊啊？", "aa3"),  # 啊, which typed text writes for 呀
    ("咁難接受嘅？", "ge2"), ("呢本書係你嘅？", "ge2"), ("呢本書係你嘅。", "ge3"), ("點解會咁嘅？", "ge3"),
])
def test_a_particle_closing_a_question_no_word_asks_is_the_yes_or_no_one(frontend, text, said):
    """呀 (啊), 㗎 and 嘅 closing a question that no word of its sentence asks turn a statement into a yes-or-no
    question, aa4, gaa4 and ge2; where a question word asks, or nothing does, ToJyutping's aa3, gaa3, ge3 stand."""
    got = frontend(text)
    k = max(k for k, g in enumerate(got.graphemes) if g in "呀啊㗎嘅")
    assert got.jyutping[k] == said
    if said in ("aa4", "gaa4", "ge2"):
        assert "yes-or-no question" in got.why[k]


@pytest.mark.parametrize("text, said", [
    ("你慢慢咁行", "gam2"), ("佢靜靜咁走咗", "gam2"), ("可以安安靜靜咁做功課", "gam2"),
    ("嗰條友眼定定咁打量我", "gam2"),
    ("次次咁遠送我返", "gam3"), ("個個咁靚", "gam3"),  # a measure word said twice: "every … so"
    ("遠咗少少咁多", "gam3"), ("張梳化明明咁大", "gam3"), ("晨早流流咁刺激", "gam3"),
    ("好少可有爸爸咁open噃", "gam3"), ("好似媽媽咁高", "gam3"),  # a kin word said twice: "as … as"
])
def test_gam_after_a_word_said_twice_is_the_manner(frontend, text, said):
    """咁 after a word said twice is the manner (慢慢咁行), gam2, which HKCanCor writes 噉; ToJyutping's gam3, "so",
    stands after a doubled measure word, 明明, a time's 流流 or a kin word (爸爸), and before 多 or 少."""
    got = frontend(text)
    k = got.graphemes.index("咁")
    assert got.jyutping[k] == said
    if said == "gam2":
        assert "a word said twice" in got.why[k]
