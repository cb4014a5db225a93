// Logs as the tools printed them in their own versions: nccl-tests' definitions of 2019, a
// SkyPilot wrapper in front of Open MPI's tag, fio 2.x's repeated keys. Every figure asserted here
// is read off the fixture by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "imports/fio_import.hpp"
#include "imports/fio_repeated_keys.hpp"
#include "imports/nccl_tests_import.hpp"
#include "imports/nccl_tests_rules.hpp"
#include "imports/text_lines.hpp"
#include "results/json_file.hpp"

using namespace cb;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/" + name;
}

const Record& find(const ImportedRun& run, const std::string& case_name, long long bytes,
                   bool in_place) {
  for (const auto& r : run.records) {
    if (r.case_name == case_name && r.params["bytes"] == bytes && r.params["in_place"] == in_place)
      return r;
  }
  throw std::runtime_error("no " + case_name + " record of " + std::to_string(bytes) + " bytes");
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has_warning(const ImportedRun& run, const std::string& part) {
  for (const auto& w : run.warnings) {
    if (w.find(part) != std::string::npos)
      return true;
  }
  return false;
}

// An all_gather table of one row in the layout of `header`, 8 ranks, algbw from one rank's part
// (the definition of nccl-tests before June 2020): 134217728 B x 7/8 in 939.5 us is 125.00 GB/s.
std::string one_row_all_gather(const std::string& header, const std::string& row) {
  std::string text = "# nThread 1 nGpus 8 minBytes 1 maxBytes 134217728 step: 2(factor)\n"
                     "# Using devices\n";
  for (int r = 0; r < 8; ++r) {
    text += "#   Rank  " + std::to_string(r) + " Pid   4122 on dgx1 device  " + std::to_string(r) +
            " [0x06] Tesla V100-SXM2-16GB\n";
  }
  return text + header + "\n" + row + "\n";
}

} // namespace

TEST(NcclTests2019, AllGatherAndBroadcastWithoutRedopImportWithTheirTablesFigures) {
  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/nccl_tests_2019_allgather_broadcast_8xv100.txt"));
  ASSERT_EQ(run.records.size(), 32u); // 2 tables x 8 rows x 2 halves
  // all_gather printed the total size and computed algbw from one rank's part: 134217728 B x 7/8
  // in 939.5 us is 125.00 GB/s, busbw equal to it. Time and busbw are the table's; algbw is
  // restated as size / time, what every record means by it, and the printed one is kept.
  const Record& gather = find(run, "all_gather", 134217728, false);
  EXPECT_EQ(gather.gpus, 8);
  EXPECT_DOUBLE_EQ(gather.metrics["time_us"].get<double>(), 939.5);
  EXPECT_DOUBLE_EQ(gather.metrics["busbw_gbps"].get<double>(), 125.00);
  EXPECT_DOUBLE_EQ(gather.metrics["algbw_gbps"].get<double>(), 134217728 / 939.5e3);
  EXPECT_DOUBLE_EQ(gather.extra["algbw_printed_gbps"].get<double>(), 125.00);
  EXPECT_EQ(gather.extra["count"], 4194304); // one rank's part: 134217728 / 8 / 4
  EXPECT_EQ(gather.extra["bandwidth_definition"], nccl_tests::kPerRankPartDefinition);
  EXPECT_EQ(gather.check, DataCheck::pass);
  EXPECT_FALSE(gather.params.contains("op"));
  EXPECT_DOUBLE_EQ(find(run, "all_gather", 1048576, true).extra["algbw_printed_gbps"].get<double>(),
                   31.08);
  // broadcast's definitions were already today's (size / time, factor 1): nothing to name.
  const Record& bcast = find(run, "broadcast", 134217728, false);
  EXPECT_DOUBLE_EQ(bcast.metrics["time_us"].get<double>(), 1434.8);
  EXPECT_DOUBLE_EQ(bcast.metrics["algbw_gbps"].get<double>(), 93.54);
  EXPECT_DOUBLE_EQ(bcast.metrics["busbw_gbps"].get<double>(), 93.54);
  EXPECT_EQ(bcast.params["root"], 0);
  EXPECT_FALSE(bcast.extra.contains("bandwidth_definition"));
  EXPECT_EQ(run.hosts.size(), 1u);
  EXPECT_EQ(run.hosts[0]["devices"][7]["name"], "Tesla V100-SXM2-16GB");
}

