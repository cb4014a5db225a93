"""useful_work.png: scaling efficiency, goodput and useful work against GPUs from the report's
goodput figures (--goodput), and bad figures refused naming the field."""

import json
import os
import subprocess
import sys

from matplotlib import image as mpimg

from plot_fixtures import PLOT_SCRIPT


def write_run(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps({
        "schema": "clusterbench.results", "schema_version": 1, "run": {"backend": "host"},
        "records": []}))
    return path


def write_goodput(tmp_path, rows):
    path = tmp_path / "goodput.json"
    path.write_text(json.dumps({"at": rows}))
    return path


def plot(*args):
    return subprocess.run([sys.executable, PLOT_SCRIPT, *map(str, args)], capture_output=True,
                          text=True, check=False)


ROWS = [{"gpus": 1, "goodput": 0.999, "extrapolated": False},
        {"gpus": 8, "goodput": 0.995, "extrapolated": False},
        {"gpus": 64, "goodput": 0.98, "efficiency": 0.9, "useful_work": 0.882,
         "extrapolated": True},
        {"gpus": 1024, "goodput": 0.94, "efficiency": 0.81, "useful_work": 0.7614,
         "extrapolated": True}]


def test_useful_work_is_drawn_from_the_goodput_figures(tmp_path):
    out = tmp_path / "out"
    p = plot(write_run(tmp_path), "--out", out, "--goodput", write_goodput(tmp_path, ROWS))
    assert p.returncode == 0, p.stderr
    png = out / "useful_work.png"
    assert str(png) in p.stdout.splitlines()
    assert mpimg.imread(png).shape[0] > 100


def test_without_goodput_figures_there_is_no_useful_work_plot(tmp_path):
    out = tmp_path / "out"
    p = plot(write_run(tmp_path), "--out", out)
    assert p.returncode == 0, p.stderr
    assert not os.path.exists(out / "useful_work.png")


def test_a_share_outside_zero_to_one_is_refused_naming_the_field(tmp_path):
    rows = [dict(ROWS[0]), dict(ROWS[2], useful_work=1.7)]
    p = plot(write_run(tmp_path), "--out", tmp_path / "out", "--goodput",
             write_goodput(tmp_path, rows))
    assert p.returncode == 2
    assert "at[1].useful_work" in p.stderr
    p = plot(write_run(tmp_path), "--out", tmp_path / "out", "--goodput",
             write_goodput(tmp_path, [{"gpus": 0, "goodput": 0.5}]))
    assert p.returncode == 2
    assert "at[0]" in p.stderr
