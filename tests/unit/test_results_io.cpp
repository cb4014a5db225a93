#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "core/error.hpp"
#include "results/output_target.hpp"
#include "results/results_io.hpp"

using namespace cb;
namespace fs = std::filesystem;

namespace {

Record sample_record() {
  Record r;
  r.suite = "collectives";
  r.case_name = "all_reduce";
  r.params = {{"bytes", 1048576}, {"dtype", "float"}, {"op", "sum"}, {"in_place", false}};
  r.gpus = 2;
  r.nodes = 1;
  r.ranks_per_node = 2;
  r.samples_s = {1e-4, 1.1e-4, 0.9e-4};
  r.stats = summarize(r.samples_s);
  // 1 MiB in the median 100 us: 10.49 GB/s, as the loader checks.
  r.metrics = {{"time_us", 100.0}, {"algbw_gbps", 10.48576}, {"busbw_gbps", 10.48576}};
  r.check = DataCheck::pass;
  return r;
}

class TempDir {
public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("cb-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
  static inline int counter_ = 0;
  fs::path path_;
};

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string load_error(const std::string& path) {
  try {
    load_results(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A change to a file's first record, and words the loader's refusal must hold.
using Spoiled = std::pair<std::function<void(nlohmann::json&)>, std::string>;

// Each change to `good` is refused in one message naming records[0], the case's words and `also`.
void expect_each_refused(const TempDir& dir, const nlohmann::json& good,
                         const std::vector<Spoiled>& cases, const std::string& also) {
  for (const auto& [spoil, expected] : cases) {
    nlohmann::json j = good;
    spoil(j["records"][0]);
    write(dir.file("bad.json"), j.dump());
    const std::string error = load_error(dir.file("bad.json"));
    EXPECT_NE(error.find(expected), std::string::npos) << expected << " | " << error;
    EXPECT_NE(error.find("records[0]: "), std::string::npos) << error;
    EXPECT_NE(error.find(also), std::string::npos) << error;
  }
}

} // namespace

TEST(ResultsIo, RoundTripKeepsEveryField) {
  TempDir dir;
  ResultsFile f;
  f.run = {{"id", "abc"}, {"backend", "host"}};
  f.records.push_back(sample_record());
  f.records.back().extra = {{"wrong_elements", 0}};
  write_results_atomic(f, dir.file("r.json"));
  ResultsFile back = load_results(dir.file("r.json"));
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(record_to_json(back.records[0]), record_to_json(f.records[0]));
  EXPECT_EQ(back.run, f.run);
}

TEST(ResultsIo, IncrementalWriterLeavesAValidFileAfterEveryRecord) {
  TempDir dir;
  const std::string path = dir.file("inc.json");
  IncrementalResultsWriter writer(path, {{"id", "x"}});
  EXPECT_EQ(load_results(path).records.size(), 0u);
  writer.append(sample_record());
  EXPECT_EQ(load_results(path).records.size(), 1u);
  writer.append(sample_record());
  EXPECT_EQ(load_results(path).records.size(), 2u);
  writer.set_run_field("finished", "2026-01-01T00:00:01Z");
  EXPECT_EQ(load_results(path).run["finished"], "2026-01-01T00:00:01Z");
  // No temporary files left behind.
  int files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(fs::path(path).parent_path()))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST(ResultsIo, WriterRejectsMissingDirectory) {
  EXPECT_THROW(IncrementalResultsWriter("/nonexistent-dir-cb/x.json", {}), InputError);
}

TEST(ResultsIo, LoaderRejectsTruncatedFile) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  write_results_atomic(f, dir.file("ok.json"));
  std::ifstream in(dir.file("ok.json"));
  std::string text((std::istreambuf_iterator<char>(in)), {});
  write(dir.file("cut.json"), text.substr(0, text.size() / 2));
  const std::string err = load_error(dir.file("cut.json"));
  EXPECT_NE(err.find("cut.json"), std::string::npos) << err;
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
}

TEST(ResultsIo, ADirectoryIsSaidToBeOneNotInvalidJson) {
  TempDir dir;
  fs::create_directory(dir.file("adir"));
  const std::string err = load_error(dir.file("adir"));
  EXPECT_NE(err.find("adir: is a directory, not a file"), std::string::npos) << err;
}

TEST(ResultsIo, LoaderRejectsUnknownSchemaVersion) {
  TempDir dir;
  write(dir.file("v2.json"),
        R"({"schema":"clusterbench.results","schema_version":2,"run":{},"records":[]})");
  const std::string err = load_error(dir.file("v2.json"));
  EXPECT_NE(err.find("schema_version"), std::string::npos) << err;
}

TEST(ResultsIo, LoaderRejectsOtherSchemaAndNonObjects) {
  TempDir dir;
  write(dir.file("other.json"), R"({"schema":"something.else","schema_version":1})");
  EXPECT_NE(load_error(dir.file("other.json")).find("'schema'"), std::string::npos);
  write(dir.file("arr.json"), "[]");
  EXPECT_NE(load_error(dir.file("arr.json")).find("arr.json"), std::string::npos);
  EXPECT_NE(load_error(dir.file("missing.json")).find("cannot open"), std::string::npos);
}

TEST(ResultsIo, LoaderNamesTheMissingRecordField) {
  TempDir dir;
  for (const char* field :
       {"suite", "case", "params", "gpus", "samples_s", "stats", "metrics", "check", "status"}) {
    ResultsFile f;
    f.records.push_back(sample_record());
    nlohmann::json j = results_to_json(f);
    j["records"][0].erase(field);
    write(dir.file("m.json"), j.dump());
    const std::string err = load_error(dir.file("m.json"));
    EXPECT_NE(err.find(std::string("records[0]: missing field '") + field + "'"), std::string::npos)
        << err;
  }
}

TEST(ResultsIo, LoaderRejectsWrongTypesAndValues) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  nlohmann::json j = results_to_json(f);
  j["records"][0]["status"] = "great";
  write(dir.file("s.json"), j.dump());
  EXPECT_NE(load_error(dir.file("s.json")).find("'status'"), std::string::npos);
  j = results_to_json(f);
  j["records"][0]["metrics"]["busbw_gbps"] = "fast";
  write(dir.file("m.json"), j.dump());
  EXPECT_NE(load_error(dir.file("m.json")).find("busbw_gbps"), std::string::npos);
  j = results_to_json(f);
  j["records"][0]["gpus"] = 0;
  write(dir.file("g.json"), j.dump());
  EXPECT_NE(load_error(dir.file("g.json")).find("'gpus'"), std::string::npos);
  j["records"][0]["gpus"] = 1.5;
  write(dir.file("h.json"), j.dump());
  EXPECT_NE(load_error(dir.file("h.json")).find("field 'gpus' must be an integer"),
            std::string::npos)
      << load_error(dir.file("h.json"));
}

TEST(ResultsIo, NamesAreBoundedAndNoStringCarriesAControlByteToATerminal) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  nlohmann::json j = results_to_json(f);
  j["records"][0]["case"] = "copy\x1b[31mRED\n\r";
  j["records"][0]["params"]["dtype"] = "fl\x07oat";
  j["records"][0]["reason"] = "line\none";
  j["records"][0]["per_rank"] = {{{"rank", 0}, {"host", "n\r1"}, {"median_s", 1e-4}}};
  j["records"][0]["extra"] = {{"k\x1b", "v"}};
  j["run"]["hosts"] = {"a\x1b"
                       "b"};
  write(dir.file("c.json"), j.dump());
  const ResultsFile loaded = load_results(dir.file("c.json"));
  const Record& r = loaded.records.at(0);
  EXPECT_EQ(r.case_name, "copy\\x1b[31mRED\\x0a\\x0d");
  EXPECT_EQ(r.params["dtype"], "fl\\x07oat");
  EXPECT_EQ(r.reason, "line\\x0aone");
  EXPECT_EQ(r.per_rank[0]["host"], "n\\x0d1");
  EXPECT_TRUE(r.extra.contains("k\\x1b"));
  EXPECT_EQ(loaded.run["hosts"][0], "a\\x1bb");
  EXPECT_DOUBLE_EQ(r.per_rank[0]["median_s"].get<double>(), 1e-4) << "numbers stay as they are";
  // A 100,000-byte case name is no name: refused, naming the field.
  j = results_to_json(f);
  j["records"][0]["case"] = std::string(100000, 'x');
  write(dir.file("long.json"), j.dump());
  const std::string err = load_error(dir.file("long.json"));
  EXPECT_NE(err.find("'case' is 100000 bytes long"), std::string::npos) << err;
  j["records"][0]["case"] = "";
  write(dir.file("empty.json"), j.dump());
  EXPECT_NE(load_error(dir.file("empty.json")).find("'case'"), std::string::npos);
}

TEST(ResultsIo, ARecordHasNoMoreNodesThanGpus) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  nlohmann::json j = results_to_json(f);
  j["records"][0]["gpus"] = 1;
  j["records"][0]["nodes"] = 4;
  write(dir.file("n.json"), j.dump());
  const std::string err = load_error(dir.file("n.json"));
  EXPECT_NE(err.find("field 'nodes' is 4, more than its 1 GPU(s)"), std::string::npos) << err;
}

