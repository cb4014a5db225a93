"""How the plots print figures, sizes and percentages: the Python side of harness/core/format.hpp.

Each function mirrors the C++ one of the same name, so a figure on a plot reads as it does in the
report; tests/python/test_formatting.py pins both to the same cases. Only what the plots print is
mirrored. Not-finite values are left to the caller, which knows whether "∞" or "—" says it better.
"""

import math

_BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


def format_figure(value, digits=4):
    """`digits` significant digits, an exponent only outside 1e-3..1e7: 457.942 -> '457.9',
    0 -> '0', 2.5e8 (3) -> '2.50e+08'; '-' for NaN or infinity (C++ format_figure)."""
    value = float(value)
    if not math.isfinite(value):
        return "-"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude < 1e-3 or magnitude >= 1e7:
        return f"{value:.{digits - 1}e}"
    leading = math.floor(math.log10(magnitude))
    return f"{value:.{max(0, digits - 1 - leading)}f}"


def format_figure_compact(value):
    """Three significant digits without trailing zeros: 7 -> '7', 1.5 -> '1.5', 175.4 -> '175'
    (C++ format_figure_compact, printf's %.3g)."""
    return f"{float(value):.3g}"


def format_size(n):
    """A size in binary units as it is configured: 1024 -> '1 KiB', 3 * 1024**2 -> '3 MiB',
    1536 -> '1.5 KiB', 8 -> '8 B'. The axis and legend form of message and block sizes."""
    value = float(n)
    unit = 0
    while abs(value) >= 1024 and unit < len(_BINARY_UNITS) - 1:
        value /= 1024
        unit += 1
    text = f"{value:.0f}" if value == int(value) else format_figure_compact(value)
    return f"{text} {_BINARY_UNITS[unit]}"


def format_percent(fraction, decimals=1):
    """A fraction as a percentage: 0.8613 -> '86.1 %'; under 1 % two significant digits
    (0.0000734 -> '0.0073 %'); '-' when absent or not finite (C++ format_percent)."""
    if fraction is None or not math.isfinite(fraction):
        return "-"
    percent = fraction * 100
    if percent != 0 and abs(percent) < 1 and decimals > 0:
        return f"{percent:.2g} %"
    return f"{percent:.{decimals}f} %"
