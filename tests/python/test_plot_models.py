"""The numbers behind the plots: USL fit and band, efficiency definitions, the fits-section reader,
labels, and the results reader's checks."""

import copy
import json
import math
import os

import numpy as np
import pytest

from clusterplots import curves as cv
from clusterplots.labels import distinguishing_keys, format_param, format_size, metric_label
from clusterplots.metric_table import BY_NAME, TABLE_FILE
from clusterplots.model import FROM_FITS, evaluation_grids, model_for
from clusterplots.plot_efficiency import model_label
from clusterplots.plot_links import link_matrix
from clusterplots.results import ResultsError, cluster_label, load_results, results_from_json
from clusterplots.usl import (bootstrap_band_ratio, fit_usl, fit_usl_batch, usl_peak,
                              usl_throughput)
from plot_fixtures import GPU_RUN, HOST_RUN, USL_VECTORS_FILE


# Published USL fits (bounded non-linear least squares), from tests/fixtures/usl_vectors.json:
# the R package 'usl' (tests/coef.R, generated from alpha = beta = 0.02, gamma = 1) and SPEC SDM91
# from Gunther, Guerrilla Capacity Planning (docs/REFERENCE.md, "Test vectors").
def _usl_vectors():
    with open(USL_VECTORS_FILE) as f:
        sets = json.load(f)["sets"]
    return [pytest.param(s["n"], s["x"],
                         tuple(s["nls"][k] for k in ("alpha", "beta", "gamma", "n_peak")),
                         s["tolerance_relative"], id=s["name"])
            for s in sets]


USL_VECTORS = _usl_vectors()


# ---- USL --------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, x, published, tolerance", USL_VECTORS)
def test_usl_fit_matches_published_fits(n, x, published, tolerance):
    fit = fit_usl(n, x)
    for got, want in zip((fit.alpha, fit.beta, fit.gamma, fit.n_peak), published):
        assert got == pytest.approx(want, rel=tolerance)


def test_usl_formula_and_peak():
    assert usl_throughput(1, 0.3, 0.01, 5.0) == pytest.approx(5.0)
    assert usl_throughput(4, 0.1, 0.01, 2.0) == pytest.approx(8.0 / (1 + 0.3 + 0.12))
    assert usl_peak(0.02, 0.02) == pytest.approx(7.0)
    assert math.isinf(usl_peak(0.5, 0.0))


def test_usl_fit_recovers_exact_parameters_and_stays_in_bounds():
    n = np.array([1, 2, 4, 8, 16, 32], dtype=float)
    fit = fit_usl(n, usl_throughput(n, 0.05, 0.001, 12.0))
    assert (fit.alpha, fit.beta, fit.gamma) == pytest.approx((0.05, 0.001, 12.0), rel=1e-4)
    assert fit.r2 == pytest.approx(1.0)
    # Superlinear data would want alpha < 0: the bounded fit stops at 0.
    superlinear = fit_usl(n, 3.0 * n**1.1)
    assert superlinear.alpha >= 0 and superlinear.beta >= 0


def test_usl_batch_fits_each_row_alone():
    n = np.array([1, 2, 4, 8], dtype=float)
    rows = np.stack([usl_throughput(n, 0.1, 0.0, 3.0), usl_throughput(n, 0.0, 0.02, 7.0)])
    params = fit_usl_batch(n, rows)
    assert params[0] == pytest.approx([0.1, 0.0, 3.0], abs=1e-6)
    assert params[1] == pytest.approx([0.0, 0.02, 7.0], abs=1e-6)


def test_usl_fit_needs_three_gpu_counts():
    with pytest.raises(ValueError):
        fit_usl([1, 2, 2], [1.0, 1.9, 1.8])


def test_bootstrap_band_brackets_the_fit_and_widens_when_extrapolating():
    n = np.array([1, 2, 4, 8], dtype=float)
    x = usl_throughput(n, 0.05, 0.002, 10.0) * np.array([1.0, 1.02, 0.97, 1.01])
    fit = fit_usl(n, x)
    grid = np.array([1.0, 4.0, 8.0, 32.0])
    low, high = bootstrap_band_ratio(n, x, fit, grid)
    assert np.all(low <= 1.0 + 1e-9) and np.all(high >= 1.0 - 1e-9)
    width = high - low
    assert width[-1] > width[2] > 0
    again = bootstrap_band_ratio(n, x, fit, grid)
    assert np.array_equal(again[0], low) and np.array_equal(again[1], high)   # fixed seed