// A collective's rank timing: every rank's p99 and shortest share, a few ranks' raw samples, and
// the straggler the record names, kept field for field.
Record record_with_rank_timing() {
  Record r = sample_record();
  r.per_rank = nlohmann::json::array();
  for (int rank = 0; rank < 4; ++rank) {
    nlohmann::json entry = {{"rank", rank},       {"host", rank < 2 ? "n1" : "n2"},
                            {"device", rank % 2}, {"median_s", rank == 3 ? 0.6e-4 : 1e-4},
                            {"p99_s", 1.2e-4},    {"shortest_share", rank == 3 ? 0.9 : 0.05}};
    if (rank >= 2)
      entry["samples_s"] = {0.0, 1e-4, 1.1e-4}; // a rank's own time may be 0
    r.per_rank.push_back(entry);
  }
  r.per_rank[0].erase("shortest_share"); // never the shortest: written only where above 0
  r.straggler = StragglerRank{3, "n2", 1, 0.9, 0.6e-4, 1e-4};
  return r;
}

TEST(ResultsIo, RankTimingAndTheStragglerRoundTrip) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(record_with_rank_timing());
  write_results_atomic(f, dir.file("r.json"));
  const ResultsFile back = load_results(dir.file("r.json"));
  ASSERT_EQ(back.records.size(), 1u);
  const Record& r = back.records[0];
  EXPECT_EQ(record_to_json(r), record_to_json(f.records[0]));
  ASSERT_TRUE(r.straggler);
  EXPECT_EQ(r.straggler->rank, 3);
  EXPECT_EQ(r.straggler->host, "n2");
  EXPECT_EQ(r.straggler->device, 1);
  EXPECT_DOUBLE_EQ(r.straggler->others_median_s, 1e-4);
  EXPECT_EQ(r.straggler->nvml_index, -1); // the host backend has none: not written
  EXPECT_FALSE(record_to_json(r).at("straggler").contains("nvml_index"));
  EXPECT_DOUBLE_EQ(r.stats.p99, f.records[0].stats.p99);
  // A GPU's names, where the backend has them, are kept.
  f.records[0].straggler->nvml_index = 6;
  f.records[0].straggler->pci_bus_id = "0000:c1:00.0";
  write_results_atomic(f, dir.file("g.json"));
  const ResultsFile gpu = load_results(dir.file("g.json"));
  EXPECT_EQ(gpu.records.at(0).straggler->nvml_index, 6);
  EXPECT_EQ(gpu.records.at(0).straggler->pci_bus_id, "0000:c1:00.0");
  EXPECT_GE(r.stats.spike, 1.0);
}

