// The whole report on fixture results: Markdown, HTML and JSON say the same things.
#include "report/report_builder.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "report/html_renderer.hpp"
#include "report/markdown_renderer.hpp"
#include "report/report_json.hpp"
#include "report_test_data.hpp"
#include "results/results_io.hpp"

namespace cb::report {
namespace {

ReportData data_of(const std::string& fixture, const ReportOptions& o = test::default_options()) {
  return build_report_data(load_results(test::fixture(fixture)), fixture, o);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

TEST(ReportBuilder, AnImportedRunNamesTheToolThatMeasuredIt) {
  nlohmann::json run = {{"backend", "host"},
                        {"launcher", "import:osu"},
                        {"hosts", {{{"host", "n1"}, {"devices", nlohmann::json::array()}}}}};
  EXPECT_EQ(describe_run(run), "n1, host backend, measured by osu");
  run["launcher"] = "mpirun";
  EXPECT_EQ(describe_run(run), "n1, host backend");
}

TEST(ReportBuilder, HostClusterMarkdown) {
  const ReportData data = data_of("plots/host_cluster.json");
  const std::string md = render_markdown(build_report_document(data));
  EXPECT_EQ(md.rfind("# clusterbench report: n1 and 1 more host, Intel(R) Xeon(R) Platinum 8481C "
                     "CPU @ 2.70GHz x 8, host backend\n",
                     0),
            0u)
      << md.substr(0, 200);
  EXPECT_NE(md.find("285 records: 282 ok, 1 noisy, 1 skipped, 1 failed."), std::string::npos);
  // The headline comes first, then the families in order.
  const auto headline = md.find("\n## Headline\n");
  const auto compute = md.find("\n## compute\n");
  const auto links = md.find("\n## links\n");
  const auto collectives = md.find("\n## collectives\n");
  const auto storage = md.find("\n## storage\n");
  ASSERT_NE(headline, std::string::npos);
  EXPECT_LT(headline, compute);
  EXPECT_LT(compute, links);
  EXPECT_LT(links, collectives);
  EXPECT_LT(collectives, storage);
  EXPECT_NE(md.find("**Limits scaling first:** " + limit_sentence(data.headline)),
            std::string::npos);
  // No GEMM ran, so no training-step prediction: the report says what is missing.
  EXPECT_NE(md.find("**No training-step prediction:** the results lack compute/gemm"),
            std::string::npos);
  EXPECT_NE(md.find("### Scaling outlook by part"), std::string::npos);
  EXPECT_EQ(md.find("### Training-step prediction"), std::string::npos);
  // Per-GPU spread of copy on 2 GPUs: ranks at 8.902666 and 8.94016 GB/s.
  EXPECT_NE(md.find("|    2 |     1 | 17.74 |     73.8 % |       8.903 |  8.921 | 8.940 |"),
            std::string::npos)
      << md;
  // The fitted models with their predictions.
  EXPECT_NE(md.find("| curve"), std::string::npos);
  EXPECT_NE(md.find("USL α"), std::string::npos);
  EXPECT_NE(md.find("Amdahl serial"), std::string::npos);
  EXPECT_NE(md.find("E at 1024"), std::string::npos);
  EXPECT_NE(md.find("ring all_reduce"), std::string::npos);
  // Records that did not run, with their reasons.
  EXPECT_NE(md.find("- **skipped:** gemm dtype=double k=4096 m=4096 n=4096 on 1 GPU — built "
                    "without OpenBLAS"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("watchdog fired"), std::string::npos);
  EXPECT_NE(md.find("more curves at smaller sizes are not shown"), std::string::npos);
}

TEST(ReportBuilder, H200ClusterPredictsTheTrainingStep) {
  ReportOptions o = test::default_options();
  o.gpu_hours = 4000;
  o.price = 2.5;
  const ReportData data = data_of("report/h200_cluster.json", o);
  ASSERT_TRUE(data.headline.prediction.has_value());
  const std::string md = render_markdown(build_report_document(data));
  EXPECT_NE(md.find("**Limits scaling first:** collectives/all_reduce"), std::string::npos) << md;
  EXPECT_NE(md.find("**Predicted training step on 64 GPUs:**"), std::string::npos);
  EXPECT_NE(md.find("**Predicted training step on 1024 GPUs:**"), std::string::npos);
  EXPECT_NE(md.find("GPU-hour job takes"), std::string::npos);
  EXPECT_NE(md.find("more than the ideal ($"), std::string::npos);
  EXPECT_NE(md.find("**Workload:** data-parallel training of a 7 B-parameter model, 16,384 tokens"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("### Training-step prediction"), std::string::npos);
  // The slow GPU shows in GEMM's per-GPU spread on 32 GPUs, and is named up top.
  EXPECT_NE(md.find("per-GPU min"), std::string::npos);
  EXPECT_NE(md.find("- **Slowest GPU:** rank 21 (h200-03 device 5) runs at 93.6 % of its peers' "
                    "median (compute/gemm on 32 GPUs)"),
            std::string::npos);
  EXPECT_EQ(md.find("No training-step prediction"), std::string::npos);
  EXPECT_NE(md.find("- **skipped:** pair_bw"), std::string::npos);
}

// Without storage records the headline still predicts: cost at 64 and 1024 GPUs, and a plain
// statement that input reads were not measured and so are not in it.
TEST(ReportBuilder, WithoutStorageTheHeadlinePredictsAndSaysInputIsNotIncluded) {
  ResultsFile results = load_results(test::fixture("report/h200_cluster.json"));
  std::erase_if(results.records, [](const Record& r) { return r.suite == "storage"; });
  ReportOptions o = test::default_options();
  o.gpu_hours = 4000;
  o.price = 2.5;
  const ReportData data = build_report_data(results, "no-storage.json", o);
  ASSERT_TRUE(data.headline.prediction.has_value()) << data.headline.prediction_problem;
  const std::string md = render_markdown(build_report_document(data));
  for (const char* n : {"64", "1024"}) {
    const auto at = md.find(std::string("**Predicted training step on ") + n + " GPUs:**");
    ASSERT_NE(at, std::string::npos) << md;
    const std::string line = md.substr(at, md.find('\n', at) - at);
    EXPECT_NE(line.find("; the all-reduce accounts for most of the lost time. Input reads were "
                        "not measured, so they are not included."),
              std::string::npos)
        << line;
    EXPECT_NE(line.find("more than the ideal ($"), std::string::npos) << line;
    EXPECT_EQ(line.find("of input"), std::string::npos) << line;
  }
  EXPECT_NE(md.find("- **Note:** input reads not measured (no storage suite, case seq_read "
                    "records)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| not measured |"), std::string::npos); // the input column of the steps
  EXPECT_EQ(md.find("No training-step prediction"), std::string::npos);

  const nlohmann::json j = report_to_json(data, {});
  EXPECT_EQ(j["headline"]["prediction"]["input_left_out"], true);
  EXPECT_EQ(j["headline"]["prediction"]["at"][1]["gpus"], 1024);
  EXPECT_TRUE(j["headline"]["prediction"]["at"][1]["cost"].is_number());
  EXPECT_EQ(j["headline"]["prediction_missing_parts"], nlohmann::json::array());
}

// The fit's warnings reach the reader beside the curve they are about.
TEST(ReportBuilder, WeakFitsAreNotedBesideTheirCurve) {
  ResultsFile results;
  for (const auto& [n, gbps] : std::vector<std::pair<int, double>>{{1, 10}, {2, 22}, {4, 48}}) {
    results.records.push_back(
        test::make_record("compute", "copy", {{"bytes", 1u << 26}}, n, {{"gbps", gbps}}));
  }
  const ReportData data = build_report_data(results, "weak.json", test::default_options());
  const std::string md = render_markdown(build_report_document(data));
  EXPECT_NE(md.find("- **Note:** USL: alpha and beta held at their lower bound 0"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- **Note:** USL: 3 informative GPU counts for 3 parameters"),
            std::string::npos);
  EXPECT_NE(md.find("- **Note:** Amdahl: superlinear speedup"), std::string::npos);
}

TEST(ReportBuilder, JsonCarriesTheSameContent) {
  const ReportData data = data_of("report/h200_cluster.json");
  const nlohmann::json j = report_to_json(data, {true, {"p/efficiency_compute.png"}, ""});
  EXPECT_EQ(j["source"], "report/h200_cluster.json");
  EXPECT_EQ(j["records"]["total"], 49);
  EXPECT_EQ(j["records"]["skipped"], 1);
  EXPECT_EQ(j["headline"]["limits_first"]["part"], "collectives/all_reduce");
  EXPECT_EQ(j["headline"]["limits_first"]["limit"]["gpus"], 16);
  EXPECT_EQ(j["headline"]["summary"], limit_sentence(data.headline));
  ASSERT_EQ(j["headline"]["stragglers"].size(), 1u);
  EXPECT_EQ(j["headline"]["stragglers"][0]["rank"], "rank 21 (h200-03 device 5)");
  const auto& prediction = j["headline"]["prediction"];
  ASSERT_TRUE(prediction.is_object());
  ASSERT_EQ(prediction["at"].size(), 2u);
  EXPECT_EQ(prediction["at"][0]["gpus"], 64);
  const double e64 = prediction["at"][0]["efficiency"];
  EXPECT_DOUBLE_EQ(e64, data.headline.predicted[0].efficiency);
  EXPECT_NEAR(prediction["at"][0]["cost_overhead"].get<double>(), 1 / e64 - 1, 1e-12);
  ASSERT_EQ(j["families"].size(), 4u);
  EXPECT_EQ(j["families"][0]["suite"], "compute");
  const auto& gemm = j["families"][0]["curves"][0];
  EXPECT_EQ(gemm["case"], "gemm");
  EXPECT_EQ(gemm["rows"].size(), 6u);
  EXPECT_EQ(gemm["rows"][5]["per_rank"]["count"], 32);
  EXPECT_TRUE(gemm["usl"].is_object());
  EXPECT_EQ(gemm["outlook"][0]["gpus"], 64);
  EXPECT_EQ(j["families"][2]["suite"], "collectives");
  EXPECT_EQ(j["families"][2]["alpha_beta"]["ring_all_reduce"].size(), 2u); // intra and inter
  EXPECT_EQ(j["plots"]["files"][0], "p/efficiency_compute.png");
  EXPECT_TRUE(j["plots"]["note"].is_null());
  // Valid JSON all the way: it survives a round trip.
  EXPECT_EQ(nlohmann::json::parse(j.dump()), j);
}

// The fixture's all_reduce records on 16 GPUs name rank 9 (h200-02 device 1) as their
// straggler; one of 4 GPUs names rank 3.
ResultsFile with_stragglers() {
  ResultsFile results = load_results(test::fixture("report/h200_cluster.json"));
  for (Record& r : results.records) {
    if (r.case_name != "all_reduce")
      continue;
    if (r.gpus == 16)
      r.straggler = StragglerRank{9, "h200-02", 1, 0.93, 60e-6, 100e-6};
    if (r.gpus == 4 && r.params["bytes"] == 1048576)
      r.straggler = StragglerRank{3, "h200-01", 3, 0.8, 85e-6, 100e-6};
  }
  return results;
}

TEST(ReportBuilder, AStragglerIsNamedBesideItsCurveInItsFamilyAndInTheHeadline) {
  const ReportData data =
      build_report_data(with_stragglers(), "report/h200_cluster.json", test::default_options());
  const std::string md = render_markdown(build_report_document(data));
  EXPECT_NE(md.find("- **Straggler:** rank 9 (h200-02 device 1) on 16 GPUs: the others waited "
                    "for it; its own time was the shortest in 93 % of samples and 60 % of theirs."),
            std::string::npos)
      << md;
  const auto table = md.find("### Stragglers");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(md.find("\n## collectives\n"), table);
  // Every record naming one, the largest wait first: six sizes on 16 GPUs, then the 4-GPU one.
  const std::string rows = md.substr(table, md.find("**Straggler:**", table) - table);
  EXPECT_EQ(count(rows, "rank 9 (h200-02 device 1)"), 6u) << rows;
  EXPECT_EQ(count(rows, "rank 3 (h200-01 device 3)"), 1u) << rows;
  EXPECT_LT(rows.find("rank 9"), rows.find("rank 3"));
  EXPECT_NE(rows.find("|        93 % |"), std::string::npos) << rows;
  EXPECT_NE(md.find("**Waited for:** rank 9 (h200-02 device 1) is the straggler of 6 collective "
                    "records: the others waited for it, its own time down to 60 % of theirs "
                    "(collectives/all_reduce"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("1 other rank(s) in 1 record(s) (see Stragglers)."), std::string::npos);

  const nlohmann::json j = report_to_json(data, {false, {}, ""});
  const auto& collectives = j["families"][2];
  ASSERT_EQ(collectives["suite"], "collectives");
  ASSERT_EQ(collectives["stragglers"].size(), 7u);
  EXPECT_EQ(collectives["stragglers"][0]["straggler"]["rank"], 9);
  EXPECT_EQ(collectives["stragglers"][0]["straggler"]["host"], "h200-02");
  EXPECT_EQ(collectives["stragglers"][0]["straggler"]["device"], 1);
  EXPECT_DOUBLE_EQ(collectives["stragglers"][0]["straggler"]["own_over_others"].get<double>(), 0.6);
  EXPECT_EQ(j["headline"]["waited_for"].size(), 2u);
  EXPECT_EQ(j["headline"]["waited_for"][0]["records"], 6);
  bool row_named = false;
  for (const auto& curve : collectives["curves"]) {
    for (const auto& row : curve["rows"]) {
      EXPECT_TRUE(row["spike"].is_number()) << row.dump();
      if (row["gpus"] == 16 && curve["case"] == "all_reduce")
        row_named = row["straggler"]["rank"] == 9;
    }
  }
  EXPECT_TRUE(row_named);
}

// Per-rank figures with one rank at 66 % of the median (the emulated cbnode4 that waited for a
// slow cbnode3): in a compute record it is the slowest GPU; in a collective it is a rank that
// waited, so nobody is named from it and the note says why its figure is low.
ResultsFile one_low_rank(const std::string& suite, const std::string& case_name,
                         const std::string& metric) {
  ResultsFile results;
  for (int n : {1, 2, 4}) {
    Record r = test::make_record(suite, case_name, {{"bytes", 1 << 20}}, n, {{metric, 100.0 * n}});
    r.per_rank = nlohmann::json::array();
    for (int rank = 0; rank < n; ++rank) {
      r.per_rank.push_back({{"rank", rank},
                            {"host", "n" + std::to_string(rank)},
                            {"device", 0},
                            {metric, rank == 3 ? 66.0 : 100.0 + rank}});
    }
    results.records.push_back(r);
  }
  return results;
}

TEST(ReportBuilder, ACollectivesLowestOwnFigureIsARankThatWaitedNotASlowGpu) {
  const auto md_of = [](const ResultsFile& results) {
    return render_markdown(
        build_report_document(build_report_data(results, "x.json", test::default_options())));
  };
  const std::string compute = md_of(one_low_rank("compute", "copy", "gbps"));
  EXPECT_NE(compute.find("- **Slowest GPU:** rank 3 (n3 device 0) on 4 GPUs runs at 65.7 % of the "
                         "median"),
            std::string::npos)
      << compute;
  EXPECT_EQ(compute.find("a rank that waited"), std::string::npos);

  const ResultsFile collective = one_low_rank("collectives", "all_reduce", "busbw_gbps");
  const std::string md = md_of(collective);
  EXPECT_EQ(md.find("Slowest GPU"), std::string::npos) << md;
  EXPECT_NE(md.find("so the lowest is a rank that waited, not a slow GPU"), std::string::npos)
      << md;
  const nlohmann::json j = report_to_json(
      build_report_data(collective, "x.json", test::default_options()), {false, {}, ""});
  bool marked = false;
  for (const auto& family : j["families"]) {
    for (const auto& curve : family["curves"]) {
      for (const auto& row : curve["rows"])
        marked = marked || row["per_rank"].value("includes_waiting", false);
    }
  }
  EXPECT_TRUE(marked);
}

TEST(ReportBuilder, EveryCurveRowShowsItsSpike) {
  ResultsFile results = load_results(test::fixture("report/h200_cluster.json"));
  // One all_reduce record on 16 GPUs with a spike: 99 samples of 1 ms and one of 50 ms.
  for (Record& r : results.records) {
    if (r.case_name == "all_reduce" && r.gpus == 16 && r.params["bytes"] == 1073741824) {
      r.samples_s.assign(99, 1e-3);
      r.samples_s.push_back(50e-3);
      r.stats = summarize(r.samples_s);
    }
  }
  const ReportData data =
      build_report_data(results, "report/h200_cluster.json", test::default_options());
  const std::string md = render_markdown(build_report_document(data));
  EXPECT_NE(md.find("| p99/median |"), std::string::npos);
  EXPECT_NE(md.find(" 1.49 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **Spikes:** p99/median is the 99th-percentile sample time"),
            std::string::npos);
}

TEST(ReportBuilder, PlotsGoToTheirFamilies) {
  EXPECT_EQ(plot_family("d/efficiency_compute.png"), "compute");
  EXPECT_EQ(plot_family("d/efficiency_collectives.png"), "collectives");
  EXPECT_EQ(plot_family("busbw_vs_size.png"), "collectives");
  EXPECT_EQ(plot_family("d/link_matrix_pair_bw.png"), "links");
  EXPECT_EQ(plot_family("d/storage_readers.png"), "storage");
  EXPECT_EQ(plot_family("d/overlay_efficiency.png"), "");

  const ReportData data = data_of("plots/host_cluster.json");
  const PlotSet plots{true, {"d/efficiency_storage.png", "d/busbw_vs_size.png", "d/other.png"}, ""};
  const std::string md = render_markdown(build_report_document(data, plots));
  const auto storage = md.find("\n## storage\n");
  const auto collectives = md.find("\n## collectives\n");
  EXPECT_GT(md.find("![efficiency_storage.png](d/efficiency_storage.png)"), storage);
  const auto busbw = md.find("![busbw_vs_size.png](d/busbw_vs_size.png)");
  EXPECT_GT(busbw, collectives);
  EXPECT_LT(busbw, storage);
  EXPECT_GT(md.find("![other.png](d/other.png)"), md.find("\n## Plots\n"));
}

TEST(ReportBuilder, SaysHowToGetMissingPlots) {
  const ReportData data = data_of("plots/host_cluster.json");
  const PlotSet plots{true, {}, "no plots: python3 cannot import matplotlib and numpy"};
  const std::string md = render_markdown(build_report_document(data, plots));
  EXPECT_NE(md.find("\n## Plots\n\nno plots: python3 cannot import matplotlib and numpy\n"),
            std::string::npos);
  // Not asked for: not mentioned.
  EXPECT_EQ(render_markdown(build_report_document(data)).find("## Plots"), std::string::npos);
}

TEST(ReportBuilder, HtmlOfTheFixtureIsSelfContained) {
  const ReportData data = data_of("plots/host_cluster.json");
  const std::string html = render_html(build_report_document(data));
  EXPECT_NE(html.find("<h2>Headline</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>collectives</h2>"), std::string::npos);
  EXPECT_NE(html.find("<strong>Limits scaling first:</strong>"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_EQ(count(html, "<table>"), count(html, "</table>"));
  EXPECT_GE(count(html, "<table>"), 10u);
}

TEST(ReportBuilder, ResultsWithoutRecordsAreBadInput) {
  ResultsFile empty;
  try {
    build_report_data(empty, "runs/empty.json", test::default_options());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("runs/empty.json: no records"), std::string::npos);
  }
}

TEST(ReportBuilder, WorkloadSentence) {
  PredictionConfig step = default_training_step();
  EXPECT_EQ(describe_workload(step),
            "data-parallel training of a 7 B-parameter model, 16,384 tokens per GPU per step (6 "
            "FLOP per parameter per token), 14.0 GB of gradients all-reduced per step (none of it "
            "hidden behind compute), 64 KiB of input read per GPU per step.");
  step.overlap = 0.5;
  step.bytes_per_step = 0;
  EXPECT_NE(describe_workload(step).find("(50 % of it hidden behind compute), nothing of input"),
            std::string::npos);
}

} // namespace
} // namespace cb::report
