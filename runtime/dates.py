"""Dates, times and weekdays as Hong Kong says them: 2024-03-05 -> 二零二四年三月五號, 5/12（六） -> 十二月五號星期六,
5 Dec 2026 -> 二零二六年十二月五號, 7:30pm -> 晚上七點半, Mon-Fri -> 星期一至五. Each reader takes the match of one of
normalisation's rules (number_rules.py holds the patterns and their order) and returns Han text."""

from __future__ import annotations

import re

from .numbers import read_count, read_digits, read_integer, read_separated
from .rule_gates import LazyPattern

# English month and weekday names in a date (5 Dec 2026, Dec 5, 2026, 5 December (Sat)), and the patterns that
# find them, capitalised or in capitals (a lower-case may is a word)
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
WEEKDAYS = {"mon": "一", "tue": "二", "wed": "三", "thu": "四", "fri": "五", "sat": "六", "sun": "日"}
WEEKDAY = (r"(?:Mon(?:day)?|Tue(?:s|sday)?|Wed(?:nesday)?|Thu(?:rs|rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?"
           r"|MON|TUE|WED|THU|FRI|SAT|SUN)\.?")
MONTH = (r"(?P<mon>(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP"
         r"|OCT|NOV|DEC)\.?")
# A date written without its year is checked against a leap year, so that 29/2 is a date
_ANY_LEAP_YEAR = 2024
# Words for a part of the day that a 12-hour time may follow (今晚, 聽朝, 下晝, 上午...): its am or pm adds nothing.
PARTS_OF_DAY = ("朝", "早", "晝", "午", "晚", "夜", "晨", "早上", "晚上")


# Days in each month of a common year; February has 29 in a Gregorian leap year (written out: the calendar module
# cost 7 ms of imports on every start, for this one length)
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_date(year: int, month: int, day: int) -> bool:
    """A calendar date (2024-02-30 and 2024-13-45 are not, so they are read as the numbers they are)."""
    if year < 1 or not 1 <= month <= 12:
        return False
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _MONTH_DAYS[month - 1] + leap


def read_date(m: re.Match[str], year: str, month: str, day: str, day_mark: str) -> str:
    """2024-03-05 -> 二零二四年三月五號 (the year digit by digit); not a date (2024-02-30) -> the numbers."""
    if not is_date(int(year), int(month), int(day)) and "年" not in m.group(0):  # 年月日 are said as written
        return read_separated(m.group(0))
    return f"{read_year_month(year, month)}{read_integer(int(day))}{day_mark}"


def read_year_month(year: str, month: str) -> str:
    """2025, 12 -> 二零二五年十二月: the year digit by digit, as dates say it, then the month."""
    return f"{read_digits(year)}年{read_integer(int(month))}月"


def read_day_month(m: re.Match[str]) -> str:
    """A Hong Kong day/month before its weekday: 5/12（六） -> 十二月五號星期六; not a date (31/2) -> the numbers."""
    day, month = int(m.group(1)), int(m.group(2))
    if not is_date(_ANY_LEAP_YEAR, month, day):
        return read_separated(f"{day}/{month}") + (m.group(3) or "")
    return f"{read_integer(month)}月{read_integer(day)}號" + (f"星期{m.group(3)}" if m.group(3) else "")


def said_before(pattern: re.Pattern[str], m: re.Match[str], reach: int = 24) -> bool:
    """Whether ``pattern`` (anchored with $) matches the text just before ``m``: only its last ``reach``
    characters are searched, so a text with many matches costs no more than one with few."""
    return pattern.search(m.string, max(0, m.start() - reach), m.start()) is not None


# Words that name a date (日期, a weekday: Sat 3/8 星期六, 禮拜三(11/12), the eves 除夕 and 平安夜, the holidays of a
# fixed date: 聖誕節係12/24, 情人節2/14), and what may come between them and the date (a bracket: 禮拜三(11/12))
_DATE_WORDS = (r"日期|除夕|平安夜|聖誕節?|情人節|元旦|萬聖節|(?<![A-Za-z])(?i:date)"
               r"|(?:星期|禮拜)[一二三四五六日天]\ue00f?")
_TO_THE_DATE = r"[\s:：係為是(（]*$"
# Words before a bare day/month that make it a date, those and the words that may come before a number too (截止日期
# 係1/3, 喺3/4): there even 1/3 is not a third
_DATE_BEFORE = re.compile(rf"(?:截止|於|喺|{_DATE_WORDS}){_TO_THE_DATE}")


# ... and those before a day and month written with a dot (平安夜12.24, 日期：24.12), which elsewhere is a decimal: only
# the words that name a date, not 於, 喺 or 截止
_DOTTED_DATE_BEFORE = LazyPattern(rf"(?:{_DATE_WORDS}){_TO_THE_DATE}", gated=False)