TEST(ResultsIo, AFileFromBeforeP99AndStragglersStillLoadsWithItsSpikeFromTheSamples) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  nlohmann::json j = results_to_json(f);
  auto& stats = j["records"][0]["stats"];
  stats.erase("p99_s");
  stats.erase("spike");
  write(dir.file("old.json"), j.dump());
  const Record r = load_results(dir.file("old.json")).records.at(0);
  EXPECT_FALSE(r.straggler);
  EXPECT_DOUBLE_EQ(r.stats.p99, percentile(r.samples_s, 0.99));
  EXPECT_DOUBLE_EQ(r.stats.spike, r.stats.p99 / r.stats.median);
  // Without samples there is nothing to say: 0.
  j["records"][0]["samples_s"] = nlohmann::json::array();
  write(dir.file("empty.json"), j.dump());
  EXPECT_EQ(load_results(dir.file("empty.json")).records.at(0).stats.spike, 0.0);
}

TEST(ResultsIo, LoaderRefusesImpossibleRankTiming) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(record_with_rank_timing());
  const nlohmann::json good = results_to_json(f);
  const std::vector<Spoiled> cases = {
      {[](nlohmann::json& r) { r["stats"]["spike"] = 0.99; }, "'stats.spike' is 0.99"},
      {[](nlohmann::json& r) { r["stats"]["spike"] = -1; }, "'stats.spike'"},
      {[](nlohmann::json& r) { r["stats"]["p99_s"] = 2e6; }, "'stats.p99_s'"},
      {[](nlohmann::json& r) { r["per_rank"][1]["shortest_share"] = 1.5; },
       "'per_rank[1].shortest_share' is 1.5"},
      {[](nlohmann::json& r) { r["per_rank"][2]["p99_s"] = "slow"; }, "'per_rank[2].p99_s'"},
      {[](nlohmann::json& r) { r["per_rank"][3]["samples_s"][1] = -1e-4; },
       "'per_rank[3].samples_s[1]'"},
      {[](nlohmann::json& r) { r["per_rank"][3]["samples_s"] = std::vector<double>(129, 1e-4); },
       "holds 129 samples, allowed at most 128"},
      {[](nlohmann::json& r) {
         for (auto& e : r["per_rank"])
           e["samples_s"] = {1e-4};
       },
       "samples_s for more than 3 ranks"},
      {[](nlohmann::json& r) { r["straggler"].erase("host"); }, "straggler: missing field 'host'"},
      {[](nlohmann::json& r) { r["straggler"]["device"] = -1; }, "straggler: field 'device' is -1"},
      {[](nlohmann::json& r) { r["straggler"]["shortest_share"] = 2; }, "'shortest_share' is 2"},
      {[](nlohmann::json& r) { r["straggler"] = "rank 3"; }, "'straggler' must be an object"},
  };
  expect_each_refused(dir, good, cases, "");
}

