"""plots/plot.py end to end: the figures it writes for the fixture runs, and how it refuses bad
input.

Run: /usr/bin/python3 -m pytest -q tests/python
"""

import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest
from matplotlib import image as mpimg
from matplotlib.colors import to_rgb

from plot_fixtures import FIXTURES, GPU_RUN, HOST_RUN, PLOT_SCRIPT

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DPI = 100
HEADER_IN = 0.7
FIRST_LINE_COLOUR = "#1f77b4"

# Pixel size of each figure for the fixtures: panels x inches per panel (+ the title header) x DPI.
EXPECTED_SIZES = {
    "efficiency_collectives.png": (1 * 7.0, 1 * 4.8),        # one panel, two curves
    "efficiency_compute.png": (1 * 7.0, 1 * 4.8),            # copy, triad
    "efficiency_storage.png": (1 * 7.0, 1 * 4.8),            # seq_read x 2 blocks, rand_read
    "busbw_vs_size.png": (2 * 6.4, 1 * 4.6),                 # all_gather, all_reduce
    "storage_readers.png": (2 * 6.4, 1 * 4.6),               # rand_read, seq_read
    "link_matrix_pair_bw.png": (2 * (5.0 + 1.8), 5.0 + 1.3),  # uni and bi, 4 x 4
    "overlay_efficiency.png": (3 * 6.4, 2 * 4.4),            # 3 suites x (metric, efficiency)
    "overlay_busbw_vs_size.png": (2 * 6.4, 1 * 4.4),
}


def run_plot(*args):
    return subprocess.run([sys.executable, PLOT_SCRIPT, *args], capture_output=True, text=True,
                          timeout=300)


def png_size(path):
    """(width, height) from the IHDR chunk, after checking the signature and the chunk's CRC."""
    with open(path, "rb") as f:
        data = f.read(33)
    assert data[:8] == PNG_SIGNATURE, f"{path}: not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13, f"{path}: first chunk is not IHDR"
    (crc,) = struct.unpack(">I", data[29:33])
    assert zlib.crc32(data[12:29]) == crc, f"{path}: IHDR CRC mismatch"
    return struct.unpack(">II", data[16:24])


def distinct_colours(pixels):
    rgb = (pixels[..., :3] * 255).round().astype(np.uint8).reshape(-1, 3)
    return len(np.unique(rgb, axis=0))


def pixels_of(pixels, colour, tolerance=2):
    target = np.array(to_rgb(colour)) * 255
    diff = np.abs(pixels[..., :3] * 255 - target)
    return int(np.count_nonzero(np.all(diff <= tolerance, axis=-1)))


@pytest.fixture(scope="module")
def overlay_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("figures")
    result = run_plot(HOST_RUN, "--out", str(out), "--svg", "--title", "fixture",
                      "--overlay", GPU_RUN)
    assert result.returncode == 0, result.stderr
    return out, result


def test_fixtures_are_what_the_generator_writes(tmp_path):
    generated = subprocess.run([sys.executable, os.path.join(FIXTURES, "make_fixture.py"),
                                str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert generated.returncode == 0, generated.stderr
    for name in ("host_cluster.json", "gpu_cluster.json"):
        with open(tmp_path / name, "rb") as fresh, open(os.path.join(FIXTURES, name), "rb") as kept:
            assert fresh.read() == kept.read(), f"{name}: rerun make_fixture.py and commit"


def test_prints_every_written_path_one_per_line(overlay_run):
    out, result = overlay_run
    printed = result.stdout.splitlines()
    expected = {os.path.join(str(out), name) for name in EXPECTED_SIZES}
    expected |= {p[:-4] + ".svg" for p in expected}
    assert set(printed) == expected
    assert len(printed) == len(expected)
    assert sorted(os.listdir(out)) == sorted(os.path.basename(p) for p in expected)


@pytest.mark.parametrize("name", sorted(EXPECTED_SIZES))
def test_png_is_valid_and_sized_for_its_panels(overlay_run, name):
    out, _ = overlay_run
    width_in, height_in = EXPECTED_SIZES[name]
    assert png_size(out / name) == (round(width_in * DPI), round((height_in + HEADER_IN) * DPI))


@pytest.mark.parametrize("name", sorted(EXPECTED_SIZES))
def test_png_is_not_blank(overlay_run, name):
    out, _ = overlay_run
    pixels = mpimg.imread(str(out / name))
    assert distinct_colours(pixels) > 50
    white = np.all(pixels[..., :3] > 0.99, axis=-1)
    assert 0.02 < 1.0 - white.mean() < 0.9


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED_SIZES if "matrix" not in n))
def test_line_plots_draw_their_data_in_colour(overlay_run, name):
    out, _ = overlay_run
    pixels = mpimg.imread(str(out / name))
    assert pixels_of(pixels, FIRST_LINE_COLOUR) > 100