# ... and words after which n/m is never a date: an eye's acuity (視力6/6, 6/12: 六，六; 六，十二)
_NOT_A_DATE_BEFORE = LazyPattern(r"視力[\s:：係為是]*$", gated=False)
# ... or a holiday's name just after either (12.24平安夜, 12/24聖誕; 2.14情人節 is the day's name, 二一四: number_rules)
_HOLIDAY_AFTER = LazyPattern(r"\s?(?:平安夜|聖誕|除夕|元旦|萬聖節)", gated=False)


def read_dotted_day_month(m: re.Match[str]) -> str:
    """12.24 or 24.12 as a date (十二月二十四號) where a word that names a date comes just before it or a holiday
    just after it, as ``read_bare_day_month`` reads 24/12; elsewhere left as written, a decimal."""
    if said_before(_DOTTED_DATE_BEFORE, m) or _HOLIDAY_AFTER.match(m.string, m.end()):
        return _day_month_pair(m, date_word=True)
    return m.group(0)


def read_bare_day_month(m: re.Match[str]) -> str:
    """A day/month with no year or weekday (5/3開會, 12/12, 5/3-8/3): a date where only a date makes sense, the day
    not before the month (a fraction of one or more is rare in prose), a zero written before a day or a month
    (03/05: no fraction is written so) or a word for a date before it or a holiday after it; a proper fraction with
    nothing around it (1/3人口), 24/7 and what is no date (31/2) are left as written for the number rules."""
    if said_before(_NOT_A_DATE_BEFORE, m):
        return read_separated(m.group(0))
    return _day_month_pair(m, said_before(_DATE_BEFORE, m) or bool(_HOLIDAY_AFTER.match(m.string, m.end())))


def _day_month_pair(m: re.Match[str], date_word: bool) -> str:
    """Groups 1-2 (and 3-4, a range's end) as day and month, or as month and day where only that is a date and
    a range or ``date_word`` says it is one."""
    days = [(int(m.group(1)), int(m.group(2)))] + ([(int(m.group(3)), int(m.group(4)))] if m.group(3) else [])
    dated = all(is_date(_ANY_LEAP_YEAR, month, day) for day, month in days)
    if not dated and (m.group(3) or date_word):
        # no date day first, but one month first in a range or after a word for a date, as English writes it
        # (12/24-12/26, 除夕12/31, 日期：12/25): 十二月三十一號
        days = [(month, day) for day, month in days]
        dated = all(is_date(_ANY_LEAP_YEAR, month, day) for day, month in days)
    if not dated or (24, 7) in days:
        return m.group(0)
    padded = any(part.startswith("0") for part in m.groups() if part)
    if not (any(day >= month for day, month in days) or padded or date_word):
        return m.group(0)
    return "至".join(f"{read_integer(month)}月{read_integer(day)}號" for day, month in days)


# Words for a race or a timing before m'ss" (跑5'10", 配速5'30"): there it is minutes and seconds, even where the
# seconds could be inches (below 12)
# (not the time of day something happens at: 開會時間係3:30:00, 集合時間, 登機時間 are a clock's)
_AT_A_TIME_OF_DAY = ("開會|會議|開始|結束|集合|出發|營業|辦公|登機|起飛|抵達|到達|開放|截止|見面|上課|放學|返工|"
                     "放工|開門|關門")
_TIMING_BEFORE = re.compile(rf"(?:跑|游|踩單車|配速|(?i:pace)|(?<!{_AT_A_TIME_OF_DAY})時間|成績|用時|計時|紀錄|記錄|"
                            r"用咗)[^\d]{0,4}$")


def read_minutes_seconds(m: re.Match[str]) -> str:
    """m'ss" (and m'ss"hh) as a race's time, 五分十秒(四五), where it cannot be a height (12 seconds or more, or
    hundredths after it) or a word for a race or timing comes before it; otherwise left as written (5'10" may be
    feet and inches)."""
    minutes, seconds, hundredths = int(m.group(1)), int(m.group(2)), m.group(3)
    if seconds < 12 and not hundredths and not said_before(_TIMING_BEFORE, m):
        return m.group(0)
    if not (seconds or hundredths):
        return f"{read_count(minutes)}分鐘"
    return minutes_and_seconds(minutes, seconds) + (read_digits(hundredths) if hundredths else "")


def minutes_and_seconds(minutes: int, seconds: int) -> str:
    """5, 8 -> 五分零八秒, 2, 8 -> 兩分零八秒: a race's or a timer's time, as it is said."""
    return f"{read_count(minutes)}分{'零' if 0 < seconds < 10 else ''}{read_integer(seconds)}秒"


def years_said(first: str, second: str | None = None) -> str:
    """A year digit by digit, and a span's second year after 至 (2024, 25 -> 二零二四至二五)."""
    return read_digits(first) + (f"至{read_digits(second)}" if second else "")


