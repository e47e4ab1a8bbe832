"""The device side's input limits, checked by the API itself (the CLI states the same ranges)."""

import math

import pytest

from cantoedge.runtime.limits import MAX_TEXT_CHARS, SPEED_MAX, SPEED_MIN, check_speed, check_text


@pytest.mark.parametrize("speed", [0.0, -1.0, 0.01, 100.0, math.inf, math.nan, SPEED_MIN / 2, SPEED_MAX * 1.01,
                                   True, "1", None])
def test_speeds_outside_the_range_are_refused_with_the_range_named(speed):
    with pytest.raises(ValueError, match=f"{SPEED_MIN:g}..{SPEED_MAX:g}"):
        check_speed(speed)


@pytest.mark.parametrize("speed", [SPEED_MIN, 1.0, SPEED_MAX])
def test_speeds_inside_the_range_pass(speed):
    assert check_speed(speed) == speed


def test_text_over_the_limit_is_refused_before_any_work():
    assert check_text("你" * MAX_TEXT_CHARS)
    with pytest.raises(ValueError, match=f"{MAX_TEXT_CHARS:,}"):
        check_text("你" * (MAX_TEXT_CHARS + 1))


@pytest.mark.parametrize("text", [None, b"\xe4\xbd\xa0", 123, ["你好"]])
def test_text_that_is_not_a_string_is_refused_by_name(text):
    with pytest.raises(TypeError, match=f"text must be a str, got {type(text).__name__}"):
        check_text(text)
