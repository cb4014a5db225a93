"""step_anatomy.png: the measured training step's parts per GPU count and its efficiency against
the report's prediction (--prediction)."""

import json
import os
import subprocess
import sys

from matplotlib import image as mpimg

from plot_fixtures import PLOT_SCRIPT


def step_record(gpus, step, compute, exposed, wait):
    return {"suite": "workload", "case": "data_parallel_step",
            "params": {"model_params": 1e6, "tokens_per_gpu": 256, "overlap": "on"},
            "gpus": gpus, "nodes": 1, "ranks_per_node": gpus, "samples_s": [step] * 5,
            "stats": {"median_s": step}, "check": "pass", "status": "ok",
            "metrics": {"step_s": step, "compute_s": compute, "exposed_comm_s": exposed,
                        "input_wait_s": wait, "utilization": compute / step}}


def write_run(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps({
        "schema": "clusterbench.results", "schema_version": 1, "run": {"backend": "host"},
        "records": [step_record(1, 0.10, 0.10, 0.0, 0.0), step_record(2, 0.125, 0.1, 0.02, 0.005),
                    step_record(4, 0.14, 0.1, 0.03, 0.01)]}))
    return path


def plot(*args):
    return subprocess.run([sys.executable, PLOT_SCRIPT, *map(str, args)], capture_output=True,
                          text=True, check=False)


def test_step_anatomy_with_the_prediction(tmp_path):
    prediction = tmp_path / "step.json"
    prediction.write_text(json.dumps({"rows": [
        {"gpus": 1, "extrapolated": False, "predicted": {"efficiency": 1.0}},
        {"gpus": 2, "extrapolated": False, "predicted": {"efficiency": 0.9}},
        {"gpus": 4, "extrapolated": False, "predicted": {"efficiency": 0.8}},
        {"gpus": 8, "extrapolated": True, "predicted": {"efficiency": 0.8},
         "calibrated": {"efficiency": 0.6}}]}))
    out = tmp_path / "figs"
    r = plot(write_run(tmp_path), "--out", out, "--prediction", prediction)
    assert r.returncode == 0, r.stderr
    path = os.path.join(out, "step_anatomy.png")
    assert path in r.stdout.splitlines()
    height, width = mpimg.imread(path).shape[:2]
    assert (width, height) == (2 * 640, round((4.6 + 0.7) * 100))  # two panels side by side


def test_without_workload_records_it_is_skipped_with_a_note(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"schema": "clusterbench.results", "schema_version": 1,
                                "run": {}, "records": []}))
    r = plot(path, "--out", tmp_path / "figs")
    assert r.returncode == 0, r.stderr
    assert "step_anatomy skipped" in r.stderr
    assert not (tmp_path / "figs" / "step_anatomy.png").exists()


def test_a_bad_prediction_file_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"rows\": 3}")
    r = plot(write_run(tmp_path), "--out", tmp_path / "figs", "--prediction", bad)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines()[-1].startswith("plot.py: --prediction")
    assert not (tmp_path / "figs").exists()  # refused before any figure is written
