"""The rewrite rules for numbers, dates, times and money, in the order they apply: what normalisation turns
into Han text before it splits the text into segments (each rule's reading is documented in docs/frontend.md).

Readings chosen:
- integers as cardinals (105 -> 一百零五); a lone 2 before a measure word is 兩 (2個 -> 兩個), but not
  before 月/日/號/樓/期, nor in a score or product (2月 -> 二月, 2比1 -> 二比一); 2日 as a span of days is 兩日
  (住2日, 2日後, 2日1夜), after 月 the day (3月2日後);
- decimals 三點一四; percentages 百分之五十; negative numbers 負;
- dates 2024-03-05 or 2024/3/5 or 2024年3月5日 -> 二零二四年三月五號 (日 kept when written), HK-style
  5/3/2024 is day/month/year; impossible dates (2024-02-30, 2024-13-45) are read as separate numbers;
  without a year, day/month is a date where a weekday follows (5/12（六） -> 十二月五號星期六, 5/12 星期六) or where
  only a date makes sense (5/3開會, 截止日期係1/3 -> 三月五號開會, 截止日期係三月一號), and a weekday in brackets
  after a date is said 星期 (12月5日（六） -> 十二月五日星期六);
- fractions: ½ -> 二分之一, n/m before a measure word or 嘅/的 (1/2杯 -> 二分之一杯), and ratings (9.5/10, 評分4/5 ->
  十分之九點五, 五分之四); elsewhere n/m may be a day and month, or neither, and stays two numbers;
- dates with an English month: 5 Dec 2026, Dec 5, 2026 -> 二零二六年十二月五號, Jan 2026 -> 二零二六年一月, and
  an English weekday in brackets after a date: 5 Dec (Sat) -> 十二月五號星期六;
- financial years and spans of years, 2023/24年度, 1999-2000年, 2024/25球季 -> 二零二三至二四年度, 一九九九至二零零零年,
  二零二四至二五球季;
- ordinals: a number after 第 is a plain cardinal (第2次 -> 第二次, never 第兩次);
- generations: 80後, 85後, 00後 -> 八零後, 八五後, 零零後 (two digits before 後, digit by digit), and discounts the same
  way: 75折 -> 七五折;
- scores and ratios 2:1 -> 二比一 (one digit after the colon; two are minutes), products 2x3, 2×3 and 雞翼x2 -> 二乘三,
  雞翼乘二; a score where a match's words say so: 比數1-1, 比分10:12, 3-1擊敗, 0-0打和, 打咗2-1 -> 一比一, 十比十二,
  三比一, 零比零, 打咗二比一;
- times 14:30 -> 十四點半, 3:05 -> 三點零五分, :00 reads only the hour, seconds add 秒; 9am -> 上午九點, 7:30pm and
  7.30pm -> 晚上七點半 (凌晨 before 6am, 中午 for 12pm, 下午 until 6pm, 晚上 from 7pm); 12nn -> 中午十二點, 12mn ->
  午夜十二點; a race's time 跑5'10", 3'45" -> 跑五分十秒, 三分四十五秒;
- money $12.50 -> 十二蚊五毫, HK$100 -> 一百港元, $0.375 -> 零點三七五蚊 (finer than a cent), 100蚊 as written;
  with a Han multiplier the multiplier comes first: $500萬 -> 五百萬蚊, HK$1.2億 -> 一點二億港元, $100萬元 -> 一百萬元;
  other currencies after the amount: US$100 -> 一百美元, £50 -> 五十英鎊, RMB100 -> 一百元人民幣, 100 USD, USD 1.5M;
  a range of sums says its multiplier and currency once, at the end: $2-3萬 -> 兩至三萬蚊, $50-80 -> 五十至八十蚊;
  a price per something: $50/位 -> 五十蚊一位, $8,000/月 -> 八千蚊一個月, $50/kg -> 五十蚊一公斤;
- multipliers $30K -> 三萬蚊, $1.5M -> 一百五十萬蚊, HK$2B -> 二十億港元 (K/k and bn anywhere, M and B after a
  currency or a fraction: 3M口罩 and Flat 3B keep their letters);
- ordinals 3rd -> 第三; units 5km -> 五公里, 500 sq ft -> 五百平方呎, 100m² -> 一百平方米, 30°C -> 三十度, 80°F ->
  華氏八十度;
- a dash or tilde between numbers is a range: 5-6個 -> 五至六個, 3點-4點 -> 三點至四點 (a number and its unit before
  it); otherwise a dash after a Han character is a minus (-3 -> 負三), before degrees 零下 (氣溫-5度 -> 氣溫零下五度),
  and a tilde before a number is 大約 (~100人 -> 大約一百人); a dash before a time's part of the day is a range too
  (上午8:00-下午3:30), one inside a model's name not (i7-13700H);
- phone numbers (+852 9123 4567, 2345-6789, (852) 2345 6789, 電話23456789), hotlines and extensions (熱線1823,
  分機123), the emergency number dialled (打999) and a card's groups of four digits, digit by digit;
- a height after 高 or height in feet and inches, 5'10" -> 五呎十吋, and in metres 1米75 -> 一米七五; a car's
  registration mark after 車牌 (車牌AB 1234) digit by digit; an event named by its date (911事件) digit by digit; a
  screen's 4K or 8K before a word for a screen or a video (4K電視, 8K TV) is the letter K, not thousands;
- decades 1990s, 80's -> 一九九零年代, 八十年代; resolutions 1080p -> 一零八零P; 7-11 the shop (seven eleven) unless a
  unit or count follows (7-11歲 -> 七至十一歲);
- codes, digit by digit: three or more digits, or a leading zero, written onto letters (CX251, A380, HK01), three
  or more before a capital letter that is no unit (962X, 1205A室, 13700K), a stock code after its company (騰訊(0700)
  -> 騰訊零七零零), the number of an order or an account or a code to type (單號：123456789, 驗證碼482913), a bus
  route of three digits after 坐 or 搭 (搭101過海 -> 搭一零一過海; 搭A21 -> 搭 A 二一), and any number written with a
  leading zero (007, 05年);
- dotted numbers with 點 between them (2.3.1 -> 二點三點一, 192.168.1.1); a school form's dot is no pause (F.5);
- speeds 50km/h -> 每小時五十公里 (時速250km/h -> 時速兩百五十公里); 2手 before goods is 二手 (2手樓), before
  shares 兩手; 3-1=2 -> 三減一等於二; a plus after a round number, 10+年 -> 十幾年.
"""

from __future__ import annotations

import re
from functools import cache

from .dates import (
    MONTH,
    clock,
    is_date,
    minutes_and_seconds,
    read_bare_day_month,
    read_date,
    read_day_month,
    read_dotted_day_month,
    read_english_date,
    read_minutes_seconds,
    read_time,
    read_twelve_hour,
    read_twelve_hour_range,
    read_weekday,
    read_year_month,
    read_year_span,
    said_before,
    years_said,
)
from .marks import is_han, mark, marked
from .money import CURRENCIES, HAN_MULTIPLIERS, read_dollars, read_foreign, read_multiplied, read_range, read_scaled_sum
from .numbers import read_count, read_decimal, read_digits, read_integer, read_separated
from .rule_gates import LazyPattern, apply_rules

# 二月, and a score or product: 二比一, 二乘三; a key or an age's first digit, 按2字, 2字頭 (二字); a type or a class,
# 2型, 2等獎 (二型, 二等); the number itself before 嘅, 的 or 之 (2嘅平方, 2之後: 二, never 兩嘅), and as what a
# clause is about, before 係, 就, 都, 亦, 即, 仲 or 也 (2就係商數, 2係雙數, 揀2都得: 二; they read 兩就係), and a
# sum's or a list's term before 加, 減, 同 or 和 (2加3, 5係2同3嘅和: 二)
_NO_TWO_IN_RANGE = set("月號樓期比乘型等嘅的之")
_NO_TWO_BEFORE = _NO_TWO_IN_RANGE | set("日字係就都亦即仲也同和加減")
# (the first set: where a range ends before them, 2-3月 is 二至三月; not 日 nor 字, since 2-3日 is two or three days,
# 兩至三日, nor a clause's words)
# Where a dash before a digit is a minus sign: at the start, after a space, an opening bracket or quote, a colon, a
# comma or Han text (氣溫-5度, 好，-3, 「-3」); after a digit it is a range or a minus in a sum
_MINUS_AFTER = r"(?:(?<=^)|(?<=[\s(（:：,，、;「『\"“])|(?<=[\u4e00-\u9fff]))"
# what a number after it is a term of, said as a plain number (10÷2, =2, x2): 二, never 兩; not 比, also "than"
# (比2個月前, 兩個月), nor /, also "per" ($100/2人)
_OPERATORS = set("乘÷=×*")
# ... and the second term of a score or ratio, 比 between two numbers (3比2險勝, 3:2贏, written 3比2 by the rule for
# a colon): 三比二, where 比 after a word (比2個月前) is "than"
_SECOND_TERM = re.compile(r"\d\s?比\s?$")
# an English word after a number and a space (2 days, 2 emails): what it counts, unless a word that counts nothing
_ENGLISH_WORD_AFTER = re.compile(r" ([a-z]{3,})(?![A-Za-z])")
_NOT_COUNTED_ENGLISH = frozenset(
    "and the for but not nor yet are was were has had have its per via off out all any with from into than then that "
    "this these those which what when where who whom you your our their his her she they will would can could should "
    "may might must plus minus".split())
# The measure words a 2 after an English word and a space counts (iPhone 2部, email 2次, book咗 2晚: 兩); before any
# other word the number is a name's (Switch 2幾時出, Part 2係, Level 2嘅: 二)
_MEASURE_AFTER_ENGLISH = set("個隻件部本張條架對雙粒包盒支枝間份杯碗樽罐次位名人款種把頂套輛片首晚夜場班層"
                             "鐘點封頁句篇段餐轉下成倍塊蚊元日天年歲週周分秒小")
# A 第 just written before an ordinal (第1st次)
_AFTER_DI = re.compile(r"第\s*$")
# The era a year's number of three or four digits follows, said digit by digit (公元前221年: 公元前二二一年; 公元前44年
# is 四十四年)
_ERA = re.compile(r"(?:公元|西元)前?\s?$")
# The currency words written after a sign's amount, said once and in place of 蚊 ($100元, $100,000美元, $500萬美元)
_WRITTEN_CURRENCY = "港元|元|蚊|美元|美金|人民幣|日元|日圓|歐元|英鎊|加元|澳元|新台幣|台幣"
# What names an edition by its year (奧運2024, TVB台慶2024, Expo 2025, 2024施政報告): a year's four digits just
# after these or an English word for an edition and a space (not a name's or a count's: Chan 2026, Total 2000), or
# just before the second list (which has "that year", 1994嗰年, and a title's end, 《未來戰士 2018》), are said digit by
# digit (二零二四)
_TITLED_YEAR_BEFORE = LazyPattern(
    r"(?:台慶|奧運|亞運|冬奧|殘奧|世界盃|世界杯|歐國盃|歐洲盃|亞洲盃|書展|博覽|展覽|博覽會|演唱會|音樂節|美食節|"
    r"動漫節|電影節|藝術節|嘉年華|選舉|施政報告|預算案|頒獎典禮|頒獎禮|峰會|論壇|馬拉松|公開賽|錦標賽|運動會|大獎賽|大獎"
    r"|(?<![A-Za-z])(?i:expo|summer|winter|spring|autumn|fall|vision|class of|edition|season|tour|festival|fest|"
    r"awards|conference|summit|olympics|cup|games|fair|week|collection|model year|version) )$", gated=False)