def test_heatmap_spans_the_colour_map(overlay_run):
    out, _ = overlay_run
    pixels = mpimg.imread(str(out / "link_matrix_pair_bw.png"))
    # viridis runs from dark purple to yellow: both ends appear in the colour bar and the cells.
    assert pixels_of(pixels, "#440154", tolerance=12) > 50
    assert pixels_of(pixels, "#fde725", tolerance=12) > 50


def svg_text(out, name):
    with open(out / name, encoding="utf-8") as f:
        return f.read()


def test_titles_name_the_cluster_and_the_case(overlay_run):
    out, _ = overlay_run
    host = "n1 (+1 host) · Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz · host"
    efficiency = svg_text(out, "efficiency_compute.svg")
    assert "fixture: compute scaling efficiency" in efficiency
    assert host in efficiency
    assert "copy" in efficiency and "triad" in efficiency
    matrix = svg_text(out, "link_matrix_pair_bw.svg")
    assert "pair_bw, unidirectional, 4 GPUs" in matrix
    assert "GB/s per direction" in matrix


def test_axes_carry_units(overlay_run):
    out, _ = overlay_run
    assert "bus bandwidth (GB/s)" in svg_text(out, "busbw_vs_size.svg")
    assert "message size (bytes" in svg_text(out, "busbw_vs_size.svg")
    assert "aggregate read throughput (GB/s)" in svg_text(out, "storage_readers.svg")
    assert "readers (GPUs)" in svg_text(out, "storage_readers.svg")
    assert "efficiency (%)" in svg_text(out, "efficiency_storage.svg")


def test_efficiency_legend_names_the_model_and_its_source(overlay_run, tmp_path):
    out, _ = overlay_run
    host = svg_text(out, "efficiency_compute.svg")
    assert "no fit stored" in host and "α=" not in host   # host run has no fits: none drawn
    assert "extrapolated to 4× N" in host and "95 % bootstrap band" in host
    result = run_plot(GPU_RUN, "--out", str(tmp_path), "--svg")
    assert result.returncode == 0, result.stderr
    assert "from fits" in svg_text(tmp_path, "efficiency_compute.svg")


def test_overlay_legend_names_both_runs(overlay_run):
    out, _ = overlay_run
    for name in ("overlay_efficiency.svg", "overlay_busbw_vs_size.svg"):
        text = svg_text(out, name)
        assert "A: n1 (+1 host) · Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz · host " \
               "(host_cluster.json)" in text
        assert "B: gpu-node-07 · NVIDIA H200 · cuda (gpu_cluster.json)" in text


def test_overlay_draws_run_b_dashed(overlay_run):
    # Run A alone has no dashed line in busbw_vs_size; the overlay adds B's 3 GPU counts dashed in
    # each of its 2 panels (SVG writes a dashed stroke as stroke-dasharray).
    out, _ = overlay_run
    assert svg_text(out, "busbw_vs_size.svg").count("stroke-dasharray") == 0
    assert svg_text(out, "overlay_busbw_vs_size.svg").count("stroke-dasharray") >= 2 * 3