def read_year_span(m: re.Match[str]) -> str:
    """2024/25, 2024-25, 1990-1999 without 年 after: a season or a span of years, both digit by digit, where the
    second year follows the first within ten (二零二四至二五); otherwise left as written for the number rules."""
    first, second = m.group(1), m.group(2)
    end = int(second) if len(second) == 4 else int(first) // 100 * 100 + int(second)
    if not int(first) < end <= int(first) + 10:
        return m.group(0)
    return years_said(first, second)


def read_english_date(m: re.Match[str]) -> str:
    """5 Dec 2026, Dec 5, 2026 -> 二零二六年十二月五號, Jan 2026 -> 二零二六年一月: a date written with an English
    month, said as Cantonese says dates; a word that is not a month's name (Decimal) or a day not in the month
    (31 Feb) is left as written."""
    name, day, year = m.group("mon").lower(), m.groupdict().get("day"), m.group("year")
    month = next((i for i, full in enumerate(MONTHS, 1) if name in (full, full[:3]) or name == "sept" == full[:4]),
                 None)
    if month is None or not is_date(int(year) if year else _ANY_LEAP_YEAR, month, int(day or 1)):
        return m.group(0)
    return (read_year_month(year, str(month)) if year else f"{read_integer(month)}月") + (
        f"{read_integer(int(day))}號" if day else "")


def read_weekday_range(m: re.Match[str]) -> str:
    """Mon-Fri -> 星期一至五, as opening hours are said."""
    return f"{read_weekday(m.group(1))}至{_weekday_numeral(m.group(2))}"


def read_weekday(name: str) -> str:
    """The weekday in brackets after a date, Han (六) or English (Sat), as it is said: 星期六."""
    return f"星期{_weekday_numeral(name)}"


def _weekday_numeral(name: str) -> str:
    """Sat, saturday, SAT -> 六; a Han weekday (六, 日, 天) stays as written."""
    return WEEKDAYS.get(name[:3].lower(), name)


def read_time(m: re.Match[str]) -> str:
    """14:30 -> 十四點半, 3:05:07 -> 三點零五分七秒; h:mm:ss after a word for a race or timing is how long it took
    (時間係1:45:30 -> 一小時四十五分三十秒)."""
    hour, minute, second = int(m.group(1)), int(m.group(2)), m.group(3)
    if second and said_before(_TIMING_BEFORE, m):
        parts = ((hour, read_count(hour) + "小時"), (minute, read_integer(minute) + "分"),
                 (int(second), read_integer(int(second)) + "秒"))
        return "".join(said for amount, said in parts if amount) or "零秒"
    return clock(hour, minute, second)


def read_twelve_hour(m: re.Match[str]) -> str:
    """9am -> 上午九點, 7:30pm -> 晚上七點半: the part of the day as Cantonese says it, then the clock time."""
    hour, minute, pm = int(m.group(1)), int(m.group(2) or 0), m.group(3).lower() == "p"
    if not 1 <= hour <= 12:
        return m.group(0)
    return _part_of_day(m, hour, pm) + clock(hour, minute, None)


def _part_of_day(m: re.Match[str], hour: int, pm: bool) -> str:
    """The part of the day before a twelve-hour time (上午, 下午, 晚上 …), or nothing where the text says it already
    (今晚7:30pm is 今晚七點半)."""
    if m.string[: m.start()].rstrip().endswith(PARTS_OF_DAY):
        return ""
    if pm:
        return "中午" if hour == 12 else "下午" if hour <= 6 else "晚上"
    return "凌晨" if hour == 12 or hour < 6 else "上午"


def read_twelve_hour_range(m: re.Match[str]) -> str:
    """2-4pm -> 下午兩點至四點, 7-9:30pm -> 晚上七點至九點半: a range whose end alone says am or pm, its part of the day
    said once, first, from the start's hour (11-12pm runs to noon: 上午十一點至十二點); where the start is past the end
    (11-1pm: the morning) it is left as written."""
    start, start_minute, end, end_minute = int(m.group(1)), int(m.group(2) or 0), int(m.group(3)), int(m.group(4) or 0)
    if not (1 <= start <= 12 and 1 <= end <= 12) or (start > end and start != 12):
        return m.group(0)
    pm = m.group(5).lower() == "p"
    part = _part_of_day(m, start, pm if end != 12 or start == 12 else not pm)  # 11-12pm: to noon, from the morning
    return part + clock(start, start_minute, None) + "至" + clock(end, end_minute, None)


def clock(hour: int, minute: int, second: str | None) -> str:
    """The hour with 點 (兩點, the counting form), :30 as 半, other minutes with 分, seconds with 秒 (none said for
    :00, as 3:30:00 is 三點半)."""
    if second is not None and not int(second):
        second = None
    text = read_count(hour) + "點"
    if minute == 30 and not second:
        text += "半"
    elif minute or second:
        text += ("零" if minute < 10 else "") + read_integer(minute) + "分"
    if second:
        text += read_integer(int(second)) + "秒"
    return text
