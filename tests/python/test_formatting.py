"""The plots' figures print as the C++ ones do: the same cases as tests/unit/test_format.cpp."""

import math

import pytest

from clusterplots.formatting import format_figure, format_figure_compact, format_percent, format_size


@pytest.mark.parametrize("value, digits, text", [
    (457.942272, 4, "457.9"), (23327.789697, 4, "23328"), (0.0854501, 3, "0.0855"), (0, 4, "0"),
    (9.9996e6, 4, "9999600"), (1e7, 3, "1.00e+07"), (4.518e-4, 3, "4.52e-04"),
    (-12.345, 3, "-12.3"), (math.nan, 4, "-"), (-math.inf, 4, "-"),
])
def test_figure_matches_the_cpp_form(value, digits, text):
    assert format_figure(value, digits) == text


def test_compact_figure_drops_trailing_zeros():
    assert [format_figure_compact(v) for v in (7, 1.5, 175.4)] == ["7", "1.5", "175"]


def test_size_in_binary_units():
    assert [format_size(n) for n in (8, 1024, 1536, 3 * 1024**2, 1 << 40)] == \
        ["8 B", "1 KiB", "1.5 KiB", "3 MiB", "1 TiB"]


def test_percent_matches_the_cpp_form():
    assert format_percent(0.8613) == "86.1 %"
    assert format_percent(1.0, 0) == "100 %"
    assert format_percent(0.0000734) == "0.0073 %"
    assert format_percent(0.0) == "0.0 %"
    assert format_percent(None) == "-"
    assert format_percent(math.inf) == "-"