_TITLED_YEAR_AFTER = LazyPattern(r"\s?(?:施政報告|財政預算案|預算案|奧運|亞運|冬奧|世界盃|世界杯|書展|演唱會|台慶|"
                                 r"年度|年報|版|賽季|球季|季度|選舉|立法會選舉|區議會選舉|嗰年|果年|那年|》)",
                                 gated=False)
# What moves a level by a number (升咗2級, 連跳2級, 相差2級): there 2 counts the levels, 兩級
_CHANGED_BY = LazyPattern(r"(?:升|跌|降|跳|提升|調高|調低|高|低|差|相差)(?:咗|左|了)?\s?$", gated=False)
# second-hand goods (2手樓, 2手車: 二手), while 2手 of shares, counted in board lots, is 兩手
# ... and the second rank or generation (2線城市, 2線明星: 二線; 2代移民 二代), while 2代同堂 is 兩代
_SECOND_NOT_TWO = re.compile(r"手(?:樓|車|貨|書|衫|物|店|機|嘢|屋|盤|市|價|交易|買賣|iPhone)"
                          r"|線(?:城市|品牌|明星|藝人|球隊|球員|演員|醫院)|代(?:移民|目)")
_RANGE_END = re.compile(r"至\s?\d[\d,]*(?:\.\d+)?\s?(.)")
# 2日 is a day of the month (二日) unless a span of days is meant: before 前 後 內 or a count of nights (2日後,
# 2日1夜), or after a word that counts days (住2日, 隔離2日, 最近2日, 前2日, take咗2日): 兩日; after 月 always the day
_DAYS_SPAN_AFTER = re.compile(r"日(?:[前後內]|之[前後內]|\s?[\d一兩三四五六七八九十]夜)")
_DAYS_SPAN_BEFORE = ("住", "隔離", "最近", "連續", "一連", "每", "過去", "未來", "休息", "放", "前", "等", "留", "需時",
                     "歷時", "咗", "左", "多", "再", "有", "得", "要", "做")

# What a fraction (not a day and month) is written before: measure words and 嘅/的 (1/2杯, 3/4個, 1/3嘅人), and 倍
# (5/2倍: 二分之五倍; it read 二月五號倍)
_FRACTION_OF = "杯碗份匙磅斤條塊件張粒次隻個啲嘅的秒倍"
# A slash right after a sum just rewritten ($50/位, $29.9/2件: the sum's currency word and the mark that ends it)
_PRICE_SLASH = r"(?<=[蚊元毫仙]\ue00f)\s?/\s?"
# Where a number starts: not right after a digit, nor after a decimal point (the 5 of 3.5 starts none)
_NUMBER_START = r"(?<!\d)(?<!\d\.)"
# Where a number ends: no digit, decimal or group of thousands after it; a comma before anything else ends a clause
# (NFKC writes the full-width comma as one: 密碼為482913，5分鐘內有效 read the password as a sum)
_NUMBER_END = r"(?!\d|\.\d|,\d{3}(?!\d))"
# Where a fraction's numerator may start: not inside a number, nor after a currency sign (a price for a number of
# things, $29.9/2件, is no fraction)
_FRACTION_START = r"(?<![\d$£€¥])(?<!\d[./])"
_FRACTION_OF_WORDS = "茶匙|湯匙|小時|公斤|公里|人口|鐘|決賽"  # ... and these words (1/2茶匙, 1/3人口, 1/4決賽)


# What a range's numbers count or measure (7-11歲, 7-11點): after 7-11, it is the range, not the shop
_RANGE_OF = _FRACTION_OF + "點時月號日歲人度分秒年元蚊天週周名間本樓層座期級班倍成折位公米克磅%至"
_COUNTED = _RANGE_OF.replace("嘅", "").replace("的", "")  # a number before these counts them (車牌3個), not a label
# ... and these too, where a pair of numbers is a range of them, not a score, a phone number or a span of years
# (打咗2-3個鐘, 贏咗2-3萬, 2000-2500人)
_COUNTED_PAIR = _COUNTED + "萬千百億場局盤仗鐘股"
# A year alone in brackets, or with a page after it, as a work's date or a citation writes it ((1938), (1968， p.42)),
# and an author's name before it in the same brackets ((Smith, 2010)); not what a unit after it counts ((1800) 蚊)
_CITED_YEAR = LazyPattern(rf"\s?(?:[)）](?!\s?[{_COUNTED_PAIR}])|[,，]\s?(?:pp?\.|頁|第))", gated=False)
_CITED_AUTHOR = LazyPattern(r"[(（][A-Za-z][A-Za-z.\s&]*(?:et al\.)?\s?[,，]\s?$", gated=False)
# The end of a span of years written with 至 (2000至2005年)
_YEARS_TO = re.compile(r"\s?[至到]\s?(?:1\d|20)\d\d\s?年")
# After four digits, 年 that counts years, not names one: 5000年歷史, 2000年之久, 1000年以上 (五千年; they were read
# as years, 五零零零年); and, from 2100, years ago or later, as no date of the texts read here is (2300年前, 3000年後;
# 2030年前 is "by 2030")
_YEARS_COUNTED = LazyPattern(r"\s?年(?:[嘅的]?歷史|之久|以上)", gated=False)
_YEARS_AGO = LazyPattern(r"\s?年[前後后來]", gated=False)
# After three digits, 年 that a month or a second year follows (844年5月7日, 808年—844年): a year, as dates say it
# (they read 八百四十四年); or, in brackets after an era's year, its year of the common era (大曆十二年（777年）)
_YEAR_OF_A_DATE = LazyPattern(r"\s?年\s?(?:\d{1,2}\s?月|[—–\-~～]\s?\d{3,4}\s?年)", gated=False)
# ... and after 喺, 於 or 在 a year's four digits unless one of these follows (喺2000人之中, 喺2000呎: counts; 成 after
# them is 成立, not tenths)
_COUNTED_AFTER_IN = _COUNTED_PAIR.replace("成", "") + "呎尺吋里磅"
_COUNTED_NOT_LABEL = _COUNTED_PAIR.replace("號", "")  # ... less 號, which may follow a label's number (信箱1234號)
# The words that name a number or a code to read out (單號, 編號, 驗證碼, Order, PIN, 尾數, 末4位)
_CODE_LABEL = ("(?:編號|號碼|單號|帳號|賬號|戶口|條碼|代號|學號|卡號|工號|序號|批號|票號|證號|尾數|尾號|房號|信箱|"
               "(?:末|最後)\\s?[四4]位|"
               "(?:驗證|密|登入|認證|確認|授權|優惠|折扣|推廣|取件|提取)碼|"
               "(?<![A-Za-z])(?:(?i:order|ref|tracking|pin|otp|code|id|box)碼?|(?i:no)\\.))")
# The books of the Bible as the Chinese Union Version names them, before a chapter and verse (約翰福音3:16)
_BIBLE_BOOKS = (
    "創世記 出埃及記 利未記 民數記 申命記 約書亞記 士師記 路得記 撒母耳記上 撒母耳記下 "
    "列王紀上 列王紀下 歷代志上 歷代志下 以斯拉記 尼希米記 以斯帖記 約伯記 詩篇 箴言 傳道書 "
    "雅歌 以賽亞書 耶利米書 耶利米哀歌 以西結書 但以理書 何西阿書 約珥書 阿摩司書 俄巴底亞書 "
    "約拿書 彌迦書 那鴻書 哈巴谷書 西番雅書 哈該書 撒迦利亞書 瑪拉基書 馬太福音 馬可福音 "
    "路加福音 約翰福音 使徒行傳 羅馬書 哥林多前書 哥林多後書 加拉太書 以弗所書 腓立比書 "
    "歌羅西書 帖撒羅尼迦前書 帖撒羅尼迦後書 提摩太前書 提摩太後書 提多書 腓利門書 希伯來書 "
    "雅各書 彼得前書 彼得後書 約翰一書 約翰二書 約翰三書 猶大書 啟示錄").split()
# The words that make a-b or a:b a match's score (比數1-1, 3-1擊敗): before it, and after it
_SCORE_BEFORE = "比數|比分|賽果|半場|完場|打成|波膽|大勝|險勝|小勝|完勝|慘敗|不敵"  # not 全場 (全場8-9折: storewide)
# a match's verb, done, before a-b (贏咗3-0, 打咗2-1), unless what the numbers count follows (打咗2-3個鐘, 贏咗2-3萬,
# 輸咗2-3場: a range); with a colon it stays a time (打到2:30)
_SCORE_VERB = "(?:打|踢|贏|輸)(?:咗|左|到)"
# ... and the results that say which side scored more (以15:11勝出, 以1:3落敗, 以2:2打和)
_WON = "擊敗|險勝|大勝|小勝|反勝|勝出|戰勝|擊退|贏"
_LOST = "落敗|不敵|敗|負|輸"
_DRAWN = "打和|打平|戰和|逼和"
_SCORE_AFTER = "擊敗|打和|打平|戰和|險勝|大勝|小勝|反勝|落敗|敗|勝|負|贏|輸|領先|落後|完場|收場|告終"


# A word for a phone and what may come between it and the number (電話：, Tel., WhatsApp 號碼係)
_BEFORE_PHONE_NUMBER = r"[\s:：.]*(?:號碼)?[\s:：係是]*"
_PHONE_WORD = r"(?:電話|手機|熱線|傳真|致電|(?<![A-Za-z])(?i:tel|fax|whatsapp|wts))" + _BEFORE_PHONE_NUMBER
_AFTER_PHONE_WORD = re.compile(_PHONE_WORD + "$")


# What a comparison before a number is said as
_COMPARISONS = {"<": "少於", ">": "大於", "≤": "小於或等於", "≦": "小於或等於", "≥": "大於或等於", "≧": "大於或等於",
                "≈": "約", "±": "加減"}
# ... and those that a number before them is a term of (2>1: 二大於一; ≈ stands before a number only)
_COMPARED = tuple(dict.fromkeys(said for sign, said in _COMPARISONS.items() if sign != "≈"))


# The days named by their date (10.1國慶, 5.1勞動節, 11.11購物節), the sales named after them, and the events (9.11事件,
# 7.1遊行)
_NAMED_DAY = ("國慶|勞動節|婦女節|光棍節|購物節|青年節|兒童節|情人節|黃金週|黃金周|大減價|優惠|特賣|促銷"
              "|事件|遊行|集會|回歸")


# The verbs a bus route follows (坐962X, 搭咗A21, 轉乘N170), and the words for a route after it (505綫, E21A線)
_ROUTE_VERB = r"(?:坐|搭|轉乘|乘搭|乘坐)(?:咗|左|返|番)?\s?"
_ROUTE_WORD = r"[A-Z]?\s?(?:號)?(?:線|綫|路線|巴士|小巴)"
# ... and the operators a route or a list of routes follows (城巴A21, 龍運巴士A41P, 過海隧道巴士101、104、111)
_ROUTE_OPERATOR = r"(?:九巴|城巴|新巴|龍運|嶼巴|巴士|小巴)"
_ROUTE = r"[A-Z]{0,2}\d{2,3}[A-Z]?"


# A word for an index just before its value (AQHI 10+, 紫外線指數11+)
_AFTER_INDEX_WORD = re.compile(r"(?:指數|(?<![A-Za-z])(?i:aqhi|uvi?|index))[\s:：係為達]*$")


