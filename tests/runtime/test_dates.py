"""The date and time readers, on their own: what normalisation's rules hand them and what they say."""

import re

import pytest

from cantoedge.runtime.dates import MONTH, WEEKDAY, clock, is_date, read_english_date, read_weekday, read_weekday_range


@pytest.mark.parametrize("year, month, day, valid", [(2024, 2, 29, True), (2023, 2, 29, False), (2024, 13, 1, False),
                                                     (2024, 4, 31, False), (0, 1, 1, False)])
def test_is_date_knows_the_calendar(year, month, day, valid):
    assert is_date(year, month, day) is valid


@pytest.mark.parametrize("hour, minute, second, said", [(2, 0, None, "兩點"), (14, 30, None, "十四點半"),
                                                        (3, 5, None, "三點零五分"), (3, 30, "07", "三點三十分七秒")])
def test_clock_says_the_hour_with_its_counting_form(hour, minute, second, said):
    assert clock(hour, minute, second) == said


@pytest.mark.parametrize("text, said", [("5 Dec 2026", "二零二六年十二月五號"), ("5 September", "九月五號"),
                                        ("5 Sept", "九月五號"), ("5 Decimal", "5 Decimal"), ("31 Feb", "31 Feb")])
def test_an_english_month_is_read_only_when_it_is_a_month_and_the_day_is_in_it(text, said):
    m = re.fullmatch(rf"(?P<day>\d+) {MONTH}(?: (?P<year>\d{{4}}))?", text)
    assert read_english_date(m) == said


@pytest.mark.parametrize("name, said", [("六", "星期六"), ("Sat", "星期六"), ("saturday", "星期六"), ("SUN", "星期日")])
def test_a_weekday_is_said_with_xingqi(name, said):
    assert read_weekday(name) == said


def test_a_weekday_range_is_said_once():
    m = re.fullmatch(rf"({WEEKDAY})-({WEEKDAY})", "Mon-Fri")
    assert read_weekday_range(m) == "星期一至五"


def test_is_date_knows_every_months_length_as_the_calendar_module_does():
    """The month lengths are written out (the calendar module cost 7 ms of imports a start): leap years included."""
    import calendar

    for year in (1, 1900, 1996, 2000, 2023, 2024, 2100, 2400):
        for month in range(0, 14):
            for day in range(0, 33):
                expected = 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]
                assert is_date(year, month, day) == expected, (year, month, day)
