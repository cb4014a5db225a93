// per_rank entries leave to the run header where each rank ran (rank_identity.hpp): written
// without it and read back through the header (rank_field), by the file writer, a run's
// incremental writer and its journal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "results/incremental_writer.hpp"
#include "results/rank_identity.hpp"
#include "results/results_io.hpp"

using namespace cb;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Two nodes of two ranks, as make_run_header writes them.
json two_node_run() {
  return {{"id", "r1"},
          {"started", "2026-12-03T00:00:00Z"},
          {"hosts",
           {{{"host", "gpu-a"},
             {"node", 0},
             {"devices",
              {{{"index", 0}, {"rank", 0}, {"uuid", "GPU-0"}, {"name", "H200"}},
               {{"index", 1}, {"rank", 1}, {"uuid", "GPU-1"}, {"name", "H200"}}}}},
            {{"host", "gpu-b"},
             {"node", 1},
             {"devices",
              {{{"index", 0}, {"rank", 2}, {"uuid", "GPU-2"}},
               {{"index", 1}, {"rank", 3}, {"uuid", "GPU-3"}}}}}}}};
}

json entry(int rank, const std::string& host, int node, int device) {
  return {{"rank", rank},
          {"host", host},
          {"node", node},
          {"device", device},
          {"uuid", "GPU-" + std::to_string(rank)},
          {"median_s", 1e-3 * (rank + 1)}};
}

Record record_of_four() {
  Record r;
  r.suite = "collectives";
  r.case_name = "all_reduce";
  r.params = {{"bytes", 8}};
  r.gpus = 4;
  r.nodes = 2;
  r.ranks_per_node = 2;
  r.tier = "inter";
  r.samples_s = {1e-3, 1.1e-3};
  r.stats = summarize(r.samples_s);
  r.metrics = {{"busbw_gbps", 1.0}};
  r.per_rank = json::array();
  for (int k = 0; k < 4; ++k)
    r.per_rank.push_back(entry(k, k < 2 ? "gpu-a" : "gpu-b", k / 2, k % 2));
  // A rank that moved (a record merged from another run): its own fields stay.
  r.per_rank[3]["host"] = "gpu-c";
  return r;
}

// The record's entries, each with the fields the header says of its rank.
json whole_entries(const Record& r) {
  json out = json::array();
  for (const json& e : r.per_rank)
    out.push_back(whole_entry(r, e));
  return out;
}

