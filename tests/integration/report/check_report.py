#!/usr/bin/env python3
"""Checks what `clusterbench report --html F --plots D` wrote (used by the report tests).

    check_report.py html REPORT.html REPORT.md PLOTS_DIR
        the page is self-contained: every figure the Markdown links is embedded as a base64 PNG
        whose bytes equal the file's, nothing is fetched (no http(s), script, link or file
        reference), and the tables and headings are there.
    check_report.py screenshot SHOT.png WIDTH HEIGHT
        a screenshot is a PNG of that size and not blank: dark text on it, pixels that vary.
    check_report.py plots SHOT.png WIDTH HEIGHT
        the same, and a plot is on it: at least PLOT_PIXELS pixels within PLOT_TOLERANCE of the
        colours plots/clusterplots draws curves in, spread over at least PLOT_SPAN pixels each way
        (the page's own text, borders and table shading are greys, far from any of them).

Exit 0 when the checks pass; 1 with one line per problem otherwise.
"""

import base64
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS_DIR = os.path.join(HERE, "..", "..", "..", "plots")
# A curve of one figure at 100 dpi, markers and the band's edges: thousands of pixels; a stray
# swatch or anti-aliased text: none (the page has no colour but greys and one amber note).
PLOT_PIXELS = 300
PLOT_TOLERANCE = 0.08  # per channel, of 1: anti-aliased line cores still match
PLOT_SPAN = 100


def check_html(html_path, md_path, plots_dir):
    problems = []
    html = open(html_path, encoding="utf-8").read()
    md = open(md_path, encoding="utf-8").read()
    linked = re.findall(r"!\[[^\]]*\]\(<?([^)>]+)>?\)", md)
    if not linked:
        problems.append(f"{md_path}: links no figure")
    pngs = sorted(f for f in os.listdir(plots_dir) if f.endswith(".png"))
    if sorted(os.path.basename(p) for p in linked) != pngs:
        problems.append(f"{md_path}: links {sorted(linked)}, {plots_dir} holds {pngs}")
    embedded = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,([A-Za-z0-9+/=]+)">', html)
    if len(embedded) != len(linked):
        problems.append(f"{html_path}: embeds {len(embedded)} figures, the Markdown links {len(linked)}")
    files = {os.path.basename(p): open(p, "rb").read() for p in linked if os.path.exists(p)}
    for alt, data in embedded:
        raw = base64.b64decode(data, validate=True)
        if not raw.startswith(b"\x89PNG\r\n\x1a\n"):
            problems.append(f"{html_path}: figure {alt} is not a PNG")
        elif files.get(alt) != raw:
            problems.append(f"{html_path}: figure {alt} differs from the file")
    for pattern in ("http://", "https://", "<script", "<link", 'src="file:', "src=\"/"):
        if pattern in html:
            problems.append(f"{html_path}: contains {pattern!r}: the page must need nothing else")
    if embedded and '<figure id="figure-1">' not in html:
        problems.append(f"{html_path}: the first figure lacks its anchor id=\"figure-1\"")
    for needed in ("<!DOCTYPE html>", "<style>", "<h2>Headline</h2>", "<table>",
                   "Limits scaling first:"):
        if needed not in html:
            problems.append(f"{html_path}: lacks {needed!r}")
    return problems


def check_screenshot(path, width, height):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import numpy as np

    problems = []
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            return [f"{path}: not a PNG"]
    pixels = mpimg.imread(path)[..., :3]
    if pixels.shape[:2] != (height, width):
        problems.append(f"{path}: {pixels.shape[1]}x{pixels.shape[0]}, expected {width}x{height}")
    dark = float((pixels.max(axis=2) < 0.35).mean())
    if dark < 0.002:
        problems.append(f"{path}: almost no dark pixels ({dark:.4f}): no text rendered")
    if float(np.std(pixels)) < 0.02:
        problems.append(f"{path}: blank (pixel standard deviation {np.std(pixels):.4f})")
    return problems


def plot_colours():
    """The colours of plots/clusterplots' curves, less its grey (anti-aliased text is grey too)."""
    sys.path.insert(0, PLOTS_DIR)
    from clusterplots.layout import COLOURS
    rgb = []
    for c in COLOURS:
        value = tuple(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))
        if max(value) - min(value) > 0.1:
            rgb.append((c, value))
    return rgb


def check_plots(path, width, height):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import numpy as np

    problems = check_screenshot(path, width, height)
    if problems and problems[0].endswith("not a PNG"):
        return problems
    pixels = mpimg.imread(path)[..., :3]
    hits = np.zeros(pixels.shape[:2], dtype=bool)
    for _, value in plot_colours():
        hits |= np.abs(pixels - np.array(value)).max(axis=2) <= PLOT_TOLERANCE
    count = int(hits.sum())
    if count < PLOT_PIXELS:
        problems.append(f"{path}: {count} pixels in the plots' colours, expected at least "
                        f"{PLOT_PIXELS}: no plot on it")
        return problems
    rows, columns = np.nonzero(hits)
    span = (int(columns.max() - columns.min()), int(rows.max() - rows.min()))
    if min(span) < PLOT_SPAN:
        problems.append(f"{path}: the plot-coloured pixels span only {span[0]}x{span[1]}, "
                        f"expected at least {PLOT_SPAN} each way: not a plot")
    return problems


def main(argv):
    if len(argv) == 5 and argv[1] == "html":
        problems = check_html(argv[2], argv[3], argv[4])
    elif len(argv) == 5 and argv[1] == "screenshot":
        problems = check_screenshot(argv[2], int(argv[3]), int(argv[4]))
    elif len(argv) == 5 and argv[1] == "plots":
        problems = check_plots(argv[2], int(argv[3]), int(argv[4]))
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for p in problems:
        print(f"check_report.py: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