# A word for a speed just before it (時速250km/h): the speed is then said without 每小時
_AFTER_SPEED_WORD = re.compile(r"時速[\s:：達約為係是]*$")


def _digit_by_digit(group: int = 0, keep_prefix: bool = False):
    """A rule's replacement that reads its ``group`` digit by digit, marked as a number (codes, rooms, routes,
    stock codes, order numbers: 一二零三); ``keep_prefix`` as in ``marked``."""
    return marked("number", lambda m: read_digits(m.group(group)), keep_prefix=keep_prefix)


# The common top-level domains that end a web or email address's host (normalize finds an address's dots by them)
TOP_LEVEL_DOMAINS = "com|org|net|edu|gov|hk|cn|tw|uk|io|co|info|me|ly|app|ai|tv|jp|sg|mo|us|biz"


def _digits_marked(text: str) -> str:
    """``text`` with every number in it said digit by digit and marked (a path's, a code's: j/123456789, A12B34)."""
    return re.sub(r"\d+", lambda d: mark("number", read_digits(d.group())), text)


def _address_path(m: re.Match[str]) -> str:
    """A web address's host, then its path with every number in it digit by digit (zoom.us/j/123456789)."""
    return m.group(1) + _digits_marked(m.group(2))


# a rule's replacement for digits written in groups (a phone's, a card's: 2345 6789, 4-4-2): one by one, as a number
_digits_written_apart = marked("number", lambda m: read_digits(re.sub(r"\D", "", m.group(0))))


def _dotted(m: re.Match[str]) -> str:
    """2.3.1 -> 二點三點一 (a version), 192.168.1.1 -> 一九二點一六八點一點一; 31.12.2024 -> a date."""
    parts = m.group(0).split(".")
    if len(parts) == 3 and len(parts[2]) == 4 and is_date(int(parts[2]), int(parts[1]), int(parts[0])):
        return read_date(m, parts[2], parts[1], parts[0], "號")
    return "點".join(read_digits(p) if len(p) >= 3 or (p.startswith("0") and len(p) > 1) else read_integer(int(p))
                     for p in parts)


def _named_day(m: re.Match[str]) -> str:
    """10.1 -> 十一, 6.18 -> 六一八: the month, then the day's digits; the same month and day from 10 on is 雙十一."""
    month, day = m.group(1), m.group(2)
    if month == day and len(month) == 2:
        return "雙" + read_integer(int(month))
    return read_integer(int(month)) + read_digits(day)


def _year_span(m: re.Match[str]) -> str:
    """2024-2025 is a span of years, unless a word for a phone comes before it (電話2024-2025)."""
    return m.group(0) if said_before(_AFTER_PHONE_WORD, m) else read_year_span(m)


def _isotope(m: re.Match[str]) -> str:
    """碳-14 -> 十四, 鈾-235 -> 二三五: an isotope's mass number as it is said (three digits one by one)."""
    number = m.group(1)
    return read_digits(number) if len(number) == 3 else read_integer(int(number))


def _life_span(m: re.Match[str]) -> str:
    """(1980-2020) after a name: both years digit by digit, where the second is at most 120 years after the first
    (a price's (1000-1200) is left to the number rules)."""
    first, second = int(m.group(1)), int(m.group(2))
    if not first < second <= first + 120:
        return m.group(0)
    return years_said(m.group(1), m.group(2))


def _route_list(m: re.Match[str]) -> str:
    """Routes after their operator, each as it is said: three digits, or two after letters, digit by digit (一零一,
    A 二一); two alone as a number (15 十五); the letters kept and the list's marks a pause."""
    out = [m.group(1)]
    for part in re.split(r"(\s?[、,，/及和]\s?)", m.group(2)):
        route = re.fullmatch(r"([A-Z]{0,2})(\d{2,3})([A-Z]?)", part)
        if route is None:
            out.append("、" if part.strip() in "、,，/" else part.strip())
            continue
        letters, digits, suffix = route.groups()
        said = read_digits(digits) if len(digits) == 3 or letters else read_integer(int(digits))
        out.append(letters + mark("number", said) + suffix)
    return "".join(out)


def _counting(n: int, following: str) -> str:
    """A lone 2 before a measure word is 兩 (2個 兩個), but not before 月日號樓期 nor in a score or product (二月)."""
    return "兩" if n == 2 and following and is_han(following) and following not in _NO_TWO_BEFORE else read_integer(n)


def _height(m: re.Match[str]) -> str:
    inches = int(m.group(3) or 0)
    return read_integer(int(m.group(2))) + "呎" + (read_integer(inches) + "吋" if inches else "")


def _score(m: re.Match[str]) -> str:
    """Both numbers as counted, never 兩 (一比二, as 二比一)."""
    return f"{read_integer(int(m.group('a')))}比{read_integer(int(m.group('b')))}"


def _result_score(m: re.Match[str]) -> str:
    """以a:b before a result: a score where the result fits (won: a > b, lost: a < b, drawn: a = b); else a race's
    time in minutes and seconds (以2:08勝出: 兩分零八秒), or left as written where b is no seconds."""
    a, b, result = int(m.group("a")), int(m.group("b")), m.group("result")
    fits = a > b if re.fullmatch(_WON, result) else a < b if re.fullmatch(_LOST, result) else a == b
    if fits and not re.fullmatch(r"0\d+", m.group("b")):  # no score is padded (以10:05勝出 is a time)
        return _score(m)
    return minutes_and_seconds(a, b) if b < 60 else m.group(0)[len(m.group(1)):]


def _estimate(m: re.Match[str]) -> str:
    """2、3個 -> 兩三個: neighbouring digits are an estimate, said together; others stay a list (二、五個)."""
    a, b = int(m.group(1)), int(m.group(2))
    if b != a + 1:
        return read_separated(m.group(0)).replace("，", "、")
    return _counting(a, m.string[m.end():].lstrip()[:1]) + read_integer(b)


def _fraction(m: re.Match[str]) -> str:
    """n/m as Cantonese says a fraction, the denominator first: 1/2 -> 二分之一, 9.5/10 -> 十分之九點五."""
    return f"{read_decimal(m.group('den'))}分之{read_decimal(m.group('num'))}"


def _counts_days(m: re.Match[str]) -> bool:
    """The number before 日 counts days (住2日, 2日後, 2日1夜) rather than naming one."""
    before = m.string[:m.start()].rstrip(" ")
    return bool(_DAYS_SPAN_AFTER.match(m.string, m.end())) or before.endswith(_DAYS_SPAN_BEFORE)


def _integer(m: re.Match[str]) -> str:
    value = int(m.group(0).replace(",", ""))
    before = m.string[m.start() - 1: m.start()]
    # the words around it, past a space or two typed between (有 2 個, 第 2 次, 2024 年: 兩個, 第二次, 二零二四年);
    # past a space only what it counts or names, not a particle or a new clause (Switch 2 啦, 3:2 啦: 二)
    word_before = m.string[max(0, m.start() - 3): m.start()].rstrip(" ")[-1:]
    following = m.string[m.end(): m.end() + 3].lstrip(" ")[:1]
    if following != m.string[m.end(): m.end() + 1] and following not in _COUNTED_PAIR + "後":
        following = " "
    if word_before == "第":
        return read_integer(value)  # an ordinal: 第2次 is 第二次, never 第兩次
    if word_before in _OPERATORS or m.string.startswith(_COMPARED, m.end()) or said_before(_SECOND_TERM, m) \
            or m.string.endswith("根號", 0, m.start()):
        return read_integer(value)  # a sum's, a comparison's, a score's or a root's term: 10÷2啦, 2>1, 3:2贏, √2 (二)
    if len(m.group(0)) > 1 and m.group(0).startswith("0"):
        return read_digits(m.group(0))  # a code or a year's last digits, its zeros said: 007, 05年 零五年
    if len(m.group(0)) == 4 and (following == "年" or m.string.startswith(("上半年", "下半年", "財年"), m.end())) \
            and not _YEARS_COUNTED.match(m.string, m.end()) \
            and not (value >= 2100 and _YEARS_AGO.match(m.string, m.end())):
        return read_digits(m.group(0))  # a year (2024年, 2024上半年, 2024財年)
    if len(m.group(0)) == 3 and following == "年" and not m.string.endswith("民國", 0, m.start()) and (
            _YEAR_OF_A_DATE.match(m.string, m.end()) or m.string.endswith(("年（", "年("), 0, m.start())):
        return read_digits(m.group(0))  # a year of three digits: 844年5月7日, 808年—844年, 大曆十二年（777年）; the
        # Republic's (民國107年10月18號) is counted, 一百零七年, as Taiwan says it
    year_like = len(m.group(0)) == 4 and 1900 <= value < 2100
    if len(m.group(0)) == 4 and 1500 <= value < 2100 and _CITED_YEAR.match(m.string, m.end()) \
            and (word_before in "(（" and m.string[:m.start()].rstrip(" ")[:-1].strip() or word_before in ",，"
                 and _CITED_AUTHOR.search(m.string, 0, m.start())):
        return read_digits(m.group(0))  # a year in brackets after what it dates, a work's or a citation's:
        # 《流氓小姐》（1938）, Schouten (1968， p.42), (Smith, 2010, p. 5) (一千九百三十八); (1999) alone is a number
    if len(m.group(0)) == 4 and 1000 <= value < 2100 and _YEARS_TO.match(m.string, m.end()):
        return read_digits(m.group(0))  # the first of a span of years: 2000至2005年, 1774至1789年 (一七七四至)
    if year_like and word_before and word_before in "喺於在" and (not following or following not in _COUNTED_AFTER_IN):
        return read_digits(m.group(0))  # a year after a word for "in" (喺2017達致普選, 於1999成立): 二零一七
    if year_like and (not following or following not in _COUNTED_PAIR) and (
            said_before(_TITLED_YEAR_BEFORE, m) or _TITLED_YEAR_AFTER.match(m.string, m.end())):
        return read_digits(m.group(0))  # an edition's year: 奧運2024, Expo 2025, 2024施政報告 (二零二四)
    if following == "年" and len(m.group(0)) >= 3 and said_before(_ERA, m) or \
            len(m.group(0)) in (2, 4) and m.string.startswith("回歸", m.end()):
        return read_digits(m.group(0))  # a year of the era (公元618年, 公元前221年), of the handover (1997回歸, 97回歸)
    if following in ("後", "折") and re.fullmatch(r"\d\d", m.group(0)):
        return read_digits(m.group(0))  # a generation, 80後 八零後, and a discount, 75折 七五折 (25 % off)
    if before.isascii() and before.isalpha():
        return read_integer(value)  # a formula or a code: CO2排放 is C O 二
    if value == 2 and before == " " and word_before.isascii() and word_before.isalpha() \
            and following.strip() and is_han(following) and following not in _MEASURE_AFTER_ENGLISH:
        return "二"  # a name's number, not a count: Switch 2幾時出, Part 2係 (iPhone 2部 counts: 兩部)
    if value == 2 and following == "日" and word_before != "月" and _counts_days(m):
        return "兩"  # two days, not the second: 住2日, 2日後, 2日1夜 (3月2日後 is after the second)
    if value == 2 and m.string[m.end():m.end() + 4].lstrip(" ").startswith(("級", "年級")) \
            and not said_before(_CHANGED_BY, m):
        return "二"  # a level or a school year: 5科2級, 2級風, 2年級 (二); moved by two, 升咗2級, is 兩級
    if value == 2 and _SECOND_NOT_TWO.match(m.string, m.end()):
        return "二"  # second-hand, second rank: 2手樓 is 二手樓, 2線城市 二線城市
    word = _ENGLISH_WORD_AFTER.match(m.string, m.end()) if value == 2 else None
    if word and word.group(1) not in _NOT_COUNTED_ENGLISH:
        return "兩"  # two of what an English word names: 2 days, 2 emails (兩 days, as it is said)
    if following == "至" and (end := _RANGE_END.match(m.string, m.end())) and end.group(1) in _NO_TWO_IN_RANGE:
        return read_integer(value)  # a range of months, dates or floors: 2-3月 is 二至三月, as 2月 is 二月
    return _counting(value, following)