def test_bootstrap_band_uses_timing_noise_when_residuals_are_zero():
    n = np.array([2, 4, 8], dtype=float)
    x = usl_throughput(n, 0.1, 0.01, 5.0)
    fit = fit_usl(n, x)
    grid = np.array([2.0, 8.0, 32.0])
    assert bootstrap_band_ratio(n, x, fit, grid) is None      # exact fit, no samples: no band
    samples = [[1.0, 1.03, 0.98, 1.01, 0.99]] * 3
    low, high = bootstrap_band_ratio(n, x, fit, grid, samples)
    assert np.all(high > low)


# ---- curves and efficiency ---------------------------------------------------------------------

def record(suite, case, params, gpus, metrics, status="ok", nodes=1, samples=None):
    return {"suite": suite, "case": case, "params": params, "gpus": gpus, "nodes": nodes,
            "ranks_per_node": gpus, "samples_s": samples or [1.0, 1.01, 0.99],
            "stats": {"median_s": 1.0}, "metrics": metrics, "per_rank": [], "check": "pass",
            "status": status}


def parse(records, fits=None):
    obj = {"schema": "clusterbench.results", "schema_version": 1, "run": {}, "records": records}
    if fits is not None:
        obj["fits"] = fits
    return results_from_json(obj, "test.json")


def test_weak_scaling_efficiency_of_aggregate_throughput():
    results = parse([record("compute", "copy", {"bytes": 8}, n, {"gbps": x})
                     for n, x in [(1, 10.0), (2, 19.0), (4, 36.0), (8, 60.0)]])
    (curve,) = cv.build_scaling_curves(results.records)
    assert curve.metric == "gbps"
    assert list(curve.efficiency) == pytest.approx([1.0, 0.95, 0.9, 0.75])
    assert curve.definition == "E(N) = X(N) / (N·X(1))"


def test_collective_efficiency_is_busbw_ratio_to_two_at_the_largest_size():
    rows = []
    for n, small, large in [(1, 0.0, 0.0), (2, 1.0, 10.0), (4, 0.9, 8.0), (8, 0.5, 5.0)]:
        for size, busbw in ((1024, small), (1 << 20, large)):
            rows.append(record("collectives", "all_reduce", {"bytes": size, "in_place": False}, n,
                               {"algbw_gbps": size / 1e9, "busbw_gbps": busbw}))
    (curve,) = cv.build_scaling_curves(parse(rows).records)
    assert curve.params["bytes"] == 1 << 20
    assert curve.gpus == [2, 4, 8]
    assert list(curve.efficiency) == pytest.approx([1.0, 0.8, 0.5])
    assert list(curve.aggregate) == pytest.approx([20.0, 32.0, 40.0])     # N * busbw
    assert curve.definition == "E(N) = busbw(N) / busbw(2)"


def test_headline_metric_order():
    assert cv.headline_metric({"gflops": 1, "tflops": 1, "gbps": 1}) == "gbps"
    assert cv.headline_metric({"busbw_gbps": 1, "gbps": 1}) == "busbw_gbps"
    assert cv.headline_metric({"gflops": 1, "tflops": 1}) == "tflops"
    assert cv.headline_metric({"time_us": 1}) is None


def test_only_ok_and_noisy_records_make_points_and_in_place_yields_to_out_of_place():
    rows = [record("compute", "triad", {}, 1, {"gbps": 10.0}),
            record("compute", "triad", {}, 2, {"gbps": 18.0}, status="noisy"),
            record("compute", "triad", {}, 4, {"gbps": 1.0}, status="failed"),
            record("compute", "triad", {}, 8, {"gbps": 1.0}, status="skipped")]
    for n in (2, 4):
        rows.append(record("collectives", "all_gather", {"bytes": 64, "in_place": False}, n,
                           {"busbw_gbps": 5.0}))
        rows.append(record("collectives", "all_gather", {"bytes": 64, "in_place": True}, n,
                           {"busbw_gbps": 9.0}))
    curves = {c.case: c for c in cv.build_scaling_curves(parse(rows).records)}
    assert curves["triad"].gpus == [1, 2] and curves["triad"].noisy == [False, True]
    assert curves["all_gather"].values == [5.0, 5.0]
    assert curves["all_gather"].params["in_place"] is False