// The shared set of broken files (tests/fixtures/bad_results/, also checked against the JSON
// Schema by tests/python/test_results_schema.py): each is refused naming its field, good.json is
// read.
TEST(ResultsIo, LoaderRefusesEveryFileOfTheSharedBadSet) {
  const fs::path dir = fs::path(CB_SOURCE_DIR) / "tests" / "fixtures" / "bad_results";
  EXPECT_NO_THROW(load_results((dir / "good.json").string()));
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name == "good.json")
      continue;
    ++seen;
    const std::string field = name.substr(0, name.find("--"));
    const std::string error = load_error(entry.path().string());
    ASSERT_FALSE(error.empty()) << name << " was read";
    // "stats.median_s" is named so; a record's field "gpus" as 'gpus', a sample as samples_s[i].
    const std::string leaf = field.substr(field.find('.') + 1);
    EXPECT_NE(error.find(leaf), std::string::npos) << name << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  EXPECT_GE(seen, 20);
}

// The loader reads a file a chunk (1 MiB) at a time: a file of several chunks, whose tokens and
// strings straddle their edges, reads back whole; brackets inside a string are no nesting.
TEST(ResultsIo, AFileOfManyChunksReadsBackWhole) {
  TempDir dir;
  ResultsFile f;
  for (int i = 0; i < 6000; ++i) {
    Record r = sample_record();
    r.params["label"] =
        std::string(static_cast<std::size_t>(100 + i % 397), '[') + "{" + std::to_string(i);
    f.records.push_back(r);
  }
  write_results_atomic(f, dir.file("big.json"));
  ASSERT_GT(fs::file_size(dir.file("big.json")), 3u << 20);
  const ResultsFile back = load_results(dir.file("big.json"));
  ASSERT_EQ(back.records.size(), f.records.size());
  for (std::size_t i = 0; i < f.records.size(); i += 997)
    EXPECT_EQ(back.records[i].params, f.records[i].params);
  EXPECT_EQ(back.records.back().params, f.records.back().params);
  // Cut anywhere, it is a truncated file, said as one.
  std::string text;
  {
    std::ifstream in(dir.file("big.json"));
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  write(dir.file("cut.json"), text.substr(0, (std::size_t{1} << 20) + 17));
  EXPECT_NE(load_error(dir.file("cut.json")).find("not valid JSON"), std::string::npos);
}

TEST(ResultsIo, LoaderRefusesOverflowDepthAndWrappingIntegers) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  std::string text = results_to_json(f).dump();
  write(dir.file("overflow.json"), std::string(text).replace(text.find("0.0001"), 6, "1e400"));
  EXPECT_NE(load_error(dir.file("overflow.json")).find("number overflow"), std::string::npos);
  write(dir.file("deep.json"), std::string(1'000'000, '['));
  EXPECT_NE(load_error(dir.file("deep.json")).find("nested deeper than 64"), std::string::npos);
  nlohmann::json j = results_to_json(f);
  j["schema_version"] = 4294967297ULL; // 1 once wrapped to 32 bits
  write(dir.file("wrap.json"), j.dump());
  EXPECT_NE(load_error(dir.file("wrap.json")).find("4294967297"), std::string::npos);
  j = results_to_json(f);
  j["records"][0]["samples_s"][0] = 0.0;
  write(dir.file("zero.json"), j.dump());
  EXPECT_NE(load_error(dir.file("zero.json")).find("records[0]: field 'samples_s[0]' is 0"),
            std::string::npos)
      << load_error(dir.file("zero.json"));
}