// Run B's file, written as a run writes it: entries stripped, the record tagged with B's id.
void write_run_b(const std::string& path) {
  ResultsFile b;
  b.run = two_node_run();
  b.run["id"] = "run-b";
  b.records = {record_of_four()};
  write_results_atomic(b, path);
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Dir {
  fs::path path = fs::temp_directory_path() / ("cb-identity-" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

} // namespace

TEST(RankIdentities, StripLeavesOutOnlyWhatTheHeaderSays) {
  const RankIdentities ids(two_node_run());
  ASSERT_FALSE(ids.empty());
  json out;
  ASSERT_TRUE(ids.strip(entry(2, "gpu-b", 1, 0), out));
  EXPECT_EQ(out, (json{{"rank", 2}, {"median_s", 3e-3}}));
  json moved = entry(3, "gpu-c", 1, 1);
  ASSERT_TRUE(ids.strip(moved, out));
  EXPECT_EQ(out, (json{{"rank", 3}, {"host", "gpu-c"}, {"median_s", 4e-3}}));
  EXPECT_FALSE(ids.strip(entry(9, "gpu-z", 4, 0), out)) << "a rank the header does not know";
  EXPECT_FALSE(ids.strip(json{{"median_s", 1.0}}, out)) << "no rank";
  EXPECT_FALSE(ids.strip(json{{"rank", "0"}, {"host", "gpu-a"}}, out)) << "a rank that is text";
  json back = {{"rank", 3}, {"host", "gpu-c"}, {"median_s", 4e-3}};
  ids.restore(back);
  EXPECT_EQ(back, moved);
}

// A GPU rank's entry names the board as an operator finds it (nvidia-smi's index, the PCI bus
// id) beside the CUDA ordinal; the header says them once, as it says the UUID.
TEST(RankIdentities, GpuNamesAreLeftToTheHeaderAndRestored) {
  json run = two_node_run();
  run["hosts"][1]["devices"][0]["nvml_index"] = 5;
  run["hosts"][1]["devices"][0]["pci_bus_id"] = "0000:AB:00.0";
  run["hosts"][1]["devices"][1]["pci_bus_id"] = ""; // nothing known: nothing to restore
  const RankIdentities ids(run);
  json whole = entry(2, "gpu-b", 1, 0);
  whole["nvml_index"] = 5;
  whole["pci_bus_id"] = "0000:AB:00.0";
  json out;
  ASSERT_TRUE(ids.strip(whole, out));
  EXPECT_EQ(out, (json{{"rank", 2}, {"median_s", 3e-3}}));
  ids.restore(out);
  EXPECT_EQ(out, whole);
  json plain = {{"rank", 3}, {"median_s", 4e-3}};
  ids.restore(plain);
  EXPECT_FALSE(plain.contains("pci_bus_id"));
  EXPECT_FALSE(plain.contains("nvml_index"));
}

TEST(RankIdentities, AHeaderWithoutRanksOrWithJunkStripsNothing) {
  EXPECT_TRUE(RankIdentities(json{{"hosts", {{{"host", "a"}}}}}).empty());
  EXPECT_TRUE(RankIdentities(json{{"hosts", "x"}}).empty());
  EXPECT_TRUE(RankIdentities(json::object()).empty());
  const RankIdentities odd(json{{"hosts",
                                 {1,
                                  {{"host", 7}, {"devices", {{{"rank", 0}}}}},
                                  {{"host", "h"}, {"devices", {{{"rank", 1.5}}, "d"}}}}}});
  EXPECT_TRUE(odd.empty());
}

TEST(RankIdentities, AFileIsWrittenWithoutThemAndReadBackWhole) {
  Dir dir;
  ResultsFile f;
  f.run = two_node_run();
  f.records = {record_of_four()};
  write_results_atomic(f, dir.file("r.json"));
  const std::string text = read(dir.file("r.json"));
  EXPECT_EQ(text.find("\"uuid\":\"GPU-0\""), std::string::npos) << "the header says it";
  EXPECT_NE(text.find("\"host\":\"gpu-c\""), std::string::npos) << "the header does not";
  const ResultsFile back = load_results(dir.file("r.json"));
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(whole_entries(back.records[0]), f.records[0].per_rank);
  // Not given back to the entries: read through the header, shared by the file's records.
  EXPECT_FALSE(back.records[0].per_rank[0].contains("uuid"));
  EXPECT_EQ(rank_field(back.records[0], back.records[0].per_rank[0], "uuid"), "GPU-0");
  EXPECT_EQ(rank_field(back.records[0], back.records[0].per_rank[3], "host"), "gpu-c");
  EXPECT_TRUE(rank_field(back.records[0], back.records[0].per_rank[0], "nothing").is_null());
  // Written again under the same header (fit --out), the file is the same.
  write_results_atomic(back, dir.file("again.json"));
  EXPECT_EQ(read(dir.file("again.json")), text);
}

// A record read with its run's header and written into another run's file: its entries are made
// whole, then stripped against that file's header, so that they name the machines they ran on.
TEST(RankIdentities, ARecordWrittenIntoAnotherRunsFileKeepsItsMachines) {
  Dir dir;
  write_run_b(dir.file("b.json"));
  ResultsFile a = load_results(dir.file("b.json"));
  a.run["id"] = "run-a";
  a.run["hosts"][0]["host"] = "gpu-x"; // run A's ranks 0 and 1 ran elsewhere
  write_results_atomic(a, dir.file("a.json"));
  const std::string text = read(dir.file("a.json"));
  EXPECT_NE(text.find("\"host\":\"gpu-a\""), std::string::npos) << "B's hosts are said";
  EXPECT_EQ(text.find("\"per_rank_run\":\"run-b\""), std::string::npos);
  const ResultsFile back = load_results(dir.file("a.json"));
  EXPECT_EQ(whole_entries(back.records[0]), record_of_four().per_rank);
}

TEST(RankIdentities, ARunsFileAndJournalAreReadBackWhole) {
  Dir dir;
  const std::string path = dir.file("run.json");
  {
    IncrementalResultsWriter writer(path, two_node_run());
    // Enough records that the later ones go to the journal, not a rewrite of the file.
    for (int i = 0; i < 400; ++i)
      writer.append(record_of_four());
    const ResultsFile mid = load_results(path);
    ASSERT_EQ(mid.records.size(), 400u);
    EXPECT_TRUE(fs::exists(path + ".journal")) << "the test meant to read a journal";
    for (const Record& r : mid.records)
      EXPECT_EQ(whole_entries(r), record_of_four().per_rank);
  }
  EXPECT_EQ(read(path).find("GPU-1"), read(path).rfind("GPU-1")) << "said once, in the header";
}

TEST(RankIdentities, ARecordCopiedFromAnotherRunIsNotGivenThisRunsHosts) {
  Dir dir;
  write_run_b(dir.file("b.json"));
  ASSERT_NE(read(dir.file("b.json")).find("\"per_rank_run\":\"run-b\""), std::string::npos);
  // Its record pasted into run A's file (another id, other hosts at the same ranks).
  nlohmann::json a = nlohmann::json::parse(read(dir.file("b.json")));
  a["run"]["id"] = "run-a";
  a["run"]["hosts"][0]["host"] = "gpu-x";
  std::ofstream(dir.file("a.json")) << a.dump();
  const ResultsFile loaded = load_results(dir.file("a.json"));
  const json& first = loaded.records[0].per_rank[0];
  EXPECT_FALSE(first.contains("host")) << "named a machine of run A: " << first.dump();
  EXPECT_EQ(loaded.records[0].per_rank_run, "run-b");
  // Written again under A's header (fit --out), it keeps B's tag and its entries as they are.
  write_results_atomic(loaded, dir.file("a2.json"));
  EXPECT_NE(read(dir.file("a2.json")).find("\"per_rank_run\":\"run-b\""), std::string::npos);
  EXPECT_FALSE(load_results(dir.file("a2.json")).records[0].per_rank[0].contains("host"));
}

TEST(RankIdentities, UntaggedOrOversizedOrUnnamedRunsAreNotRestored) {
  // An untagged record (an older file, or entries that say it all) is read as it is.
  Record r = record_of_four();
  r.per_rank = json::array({{{"rank", 0}, {"median_s", 1.0}}});
  RankIdentities(two_node_run()).restore(r);
  EXPECT_FALSE(r.per_rank[0].contains("host"));
  // More entries than the header has ranks: left as they are.
  r.per_rank_run = "r1";
  for (int k = 0; k < 4; ++k)
    r.per_rank.push_back({{"rank", 0}});
  RankIdentities(two_node_run()).restore(r);
  EXPECT_FALSE(r.per_rank[0].contains("host"));
  // A header without a run id, or with a UUID no GPU has, strips and restores nothing of it.
  json run = two_node_run();
  run.erase("id");
  EXPECT_TRUE(RankIdentities(run).empty());
  run = two_node_run();
  run["hosts"][0]["devices"][0]["uuid"] = std::string(100000, 'u');
  const RankIdentities ids(run);
  json out;
  EXPECT_FALSE(ids.strip(entry(0, "gpu-a", 0, 0), out));
  EXPECT_TRUE(ids.strip(entry(1, "gpu-a", 0, 1), out));
}