def test_repeated_points_take_the_record_with_the_most_samples_as_fit_and_report_do():
    rows = [record("storage", "seq_read", {}, 1, {"gbps": v}, samples=[1.0] * k)
            for v, k in ((1.0, 3), (3.0, 5), (2.0, 5))]
    rows += [record("storage", "seq_read", {}, 2, {"gbps": 3.0}),
             record("storage", "seq_read", {}, 2, {"gbps": 100.0}, status="noisy",
                    samples=[1.0] * 9)]
    (curve,) = cv.build_scaling_curves(parse(rows).records)
    assert curve.values == [3.0, 100.0]   # five samples beat three, the first of two fives wins
    assert curve.noisy == [False, True]


# ---- the model: the fits section's, or none ----------------------------------------------

def copy_curve_records():
    return [record("compute", "copy", {"bytes": 8}, n, {"gbps": x})
            for n, x in [(1, 10.0), (2, 19.5), (4, 37.0), (8, 66.0)]]


def fits_entry(**overrides):
    entry = {"suite": "compute", "case": "copy", "params": {"bytes": 8}, "metric": "gbps",
             "gpus": [1, 2, 4, 8], "values": [10.0, 19.5, 37.0, 66.0],
             "usl": {"alpha": 0.031, "beta": 0.0007, "gamma": 10.1, "r2": 0.99,
                     "warnings": ["few points"]}}
    entry.update(overrides)
    return entry


def test_model_uses_a_matching_fits_entry():
    results = parse(copy_curve_records(), {"curves": [fits_entry()]})
    (curve,) = cv.build_scaling_curves(results.records)
    model = model_for(curve, results.fits)
    assert model.source == FROM_FITS
    assert (model.alpha, model.beta, model.gamma) == (0.031, 0.0007, 10.1)
    assert model.warnings == ["few points"]
    n = np.array([1.0, 8.0, 32.0])
    assert model.efficiency(n) == pytest.approx(usl_throughput(n, 0.031, 0.0007, 10.1) / n / 10.0)


@pytest.mark.parametrize("fits", [
    {},
    {"curves": "not a list"},
    [1, 2],
    {"curves": [fits_entry(values=[10.0, 25.0, 50.0, 90.0])]},     # other points
    {"curves": [fits_entry(gpus=[[1], 2, 4, 8])]},
    {"curves": [fits_entry(params={"bytes": 16})]},
    {"curves": [fits_entry(metric="gflops")]},
    {"curves": [fits_entry(usl={"alpha": "x"})]},
])
def test_no_model_when_the_fits_section_does_not_describe_the_curve(fits, monkeypatch):
    import clusterplots.usl as usl_module

    def no_fit(*args):
        raise AssertionError("the plot fitted a curve the file stores no fit for")

    monkeypatch.setattr(usl_module, "fit_usl_batch", no_fit)
    results = parse(copy_curve_records(), fits)
    (curve,) = cv.build_scaling_curves(results.records)
    assert model_for(curve, results.fits) is None


def test_a_stored_fit_is_drawn_without_fitting_the_curve_again(monkeypatch):
    import clusterplots.usl as usl_module

    def no_refit(*args):
        raise AssertionError("the curve was fitted again although the file has its fit")

    monkeypatch.setattr(usl_module, "fit_usl", no_refit)
    results = parse(copy_curve_records(), {"curves": [fits_entry()]})
    (curve,) = cv.build_scaling_curves(results.records)
    model = model_for(curve, results.fits)
    assert model.source == FROM_FITS and model.band_fit is model
    n = np.array([1.0, 4.0, 32.0])
    band = model.band(n)   # the bootstrap of the stored fit, laid around the stored curve
    assert band is not None
    low, high = band
    assert np.all(low <= model.efficiency(n) + 1e-12)
    assert np.all(model.efficiency(n) <= high + 1e-12)


def test_without_a_stored_fit_the_plot_names_the_missing_fit(tmp_path):
    results = parse(copy_curve_records())
    (curve,) = cv.build_scaling_curves(results.records)
    assert model_for(curve, results.fits) is None
    assert model_label(None, curve) == "  (no fit stored)"
    short = cv.build_scaling_curves(parse(copy_curve_records()[:2]).records)[0]
    assert model_label(None, short) == ""   # too few points: no fit could exist