# Units written after a number, as they are said (a lower-case g is grams; 5G stays the letter).
UNITS = {"km": "公里", "kg": "公斤", "cm": "厘米", "mm": "毫米", "mL": "毫升", "ml": "毫升", "mg": "毫克", "m": "米",
         "g": "克", "L": "公升", "ft": "呎", "sqft": "平方呎", "sq. ft.": "平方呎", "min": "分鐘", "mins": "分鐘",
         "sec": "秒", "secs": "秒", "h": "小時", "hr": "小時", "hrs": "小時", "mAh": "毫安", "hp": "匹馬力",
         "mmHg": "毫米水銀柱", "kcal": "千卡", "kJ": "千焦", "mmol/L": "毫摩爾每公升", "mg/dL": "毫克每分升",
         "kg/m2": "公斤每平方米", "nm": "納米", "m/s": "米每秒", "kWh": "千瓦時",
         "μg/m3": "微克每立方米", "μg": "微克", "μm": "微米", "Ω": "歐姆", "kΩ": "千歐姆",
         "km2": "平方公里", "m2": "平方米", "cm2": "平方厘米", "m3": "立方米",
         # a frequency and a time in milliseconds (120Hz read H Z as an English word, 12ms ms; FM 97.9MHz 兆赫)
         "Hz": "赫茲", "kHz": "千赫", "MHz": "兆赫", "GHz": "吉赫", "ms": "毫秒",
         **{f"{power} {unit}": word + said for power, word in (("sq", "平方"), ("cu", "立方"))
            for unit, said in (("km", "公里"), ("m", "米"), ("cm", "厘米"), ("ft", "呎"))}}
# ... and in capitals or with a capital first, as signs and labels write them (5KM, 100KG, 500ML, 2HRS, 5 Km); not
# one letter (5M, 3G) nor hp (5HP stays letters) nor ms (Windows 10 MS Office)
UNITS.update({spelling: said for unit, said in list(UNITS.items())
              if unit.isalpha() and len(unit) > 1 and unit not in ("hp", "ms")
              for spelling in (unit.upper(), unit.capitalize()) if spelling not in UNITS})