def test_missing_kinds_are_skipped_with_a_note(tmp_path):
    with open(HOST_RUN, encoding="utf-8") as f:
        results = json.load(f)
    results["records"] = [r for r in results["records"] if r["suite"] == "storage"]
    only_storage = tmp_path / "storage_only.json"
    only_storage.write_text(json.dumps(results), encoding="utf-8")
    out = tmp_path / "figures"
    result = run_plot(str(only_storage), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(os.path.basename(p) for p in result.stdout.splitlines()) == \
        ["efficiency_storage.png", "storage_readers.png"]
    assert "busbw_vs_size skipped" in result.stderr
    assert "link matrix plots skipped" in result.stderr


def test_a_thousand_node_link_matrix_is_drawn_at_a_bounded_size(tmp_path):
    # 1,024 nodes: at 0.55 in a cell and a number in each, the figure would pass what a PNG can
    # hold and take a million text labels. It is drawn without numbers, at the cap.
    results = load_host()
    size = 1024
    rng = np.random.default_rng(1)
    links = [r for r in results["records"] if "matrix" in r.get("extra", {})]
    for r in links:
        matrix = rng.uniform(20.0, 25.0, (size, size))
        np.fill_diagonal(matrix, np.nan)
        r["extra"]["matrix"] = [[None if np.isnan(v) else float(v) for v in row] for row in matrix]
        r["extra"]["matrix_of"] = "nodes"
        r["extra"].pop("matrix_members", None)
    results["records"] = links
    out = tmp_path / "figures"
    result = run_plot(write_json(tmp_path / "big.json", results), "--out", str(out))
    assert result.returncode == 0, result.stderr
    width, height = png_size(str(out / "link_matrix_pair_bw.png"))
    assert width <= 2 * (32 * 0.55 + 1.8) * DPI + 1 and height <= (32 * 0.55 + 1.3 + HEADER_IN) * DPI + 1


def write_json(path, obj):
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def load_host():
    with open(HOST_RUN, encoding="utf-8") as f:
        return json.load(f)


def bad_status():
    results = load_host()
    results["records"][3]["status"] = "great"
    return results


def bad_matrix():
    results = load_host()
    for r in results["records"]:
        if "matrix" in r.get("extra", {}):
            r["extra"]["matrix"][1] = [1.0, 2.0]
            break
    return results


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    (json.dumps([1, 2]), "not a clusterbench results file"),
    (json.dumps({"schema": "other", "schema_version": 1}), "field 'schema' is 'other'"),
    (json.dumps({"schema": "clusterbench.results", "schema_version": 2, "run": {},
                 "records": []}), "field 'schema_version' is 2"),
    (json.dumps({"schema": "clusterbench.results", "schema_version": 1, "run": {}}),
     "missing field 'records'"),
    (bad_status, "records[3]: field 'status' is 'great', allowed ok|noisy|skipped|failed"),
    (bad_matrix, "field 'extra.matrix': row 1 must be an array of 4 values"),
    ('{"schema": "clusterbench.results", "schema_version": 1, "run": {}, "records": [], '
     '"run": {"id": "other"}}', "key 'run' appears twice in one object"),
])
def test_invalid_results_exit_2_naming_the_file(tmp_path, content, message):
    path = tmp_path / "bad.json"
    if callable(content):
        write_json(path, content())
    else:
        path.write_text(content, encoding="utf-8")
    result = run_plot(str(path), "--out", str(tmp_path / "figures"))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"plot.py: {path}: ")
    assert message in lines[0]


def test_unreadable_results_exit_2(tmp_path):
    missing = tmp_path / "absent.json"
    result = run_plot(str(missing), "--out", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip() == f"plot.py: {missing}: cannot open: No such file or directory"


def test_invalid_overlay_exit_2_naming_it(tmp_path):
    bad = write_json(tmp_path / "b.json", {"schema": "clusterbench.results"})
    result = run_plot(HOST_RUN, "--out", str(tmp_path / "figures"), "--overlay", bad)
    assert result.returncode == 2
    assert result.stderr.strip() == f"plot.py: {bad}: missing field 'schema_version'"
    assert not (tmp_path / "figures").exists()      # nothing is drawn from half the input


def test_out_that_is_a_file_exits_2_naming_the_flag(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = run_plot(HOST_RUN, "--out", str(blocker))
    assert result.returncode == 2
    assert result.stderr.startswith(f"plot.py: --out {blocker}: ")


def test_missing_out_flag_is_a_usage_error(tmp_path):
    result = run_plot(HOST_RUN)
    assert result.returncode == 2
    assert "--out" in result.stderr
