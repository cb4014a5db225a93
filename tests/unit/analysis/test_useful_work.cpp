// Useful work = scaling efficiency x goodput, goodput's C and R read off results records: which
// record is C in each mode, R's parts, what is held, interpolated and fitted beyond the measured
// counts (and said so), and bad figures and flags refused naming the file, field or flag.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/useful_work.hpp"
#include "core/error.hpp"

namespace cb {
namespace {

Record timed(const std::string& suite, const std::string& name, int gpus, double seconds,
             double checkpoint_bytes = 1e9) {
  Record r;
  r.suite = suite;
  r.case_name = name;
  r.gpus = gpus;
  r.status = RecordStatus::ok;
  if (suite == "storage")
    r.params = {{"checkpoint_bytes", checkpoint_bytes}, {"block_bytes", 1 << 20}};
  r.metrics = {{"time_us", seconds * 1e6}};
  return r;
}

// Saves of 40 s at every count, restores of 20 s, snapshots of 2 s; the communicator's first
// creation 0.1 + 0.01 N seconds (its steady one ten times faster) on 1, 2 and 4 GPUs.
ResultsFile checkpoint_run() {
  ResultsFile f;
  for (int n : {1, 2, 4}) {
    f.records.push_back(timed("storage", "checkpoint_write", n, 40.0 + n));
    f.records.push_back(timed("storage", "checkpoint_read", n, 20.0 + n));
    f.records.push_back(timed("storage", "checkpoint_stage", n, 2.0));
    Record init = timed("collectives", "communicator_init", n, 0.01 + 0.001 * n);
    init.metrics["cold_time_us"] = (0.1 + 0.01 * n) * 1e6;
    f.records.push_back(init);
  }
  return f;
}

GoodputEstimate direct(int gpus, double c, double r, double mtbf_hours = kLlama3GpuMtbfHours) {
  GoodputInputs in;
  in.gpus = gpus;
  in.gpu_mtbf_hours = mtbf_hours;
  in.checkpoint_s = c;
  in.restart_s = r;
  return estimate_goodput(in);
}

TEST(UsefulWork, AtAMeasuredCountCIsTheSaveAndRIsColdStartUpPlusRestore) {
  const UsefulWorkSettings settings;
  const auto src = goodput_sources(checkpoint_run(), "r.json", settings);
  ASSERT_TRUE(src);
  EXPECT_EQ(src->measured_gpus(), (std::vector<int>{1, 2, 4}));
  const GoodputAtScale g = goodput_at_scale(*src, 4, settings);
  EXPECT_TRUE(g.measured);
  EXPECT_FALSE(g.extrapolated);
  EXPECT_DOUBLE_EQ(g.checkpoint_s, 44);
  EXPECT_DOUBLE_EQ(g.restore_s, 24);
  EXPECT_NEAR(g.init_s, 0.14, 1e-9); // the cold figure, not the steady 0.014
  const GoodputEstimate e = direct(4, 44, 24.14);
  EXPECT_NEAR(g.estimate.goodput, e.goodput, 1e-12);
  EXPECT_NEAR(g.estimate.interval_s, e.interval_s, 1e-6);
  EXPECT_NE(g.basis.items[0].basis.find("checkpoint_write"), std::string::npos);
  EXPECT_NE(g.basis.items[2].basis.find("cold"), std::string::npos);
}

TEST(UsefulWork, AsyncCheckpointsBlockForTheSnapshotOnly) {
  UsefulWorkSettings settings;
  settings.async = true;
  settings.restart_overhead_s = 300;
  settings.gpu_mtbf_hours = 1000;
  const auto src = goodput_sources(checkpoint_run(), "r.json", settings);
  ASSERT_TRUE(src);
  const GoodputAtScale g = goodput_at_scale(*src, 2, settings);
  EXPECT_DOUBLE_EQ(g.checkpoint_s, 2);
  EXPECT_NEAR(g.estimate.inputs.restart_s, 22 + 0.12 + 300, 1e-9);
  EXPECT_NEAR(g.estimate.goodput, direct(2, 2, 322.12, 1000).goodput, 1e-12);
  EXPECT_TRUE(g.basis.items[3].assumed); // the overhead is the user's, and said so
}

TEST(UsefulWork, BeyondTheMeasuredCountsEachAssumptionIsSaid) {
  const UsefulWorkSettings settings;
  const auto src = goodput_sources(checkpoint_run(), "r.json", settings);
  const GoodputAtScale g = goodput_at_scale(*src, 1024, settings);
  EXPECT_FALSE(g.measured);
  EXPECT_TRUE(g.extrapolated);
  EXPECT_DOUBLE_EQ(g.checkpoint_s, 44); // held at 4 GPUs' figure
  EXPECT_DOUBLE_EQ(g.restore_s, 24);
  EXPECT_NEAR(g.init_s, 0.1 + 0.01 * 1024, 1e-6); // the line through the cold figures
  const std::string basis = describe_basis(g.basis);
  EXPECT_NE(basis.find("measured at 4 GPUs, held"), std::string::npos) << basis;
  EXPECT_NE(basis.find("fitted on 1..4 GPUs, extrapolated"), std::string::npos) << basis;
  EXPECT_NE(basis.find("not included"), std::string::npos) << basis;
  // Between measured counts: interpolated.
  const GoodputAtScale mid = goodput_at_scale(*src, 3, settings);
  EXPECT_DOUBLE_EQ(mid.checkpoint_s, 43);
  EXPECT_FALSE(mid.extrapolated);
  EXPECT_NE(describe_basis(mid.basis).find("interpolated between 2 and 4 GPUs"), std::string::npos);
}

TEST(UsefulWork, OneInitCountIsHeldAndNoneIsLeftOutAndSaid) {
  ResultsFile f = checkpoint_run();
  std::erase_if(f.records,
                [](const Record& r) { return r.case_name == "communicator_init" && r.gpus != 2; });
  const UsefulWorkSettings settings;
  auto src = goodput_sources(f, "r.json", settings);
  GoodputAtScale g = goodput_at_scale(*src, 8, settings);
  EXPECT_NEAR(g.init_s, 0.12, 1e-9);
  EXPECT_NE(g.basis.items[2].basis.find("measured at 2 GPUs, held"), std::string::npos);
  std::erase_if(f.records, [](const Record& r) { return r.case_name == "communicator_init"; });
  src = goodput_sources(f, "r.json", settings);
  g = goodput_at_scale(*src, 4, settings);
  EXPECT_EQ(g.init_s, 0);
  EXPECT_NE(g.basis.items[2].basis.find("not measured: left out"), std::string::npos);
}

TEST(UsefulWork, WithoutCheckpointRecordsItSaysWhichRunWouldAnswer) {
  ResultsFile f;
  f.records.push_back(timed("storage", "seq_read", 1, 1.0));
  const UsefulWorkSettings settings;
  EXPECT_FALSE(goodput_sources(f, "r.json", settings));
  const std::string why = goodput_not_measured(f, settings);
  EXPECT_NE(why.find("--suite storage --cases checkpoint_write,checkpoint_read"), std::string::npos)
      << why;
  f.records.push_back(timed("storage", "checkpoint_read", 1, 1.0));
  EXPECT_FALSE(goodput_sources(f, "r.json", settings));
  EXPECT_NE(goodput_not_measured(f, settings).find("no usable storage/checkpoint_write records"),
            std::string::npos);
}

TEST(UsefulWork, ConfigurationMeasuredAtMostCountsAndRestoreOfTheSameSize) {
  ResultsFile f = checkpoint_run();
  f.records.push_back(timed("storage", "checkpoint_write", 4, 1.0, 5e8)); // one count only
  f.records.push_back(timed("storage", "checkpoint_read", 4, 1.0, 5e8));
  const auto src = goodput_sources(f, "r.json", UsefulWorkSettings{});
  EXPECT_DOUBLE_EQ(goodput_at_scale(*src, 4, UsefulWorkSettings{}).checkpoint_s, 44);
  EXPECT_DOUBLE_EQ(goodput_at_scale(*src, 4, UsefulWorkSettings{}).restore_s, 24);
  EXPECT_TRUE(src->notes.empty());
  // A restore of another size only: used, and said.
  ResultsFile other = checkpoint_run();
  for (auto& r : other.records) {
    if (r.case_name == "checkpoint_read")
      r.params["checkpoint_bytes"] = 2e9;
  }
  const auto said = goodput_sources(other, "r.json", UsefulWorkSettings{});
  const std::string basis = describe_basis(goodput_at_scale(*said, 4, UsefulWorkSettings{}).basis);
  EXPECT_NE(basis.find("not measured with the checkpoint's size"), std::string::npos) << basis;
}

void expect_refused(double value, const char* field, const char* case_name) {
  ResultsFile f = checkpoint_run();
  for (auto& r : f.records) {
    if (r.case_name == case_name && r.gpus == 2)
      r.metrics[field] = value;
  }
  try {
    goodput_sources(f, "runs/r.json", UsefulWorkSettings{});
    FAIL() << field << "=" << value << " accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("runs/r.json"), std::string::npos) << what;
    EXPECT_NE(what.find(std::string("metrics.") + field), std::string::npos) << what;
    EXPECT_NE(what.find(case_name), std::string::npos) << what;
  }
}

TEST(UsefulWork, NegativeZeroOrAbsurdFiguresAreRefusedNamingFileAndField) {
  expect_refused(-5, "time_us", "checkpoint_write");
  expect_refused(0, "time_us", "checkpoint_read");
  expect_refused(1e12, "cold_time_us", "communicator_init");   // 11.6 days
  expect_refused(std::nan(""), "time_us", "checkpoint_stage"); // checked in either mode
}

TEST(UsefulWork, FlagsOutOfRangeNameTheFlag) {
  EXPECT_DOUBLE_EQ(parse_gpu_mtbf_hours("5000"), 5000);
  EXPECT_TRUE(parse_checkpoint_mode("async"));
  EXPECT_FALSE(parse_checkpoint_mode("sync"));
  EXPECT_DOUBLE_EQ(parse_restart_overhead("0"), 0);
  auto message = [](auto f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message([] { parse_gpu_mtbf_hours("0"); }).rfind("--gpu-mtbf-hours:", 0), 0u);
  EXPECT_EQ(message([] { parse_gpu_mtbf_hours("-3"); }).rfind("--gpu-mtbf-hours:", 0), 0u);
  EXPECT_EQ(message([] { parse_checkpoint_mode("lazy"); }).rfind("--checkpoint-mode:", 0), 0u);
  EXPECT_EQ(message([] { parse_restart_overhead("-1"); }).rfind("--restart-overhead:", 0), 0u);
  EXPECT_EQ(message([] { parse_restart_overhead("1e9"); }).rfind("--restart-overhead:", 0), 0u);
}

TEST(UsefulWork, TheSentenceMultipliesEfficiencyByGoodput) {
  const auto src = goodput_sources(checkpoint_run(), "r.json", UsefulWorkSettings{});
  const GoodputAtScale g = goodput_at_scale(*src, 4, UsefulWorkSettings{});
  const std::string text = useful_work_text(0.81, g);
  char expect[64];
  std::snprintf(expect, sizeof expect, "= %.1f %% useful work", 81 * g.estimate.goodput);
  EXPECT_NE(text.find("81.0 % scaling efficiency x "), std::string::npos) << text;
  EXPECT_NE(text.find(expect), std::string::npos) << text;
  EXPECT_NE(text.find("blocking 44s"), std::string::npos) << text;
  const auto j = goodput_at_scale_to_json(g, 0.81);
  EXPECT_NEAR(j["useful_work"].get<double>(), 0.81 * g.estimate.goodput, 1e-12);
  EXPECT_EQ(j["rests_on"]["parts"].size(), 4u);
}

} // namespace
} // namespace cb