TEST(NcclTests2019, EachRuleHoldsOnlyTheDefinitionsOfTheVersionThatPrintedTheTable) {
  const std::string error_header =
      "#       size         count    type     time   algbw   busbw  error     time   algbw   "
      "busbw  error";
  const std::string old_row = "   134217728       4194304   float    939.5  125.00  125.00  0e+00"
                              "    950.8  123.52  123.52  0e+00";
  EXPECT_NO_THROW(
      import_nccl_tests_text(one_row_all_gather(error_header, old_row), "all_gather_perf.txt"));
  // The same figures under "#wrong" (nccl-tests 2.13+, long after June 2020): refused.
  const std::string wrong_header =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
      "time   algbw   busbw #wrong";
  const std::string modern_row = "   134217728       4194304     float    none      -1    939.5  "
                                 "125.00  125.00       0    950.8  123.52  123.52       0";
  EXPECT_NE(error_of([&] {
              import_nccl_tests_text(one_row_all_gather(wrong_header, modern_row),
                                     "all_gather_perf.txt");
            }).find("algbw 125 GB/s is not its size over its time"),
            std::string::npos);
  // Neither definition: busbw not equal to algbw under the old one, algbw not size / time.
  const std::string edited = "   134217728       4194304   float    939.5  125.00  109.38  0e+00"
                             "    950.8  123.52  123.52  0e+00";
  EXPECT_NE(error_of([&] {
              import_nccl_tests_text(one_row_all_gather(error_header, edited),
                                     "all_gather_perf.txt");
            }).find("all_gather_perf.txt:12: algbw 125 GB/s"),
            std::string::npos);
  // all_reduce never had another definition: an "error" table holds it to today's.
  const std::string all_reduce = "   134217728      33554432   float     sum   939.5  125.00  "
                                 "125.00  0e+00    950.8  123.52  123.52  0e+00";
  const std::string reduce_header =
      "#       size         count    type   redop     time   algbw   busbw  error     time   "
      "algbw   busbw  error";
  EXPECT_NE(error_of([&] {
              import_nccl_tests_text(one_row_all_gather(reduce_header, all_reduce),
                                     "all_reduce_perf.txt");
            }).find("is not its size over its time"),
            std::string::npos);
}

TEST(WrapperPrefixes, SkyPilotsLabelBeforeOpenMpisTagIsStripped) {
  auto tool = [](std::string_view rest) {
    return rest.empty() || rest[0] == '#' || std::isdigit(static_cast<unsigned char>(rest[0]));
  };
  EXPECT_EQ(strip_launcher_prefix("(head, rank=0, pid=3808) [1,0]<stdout>:# nThread 1", tool),
            "# nThread 1");
  EXPECT_EQ(strip_launcher_prefix("(worker1, rank=1, pid=2845, ip=10.128.0.7) 8388608 2", tool),
            "8388608 2");
  EXPECT_EQ(strip_launcher_prefix("(pid=4242) # x", tool), "# x");
  // Parentheses without a key=value are a tool's own text, not a wrapper's label.
  EXPECT_EQ(strip_launcher_prefix("(B) 8 16", tool), "(B) 8 16");
  EXPECT_EQ(strip_launcher_prefix("(elements) 8", tool), "(elements) 8");
  EXPECT_EQ(strip_launcher_prefix("(rank=0)x 8", tool), "(rank=0)x 8");

  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/skypilot_all_reduce_2x8xh100.log"));
  ASSERT_EQ(run.records.size(), 16u); // 8 rows x 2 halves
  const Record& last = find(run, "all_reduce", 1073741824, false);
  EXPECT_EQ(last.gpus, 16);
  EXPECT_EQ(last.nodes, 2);
  EXPECT_DOUBLE_EQ(last.metrics["time_us"].get<double>(), 5640.4);
  EXPECT_DOUBLE_EQ(last.metrics["busbw_gbps"].get<double>(), 356.94);
  EXPECT_DOUBLE_EQ(find(run, "all_reduce", 8388608, true).metrics["algbw_gbps"].get<double>(),
                   90.58);
  EXPECT_EQ(run.hosts.size(), 2u);
  // SkyPilot's own lines are not the tool's: reported, not read.
  EXPECT_TRUE(has_warning(run, "Worker node ready"));
  EXPECT_TRUE(has_warning(run, "Permanently added"));
}