def test_fits_entry_of_a_collective_models_the_aggregate_n_times_busbw():
    # As `clusterbench fit` writes it: values are busbw as measured (0 on one GPU), the USL is of
    # N * busbw, and E(N) = busbw(N) / busbw(2).
    rows = [record("collectives", "all_reduce", {"bytes": 4096}, n, {"busbw_gbps": b})
            for n, b in [(1, 0.0), (2, 10.0), (4, 9.0), (8, 7.0)]]
    entry = {"suite": "collectives", "case": "all_reduce", "params": {"bytes": 4096},
             "metric": "busbw_gbps", "tier_info": "intra", "gpus": [1, 2, 4, 8],
             "values": [0.0, 10.0, 9.0, 7.0], "efficiency": [None, 1.0, 0.9, 0.7],
             "efficiency_base_gpus": 2, "warnings": [],
             "usl": {"method": "nls", "alpha": 0.02, "beta": 0.01, "gamma": 10.5, "n_peak": 9.9,
                     "peak_throughput": 50.0, "r2": 0.98, "points": 3, "warnings": []}}
    results = parse(rows, {"curves": [entry]})
    (curve,) = cv.build_scaling_curves(results.records)
    model = model_for(curve, results.fits)
    assert model.source == FROM_FITS
    n = np.array([2.0, 4.0, 16.0])
    assert model.efficiency(n) == pytest.approx(usl_throughput(n, 0.02, 0.01, 10.5) / n / 10.0)


def test_fits_entry_with_null_figures_is_not_used():
    entry = fits_entry(usl={"method": "nls", "alpha": None, "beta": None, "gamma": None,
                            "r2": None, "warnings": ["too few points"]})
    results = parse(copy_curve_records(), {"curves": [entry]})
    (curve,) = cv.build_scaling_curves(results.records)
    assert model_for(curve, results.fits) is None


def test_too_few_points_give_no_model_and_grids_reach_four_times_the_largest_n():
    rows = [record("compute", "copy", {}, n, {"gbps": x}) for n, x in [(1, 1.0), (2, 1.8)]]
    (curve,) = cv.build_scaling_curves(parse(rows).records)
    assert model_for(curve, {}) is None
    inside, beyond = evaluation_grids(curve)
    assert (inside[0], inside[-1], beyond[0], beyond[-1]) == pytest.approx((1, 2, 2, 8))


def test_fixture_curves():
    host = load_results(HOST_RUN)
    curves = {(c.suite, c.case, c.params.get("block_bytes")): c
              for c in cv.build_scaling_curves(host.records)}
    assert set(curves) == {("collectives", "all_gather", None), ("collectives", "all_reduce", None),
                           ("compute", "copy", None), ("compute", "triad", None),
                           ("storage", "seq_read", 1 << 20), ("storage", "seq_read", 4096),
                           ("storage", "rand_read", 4096)}
    assert curves[("collectives", "all_reduce", None)].params == \
        {"bytes": 1 << 24, "dtype": "float", "op": "sum", "in_place": False}
    gpu = load_results(GPU_RUN)
    for c in cv.build_scaling_curves(gpu.records):
        model = model_for(c, gpu.fits)
        if c.suite == "storage":
            assert model is None
        else:
            assert model.source == FROM_FITS


# ---- labels and the results reader ---------------------------------------------------------------

def test_labels():
    assert format_size(8) == "8 B"
    assert format_size(1536) == "1.5 KiB"
    assert format_size(16 * 2**20) == "16 MiB"
    assert format_param("block_bytes", 4096) == "block 4 KiB"
    assert format_param("in_place", False) == "out-of-place"
    assert format_param("direct", True) == "direct"
    assert format_param("dtype", "bf16") == "dtype bf16"
    assert distinguishing_keys([{"a": 1, "b": 2}, {"a": 1, "b": 3}, {"a": 1}]) == {"b"}


def test_cluster_label():
    run = {"hosts": [{"host": "n1", "devices": [{"name": "NVIDIA H200"}]}, {"host": "n2"}],
           "backend": "cuda"}
    assert cluster_label(run) == "n1 (+1 host) · NVIDIA H200 · cuda"
    assert cluster_label({"backend": "host"}) == "host"
    assert cluster_label({}) == "unknown cluster"


