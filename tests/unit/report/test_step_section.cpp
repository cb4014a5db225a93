#include <gtest/gtest.h>

#include "report/markdown_renderer.hpp"
#include "report/report_builder.hpp"
#include "report/report_data.hpp"
#include "report/report_json.hpp"
#include "report_test_data.hpp"

using namespace cb;
using namespace cb::report;
using cb::report::test::make_record;

namespace {

Record step(int gpus, double step_s, double compute, double exposed, double wait,
            const std::string& loss) {
  Record r = make_record("workload", "data_parallel_step",
                         {{"model_params", 1e6},
                          {"tokens_per_gpu", 1000},
                          {"bucket_bytes", 1 << 20},
                          {"overlap", "on"},
                          {"input_bytes_per_step", 1 << 20}},
                         gpus,
                         {{"step_s", step_s},
                          {"compute_s", compute},
                          {"exposed_comm_s", exposed},
                          {"input_wait_s", wait},
                          {"utilization", compute / step_s},
                          {"tokens_per_s", gpus * 1000 / step_s}});
  r.extra = {{"gradient_bytes", 4e6}, {"largest_loss", loss}};
  return r;
}

std::string markdown(const ResultsFile& f, const ReportOptions& options = {}) {
  ReportOptions o = options;
  o.step = default_training_step();
  return render_markdown(build_report_document(build_report_data(f, "r.json", o), PlotSet{}));
}

TEST(StepSection, TheHeadlineSaysTheUsefulWorkAndWhenInputWaitIsTheLargestLoss) {
  ResultsFile f;
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  f.records.push_back(step(2, 0.25, 0.1, 0.01, 0.14, "input_wait"));
  const std::string md = markdown(f);
  EXPECT_NE(md.find("on 2 GPUs this cluster did 40.0 % useful work"), std::string::npos) << md;
  EXPECT_NE(md.find("Input wait is the largest loss"), std::string::npos) << md;
  // No parts to predict from: the report says so and prices nothing beyond the measured counts.
  EXPECT_NE(md.find("beyond the 2 GPUs measured nothing can be predicted"), std::string::npos)
      << md;
  EXPECT_NE(md.find("Training step: measured against predicted"), std::string::npos);
  // Priced workload named.
  EXPECT_NE(md.find("Priced workload: 1.0 M parameters"), std::string::npos) << md;
}

TEST(StepSection, TheWorkedExampleAtAMeasuredCount) {
  ResultsFile f;
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  f.records.push_back(step(2, 0.125, 0.1, 0.025, 0, "exposed_comm"));
  ReportOptions o;
  o.outlook_gpus = {2};
  const std::string md = markdown(f, o);
  // E(2) = 0.8: 4,000 GPU-hours on 2 GPUs take 4000 / 1.6 = 2500 hours and cost $12,500 at $2.50.
  EXPECT_NE(md.find("a 4,000 GPU-hour job on 2 GPUs at 80.0 % efficiency would take 2500 hours "
                    "and cost $12,500.00 at $2.50/GPU-hour, 25.0 % over the ideal $10,000.00 "
                    "(efficiency measured)"),
            std::string::npos)
      << md;
  ReportOptions given = o;
  given.gpu_hours = 100;
  given.price = 4;
  const auto data = build_report_data(f, "r.json", given);
  const auto j = report_to_json(data, PlotSet{});
  const auto& priced = j["headline"]["training_step"]["priced"];
  EXPECT_EQ(priced["example_defaults"], false);
  EXPECT_NEAR(priced["cost"]["cost"].get<double>(), 100 * 4 / 0.8, 1e-9);
}

TEST(StepSection, TooFewCountsEndWithOneLineNotANotePerCurve) {
  ResultsFile f;
  for (int n : {1, 2}) {
    f.records.push_back(
        make_record("compute", "triad", {{"bytes", 1 << 26}}, n, {{"gbps", 10.0 * n}}));
    f.records.push_back(
        make_record("compute", "copy", {{"bytes", 1 << 26}}, n, {{"gbps", 9.0 * n}}));
  }
  const std::string md = markdown(f);
  EXPECT_EQ(md.find("**Note:** USL: needs at least"), std::string::npos) << md;
  EXPECT_EQ(md.find("**Note:** Amdahl: needs at least"), std::string::npos) << md;
  EXPECT_NE(md.find("**Not fitted:** USL/Amdahl not fitted for 2 curves: 2 GPU counts, need 3; "
                    "their efficiency is the measured one only."),
            std::string::npos)
      << md;
}

} // namespace