TEST(FioTwoRepeatedKeys, ReadAsFioMeantThemAndSaidSo) {
  const ImportedRun run = import_fio_file(fixture("fio/fio2_repeated_keys.json"));
  ASSERT_EQ(run.records.size(), 1u);
  const Record& r = run.records[0];
  EXPECT_EQ(r.case_name, "seq_read");
  EXPECT_EQ(r.params["queue_depth"], 32); // iodepth=16, then iodepth=32: the later setting
  EXPECT_EQ(r.params["block_bytes"], 131072);
  EXPECT_EQ(r.extra["target"], "/dev/nvme0n1:/dev/nvme1n1"); // both filename= lines read
  // io_bytes 62500096 KiB (fio 2.x) in 10000 ms.
  EXPECT_NEAR(r.metrics["gbps"].get<double>(), 62500096.0 * 1024 / 10 / 1e9, 1e-9);
  EXPECT_DOUBLE_EQ(r.metrics["iops"].get<double>(), 48828.2);
  EXPECT_TRUE(has_warning(run, "key 'filename' again 1 time(s) in 'job options' objects; read "
                               "as every file named"));
  EXPECT_TRUE(has_warning(run, "key 'iodepth' again 1 time(s) in 'job options' objects; read "
                               "as the later value"));
  // 17 default percentiles in a list of 20: "0.00" three times in each of read, write, trim.
  EXPECT_TRUE(has_warning(run, "key '0.00' again 6 time(s) in 'percentile' objects; read as "
                               "fio 2.x's placeholder"));
}

TEST(FioTwoRepeatedKeys, OnlyWhereFioRepeatsThem) {
  const std::string path = "fio.json";
  FioRepeatedKeys repeated(path);
  auto merge = [&](nlohmann::json& o, const std::string& name, const std::string& key,
                   nlohmann::json later) { repeated.merge(o, name, key, std::move(later)); };
  // group_reporting in a client/server run: every job of the group lists its options in turn.
  const nlohmann::json j = parse_json_text(
      R"({"jobs":[{"job options":{"filename":"/dev/a","rw":"read","filename":"/dev/b:/dev/a",
          "rw":"read"}}]})",
      path, merge);
  EXPECT_EQ(j["jobs"][0]["job options"]["filename"], "/dev/a:/dev/b");
  EXPECT_EQ(j["jobs"][0]["job options"]["rw"], "read");
  EXPECT_EQ(repeated.notes().size(), 2u);
  // A figure fio never prints twice: which one is meant cannot be told.
  const std::string why = error_of(
      [&] { parse_json_text(R"({"jobs":[{"read":{"io_bytes":1,"io_bytes":2}}]})", path, merge); });
  EXPECT_EQ(why.rfind("fio.json: key 'io_bytes' appears twice in one object ('read') with "
                      "different values",
                      0),
            0u)
      << why;
  // Our own files still refuse every repeated key.
  EXPECT_NE(error_of([&] { parse_json_text(R"({"a":1,"a":1})", path); }).find("appears twice"),
            std::string::npos);
}

// A hostile file repeating filename: each repeat costs its own length, and a job naming more
// files than any real one is refused.
TEST(FioTwoRepeatedKeys, ManyRepeatedFilenamesAreBounded) {
  const std::string path = "fio.json";
  auto options = [](int repeats, int names_each) {
    std::string text = R"({"jobs":[{"job options":{)";
    for (int i = 0; i < repeats; ++i) {
      text += i ? ",\"filename\":\"" : "\"filename\":\"";
      for (int n = 0; n < names_each; ++n)
        text += (n ? ":/dev/f" : "/dev/f") + std::to_string(i * names_each + n);
      text += i % 2 ? ":/dev/f0\"" : "\""; // names given before are kept once
    }
    return text + "}}]}";
  };
  FioRepeatedKeys repeated(path);
  auto merge = [&](nlohmann::json& o, const std::string& name, const std::string& key,
                   nlohmann::json later) { repeated.merge(o, name, key, std::move(later)); };
  const nlohmann::json j = parse_json_text(options(20'000, 1), path, merge);
  const std::string files = j["jobs"][0]["job options"]["filename"].get<std::string>();
  EXPECT_EQ(std::count(files.begin(), files.end(), ':'), 19'999);
  EXPECT_EQ(files.rfind("/dev/f0:/dev/f1:/dev/f2:", 0), 0u);
  EXPECT_EQ(files.substr(files.size() - 12), ":/dev/f19999");
  const std::string why = error_of([&] { parse_json_text(options(20'000, 4), path, merge); });
  EXPECT_EQ(why, "fio.json: 'filename' names more than 65536 files in one job; refused");
}