@pytest.mark.parametrize("change, message", [
    (lambda r: r.pop("gpus"), "records[0]: missing field 'gpus'"),
    (lambda r: r.update(gpus=0), "records[0]: field 'gpus' must be at least 1"),
    (lambda r: r.update(gpus=2.5), "records[0]: field 'gpus' must be an integer"),
    (lambda r: r["metrics"].update(gbps="fast"),
     "records[0]: metric 'gbps' must be a finite number"),
    (lambda r: r.update(check="maybe"),
     "records[0]: field 'check' is 'maybe', allowed pass|fail|skipped"),
    (lambda r: r.update(params=[]), "records[0]: field 'params' must be an object"),
])
def test_results_reader_names_the_record_and_field(change, message):
    row = record("compute", "copy", {}, 1, {"gbps": 1.0})
    change(row)
    with pytest.raises(ResultsError) as error:
        parse([row])
    assert str(error.value) == f"test.json: {message}"


def test_results_reader_rejects_nan_metrics(tmp_path):
    path = tmp_path / "nan.json"
    row = record("compute", "copy", {}, 1, {"gbps": 1.0})
    text = json.dumps({"schema": "clusterbench.results", "schema_version": 1, "run": {},
                       "records": [row]}).replace('"gbps": 1.0', '"gbps": NaN')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ResultsError, match="metric 'gbps' must be a finite number"):
        load_results(str(path))


def test_per_rank_entries_get_back_what_the_header_says_of_their_rank():
    # A writer leaves each entry's host, node, device and UUID to the header; an entry that says
    # otherwise (a merged file) keeps its own, and a rank the header does not know stays as it is.
    run = {"id": "run-a", "hosts": [{"host": "n1", "node": 0, "devices": [
        {"index": 0, "rank": 0, "uuid": "GPU-a"}, {"index": 1, "rank": 1, "uuid": "GPU-b"}]},
        {"host": "n2", "node": 1, "devices": [{"index": 0, "uuid": "GPU-c", "rank": 5},
                                              {"index": 1, "uuid": "GPU-d"}]}, "junk"]}
    rec = record("collectives", "all_reduce", {"bytes": 8}, 3, {"busbw_gbps": 1.0})
    rec["per_rank"] = [{"rank": 0, "median_s": 1.0}, {"rank": 1, "host": "elsewhere"},
                       {"rank": 2, "median_s": 2.0}]
    rec["per_rank_run"] = "run-a"
    # A record copied in from another run keeps its tag and is not given this run's hosts.
    other = copy.deepcopy(rec)
    other["per_rank_run"] = "run-b"
    obj = {"schema": "clusterbench.results", "schema_version": 1, "run": run,
           "records": [rec, other]}
    records = results_from_json(obj, "test.json").records
    entries = records[0].per_rank
    assert entries[0] == {"rank": 0, "median_s": 1.0, "host": "n1", "node": 0, "device": 0,
                          "uuid": "GPU-a"}
    assert entries[1] == {"rank": 1, "host": "elsewhere", "node": 0, "device": 1, "uuid": "GPU-b"}
    assert entries[2] == {"rank": 2, "median_s": 2.0}
    assert records[1].per_rank[0] == {"rank": 0, "median_s": 1.0}


def test_per_rank_rates_left_to_the_median_come_back_and_contradictions_are_refused():
    # A writer leaves out the rates each entry's median_s gives (per_rank_derived).
    rec = record("collectives", "all_reduce", {"bytes": 8}, 2, {"busbw_gbps": 3.0, "time_us": 2e6})
    rec["stats"] = {"median_s": 2.0}
    rec["samples_s"] = [2.0]
    rec["per_rank"] = [{"rank": 0, "median_s": 2.0}, {"rank": 1, "median_s": 3.0}]
    rec["per_rank_derived"] = ["busbw_gbps"]
    (back,) = parse([copy.deepcopy(rec)]).records
    assert back.per_rank[0]["busbw_gbps"] == 3.0
    assert back.per_rank[1]["busbw_gbps"] == 2.0
    spoiled = [({"per_rank_derived": "busbw_gbps"}, "array of 1 to 64"),
               ({"per_rank_derived": ["busbw_gbps", "busbw_gbps"]}, "distinct"),
               ({"per_rank_derived": ["gbps"]}, "not among the record's metrics"),
               ({"per_rank_derived": ["median_s"]}, "no rate"),
               ({"per_rank": [{"rank": 0, "median_s": 2.0, "busbw_gbps": 1.0}]}, "says is derived"),
               ({"per_rank": [{"rank": 0}]}, "no positive median_s"),
               ({"per_rank": [{"rank": 0, "median_s": 1e-300}]}, "out of bounds"),
               ({"per_rank": []}, "without per_rank entries"),
               ({"stats": {"median_s": 0}}, "positive stats.median_s")]
    for change, why in spoiled:
        bad = copy.deepcopy(rec)
        bad.update(change)
        with pytest.raises(ResultsError, match=why):
            parse([bad])