TEST(ResultsIo, OnlyFilesClusterbenchWroteAreReplaced) {
  TempDir dir;
  auto refused = [](const std::string& path, OwnFile kind) {
    try {
      refuse_foreign_file(path, "--out", kind);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  ResultsFile f;
  f.records.push_back(sample_record());
  write_results_atomic(f, dir.file("ours.json"));
  EXPECT_EQ(refused(dir.file("ours.json"), OwnFile::results), "");
  EXPECT_EQ(refused(dir.file("new.json"), OwnFile::results), "") << "a new file";
  write(dir.file("empty.json"), "");
  EXPECT_EQ(refused(dir.file("empty.json"), OwnFile::results), "") << "nothing to lose";
  write(dir.file("notes.json"), std::string(5000, 'n'));
  EXPECT_NE(
      refused(dir.file("notes.json"), OwnFile::results).find("is not a clusterbench results file"),
      std::string::npos);
  // A foreign file that names the schema in its middle only is still foreign.
  write(dir.file("quote.json"),
        std::string(3000, ' ') + "\"clusterbench.results\"" + std::string(3000, ' '));
  EXPECT_NE(refused(dir.file("quote.json"), OwnFile::results), "");
  // Notes that end by quoting the schema, and a copy of the schema itself: not results files.
  write(dir.file("notes.md"),
        "# notes\nThe file ends with \"schema\": \"clusterbench.results\".\n");
  EXPECT_NE(refused(dir.file("notes.md"), OwnFile::results), "");
  write(dir.file("schema.json"),
        "{\"properties\": {\"schema\": {\"const\": \"clusterbench.results\"}}}\n");
  EXPECT_NE(refused(dir.file("schema.json"), OwnFile::results), "");
  // Ours without a version (as an early writer left it), compact or indented: replaced.
  write(dir.file("compact.json"), "{\"records\":[],\"schema\":\"clusterbench.results\"}");
  EXPECT_EQ(refused(dir.file("compact.json"), OwnFile::results), "");
  // Written by a tool that keeps its keys' order: the name is the first member.
  write(dir.file("ordered.json"), "{\n \"schema\": \"clusterbench.results\",\n \"records\": []" +
                                      std::string(3000, ' ') + "}");
  EXPECT_EQ(refused(dir.file("ordered.json"), OwnFile::results), "");
  write(dir.file("page.html"), "<html><title>mine</title>");
  EXPECT_NE(refused(dir.file("page.html"), OwnFile::html_report).find("not a clusterbench report"),
            std::string::npos);
  // A wiki page whose title starts with the tool's name is still not one of our pages.
  write(dir.file("wiki.html"),
        "<html><head><title>clusterbench team wiki</title></head><body>precious</body></html>");
  EXPECT_NE(refused(dir.file("wiki.html"), OwnFile::html_report), "");
  write(dir.file("own.html"), std::string(kReportPageStart) + "clusterbench report: x</title>");
  EXPECT_EQ(refused(dir.file("own.html"), OwnFile::html_report), "");
}

TEST(ResultsIo, WriterRefusesDevicesFifosDirectoriesAndInputs) {
  TempDir dir;
  ResultsFile f;
  const auto refused = [&](const std::string& path, const std::vector<std::string>& inputs,
                           const std::string& why) {
    try {
      write_results_atomic(f, path, inputs);
    } catch (const InputError& e) {
      return std::string(e.what()).find(why) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused("/dev/null", {}, "is a character device"));
  struct stat info {};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode)) << "/dev/null was replaced";
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  EXPECT_TRUE(refused(dir.file("fifo"), {}, "is a FIFO"));
  EXPECT_TRUE(fs::is_fifo(dir.file("fifo")));
  fs::create_directory(dir.file("d"));
  EXPECT_TRUE(refused(dir.file("d"), {}, "is a directory"));
  write(dir.file("in.json"), "input");
  EXPECT_TRUE(refused(dir.file("in.json"), {dir.file("in.json")}, "is the input"));
  fs::create_symlink(dir.file("in.json"), dir.file("alias.json"));
  EXPECT_TRUE(refused(dir.file("alias.json"), {dir.file("in.json")}, "is the input"));
  std::ifstream kept(dir.file("in.json"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "input");
  // A link to a regular file that is not an input is written through; the link stays.
  write_results_atomic(f, dir.file("alias.json"));
  EXPECT_TRUE(fs::is_symlink(dir.file("alias.json")));
  EXPECT_NO_THROW(load_results(dir.file("in.json")));
}

// Each field in bounds, but the fields against each other impossible: a median edited without
// its samples, percentiles out of order, a bandwidth its size and time do not give.
TEST(ResultsIo, LoaderRefusesFiguresThatContradictEachOther) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  const nlohmann::json good = results_to_json(f);
  write(dir.file("good.json"), good.dump());
  ASSERT_NO_THROW(load_results(dir.file("good.json")));
  const std::vector<Spoiled> cases = {
      {[](nlohmann::json& r) { r["stats"]["median_s"] = 0.95e-4; },
       "stats.median_s is 9.5e-05 and the median of samples_s 0.0001"},
      {[](nlohmann::json& r) { r["stats"]["p95_s"] = 0.95e-4; },
       "stats.median_s 0.0001 is above stats.p95_s"},
      {[](nlohmann::json& r) { r["stats"]["mean_s"] = 2e-4; }, "stats.mean_s 0.0002 is outside"},
      {[](nlohmann::json& r) { r["stats"]["stddev_s"] = 1.0; }, "stats.stddev_s 1 is wider"},
      {[](nlohmann::json& r) { r["stats"]["count"] = 2; },
       "stats.count is 2 and samples_s holds 3"},
      {[](nlohmann::json& r) { r["stats"]["max_s"] = 5e-4; }, "samples_s spans"},
      {[](nlohmann::json& r) { r["metrics"]["time_us"] = 50.0; },
       "metrics.time_us is 50 and stats.median_s 0.0001"},
      {[](nlohmann::json& r) { r["metrics"]["algbw_gbps"] = 100.0; },
       "metrics.algbw_gbps is 100 and params.bytes / stats.median_s is 10.4858 GB/s"},
      {[](nlohmann::json& r) { r["params"]["bytes"] = 1 << 30; }, "metrics.algbw_gbps is 10.4858"},
  };
  expect_each_refused(dir, good, cases, "contradict");
}

// A record that keeps a subset of its samples (a pair test at scale keeps evenly spaced order
// statistics, the smallest and largest among them) has stats of all of them: it loads.
TEST(ResultsIo, ARecordKeepingSomeOfItsSamplesLoads) {
  TempDir dir;
  Record r = sample_record();
  r.suite = "links";
  r.case_name = "pair_bw";
  r.params = {{"bytes", 1048576}};
  std::vector<double> all;
  for (int i = 1; i <= 101; ++i)
    all.push_back(i * 1e-5);
  r.stats = summarize(all);
  r.samples_s = {all.front(), all[50], all.back()};
  r.metrics = {{"time_us", r.stats.median * 1e6}, {"gbps", 2.0}};
  ResultsFile f;
  f.records.push_back(r);
  write_results_atomic(f, dir.file("r.json"));
  EXPECT_EQ(load_results(dir.file("r.json")).records.at(0).stats.count, 101u);
}

TEST(ResultsIo, LoaderRefusesANegativeFigureOfARank) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  f.records.back().per_rank = {
      {{"rank", 0}, {"host", "n0"}, {"median_s", 1e-4}, {"busbw_gbps", 9.0}},
      {{"rank", 1}, {"host", "n1"}, {"median_s", 1e-4}, {"busbw_gbps", 9.0}}};
  nlohmann::json j = results_to_json(f);
  write(dir.file("good.json"), j.dump());
  ASSERT_NO_THROW(load_results(dir.file("good.json")));
  for (const auto& [field, value] : std::vector<std::pair<std::string, double>>{
           {"busbw_gbps", -9.0}, {"median_s", -1e-4}, {"rank", -1}, {"median_s", 2e6}}) {
    nlohmann::json bad = j;
    bad["records"][0]["per_rank"][1][field] = value;
    write(dir.file("bad.json"), bad.dump());
    const std::string error = load_error(dir.file("bad.json"));
    EXPECT_NE(error.find("'per_rank[1]." + field + "'"), std::string::npos) << error;
  }
}

// nlohmann keeps the last value of a repeated key; the loader refuses the file instead, naming
// the key and the record.
TEST(ResultsIo, LoaderRefusesARepeatedKey) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  f.records.push_back(sample_record());
  const std::string text = results_to_json(f).dump();
  const std::string median = "\"median_s\":";
  const auto second_record = text.find("\"case\"", text.find("\"case\"") + 1);
  ASSERT_NE(second_record, std::string::npos);
  const auto at = text.find(median, second_record);
  ASSERT_NE(at, std::string::npos);
  std::string twice = text;
  twice.insert(at, median + "0.5,");
  write(dir.file("twice.json"), twice);
  const std::string error = load_error(dir.file("twice.json"));
  EXPECT_NE(error.find("records[1]: key 'median_s' appears twice"), std::string::npos) << error;

  // At the top level: a second "records" would replace the first.
  std::string two_lists = text;
  two_lists.insert(1, "\"records\":[],");
  write(dir.file("two_lists.json"), two_lists);
  EXPECT_NE(load_error(dir.file("two_lists.json")).find("key 'records' appears twice"),
            std::string::npos)
      << load_error(dir.file("two_lists.json"));
}