@cache
def number_rules() -> list[tuple[LazyPattern, object]]:
    """The rewrite rules for numbers, dates, times and money, in order. Every one needs a decimal digit, so they
    are made for the first text that has one, and each is compiled the first time a text holds a character of its
    gate (runtime/rule_gates.py: compiling all of them took 30 ms of every start)."""
    units = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
    currencies = "|".join(re.escape(c) for c in sorted(CURRENCIES, key=len, reverse=True))
    codes = "|".join(c for c in CURRENCIES if c.isalpha())
    amount = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
    # written after a number (numbers.SCALES, case-folded: 30K, 1.5M, 3bn, 2 billion)
    scale = "k|K|M|B|bn|BN|mn|(?i:thousand|million|billion|trillion)"
    times_after_han = (LazyPattern(r"(?<=[\u4e00-\u9fff])\s?[x×]\s?(?=(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                                   r"(?![\dA-Za-z])(?![.,]\d))"), lambda m: "乘")
    return [
        # the numbers in a web address's path, digit by digit, as an address is read out (zoom.us/j/123456789 read
        # 一億二千三百四十五萬…, www.abc.com/2024/05 a month); its host's digits are a code's already (abc123.com)
        (LazyPattern(rf"(?i)(?<![A-Za-z0-9._%+@-])((?:[a-z0-9-]+\.)+(?:{TOP_LEVEL_DOMAINS}))((?:/[a-z0-9_.~%=&?#+-]*)+)"),
         _address_path),
        # a book's ISBN, its groups joined by dashes (ISBN 7-5617-0734-7, ISBN：978-962-04-1234-5): digit by digit, a
        # pause between groups (they read 七至五六一七…, a range)
        (LazyPattern(r"((?<![A-Za-z])ISBN[\s:：-]*)(\d[\d-]{8,16}[\dX])(?![\d-])"),
         marked("number", lambda m: "，".join(read_digits(g) if g.isdigit() else "X" for g in m.group(2).split("-")),
                keep_prefix=True)),
        # an isotope's hyphen is its name's, not a minus nor a range (碳-14, 鈾-235: 碳十四, 鈾二三五 as it is said;
        # it read 碳負十四)
        (LazyPattern(r"(?<=[碳氫氧氮鈾鈽鈷鍶碘銫鉀鐳氦氡氚氘鍀鐵])-(\d{1,3})(?![\d.])"),
         marked("number", _isotope)),
        # a court case's number after its list's letters (HCAL 123/2024, DCCC 456/2023): the number and the year digit
        # by digit, a pause between (it read 一二三兩千零二十四)
        (LazyPattern(r"((?<![A-Za-z])[A-Z]{2,5}\s?)(\d{1,5})/((?:19|20)\d\d)(?![\d/])"),
         marked("number", lambda m: f"{read_digits(m.group(2))}，{read_digits(m.group(3))}", keep_prefix=True)),
        # a section's subsection and paragraph, as an ordinance cites them (第2(1)條, 第4(1)(a)條): 第二條第一款,
        # 第四條第一款 a 段, as they are said (it read 第二一條)
        (LazyPattern(r"第\s?(\d+)\s?[(（](\d+)[)）](?:\s?[(（]([a-z]{1,2})[)）])?\s?條"),
         lambda m: f"第{m.group(1)}條第{m.group(2)}款" + (f"{m.group(3)}段" if m.group(3) else "")),
        # thousands set apart by spaces, as official text types them (約2 000人, 12 345宗, NFKC writes a thin space
        # as one): one number, before Han text or a percentage, or after a currency sign (it read 二零零零, a phone's
        # digits)
        (LazyPattern(r"(?:(?<=[$£€¥])|(?<![\dA-Za-z,.])(?<!\d )(?=[\d ]+\s?[\u4e00-\u9fff%]))"
                    r"\d{1,3}(?: \d{3})+" + _NUMBER_END),
         lambda m: m.group(0).replace(" ", "")),
        # 30°C -> 三十度 (NFKC writes ℃ as °C), 80°F -> 華氏八十度; the number is read by the rules below
        # (and 度C, 度F as some write them: 38.5度C)
        (LazyPattern(rf"{_NUMBER_START}(-?\d+(?:\.\d+)?)\s?[°度]\s?C(?![A-Za-z])"), lambda m: f"{m.group(1)}度"),
        (LazyPattern(rf"{_NUMBER_START}(-?\d+(?:\.\d+)?)\s?[°度]\s?F(?![A-Za-z])"), lambda m: f"華氏 {m.group(1)}度"),
        # fractions: ½ (NFKC writes 1⁄2) always, n/m before a measure word or 嘅 (1/2杯 -> 二分之一杯); elsewhere
        # n/m may be a day and month (5/3開會, read as one below) or neither, and stays two numbers
        (LazyPattern(rf"{_NUMBER_START}(?P<num>\d+)⁄(?P<den>[1-9]\d*)(?!\d|\.\d)"), marked("number", _fraction)),
        (LazyPattern(rf"{_FRACTION_START}(?P<num>\d+)/(?P<den>[1-9]\d*)(?!\d|[./]\d)(?=[{_FRACTION_OF}]|{_FRACTION_OF_WORDS})"),
         marked("number", _fraction)),
        # ... and a term of a sum (3/4 + 1/2 = 5/4, x÷1/2): 四分之三加二分之一等於四分之五 (they read a list and a
        # date, 三四加一二等於四月五號); a dash beside it may be a span of dates (3/4-5/4)
        (LazyPattern(rf"{_FRACTION_START}(?P<num>\d+)/(?P<den>[1-9]\d*)(?!\d|[./]\d)(?=\s?[+=×÷*]\s?\d)"),
         marked("number", _fraction)),
        (LazyPattern(rf"{_FRACTION_START}(?:(?<=[+=×÷*])|(?<=[+=×÷*] ))(?P<num>\d+)/(?P<den>[1-9]\d*)(?!\d|[./]\d)"),
         marked("number", _fraction)),
        # a time signature (4/4拍, 3/4拍子): 四四拍, as it is said (it read 四月四號拍)
        (LazyPattern(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?=\s?拍)"),
         marked("number", lambda m: read_digits(m.group(1) + m.group(2)))),
        # ... and a proper fraction written with spaces around its slash (超過 1 / 3, 1 / 2): no date is written so
        (LazyPattern(rf"{_FRACTION_START}(?P<num>\d{{1,3}}) / (?P<den>[1-9]\d{{0,2}})(?!\d|[./]\d)"),
         marked("number", lambda m: _fraction(m) if int(m.group("num")) < int(m.group("den")) else m.group(0))),
        # ... and a rating or score out of a whole (9.5/10, 評分4/5, GPA 3.8/4.0): a decimal over a number cannot be a
        # date
        (LazyPattern(rf"{_FRACTION_START}(?P<num>\d+\.\d+)/(?P<den>[1-9]\d*(?:\.\d+)?)(?!\d|[./]\d)"),
         marked("number", _fraction)),
        (LazyPattern(r"((?:評分|分數|得分|評價|打分|(?<![A-Za-z])(?i:rating|score))[\s:：]*(?:係|有|為|是)?\s?)"
                    r"(?P<num>\d+(?:\.\d+)?)/(?P<den>[1-9]\d*)(?!\d|[./]\d)"),
         marked("number", _fraction, keep_prefix=True)),
        # a year of account or of school, one or a span (2025年度, 2024/25年度): its 年度 read with it, so that 度 is
        # dou6, not the dou2 of 一年度, "about a year", which the context rules learnt from HKCanCor
        (LazyPattern(rf"{_NUMBER_START}(\d{{4}})(?:\s?[/\-–~～]\s?(\d{{4}}|\d{{2}}))?\s?年度"),
         marked("date", lambda m: years_said(m.group(1), m.group(2)) + "年度")),
        # a span of years (1999-2000年, 2023/24年): both years digit by digit, 一九九九至二零零零年
        (LazyPattern(rf"{_NUMBER_START}(\d{{4}})\s?[/\-–~～]\s?(\d{{4}}|\d{{2}})(?=年)"),
         marked("date", lambda m: years_said(m.group(1), m.group(2)))),
        # ... and a life's or a reign's span in brackets after a name (陳大文（1980-2020）, 康熙（1661—1722）):
        # 一九八零至二零二零 (they read 一千九百八十至兩千零二十); years a life apart, nothing counted after
        # (價錢（1000-1200）蚊)
        (LazyPattern(rf"(?<=[\u3400-\u9fff][(（])\s?(1\d{{3}}|20\d\d)\s?[-–—~～]\s?(1\d{{3}}|20\d\d)\s?"
                    rf"(?=[)）](?!\s?[{_COUNTED_PAIR}呎尺米A-Za-z]))"),
         marked("date", _life_span)),
        # ... and without 年, where the second year follows the first within ten and nothing counted follows
        # (2024/25球季, 2024-25, 1990-1999; not 2000-2500人, 2024-25%)
        (LazyPattern(rf"(?<![\d$])(?<!\d[.,])((?:19|20)\d\d)\s?[/\-–~～]\s?((?:19|20)\d\d|\d\d)(?![\d%]|[.,:/]\d)"
                    rf"(?!\s?[{_COUNTED_PAIR}呎尺米A-Za-z])"),
         marked("date", _year_span)),
        # decades (1990s, 90's, '90s): 一九九零年代, 九十年代 (a bare 90s may be seconds); a video resolution (1080p,
        # 720p) digit by digit
        (LazyPattern(rf"{_NUMBER_START}(?:(1[89]\d0|20[0-9]0)'?s|'([1-9]0)s|([1-9]0)'s)(?![A-Za-z])"),
         marked("date", lambda m: (read_digits(m.group(1)) if m.group(1) else
                                    read_integer(int(m.group(2) or m.group(3)))) + "年代")),
        (LazyPattern(rf"{_NUMBER_START}(144|240|360|480|576|720|1080|1440|2160|4320)(?=[pi](?![A-Za-z]))"),
         _digit_by_digit(1)),
        # a race's distance after 跑 (跑咗10K, 跑5K): the number and the letter K, as it is said, not thousands
        (LazyPattern(r"((?:跑|跑咗|跑左|跑完)\s?)(\d{1,2})(?=\s?[Kk](?![A-Za-z]))"),
         marked("number", lambda m: read_count(int(m.group(2))), keep_prefix=True)),
        # a screen's resolution (4K電視, 8K TV, 4K 60fps, 4K 144Hz, 4K@60Hz): the number and the letter K, not
        # thousands (月薪20K, $30K)
        (LazyPattern(r"(?<![\d$])(?<!\d\.)([248])(?=\s?K\s?(?:電視|畫質|解像度|顯示|螢幕|熒幕|屏幕|芒|影片|片|錄影|拍攝|直播|串流|"
                    r"(?i:TV|HDR|UHD|video|monitor|mon|@?\s?\d{2,3}\s?(?:fps|p|Hz))(?![A-Za-z])))"),
         marked("number", lambda m: read_integer(int(m.group(1))))),
        # 7-11 (and 7-Eleven) is the shop, said in English, unless a unit or count follows (7-11歲, 7-11點, 7-11am)
        # or it follows letters or 第 (Chapter 7-11, 第7-11題): then it is a range
        (LazyPattern(rf"(?<![\d第A-Za-z])(?<!\d\.)(?<![A-Za-z.] )7\s?-\s?(?:11|(?i:eleven))(?![\dA-Za-z]|\.\d)"
                    rf"(?!\s?[{_RANGE_OF}])"),
         lambda m: " seven-eleven "),
        # a date with an English month: 5 Dec 2026, 5 December, Dec 5, 2026 -> (二零二六年)十二月五號
        (LazyPattern(rf"{_NUMBER_START}(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s?{MONTH}(?![A-Za-z])(?:,?\s(?P<year>\d{{4}}))?"
                    r"(?!\d|:\d)"), marked("date", read_english_date)),
        (LazyPattern(rf"(?<![A-Za-z]){MONTH}\s(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?![\dA-Za-z]|:\d)(?:,?\s(?P<year>\d{{4}}))?"
                    r"(?!\d|:\d)"), marked("date", read_english_date)),
        (LazyPattern(rf"(?<![A-Za-z]){MONTH}\s(?P<year>\d{{4}})(?!\d|:\d)"), marked("date", read_english_date)),
        # a range of sums with one currency: $2-3萬 -> 兩至三萬蚊, US$1-2億 -> 一至兩億美元
        (LazyPattern(rf"(?P<cur>(?i:HK)\$|港幣|{currencies}|\$)\s?(?P<a>{amount})\s?[-–~～至]\s?(?:(?P=cur)|\$)?\s?"
                    rf"(?P<b>{amount})(?!\d|\.\d)(?:\s?(?P<lat>{scale})(?![A-Za-z])|\s?(?P<han>{HAN_MULTIPLIERS}))?"
                    rf"(?P<unit>{_WRITTEN_CURRENCY})?"), marked("number", read_range)),
        # another currency's sign or code before the amount (US$100, £50, RMB100, USD 1.5M) or its code after it
        (LazyPattern(rf"(?<![A-Za-z])(?P<cur>{currencies})\s?(?P<num>{amount})"
                    rf"(?:\s?(?P<lat>{scale})(?![A-Za-z])|(?P<han>{HAN_MULTIPLIERS}))?(?!\d|\.\d)"),
         marked("number", read_foreign)),
        (LazyPattern(rf"(?<!\d)(?<!\d[.,])(?P<num>{amount})(?:\s?(?P<lat>{scale})|(?P<han>{HAN_MULTIPLIERS}))?\s?"
                    rf"(?P<cur>{codes})(?![A-Za-z])"), marked("number", read_foreign)),
        # (not after a letter: Y2K is Y 二 K, a name, not two thousand)
        # (not a route's letter: 九巴73K, 搭73K, 73K線; nor gold's carats: 18K金, 18K白金, 18K玫瑰金 are 十八 K)
        (LazyPattern(rf"((?i:HK)\$|港幣|\$)?\s?(?<![A-Za-z])(?<!{_ROUTE_OPERATOR})(?<![搭坐])"
                    rf"{_NUMBER_START}(\d+(?:\.\d+)?)\s?({scale})(?![A-Za-zΩ])(?!\s?(?:路線|線|綫|[白黃]?金|玫瑰金))"),
         marked("number", read_scaled_sum)),
        # $500萬 -> 五百萬蚊, HK$1.2億 -> 一點二億港元, $100萬元 -> 一百萬元: a Han multiplier goes before the currency,
        # and so does the digit of the next place that may follow 萬 or 千 ($2萬5 -> 兩萬五蚊, 25,000; $1萬2千)
        (LazyPattern(rf"(?P<cur>HK\$|港幣|\$)\s?(?P<num>{amount})\s?(?P<han>{HAN_MULTIPLIERS})"
                    r"(?:(?<=[萬千])(?P<next>[1-9](?:(?<=萬\d)千|百)?)(?![\d.,萬千百]))?"
                    rf"(?P<unit>{_WRITTEN_CURRENCY})?", re.I),
         marked("number", read_multiplied)),
        # ... and one sign before a number of 毫 ($5毫, 5 ho, fifty cents): 五毫, not 五蚊毫
        (LazyPattern(r"(?:HK)?\$\s?([1-9])\s?(?=毫)", re.I), marked("number", lambda m: read_count(int(m.group(1))))),
        (LazyPattern(r"(HK\$|港幣|\$)\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\d)"
                    rf"(?:\s?({_WRITTEN_CURRENCY}))?", re.I),
         marked("number", read_dollars)),
        # a price per something ($50/位, HK$100/晚, $8,000/月, $38/杯, $120/小時): the slash is 一 (一個 before 月),
        # as it is said
        (LazyPattern(rf"{_PRICE_SLASH}(?=[位人個張次晚程月年日天份件杯碗隻磅斤條盒包支樽罐粒塊對雙本部堂節課套呎]|小時|分鐘|平方|立方)"),
         lambda m: "一個" if m.string[m.end():m.end() + 1] == "月" else "一"),
        (LazyPattern(rf"{_PRICE_SLASH}({units})(?![A-Za-z])"), lambda m: "一" + UNITS[m.group(1)]),
        # ... and a price for a number of them ($29.9/2件, $100/3個): the slash unsaid, 二十九蚊九毫兩件
        (LazyPattern(rf"{_PRICE_SLASH}(?=\d+\s?[{_COUNTED}])"), lambda m: ""),
        (LazyPattern(r"(?<!\d)(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})(?:([日號])|(?!\d))"),
         marked("date", lambda m: read_date(m, m.group(1), m.group(2), m.group(3), m.group(4) or "號"))),
        # (day first, as Hong Kong writes it, with slashes or dashes: 5/12/2024, 5-12-2024)
        (LazyPattern(r"(?<!\d)(?<!\d[/\-])(\d{1,2})([/\-])(\d{1,2})\2(\d{4})(?!\d)"),
         marked("date", lambda m: read_date(m, m.group(4), m.group(3), m.group(1), "號"))),
        # a blood pressure, systolic over diastolic (血壓120/80, BP 120/80): the two numbers with a pause between, as
        # it is said
        (LazyPattern(r"((?:血壓|(?<![A-Za-z])BP)[\s:：係為]*)(\d{2,3})\s?/\s?(\d{2,3})(?![\d/])"),
         # (the first read here, so that BP's capitals do not make it a code; the second left for its unit, mmHg)
         lambda m: f"{m.group(1)}{mark('number', read_integer(int(m.group(2))))}，{m.group(3)}"),
        # a notice's number in its year (第10/2024號通告): the number, a pause, the year digit by digit; not a month
        (LazyPattern(r"(第\s?)(\d{1,4})\s?/\s?((?:19|20)\d\d)(?=\s?號)"),
         marked("number", lambda m: f"{read_integer(int(m.group(2)))}，{read_digits(m.group(3))}", keep_prefix=True)),
        # ... and the year first (第2024/0056號決議案: it read 第兩千零二十四零零五六號), its zeros said
        (LazyPattern(r"(第\s?)((?:19|20)\d\d)\s?/\s?(\d{1,5})(?=\s?號)"),
         marked("number", lambda m: f"{read_digits(m.group(2))}，" + (
             read_digits(m.group(3)) if m.group(3).startswith("0") else read_integer(int(m.group(3)))),
             keep_prefix=True)),
        # a month and its year without a day (12/2025 on a card, 2024-12, 2024/03): 二零二五年十二月
        (LazyPattern(r"(?<![\d/.\-])(0?[1-9]|1[0-2])/((?:19|20)\d\d)(?![\d%]|[./]\d)"),
         marked("date", lambda m: read_year_month(m.group(2), m.group(1)))),
        (LazyPattern(rf"(?<![\d/.\-])((?:19|20)\d\d)[-/](0?[1-9]|1[0-2])(?![\d%]|[-/.]\d)(?!\s?[{_COUNTED_PAIR}A-Za-z])"),
         marked("date", lambda m: read_year_month(m.group(1), m.group(2)))),
        # ... and a card's expiry, MM/YY after the word for it (有效期 12/26, EXP 03/27): 二六年十二月
        (LazyPattern(r"((?:有效期|到期日?|屆滿|(?<![A-Za-z])(?i:exp(?:iry)?|valid thru))\.?[\s:：至]*)"
                    r"(0?[1-9]|1[0-2])/(\d\d)(?![\d/])"),
         marked("date", lambda m: read_year_month(m.group(3), m.group(2)), keep_prefix=True)),
        # ... and a year's last two digits after an apostrophe ('24年, Summer '24, Class of ’97): 二四, not a
        # count; not after a digit (5'10" is a height or a time) nor before a measure word ('24小時 is a quote's end)
        (LazyPattern(r"(?<![\dA-Za-z'’‘])['’‘](\d\d)(?![\d'’′\"”]|[.,]\d)(?=\s?[年屆級]|\s|$|[，。、,.!?！？)）」』])"),
         _digit_by_digit(1)),
        # a time on the 24-hour clock as the disciplined services write it, four digits before 時 or hrs (2359時,
        # 1800hrs, 1400時至1600時): digit by digit, as it is said (二三五九時; it read 兩千三百五十九時)
        (LazyPattern(r"(?<![\d.,:])(?:[01]\d|2[0-3])[0-5]\d(?=\s?時)"), _digit_by_digit()),
        (LazyPattern(r"((?<![\d.,:])(?:[01]\d|2[0-3])[0-5]\d)(\s?(?i:hrs?))(?![A-Za-z])"),
         marked("number", lambda m: read_digits(m.group(1)) + "時")),
        # ... and a year's last two digits after a quarter or a half, or a financial year, as analysts write them
        # (1Q25, 2H24, FY25): 一 Q 二五, F Y 二五, digit by digit as they are said (they read 二十五)
        (LazyPattern(r"((?<![\dA-Za-z])(?:[1-4]Q|[12]H|FY)\s?)(\d\d)(?![\d%A-Za-z]|[.,/]\d)"),
         _digit_by_digit(2, keep_prefix=True)),
        # ... and a year beside a quarter or a half (Q4 2024, 2024 Q4, H1 2024): digit by digit
        (LazyPattern(r"(?<=[QH][1-4] )(?:19|20)\d\d(?![\d%])|(?<![\dA-Za-z])(?:19|20)\d\d(?= ?[QH][1-4](?!\d))"),
         _digit_by_digit()),
        # a day and month without a year, where a weekday follows (5/12（六）, 5/12 星期六): 十二月五號(星期六)
        (LazyPattern(r"(?<!\d)(?<!\d[/.])(\d{1,2})/(\d{1,2})(?!\d|/\d)(?:\s?[（(]\s?([一二三四五六日天])\s?[）)]"
                    r"|(?=\s?(?:[（(]\s?)?(?:星期|禮拜|週|周)))"), marked("date", read_day_month)),
        # ... and without one, where only a date makes sense (5/3開會, 截止日期係1/3, 5/3-8/3: 三月五號至三月八號)
        # (not after 第, a page of pages, nor before 分, a mark out of a whole: 第1/1頁, 10/10分)
        (LazyPattern(r"(?<![\d$第])(?<!\d[/.:])(\d{1,2})/(\d{1,2})(?:\s?[-–~～至到]\s?(\d{1,2})/(\d{1,2}))?(?![\d%]|[/.]\d)"
                    r"(?!\s?分)"),
         marked("date", read_bare_day_month)),
        # ... and written with dots after a word that names a date (平安夜12.24, 日期：24.12-26.12), elsewhere a decimal
        (LazyPattern(r"(?<![\d$第])(?<!\d[/.:])(\d{1,2})\.(\d{1,2})(?:\s?[-–~～至到]\s?(\d{1,2})\.(\d{1,2}))?"
                    r"(?![\d%]|[/.]\d)"), marked("date", read_dotted_day_month)),
        # a weekday in brackets after a date (12月5日（六）, 5 Dec (Sat)): 星期六, as it is said, and a pause before a
        # time after it (12月5日（六）19:00: 星期六十九點 was heard as one number)
        (LazyPattern(r"(?:(?<=\d[日號])|(?<=[日號]\ue00f))\s?[（(]\s?([一二三四五六日天]|(?i:mon|tue|wed|thu|fri|sat|sun)"
                    r"[a-z]*\.?)\s?[）)]"),
         lambda m: read_weekday(m.group(1)) + ("，" if m.string[m.end():].lstrip()[:1].isdigit() else "")),
        # a chapter and verse after a book of the Bible (約翰福音3:16, 詩篇23:1-6): 三章十六節, 二十三章一至六節
        # (it read a clock's time, 三點十六分)
        (LazyPattern(r"((?:" + "|".join(sorted(_BIBLE_BOOKS, key=len, reverse=True)) + r")\s?(?:第\s?)?)"
                    r"(\d{1,3})\s?[:：]\s?(\d{1,3})(?:\s?[-–~至]\s?(\d{1,3}))?(?![\d:])(?:\s?節)?"),
         marked("number", lambda m: f"{read_integer(int(m.group(2)))}章{read_integer(int(m.group(3)))}"
                + (f"至{read_integer(int(m.group(4)))}" if m.group(4) else "") + "節", keep_prefix=True)),
        # a score, where a match's words say it is one (比數1-1, 比分10:12, 3-1擊敗): 比, not a range or a time (a
        # time before 勝 stays one: 3:30勝出)
        (LazyPattern(rf"((?:{_SCORE_BEFORE})[\s:：]*(?:係|是|為)?\s?)(?P<a>\d{{1,3}})\s?[-–:：]\s?(?P<b>\d{{1,3}})"
                    r"(?!\d|[.:]\d)"), marked("number", _score, keep_prefix=True)),
        (LazyPattern(rf"({_SCORE_VERB}\s?)(?P<a>\d{{1,3}})\s?[-–]\s?(?P<b>\d{{1,3}})(?!\d|[.:]\d)(?!\s?[{_COUNTED_PAIR}])"),
         marked("number", _score, keep_prefix=True)),
        (LazyPattern(rf"(?<!\d)(?<!\d[.:])(?P<a>\d{{1,3}})\s?[-–]\s?(?P<b>\d{{1,3}})(?!\d|[.:]\d)(?=\s?(?:{_SCORE_AFTER}))"),
         marked("number", _score)),
        # ... and with a colon after 以 where the result after it fits the numbers (以15:11勝出, 以1:3落敗, 以2:2打和):
        # the winner's score first; where they do not fit, a race's time (以2:08勝出, 以3:30勝出: 兩分零八秒)
        (LazyPattern(r"(以\s?)(?P<a>\d{1,3})\s?[:：]\s?(?P<b>\d{1,3})(?!\d|[.:]\d)"
                    rf"(?=\s?(?P<result>{_WON}|{_LOST}|{_DRAWN}))"), marked("number", _result_score, keep_prefix=True)),
        # Hong Kong's noon and midnight: 12nn, 12:00nn, 12noon -> 中午十二點; 12mn, 12 midnight -> 午夜十二點
        (LazyPattern(r"(?<!\d)(?<!\d:)(?<!\d\.)12(?:[:.]00)?\s?(nn|noon|mn|midnight)(?![A-Za-z])", re.I),
         marked("number", lambda m: ("中午" if m.group(1).lower() in ("nn", "noon") else "午夜") + "十二點")),
        # a race's time in minutes, seconds and their fraction (1:52.3, 游出0:47.85): 一分五十二秒三, as it is said;
        # a clock's time has no fraction of a second
        (LazyPattern(r"(?<![\d:])(?<!\d\.)(\d{1,2}):([0-5]\d)\.(\d{1,3})(?!\d|\.\d)"),
         marked("number", read_minutes_seconds)),
        # a range whose end alone says am or pm: the part of the day once, first (2-4pm -> 下午兩點至四點)
        (LazyPattern(r"(?<!\d)(?<!\d:)(?<!\d\.)(\d{1,2})(?::([0-5]\d))?\s?[-–~至到]\s?(\d{1,2})(?:[:.]([0-5]\d))?\s?"
                    r"([aApP])(?:\.[mM]\.?|[mM])(?![A-Za-z])"), marked("number", read_twelve_hour_range)),
        # (Hong Kong often writes the minutes after a dot: 3.30pm)
        (LazyPattern(r"(?<!\d)(?<!\d:)(?<!\d\.)(\d{1,2})(?:[:.]([0-5]\d))?\s?([aApP])(?:\.[mM]\.?|[mM])(?![A-Za-z])"),
         marked("number", read_twelve_hour)),
        (LazyPattern(r"(?<!\d)([01]?\d|2[0-4]):([0-5]\d)(?::([0-5]\d))?(?!\d)"), marked("number", read_time)),
        # ... and one typed with spaces around its colon after a part of the day (中午 11 : 39, as subtitles write it)
        (LazyPattern(r"((?:上午|下午|中午|晚上|凌晨|朝早|夜晚|晏晝|下晝)\s?)([01]?\d|2[0-4]) : ([0-5]\d)(?!\d)"),
         marked("number", lambda m: clock(int(m.group(2)), int(m.group(3)), None), keep_prefix=True)),
        # after the times: a colon between digits, one or three or more after it, is a score or ratio (2:1 -> 二比一,
        # 16:9, a scale's 1:1000; "Q1: 2 apples" keeps its pause)
        (LazyPattern(r"(?<!\d)(?<!\d:)(\d+):(\d|\d{3,})(?!\d|:\d)"), lambda m: f"{m.group(1)}比{m.group(2)}"),
        # a DSE result, four grades or more written together with a star among them, only a 5 has stars (5**5*5*544;
        # not 1*2*3*4): each grade, a pause between (五星星、五星、五星、五、四、四; it read 五五乘五乘五百四十四)
        (LazyPattern(r"(?<![\d*])(?<!\d\.)(?=[1-5*]*\*)(?:5\*{1,2}|[1-5](?!\*)){4,}(?![*\d])"),
         marked("number", lambda m: "、".join(read_integer(int(g[0])) + "星" * (len(g) - 1)
                                             for g in re.findall(r"[1-5]\**", m.group(0))))),
        # x, × or * between numbers is times (2x3, 1920x1080, 3*4 -> 乘)
        (LazyPattern(rf"(?:(?<=\d)(?<!{_NUMBER_START}0)|(?<=[蚊元毫仙]\ue00f))\s?[x×*]\s?(?=\d)|(?<=\d)X(?=\d)"),
         lambda m: "乘"),  # (0x1F is hex, not 0 times; a price just read may come first: $880 x 3晚)
        # a dash in a sum before its equals sign is minus (3-1=2 -> 三減一等於二), not a range
        (LazyPattern(r"(?<=\d)\s?[-–]\s?(?=\d+(?:\.\d+)?\s?=)"), lambda m: "減"),
        # a plus after an index's number that ends a phrase is "or above" (AQHI 10+, 紫外線指數11+: 十以上, 十一以上)
        (LazyPattern(r"(?<![\d+])(?<!\d\.)(\d+)\+(?=\s*(?:$|[)）(（,，。.、;；:：!！?？」』]))"),
         lambda m: m.group(1) + "以上" if said_before(_AFTER_INDEX_WORD, m) else m.group(0)),
        # a plus after a round number, nothing added to it, is "and more" (10+年經驗, 100+人 -> 十幾年經驗, 一百幾人)
        (LazyPattern(r"(?<![\d+])(?<!\d\.)([1-9]\d*0)\+(?![\d+%]|\s\d)"), lambda m: m.group(1) + "幾"),
        # so is a lower-case x or × right after Han text, before a number (雞翼x2, 雞翼 ×2: 乘二; 部X2 is a name)
        times_after_han,
        # a card's or an account's number in groups of four (4111 1111 1111 1111, 1234-5678-9012): digit by digit
        (LazyPattern(r"(?<!\d)(?<!\d[.,])\d{4}([ -])\d{4}(?:\1\d{4}){1,2}" + _NUMBER_END),
         _digits_written_apart),
        # a phone number with its country's code after a plus (+86 138 0013 8000, +1 (415) 555-1234, +44 20 7946 0958):
        # eight to fifteen digits in groups, said one by one without the plus; then Hong Kong's own:
        (LazyPattern(r"(?<![\dA-Za-z+])\+[1-9]\d{0,2}(?:[\s-]?[(（]?\d{1,5}[)）]?){2,6}" + _NUMBER_END),
         lambda m: _digits_written_apart(m) if 8 <= sum(ch.isdigit() for ch in m.group(0)) <= 15 else m.group(0)),
        # phone numbers, digit by digit: 2345 6789, +852 2345-6789, (852) 2345 6789, and eight digits written
        # together after a word for a phone (電話23456789, WhatsApp 91234567; elsewhere they are a number)
        # (not where what they count follows: 2000-2500人 is a range, nor a range of rooms or shops: 3501-3502室)
        (LazyPattern(rf"(\+?852[\s-]?|[(（]\+?852[)）]\s?)?(?<!\d)([2-9]\d{{3}})[\s-](\d{{4}})(?!\d)"
                    rf"(?!\s?(?:[{_COUNTED_PAIR}室]|號舖|號鋪|號店))"),
         _digits_written_apart),
        (LazyPattern(rf"({_PHONE_WORD})(\+?852[\s-]?)?([2-9]\d{{7}})(?!\d)"),
         marked("number", lambda m: read_digits(re.sub(r"\D", "", m.group(0)[len(m.group(1)):])), keep_prefix=True)),
        (LazyPattern(r"(?<![\d+])(?:\+?852[\s-]|[(（]\+?852[)）]\s?)[2-9]\d{7}(?!\d)"), _digits_written_apart),
        # ... and a hotline's or an extension's shorter number (熱線1823, 分機123, Ext. 2345), and the emergency number
        # dialled (打999, 999報警): 一八二三, 九九九, as they are said
        (LazyPattern(rf"((?:熱線|致電|電話|分機|內線|(?<![A-Za-z])(?i:tel|hotline|ext)){_BEFORE_PHONE_NUMBER})"
                    rf"(\d{{3,7}}){_NUMBER_END}(?!\s?[{_COUNTED_PAIR}])(?!\s?[A-Za-z])"),
         _digit_by_digit(2, keep_prefix=True)),
        (LazyPattern(rf"((?:打|撥|致電|(?<![A-Za-z])(?i:call|dial))\s?)(999|112){_NUMBER_END}(?!\s?[下{_COUNTED_PAIR}])"),
         _digit_by_digit(2, keep_prefix=True)),
        (LazyPattern(r"(?<!\d)(?<!\d[.,])(?:999|911|112)(?=\s?(?:報警|求救|求助|召喚|緊急))"), _digit_by_digit()),
        # two neighbouring digits in a list before what they count are an estimate, said without the pause: 2、3個 ->
        # 兩三個, 3、4日 -> 三四日 (1、2、3 stays a list); a DSE grade 5** or 5* is 五星星, 五星 (not 3*4, a product)
        (LazyPattern(r"(?<!\d)(?<!\d[.、,，])(\d)、(\d)(?!\d|[.、]\d)(?=\s?[\u4e00-\u9fff])"),
         marked("number", _estimate)),
        (LazyPattern(r"(?<![\d*])(?<!\d\.)([1-5])\s?(\*\*?)(?![*\d]|\s\d)"),
         marked("number", lambda m: read_integer(int(m.group(1))) + "星" * len(m.group(2)))),
        # a room number, digit by digit, as a flat's number is said: Rm 1203, Room 1203, Unit 1203, 1203室 -> 一二零三
        # (not a measure: Unit 500 sq ft)
        (LazyPattern(r"(?<![A-Za-z])((?:[Rr]m\.?|[Rr]oom|ROOM|[Uu]nit|UNIT|[Ff]lat|FLAT|[Ss]hop|SHOP|[Ss]uite|SUITE)\s?)"
                    rf"(\d{{3,4}})(?!\d|\.\d)(?!\s?(?:{units})(?![A-Za-z]))"),
         _digit_by_digit(2, keep_prefix=True)),
        # (a room's or a shop's: 1502室, 2088號舖; a range of them says its 至: 3501-3502室 三五零一至三五零二室)
        (LazyPattern(rf"{_NUMBER_START}(\d{{3,4}})(?:\s?[-–~至]\s?(\d{{3,4}}))?(?=\s?(?:室|號舖|號鋪|號店))"),
         marked("number", lambda m: read_digits(m.group(1)) + ("至" + read_digits(m.group(2)) if m.group(2) else ""))),
        # an event or a disease named by its date's digits (911事件, 911恐襲, 911十周年, 721事件, 2019冠狀病毒病): digit
        # by digit, as the name is said (成立100周年 is a count)
        (LazyPattern(r"(?<!\d)(?<!\d[.,])(\d{3,4})(?=\s?(?:事件|冠狀病毒病|恐襲|襲擊|[一二三四五六七八九十]+[周週]年))"),
         _digit_by_digit(1)),
        # ... and a model or an index named by its number (波音747, 747客機, 日經225): 七四七, 二二五, as they are said
        (LazyPattern(r"(?<=波音|日經)\s?\d{3}" + _NUMBER_END + r"|(?<!\d)(?<!\d[.,])\d{3}(?=\s?(?:客機|噴射機))"),
         _digit_by_digit()),
        # ... and a name's year before an English word (1881 Heritage, 1997 Club): 一八八一, as the name is said
        (LazyPattern(r"(?<![\d$.,])(1[89]\d\d|20\d\d)(?= [A-Z][a-z]{2,})"), _digit_by_digit()),
        # ... and a product's or a plane's version after its name (Windows 95, Office 365, Office 2021, Xbox 360,
        # Boeing 747): 九五, 三六五, 二零二一, as they are said; below 20 it is a number (Windows 10, 11: 十, 十一), and
        # before what it counts a count (Office 20人)
        (LazyPattern(r"((?<![A-Za-z])(?i:windows|office|xbox|boeing|airbus)\s?)([2-9]\d|\d{3}|(?:19|20)\d\d)"
                    rf"{_NUMBER_END}(?!\s?[{_COUNTED_PAIR}])"), _digit_by_digit(2, keep_prefix=True)),
        # ... and a day named by its date written month.day (10.1國慶, 5.1勞動節, 11.11優惠): 十一, 五一, 雙十一, as
        # the names are said, not 十點一; or its digits before a shopping festival (618購物節: 六一八)
        (LazyPattern(rf"(?<![\d第])(?<!\d[.,])(1[0-2]|[1-9])\.([1-9]|[12]\d|3[01])(?!\d|\.\d)(?=\s?(?:{_NAMED_DAY}))"),
         marked("date", _named_day)),
        (LazyPattern(r"(?<!\d)(?<!\d[.,])(\d{3,4})(?=\s?(?:購物節|大減價|狂歡節))"), _digit_by_digit(1)),
        # a height in feet and inches after 高 or height (身高5'10", 高6′): 五呎十吋 (elsewhere 5'10" may be a time)
        (LazyPattern(r"((?:高|(?i:height))\s?[:：]?\s?(?:係|有|約)?\s?)([1-8])\s?['’′](?:\s?(1[01]|\d)\s?(?:\"|”|′′|''|吋)?)?"
                    r"(?![\d'’′]|\.\d)"), marked("number", _height, keep_prefix=True)),
        # a height or length in metres and centimetres, 1米75, 1米8 (one metre seventy-five): 一米七五, the centimetres
        # digit by digit and a round ten by its digit (1米50 一米五, 2米2 兩米二), as it is said
        (LazyPattern(rf"{_NUMBER_START}([1-9])米(\d\d?)(?![\d%]|[.,]\d)(?!\s?(?:[米厘分吋呎]|cm|mm))"),
         marked("number", lambda m: read_count(int(m.group(1))) + "米" + read_digits(m.group(2).rstrip("0") or "0"))),
        # elsewhere m'ss" is a race's time where it cannot be feet and inches or a word for a race comes before it
        # (跑5'10", 3'45", 1'23"45): 五分十秒, 三分四十五秒, 一分二十三秒四五
        (LazyPattern(r"(?<![\d'’′])(?<!\d\.)(\d{1,3})\s?['’′]\s?([0-5]\d)\s?(?:\"|”|′′|'')(\d{1,2}(?!\d|\.\d))?"),
         marked("number", read_minutes_seconds)),
        # a listed company's stock code in brackets after its name (騰訊(0700), 港交所(388), 00005.HK): digit by digit,
        # as it is said (零七零零, 三八八)
        (LazyPattern(r"([\u4e00-\u9fffA-Z]\s?[(（]\s?)(\d{3,5})(?=(?:\.HK)?\s?[)）])"),
         _digit_by_digit(2, keep_prefix=True)),
        (LazyPattern(rf"{_NUMBER_START}(\d{{3,5}})\.(?=HK(?![A-Za-z]))"),
         _digit_by_digit(1)),
        # ... and after an exchange's name and a colon, as an encyclopaedia writes it (港交所：1210, 上交所：600519):
        # 一二一零 (it read 一千二百一十)
        (LazyPattern(r"((?:港交所|聯交所|上交所|深交所|香港交易所|(?:股份|股票)(?:代號|編號))\s?[:：]\s?)(\d{1,6})(?![\d.,%])"),
         _digit_by_digit(2, keep_prefix=True)),
        # a number that names an order, an account or a member, or a code to type (單號：123456789, 編號1234, 學號
        # 20231234, 驗證碼：482913, PIN 1234, 尾數1234, 尾號1234, 末4位1234): digit by digit, as it is read out;
        # four digits or more, and not what is counted or measured after it (戶口5000蚊, 編號1234 km), though a 號 may
        # follow (信箱1234號)
        (LazyPattern(rf"({_CODE_LABEL}[\s:：#係是為]*)"
                    rf"(\d{{4,}}){_NUMBER_END}(?!\s?[{_COUNTED_NOT_LABEL}])(?!\s?(?:{units})(?![A-Za-z]))"),
         _digit_by_digit(2, keep_prefix=True)),
        # ... and such a code of letters and digits (取件碼係A12B34, Order #A-2048, 單號：HK-1234): its letters spelled,
        # every digit one by one (A 十二 B 三十四 and A 兩千零四十八 were counts)
        (LazyPattern(rf"({_CODE_LABEL}[\s:：#係是為]*)([A-Za-z]+-?\d+(?:-?[A-Za-z]+-?\d+)*[A-Za-z]*)(?![A-Za-z\d])"),
         lambda m: m.group(1) + _digits_marked(m.group(2).replace("-", " "))),
        # a car's registration mark after 車牌 (車牌AB 1234, 車牌號碼：XY 88): its digits one by one, as it is said
        (LazyPattern(rf"((?:車牌|車牌號碼|車號)[\s:：係是]*(?:[A-Z]{{1,2}}\s?)?)(\d{{1,4}})(?![\d%])(?![.,]\d)(?!\s?[{_COUNTED}])"),
         _digit_by_digit(2, keep_prefix=True)),
        # 12/F -> 十二樓 (a floor in a Hong Kong address), 3rd -> 第三, 5km -> 五公里
        (LazyPattern(rf"{_NUMBER_START}(\d+)\s?/\s?F(?![A-Za-z])"), lambda m: f"{m.group(1)}樓"),
        (LazyPattern(rf"{_NUMBER_START}(\d+)(?:st|nd|rd|th)(?![A-Za-z])"),
         lambda m: m.group(1) if said_before(_AFTER_DI, m) else f"第{m.group(1)}"),  # (第1st is 第一)
        # a speed: 時速250km/h -> 時速兩百五十公里, elsewhere 每小時 first (80km/h -> 每小時八十公里), as it is said
        # (and a range of speeds, 0-100km/h: 每小時零至一百公里; the dash was a pause before 每小時一百公里)
        (LazyPattern(r"(?<![A-Za-z\d])(?<!\d\.)(\d+(?:\.\d+)?(?:\s?[-–~～至到]\s?\d+(?:\.\d+)?)?)\s?"
                     r"(?:(?i:km)\s?/\s?(?i:hr?)|kph|KPH)(?![A-Za-z])"),
         lambda m: (("" if said_before(_AFTER_SPEED_WORD, m) else "每小時")
                    + re.sub(r"\s?[-–~～至到]\s?", "至", m.group(1)) + "公里")),
        # hours and minutes (2h 30m, 1h30min): 兩小時三十分鐘, the m minutes after hours, not metres
        (LazyPattern(r"(?<![A-Za-z\d])(?<!\d\.)(\d+)\s?h\s?([0-5]?\d)\s?m(?:in|ins)?(?![A-Za-z])"),
         lambda m: f"{m.group(1)}小時{m.group(2)}分鐘"),
        (LazyPattern(rf"(?<![A-Za-z\d])(?<!\d\.)(\d+(?:\.\d+)?)\s?({units})(?![A-Za-z])"),
         lambda m: m.group(1) + UNITS[m.group(2)]),
        # ... and after a unit just written in Han (500mg x 2粒, 5kg x 3: 五百毫克乘二粒; it read X)
        times_after_han,
        # a range of percentages written once (30-40%, 65至90%): 百分之三十至四十, as it is said
        (LazyPattern(rf"{_NUMBER_START}(\d+(?:\.\d+)?)\s?([-–~～至到])\s?(\d+(?:\.\d+)?)\s?%"),
         marked("number", lambda m: f"百分之{read_decimal(m.group(1))}{'到' if m.group(2) == '到' else '至'}"
                                     f"{read_decimal(m.group(3))}")),
        # a file's reference, capitals and numbers joined by slashes (ABC/123/2024, HAD/12/34): the numbers digit by
        # digit, as a code's are (they read 一百二十三, 兩千零二十四)
        # (the capitals start it: 128GB/256GB is two sizes)
        (LazyPattern(r"((?<![\dA-Za-z])[A-Z]{1,6}/)(\d+(?:/\d+)*)" + _NUMBER_END),
         _digit_by_digit(2, keep_prefix=True)),
        # three or more single digits joined by dashes are said one after another, not a range (4-4-2 陣式, 1-2-3)
        (LazyPattern(r"(?<!\d)(?<!\d[.\-–])\d(?:[-–]\d){2,}(?!\d|[.\-–]\d)"),
         _digits_written_apart),
        # ... and three or more numbers of one or two digits, a combination's (三重彩3-7-12): each a number, with a
        # pause between (it read 三至七至十二, a range of ranges)
        (LazyPattern(r"(?<!\d)(?<!\d[.\-–])\d{1,2}(?:[-–]\d{1,2}){2,}(?!\d|[.\-–]\d)"),
         marked("number", lambda m: read_separated(m.group(0)))),
        # a dash between a time and one that names its part of the day is a range too (上午8:00-下午3:30,
        # 9am-晚上10點, 8點-晚上10點): 至, not a pause
        (LazyPattern(r"(?:(?<=[\d\ue00f])|(?<=\d[點時]))\s?[-–~～]\s?(?=(?:上午|下午|中午|晚上|凌晨|早上|朝早|夜晚|晏晝|下晝|晚|朝)\s?[\d\ue000])"),
         lambda m: "至"),
        # a dash between a letter's digit and a code of digits and a capital is part of a model's name, not a range
        # (i7-13700H, i9-14900K: I 七 一三七零零 H)
        (LazyPattern(r"(?<=[A-Za-z]\d)-(?=\d{3,}[A-Z](?![a-z]))"), lambda m: " "),
        # ... and between capitals' digit and a speed of four digits, a pause (DDR5-6000: D D R 五, 六千; it read
        # 五至六千)
        (LazyPattern(r"(?<=[A-Z]{2}\d)-(?=\d{4}(?![\d.,]))"), lambda m: "，"),
        # a dash or tilde between numbers or times is a range: 5-6個 -> 五至六個, 9am-6pm -> 上午九點至下午六點
        # (3點-4點, 1月-3月: a number and its unit or two before the dash make it a range too; and between a
        # letter's numbers: Q1-Q3, F.1-F.3 -> Q一至Q三, F一至F三)
        (LazyPattern(r"(?:(?<=[\d%\ue00f])|(?<=\d[\u4e00-\u9fff])|(?<=\d[\u4e00-\u9fff]{2}))\s?[-–~～]\s?"
                    r"(?=[\d\ue000]|(?:(?<=[A-Z]\d-)|(?<=[A-Z][\s.]\d-))[A-Z][\s.]?\d)"), lambda m: "至"),
        # a comparison before a number, as a notice says it (CT值<30, 體溫>37.5°C, ≥30度, ±5%): 少於, 大於 …
        (LazyPattern(r"([<>≤≥≦≧≈±])\s?(?=[\d\ue000])"), lambda m: _COMPARISONS[m.group(1)]),
        # a tilde left before a number is "about", not a range's (~100人, 約~10分鐘): 大約, or the 約 written
        (LazyPattern(r"(?:(?<=^)|(?<=[\s\u4e00-\u9fff(（:：,，、;「『\"“]))(約|大約)?\s?[~～]\s?(?=[\d\ue000])"),
         lambda m: m.group(1) or "大約"),
        # a mortgage's rate off the prime rate or HIBOR (P-2.75%, H+1.3%): minus, 減, not a negative percentage
        (LazyPattern(r"(?<![A-Za-z])([PH])\s?-\s?(?=\d+(?:\.\d+)?\s?%)"), lambda m: m.group(1) + "減"),
        (LazyPattern(rf"{_NUMBER_START}-?(\d+(?:\.\d+)?)\s?%"),
         marked("number",
                 lambda m: ("負" if m.group(0).startswith("-") else "") + "百分之" + read_decimal(m.group(1)))),
        # a minus (before the decimals, which would hide its digit: -2.5 is 負二點五); before degrees it is a
        # temperature below zero, said 零下 (氣溫-5度, -3°C -> 零下五度, 零下三度)
        (LazyPattern(rf"{_MINUS_AFTER}-(?=\d+(?:\.\d+)?度)"), lambda m: "零下"),
        (LazyPattern(rf"{_MINUS_AFTER}-(?=\d)"), lambda m: "負"),
        # a hyphen between a word and its number is part of a name, said without a pause (COVID-19, G-7, F-16), and so
        # is the dot of a school form (F.5, P.6, S.3, K.3: 中五, 小六, 中三, 高班 written as Form 5, Primary 6,
        # Secondary 3, a kindergarten's third year)
        (LazyPattern(r"(?<![A-Za-z])([FPSK])\.(?=\d(?!\d|\.\d))"), lambda m: m.group(1) + " "),
        (LazyPattern(r"(?<=[A-Za-z])-(?=\d)"), lambda m: " "),
        # a version or an address of dotted numbers (2.3.1, 192.168.1.1): each number, 點 between them, as it is
        # said (二點三點一; a part of three digits or more digit by digit); a day.month.year is a date (31.12.2024)
        (LazyPattern(rf"{_NUMBER_START}\d+(?:\.\d+){{2,}}(?!\d|\.\d)"), marked("number", _dotted)),
        (LazyPattern(rf"{_NUMBER_START}(\d{{1,3}}(?:,\d{{3}})+|\d+)\.(\d+)(?!\d|\.\d)"),
         marked("number", lambda m: read_decimal(m.group(0)))),
        # digits written onto letters are a code (CX251, A380, HK01): three or more, or a leading zero, digit by
        # digit; one or two stay a number (PS5, Win10, M25)
        (LazyPattern(r"(?<=[A-Za-z])(?:0\d*|\d{3,})" + _NUMBER_END), _digit_by_digit()),
        # ... or after them and a space or a dash (CX 888, RTX 4090, SKU-20241206), unless what it counts or a size's
        # unit follows (HSBC 1000股, SSD 512GB, RAM 512MB: 五百一十二)
        (LazyPattern(rf"(?<![A-Za-z])(?<=[A-Z]{{2}} )\d{{3,}}{_NUMBER_END}(?!\s?[{_COUNTED_PAIR}])"
                    r"(?!\s?(?:[KMGTP]B|[kKMG]?Hz|mAh|Wh|W|mm|cm|ml|mL|kg)(?![A-Za-z]))"),
         _digit_by_digit()),
        # ... and three or more before a capital letter that is no unit (962X, 1205A室, 13700K, 2024Q3); one or two
        # stay a number (5A, 12B室, 40M), as do units (100M, 500G, 3000W) and ordinals (第123A章)
        (LazyPattern(r"(?<![\dA-Za-z第])(?<!\d[.,])\d{3,}(?=[ABDEHJKNPQRSUXYZ](?![A-Za-z]))"),
         _digit_by_digit()),
        # routes after their operator (城巴A21, 過海隧道巴士101、104、111): each as it is said; not a count (巴士100架)
        (LazyPattern(rf"({_ROUTE_OPERATOR}\s?)({_ROUTE}(?:\s?[、,，/及和]\s?{_ROUTE})*)(?![\d%]|[.,/:]\d)"
                    rf"(?!\s?(?:[{_COUNTED_PAIR}架輛部條]|號|線|綫))"),
         _route_list),
        # a bus route of three digits after the verb that takes it (坐962X, 搭101過海, 轉乘N170): digit by digit, as it
        # is said; not what is counted (坐300人)
        (LazyPattern(rf"({_ROUTE_VERB})([1-9]\d\d)(?![\d%]|[.,/:]\d)(?!\s?[{_COUNTED_PAIR}])"),
         _digit_by_digit(2, keep_prefix=True)),
        # ... and before the word for a route (輕鐵505綫, 城巴E21A線, 968號巴士): three digits, or two after a letter
        (LazyPattern(rf"(?:(?<![\dA-Za-z])(?<!\d\.)[1-9]\d\d|(?<=[A-Z])\d\d)(?![\d%]|[.,/:]\d)(?={_ROUTE_WORD})"),
         _digit_by_digit()),
        # ... and one of two digits after its letters (搭A21, 坐E23, 搭NA29: A 二一, E 二三), as a code's are
        (LazyPattern(rf"({_ROUTE_VERB}[A-Z]{{1,2}})(\d\d)(?![\d%]|[.,/:]\d)"
                    rf"(?!\s?[{_COUNTED_PAIR}])"),
         _digit_by_digit(2, keep_prefix=True)),
        (LazyPattern(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"), marked("number", _integer)),
    ]


# A run of digits too long for Python's int() from a string (4,300 digits) is read digit by digit, as read_integer
# reads every number from 10**16 up; a fraction's digits after its point are read so already
_HUGE_NUMBER = re.compile(r"(?<!\d)(?<!\d[.,])\d[\d,]{3999,}")


def expand_numbers(text: str) -> str:
    """Numbers, dates, times and money in ``text`` rewritten as marked Han text, by the rules in order."""
    if not any(ch.isdecimal() for ch in text):  # \d is the decimal digits (Unicode Nd), as isdecimal()
        return text
    return apply_rules(number_rules(), _HUGE_NUMBER.sub(_digit_by_digit(), text))