def test_a_record_whose_figures_contradict_each_other_is_refused():
    # The checks of the C++ loader (harness/results/record_figures.cpp), to the same slack.
    good = record("collectives", "all_reduce", {"bytes": 1e9}, 2,
                  {"time_us": 1e6, "algbw_gbps": 1.0, "busbw_gbps": 1.0},
                  samples=[0.9, 1.0, 1.1])
    good["stats"] = {"count": 3, "min_s": 0.9, "p05_s": 0.91, "median_s": 1.0, "p95_s": 1.09,
                     "p99_s": 1.099, "max_s": 1.1}
    parse([copy.deepcopy(good)])
    spoiled = [(("stats", "median_s", 1.2), "stats.median_s 1.2 is above stats.p95_s"),
               (("stats", "count", 2), "stats.count is 2 and samples_s holds 3"),
               (("stats", "max_s", 1.5), "samples_s spans"),
               (("metrics", "time_us", 1.5e6), "metrics.time_us"),
               (("metrics", "algbw_gbps", 2.0), "metrics.algbw_gbps is 2")]
    for (part, key, value), why in spoiled:
        bad = copy.deepcopy(good)
        bad[part][key] = value
        with pytest.raises(ResultsError, match=why):
            parse([bad])
    # Every sample kept: the median is theirs.
    bad = copy.deepcopy(good)
    bad["samples_s"] = [0.9, 0.95, 1.1]
    with pytest.raises(ResultsError, match="median of samples_s 0.95"):
        parse([bad])


def test_link_matrix_reading():
    host = load_results(HOST_RUN)
    (uni,) = [r for r in host.records if r.params.get("direction") == "uni"]
    values = link_matrix(uni)
    assert values.shape == (4, 4)
    assert np.all(np.isnan(np.diag(values)))
    assert np.all(values[~np.eye(4, dtype=bool)] > 0)
    broken = copy.deepcopy(uni)
    broken.extra["matrix"][2][3] = "fast"
    with pytest.raises(ResultsError, match=r"extra.matrix'?: \[2\]\[3\] must be a number or null"):
        link_matrix(broken)


# ---- the metric table -------------------------------------------------------------------------

def test_labels_and_headline_metrics_come_from_the_table_the_tools_embed():
    # The file the C++ build embeds (harness/results/metric_table.hpp), not a copy.
    assert TABLE_FILE.endswith(os.path.join("results", "metrics.json"))
    assert metric_label("busbw_gbps") == "bus bandwidth (GB/s)"
    assert metric_label("gbps") == "throughput (GB/s)"
    assert metric_label("tflops") == "TFLOP/s"
    assert metric_label("latency_us") == "latency (µs)"
    assert metric_label("widgets") == "widgets"
    assert metric_label("fraction_of_peak") == "fraction of peak"
    assert cv.HEADLINE_METRICS == ("busbw_gbps", "gbps", "tflops", "gflops")
    assert not BY_NAME["latency_us"].higher_is_better and BY_NAME["latency_us"].headline


def test_storage_panels_say_what_each_case_does_with_its_bytes():
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from clusterplots.plot_storage import draw_storage_panel

    lines = {"k": ({"block_bytes": 1 << 20}, [(1, 1.0, False), (2, 1.8, False)])}
    said = {}
    for case in ("seq_read", "checkpoint_read", "checkpoint_write", "checkpoint_stage"):
        fig, ax = plt.subplots()
        draw_storage_panel(ax, case, lines)
        said[case] = (ax.get_ylabel(), ax.get_xlabel())
        plt.close(fig)
    assert said["seq_read"] == ("aggregate read throughput (GB/s)", "readers (GPUs)")
    assert said["checkpoint_read"] == said["seq_read"]  # the restore reads
    assert said["checkpoint_write"] == ("aggregate write throughput (GB/s)", "writers (GPUs)")
    assert said["checkpoint_stage"] == ("aggregate snapshot throughput (GB/s)", "ranks (GPUs)")
